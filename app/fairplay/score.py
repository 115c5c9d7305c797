"""Score every pair of players who played together (docs/fairplay.md has the reasoning).

Three signals, each a z-score against what the pair's play elsewhere predicts:

- ``chip_flow``: per hand of a staked match, the stakes (chips ÷ stake) that moved between the
  two. Each player's edge per hand against everyone but the partner is estimated, shrunk toward
  0 by a prior (a player's true edge is rarely beyond ``TAU_SHARE`` of a hand's spread): the
  pair's flow is expected to be the difference of the two edges; what is left over, over its
  standard error (the hands together, and the uncertainty of both edges), is the z-score. A
  simply better player has the edge against the field too; players who simply meet often
  have a leftover near 0, however many hands they play.
- ``soft_play``: a player's analysis accuracy in matches with the partner against their own
  accuracy in matches without them (the larger drop of the two players is taken).
- ``shared_address``: the two connected from one address (in a match together, or ever).

A signal counts when its z-score reaches its line and its size is more than noise (a
per-hand edge, an accuracy drop). The two play signals also count together: soft play costs
the soft player chips, so when the player whose accuracy drops is the one the chips flow away
from, their z-scores add as two independent tests do (Stouffer's sum, z₁ + z₂ over √2) against
the line ``Z_BOTH``; an honest pair's two z-scores do not point the same way by more than
chance. A pair needs ``MIN_FLAG_MATCHES`` matches together to be
flagged. The score maps z to 0..1 with the line at 0.5; a shared address adds
``SHARED_BONUS``, so it lowers the line of the others without flagging a pair by itself.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

CHIP_FLOW, SOFT_PLAY, SHARED_ADDRESS = "chip_flow", "soft_play", "shared_address"
Z_FLOW = 3.0         # the z-score of unexplained flow that flags a pair
MIN_EDGE = 0.3       # ... when the unexplained flow per hand is at least this share of sigma
TAU_SHARE = 0.2     # prior spread of a player's edge per hand, as a share of sigma
Z_SOFT = 4.0         # the z-score of an accuracy drop that flags a pair
MIN_DROP = 10.0      # ... when the drop is at least this many points of accuracy (0-100)
Z_BOTH = 3.5         # the combined z of a drop and a flow away from the same player
MIN_BASELINE = 3     # analysed matches without the partner needed to judge soft play
MIN_ACCURACY_SD = 5.0  # the least spread of a player's accuracy from match to match
MIN_FLAG_MATCHES = 3  # matches together before a pair can be flagged
SHARED_BONUS = 0.15  # what a shared address adds to the score
WEAK = 0.3           # the most a signal too small to matter adds to the score
MAX_EVIDENCE = 20


@dataclass(frozen=True, slots=True)
class Seat:
    player: str | None  # None: a computer player's own seat
    # the match analysis' accuracy (0-100) over the player's own decisions (PROTOCOL.md §10,
    # "Who decided"), if analysed and they made any
    accuracy: float | None = None
    addresses: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """One finished match: its seats and, if staked, each hand's (payer seat, payee seat,
    stakes moved) as the ledger moved them (a hand that moved nothing is an empty tuple)."""

    id: str
    seats: tuple[Seat, ...]
    hands: tuple[tuple[tuple[int, int, float], ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Pair:
    players: tuple[str, str]
    matches: int
    score: float
    flagged: bool
    reasons: tuple[str, ...]
    evidence: tuple[str, ...]
    flow_z: float = 0.0  # signed: > 0 when chips flow to players[0]
    soft_z: float = 0.0

    def to_json(self) -> dict[str, object]:
        """PROTOCOL.md §9's PAIR."""
        return {"players": list(self.players), "matches": self.matches, "score": self.score,
                "flagged": self.flagged, "reasons": list(self.reasons),
                "evidence": list(self.evidence)}


@dataclass
class _Sums:
    total: float = 0.0
    count: int = 0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.total += value
        self.count += 1
        self.squares += value * value


@dataclass
class _Facts:
    """What the pairs are judged from, gathered in one pass over the matches."""

    field_flow: dict[str, _Sums] = field(default_factory=lambda: defaultdict(_Sums))
    pair_flow: dict[tuple[str, str], _Sums] = field(default_factory=lambda: defaultdict(_Sums))
    match_flow: dict[tuple[str, str], dict[str, float]] = field(
        default_factory=lambda: defaultdict(dict))  # to the pair's first player, per match
    accuracy: dict[str, list[tuple[str, float]]] = field(default_factory=lambda: defaultdict(list))
    together: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    shared_in: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    addresses: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def review(matches: Iterable[MatchFacts]) -> list[Pair]:
    """Every pair of players seated together in ``matches``, the highest score first."""
    facts = _gather(matches)
    sigma2 = _flow_variance(facts)
    accuracy_sd = _accuracy_sd(facts)
    pairs = [_judge(pair, facts, sigma2, accuracy_sd) for pair in facts.together]
    return sorted(pairs, key=lambda p: (-p.score, -p.matches, p.players))


def _gather(matches: Iterable[MatchFacts]) -> _Facts:
    facts = _Facts()
    for match in matches:
        people = [(i, s.player, s) for i, s in enumerate(match.seats) if s.player is not None]
        for _, player, seat in people:
            facts.addresses[player] |= seat.addresses
            if seat.accuracy is not None:
                facts.accuracy[player].append((match.id, seat.accuracy))
        for (i, a, seat_a), (j, b, seat_b) in combinations(people, 2):
            if a == b:
                continue
            key, flip = ((a, b), False) if a < b else ((b, a), True)
            facts.together[key].append(match.id)
            if seat_a.addresses & seat_b.addresses:
                facts.shared_in[key].append(match.id)
            if match.hands:
                flows = [_between(hand, j, i) for hand in match.hands]  # to seat i from j
                for value in flows:
                    facts.pair_flow[key].add(-value if flip else value)
                facts.match_flow[key][match.id] = -sum(flows) if flip else sum(flows)
        _field(facts, match, [(i, p) for i, p, _ in people])
    return facts


def _between(hand: tuple[tuple[int, int, float], ...], payer: int, payee: int) -> float:
    """What moved to ``payee`` from ``payer`` in the hand, net."""
    return sum(v if (p, q) == (payer, payee) else -v if (p, q) == (payee, payer) else 0.0
               for p, q, v in hand)


def _field(facts: _Facts, match: MatchFacts, people: list[tuple[int, str]]) -> None:
    """Each player's flow per hand against every other seat (players and computers)."""
    if not match.hands:
        return
    for i, player in people:
        for j, other in enumerate(match.seats):
            if j != i and other.player != player:
                for hand in match.hands:
                    facts.field_flow[player].add(_between(hand, j, i))


def _flow_variance(facts: _Facts) -> float:
    """sigma²: the spread of one hand's flow between two seats, over every player's hands."""
    total = sum(s.squares for s in facts.field_flow.values())
    count = sum(s.count for s in facts.field_flow.values())
    return total / count if count else 1.0


def _accuracy_sd(facts: _Facts) -> float:
    """The pooled spread of a player's accuracy from match to match."""
    squares, free = 0.0, 0
    for values in facts.accuracy.values():
        if len(values) >= 2:
            mean = sum(v for _, v in values) / len(values)
            squares += sum((v - mean) ** 2 for _, v in values)
            free += len(values) - 1
    return max(MIN_ACCURACY_SD, math.sqrt(squares / free) if free else 0.0)


def _edge(whole: _Sums, with_partner: _Sums, sign: float, sigma2: float
          ) -> tuple[float, float]:
    """A player's edge per hand against the field without the partner, shrunk toward 0, and
    its variance (a normal prior of spread TAU_SHARE·sigma)."""
    total = whole.total - sign * with_partner.total
    count = whole.count - with_partner.count
    weight = count + 1.0 / TAU_SHARE**2  # sigma²/tau² = 1/TAU_SHARE²
    return total / weight, sigma2 / weight


def _flow_signal(key: tuple[str, str], facts: _Facts, sigma2: float) -> tuple[float, bool]:
    """(z of the flow to the first player left unexplained by the two edges, big enough)."""
    hands = facts.pair_flow.get(key)
    if hands is None or hands.count == 0:
        return 0.0, False
    edge_a, var_a = _edge(facts.field_flow[key[0]], hands, 1.0, sigma2)
    edge_b, var_b = _edge(facts.field_flow[key[1]], hands, -1.0, sigma2)
    left = hands.total / hands.count - (edge_a - edge_b)
    z = left / math.sqrt(sigma2 / hands.count + var_a + var_b)
    return z, abs(left) >= MIN_EDGE * math.sqrt(sigma2)


def _drop(player: str, partner_matches: set[str], facts: _Facts, sd: float
          ) -> tuple[float, bool, list[str]]:
    """(z of the player's accuracy drop with the partner, big enough, the matches below their
    level, worst first)."""
    values = facts.accuracy.get(player, [])
    with_ = [(m, v) for m, v in values if m in partner_matches]
    without = [v for m, v in values if m not in partner_matches]
    if not with_ or len(without) < MIN_BASELINE:
        return 0.0, False, []
    level = sum(without) / len(without)
    drop = level - sum(v for _, v in with_) / len(with_)
    z = drop / (sd * math.sqrt(1 / len(with_) + 1 / len(without)))
    below = [m for m, v in sorted(with_, key=lambda x: x[1]) if v < level]
    return z, drop >= MIN_DROP, below


def _part(z: float, line: float, big_enough: bool) -> float:
    """A signal's share of the score: 0.5 at its line, 1 at twice it."""
    part = min(1.0, 0.5 * max(z, 0.0) / line)
    return part if big_enough else min(part, WEAK)


def _judge(key: tuple[str, str], facts: _Facts, sigma2: float, accuracy_sd: float) -> Pair:
    together = facts.together[key]
    flow_z, flow_big = _flow_signal(key, facts, sigma2)
    shared_matches = set(together)
    softer, soft = max(enumerate(_drop(p, shared_matches, facts, accuracy_sd) for p in key),
                       key=lambda d: d[1][0])
    away = -flow_z if softer == 0 else flow_z  # > 0: chips flow away from the softer player
    both_z = (away + soft[0]) / math.sqrt(2) if away > 0 and soft[0] > 0 else 0.0
    shared = bool(facts.shared_in.get(key)) or bool(facts.addresses[key[0]]
                                                    & facts.addresses[key[1]])
    bonus = SHARED_BONUS if shared else 0.0
    parts = {CHIP_FLOW: _part(abs(flow_z), Z_FLOW, flow_big),
             SOFT_PLAY: _part(soft[0], Z_SOFT, soft[1])}
    both = _part(both_z, Z_BOTH, flow_big or soft[1])
    enough = len(together) >= MIN_FLAG_MATCHES
    score = min(1.0, max(*parts.values(), both) + bonus)
    if not enough:
        score = min(score, WEAK + bonus)
    reasons = [code for code, part in parts.items()
               if enough and (part + bonus >= 0.5 or both + bonus >= 0.5)]
    evidence: list[str] = []
    if CHIP_FLOW in reasons:
        flows = facts.match_flow[key]
        evidence += sorted((m for m in flows if flows[m] * flow_z > 0),
                           key=lambda m: -abs(flows[m]))
    if SOFT_PLAY in reasons:
        evidence += soft[2]
    if shared:
        reasons.append(SHARED_ADDRESS)
        evidence += facts.shared_in.get(key, [])
    return Pair(players=key, matches=len(together), score=round(score, 3), flagged=score >= 0.5,
                reasons=tuple(reasons), evidence=tuple(dict.fromkeys(evidence))[:MAX_EVIDENCE],
                flow_z=round(flow_z, 2), soft_z=round(soft[0], 2))
