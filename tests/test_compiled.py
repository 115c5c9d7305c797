"""The guard against a stale compiled engine (app/compiled.py, docs/build.md): a compiled module
runs only while every source of its build is unchanged. Checked on a scratch tree with stand-in
extension files (the guard reads names and digests; it never loads them)."""

from __future__ import annotations

import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from app import compiled

SUFFIX = EXTENSION_SUFFIXES[0]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with app/engine/solver.py compiled and recorded; returns its root."""
    app = tmp_path / "app"
    for folder in ("engine", "bots"):
        (app / folder).mkdir(parents=True)
    (app / "refusals.py").write_text("CODES = 1\n")
    (app / "engine" / "solver.py").write_text("def best() -> int:\n    return 1\n")
    (app / "engine" / f"solver{SUFFIX}").write_bytes(b"")
    (app / f"_compiled__mypyc{SUFFIX}").write_bytes(b"")
    monkeypatch.setattr(compiled, "APP", app)
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    monkeypatch.setattr(compiled, "MANIFEST", app / "compiled.json")
    digests = {name: compiled.digest(name)
               for name in ("app/engine/solver.py", "app/refusals.py")}
    (app / "compiled.json").write_text(json.dumps({"sources": digests}))
    return tmp_path


def test_a_build_that_matches_its_sources_runs(tree: Path) -> None:
    assert compiled.stale() == []
    compiled.check()


def test_no_compiled_module_means_plain_python(tree: Path) -> None:
    for path in compiled.compiled_files():
        path.unlink()
    (tree / "app" / "compiled.json").unlink()
    assert compiled.stale() == []


def test_an_edited_source_is_refused_naming_make(tree: Path) -> None:
    (tree / "app" / "engine" / "solver.py").write_text("def best() -> int:\n    return 2\n")
    with pytest.raises(compiled.StaleBuild, match=r"app/engine/solver\.py changed since the "
                       r"build\): run `make compiled`.*`make clean-compiled`"):
        compiled.check()


def test_an_edited_input_or_a_removed_source_is_refused(tree: Path) -> None:
    (tree / "app" / "refusals.py").write_text("CODES = 2\n")
    (tree / "app" / "engine" / "solver.py").unlink()
    assert compiled.stale() == ["app/engine/solver.py changed since the build",
                                "app/refusals.py changed since the build"]


def test_a_compiled_module_without_its_build_record_is_refused(tree: Path) -> None:
    (tree / "app" / "bots" / f"sensible{SUFFIX}").write_bytes(b"")
    assert compiled.stale() == [f"app/bots/sensible{SUFFIX} is not from the last build"]
    (tree / "app" / "compiled.json").unlink()
    assert compiled.stale() == [f"app/_compiled__mypyc{SUFFIX} has no compiled.json from its "
                                "build"]


def test_the_build_compiles_the_engine_and_the_bots_but_the_listed_modules() -> None:
    names = compiled.sources()
    assert "app/engine/solver.py" in names and "app/bots/sensible.py" in names
    assert not set(names) & compiled.INTERPRETED.keys()
    assert not [name for name in names if name.endswith("__init__.py")]
    assert all((compiled.ROOT / name).is_file() for name in compiled.INTERPRETED)
