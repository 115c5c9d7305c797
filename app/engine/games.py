"""The registry of games (RULES.md §2 and §4) and the catalogue the API lists."""

from __future__ import annotations

from typing import Any

from .errors import InvalidOptions
from .melds import AceModel, MeldRules
from .options import option_defaults, options_schema
from .rules import CardValues, GameDef, GameRules


def _deal_10_7_6(players: int) -> int:
    """STD-2: 10 cards with two players, 7 with three or four, 6 with five or six."""
    return 10 if players == 2 else 7 if players <= 4 else 6


STANDARD = GameDef(
    key="standard",
    name="Standard Rummy",
    description=(
        "The classic game for 2 to 6 players: draw from the stock or the discard pile, lay down "
        "sets and runs, lay off on any meld and go out first; the winner scores the cards left "
        "in the other hands. Every optional rule can be switched on."),
    min_players=2, max_players=6,
    allowed_options=frozenset({
        "call_rummy", "target_score", "each_hand_own_game", "around_the_corner", "borrowing",
        "borrowing_any_meld", "one_meld_per_turn", "layoff_requires_meld", "going_rummy",
        "mandatory_discard", "complete_rummy", "card_count_scoring", "block_rummy",
        "throw_down"}),
    deal_size=_deal_10_7_6,
    meld=MeldRules(ace=AceModel.LOW),
    values=CardValues(ace=1),
)

GAMES: dict[str, GameDef] = {g.key: g for g in (STANDARD,)}


def game_def(key: object) -> GameDef:
    if not isinstance(key, str) or key not in GAMES:
        raise InvalidOptions("unknown_game", f"unknown game: {key!r}")
    return GAMES[key]


def match_rules(game: object, options: object, players: object) -> GameRules:
    """Validate a match's game, options and player count (PROTOCOL.md §2)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidOptions("bad_players", f"players must be an integer, not {players!r}")
    return game_def(game).rules(options, players)


def game_catalog() -> list[dict[str, Any]]:
    """Each game with its player range, description and options' JSON schema and defaults."""
    return [{
        "key": g.key, "name": g.name, "description": g.description,
        "min_players": g.min_players, "max_players": g.max_players,
        "options_schema": options_schema(g.allowed_options),
        "options_defaults": option_defaults(g.allowed_options),
    } for g in GAMES.values()]
