"""Live aids for a seat's own view (the table shows them beside the turn prompt).

What a player of each game keeps track of: Knock's deadwood (KNOCK-4), the points the hand's
melds are worth toward an initial-meld minimum not yet reached (KALUKI-5, GERMAN-6), the
contract a whole-hand declaration must fit (CONT-6, NOWRANG-6) and Phỏm's round (PHOM-7).
Computed from the seat's own hand only, so they reveal nothing another seat may not see.
"""

from __future__ import annotations

from typing import Any

from .cards import parse_entry
from .melds import form_meld
from .solver import best_arrangement
from .state import Phase, State

_BEFORE_TURN = (Phase.DRAW, Phase.CALL, Phase.OPENING)


def seat_aids(st: State, seat: int) -> dict[str, Any]:
    """The aids of ``seat``'s game for its hand now (empty where the game has none)."""
    rules, game = st.rules, st.rules.game
    hand = st.hands[seat] if st.hands else []
    out: dict[str, Any] = game.hand_end.aid(st, hand)  # KNOCK-4: the deadwood
    if game.initial_meld and hand and not st.opened[seat]:
        melds = best_arrangement(hand, rules.meld, rules.values.of).melds
        points = sum(game.meld_points(form_meld([parse_entry(c) for c in m], rules.meld))
                     for m in melds)
        out["opening"] = {"points": points, "need": game.initial_meld}
    if game.declare_sizes:
        out["contract"] = [list(sizes) for sizes in game.declare_sizes]
    if game.rounds is not None:
        out["round"] = game.rounds.aid(st, seat, st.phase in _BEFORE_TURN)
    return out
