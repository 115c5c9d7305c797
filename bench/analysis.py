"""Time the analysis (app/analysis) of ten hands per game on one core, and show that it grades
a strong player above a weak one (the evidence for its method, docs/analysis.md).

Each game's hands come from matches of the hard computer player (seat 0) against the random one
(seat 1), two players, played until ten hands are done; the time is that of ``analyse`` on them
(one process, one core); ``luck s`` is the luck alone (``draw_lucks``: the stock draws valued
over the unseen cards and the card that came, :mod:`app.analysis.luck`), which in ``analyse``
shares the stock draws' work with their decisions; ``hard luck`` is the hard seat's mean luck
per hand, in the hand's points. ``agree`` is the share of decisions graded alike when the same
hands are graded again with other sampling seeds (the grades' noise from sampling ``--worlds``
worlds per decision; issue 37 asks at least 90 % at 8 worlds). Run:
``python -m bench.analysis [--hands 10] [--worlds 8] [GAME ...]``.
"""

from __future__ import annotations

import argparse
import time

from app.analysis import analyse
from app.analysis.report import SAMPLES, draw_lucks, graded
from app.bots.registry import make_bot
from app.bots.selfplay import play_match
from app.engine.games import match_rules
from app.engine.matchlog import MatchLog

GAMES = ("standard", "boat_house", "kaluki", "double_rum", "knock", "continental",
         "queen_city", "phom", "german", "nowrang")


def logs_of(game: str, hands: int) -> list[MatchLog]:
    """Matches of ``game`` (hard against random) until ``hands`` hands are played."""
    rules = match_rules(game, {}, 4 if game == "phom" else 2)
    logs, played, seed = [], 0, 0
    while played < hands:
        bots = [make_bot("hard" if s == 0 else "random", seed * 10 + s)
                for s in range(rules.players)]
        _, log = play_match(rules, bots, seed, hands - played)
        logs.append(log)
        played += len(log.hands)
        seed += 1
    return logs


def measure(game: str, hands: int, worlds: int = SAMPLES) -> dict[str, float]:
    logs = logs_of(game, hands)
    began = time.process_time()
    done = [analyse(log, f"bench:{i}", worlds) for i, log in enumerate(logs)]
    seconds = time.process_time() - began
    decisions = [d for a in done for d in a.decisions]
    luck_seconds = _luck_time(logs, worlds)
    again = [d for i, log in enumerate(logs) for d in graded(log, f"bench-again:{i}", worlds)]
    alike = sum(a.grade == b.grade for a, b in zip(decisions, again, strict=True))

    def accuracy(seat: int) -> float:
        rows = [(s.accuracy, s.decisions) for a in done for s in a.seats
                if s.seat == seat and s.accuracy is not None]
        total = sum(n for _, n in rows)
        return sum(acc * n for acc, n in rows) / total if total else 100.0

    hands = sum(len(log.hands) for log in logs)
    hard_luck = sum(x.luck for a in done for x in a.luck if x.seat == 0) / hands
    return {"hands": hands, "decisions": len(decisions), "seconds": seconds,
            "luck_seconds": luck_seconds, "hard": accuracy(0), "random": accuracy(1),
            "hard_luck": hard_luck,
            "agree": 100 * alike / len(decisions) if decisions else 100.0}


def _luck_time(logs: list[MatchLog], worlds: int) -> float:
    """The CPU time of the luck part alone (``draw_lucks`` over every log)."""
    began = time.process_time()
    for i, log in enumerate(logs):
        list(draw_lucks(log, f"bench:{i}", worlds))
    return time.process_time() - began


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=SAMPLES,
                        help="sampled worlds per decision (default: the server's)")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    print(f"{'game':<12} {'hands':>5} {'decisions':>9} {'cpu s':>6} {'luck s':>6} "
          f"{'hard acc':>8} {'random acc':>10} {'hard luck':>9} {'agree %':>7}")
    for game in args.games:
        m = measure(game, args.hands, args.worlds)
        print(f"{game:<12} {m['hands']:>5.0f} {m['decisions']:>9.0f} {m['seconds']:>6.2f} "
              f"{m['luck_seconds']:>6.2f} {m['hard']:>8.1f} {m['random']:>10.1f} "
              f"{m['hard_luck']:>9.2f} {m['agree']:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
