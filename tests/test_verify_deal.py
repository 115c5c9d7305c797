"""`python -m app verify-deal` (PROTOCOL.md §7; docs/server.md "Commands"): the deal the seeds
give, as the independent §7 code derives it; exit 1 for a commitment the seed does not hash to,
2 for a bad argument."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import REPO_ROOT
from tests.engine import fair_reference as ref
from tests.engine.test_fair_deal import CLIENT_SEEDS, COMMITMENT, PYTHON, SERVER_SEED

# Kaluki, 4 players, seat 3 deals: two packs and four jokers, 15 cards each, an upcard
# (KALUKI-1, KALUKI-2); seat 2 sent no seed.
SEEDS = [*CLIENT_SEEDS, "", "cy"]
ARGS = ["--game", "kaluki", "--players", "4", "--dealer", "3", "--server-seed", SERVER_SEED,
        "--client-seeds", json.dumps(SEEDS)]


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [PYTHON, "-m", "app", "verify-deal", *args], cwd=REPO_ROOT, capture_output=True,
        text=True, timeout=60, check=False)


def test_prints_the_deal_the_seeds_give() -> None:
    expected = ref.derive(SERVER_SEED, SEEDS, 2, 4, 3, [15] * 4, True)
    for extra in ([], ["--commitment", COMMITMENT], ["--commitment", COMMITMENT.upper()],
                  ["--options", '{"call_rummy": true}']):
        done = verify(*ARGS, *extra)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("\n") == 1 and json.loads(done.stdout) == expected


def test_a_commitment_the_seed_does_not_hash_to_exits_1() -> None:
    other = ref.commitment("00" * 32)
    done = verify(*ARGS, "--commitment", other)
    assert done.returncode == 1 and done.stdout == ""
    assert f"hashes to {COMMITMENT}, not to the commitment {other}" in done.stderr


@pytest.mark.parametrize(("change", "fragment"), [
    (("--game", "gin"), "unknown_game"),
    (("--options", "{hands: 2}"), "--options is not JSON"),
    (("--options", '{"around_the_corner": true}'), "option_not_allowed"),
    (("--players", "7"), "bad_players"),
    (("--players", "four"), "invalid int value"),
    (("--dealer", "4"), "--dealer must be a seat 0..3"),
    (("--dealer", "-1"), "--dealer must be a seat 0..3"),
    (("--server-seed", SERVER_SEED[:-1]), "a server seed is 64 hex characters"),
    (("--server-seed", "x" * 64), "a server seed is 64 hex characters"),
    (("--client-seeds", json.dumps(CLIENT_SEEDS)), "client_seeds must list 4 texts"),
    (("--client-seeds", json.dumps({"0": "ann"})), "client_seeds must list 4 texts"),
    (("--client-seeds", json.dumps([*CLIENT_SEEDS, "", "c y"])), "'c y'"),
    (("--client-seeds", json.dumps([*CLIENT_SEEDS, "", 7])), "7"),
    (("--commitment", COMMITMENT[:60]), "--commitment is 64 hex characters"),
])
def test_bad_arguments_exit_2(change: tuple[str, str], fragment: str) -> None:
    args = list(ARGS)
    name, value = change
    if name in args:
        args[args.index(name) + 1] = value
    else:
        args += [name, value]
    done = verify(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert fragment in done.stderr, done.stderr


def test_a_missing_argument_exits_2() -> None:
    done = verify(*ARGS[:-2])
    assert done.returncode == 2 and "--client-seeds" in done.stderr
