"""Meld finding: candidate melds in a hand and whole-hand arrangements (GEN-12).

The search works on natural cards; wild cards are placed by :func:`candidate_melds` into gaps
and ends of natural groups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from .cards import JOKER, SUITS, make_code, rank_of
from .melds import AceModel, MeldRules

Listed = tuple[str, ...]  # a meld as listed in an action, e.g. ("7H", "JK:8H", "9H")


def candidate_melds(cards: list[str], rules: MeldRules) -> list[Listed]:
    """Every set and run (up to 13 cards) that can be formed from ``cards``, naturals only."""
    out: list[Listed] = []
    if rules.sets:
        out.extend(_sets(cards, rules))
    if rules.runs:
        out.extend(_runs(cards, rules))
    return out


def _sets(cards: list[str], rules: MeldRules) -> Iterator[Listed]:
    by_rank: dict[int, list[str]] = {}
    for code in sorted(set(c for c in cards if c != JOKER)):
        by_rank.setdefault(rank_of(code), []).append(code)
    counts = Counter(cards)
    for codes in by_rank.values():
        pool = codes if rules.set_distinct_suits else [c for c in codes for _ in range(counts[c])]
        top = len(pool) if rules.set_max is None else min(len(pool), rules.set_max)
        for size in range(3, top + 1):
            yield from sorted(set(combinations(pool, size)))


def _runs(cards: list[str], rules: MeldRules) -> Iterator[Listed]:
    present = set(c for c in cards if c != JOKER)
    for suit in SUITS:
        values = _run_values(rules.ace)
        for start in values:
            run: list[str] = []
            for value in range(start, start + 13):
                if value not in values and rules.ace is not AceModel.WRAP:
                    break
                code = make_code(value, suit)
                if code not in present or code in run:
                    break
                run.append(code)
                if len(run) >= 3:
                    yield tuple(run)


def _run_values(ace: AceModel) -> range:
    return {AceModel.LOW: range(1, 14), AceModel.HIGH_ONLY: range(2, 15),
            AceModel.HIGH_OR_LOW: range(1, 15), AceModel.WRAP: range(1, 14)}[ace]


def arrange_all(cards: list[str], rules: MeldRules,
                leave_one: bool) -> tuple[list[Listed], str | None] | None:
    """Split ``cards`` into melds, optionally leaving one card over (to discard), or None."""
    candidates = candidate_melds(cards, rules)
    return _search(Counter(cards), candidates, leave_one)


def _search(left: Counter[str], candidates: list[Listed],
            leave_one: bool) -> tuple[list[Listed], str | None] | None:
    if not +left:
        return [], None
    first = min(c for c, k in left.items() if k > 0)
    for meld in candidates:
        if first in meld and not Counter(meld) - left:
            found = _search(left - Counter(meld), candidates, leave_one)
            if found is not None:
                return [meld, *found[0]], found[1]
    if leave_one:
        found = _search(left - Counter([first]), candidates, False)
        if found is not None:
            return found[0], first
    return None

