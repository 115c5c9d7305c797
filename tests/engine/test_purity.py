"""The rules engine stays pure: standard library (and pydantic) only, no I/O, no clock.

Walks every module under app/engine with `ast` (imports anywhere in the module, including
inside functions) so a forbidden import fails here even if no test executes that line.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ENGINE_DIR = Path(__file__).resolve().parents[2] / "app" / "engine"
THIRD_PARTY_ALLOWED = frozenset({"pydantic", "pydantic_core", "typing_extensions"})
# I/O, clock, concurrency and web: none of these belong in a pure engine.
FORBIDDEN = frozenset(
    {
        "asyncio",
        "socket",
        "os",
        "time",
        "datetime",
        "threading",
        "subprocess",
        "sqlite3",
        "fastapi",
        "starlette",
    }
)
# The registry of refusals is a leaf the engine raises from: it is held to the same rule.
REFUSALS = ENGINE_DIR.parent / "refusals.py"
MODULES = [*sorted(ENGINE_DIR.rglob("*.py")), REFUSALS]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE_DIR.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute dotted name) of every import in the module, relative ones resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if base == "app" else base


def _violation(imported: str) -> str | None:
    top = imported.partition(".")[0]
    if top == "app":
        inside = imported in ("app.engine", "app.refusals") or imported.startswith("app.engine.")
        return None if inside else "app code outside app.engine"
    if top in FORBIDDEN:
        return "I/O, clock or web module"
    if top in sys.stdlib_module_names or top in THIRD_PARTY_ALLOWED:
        return None
    return "not in the standard library or pydantic"


def test_engine_has_modules() -> None:
    assert MODULES, f"no modules found under {ENGINE_DIR}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE_DIR.parent)))
def test_engine_module_imports_are_pure(path: Path) -> None:
    problems = [
        f"{path.relative_to(ENGINE_DIR.parent.parent)}:{line}: import {imported!r}: {reason}"
        for line, imported in _imported_names(path)
        if (reason := _violation(imported)) is not None
    ]
    assert not problems, "\n".join(problems)
