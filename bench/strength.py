"""How much stronger the hard computer player is than the normal one.

``python -m bench.strength`` plays hard against normal in two-player games of every game, each
played to its end (the target score, or the game's fixed number of hands), and prints the table
of wins per game, with the 95 % Wilson interval of the hard player's share. Games come in
pairs: the same deals twice, the hard player in either seat, so the luck of the cards cancels
out; seeds are fixed, so a run is repeatable. Targets: hard wins at least 60 % of the Standard
games and a majority in every other game.

    python -m bench.strength                    # 1,000 Standard games, 100 of each other game
    python -m bench.strength --standard 200 --others 200   # issue 20's run
    python -m bench.strength --standard 200 --others 40 --games standard,knock
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine.games import GAMES, match_rules

MAX_HANDS = 400  # a game that has not ended after this many hands counts for nobody


@dataclass
class Tally:
    game: str
    games: int = 0
    hard: int = 0
    normal: int = 0
    hands: int = 0
    seconds: float = 0.0

    @property
    def share(self) -> float:
        return self.hard / self.games if self.games else 0.0


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / games`` (95 % with the default ``z``): it
    stays inside 0..1 and is sound for the few hundred games a run plays."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play(game: str, games: int, seed: int = 0, a: str = "hard", b: str = "sensible") -> Tally:
    """``games`` two-player games of ``game``, ``a`` against ``b``, seats alternating."""
    players = max(2, GAMES[game].min_players)
    rules = match_rules(game, {}, players)
    hands = 1 if rules.each_hand_a_game else MAX_HANDS  # NOWRANG-7: a hand is a game
    tally = Tally(game)
    start = time.perf_counter()
    for g in range(games):
        seat = g % players  # each deal is played once with ``a`` in every seat
        kinds = [b] * players
        kinds[seat] = a
        pair = g // players
        bots = [make_bot(kind, seed + pair * 10 + s) for s, kind in enumerate(kinds)]
        st, log = play_match(rules, bots, seed + 100_000 + pair, max_hands=hands)
        tally.games += 1
        tally.hands += len(log.hands)
        if st.game_winner == seat:
            tally.hard += 1
        elif st.game_winner is not None:
            tally.normal += 1
    tally.seconds = time.perf_counter() - start
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--standard", type=int, default=1000, help="Standard games")
    parser.add_argument("--others", type=int, default=100, help="games of each other game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game keys")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':<12} {'games':>6} {'hard':>6} {'normal':>7} {'hard %':>7} "
          f"{'95 % interval':>15} {'target':>7} {'met':>4} {'hands':>6} {'s':>6}")
    for game in args.games.split(","):
        n = args.standard if game == "standard" else args.others
        t = play(game, n, args.seed)
        target = 0.6 if game == "standard" else 0.5
        met = t.share >= target if game == "standard" else t.share > target
        low, high = wilson(t.hard, t.games)
        interval = f"{100 * low:.1f}-{100 * high:.1f}%"
        print(f"{game:<12} {t.games:>6} {t.hard:>6} {t.normal:>7} {100 * t.share:>6.1f}% "
              f"{interval:>15} {'≥60%' if game == 'standard' else '>50%':>7} "
              f"{'yes' if met else 'NO':>4} {t.hands:>6} {t.seconds:>6.0f}", flush=True)


if __name__ == "__main__":
    main()
