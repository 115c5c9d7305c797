"""The engine's one memo mechanism (issue 20): bounded, counted, and the only store of its kind."""

from __future__ import annotations

import ast
from pathlib import Path

from app.engine import moves, solver, table  # noqa: F401 - their memos register on import
from app.engine.memo import Memo, stats

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


def test_an_answer_is_worked_out_once_and_the_store_stays_within_its_bound() -> None:
    calls: list[int] = []

    def square(n: int) -> int:
        calls.append(n)
        return n * n

    memo: Memo[int, int] = Memo("test: squares", 3)
    assert [memo.get(n, square, n) for n in (2, 2, 3, 2)] == [4, 4, 9, 4]
    assert calls == [2, 3] and memo.misses == 2
    for n in range(4, 10):
        memo.get(n, square, n)
    mine = next(m for m in stats() if m["name"] == "test: squares")
    assert mine["size"] <= 3 and mine["clears"] >= 2 and mine["misses"] == 8


def test_the_solver_moves_and_table_moves_remember_through_it() -> None:
    names = {m["name"] for m in stats()}
    assert {"table: listings as melds", "table: lay-offs", "moves: listings as entries",
            "solver: one pack's melds", "solver: card values",
            "solver: a hand's candidate melds", "solver: run codes per ace model"} <= names


def test_no_engine_module_keeps_a_store_of_its_own() -> None:
    """A module-level dict that a function fills is a cache: it belongs in a Memo."""
    for path in sorted(ENGINE.glob("*.py")):
        if path.name == "memo.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "clear":
                raise AssertionError(f"{path.name}:{node.lineno} empties a store of its own")
