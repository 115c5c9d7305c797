"""How many cards a Continental hand is short of a declaration (CONT-4, CONT-6)."""

from __future__ import annotations

from collections import Counter

from app.bots.shortfall import outs, shortfall
from app.engine.cards import RANKS, SUITS


def _hand(text: str) -> list[str]:
    return text.split(" ")


EVERY = Counter({r + s: 2 for r in RANKS for s in SUITS})  # two packs, nothing seen


def test_a_declarable_hand_is_short_of_nothing() -> None:
    """Runs of 5, 4, 3 and 3 (CONT-6's first pattern)."""
    hand = _hand("2H 3H 4H 5H 6H 7C 8C 9C TC 4D 5D 6D JS QS KS")
    assert shortfall(hand, EVERY) == 0


def test_the_ace_ends_a_run_at_either_end_and_a_joker_fills_a_place() -> None:
    """CONT-3: Q-K-A and A-2-3 of hearts with two aces; 2..9 of clubs is a 5 and a 3; the
    joker is the fifteenth card."""
    hand = _hand("QH KH AH AH 2H 3H 2C 3C 4C 5C 6C 7C 8C 9C JK")
    assert shortfall(hand, EVERY) == 0


def test_a_run_short_of_one_card_needs_one_draw_with_four_outs() -> None:
    """J-Q of spades is one card short; TS or KS, two copies each, would complete it (the 2C
    is the card that goes)."""
    hand = _hand("2H 3H 4H 5H 6H 7C 8C 9C TC 4D 5D 6D JS QS 2C")
    assert shortfall(hand, EVERY) == 1
    assert outs(hand, EVERY) == 4


def test_a_place_whose_every_copy_is_seen_cannot_be_drawn() -> None:
    """2-3 and 6-8 of hearts with both 4H and 5H seen: the 2H and 3H need the AH instead."""
    unseen = EVERY.copy()
    unseen["4H"] = unseen["5H"] = 0
    hand = _hand("2H 3H 6H 7H 8H 2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    assert shortfall(hand, unseen) == 1
    unseen["AH"] = 0
    assert shortfall(hand, unseen) == 2
