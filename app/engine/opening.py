"""KALUKI-6: whether a discard may be taken before the initial meld, and the opening it allows."""

from __future__ import annotations

from collections import Counter

from . import solver
from .cards import JOKER, parse_entry
from .melds import form_meld
from .rules import GameRules


def opening_with(hand: list[str], card: str, rules: GameRules) -> tuple[solver.Listed, ...] | None:
    """Melds from ``hand`` plus ``card`` that use ``card`` and reach the initial-meld minimum.

    The solver keeps ``card`` in a meld whenever it can (it weighs far more than any other
    card) and otherwise keeps the most valuable cards melded; the melds are then valued by the
    game's initial-meld values (KALUKI-5).
    """
    cards = [*hand, card]

    def weight(code: str) -> int:
        if code == card:
            return 1000
        return 15 if code == JOKER else rules.values.of(code)

    best = solver.best_arrangement(cards, rules.meld, weight)
    if Counter(best.deadwood)[card] >= Counter(cards)[card]:
        return None
    melds = [form_meld([parse_entry(x) for x in m], rules.meld) for m in best.melds]
    if sum(rules.game.meld_points(m) for m in melds) < rules.game.initial_meld:
        return None
    return best.melds


def can_open_with(hand: list[str], card: str, rules: GameRules) -> bool:
    return opening_with(hand, card, rules) is not None
