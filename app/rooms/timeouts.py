"""What the server plays for a player whose turn timer ran out (RULES.md §5: always legal).

Draw from the stock (or the discard if the stock cannot be drawn), then discard the card just
drawn if allowed; before that, do what the turn owes: Phom's fourth-turn show, Kaluki's opening
with a taken card, German's exchanged joker.
"""

from __future__ import annotations

from app.engine.actions import Action, Discard, Draw
from app.engine.flow import discardable
from app.engine.moves import legal_actions
from app.engine.state import Phase, State


def timeout_action(st: State, seat: int) -> Action:
    legal = legal_actions(st, seat)
    if not legal:
        raise LookupError(f"seat {seat} has no legal action in phase {st.phase.value}")
    if st.phase is not Phase.PLAY:
        draws = [a for a in legal if isinstance(a, Draw)]
        stock = [a for a in draws if a.source == "stock"]
        if stock or draws:
            return (stock or draws)[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        return _highest(discards, st) if discards else legal[0]
    owed = _owed_move(st, legal)
    if owed is not None:
        return owed
    discards = [a for a in legal if isinstance(a, Discard)]
    drawn = st.hands[seat][-1] if st.hands[seat] else None
    if drawn is not None and drawn in discardable(st, seat):
        return Discard(drawn)
    return _highest(discards, st) if discards else legal[0]


def _owed_move(st: State, legal: list[Action]) -> Action | None:
    """A move the turn requires before any discard is legal."""
    if any(isinstance(a, Discard) for a in legal):
        return None
    for kind in ("show", "meld", "lay_off", "declare"):
        for action in legal:
            if action.type == kind:
                return action
    return None


def _highest(discards: list[Discard], st: State) -> Discard:
    return max(discards, key=lambda a: (st.rules.values.of(a.card), a.card))
