"""Issue 20: a game's behaviours live in the parts its definition names, not in rules that ask
which game this is. Walks the engine's source and fails on a comparison with a game's key, a
dispatch on a scoring rule's name, a read of the removed ``phom`` flag, or a read of a one-game
flag that is not in ``ONE_GAME_FLAGS`` (the flags still to become parts: the next steps)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from app.engine.actions import ACTION_TYPES
from app.engine.games import GAMES
from app.engine.rules import GameDef

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"

# One-game flags still read as flags, and the modules that read them. A flag that becomes a
# part leaves this table; a new one-game flag, or a read elsewhere, fails the test.
ONE_GAME_FLAGS: dict[str, frozenset[str]] = {
    "declare_before_draw": frozenset({"game.py"}),  # CONT-6
    "winner_deals": frozenset({"game.py"}),  # CONT-2
    "draw_two_from_discard": frozenset({"game.py"}),  # BOAT-2
    "discard_take_needs_opening_meld": frozenset({"game.py"}),  # KALUKI-6
    "end_joker_moves": frozenset({"moves.py", "table.py"}),  # DOUBLE-6
    "exchange_needs_opening": frozenset({"table.py"}),  # GERMAN-7
    "joker_must_be_played": frozenset({"table.py"}),  # GERMAN-8
    "lowest_wins": frozenset({"scoring.py"}),  # GERMAN-12
    "knock": frozenset({"aids.py", "rules.py"}),  # KNOCK-4
    "each_hand_a_game": frozenset({"rules.py"}),  # NOWRANG-7: resolved once into GameRules
}


def _trees() -> list[tuple[str, ast.AST]]:
    return [(p.name, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(ENGINE.glob("*.py"))]


def _one_game_flags() -> set[str]:
    """GameDef's boolean fields that exactly one game sets."""
    return {f.name for f in dataclasses.fields(GameDef) if f.type in ("bool", bool)
            and sum(bool(getattr(g, f.name)) for g in GAMES.values()) == 1}


def _is_game(node: ast.expr) -> bool:
    """``game`` or ``….game``: a GameDef, as the engine names it."""
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


def test_one_game_flags_are_read_only_where_listed() -> None:
    flags = _one_game_flags()
    assert flags == set(ONE_GAME_FLAGS), "a one-game flag was added or became a part"
    reads: dict[str, set[str]] = {flag: set() for flag in flags}
    for name, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in flags and _is_game(node.value):
                reads[node.attr].add(name)
    assert reads == {flag: set(files) for flag, files in ONE_GAME_FLAGS.items()}
