"""Computer players: pure functions of one seat's view (standard library and app.engine only)."""

from .base import Bot, NoLegalAction
from .random_player import RandomBot
from .registry import BOT_KINDS, make_bot
from .sensible import SensibleBot

__all__ = ["BOT_KINDS", "Bot", "NoLegalAction", "RandomBot", "SensibleBot", "make_bot"]
