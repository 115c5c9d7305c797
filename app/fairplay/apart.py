"""Keep flagged pairs apart at a tournament round's tables, where the draw allows: the seating
policy (`app.seating_policy.avoids`) names a table to avoid; a tournament's tables ignore blocks
and addresses (PROTOCOL.md §9), so nothing else refuses a seat there."""

from __future__ import annotations

from collections.abc import Sequence

from app.seating_policy import Ask, How, Table, Ties, avoids


def apart(order: Sequence[str], sizes: Sequence[int],
          flagged: set[tuple[str, str]]) -> list[str]:
    """``order`` (seated table by table, ``sizes`` seats each) with players swapped between
    tables so that no flagged pair (a, b with a < b) shares one, as far as swaps allow: a
    player is swapped only with one who, like them, is flagged with nobody at the new table.
    Without flags the order is unchanged (the draw stays random)."""
    tables: list[list[str]] = []
    rest = list(order)
    for size in sizes:
        tables.append(rest[:size])
        rest = rest[size:]
    partners: dict[str, set[str]] = {}
    for a, b in flagged:
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)

    def clash(player: str, table: list[str], leaving: str) -> bool:
        """Whether the policy has ``player`` avoid ``table`` once ``leaving`` has left it."""
        others = frozenset(table) - {player, leaving}
        return avoids(Ask(player, How.TOURNAMENT, Table("", others)),
                      Ties(flagged=frozenset(partners.get(player, ()))))

    for t, table in enumerate(tables):
        for i, player in enumerate(table):
            if not clash(player, table, player):
                continue
            for u, other_table in enumerate(tables):
                j = next((j for j, other in enumerate(other_table) if u != t
                          and not clash(other, table, player)
                          and not clash(player, other_table, other)), None)
                if j is not None:
                    table[i], other_table[j] = other_table[j], player
                    break
    return [player for table in tables for player in table]
