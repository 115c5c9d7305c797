"""The one source of legality: ``apply`` / ``check`` per phase (GEN-7) for every game.

``apply(state, seat, action)`` copies the state, runs the handler for the state's phase and the
action's type on the copy, and returns the new state with its events; any rule violation raises
a :class:`RuleError` and the caller's state is unchanged (GEN-7: every action is atomic).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from . import scoring
from .actions import (
    Action,
    Borrow,
    CallRummy,
    Declare,
    Discard,
    Draw,
    LayOff,
    MeldAction,
    parse_action,
)
from .deal import Deal
from .errors import IllegalAction, RuleError
from .melds import Entry, Meld, extend_meld, form_meld
from .rules import GameRules
from .state import CallWindow, HandResult, Phase, State

Events = list[dict[str, Any]]
Handler = Callable[[State, int, Any, Events], None]


def new_match(rules: GameRules) -> State:
    """A match waiting for its first deal."""
    return State(rules=rules, totals=[_starting_score(rules)] * rules.players)


def _starting_score(rules: GameRules) -> int:
    return rules.options.starting_score if "starting_score" in rules.game.allowed_options else 0


def next_dealer(st: State) -> int:
    """GEN-6: seat 0 first, then to the left; OPT-WIN-2: the previous game's winner deals."""
    if st.hand_no < 0:
        return 0
    last = st.results[-1] if st.results else None
    if last is not None and last.winner is not None and (
            st.rules.options.each_hand_own_game or st.rules.game.winner_deals):
        return last.winner
    return (st.dealer + 1) % st.players


def can_start_hand(st: State) -> bool:
    if st.phase in (Phase.DEAL, Phase.HAND_OVER):
        return True
    # OPT-WIN-2: after each game the room's next hand starts a new game.
    return st.phase is Phase.GAME_OVER and st.rules.options.each_hand_own_game


def start_hand(st: State, deal: Deal, dealer: int) -> State:
    """Begin the next hand with ``deal`` (from :mod:`app.engine.deal`) dealt by ``dealer``."""
    if not can_start_hand(st):
        raise IllegalAction("game_over", "the game is over; no further hand can be dealt")
    n = st.players
    new = st.copy()
    new.hand_no += 1
    new.dealer = dealer
    new.game_winner = None
    new.hands = [list(h) for h in deal.hands]
    new.stock = list(deal.stock)
    new.discard = list(deal.discard)
    new.melds = []
    new.opened = [False] * n
    new.tabled = [False] * n
    new.turns = [0] * n
    new.known = [[] for _ in range(n)]
    new.call = None
    new.turn = (dealer + 1) % n  # STD-4: the dealer's left plays first
    _reset_turn(new)
    new.phase = Phase.OPENING if not st.rules.game.upcard else Phase.DRAW
    return new


def apply(st: State, seat: int, action: object) -> tuple[State, Events]:
    """Apply ``action`` for ``seat``; return the new state and its events, or raise."""
    act = parse_action(action)
    if not isinstance(seat, int) or not 0 <= seat < st.players:
        raise IllegalAction("bad_seat", f"no seat {seat!r} in a {st.players}-player game")
    new = st.copy()
    events: Events = []
    _dispatch(new, seat, act, events)
    new.seq += 1
    return new, events


def check(st: State, seat: int, action: object) -> None:
    """Raise the :class:`RuleError` that ``apply`` would raise; return None if legal."""
    apply(st, seat, action)


def is_legal(st: State, seat: int, action: object) -> bool:
    try:
        apply(st, seat, action)
    except RuleError:
        return False
    return True


def close_call_window(st: State) -> tuple[State, Events]:
    """OPT-CALL-4: close an open window now (a live room does this after its grace period)."""
    new = st.copy()
    events: Events = []
    if new.phase is Phase.CALL:
        _close_window(new, events)
    return new, events


# --- dispatch -------------------------------------------------------------------------------

def _dispatch(st: State, seat: int, act: Action, events: Events) -> None:
    if st.hand_over:
        raise IllegalAction("hand_over", "no hand is in progress")
    if act.type == "call_rummy":
        _call(st, seat, act, events)  # type: ignore[arg-type]
        return
    if st.phase is Phase.CALL:
        _close_window(st, events)  # PROTOCOL §4: the winning call comes before this action
        if st.hand_over:
            raise IllegalAction("hand_over", "the hand ended with a Rummy call")
    if seat != st.turn:
        raise IllegalAction("not_your_turn", f"it is seat {st.turn}'s turn, not seat {seat}'s")
    _check_available(st.rules, act)
    handler = _HANDLERS.get((st.phase, act.type))
    if handler is None:
        raise _wrong_phase(st, act)
    handler(st, seat, act, events)


_PLAY_TYPES = frozenset({"meld", "lay_off", "swap_joker", "borrow", "discard", "knock",
                         "declare", "show"})


def _wrong_phase(st: State, act: Action) -> IllegalAction:
    if st.phase in (Phase.DRAW, Phase.DRAW_SECOND) and act.type in _PLAY_TYPES:
        return IllegalAction("must_draw_first", "draw a card first")
    if st.phase is Phase.PLAY and act.type == "draw":
        return IllegalAction("already_drew", "you have already drawn this turn")
    if st.phase is Phase.OPENING:
        return IllegalAction("must_discard", "the opening turn is a discard only")
    return IllegalAction("wrong_phase", f"{act.type} is not possible in phase {st.phase.value}")


def _check_available(rules: GameRules, act: Action) -> None:
    """Refuse action types this game and these options never allow."""
    options = rules.options
    allowed = {
        "meld": rules.table_melds, "lay_off": rules.table_melds,
        "borrow": rules.table_melds and options.borrowing,
        "swap_joker": rules.game.joker_exchange,
        "declare": rules.declare, "knock": rules.game.knock, "show": rules.game.show,
    }
    if not allowed.get(act.type, True):
        raise IllegalAction("not_in_this_game", f"{act.type} is not allowed in this game")


# --- drawing --------------------------------------------------------------------------------

def _reset_turn(st: State) -> None:
    st.taken = []
    st.drawn = 0
    st.melds_this_turn = 0


def _begin_turn(st: State, seat: int) -> None:
    st.turns[seat] += 1
    st.tabled_at_turn_start = st.tabled[seat]


def _draw(st: State, seat: int, act: Draw, events: Events) -> None:
    if st.drawn == 0:
        _begin_turn(st, seat)
    if act.source == "stock":
        if not st.stock:
            if st.rules.options.block_rummy:  # OPT-BLOCK-2: declining ends the hand
                events.append({"type": "block", "seat": seat})
                _finish(st, scoring.block_result(st, seat), events)
                return
            _restock(st, events)
        card = st.stock.pop(0)
        st.hands[seat].append(card)
        events.append({"type": "draw", "seat": seat, "source": "stock", "card": card,
                       "secret": seat})
    else:
        card = _take_discard(st, act)
        st.hands[seat].append(card)
        st.taken.append(card)
        st.known[seat].append(card)
        events.append({"type": "draw", "seat": seat, "source": "discard", "card": card})
    st.drawn += 1
    st.phase = Phase.PLAY


def _restock(st: State, events: Events) -> None:
    """GEN-13, OPT-THROW-4: all but the latest discard become the stock, oldest on top."""
    if len(st.discard) <= 1:
        raise IllegalAction("stock_empty", "the stock is empty; take the discard")
    st.stock = st.discard[:-1]
    st.discard = st.discard[-1:]
    events.append({"type": "restock", "stock_count": len(st.stock)})


def _take_discard(st: State, act: Draw) -> str:
    if not st.discard:
        raise IllegalAction("discard_empty", "the discard pile is empty")
    if st.rules.options.throw_down:  # OPT-THROW-2: any card of the discard area
        if act.card is None:
            raise IllegalAction("card_required", "name the card to take from the discard area")
        if act.card not in st.discard:
            raise IllegalAction("card_not_available", f"{act.card} is not in the discard area")
        index = len(st.discard) - 1 - st.discard[::-1].index(act.card)
        return st.discard.pop(index)
    if act.card is not None and act.card != st.discard[-1]:
        raise IllegalAction("card_not_available",
                            f"only the top discard {st.discard[-1]} can be taken")
    return st.discard.pop()


# --- table moves ----------------------------------------------------------------------------

def _remove_from_hand(st: State, seat: int, cards: list[str]) -> None:
    hand = st.hands[seat]
    need = Counter(cards)
    have = Counter(hand)
    short = [c for c, k in need.items() if have[c] < k]
    if short:
        raise IllegalAction("card_not_in_hand", f"not in your hand: {' '.join(sorted(short))}")
    for card in cards:
        hand.remove(card)
    left = Counter(hand)
    known = Counter(st.known[seat]) & left  # GEN-14: still known to be held
    st.known[seat] = list(known.elements())


def _discardable(st: State, seat: int) -> list[str]:
    """Cards the player may discard now (GEN-8: not a card taken from the discard this turn)."""
    hand = Counter(st.hands[seat])
    hand.subtract(Counter(st.taken))
    return sorted(c for c, k in hand.items() if k > 0)


def _after_table_move(st: State, seat: int, events: Events) -> None:
    """Go out if the hand is empty; else the player must still hold a card he may discard."""
    if not st.hands[seat]:
        if st.rules.mandatory_discard:  # OPT-MANDISC-1, GERMAN-10
            raise IllegalAction("must_keep_discard", "you must keep a card to discard")
        _go_out(st, seat, events)
    elif not _discardable(st, seat):  # GEN-8 corollary
        raise IllegalAction("no_discardable_card",
                            "you would hold only the card taken from the discard pile")


def _check_may_lay_off(st: State, seat: int) -> None:
    if st.rules.options.layoff_requires_meld and not st.opened[seat]:  # OPT-LAYOFF-1
        raise IllegalAction("must_meld_first", "lay a meld of your own before laying off")
    if st.rules.game.initial_meld and not st.opened[seat]:  # KALUKI-6, GERMAN-7
        raise IllegalAction("must_meld_first", "make your initial meld before laying off")


def _meld_at(st: State, index: int) -> Meld:
    if index >= len(st.melds):
        raise IllegalAction("no_such_meld", f"there is no meld {index} on the table")
    return st.melds[index]


def _lay_new_melds(st: State, seat: int, listed: tuple[tuple[Entry, ...], ...]) -> list[Meld]:
    melds = [form_meld(m, st.rules.meld, owner=seat) for m in listed]
    if st.rules.options.one_meld_per_turn and st.melds_this_turn + len(melds) > 1:
        raise IllegalAction("one_meld_per_turn", "only one new meld per turn")  # OPT-ONEMELD-1
    placed = []
    for meld in melds:
        placed.append(_placed_meld(meld, len(st.melds)))
        st.melds.append(placed[-1])
    st.melds_this_turn += len(melds)
    st.opened[seat] = True
    st.tabled[seat] = True
    return placed


def _placed_meld(meld: Meld, index: int) -> Meld:
    return Meld(meld.kind, meld.cards, meld.owner, meld.start, id=index)


def _meld(st: State, seat: int, act: MeldAction, events: Events) -> None:
    if not act.melds:
        raise IllegalAction("invalid_meld", "list at least one meld")
    _remove_from_hand(st, seat, [c for m in act.melds for c, _ in m])
    first = not st.opened[seat]
    placed = _lay_new_melds(st, seat, act.melds)
    minimum = st.rules.game.initial_meld
    if minimum and first:
        points = sum(st.rules.game.meld_points(m) for m in placed)
        if points < minimum:  # KALUKI-5, GERMAN-6
            raise IllegalAction("initial_meld_too_low",
                                f"your first meld must be worth {minimum}; this is {points}")
    events.append({"type": "meld", "seat": seat, "melds": [m.to_json() for m in placed]})
    _after_table_move(st, seat, events)


def _lay_off(st: State, seat: int, act: LayOff, events: Events) -> None:
    _check_may_lay_off(st, seat)
    meld = _meld_at(st, act.meld)
    _remove_from_hand(st, seat, [c for c, _ in act.cards])
    st.melds[act.meld] = extend_meld(meld, act.cards, st.rules.meld)
    st.tabled[seat] = True
    events.append({"type": "lay_off", "seat": seat, "meld": act.meld,
                   "cards": [c for c, _ in act.cards]})
    _after_table_move(st, seat, events)


def _borrow(st: State, seat: int, act: Borrow, events: Events) -> None:
    meld = _meld_at(st, act.meld)
    if meld.owner != seat and not st.rules.options.borrowing_any_meld:  # OPT-BORROW-1
        raise IllegalAction("not_your_meld", "you may borrow only from a meld you laid")
    st.melds[act.meld] = _without_card(meld, act.card, st.rules)
    into = list(act.into)
    position = next((i for i, (c, _) in enumerate(into) if c == act.card), None)
    if position is None:
        raise IllegalAction("invalid_meld", f"the new meld must include the borrowed {act.card}")
    hand_part = into[:position] + into[position + 1:]
    if len(hand_part) < 2:
        raise IllegalAction("invalid_meld", "use the borrowed card with at least two of yours")
    _remove_from_hand(st, seat, [c for c, _ in hand_part])
    _lay_new_melds(st, seat, (tuple(into),))
    events.append({"type": "borrow", "seat": seat, "from": act.meld, "card": act.card,
                   "meld": st.melds[-1].to_json()})
    _after_table_move(st, seat, events)


def _without_card(meld: Meld, card: str, rules: GameRules) -> Meld:
    """OPT-BORROW-2: the meld giving up ``card`` must stay valid (a run loses only an end)."""
    codes = meld.codes
    if card not in codes:
        raise IllegalAction("card_not_in_meld", f"{card} is not in meld {meld.id}")
    if len(codes) <= 3:
        raise IllegalAction("cannot_borrow", "a meld of three cards cannot give up a card")
    if meld.kind == "run":
        if codes[0] == card:
            rest = meld.cards[1:]
            start = meld.start + 1
        elif codes[-1] == card:
            rest, start = meld.cards[:-1], meld.start
        else:
            raise IllegalAction("cannot_borrow", "only an end card of a run may be borrowed")
        return Meld("run", rest, meld.owner, start, id=meld.id)
    index = codes.index(card)
    return Meld("set", meld.cards[:index] + meld.cards[index + 1:], meld.owner, id=meld.id)


def _discard(st: State, seat: int, act: Discard, events: Events) -> None:
    _put_on_discard(st, seat, act.card, events)
    if st.hand_over:
        return
    window = st.rules.options.call_rummy and _callable(st, act.card)
    _next_turn(st, seat)
    if window:  # OPT-CALL-1
        st.call = CallWindow(act.card, seat)
        st.phase = Phase.CALL


def _put_on_discard(st: State, seat: int, card: str, events: Events) -> None:
    if card in st.hands[seat] and card not in _discardable(st, seat):
        raise IllegalAction("cannot_discard_taken_card",
                            f"{card} was taken from the discard pile this turn")  # GEN-8
    _remove_from_hand(st, seat, [card])
    st.discard.append(card)
    events.append({"type": "discard", "seat": seat, "card": card})
    if not st.hands[seat]:
        _go_out(st, seat, events)


def _next_turn(st: State, seat: int) -> None:
    st.turn = (seat + 1) % st.players
    st.phase = Phase.DRAW
    _reset_turn(st)


def _declare(st: State, seat: int, act: Declare, events: Events) -> None:
    """OPT-COMPLETE-1, BOAT-5: lay the whole hand at once, or all but one card and discard it."""
    if act.discard is None and st.rules.mandatory_discard:
        raise IllegalAction("must_keep_discard", "declare with a discard")
    cards = [c for m in act.melds for c, _ in m]
    expected = Counter(st.hands[seat])
    if act.discard is not None:
        if act.discard not in _discardable(st, seat):
            raise IllegalAction("cannot_discard_taken_card" if act.discard in expected
                                else "card_not_in_hand", f"you cannot discard {act.discard}")
        expected[act.discard] -= 1
    if Counter(cards) != +expected:
        raise IllegalAction("declare_incomplete",
                            "the declared melds must hold every card of your hand")
    melds = [form_meld(m, st.rules.meld, owner=seat) for m in act.melds]
    for meld in melds:
        st.melds.append(_placed_meld(meld, len(st.melds)))
    _remove_from_hand(st, seat, cards)
    events.append({"type": "declare", "seat": seat,
                   "melds": [m.to_json() for m in st.melds[-len(melds):]]})
    if act.discard is not None:
        _put_on_discard(st, seat, act.discard, events)
    else:
        _go_out(st, seat, events)


# --- Call Rummy -----------------------------------------------------------------------------

def _callable(st: State, card: str) -> bool:
    """OPT-CALL-1: could ``card`` be laid off on some meld on the table?"""
    for meld in st.melds:
        try:
            extend_meld(meld, [(card, None)], st.rules.meld)
        except IllegalAction as exc:
            if exc.code == "designation_required":
                return True
            continue
        return True
    return False


def _call(st: State, seat: int, act: CallRummy, events: Events) -> None:
    window = st.call
    if window is None or st.phase is not Phase.CALL:
        if not st.rules.options.call_rummy:
            raise IllegalAction("not_in_this_game", "Call Rummy is not played in this room")
        raise IllegalAction("call_window_closed", "there is no discard to call now")
    if seat == window.discarder:
        raise IllegalAction("cannot_call_own_discard", "you cannot call your own discard")
    if seat in window.calls:
        raise IllegalAction("already_called", "you have already called this discard")
    _check_may_lay_off(st, seat)  # OPT-CALL-2, OPT-LAYOFF-1
    extend_meld(_meld_at(st, act.meld), [(window.card, None)], st.rules.meld)
    if act.discard not in st.hands[seat]:
        raise IllegalAction("card_not_in_hand", f"{act.discard} is not in your hand")
    window.calls[seat] = act
    events.append({"type": "call", "seat": seat})


def _close_window(st: State, events: Events) -> None:
    """OPT-CALL-5/6: the first caller clockwise from the discarder's left takes the card."""
    window = st.call
    if window is None:
        return
    st.call = None
    st.phase = Phase.DRAW
    order = [(window.discarder + k) % st.players for k in range(1, st.players)]
    caller = next((s for s in order if s in window.calls), None)
    if caller is None:
        return
    act: CallRummy = window.calls[caller]
    st.discard.pop()  # the called card is the latest discard (OPT-CALL-9 with OPT-THROW)
    st.melds[act.meld] = extend_meld(st.melds[act.meld], [(window.card, None)], st.rules.meld)
    st.tabled[caller] = True  # OPT-CALL-9: counts as a lay-off
    st.hands[caller].remove(act.discard)
    st.known[caller] = list((Counter(st.known[caller]) & Counter(st.hands[caller])).elements())
    st.discard.append(act.discard)  # OPT-CALL-7: this discard opens no window
    events.append({"type": "rummy_call", "seat": caller, "card": window.card, "meld": act.meld,
                   "discard": act.discard})
    if not st.hands[caller]:
        _finish(st, scoring.went_out_result(st, caller, doubled=False), events)


# --- end of hand ----------------------------------------------------------------------------

def _go_out(st: State, seat: int, events: Events) -> None:
    """GEN-11: the hand ends the moment a player has no cards."""
    doubled = st.rules.options.going_rummy and not st.tabled_at_turn_start  # OPT-HIDDEN-1
    _finish(st, scoring.went_out_result(st, seat, doubled), events)


def _finish(st: State, result: HandResult, events: Events) -> None:
    st.results.append(result)
    st.totals = [t + s for t, s in zip(st.totals, result.scores)]
    over, winner = scoring.game_result(st, result)
    st.phase = Phase.GAME_OVER if over else Phase.HAND_OVER
    st.game_winner = winner
    st.turn = None
    st.call = None
    events.append({"type": "hand_over", **result.to_json()})
    if over:
        events.append({"type": "game_over", "winner": winner, "totals": list(st.totals)})


_HANDLERS: dict[tuple[Phase, str], Handler] = {
    (Phase.DRAW, "draw"): _draw,
    (Phase.PLAY, "meld"): _meld,
    (Phase.PLAY, "lay_off"): _lay_off,
    (Phase.PLAY, "borrow"): _borrow,
    (Phase.PLAY, "discard"): _discard,
    (Phase.PLAY, "declare"): _declare,
}
