"""Engine throughput with bots, and the solver's latency.

``python -m bench.engine`` prints, per game, complete hands per second of sensible-bot-vs-bot
play in one process (three players; two for Nowrang), by the wall clock and by the thread's CPU
time (``time.thread_time``, which leaves out the slices the scheduler gives other processes on
a busy machine), with actions per hand and milliseconds per action, then the solver's p50/p99
on random 15-card two-pack hands with four jokers (``bench.solver``). Target (issue 12): 300
Standard hands per second on one core.
"""

from __future__ import annotations

import time

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.compiled import is_compiled
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


def main() -> None:
    print(f"engine: {'compiled with mypyc' if is_compiled() else 'interpreted'} (docs/build.md)")
    print(f"{'game':<12} {'players':>7} {'hands':>6} {'hands/s':>8} {'hands/cpu-s':>12} "
          f"{'actions/hand':>13} {'ms/action':>10}")
    for game in GAMES:
        f = game_figures(game)
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
