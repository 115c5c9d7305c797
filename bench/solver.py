"""Timing of the best-arrangement solver (GEN-12) on four kinds of hands, against the targets.

``python -m bench.solver`` times the search (``search_arrangement``: ``best_arrangement`` without
its memo) on each workload three times, fresh hands each time (best of three, as the
machine is shared) and prints hands/s, p50 and p99 next to the target, by the
wall clock and by CPU time (on a loaded machine the wall clock's p99 is mostly the time slices
given to other processes):

- random 10-card one-pack hands, Standard melds (target ≥ 30,000 hands/s);
- meld-rich 13-card one-pack hands, built from planted sets and runs (≥ 10,000 hands/s);
- random 15-card hands from two packs and four jokers, Kaluki melds (p99 < 2 ms);
- Continental hands with twos wild, 15 cards from two packs and two jokers holding 3 to 6
  twos (p99 < 5 ms).
"""

from __future__ import annotations

import gc
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from app.engine import games
from app.engine.cards import RANKS, SUITS, make_code, standard_pack
from app.engine.melds import MeldRules
from app.engine.solver import search_arrangement

STANDARD = games.STANDARD.meld
KALUKI = games.KALUKI.meld
CONTINENTAL_TWOS = replace(games.CONTINENTAL.meld,
                           wilds=games.CONTINENTAL.meld.wilds | {"2C", "2D", "2H", "2S"})
standard_value = games.STANDARD.values.of
kaluki_value = games.KALUKI.values.of
continental_value = games.CONTINENTAL.values.of


def meld_rich(rng: random.Random, size: int) -> list[str]:
    """A one-pack hand mostly made of planted (often overlapping) sets and runs."""
    pack = set(standard_pack())
    hand: list[str] = []
    while len(hand) < size - 2:
        if rng.random() < 0.5:
            suit, start = rng.choice(SUITS), rng.randint(1, 11)
            meld = [make_code(start + i, suit) for i in range(rng.randint(3, 5))]
        else:
            rank = RANKS[rng.randint(0, 12)]
            meld = [rank + s for s in rng.sample(SUITS, rng.randint(3, 4))]
        fresh = [c for c in meld if c in pack]
        pack.difference_update(fresh)
        hand += fresh[:size - len(hand)]
    hand += rng.sample(sorted(pack), size - len(hand))
    rng.shuffle(hand)
    return hand


def twos_heavy(rng: random.Random) -> list[str]:
    """15 Continental cards (two packs, two jokers) holding 3 to 6 twos."""
    pack = standard_pack(2, 2)
    twos = [c for c in pack if c[0] == "2"]
    rest = [c for c in pack if c[0] != "2"]
    k = rng.randint(3, 6)
    return rng.sample(twos, k) + rng.sample(rest, 15 - k)


@dataclass(frozen=True)
class Workload:
    name: str
    hands: Callable[[random.Random], list[str]]
    rules: MeldRules
    value: Callable[[str], int]
    target: str  # printed next to the figures
    met: Callable[[dict[str, float]], bool]


WORKLOADS = [
    Workload("random 10-card one-pack (Standard)",
             lambda rng: rng.sample(standard_pack(), 10), STANDARD, standard_value,
             ">= 30,000 hands/s", lambda f: f["hands_per_s"] >= 30_000),
    Workload("meld-rich 13-card one-pack (Standard)",
             lambda rng: meld_rich(rng, 13), STANDARD, standard_value,
             ">= 10,000 hands/s", lambda f: f["hands_per_s"] >= 10_000),
    Workload("15-card two packs + 4 jokers (Kaluki)",
             lambda rng: rng.sample(standard_pack(2, 4), 15), KALUKI, kaluki_value,
             "p99 < 2 ms", lambda f: f["p99_ms"] < 2),
    Workload("Continental, 3-6 twos wild + jokers",
             twos_heavy, CONTINENTAL_TWOS, continental_value,
             "p99 < 5 ms", lambda f: f["p99_ms"] < 5),
]


def time_hands(hands: list[list[str]], rules: MeldRules,
               value: Callable[[str], int]) -> dict[str, float]:
    """hands/s, p50, p99 and max milliseconds of ``search_arrangement`` over ``hands``, by the
    wall clock and by this thread's CPU time (which leaves out time the shared machine's
    scheduler gave to other processes)."""
    wall, cpu = [], []
    enabled = gc.isenabled()
    gc.disable()  # as timeit does: time the solver, not the collector
    try:
        clock, thread = time.perf_counter, time.thread_time
        for hand in hands:
            start, start_cpu = clock(), thread()
            search_arrangement(hand, rules, value)
            cpu.append(thread() - start_cpu)
            wall.append(clock() - start)
    finally:
        if enabled:
            gc.enable()
    out: dict[str, float] = {"samples": len(hands)}
    for name, times in (("", wall), ("cpu_", cpu)):
        times.sort()
        out[f"{name}hands_per_s"] = round(len(times) / sum(times))
        out[f"{name}p50_ms"] = round(times[len(times) // 2] * 1000, 3)
        out[f"{name}p99_ms"] = round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 3)
        out[f"{name}max_ms"] = round(times[-1] * 1000, 3)
    return out


def workload_figures(work: Workload, samples: int = 5000, seed: int = 1,
                     runs: int = 3) -> dict[str, float]:
    """The best of ``runs`` timings (highest hands/s, lowest times) of one workload, each run
    on hands of its own (the engine's memos would answer a hand met before)."""
    rng = random.Random(f"{seed}-{work.name}")
    results = [time_hands([work.hands(rng) for _ in range(samples)], work.rules, work.value)
               for _ in range(runs)]
    return {key: (max if key.endswith("hands_per_s") else min)(r[key] for r in results)
            for key in results[0]}


def solver_figures(samples: int = 2000, seed: int = 1) -> dict[str, float]:
    """p50/p99/max milliseconds on random 15-card Kaluki hands (one run; ``bench.engine``)."""
    rng = random.Random(seed)
    pack = standard_pack(2, 4)
    return time_hands([rng.sample(pack, 15) for _ in range(samples)], KALUKI, kaluki_value)


def main() -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} ({os.cpu_count()} cores); best of 3 runs of 5,000 hands each")
    print(f"{'workload':<40} {'hands/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
          f"  {'CPU: hands/s':>12} {'p50':>6} {'p99':>6}  target: wall / CPU")
    for work in WORKLOADS:
        f = workload_figures(work)
        cpu = {k.removeprefix("cpu_"): v for k, v in f.items() if k.startswith("cpu_")}
        verdict = " / ".join("met" if work.met(x) else "NOT met" for x in (f, cpu))
        print(f"{work.name:<40} {f['hands_per_s']:>8,} {f['p50_ms']:>7.3f} {f['p99_ms']:>7.3f} "
              f"{f['max_ms']:>7.3f}  {cpu['hands_per_s']:>12,} {cpu['p50_ms']:>6.3f} "
              f"{cpu['p99_ms']:>6.3f}  {work.target}: {verdict}")


if __name__ == "__main__":
    main()
