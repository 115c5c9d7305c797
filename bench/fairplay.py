"""The fair-play review's precision and recall on a simulated population (issue 24).

``python -m bench.fairplay`` makes a population of players of three strengths (the computer
players easy, normal and hard: app/bots/levels.py) in clubs of four who play each other often
(two-player Standard matches of three hands, staked), and who also play strangers. Among them
are colluding pairs of three patterns: a *dumper* who loses on purpose against the partner
(never melds, throws the cards that would make melds), a *feeder* who sees the partner's hand
and throws what completes (or pairs with) its cards, and a *soft* player who holds melds back
and throws at random half the time against the partner. Against anyone else every player plays
at their level. One colluding pair, and the four honest players of the last club (a
household), connect from one address each.

Each match is played through the engine by the bots, analysed by the server's analysis
(``app.analysis.report.analyse``), and turned into the review's facts (the hands' payments as
the ledger moves them at stake 1, the seats' accuracies, the addresses); the pairs are scored
by ``app.fairplay.score.review``, the code behind ``GET /api/admin/fairplay``. A pair is a true
positive when it is flagged and colludes. Seeds are fixed, so a run is repeatable.

    python -m bench.fairplay                  # 44 players, 11 clubs, 6 colluding pairs
    python -m bench.fairplay --clubs 3 --meetings 3 --strangers 1   # a small run (the test's)
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations

from app.analysis.report import analyse
from app.bots import make_bot
from app.bots.base import Bot
from app.bots.levels import EasyBot
from app.bots.registry import LEVELS
from app.bots.selfplay import play_match
from app.bots.sensible import SensibleBot, _minus, _Turn
from app.engine.actions import Action, Discard, Draw
from app.engine.cards import rank_of, suit_of
from app.engine.games import match_rules
from app.engine.state import State
from app.fairplay.score import MatchFacts, Pair, Seat, review

HANDS = 3  # hands a match (Standard to 100 points is longer; three show the play well enough)
PATTERNS = ("dumper", "feeder", "soft")


class DumperBot(SensibleBot):
    """Loses on purpose: draws from the stock, never melds, throws the card whose loss leaves
    the most deadwood."""

    def _pick(self, t: _Turn) -> Action:
        draws = [d for d in t.of(Draw) if d.source == "stock"]
        if draws:
            return draws[0]
        discards = t.of(Discard)
        if not discards:
            return self._fallback(t)
        return max(discards, key=lambda d: (self._deadwood(t.st, _minus(t.hand, [d.card])),
                                            d.card))




class SoftBot(EasyBot):
    """Plays below its level: the easy player's careless draws and discards, and melds held
    back most turns."""

    def _meld(self, t: _Turn) -> Action | None:
        return None if self.rng.random() < 0.8 else super()._meld(t)

    def _lay_off(self, t: _Turn) -> Action | None:
        return None if self.rng.random() < 0.8 else super()._lay_off(t)


class FeederBot(SoftBot):
    """Sees the partner's hand (``peek``) and throws what completes a meld in it, else what
    pairs with it; otherwise plays as the soft player (and, like it, leaves the discard pile
    to the partner)."""

    def __init__(self, rng: random.Random, peek: Callable[[], list[str]]) -> None:
        super().__init__(rng)
        self.peek = peek

    def _discard(self, t: _Turn) -> Action | None:
        partner = self.peek()
        discards = t.of(Discard)
        for useful in (_completes, _pairs):
            feeding = [d for d in discards if useful(d.card, partner)]
            if feeding:
                return feeding[0]
        return super()._discard(t)


def _completes(card: str, hand: Sequence[str]) -> bool:
    """Whether ``card`` makes a set or a three-card run with two cards of ``hand``."""
    rank, suit = rank_of(card), suit_of(card)
    if sum(1 for c in hand if rank_of(c) == rank) >= 2:
        return True
    near = {rank_of(c) - rank for c in hand if suit_of(c) == suit}
    return bool({-2, -1} <= near or {-1, 1} <= near or {1, 2} <= near)


def _pairs(card: str, hand: Sequence[str]) -> bool:
    """Whether ``card`` makes a pair or two cards of a run with a card of ``hand``."""
    return any(rank_of(c) == rank_of(card) or (suit_of(c) == suit_of(card)
                                               and abs(rank_of(c) - rank_of(card)) == 1)
               for c in hand)


@dataclass(frozen=True)
class Player:
    id: str
    level: str  # easy, normal, hard
    address: str
    partner: str | None = None  # a colluder's partner
    pattern: str | None = None  # how this player colludes (None: honest, or the one fed)


@dataclass(frozen=True)
class Game:
    id: str
    seats: tuple[str, str]
    seed: int


def population(clubs: int, colluding: int, seed: int) -> list[Player]:
    """Players in clubs of four; the first ``colluding`` clubs hold one colluding pair each
    (the patterns in turn); the last club is a household of two pairs on one address."""
    rng = random.Random(seed)
    players = []
    for c in range(clubs):
        levels = [rng.choice(list(LEVELS)) for _ in range(4)]
        ids = [f"c{c}p{k}" for k in range(4)]
        for k in range(4):
            address = f"10.{c}.{k}.1"
            partner = pattern = None
            if c < colluding and k < 2:
                partner = ids[1 - k]
                pattern = PATTERNS[c % len(PATTERNS)] if k == 0 else None
                if c == 0:
                    address = "10.0.0.1"  # the first colluding pair shares an address
            if c == clubs - 1 and clubs > colluding:
                address = f"10.{c}.0.1"  # a household: honest, one address
            players.append(Player(ids[k], levels[k], address, partner, pattern))
    return players


def schedule(players: list[Player], meetings: int, strangers: int, seed: int) -> list[Game]:
    """Every pair of a club meets ``meetings`` times; each player meets ``strangers`` players
    of other clubs (once each), seats alternating."""
    rng = random.Random(seed)
    clubs: dict[str, list[str]] = {}
    for p in players:
        clubs.setdefault(p.id.split("p")[0], []).append(p.id)
    pairs = [pair for ids in clubs.values() for pair in combinations(ids, 2)] * meetings
    for p in players:
        others = [q.id for q in players if q.id.split("p")[0] != p.id.split("p")[0]]
        pairs += [(p.id, q) for q in rng.sample(others, min(strangers, len(others)))]
    return [Game(f"m{n}", (a, b) if n % 2 else (b, a), seed * 100_000 + n)
            for n, (a, b) in enumerate(pairs)]


def _bot(player: Player, other: str, seed: int, holder: list[State], partner_seat: int) -> Bot:
    if player.partner != other or player.pattern is None:
        return make_bot(LEVELS[player.level], seed)
    if player.pattern == "dumper":
        return DumperBot(random.Random(seed))
    if player.pattern == "soft":
        return SoftBot(random.Random(seed))
    return FeederBot(random.Random(seed), lambda: list(holder[0].hands[partner_seat])
                     if holder and holder[0].hands else [])


def play(game: Game, players: dict[str, Player]) -> MatchFacts:
    """Play and analyse one match: the review's facts about it."""
    rules = match_rules("standard", {}, 2)
    holder: list[State] = []

    def observe(before: State, seat: int | None, action: Action | None, after: State) -> None:
        holder[:] = [after]

    a, b = (players[x] for x in game.seats)
    bots = [_bot(a, b.id, game.seed + 1, holder, 1), _bot(b, a.id, game.seed + 2, holder, 0)]
    st, log = play_match(rules, bots, game.seed, max_hands=HANDS, observe=observe)
    seats = analyse(log, game.id).seats
    return MatchFacts(game.id, tuple(
        Seat(p.id, seats[i].accuracy, frozenset([p.address])) for i, p in enumerate((a, b))),
        tuple(tuple((p, q, float(v)) for p, q, v in r.payments) for r in st.results))


def _play_all(games: list[Game], players: dict[str, Player], workers: int) -> list[MatchFacts]:
    if workers <= 1:
        return [play(g, players) for g in games]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play, games, [players] * len(games), chunksize=8))


def measure(pairs: list[Pair], players: dict[str, Player]) -> tuple[int, int, int, int]:
    """(true positives, false positives, false negatives, colluding pairs reviewed)."""
    colluding = {tuple(sorted((p.id, p.partner))) for p in players.values() if p.partner}
    tp = sum(1 for p in pairs if p.flagged and p.players in colluding)
    fp = sum(1 for p in pairs if p.flagged and p.players not in colluding)
    return tp, fp, len(colluding) - tp, len(colluding)


def main(argv: Sequence[str] | None = None) -> tuple[int, int, int]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=11, help="clubs of four players")
    parser.add_argument("--colluding", type=int, default=6, help="clubs with a colluding pair")
    parser.add_argument("--meetings", type=int, default=4, help="matches of each club pair")
    parser.add_argument("--strangers", type=int, default=2, help="matches against strangers")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    everyone = population(args.clubs, min(args.colluding, args.clubs), args.seed)
    players = {p.id: p for p in everyone}
    games = schedule(everyone, args.meetings, args.strangers, args.seed)
    began = time.perf_counter()
    facts = _play_all(games, players, args.workers)
    seconds = time.perf_counter() - began
    pairs = [p for p in review(facts) if p.matches >= 3]
    tp, fp, fn, colluding = measure(pairs, players)
    print(f"{len(players)} players, {len(games)} matches ({HANDS} hands each), "
          f"{len(pairs)} pairs with 3+ matches, {colluding} colluding; {seconds:.0f} s")
    print(f"precision {tp / (tp + fp) if tp + fp else 1.0:.2f}  recall "
          f"{tp / colluding if colluding else 1.0:.2f}  (flagged {tp + fp}: {tp} colluding, "
          f"{fp} honest; {fn} colluding pairs missed)")
    print("pair                 pattern  levels         matches  score  flow_z  soft_z  "
          "reasons")
    shown = [p for p in pairs if players[p.players[0]].partner == p.players[1]]
    shown += [p for p in pairs if p not in shown][:8]
    for p in shown:
        a, b = (players[x] for x in p.players)
        pattern = (a.pattern or b.pattern or "fed") if a.partner == b.id else "honest"
        print(f"{p.players[0]:>6}-{p.players[1]:<6} {'*' if p.flagged else ' '}    {pattern:<8} "
              f"{a.level + '/' + b.level:<14} {p.matches:>7}  {p.score:5.2f}  {p.flow_z:6.1f}  "
              f"{p.soft_z:6.1f}  {','.join(p.reasons)}")
    return tp, fp, fn


if __name__ == "__main__":
    main()
