"""docs/fairness.md's worked example: every number in it is recomputed by the independent
PROTOCOL.md §7 code (tests/engine/fair_reference.py), and its command prints its deal."""

from __future__ import annotations

import json
import re
import shlex
import subprocess

import pytest

from tests.conftest import REPO_ROOT
from tests.engine import fair_reference as ref
from tests.engine.test_fair_deal import PYTHON

DOC = (REPO_ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
EXAMPLE = DOC[DOC.index("## A worked example"):]


def found(pattern: str) -> str:
    match = re.search(pattern, EXAMPLE, re.DOTALL)
    assert match is not None, f"docs/fairness.md's example lacks {pattern!r}"
    return match.group(1)


SERVER_SEED = found(r"- server seed: `([0-9a-f]{64})`")
COMMITMENT = found(r"- commitment: `([0-9a-f]{64})`")
CLIENT_SEEDS = [found(r"- client seeds: seat 0 `([^`]+)`"), found(r", seat 1 `([^`]+)`")]
COMMAND = shlex.split(found(r"```sh\n(.*?)\n```"))
DEAL = json.loads(found(r"```json\n(.*?)\n```"))


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    assert argv[:3] == ["python", "-m", "app"]
    return subprocess.run(  # noqa: S603 - the documented argv, our own interpreter
        [PYTHON, *argv[1:]], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60,
        check=False)


def option(name: str) -> str:
    return COMMAND[COMMAND.index(name) + 1]


def test_the_seeds_commitment_and_deck_seed() -> None:
    assert ref.commitment(SERVER_SEED) == COMMITMENT
    seed = ref.deck_seed(SERVER_SEED, CLIENT_SEEDS)
    assert "`river-42\\nkq_Moon\\n`" in EXAMPLE and CLIENT_SEEDS == ["river-42", "kq_Moon"]
    assert found(r"- deck seed: .*?`([0-9a-f]{64})`") == seed.hex()
    first = found(r"- the first stream bytes: `([0-9a-f]+)`")
    assert ref.Stream(seed).take(len(first) // 2).hex() == first


def test_the_first_swap() -> None:
    """The numbers of the first Fisher–Yates step (i = 51)."""
    seed = ref.deck_seed(SERVER_SEED, CLIENT_SEEDS)
    word = ref.Stream(seed).word()
    assert int(found(r"the first word is `0x([0-9a-f]{8})`"), 16) == word
    assert int(found(r"the first word is `0x[0-9a-f]{8}` = (\d+)")) == word
    limit = 2**32 - 2**32 % 52
    assert int(found(r"2³² − \(2³² mod 52\) = (\d+)")) == limit and word < limit
    j = int(found(r"so j = \d+ mod 52 = (\d+)"))
    assert j == word % 52
    pack = ref.pack(1, 0)
    assert found(rf"Position {j} of the canonical pack is\s+`(\w\w)`") == pack[j]
    assert found(r"it swaps with `(\w\w)` at position 51") == pack[51]
    assert found(r"the stock ends with `(\w\w)`") == DEAL["stock"][-1] == pack[j]


def test_the_documented_deal_is_the_seeds_deal() -> None:
    """Standard Rummy, 2 players: 10 cards each and an upcard (STD-2), seat 0 deals."""
    assert (option("--game"), option("--players"), option("--dealer")) == ("standard", "2", "0")
    assert option("--server-seed") == SERVER_SEED and option("--commitment") == COMMITMENT
    assert json.loads(option("--client-seeds")) == CLIENT_SEEDS
    assert ref.derive(SERVER_SEED, CLIENT_SEEDS, 1, 0, 0, [10, 10], True) == DEAL
    assert found(r"gets the first card `(\w\w)`") == DEAL["hands"][1][0]
    assert found(r"seat 0 the second `(\w\w)`") == DEAL["hands"][0][0]
    assert found(r"the 21st card `(\w\w)` is the upcard") == DEAL["discard"][0]
    assert found(r"`(\w\w)` tops the stock") == DEAL["stock"][0]


def test_the_documented_command_prints_the_documented_deal() -> None:
    done = run(COMMAND)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == DEAL and done.stderr == ""


@pytest.mark.parametrize("position", [0, 63])
def test_a_wrong_commitment_exits_1(position: int) -> None:
    wrong = list(COMMITMENT)
    wrong[position] = "0" if wrong[position] != "0" else "1"
    argv = list(COMMAND)
    argv[argv.index("--commitment") + 1] = "".join(wrong)
    done = run(argv)
    assert done.returncode == 1 and done.stdout == ""
    assert COMMITMENT in done.stderr and "not the seed that was committed to" in done.stderr


def test_the_readme_shows_the_same_command() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(python -m app verify-deal .*?)\n```", readme, re.DOTALL)
    assert block is not None
    assert shlex.split(block.group(1).replace("\\\n", " ")) == COMMAND
