"""One seat's view made into an engine :class:`State` (a *determinized* state) for a bot's search.

A bot sees the game only through its :class:`~app.engine.views.SeatView`. To ask the engine which
of its own actions are legal, or what one would do, it needs a :class:`State`; :func:`state_for`
is the one place that builds it, from the view alone. Everything public (melds, discard pile,
counts, turn bookkeeping, the seat's own hand) is copied; the cards this seat cannot see (the
pack less its hand, the discard pile and the melds) are dealt to the other hands (each seat's
publicly known cards first, GEN-14) and to the stock in pack order, so the multiset of cards and
every count are right. Given a generator, the unseen cards are shuffled first: one *sample* of
the hidden cards, drawn only from what the view shows (the analysis, :mod:`app.analysis`, judges
a move over several). The legality of this seat's own actions never depends on those hidden
cards, so ``legal_actions(state_for(view, rules), seat)`` equals
``legal_actions(true_state, seat)`` (tests/bots/test_determinize.py).

One thing the view does not carry: other seats' pending Rummy calls (OPT-CALL). A room closes
the call window before the next player acts, so a bot never decides with calls pending.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import chain

from app.engine.actions import CallRummy
from app.engine.cards import standard_pack
from app.engine.moves import legal_actions
from app.engine.rules import GameRules
from app.engine.state import CallWindow, Phase, State
from app.engine.views import SeatView, TableView, TurnState


def state_for(view: SeatView, rules: GameRules, rng: random.Random | None = None) -> State:
    """A state consistent with ``view`` under ``rules``, the view's seat holding its own hand;
    with ``rng``, the unseen cards are dealt in an order it shuffles (else in pack order).

    Raises ``ValueError`` if the view does not fit the rules (its cards are not the game's pack,
    or the counts do not add up), or is a spectator's.
    """
    table = view.table
    st = State(rules=rules, phase=Phase(table["phase"]), dealer=table["dealer"],
               hand_no=table["hand_no"], totals=list(table["totals"]),
               results=list(view.results), game_winner=table["game_winner"],
               turn=table["turn"])
    if not table["hand_counts"]:  # no hand dealt yet
        return st
    st.melds = list(view.melds)
    st.discard = list(table["discard"])
    st.known = [list(k) for k in table["known"]]
    st.locked = [list(k) for k in table["locked"]]
    st.opened = list(table["opened"])
    st.tabled = list(table["opened"])  # lay-offs are not in the view; only scoring reads this
    st.shown = list(table["shown"])
    st.turns = list(table["turns"])
    st.hand_scores = list(table["hand_scores"])
    st.restocks = table["restocks"]
    st.takes = [0] * rules.players
    st.hands, st.stock = _deal_hidden(view, rules.pack_size(), rng)
    _turn_state(st, table["turn_state"])
    st.tabled_at_turn_start = st.tabled[st.turn] if st.turn is not None else False
    _open_call_window(view, st)
    return st


def _deal_hidden(view: SeatView, pack_size: tuple[int, int],
                 rng: random.Random | None) -> tuple[list[list[str]], list[str]]:
    """Own hand from the view; to each other hand its public cards, then unseen cards in pack
    order (shuffled by ``rng`` if given); the unseen cards left are the stock."""
    table, seat = view.table, view.seat
    counts = table["hand_counts"]
    hands = [list(view.part["hand"]) if s == seat else _public_cards(table, s)
             for s in range(len(counts))]
    melded = (p.card for m in view.melds for p in m.cards)
    unseen = _unseen(_pack(pack_size), Counter(chain(table["discard"], melded, *hands)))
    if rng is not None:
        rng.shuffle(unseen)
    for s, hand in enumerate(hands):
        if s != seat:
            need = counts[s] - len(hand)
            if not 0 <= need <= len(unseen):
                raise ValueError(f"seat {s} holds {counts[s]} cards; the view cannot fill them")
            hand += unseen[:need]
            del unseen[:need]
    if len(unseen) != table["stock_count"]:
        raise ValueError(f"{len(unseen)} unseen cards left for a stock of "
                         f"{table['stock_count']}")
    return hands, unseen


def _public_cards(table: TableView, seat: int) -> list[str]:
    """What every seat knows ``seat`` holds: its whole hand once the hand's end revealed it,
    else the discards it took and still holds (GEN-14) and its locked cards (PHOM-6)."""
    revealed = table["revealed"]
    if len(revealed) == table["players"] and len(revealed[seat]) == table["hand_counts"][seat]:
        return list(revealed[seat])
    known, locked = table["known"][seat], table["locked"][seat]
    if not locked or not known:
        return list(known or locked)
    return list((Counter(known) | Counter(locked)).elements())


@cache  # one entry per pack size a game uses: a handful
def _pack(pack_size: tuple[int, int]) -> tuple[tuple[str, int], ...]:
    """Each card of a pack of ``pack_size`` (decks, jokers) in pack order, with which copy of
    its code it is (0 for the first)."""
    copies: Counter[str] = Counter()
    cards = []
    for card in standard_pack(*pack_size):
        cards.append((card, copies[card]))
        copies[card] += 1
    return tuple(cards)


def _unseen(pack: tuple[tuple[str, int], ...], seen: Counter[str]) -> list[str]:
    """The cards of ``pack`` less ``seen``, in pack order (of ``k`` copies of a code seen
    ``j`` times, the last ``k - j`` stay); raises if ``seen`` holds a card the pack does not,
    or more copies of one than it has (then fewer than ``len(pack) - seen.total()`` stay)."""
    get = seen.get
    unseen = [c for c, copy in pack if get(c, 0) <= copy]
    if len(unseen) + seen.total() != len(pack):
        raise ValueError(f"cards not in the pack: {sorted(seen - Counter(c for c, _ in pack))}")
    return unseen


def _turn_state(st: State, turn: TurnState) -> None:
    st.taken = list(turn["taken"])
    st.drawn = turn["drawn"]
    st.melds_this_turn = turn["melds"]
    st.acted = turn["acted"]
    st.must_use = turn["must_use"]
    st.jokers_to_play = turn["jokers_to_play"]


def _open_call_window(view: SeatView, st: State) -> None:
    """The open window, with no calls known; if this seat has called, a stand-in for its call
    (one of the calls it could make, else any) so that a second call is refused as it would be."""
    raw = view.part["call_window"]
    if raw is None or st.phase is not Phase.CALL:
        return
    st.call = CallWindow(raw["card"], raw["discarder"])
    if raw["called"]:
        seat = view.seat
        calls = (a for a in legal_actions(st, seat) if isinstance(a, CallRummy))
        st.call.calls[seat] = next(calls, CallRummy(0, sorted(st.hands[seat])[0]))
