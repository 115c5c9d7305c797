"""Timing of the best-arrangement solver (GEN-12) on random Kaluki hands.

``python -m bench.solver`` prints the p50 and p99 time of one ``best_arrangement`` call on
15-card hands dealt from two 52-card packs and four jokers under Kaluki's meld rules.
"""

from __future__ import annotations

import gc
import random
import time

from app.engine.cards import JOKER, rank_of, standard_pack
from app.engine.melds import AceModel, MeldRules
from app.engine.solver import best_arrangement

KALUKI = MeldRules(ace=AceModel.HIGH_OR_LOW, set_max=4, set_distinct_suits=True,
                   wilds=frozenset({JOKER}), designate_set_wilds=True)


def kaluki_value(code: str) -> int:
    """KALUKI-8 values: ace 15, joker 25, J/Q/K 10, pip."""
    if code == JOKER:
        return 25
    rank = rank_of(code)
    return 15 if rank == 1 else min(rank, 10)


def solver_figures(samples: int = 2000, seed: int = 1) -> dict[str, float]:
    """p50/p99/max milliseconds of ``best_arrangement`` on random 15-card Kaluki hands."""
    rng = random.Random(seed)
    pack = standard_pack(2, 4)
    hands = [rng.sample(pack, 15) for _ in range(samples)]
    times = []
    enabled = gc.isenabled()
    gc.disable()  # as timeit does: time the solver, not the collector
    try:
        for hand in hands:
            start = time.perf_counter()
            best_arrangement(hand, KALUKI, kaluki_value)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        if enabled:
            gc.enable()
    times.sort()
    return {"samples": samples, "p50_ms": round(times[len(times) // 2], 3),
            "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 3),
            "max_ms": round(times[-1], 3)}


if __name__ == "__main__":
    print(solver_figures())
