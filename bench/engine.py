"""Engine throughput with bots, and the solver's latency.

``python -m bench.engine`` prints, per game, complete hands per second of sensible-bot-vs-bot
play in one process (three players; two for Nowrang), by the wall clock and by the thread's CPU
time (``time.thread_time``, which leaves out the slices the scheduler gives other processes on
a busy machine), with actions per hand and milliseconds per action, then the solver's p50/p99
on random 15-card two-pack hands with four jokers (``bench.solver``). Target (issue 12): 300
Standard hands per second on one core.

``python -m bench.engine --baseline REF`` plays each game in this checkout and in a temporary git
worktree of REF (a commit, tag or branch) one after the other, each in a fresh process, and
prints both hands per CPU-second and their ratio: a comparison made in one run, on one machine
under one load (issue 37 asks 2x the last release in every game).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine import memo
from app.engine.games import GAMES, match_rules
from bench.solver import solver_figures

SECONDS_PER_GAME = 2.5


def game_figures(game: str, seconds: float = SECONDS_PER_GAME) -> dict[str, float]:
    """Play whole matches of ``game`` for about ``seconds``; hands/s and actions per hand."""
    players = 2 if GAMES[game].max_players == 2 else 3
    rules = match_rules(game, {}, players)
    hands = actions = 0
    seed = 0
    start, cpu = time.perf_counter(), time.thread_time()
    while time.perf_counter() - start < seconds:
        bots = [make_bot("sensible", seed * 10 + s) for s in range(players)]
        _, log = play_match(rules, bots, seed, max_hands=4)
        hands += len(log.hands)
        actions += sum(len(h.actions) for h in log.hands)
        seed += 1
    elapsed = time.perf_counter() - start
    cpu = time.thread_time() - cpu
    return {"players": players, "hands": hands, "hands_per_s": hands / elapsed,
            "hands_per_cpu_s": hands / cpu,
            "actions_per_hand": actions / hands, "ms_per_action": 1000 * elapsed / actions}


# One game's figures as JSON, run in a checkout's own directory: `game_figures` has had this
# signature since issue 12, so a baseline from then on answers it.
_ONE_GAME = "import json, sys, app; from bench.engine import game_figures as g; " \
            "print(app.__file__); print(json.dumps(g(sys.argv[1], float(sys.argv[2]))))"
HERE = Path(__file__).resolve().parent.parent


def figures_in(checkout: Path, game: str, seconds: float) -> dict[str, float]:
    """``game_figures`` of ``game`` as the code in ``checkout`` plays it, in a fresh process."""
    out = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", _ONE_GAME, game, str(seconds)], cwd=checkout, check=True,
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(checkout)})
    where, figures = out.stdout.splitlines()[-2:]
    if not Path(where).is_relative_to(checkout):  # the venv's editable install took over
        raise RuntimeError(f"{checkout}: the engine came from {where}")
    return dict(json.loads(figures))


@contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A detached git worktree of ``ref`` for as long as the block runs."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        path = Path(tmp) / "baseline"
        git = ["git", "-C", str(HERE), "worktree"]
        subprocess.run([*git, "add", "--detach", "--quiet", str(path), ref], check=True)  # noqa: S603
        try:
            yield path
        finally:
            subprocess.run([*git, "remove", "--force", str(path)], check=False)  # noqa: S603


def compare(ref: str, games: list[str], seconds: float) -> list[tuple[str, float, float]]:
    """Per game: hands per CPU-second at ``ref`` and here, the two runs back to back."""
    rows = []
    with worktree(ref) as baseline:
        print(f"{'game':<12} {ref[:12]:>12} {'this':>8} {'ratio':>6}  (hands per CPU-second)")
        for game in games:
            before = figures_in(baseline, game, seconds)["hands_per_cpu_s"]
            now = figures_in(HERE, game, seconds)["hands_per_cpu_s"]
            print(f"{game:<12} {before:>12.1f} {now:>8.1f} {now / before:>5.2f}x", flush=True)
            rows.append((game, before, now))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REF", help="compare with this git commit")
    parser.add_argument("--seconds", type=float, default=SECONDS_PER_GAME,
                        help="play per game and side")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    if args.baseline:
        compare(args.baseline, args.games, args.seconds)
        return
    report(args.games, args.seconds)


def report(games: list[str], seconds: float) -> None:
    print(f"{'game':<12} {'players':>7} {'hands':>6} {'hands/s':>8} {'hands/cpu-s':>12} "
          f"{'actions/hand':>13} {'ms/action':>10}")
    for game in games:
        f = game_figures(game, seconds)
        print(f"{game:<12} {f['players']:>7} {f['hands']:>6} {f['hands_per_s']:>8.1f} "
              f"{f['hands_per_cpu_s']:>12.1f} {f['actions_per_hand']:>13.1f} "
              f"{f['ms_per_action']:>10.2f}", flush=True)
    s = solver_figures()
    print(f"\nsolver best_arrangement, {s['samples']} random 15-card hands (2 packs + 4 jokers, "
          f"Kaluki melds): p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, max {s['max_ms']} ms")
    print("\nthe engine's memos after the run (app/engine/memo.py):")
    for m in memo.stats():
        print(f"  {m['name']:<36} bound {m['bound']:>6}  size {m['size']:>6}  "
              f"misses {m['misses']:>8}  clears {m['clears']:>4}")


if __name__ == "__main__":
    main()
