"""A bot that plays uniformly at random among its legal actions (for tests)."""

from __future__ import annotations

import random

from app.engine.actions import Action, CallRummy
from app.engine.rules import GameRules
from app.engine.views import SeatView

from .base import Bot, NoLegalAction, own_legal


class RandomBot(Bot):
    """Picks uniformly among ``legal_actions`` of the state built from its view."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView, rules: GameRules) -> Action:
        _, seat, legal = own_legal(view, rules)
        moves = [a for a in legal if a.type != "call_rummy"] or legal
        if not moves:
            raise NoLegalAction(f"seat {seat} has no legal action in phase {view.table['phase']}")
        return self.rng.choice(moves)

    def maybe_call(self, view: SeatView, rules: GameRules) -> CallRummy | None:
        if "call_rummy" not in view.part["legal"]:
            return None
        _, _, legal = own_legal(view, rules)
        calls: list[CallRummy | None] = [a for a in legal if isinstance(a, CallRummy)]
        return self.rng.choice([*calls, None])
