"""``legal_actions`` is exactly the set of candidates ``verify`` accepts, in seeded playouts of
every one of the ten games, and ``verify`` changes nothing.

Legality is written once (app/engine/game.py): every move is a ``verify`` and a ``do``, ``apply``
is the one then the other on a copy, and ``legal_actions`` keeps the candidates ``verify``
accepts. At every decision of bot-vs-bot matches (the seat to act, and in an open Call Rummy
window every seat that may call) this test checks that every generated move applies, that a
seeded sample of the other candidates (the unfiltered list of ``moves.candidates``) is refused by
``apply`` with the code ``refusal`` (verify alone) names and leaves the state as it was, and, on
every fifth decision, that the legal moves are exactly the candidates ``verify`` accepts. It also
checks that ``State.copy`` copies every field.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine.errors import RuleError
from app.engine.game import apply, refusal
from app.engine.games import match_rules
from app.engine.moves import candidates, legal_actions
from app.engine.state import Phase, State

REJECTED_SAMPLE = 6  # rejected candidates re-checked through apply, per decision
FULL_EVERY = 5  # every this many decisions, all candidates go through apply

# (game, options, players, hands): every game, and the options that change legality.
CASES: list[tuple[str, dict[str, Any], int, int]] = [
    ("standard", {}, 3, 12),
    ("standard", {"call_rummy": True, "layoff_requires_meld": True}, 4, 12),
    ("standard", {"throw_down": True, "borrowing": True, "around_the_corner": True}, 3, 12),
    ("standard", {"block_rummy": True, "one_meld_per_turn": True, "mandatory_discard": True},
     2, 6),
    ("standard", {"complete_rummy": True}, 2, 8),
    ("boat_house", {}, 3, 10),
    ("kaluki", {"call_rummy": True}, 3, 8),
    ("double_rum", {"call_rummy": True}, 3, 10),
    ("knock", {}, 2, 12),
    ("continental", {}, 3, 6),
    ("continental", {"twos_wild": True}, 3, 6),
    ("queen_city", {}, 3, 8),
    ("phom", {}, 4, 10),
    ("german", {}, 3, 8),
    ("nowrang", {}, 2, 10),
]


class Agreement:
    """The checks, as a ``play_match`` observer on every state reached."""

    def __init__(self, context: str, rng: random.Random) -> None:
        self.context = context
        self.rng = rng
        self.decisions = 0
        self.checked = 0

    def __call__(self, before: State, seat: int | None, action: Any, after: State) -> None:
        assert after.copy() == after, f"State.copy lost a field: {self.context}"
        if after.hand_over:
            return
        seats = [after.turn] if after.turn is not None else []
        if after.phase is Phase.CALL and after.call is not None:
            seats += [s for s in range(after.players) if s != after.call.discarder]
        for s in dict.fromkeys(seats):
            self.decide(after, s)

    def decide(self, st: State, seat: int) -> None:
        self.decisions += 1
        context = f"{self.context} phase={st.phase.value} seat={seat} seq={st.seq}"
        legal = legal_actions(st, seat)
        for action in legal:
            assert applied_code(st, seat, action) is None, f"{action} generated, refused: {context}"
        full = candidates(st, seat)
        rejected = [a for a in full if a not in set(legal)]
        before = st.copy()
        for action in self.rng.sample(rejected, min(REJECTED_SAMPLE, len(rejected))):
            code = refusal(st, seat, action)
            assert code is not None, f"{action} accepted but not generated: {context}"
            assert applied_code(st, seat, action) == code, f"{action}: {context}"
            assert st == before, f"verifying {action} changed the state: {context}"
            self.checked += 1
        if self.decisions % FULL_EVERY == 0:
            accepted = [a for a in full if refusal(st, seat, a) is None]
            assert legal == accepted, f"legal moves differ from verify's: {context}"
            assert st == before, f"verifying changed the state: {context}"


def applied_code(st: State, seat: int, action: Any) -> str | None:
    """The code ``apply`` refuses ``action`` with, or None if it applies."""
    try:
        apply(st, seat, action)
    except RuleError as exc:
        return exc.code
    return None


@pytest.mark.parametrize(("game", "options", "players", "hands"), CASES,
                         ids=[f"{g}-{i}" for i, (g, *_) in enumerate(CASES)])
def test_legal_actions_are_what_verify_accepts(game: str, options: dict[str, Any], players: int,
                                        hands: int) -> None:
    rules = match_rules(game, options, players)
    played = decisions = checked = 0
    seed = 0
    while played < hands:
        context = f"game={game} options={options} players={players} seed={seed}"
        kinds = ["sensible", "random"]
        bots = [make_bot(kinds[(s + seed) % 2], seed * 10 + s) for s in range(players)]
        agree = Agreement(context, random.Random(seed))
        st, log = play_match(rules, bots, 900 + seed, min(3, hands - played), agree)
        played += len(log.hands)
        decisions += agree.decisions
        checked += agree.checked
        seed += 1
    print(f"\n{game} {options}: {played} hands, {decisions} decisions, "
          f"{checked} rejected candidates re-checked")
    assert decisions > 0 and checked > 0
