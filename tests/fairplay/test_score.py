"""The review's scoring on made-up facts: chips dumped one way beyond what the two players'
results against the field predict are flagged; a better player's steady winnings, and equal
players meeting often, are not; a shared address alone is a reason, not a flag."""

from __future__ import annotations

import random

from app.fairplay.apart import apart
from app.fairplay.score import MatchFacts, Seat, review


def _match(n: int, a: str, b: str | None, edge: float, rng: random.Random,
           home: str | None = None) -> MatchFacts:
    """Three hands; each moves about 30 stakes to a winner, ``a`` winning by ``edge`` more; a
    hand ``a`` loses on purpose (edge < -0.3) costs it its whole hand, 60 to 100."""
    hands = []
    for _ in range(3):
        amount = float(rng.randint(60, 100) if edge < -0.3 else rng.randint(5, 60))
        a_wins = rng.random() < 0.5 + edge
        hands.append(((1, 0, amount),) if a_wins else ((0, 1, amount),))
    seats = (Seat(a, None, frozenset([home or f"address of {a}"])),
             Seat(b, None, frozenset([home or f"address of {b}"])))
    return MatchFacts(f"m{n}", seats, tuple(hands))


def _population(rng: random.Random, together: dict[tuple[str, str], float],
                field: dict[str, float]) -> list[MatchFacts]:
    matches = []
    for player, edge in field.items():  # against computer players
        matches += [_match(len(matches), player, None, edge, rng) for _ in range(12)]
    for (a, b), edge in together.items():
        matches += [_match(len(matches), a, b, edge, rng) for _ in range(10)]
    return matches


def test_dumping_is_flagged_a_better_player_and_friends_are_not() -> None:
    rng = random.Random(4)
    pairs = review(_population(rng, {("d", "f"): -0.45, ("h", "z"): 0.3, ("x", "y"): 0.0},
                               {"d": 0.0, "f": 0.0, "h": 0.15, "z": -0.15, "x": 0, "y": 0}))
    by = {p.players: p for p in pairs}
    assert by[("d", "f")].flagged and by[("d", "f")].reasons == ("chip_flow",)
    assert by[("d", "f")].evidence and by[("d", "f")].flow_z < 0  # to f from d
    assert not by[("h", "z")].flagged and not by[("x", "y")].flagged
    assert pairs[0].players == ("d", "f")


def test_a_shared_address_alone_is_a_reason_not_a_flag() -> None:
    rng = random.Random(5)
    matches = [_match(n, "a", "b", 0.0, rng, "home") for n in range(6)]
    (pair,) = review(matches)
    assert pair.reasons == ("shared_address",) and not pair.flagged
    assert pair.evidence == tuple(f"m{n}" for n in range(6))


def test_flagged_pairs_sit_apart_where_the_draw_allows() -> None:
    assert apart(["a", "b", "c", "d"], [2, 2], set()) == ["a", "b", "c", "d"]
    seated = apart(["a", "b", "c", "d", "e"], [3, 2], {("a", "b"), ("c", "d")})
    tables = [set(seated[:3]), set(seated[3:])]
    assert all(not {"a", "b"} <= t and not {"c", "d"} <= t for t in tables)


def test_a_drop_and_a_flow_away_from_the_same_player_add_up() -> None:
    """Soft play (docs/fairplay.md): neither signal reaches its own line, but the player whose
    accuracy drops with the partner is the one losing chips to them; the reverse (the partner
    losing) adds nothing."""
    def scored(loser: str) -> tuple[float, float, bool, tuple[str, ...]]:
        rng = random.Random(11)
        matches = []
        for n in range(12):  # s and p against the field, at their usual accuracy
            for player in ("s", "p"):
                m = _match(len(matches), player, None, 0.0, rng)
                level = 80.0 + (4 if n % 2 else -4)
                matches.append(MatchFacts(m.id, (Seat(player, level, m.seats[0].addresses),
                                                 m.seats[1]), m.hands))
        for n in range(6):
            m = _match(len(matches), loser, "s" if loser == "p" else "p", -0.3, rng)
            accuracy = {loser: 80.0, "s": 71.0 + (2 if n % 2 else -2)} if loser == "p" else {
                "s": 71.0 + (2 if n % 2 else -2), "p": 80.0}
            matches.append(MatchFacts(m.id, tuple(
                Seat(seat.player, accuracy[seat.player or ""], seat.addresses)
                for seat in m.seats), m.hands))
        (pair,) = [p for p in review(matches) if p.players == ("p", "s")]
        return pair.flow_z, pair.soft_z, pair.flagged, pair.reasons

    flow_z, soft_z, flagged, reasons = scored("s")
    assert abs(flow_z) < 3 and soft_z < 4, (flow_z, soft_z)
    assert flagged and reasons == ("chip_flow", "soft_play")
    flow_z, soft_z, flagged, reasons = scored("p")
    assert not flagged and reasons == (), (flow_z, soft_z)
