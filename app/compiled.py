"""The optional mypyc build of the engine and the bots: what it compiles, and the guard.

``python -m app.build`` compiles every module of ``app/engine`` and ``app/bots`` but those in
``INTERPRETED`` with mypyc into C extensions beside their sources (``make compiled`` runs it when
the venv has mypy and a C compiler; docs/build.md). Python imports ``solver.cpython-311-….so``
in preference to ``solver.py``, so the build also writes ``app/compiled.json``: the SHA-256 of
every source it compiled from. Importing ``app`` calls :func:`check`, which refuses to go on,
naming the make targets, when a compiled module is there and its source (or a module that the
compiled code imports, ``app/refusals.py``) no longer matches the build: a stale compiled
module never runs silently. Without any compiled module everything runs as plain Python.
"""

from __future__ import annotations

import hashlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

APP = Path(__file__).resolve().parent
ROOT = APP.parent
PACKAGES = ("engine", "bots")
# Modules left to the interpreter, and why (mypyc refuses the rest of their module otherwise).
INTERPRETED = {
    "app/engine/options.py": "a pydantic model (mypyc 2.4.1's C for it does not compile)",
    # GameDef's fields name scoring's and phom's classes, imported for type checking only (they
    # import rules.py); compiled, the dataclass looks those names up at import and fails.
    "app/engine/rules.py": "GameDef names classes it imports for type checking only",
    # Compiled, reading Scoring.TALLY needs ClassVar annotations; scoring runs once a hand.
    "app/engine/scoring.py": "Scoring's class attributes are read through the class",
    "app/bots/base.py": "NoLegalAction subclasses RuntimeError (mypyc: unimplemented)",
    "app/bots/selfplay.py": "BotRejected and HandDidNotEnd subclass AssertionError (likewise)",
}
# Sources that are not compiled but whose contents the compiled code may have taken in.
INPUTS = ("app/refusals.py",)
GROUP = "app._compiled"  # the shared library of all compiled modules: app/_compiled__mypyc.*.so
MANIFEST = APP / "compiled.json"
REBUILD = "run `make compiled` to rebuild it, or `make clean-compiled` to run interpreted"


class StaleBuild(ImportError):
    """A compiled module does not match its source: it would run other code than the source."""


def sources() -> list[str]:
    """The modules to compile, as paths relative to the repository root.

    Never a package's ``__init__``: compiled, its package finds no interpreted module.
    """
    return sorted(str(path.relative_to(ROOT)) for package in PACKAGES
                  for path in (APP / package).glob("*.py")
                  if path.name != "__init__.py" and str(path.relative_to(ROOT)) not in INTERPRETED)


def compiled_files() -> list[Path]:
    """The compiled modules present in the source tree (C extensions under ``app/``)."""
    return sorted(path for folder in (APP, *(APP / p for p in PACKAGES))
                  for path in folder.iterdir()
                  if any(path.name.endswith(suffix) for suffix in EXTENSION_SUFFIXES))


def digest(relative: str) -> str | None:
    """The SHA-256 of a file of the repository, or None when it is not there."""
    path = ROOT / relative
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _recorded() -> dict[str, str]:
    try:
        return dict(json.loads(MANIFEST.read_text())["sources"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def stale() -> list[str]:
    """Why the compiled modules present must not run (empty when there are none or they match)."""
    found = compiled_files()
    if not found:
        return []
    recorded = _recorded()
    if not recorded:
        return [f"{found[0].relative_to(ROOT)} has no {MANIFEST.name} from its build"]
    reasons = [f"{name} changed since the build" for name, built in recorded.items()
               if digest(name) != built]
    for path in found:
        source = str(path.with_name(path.name.split(".")[0] + ".py").relative_to(ROOT))
        if source not in recorded and not path.name.startswith("_compiled__mypyc"):
            reasons.append(f"{path.relative_to(ROOT)} is not from the last build")
    return reasons


def check() -> None:
    """Raise :class:`StaleBuild` if a compiled module present would not run its source."""
    reasons = stale()
    if reasons:
        raise StaleBuild(f"the compiled engine is stale ({'; '.join(reasons[:3])}"
                         f"{'; …' if len(reasons) > 3 else ''}): {REBUILD}")


def is_compiled() -> bool:
    """Whether the engine runs compiled (its solver is a C extension)."""
    from app.engine import solver

    return not str(solver.__file__).endswith(".py")
