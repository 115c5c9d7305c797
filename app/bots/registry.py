"""Bots by name: ``make_bot("sensible", seed)``; and the three levels a host chooses from."""

from __future__ import annotations

import random

from .base import Bot
from .levels import EasyBot, HardBot
from .random_player import RandomBot
from .sensible import SensibleBot

BOT_KINDS: dict[str, type[Bot]] = {
    "easy": EasyBot,
    "sensible": SensibleBot,
    "hard": HardBot,
    "random": RandomBot,
}
# The levels of computer player a host chooses per seat, and the kind each one plays.
LEVELS: dict[str, str] = {"easy": "easy", "normal": "sensible", "hard": "hard"}
DEFAULT_LEVEL = "normal"


def make_bot(kind: str, seed: int) -> Bot:
    """A new bot of ``kind`` (one of ``BOT_KINDS``) with its own seeded generator."""
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; expected one of {sorted(BOT_KINDS)}")
    return BOT_KINDS[kind](random.Random(seed))  # type: ignore[call-arg]


def level_of(kind: str | None) -> str | None:
    """The level a seat's bot kind plays at (None for a human, or a kind no host chooses)."""
    return next((level for level, k in LEVELS.items() if k == kind), None)
