"""Whether ``apply`` would accept an action, answered without applying it to a copy of the state.

:func:`refusal` returns the error code ``apply`` would raise (None if it would accept), checking
the conditions of the handlers in :mod:`.game`, :mod:`.table` and :mod:`.calls` in their order on
the state as it is. The frequent moves — draws, discards, knocks, melds, lay-offs and Rummy calls
— are checked directly; the rare ones (declarations, shows, joker exchanges, borrows, and every
action of Phỏm's and Nowrang's opening turn, which first begins the turn) are still tried on a
copy. Meld and lay-off validity is remembered per listing (melds are values), in the engine's memo.

The property test (tests/engine/test_legality.py) plays seeded hands of all ten games and
checks that ``refusal`` and ``apply`` agree on every candidate move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..refusals import Code
from . import phom
from .actions import Action, CallRummy, Discard, Draw, Knock, LayOff, MeldAction
from .calls import called_entry
from .errors import RuleError
from .game import _HANDLERS, MAX_RESTOCKS, _wrong_phase, allowed_types, close_call_window
from .game import apply as _apply
from .melds import Entry, Meld, MeldRules, form_meld
from .memo import Memo
from .opening import can_open_with
from .rules import GameRules
from .state import Phase, State
from .table import laid_off

_FORMED: Memo[object, Meld | Code] = Memo("legality: formed melds", 50_000)
_LAID: Memo[object, Code | None] = Memo("legality: lay-offs", 50_000)


def _code_of(work: Callable[..., Meld], *args: object) -> Meld | Code:
    """``work(*args)``, or the code of the rule it breaks."""
    try:
        return work(*args)
    except RuleError as exc:
        return exc.code


def formed(entries: tuple[Entry, ...], rules: MeldRules) -> Meld | Code:
    """``form_meld(entries)`` (owner -1), or its error code; remembered."""
    return _FORMED.get((entries, rules), _code_of, form_meld, entries, rules)


def _lay_off(meld: Meld, entries: tuple[Entry, ...], rules: GameRules) -> Code | None:
    got = _code_of(laid_off, meld, list(entries), rules)
    return got if isinstance(got, Code) else None


def lay_off_code(meld: Meld, entries: tuple[Entry, ...], rules: GameRules) -> Code | None:
    """The code ``laid_off(meld, entries)`` raises, or None; remembered (it does not depend on
    the meld's number)."""
    return _LAID.get((meld, entries, rules.meld, rules.game.end_joker_moves),
                     _lay_off, meld, entries, rules)


def trial_code(st: State, seat: int, action: Action) -> Code | None:
    """The code ``apply`` raises, found by applying ``action`` to a copy."""
    try:
        _apply(st, seat, action)
    except RuleError as exc:
        return exc.code
    return None


class Checker:
    """Refusal codes for one seat's actions in one state (the closed Call Rummy window, when
    needed, is worked out once)."""

    def __init__(self, st: State, seat: int) -> None:
        self.st = st
        self.seat = seat
        self._closed: State | None = None

    def refusal(self, action: Action) -> Code | None:
        st, seat = self.st, self.seat
        if st.hand_over:
            return Code.HAND_OVER
        if isinstance(action, CallRummy):
            return _call_code(st, seat, action)
        if st.phase is Phase.CALL:
            if self._closed is None:
                self._closed, _ = close_call_window(st)
            st = self._closed
            if st.hand_over:  # OPT-CALL-6: the winning call went out
                return Code.HAND_OVER
        if seat != st.turn:
            return Code.NOT_YOUR_TURN
        if action.type not in allowed_types(st.rules):
            return Code.NOT_IN_THIS_GAME
        if (st.phase, action.type) not in _HANDLERS:
            return _wrong_phase(st, action).code
        if st.phase is Phase.OPENING:
            return trial_code(st, seat, action)
        if isinstance(action, Draw):
            return _draw_code(st, seat, action)
        if st.phase is not Phase.PLAY:
            return trial_code(st, seat, action)
        if isinstance(action, Discard):
            return _discard_code(st, seat, action.card)
        if isinstance(action, Knock):
            return _give_up_code(st, seat, action.discard)
        if isinstance(action, LayOff):
            return _lay_off_code(st, seat, action)
        if isinstance(action, MeldAction):
            return _meld_code(st, seat, action)
        return trial_code(st, seat, action)


def refusal(st: State, seat: int, action: Action) -> Code | None:
    """The error code ``apply(st, seat, action)`` would raise, or None if it would accept."""
    if not isinstance(seat, int) or not 0 <= seat < st.players:
        return Code.BAD_SEAT
    return Checker(st, seat).refusal(action)


# --- the handlers' checks, in their order -----------------------------------------------------

def _draw_code(st: State, seat: int, act: Draw) -> Code | None:
    """``game._draw``."""
    if act.source == "stock":
        if st.stock or st.rules.options.block_rummy or st.restocks >= MAX_RESTOCKS:
            return None
        return None if len(st.discard) > 1 else Code.STOCK_EMPTY
    if not st.discard:
        return Code.DISCARD_EMPTY
    if st.rules.options.throw_down:
        if act.card is None:
            return Code.CARD_REQUIRED
        if act.card not in st.discard:
            return Code.CARD_NOT_AVAILABLE
        card = act.card
    else:
        card = st.discard[-1]
        if act.card is not None and act.card != card:
            return Code.CARD_NOT_AVAILABLE
    game = st.rules.game
    if game.discard_take_needs_opening_meld and not st.opened[seat] \
            and not can_open_with(st.hands[seat], card, st.rules):  # KALUKI-6
        return Code.CANNOT_USE_DISCARD
    if game.phom:  # PHOM-5, PHOM-6
        try:
            phom.check_take(st, seat, card)
        except RuleError as exc:
            return exc.code
    return None


def _discard_code(st: State, seat: int, card: str) -> Code | None:
    """``game._discard``."""
    if st.must_use is not None:
        return Code.MUST_USE_TAKEN_CARD
    if st.jokers_to_play:
        return Code.JOKER_MUST_BE_PLAYED
    if st.rules.game.phom:
        try:
            phom.check_discard(st, seat, card)
        except RuleError as exc:
            return exc.code
    return _give_up_code(st, seat, card)


def _give_up_code(st: State, seat: int, card: str) -> Code | None:
    """A card leaving the hand for the discard pile (GEN-8)."""
    hand = st.hands[seat]
    if card not in hand:
        return Code.CARD_NOT_IN_HAND
    blocked = st.taken + st.locked[seat] if st.locked else st.taken
    if card not in blocked or hand.count(card) > blocked.count(card):
        return None
    return Code.CANNOT_DISCARD_TAKEN_CARD


def _left_after(st: State, seat: int, cards: list[str]) -> list[str] | None:
    """The hand without ``cards``, or None if it does not hold them (``remove_from_hand``)."""
    left = list(st.hands[seat])
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            return None
    return left


def _after_table_move_code(st: State, seat: int, left: list[str]) -> Code | None:
    """``flow.after_table_move`` on the hand ``left``."""
    if not left:
        return Code.MUST_KEEP_DISCARD if st.rules.mandatory_discard else None
    keep = Counter(left)
    keep.subtract(st.taken)
    if st.locked:
        keep.subtract(st.locked[seat])
    return None if any(k > 0 for k in keep.values()) else Code.NO_DISCARDABLE_CARD


def _may_lay_off_code(st: State, seat: int) -> Code | None:
    """``table.check_may_lay_off``."""
    if not st.opened[seat] and (st.rules.options.layoff_requires_meld
                                or st.rules.game.initial_meld):
        return Code.MUST_MELD_FIRST
    return None


def _lay_off_code(st: State, seat: int, act: LayOff) -> Code | None:
    """``table.lay_off``."""
    if st.rules.game.phom:
        try:
            phom.check_lay_off(st, seat, act.meld)
        except RuleError as exc:
            return exc.code
    else:
        code = _may_lay_off_code(st, seat)
        if code is not None:
            return code
    if act.meld >= len(st.melds):
        return Code.NO_SUCH_MELD
    left = _left_after(st, seat, [c for c, _ in act.cards])
    if left is None:
        return Code.CARD_NOT_IN_HAND
    if st.rules.game.phom and not left:
        return Code.MUST_KEEP_DISCARD
    code = lay_off_code(st.melds[act.meld], act.cards, st.rules)
    return code if code is not None else _after_table_move_code(st, seat, left)


def _meld_code(st: State, seat: int, act: MeldAction) -> Code | None:
    """``table.meld``."""
    if not act.melds:
        return Code.INVALID_MELD
    cards = [c for m in act.melds for c, _ in m]
    left = _left_after(st, seat, cards)
    if left is None:
        return Code.CARD_NOT_IN_HAND
    opening = not st.opened[seat]
    melds: list[Meld] = []
    for listed in act.melds:
        got = formed(listed, st.rules.meld)
        if isinstance(got, Code):
            return got
        melds.append(got)
    if st.rules.options.one_meld_per_turn and st.melds_this_turn + len(melds) > 1:
        return Code.ONE_MELD_PER_TURN
    minimum = st.rules.game.initial_meld
    if minimum and opening and sum(st.rules.game.meld_points(m) for m in melds) < minimum:
        return Code.INITIAL_MELD_TOO_LOW
    if opening and st.must_use is not None and st.must_use not in cards:
        return Code.MUST_USE_TAKEN_CARD
    return _after_table_move_code(st, seat, left)


def _call_code(st: State, seat: int, act: CallRummy) -> Code | None:
    """``calls.call``."""
    window = st.call
    if window is None or st.phase is not Phase.CALL:
        return Code.NOT_IN_THIS_GAME if not st.rules.options.call_rummy else Code.CALL_WINDOW_CLOSED
    if seat == window.discarder:
        return Code.CANNOT_CALL_OWN_DISCARD
    if seat in window.calls:
        return Code.ALREADY_CALLED
    code = _may_lay_off_code(st, seat)
    if code is not None:
        return code
    if act.meld >= len(st.melds):
        return Code.NO_SUCH_MELD
    try:
        entry = called_entry(window, act)
    except RuleError as exc:
        return exc.code
    code = lay_off_code(st.melds[act.meld], (entry,), st.rules)
    if code is not None:
        return code
    return None if act.discard in st.hands[seat] else Code.CARD_NOT_IN_HAND
