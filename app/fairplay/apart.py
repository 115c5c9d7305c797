"""Keep flagged pairs apart at a tournament round's tables, where the draw allows."""

from __future__ import annotations

from collections.abc import Sequence


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

    def clash(player: str, table: list[str], leaving: str) -> bool:
        return any(tuple(sorted((player, other))) in flagged
                   for other in table if other not in (player, leaving))

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
