"""Hand scoring (STD-13, OPT-HIDDEN-2, OPT-BLOCK-4, OPT-WIN-2) and game end (GEN-15)."""

from __future__ import annotations

from .rules import GameRules
from .state import HandResult, State


def hand_count(cards: list[str], rules: GameRules) -> int:
    """The value of cards left in a hand (GEN-16, with OPT-ATC and OPT-VALUES applied)."""
    return sum(rules.values.of(c) for c in cards)


def went_out_result(st: State, winner: int, doubled: bool) -> HandResult:
    """STD-13: the player who went out scores every card left in the other hands."""
    rules = st.rules
    points = sum(hand_count(h, rules) for seat, h in enumerate(st.hands) if seat != winner)
    if doubled:  # OPT-HIDDEN-2
        points *= 2
    scores = [0] * st.players
    scores[winner] = 1 if rules.options.each_hand_own_game else points  # OPT-WIN-2
    detail = {"going_rummy": True} if doubled else {}
    return HandResult(winner, "went_out", tuple(scores), _revealed(st), detail)


def block_result(st: State, ender: int) -> HandResult:
    """OPT-BLOCK-3/4: the lowest count wins the differences; tied winners split, remainder lost."""
    counts = [hand_count(h, st.rules) for h in st.hands]
    low = min(counts)
    winners = [s for s, c in enumerate(counts) if c == low]
    pot = sum(c - low for c in counts)
    scores = [0] * st.players
    single = winners[0] if len(winners) == 1 else None
    if st.rules.options.each_hand_own_game:
        if single is not None:
            scores[single] = 1
    else:
        for seat in winners:
            scores[seat] = pot // len(winners)
    return HandResult(single, "blocked", tuple(scores), _revealed(st),
                      {"counts": counts, "ended_by": ender})


def _revealed(st: State) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(h) for h in st.hands)


def game_result(st: State, result: HandResult) -> tuple[bool, int | None]:
    """Whether the game is over after ``result`` has been added to the totals, and who won."""
    rules = st.rules
    if rules.options.each_hand_own_game:  # OPT-WIN-2, OPT-WIN-4
        return True, result.winner
    totals = st.totals
    if rules.hands is not None:  # fixed number of hands
        if st.hand_no + 1 < rules.hands:
            return False, None
        best = min(totals) if rules.game.lowest_wins else max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        return True, leaders[0] if len(leaders) == 1 else None
    top = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == top]
    if rules.target is not None and top >= rules.target and len(leaders) == 1:
        return True, leaders[0]  # GEN-15: a tie at the top plays on
    return False, None
