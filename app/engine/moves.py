"""Enumerating legal moves for clients, bots and tests, from the one source of legality.

``legal_actions`` proposes candidates (every draw and discard, each single meld, lay-off and
borrow found in the hand, a whole-hand declaration, every call) and keeps those that
:func:`app.engine.game.is_legal` accepts, so it can never disagree with ``apply``.
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import Action, Borrow, CallRummy, Declare, Discard, Draw, LayOff, MeldAction
from .cards import parse_entry
from .game import allowed_types, is_legal
from .solver import arrange_all, candidate_melds
from .state import Phase, State


def legal_types(st: State, seat: int) -> list[str]:
    """The action types ``seat`` may send now (the view's ``legal``), without enumerating."""
    types: list[str] = []
    if st.phase is Phase.CALL and st.call is not None and seat != st.call.discarder:
        types.append("call_rummy")
    if st.hand_over or seat != st.turn:
        return types
    allowed = allowed_types(st.rules)
    if st.phase in (Phase.DRAW, Phase.CALL, Phase.DRAW_SECOND):
        types.append("draw")
        if st.rules.game.declare_before_draw and st.turns[seat] == 0:
            types.append("declare")  # CONT-6
    elif st.phase is Phase.OPENING:
        types += ["discard"] + (["declare"] if "declare" in allowed else [])
    elif st.phase is Phase.PLAY:
        types += [t for t in _PLAY_ORDER if t in allowed]
    return types


_PLAY_ORDER = ("meld", "lay_off", "borrow", "swap_joker", "show", "declare", "knock", "discard")


def legal_actions(st: State, seat: int) -> list[Action]:
    """Concrete legal actions for ``seat`` (a representative set of table moves)."""
    return [a for a in _candidates(st, seat) if is_legal(st, seat, a)]


def _candidates(st: State, seat: int) -> Iterator[Action]:
    types = legal_types(st, seat)
    hand = st.hands[seat] if st.hands else []
    if "call_rummy" in types and st.call is not None:
        for index in range(len(st.melds)):
            for card in sorted(set(hand)):
                yield CallRummy(index, card)
    if "draw" in types:
        yield Draw("stock")
        if st.rules.options.throw_down:
            yield from (Draw("discard", c) for c in sorted(set(st.discard)))
        elif st.discard:
            yield Draw("discard")
    if st.phase is not Phase.PLAY and st.phase is not Phase.OPENING:
        return
    if "meld" in types:
        for meld in candidate_melds(hand, st.rules.meld):
            yield MeldAction((tuple((c, None) for c in meld),))
        for index in range(len(st.melds)):
            for card in sorted(set(hand)):
                yield LayOff(index, ((card, None),))
    if "borrow" in types:
        yield from _borrows(st, hand)
    if "declare" in types:
        yield from _declarations(st, hand)
    for card in sorted(set(hand)):
        yield Discard(card)


def _borrows(st: State, hand: list[str]) -> Iterator[Action]:
    for index, meld in enumerate(st.melds):
        for card in {meld.codes[0], meld.codes[-1]} if meld.kind == "run" else set(meld.codes):
            for new in candidate_melds(hand + [card], st.rules.meld):
                if card in new and len(new) == 3:
                    yield Borrow(index, card, tuple((c, None) for c in new))


def _declarations(st: State, hand: list[str]) -> Iterator[Action]:
    found = arrange_all(hand, st.rules.meld, leave_one=True)
    if found is not None:
        melds, discard = found
        yield Declare(tuple(tuple(parse_entry(c) for c in m) for m in melds), discard)
    if st.rules.mandatory_discard:
        return
    whole = arrange_all(hand, st.rules.meld, leave_one=False)
    if whole is not None:
        yield Declare(tuple(tuple(parse_entry(c) for c in m) for m in whole[0]), None)
