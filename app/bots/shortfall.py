"""How many cards a Continental hand is short of a declaration (CONT-4, CONT-6).

A declaration is 15 cards in runs of one suit (CONT-4: no sets), in one of CONT-6's patterns.
Every split of 15 cards into runs of three or more fits a pattern once long runs are cut, except
three runs of five, which this count ignores. So a hand's *shortfall* is the fewest cards it must
still draw: 15 less the cards of the hand that fit one set of runs covering 15 places, where the
places it does not hold are filled by its jokers or by cards still unseen (a place whose every
copy is seen cannot be drawn). The count uses each place once per suit, so a second copy of a
card only counts where the solver melds it (the caller takes the smaller of the two counts).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from app.engine.cards import JOKER, RANKS, SUITS

DECLARED = 15          # CONT-6: cards in a declaration
PLACES = 14            # A low, 2 … K, A high (CONT-3: the ace at either end, never between)
_NONE = -1             # no set of runs covers that many places
_Row = tuple[int, ...]


def shortfall(hand: Iterable[str], unseen: Mapping[str, int]) -> int:
    """The fewest cards ``hand`` (15 cards) must still draw to be declared, given the cards
    this seat has not seen (``unseen``: code → copies)."""
    held, jokers = _held(hand)
    total: _Row = _EMPTY
    for suit in SUITS:
        total = _combine(total, _suit_best(tuple(held[suit]), _live(unseen, suit)))
    return _short(total[DECLARED], jokers)


def outs(hand: Iterable[str], unseen: Mapping[str, int]) -> int:
    """How many unseen cards (copies counted) would bring ``hand`` one card closer to a
    declaration if drawn: of two hands equally short, the one with more outs is closer."""
    held, jokers = _held(hand)
    rows = {s: _suit_best(tuple(held[s]), _live(unseen, s)) for s in SUITS}
    now = _short(_combine_all(rows.values())[DECLARED], jokers)
    found = 0
    for suit in SUITS:
        others = _combine_all(rows[s] for s in SUITS if s != suit)
        live = _live(unseen, suit)
        for rank, r in enumerate(RANKS):
            copies = unseen.get(r + suit, 0)
            if not copies:
                continue
            more = list(held[suit])
            more[rank] += 1
            row = _suit_best(tuple(more), live)
            most = max((a + b for a, b in zip(row, reversed(others), strict=True)
                        if a != _NONE and b != _NONE), default=_NONE)
            if _short(most, jokers) < now:
                found += copies
    return found


_EMPTY: _Row = (0,) + (_NONE,) * DECLARED


def _held(hand: Iterable[str]) -> tuple[dict[str, list[int]], int]:
    """Cards held per suit, counted by rank (ace first), and the jokers."""
    held: dict[str, list[int]] = {s: [0] * 13 for s in SUITS}
    jokers = 0
    for card in hand:
        if card == JOKER:
            jokers += 1
        else:
            held[card[1]][RANKS.index(card[0])] += 1
    return held, jokers


def _live(unseen: Mapping[str, int], suit: str) -> tuple[bool, ...]:
    return tuple(unseen.get(r + suit, 0) > 0 for r in RANKS)


def _short(used: int, jokers: int) -> int:
    """Cards still to draw when runs over the 15 places use ``used`` held cards."""
    if used == _NONE:
        return DECLARED - jokers
    return max(0, DECLARED - used - jokers)


def _combine_all(rows: Iterable[_Row]) -> _Row:
    total = _EMPTY
    for row in rows:
        total = _combine(total, row)
    return total


def _combine(a: _Row, b: _Row) -> _Row:
    """Most held cards over ``n`` places, from two independent groups of runs."""
    out = [_NONE] * (DECLARED + 1)
    for i, x in enumerate(a):
        if x == _NONE:
            continue
        for j in range(DECLARED + 1 - i):
            y = b[j]
            if y != _NONE and x + y > out[i + j]:
                out[i + j] = x + y
    return tuple(out)


@lru_cache(maxsize=50_000)
def _suit_best(held: _Row, live: tuple[bool, ...]) -> _Row:
    """Per number of places ``n``: the most held cards of one suit that runs covering ``n``
    places use (held counts and live flags by rank, ace first). The ace is tried low, high,
    and, with two copies, at both ends."""
    aces = held[0]
    tries = [(min(aces, 1), 0), (0, min(aces, 1))] + ([(1, 1)] if aces >= 2 else [])
    best = [_NONE] * (DECLARED + 1)
    for low, high in tries:
        places = (low, *(min(h, 1) for h in held[1:]), high)
        for n, got in enumerate(_runs(places, (*live, live[0]))):
            best[n] = max(best[n], got)
    return tuple(best)


def _runs(held: _Row, live: tuple[bool, ...]) -> list[int]:
    """Disjoint runs of three or more places, scanned left to right: state 0 outside a run,
    1 and 2 in a run that short, 3 in a run of three or more; a place not held must be live.
    Each state maps the places covered so far to the most held cards among them."""
    rows: list[dict[int, int]] = [{0: 0}, {}, {}, {}]
    for place in range(PLACES):
        gain, open_ = held[place], held[place] or live[place]
        new: list[dict[int, int]] = [{}, {}, {}, {}]
        for state, row in enumerate(rows):
            if state in (0, 3):
                out = new[0]
                for n, got in row.items():
                    if got > out.get(n, _NONE):
                        out[n] = got
            if open_:
                grown = new[3 if state >= 2 else state + 1]
                for n, got in row.items():
                    if n < DECLARED and got + gain > grown.get(n + 1, _NONE):
                        grown[n + 1] = got + gain
        rows = new
    return [max(rows[0].get(n, _NONE), rows[3].get(n, _NONE)) for n in range(DECLARED + 1)]
