"""A seeded bot match is the same in every process (bench.strength and the playouts rely on it).

Python salts string hashes per process, so a choice that follows a set's order would differ
between runs: the normal player's shedding once broke ties in the order of ``set(allowed)``.
Two processes with different salts play the same seeded matches and must log the same actions.
"""

from __future__ import annotations

import os
import subprocess
import sys

PLAY = """
from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine.games import match_rules
for game in ("knock", "continental", "queen_city", "standard"):
    rules = match_rules(game, {}, 3)
    for level in ("sensible", "hard"):
        for seed in range(2):
            _, log = play_match(rules, [make_bot(level, seed * 10 + s) for s in range(3)], seed, 2)
            print(game, level, [(a.seat, a.action.to_json()) for h in log.hands for a in h.actions])
"""


def _play(salt: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": salt}
    done = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True,
        timeout=600)
    return done.stdout


def test_seeded_matches_do_not_depend_on_the_hash_salt() -> None:
    first, second = _play("2"), _play("5")  # two salts under which the old tie-break differed
    assert first.count("\n") == 16
    assert first == second
