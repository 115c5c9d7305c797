"""Primitives shared by the moves: hands, turns, going out and the end of a hand.

The checks here (``hand_after``, ``check_left``) only read, for the moves' ``verify``; the others
change the working copy of a state inside ``apply``, after its move was verified.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..refusals import Code
from . import scoring
from .errors import IllegalAction
from .melds import Meld
from .state import HandResult, Phase, State

Events = list[dict[str, Any]]


def hand_after(st: State, seat: int, cards: list[str]) -> list[str]:
    """``seat``'s hand without ``cards``; refused if the hand does not hold them all."""
    left = list(st.hands[seat])
    try:
        for card in cards:
            left.remove(card)
    except ValueError:
        have = Counter(st.hands[seat])
        short = [c for c, k in Counter(cards).items() if have[c] < k]
        raise IllegalAction(Code.CARD_NOT_IN_HAND,
                            f"not in your hand: {' '.join(sorted(short))}") from None
    return left


def remove_from_hand(st: State, seat: int, cards: list[str]) -> None:
    """Take verified ``cards`` out of the hand; the seat's known cards follow (GEN-14)."""
    hand = st.hands[seat]
    for card in cards:
        hand.remove(card)
    st.known[seat] = list((Counter(st.known[seat]) & Counter(hand)).elements())


def blocked(st: State, seat: int) -> list[str]:
    """Cards ``seat`` may not discard now: taken from the discard this turn (GEN-8) and locked
    (PHOM-6)."""
    return st.taken + st.locked[seat] if st.locked else st.taken


def discardable(st: State, seat: int, hand: list[str] | None = None) -> list[str]:
    """Cards of ``hand`` (the seat's own by default) the player may discard now: all but the
    ``blocked`` ones."""
    hand = st.hands[seat] if hand is None else hand
    held_back = blocked(st, seat)
    if not held_back:
        return sorted(set(hand))
    left = Counter(hand)
    left.subtract(held_back)
    return sorted(c for c, k in left.items() if k > 0)


def check_left(st: State, seat: int, left: list[str]) -> None:
    """After a table move leaving ``left`` in hand: an empty hand goes out, unless a discard is
    owed; else the player must still hold a card he may discard."""
    if not left:
        if st.rules.mandatory_discard:  # OPT-MANDISC-1, GERMAN-10
            raise IllegalAction(Code.MUST_KEEP_DISCARD, "you must keep a card to discard")
    elif not discardable(st, seat, left):  # GEN-8 corollary
        raise IllegalAction(Code.NO_DISCARDABLE_CARD,
                            "you would hold only cards you may not discard")


def after_table_move(st: State, seat: int, events: Events) -> None:
    """GEN-11: a table move that empties the hand goes out (``check_left`` allowed it)."""
    if not st.hands[seat]:
        go_out(st, seat, events)


def meld_at(st: State, index: int) -> Meld:
    if index >= len(st.melds):
        raise IllegalAction(Code.NO_SUCH_MELD, f"there is no meld {index} on the table")
    return st.melds[index]


def place_meld(st: State, meld: Meld) -> Meld:
    """GEN-9: a new meld takes the next number."""
    placed = Meld(meld.kind, meld.cards, meld.owner, meld.start, id=len(st.melds))
    st.melds.append(placed)
    return placed


def reset_turn(st: State) -> None:
    st.taken = []
    st.drawn = 0
    st.melds_this_turn = 0
    st.acted = False
    st.must_use = None
    st.jokers_to_play = 0


def begin_turn(st: State, seat: int) -> None:
    st.turns[seat] += 1
    st.tabled_at_turn_start = st.tabled[seat]


def next_turn(st: State, seat: int) -> None:
    st.turn = (seat + 1) % st.players
    st.phase = Phase.DRAW
    reset_turn(st)


def go_out(st: State, seat: int, events: Events) -> None:
    """GEN-11: the hand ends the moment a player has no cards (or declares)."""
    doubled = st.rules.options.going_rummy and not st.tabled_at_turn_start  # OPT-HIDDEN-1
    finish(st, scoring.went_out_result(st, seat, doubled), events)


def finish(st: State, result: HandResult, events: Events) -> None:
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
