"""The locks in requirements/ cover pyproject.toml: every dependency is pinned, with hashes, and
the dev lock pins the runtime packages at the runtime lock's versions. (`make lock` refreshes
them; a dependency added to pyproject.toml without it would be missing from a fresh install.)
"""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO_ROOT

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$", re.MULTILINE)


def _pins(name: str) -> dict[str, str]:
    text = (REPO_ROOT / "requirements" / name).read_text()
    pins = {canonicalize_name(package): version for package, version in PIN.findall(text)}
    assert text.count("==") == len(pins) and text.count("--hash=sha256:") >= len(pins)
    return pins


def _names(requirements: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(text).name) for text in requirements}


def test_the_locks_pin_every_dependency_of_pyproject() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    runtime, dev = _pins("runtime.txt"), _pins("dev.txt")

    build = _names(project["build-system"]["requires"])
    assert _names(project["project"]["dependencies"]) | build <= runtime.keys()
    assert _names(project["project"]["optional-dependencies"]["dev"]) | build <= dev.keys()
    assert "greenlet" in runtime  # sqlalchemy[asyncio]: the async engine needs it at run time
    assert {name: dev[name] for name in runtime} == runtime


def test_the_build_lock_is_the_runtime_and_mypy_at_the_dev_locks_versions() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    runtime, dev, build = _pins("runtime.txt"), _pins("dev.txt"), _pins("build.txt")

    assert _names(project["project"]["optional-dependencies"]["compiled"]) <= build.keys()
    assert runtime.keys() <= build.keys()
    assert {name: dev[name] for name in build} == build
