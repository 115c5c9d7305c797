"""The suite's own order (tests/conftest.py LONGEST_FIRST) names files that exist."""

from __future__ import annotations

from tests.conftest import LONGEST_FIRST, REPO_ROOT


def test_the_longest_files_named_first_exist() -> None:
    missing = [path for path in LONGEST_FIRST if not (REPO_ROOT / path).is_file()]
    assert not missing
