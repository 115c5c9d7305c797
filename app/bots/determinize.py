"""One seat's view made into an engine :class:`State` (a *determinized* state) for a bot's search.

A bot sees the game only through its :class:`~app.engine.views.SeatView`. To ask the engine which
of its own actions are legal, or what one would do, it needs a :class:`State`; :func:`state_for`
is the one place that builds it, from the view alone. Everything public (melds, discard pile,
counts, turn bookkeeping, the seat's own hand) is copied; the cards this seat cannot see (the
pack less its hand, the discard pile and the melds) are dealt to the other hands (each seat's
publicly known cards first, GEN-14) and to the stock in pack order, so the multiset of cards and
every count are right. Given a generator, the unseen cards are shuffled first: one *sample* of
the hidden cards, drawn only from what the view shows (the analysis, :mod:`app.analysis`, judges
a move over several) and one a real deal could give (a Phỏm seat that took a discard holds a
meld for it, PHOM-6). The legality of this seat's own actions never depends on those hidden
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
from app.engine.phom import lock_melds, locks_hold
from app.engine.rules import GameRules
from app.engine.state import CallWindow, Phase, State
from app.engine.views import SeatView, TableView, TurnState

MAX_DEALS = 20  # shuffles tried for a world in which every seat's locked cards can be melded


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
    st.hands, st.stock = _deal_hidden(view, rules, rng)
    _turn_state(st, table["turn_state"])
    st.tabled_at_turn_start = st.tabled[st.turn] if st.turn is not None else False
    _open_call_window(view, st)
    return st


def _deal_hidden(view: SeatView, rules: GameRules,
                 rng: random.Random | None) -> tuple[list[list[str]], list[str]]:
    """Own hand from the view; to each other hand its public cards, then unseen cards in pack
    order (shuffled by ``rng`` if given); the unseen cards left are the stock. A shuffled deal
    must be one a real deal could give: where a seat holds locked cards (PHOM-6: it took them
    to meld, so its hand holds melds for them), a deal that breaks that is shuffled again, up to
    ``MAX_DEALS`` times, and then those seats are given melds for their locked cards first."""
    table, seat = view.table, view.seat
    counts = table["hand_counts"]
    public = [list(view.part["hand"]) if s == seat else _public_cards(table, s)
              for s in range(len(counts))]
    melded = (p.card for m in view.melds for p in m.cards)
    unseen = _unseen(_pack(rules.pack_size()), Counter(chain(table["discard"], melded, *public)))
    locking = [s for s in range(len(counts))
               if s != seat and table["locked"][s] and counts[s] > len(public[s])]
    for _ in range(MAX_DEALS):
        if rng is not None:
            rng.shuffle(unseen)
        hands, stock = _fill(public, unseen, counts, seat)
        if rng is None or all(locks_hold(hands[s], table["locked"][s], rules.meld)
                              for s in locking):
            break
    else:
        hands, stock = _fill(_with_lock_melds(public, unseen, locking, table, rules), unseen,
                             counts, seat)
    if len(stock) != table["stock_count"]:
        raise ValueError(f"{len(stock)} unseen cards left for a stock of "
                         f"{table['stock_count']}")
    return hands, stock


def _with_lock_melds(public: list[list[str]], unseen: list[str], locking: list[int],
                     table: TableView, rules: GameRules) -> list[list[str]]:
    """``public`` with, for each seat of ``locking``, unseen cards that make melds with its
    locked cards (PHOM-6), taken out of ``unseen``, which is changed in place."""
    public = [list(cards) for cards in public]
    for s in locking:
        melds = lock_melds(public[s] + unseen, table["locked"][s], rules.meld)
        if melds is None:
            continue  # no deal could give it melds: its cards stay as they come
        needed = Counter(c for m in melds for c in m) - Counter(public[s])
        if needed.total() > table["hand_counts"][s] - len(public[s]):
            continue  # the melds found need more cards than its hand hides
        for card in needed.elements():
            unseen.remove(card)
            public[s].append(card)
    return public


def _fill(public: list[list[str]], unseen: list[str], counts: list[int],
          seat: int) -> tuple[list[list[str]], list[str]]:
    """Each other hand's public cards topped up from ``unseen`` in its order; the rest."""
    hands = [list(cards) for cards in public]
    at = 0
    for s, hand in enumerate(hands):
        if s != seat:
            need = counts[s] - len(hand)
            if not 0 <= need <= len(unseen) - at:
                raise ValueError(f"seat {s} holds {counts[s]} cards; the view cannot fill them")
            hand += unseen[at:at + need]
            at += need
    return hands, unseen[at:]


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
