"""Bots by name: ``make_bot("sensible", seed)``."""

from __future__ import annotations

import random

from .base import Bot
from .random_player import RandomBot
from .sensible import SensibleBot

BOT_KINDS: dict[str, type[RandomBot] | type[SensibleBot]] = {
    "sensible": SensibleBot,
    "random": RandomBot,
}


def make_bot(kind: str, seed: int) -> Bot:
    """A new bot of ``kind`` ("sensible" or "random") with its own seeded generator."""
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; expected one of {sorted(BOT_KINDS)}")
    return BOT_KINDS[kind](random.Random(seed))
