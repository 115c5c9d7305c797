"""A bot that plays uniformly at random among its legal actions (for tests)."""

from __future__ import annotations

import random
from typing import Any

from app.engine.rules import GameRules

from .base import Bot, NoLegalAction, own_legal


class RandomBot(Bot):
    """Picks uniformly among ``legal_actions`` of the state rebuilt from its view."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], rules: GameRules) -> dict[str, Any]:
        _, seat, legal = own_legal(view, rules)
        moves = [a for a in legal if a.type != "call_rummy"] or legal
        if not moves:
            raise NoLegalAction(f"seat {seat} has no legal action in phase {view['phase']}")
        return self.rng.choice(moves).to_json()

    def maybe_call(self, view: dict[str, Any], rules: GameRules) -> dict[str, Any] | None:
        if "call_rummy" not in view["legal"]:
            return None
        _, _, legal = own_legal(view, rules)
        calls: list[Any] = [a for a in legal if a.type == "call_rummy"]
        pick = self.rng.choice([*calls, None])
        return None if pick is None else pick.to_json()
