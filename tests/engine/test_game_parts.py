"""Issue 20: a game's behaviours live in the parts its definition names, not in rules that ask
which game this is. Walks the engine's source and fails on a comparison with a game's key, a
dispatch on a scoring rule's name or a read of the removed ``phom`` flag; and fails on any
boolean field of ``GameDef`` that only one game sets: a mechanism one game has is a part of
``parts.py`` (take, order, end jokers, exchange, hand end), of ``scoring.py`` (GERMAN-12's lowest
total, NOWRANG-7's one-hand game) or Phỏm's rounds, named on the game's definition."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from app.engine.actions import ACTION_TYPES
from app.engine.games import GAMES
from app.engine.rules import GameDef

APP = Path(__file__).resolve().parents[2] / "app"
ENGINE = APP / "engine"

# The one-game flags the parts replaced: nothing in the engine or the bots reads them any more.
REMOVED_FLAGS = frozenset({
    "declare_before_draw", "winner_deals", "draw_two_from_discard",
    "discard_take_needs_opening_meld", "end_joker_moves", "joker_exchange",
    "exchange_needs_opening", "joker_must_be_played", "lowest_wins", "knock",
    "each_hand_a_game"})


def _trees() -> list[tuple[str, ast.AST]]:
    return [(p.name, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(ENGINE.glob("*.py"))]


def _one_game_flags() -> set[str]:
    """GameDef's boolean fields that exactly one game sets."""
    return {f.name for f in dataclasses.fields(GameDef) if f.type in ("bool", bool)
            and sum(bool(getattr(g, f.name)) for g in GAMES.values()) == 1}


def _is_game(node: ast.expr) -> bool:
    """``game`` or ``….game``: a GameDef, as the engine and the bots name it."""
    return (isinstance(node, ast.Name) and node.id == "game") or (
        isinstance(node, ast.Attribute) and node.attr == "game")


def test_no_rule_compares_a_games_key() -> None:
    # "knock" is an action type as well as a game's key; comparing an action's type is fine.
    keys = set(GAMES) - set(ACTION_TYPES)
    found = []
    for name, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Attribute) and side.attr == "key":
                    found.append(f"{name}:{node.lineno} compares .key")
                if isinstance(side, ast.Constant) and side.value in keys:
                    found.append(f"{name}:{node.lineno} compares {side.value!r}")
                if isinstance(side, ast.Attribute) and isinstance(side.value, ast.Name) \
                        and side.value.id == "Scoring":
                    found.append(f"{name}:{node.lineno} dispatches on Scoring.{side.attr}")
    assert found == []


def test_phom_is_read_only_as_its_rounds() -> None:
    found = [f"{name}:{node.lineno}" for name, tree in _trees() for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr == "phom"]
    assert found == []


def test_no_game_def_field_is_a_one_game_flag() -> None:
    assert _one_game_flags() == set(), "make the mechanism a part the game's definition names"


def test_removed_flags_are_read_from_no_game_definition() -> None:
    """``GameRules.each_hand_a_game`` (OPT-WIN-2 resolved with the scoring part) and the
    scoring parts' own answer stay; a read of a removed flag on a definition does not."""
    found = []
    for path in sorted([*ENGINE.glob("*.py"), *(APP / "bots").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in REMOVED_FLAGS \
                    and _is_game(node.value):
                found.append(f"{path.name}:{node.lineno} reads game.{node.attr}")
    assert found == []
    assert not REMOVED_FLAGS & {f.name for f in dataclasses.fields(GameDef)}
