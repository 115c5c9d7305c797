"""Meld finding (GEN-12): best arrangements, whole-hand declarations and candidate melds.

The solver packs the natural cards of a hand into the bit fields of one integer (one field per
distinct code, wide enough for its count plus a guard bit that detects a missing card in one
subtraction) and lists every meld *skeleton* over them: a multiset of naturals with the least
and most wild cards that turn it into a valid meld (GEN-3, GEN-4). A memoised search then takes
the lowest remaining natural card, which is either unmatched or in a skeleton over the remaining
cards; wild cards are a counted resource. Each skeleton takes its least number of wilds and
adds its spare room to a running capacity, so wilds left at the end join chosen melds instead
of the deadwood. A wild-capable two (twos wild) is tried both as a natural and as a wild: every
split is searched over one table, and splits that leave wilds of the same costs share a memo.

A hand of distinct cards with no wild card takes a fast path with the same answers: one bit per
card, the melds of a whole pack precomputed once per set of rules as bit masks, and a memo keyed
by the remaining bit set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from .cards import JOKER, RANKS, SUITS, make_code, rank_of, suit_of
from .melds import AceModel, MeldRules
from .memo import Memo

Listed = tuple[str, ...]  # a meld as listed in an action, e.g. ("7H", "JK:8H", "9H")
Whole = tuple[tuple[Listed, ...], str | None]

_UNLIMITED = 1 << 10  # room of a set without a size limit (Double Rum)
# Lowest and highest run value of each ace model (WRAP: relative to the run, see _run_shapes).
_BOUNDS = {AceModel.LOW: (1, 13), AceModel.HIGH_ONLY: (2, 14),
           AceModel.HIGH_OR_LOW: (1, 14), AceModel.WRAP: (-12, 25)}


@dataclass(frozen=True)
class Arrangement:
    """Disjoint melds (listed as in an action, wilds designated) and the unmatched cards."""

    melds: tuple[Listed, ...]
    deadwood: tuple[str, ...]
    deadwood_value: int


@dataclass(frozen=True, slots=True)
class _Shape:
    """A meld skeleton: natural cards plus between ``need`` and ``room`` wild cards."""

    delta: int  # the naturals, packed like a state
    need: int
    room: int
    kind: str  # "set" or "run"
    naturals: tuple[tuple[int, str], ...]  # (run value, code), ascending; value 0 in a set


class _Table:
    """The natural cards of one hand as bit fields, and every skeleton over them."""

    def __init__(self, naturals: Counter[str], wilds: int, rules: MeldRules) -> None:
        self.wilds = wilds
        self.rules = rules
        self.codes = tuple(sorted(naturals, key=_ORDER.__getitem__))
        self.width = max([*naturals.values(), 1]).bit_length() + 1
        self.field = {c: i for i, c in enumerate(self.codes)}
        self.unit = tuple(1 << (self.width * i) for i in range(len(self.codes)))
        self.held = tuple(naturals[c] for c in self.codes)
        self.guard = sum(self.unit) << (self.width - 1)
        self.start = sum(naturals[c] * u for c, u in zip(self.codes, self.unit))
        best: dict[int, _Shape] = {}
        for shape in self._shapes(naturals, wilds, rules):
            old = best.get(shape.delta)
            if old is None or (shape.need, -shape.room) < (old.need, -old.room):
                best[shape.delta] = shape
        groups: list[list[_Shape]] = [[] for _ in self.codes]
        for shape in best.values():
            groups[self.low(shape.delta)].append(shape)
        # Bigger melds first: good answers early, deterministic. Tuples, not lists: a tuple of
        # numbers leaves the garbage collector's sight, and the memo keeps thousands of tables.
        self.shapes = tuple(tuple(sorted(g, key=_shape_order)) for g in groups)
        self.moves = tuple(tuple((s.delta, s.need, s.room - s.need) for s in g)
                           for g in self.shapes)

    def start_of(self, naturals: Counter[str], wilds: int, rules: MeldRules) -> int | None:
        """The packed state of ``naturals`` if this table serves a search of them, else None.

        It does when they are a sub-multiset of the table's naturals and come with no more wild
        cards: a skeleton over cards they lack fails the guard test, one needing more wilds
        than theirs fails the count test, and each skeleton kept for a multiset of naturals is
        the one their own table keeps (the least need, then the most room, both independent of
        the wilds), in the same order. So the search sees exactly their table.
        """
        if wilds > self.wilds or rules is not self.rules:
            return None
        field, held, unit = self.field, self.held, self.unit
        start = 0
        for code, k in naturals.items():
            f = field.get(code)
            if f is None or k > held[f]:
                return None
            start += k * unit[f]
        return start

    def low(self, state: int) -> int:
        """Field of the lowest card in ``state``."""
        return ((state & -state).bit_length() - 1) // self.width

    def pack(self, codes: Sequence[str]) -> int:
        return sum(self.unit[self.field[c]] for c in codes)

    def _shapes(self, naturals: Counter[str], wilds: int, rules: MeldRules) -> list[_Shape]:
        """Sets rank by rank, then runs suit by suit: the skeletons of one rank (or of one
        suit's cards) depend on those cards alone, so they are remembered per rank (suit)."""
        out = []
        groups: dict[str, list[str]] = {}
        if rules.sets:
            least = max(1, 3 - wilds) if rules.set_distinct_suits else 1
            spec = (wilds, rules.set_max, rules.set_distinct_suits, rules.wilds_at_most_naturals)
            for code in self.codes:
                groups.setdefault(code[0], []).append(code)
            for codes in groups.values():
                if len(codes) >= least:
                    held = tuple((c, naturals[c]) for c in codes)
                    for picked, need, room, listed in _SET_SHAPES.get(
                            (held, spec), _set_shapes, held, spec):
                        out.append(_Shape(self.pack(picked), need, room, "set", listed))
        if rules.runs:
            suits: dict[str, list[str]] = {}
            for code in self.codes:
                suits.setdefault(code[1], []).append(code)
            width, key = self.width, (wilds, rules.ace, rules.wilds_at_most_naturals)
            for codes in suits.values():
                present = tuple(codes)
                shift = width * self.field[present[0]]
                for local, need, room, chain in _RUN_SHAPES.get(
                        (present, width, key), _run_shapes, present, width, *key):
                    out.append(_Shape(local << shift, need, room, "run", chain))
        return out


_TABLES: Memo[tuple[tuple[tuple[str, int], ...], int, MeldRules], _Table] = Memo(
    "solver: a hand's table", 200)


def _table(naturals: Counter[str], wilds: int, rules: MeldRules) -> _Table:
    """The table of a hand (remembered: the move list, the legality checks and the bots ask
    about the same hands; a table is never changed once built)."""
    return _TABLES.get((tuple(sorted(naturals.items())), wilds, rules), _Table, naturals,
                       wilds, rules)


_RECENT = 8  # tables `_serving_table` looks through before building one
_recent_tables: list[_Table] = []


def _serving_table(naturals: Counter[str], wilds: int, rules: MeldRules) -> tuple[_Table, int]:
    """A table that serves a search of ``naturals`` with ``wilds`` wild cards, and their packed
    state: one of the last few built here if it does (`_Table.start_of`), else a new one. A
    computer player judges a hand and then the hand less each card, or with the discard added:
    sub-multisets of one hand, which one table serves."""
    for tab in reversed(_recent_tables):
        start = tab.start_of(naturals, wilds, rules)
        if start is not None:
            return tab, start
    tab = _table(naturals, wilds, rules)
    if len(_recent_tables) >= _RECENT:
        del _recent_tables[0]
    _recent_tables.append(tab)
    return tab, tab.start


def _shape_order(shape: _Shape) -> tuple[int, int, tuple[tuple[int, str], ...]]:
    return -len(shape.naturals), shape.need, shape.naturals


# code -> (suit index, rank): the table's field order
_ORDER = {make_code(r, s): (i, r) for i, s in enumerate(SUITS) for r in range(1, 14)}

_SetSpec = tuple[int, int | None, bool, bool]  # wilds, set_max, distinct suits, wild cap
_SetShape = tuple[tuple[str, ...], int, int, tuple[tuple[int, str], ...]]
_SET_SHAPES: Memo[tuple[tuple[tuple[str, int], ...], _SetSpec], tuple[_SetShape, ...]] = \
    Memo("solver: one rank's set skeletons", 20_000)


def _set_shapes(held: tuple[tuple[str, int], ...], spec: _SetSpec) -> tuple[_SetShape, ...]:
    """(naturals, need, room, listed naturals) of the sets of one rank's held cards."""
    wilds, set_max, distinct, cap = spec
    out = []
    for picked in _set_picks([c for c, _ in held], dict(held), set_max, distinct,
                             max(1, 3 - wilds)):
        n = len(picked)
        top = set_max if set_max is not None else _UNLIMITED
        if distinct:
            top = min(top, 4)
        need, room = max(0, 3 - n), top - n
        if cap:
            room = min(room, n)
        if need <= min(room, wilds):
            out.append((tuple(picked), need, room, tuple((0, c) for c in picked)))
    return tuple(out)


_RunShape = tuple[int, int, int, tuple[tuple[int, str], ...]]
_RUN_SHAPES: Memo[tuple[tuple[str, ...], int, tuple[int, AceModel, bool]],
                  tuple[_RunShape, ...]] = \
    Memo("solver: one suit's run skeletons", 20_000)


def _run_shapes(present: tuple[str, ...], width: int, wilds: int, ace: AceModel,
                cap: bool) -> tuple[_RunShape, ...]:
    """(naturals packed from field 0, need, room, chain) of the runs over one suit's held
    cards, one per set of naturals (the least need, then the most room, then the first)."""
    at = {c: 1 << (width * i) for i, c in enumerate(present)}
    best: dict[int, _RunShape] = {}
    for chain in _run_chains(list(present), ace, wilds):
        n = len(chain)
        span = chain[-1][0] - chain[0][0] + 1
        need, room = max(3, span) - n, 13 - n
        if cap:
            room = min(room, n)
        if need <= min(room, wilds):
            local = sum(at[c] for _, c in chain)
            old = best.get(local)
            if old is None or (need, -room) < (old[1], -old[2]):
                best[local] = (local, need, room, tuple(chain))
    return tuple(best.values())


def _set_picks(codes: list[str], naturals: dict[str, int], set_max: int | None,
               distinct: bool, least: int) -> Iterator[list[str]]:
    """Natural multisets of one rank, of ``least`` cards or more, that may stand in a set."""
    if distinct:
        for n in range(least, min(len(codes), 4) + 1):
            for combo in combinations(codes, n):
                yield list(combo)
        return
    for counts in product(*(range(naturals[c] + 1) for c in codes)):
        picked = [c for c, k in zip(codes, counts) for _ in range(k)]
        if len(picked) >= least and (set_max is None or len(picked) <= set_max):
            yield picked


def _run_chains(present: list[str], ace: AceModel,
                wilds: int) -> Iterator[list[tuple[int, str]]]:
    """Ascending (value, code) chains of one suit that ``wilds`` wild cards make a run (span 13)."""
    if ace is AceModel.WRAP:
        for first in present:
            base = rank_of(first)
            items = sorted((base + (rank_of(c) - base) % 13, c) for c in present)
            yield from _chains(items, wilds)
        return
    items = []
    for code in present:
        rank = rank_of(code)
        if rank != 1 or ace is AceModel.LOW:
            items.append((rank, code))
        else:
            if ace is AceModel.HIGH_OR_LOW:
                items.append((1, code))
            items.append((14, code))
    items.sort()
    for i in range(len(items)):
        yield from _chains(items[i:], wilds)


def _chains(items: list[tuple[int, str]], wilds: int) -> Iterator[list[tuple[int, str]]]:
    """Chains that start with ``items[0]``; shorter ones are extended, not yielded."""
    first = items[0][0]
    stack = [([items[0]], 1)]
    while stack:
        chain, nxt = stack.pop()
        if max(3, chain[-1][0] - first + 1) - len(chain) <= wilds:
            yield chain
        for j in range(nxt, len(items)):
            value, code = items[j]
            span = value - first + 1
            if span > 13 or span - len(chain) - 1 > wilds:
                break
            if value > chain[-1][0]:
                stack.append(([*chain, (value, code)], j + 1))


# --- the wild-card pool -------------------------------------------------------------------


def _pools(cards: Sequence[str], rules: MeldRules) -> Iterator[tuple[Counter[str], list[str]]]:
    """(naturals, wild pool) for each way to use the hand's wild-capable twos, fewest wild first.

    Jokers are always wild; a wild-capable two may be a natural card or a wild card.
    """
    counts = Counter(cards)
    twos = sorted(c for c in counts if c != JOKER and c in rules.wilds)
    if not twos:
        jokers = counts.pop(JOKER, 0)
        yield counts, [JOKER] * jokers
        return
    choices = sorted(product(*(range(counts[c] + 1) for c in twos)), key=lambda t: (sum(t), t))
    for choice in choices:
        naturals = Counter({c: k for c, k in counts.items() if c != JOKER})
        pool = [JOKER] * counts[JOKER]
        for code, k in zip(twos, choice):
            naturals[code] -= k
            pool += [code] * k
        yield +naturals, pool


def _listing(shape: _Shape, wilds: list[str], rules: MeldRules) -> Listed:
    """List ``shape`` with the given wild cards as a player would (runs ascending)."""
    if not wilds:  # its naturals as they stand: a set, or a run without a gap
        return tuple(c for _, c in shape.naturals)
    if shape.kind == "set":
        codes = [c for _, c in shape.naturals]
        rank = RANKS[rank_of(codes[0]) - 1]
        used = {suit_of(c) for c in codes}
        suits = [s for s in SUITS if s not in used] + list(SUITS) * len(wilds)
        return tuple(codes) + tuple(_designate(w, rank + s) for w, s in zip(wilds, suits))
    values = {v: c for v, c in shape.naturals}
    suit = suit_of(shape.naturals[0][1])
    lo, hi = shape.naturals[0][0], shape.naturals[-1][0]
    extra = len(wilds) - (hi - lo + 1 - len(values))
    top = _BOUNDS[rules.ace][1] if rules.ace is not AceModel.WRAP else lo + 12
    up = min(extra, top - hi)
    lo, hi = lo - (extra - up), hi + up
    spare = iter(wilds)
    return tuple(values[v] if v in values else _designate(next(spare), make_code(v, suit))
                 for v in range(lo, hi + 1))


def _designate(wild: str, target: str) -> str:
    return wild if wild == target else f"{wild}:{target}"  # a two standing for itself is natural


def _spread(chosen: list[tuple[_Shape, int]], left: int) -> list[tuple[_Shape, int]]:
    """Put ``left`` spare wild cards into the chosen melds, first meld first."""
    out = []
    for shape, k in chosen:
        add = min(left, shape.room - k)
        out.append((shape, k + add))
        left -= add
    return out


def _emit(chosen: list[tuple[_Shape, int]], pool: list[str], rules: MeldRules) -> list[Listed]:
    melds, i = [], 0
    for shape, k in chosen:
        melds.append(_listing(shape, pool[i:i + k], rules))
        i += k
    return melds


# --- best arrangement ----------------------------------------------------------------------


_ARRANGEMENTS: Memo[tuple[tuple[str, ...], MeldRules, Callable[[str], int]], Arrangement] = Memo(
    "solver: best arrangements", 50_000)


def best_arrangement(cards: Sequence[str], rules: MeldRules,
                     value: Callable[[str], int]) -> Arrangement:
    """Disjoint valid melds leaving the least total ``value`` of unmatched cards (GEN-12).

    ``value`` must depend on the card alone (the fast paths keep the values they have given,
    and the answer is remembered by the sorted cards, ``rules`` and ``value``): the move lists
    and a computer player ask about the same hands again and again.
    """
    ordered = tuple(sorted(cards))
    return _ARRANGEMENTS.get((ordered, rules, value), search_arrangement, ordered, rules, value)


def search_arrangement(cards: Sequence[str], rules: MeldRules,
                       value: Callable[[str], int]) -> Arrangement:
    """``best_arrangement`` worked out afresh, not remembered (what ``bench.solver`` times)."""
    if not any(c == JOKER or c in rules.wilds for c in cards):
        if not rules.sets:
            return _best_by_suit(cards, rules, value)
        if len(set(cards)) == len(cards):
            return _best_natural(cards, rules, value)
    return _best_general(cards, rules, value)


_SUIT_BEST: Memo[tuple[tuple[str, ...], MeldRules, Callable[[str], int]], Arrangement] = Memo(
    "solver: one suit's best runs", 20_000)


def _best_by_suit(cards: Sequence[str], rules: MeldRules,
                  value: Callable[[str], int]) -> Arrangement:
    """Runs only and no wild card: no meld spans two suits, so each suit is arranged on its own
    (remembered) and the answers are joined suit by suit, the order of the whole hand's walk."""
    suits: dict[str, list[str]] = {}
    for c in sorted(cards, key=_ORDER.__getitem__):
        suits.setdefault(c[1], []).append(c)
    melds: list[Listed] = []
    dead: list[str] = []
    total = 0
    for held in suits.values():
        arr = _SUIT_BEST.get((tuple(held), rules, value), _best_one_suit, held, rules, value)
        melds += arr.melds
        dead += arr.deadwood
        total += arr.deadwood_value
    return Arrangement(tuple(melds), tuple(dead), total)


def _best_one_suit(cards: list[str], rules: MeldRules,
                   value: Callable[[str], int]) -> Arrangement:
    if len(set(cards)) == len(cards):
        return _best_natural(cards, rules, value)
    return _best_general(cards, rules, value)


def _best_general(cards: Sequence[str], rules: MeldRules,
                  value: Callable[[str], int]) -> Arrangement:
    """Any hand: the table of skeletons and the search over every split of the wild twos."""
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    twos = sorted(c for c in counts if c in rules.wilds)
    tab, start = _serving_table(counts, jokers + sum(counts[c] for c in twos), rules)
    worth = [value(c) for c in tab.codes]
    wild_value = {c: value(c) for c in [JOKER, *twos]}
    memos: dict[tuple[int, ...], dict[tuple[int, int, int], int]] = {}

    def search(choice: tuple[int, ...]) -> _Search:
        pool = [JOKER] * jokers + [c for c, k in zip(twos, choice) for _ in range(k)]
        naturals = start - sum(k * tab.unit[tab.field[c]] for c, k in zip(twos, choice))
        return _Search(tab, naturals, pool, wild_value, worth, memos)

    # Every split of the wild-capable twos into naturals and wilds, fewest wild first (as
    # _pools): the first split reaching the least deadwood is the answer.
    choices = sorted(product(*(range(counts[c] + 1) for c in twos)), key=lambda t: (sum(t), t))
    best = search(choices[0])  # every two a natural
    least = best.total()
    for choice in choices[1:] if least else ():
        found = search(choice)
        total = found.total()
        if total < least:
            best, least = found, total
            if not total:
                break
    return best.arrangement(rules)


class _Search:
    """The least deadwood of one (naturals, wild pool) split, over a table shared by the splits.

    The table is built once for the hand with every natural and the largest pool: a skeleton
    holding a two that is wild in this split fails the guard test, and one needing more wilds
    than this pool holds fails the count test, so the search sees exactly this split's table.
    A value depends on the split only through the cost of the wilds left over, so splits with
    the same costs share one memo (in ``memos``).
    """

    def __init__(self, tab: _Table, start: int, pool: list[str], wild_value: dict[str, int],
                 worth: list[int],
                 memos: dict[tuple[int, ...], dict[tuple[int, int, int], int]]) -> None:
        self.tab = tab
        self.pool = sorted(pool, key=lambda c: (-wild_value[c], c))  # meld the dearest wilds
        self.start = start
        spare_cost = [0]
        for c in reversed(self.pool):  # the cheapest k wilds are left over
            spare_cost.append(spare_cost[-1] + wild_value[c])
        moves, unit, guard, width = tab.moves, tab.unit, tab.guard, tab.width
        memo = memos.setdefault(tuple(spare_cost), {})

        def solve(state: int, w: int, cap: int) -> int:
            if not state:
                return spare_cost[w - cap]
            key = (state, w, cap)
            got = memo.get(key)
            if got is not None:
                return got
            f = ((state & -state).bit_length() - 1) // width
            best = worth[f] + solve(state - unit[f], w, cap)
            if best:
                high = state | guard
                for delta, need, extra in moves[f]:
                    if need <= w and (high - delta) & guard == guard:
                        rest = w - need
                        got = solve(state - delta, rest, min(cap + extra, rest))
                        if got < best:
                            best = got
                            if not best:
                                break
            memo[key] = best
            return best

        self.solve = solve

    def total(self) -> int:
        return self.solve(self.start, len(self.pool), 0)

    def arrangement(self, rules: MeldRules) -> Arrangement:
        """Walk the memo along one optimal path."""
        tab, solve, guard, pool = self.tab, self.solve, self.tab.guard, self.pool
        total = self.total()
        chosen: list[tuple[_Shape, int]] = []
        dead: list[str] = []
        state, w, cap = self.start, len(pool), 0
        while state:
            target = solve(state, w, cap)
            f = tab.low(state)
            for shape in tab.shapes[f]:
                if shape.need <= w and ((state | guard) - shape.delta) & guard == guard:
                    rest = w - shape.need
                    nxt = (state - shape.delta, rest, min(cap + shape.room - shape.need, rest))
                    if solve(*nxt) == target:
                        chosen.append((shape, shape.need))
                        state, w, cap = nxt
                        break
            else:
                dead.append(tab.codes[f])
                state -= tab.unit[f]
        chosen = _spread(chosen, w)
        used = sum(k for _, k in chosen)
        dead += pool[used:]
        return Arrangement(tuple(_emit(chosen, pool, rules)), tuple(dead), total)


# --- natural hands: one pack, no wild card ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _PackMelds:
    """Every meld of one 52-card pack under one set of rules, as bit masks (bit = table field).

    Bit ``13 * suit + rank - 1`` is a card (the table's field order). ``by_low[i]`` lists (mask,
    listing) of the melds whose lowest card is bit ``i``, in the general search's order
    (``masks[i]`` their masks alone). A card is in some meld of a hand exactly when it is in a
    three-card one: ``run_live[p]`` is the union of the three-card runs inside the 13-bit suit
    pattern ``p`` (the same in every suit), and ``sets`` says whether three of a rank meld.
    """

    bit: dict[str, int]
    codes: tuple[str, ...]
    by_low: tuple[tuple[tuple[int, Listed], ...], ...]
    masks: tuple[tuple[int, ...], ...]
    run_live: tuple[int, ...]
    sets: bool


_PACK_MELDS: Memo[MeldRules, _PackMelds] = Memo("solver: one pack's melds", 64)


def _pack_melds(rules: MeldRules) -> _PackMelds:
    return _PACK_MELDS.get(rules, _made_pack_melds, rules)


def _made_pack_melds(rules: MeldRules) -> _PackMelds:
    tab = _Table(Counter(r + s for r in RANKS for s in SUITS), 0, rules)
    bit = {c: i for i, c in enumerate(tab.codes)}
    by_low = tuple(tuple((sum(1 << bit[c] for _, c in s.naturals), _listing(s, [], rules))
                         for s in group) for group in tab.shapes)
    windows = [m for group in by_low for m, listed in group
               if len(listed) == 3 and m < 1 << 13]  # the three-card runs of clubs
    run_live = tuple(_union(w for w in windows if w & p == w) for p in range(1 << 13))
    return _PackMelds(bit, tuple(tab.codes), by_low,
                      tuple(tuple(m for m, _ in group) for group in by_low), run_live,
                      rules.sets)


def _best_natural(cards: Sequence[str], rules: MeldRules,
                  value: Callable[[str], int]) -> Arrangement:
    """The natural-only fast path: the same search over one bit per card, memo keyed by the
    bit set, with the cards that are in no meld of the hand set aside first."""
    pm = _pack_melds(rules)
    bit, by_low = pm.bit, pm.by_low
    _, live = _live(pm, cards)
    order = sorted(cards, key=bit.__getitem__)
    values = _values_of(value)
    total = 0
    worth = {}
    for c in cards:
        v = values.get(c)
        if v is None:
            v = values[c] = value(c)
        i = bit[c]
        if live >> i & 1:
            worth[i] = v
        else:
            total += v
    if not live:
        return Arrangement((), tuple(order), total)
    masks = pm.masks
    moves = {i: [m for m in masks[i] if m & live == m] for i in worth}
    memo = {0: 0}

    def solve(state: int) -> int:  # called only for states not yet in the memo
        low = state & -state
        f = low.bit_length() - 1
        rest = state ^ low
        got = memo.get(rest)
        best = worth[f] + (solve(rest) if got is None else got)
        if best:
            for m in moves[f]:
                if m & state == m:
                    rest = state ^ m
                    got = memo.get(rest)
                    if got is None:
                        got = solve(rest)
                    if got < best:
                        best = got
                        if not best:
                            break
        memo[state] = best
        return best

    def known(state: int) -> int:
        got = memo.get(state)
        return solve(state) if got is None else got

    total += known(live)
    melds: list[Listed] = []
    state = live
    while state:
        target = memo[state]
        low = state & -state
        f = low.bit_length() - 1
        for m, listed in by_low[f]:
            if m & state == m and known(state ^ m) == target:
                melds.append(listed)
                state ^= m
                break
        else:
            state ^= low
    used = {c for m in melds for c in m}
    return Arrangement(tuple(melds), tuple(c for c in order if c not in used), total)


def _live(pm: _PackMelds, cards: Sequence[str]) -> tuple[int, int]:
    """The hand's bit set, and its cards that are in some meld of the hand."""
    bit, run_live = pm.bit, pm.run_live
    hand = 0
    for c in cards:
        hand |= 1 << bit[c]
    suit = 0x1FFF
    cl, di, he, sp = hand & suit, hand >> 13 & suit, hand >> 26 & suit, hand >> 39
    live = run_live[cl] | run_live[di] << 13 | run_live[he] << 26 | run_live[sp] << 39
    if pm.sets:  # ranks held in three or four suits
        three = (cl & di & (he | sp)) | (he & sp & (cl | di))
        live |= (three | three << 13 | three << 26 | three << 39) & hand
    return hand, live


_VALUES: Memo[Callable[[str], int], dict[str, int]] = Memo("solver: card values", 64)


def _values_of(value: Callable[[str], int]) -> dict[str, int]:
    """The card values ``value`` has given so far (a game's values are a pure function of the
    card; the few value functions in use are kept)."""
    try:
        return _VALUES.get(value, dict)
    except TypeError:  # an unhashable value function: nothing is kept
        return {}


def _union(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


# --- whole hand ----------------------------------------------------------------------------


def whole_hand(cards: Sequence[str], rules: MeldRules, *, leave_one: bool,
               sizes: Sequence[Sequence[int]] | None = None,
               may_discard: Callable[[str], bool] | None = None) -> Whole | None:
    """Meld the whole hand, or (``leave_one``) all but one card, returned as the discard.

    With ``leave_one`` an arrangement that leaves one card (allowed by ``may_discard``) is
    preferred and a whole-hand one is the fallback. ``sizes`` lists the allowed multisets of
    meld sizes; the melds must match one of them exactly.
    """
    allowed = may_discard or (lambda _: True)
    patterns = None if sizes is None else frozenset(tuple(sorted(p)) for p in sizes)
    # The melds of a sized declaration hold every card but the one left over (and use every
    # wild), so only a hand whose count is a pattern's total can match it.
    totals = None if patterns is None else {sum(p) for p in patterns}
    if leave_one and (totals is None or len(cards) - 1 in totals):
        found = _whole(cards, rules, allowed, patterns)
        if found is not None:
            return found
    if totals is not None and len(cards) not in totals:
        return None
    return _whole(cards, rules, None, patterns)


def _whole(cards: Sequence[str], rules: MeldRules, discard: Callable[[str], bool] | None,
           patterns: frozenset[tuple[int, ...]] | None) -> Whole | None:
    if len(set(cards)) == len(cards) and not any(c == JOKER or c in rules.wilds for c in cards):
        return _whole_natural(cards, rules, discard, patterns)
    for naturals, pool in _pools(cards, rules):
        tab = _table(naturals, len(pool), rules)
        if discard is None:
            found = _cover(tab, pool, rules, None, patterns)
        else:
            found = _cover(tab, pool, rules, discard, patterns)
            if found is None and JOKER in pool and discard(JOKER):
                rest = list(pool)
                rest.remove(JOKER)
                melds = _cover(tab, rest, rules, None, patterns)
                found = None if melds is None else (melds[0], JOKER)
        if found is not None:
            return found
    return None


_PARTIALS: Memo[frozenset[tuple[int, ...]], frozenset[tuple[int, ...]]] = Memo(
    "solver: size patterns' sub-multisets", 64)


def _partials(patterns: frozenset[tuple[int, ...]]) -> frozenset[tuple[int, ...]]:
    """Every sorted sub-multiset of the patterns: the sizes a sized search may have laid."""
    return _PARTIALS.get(patterns, _made_partials, patterns)


def _made_partials(patterns: frozenset[tuple[int, ...]]) -> frozenset[tuple[int, ...]]:
    return frozenset(tuple(sorted(sub)) for p in patterns for n in range(len(p) + 1)
                     for sub in combinations(p, n))


def _whole_natural(cards: Sequence[str], rules: MeldRules,
                   discard: Callable[[str], bool] | None,
                   patterns: frozenset[tuple[int, ...]] | None) -> Whole | None:
    """``_whole`` of distinct natural cards over one bit per card (as ``_best_natural``), with
    the same answers: a card in no meld of the hand can only be the one left over."""
    pm = _pack_melds(rules)
    hand, live = _live(pm, cards)
    dead = hand & ~live
    if not dead:
        return _natural_cover(pm, hand, discard, patterns)
    drop = pm.codes[dead.bit_length() - 1]
    if discard is None or dead & (dead - 1) or not discard(drop):
        return None
    found = _natural_cover(pm, live, None, patterns)
    return None if found is None else (found[0], drop)


def _natural_cover(pm: _PackMelds, state: int, discard: Callable[[str], bool] | None,
                   patterns: frozenset[tuple[int, ...]] | None) -> Whole | None:
    """``_cover`` over bit sets: the same moves in the same order (leave the lowest card,
    then its melds), so the same first path."""
    codes, by_low = pm.codes, pm.by_low
    full = patterns or frozenset()
    partial = _partials(patterns) if patterns is not None else full
    memo: dict[tuple[int, tuple[int, ...], bool], bool] = {}

    def moves(state: int, have: tuple[int, ...],
              pend: bool) -> Iterator[tuple[int, Listed | None, tuple[int, ...], bool]]:
        low = state & -state
        f = low.bit_length() - 1
        if pend and discard is not None and discard(codes[f]):
            yield low, None, have, False
        for mask, listed in by_low[f]:
            if mask & state == mask:
                if patterns is None:
                    yield mask, listed, have, pend
                else:
                    grown = tuple(sorted((*have, len(listed))))
                    if grown in partial:
                        yield mask, listed, grown, pend

    def fits(state: int, have: tuple[int, ...], pend: bool) -> bool:
        if not state:
            return not pend and (patterns is None or have in full)
        key = (state, have, pend)
        got = memo.get(key)
        if got is None:
            got = memo[key] = any(fits(state ^ m, h, p) for m, _, h, p in moves(state, have, pend))
        return got

    have: tuple[int, ...] = ()
    pend = discard is not None
    if not fits(state, have, pend):
        return None
    melds: list[Listed] = []
    dropped = None
    while state:
        mask, listed, have, pend = next(m for m in moves(state, have, pend)
                                        if fits(state ^ m[0], m[2], m[3]))
        if listed is None:
            dropped = codes[mask.bit_length() - 1]
        else:
            melds.append(listed)
        state ^= mask
    return tuple(melds), dropped


def _cover(tab: _Table, pool: list[str], rules: MeldRules,
           discard: Callable[[str], bool] | None,
           patterns: frozenset[tuple[int, ...]] | None) -> Whole | None:
    """Cover every natural of ``tab`` and every wild of ``pool``, leaving one natural if asked."""
    if not _may_cover(tab, discard):
        return None
    moves, unit, guard, width, codes = tab.moves, tab.unit, tab.guard, tab.width, tab.codes
    shapes = tab.shapes
    full = patterns or frozenset()
    partial = _partials(full)
    memo: dict[tuple[int, int, int, int], bool] = {}
    memo_sized: dict[tuple[int, int, tuple[int, ...], int], bool] = {}

    def free(state: int, w: int, cap: int, pend: int) -> bool:
        if not state:
            return not pend and w <= cap
        key = (state, w, cap, pend)
        got = memo.get(key)
        if got is not None:
            return got
        f = ((state & -state).bit_length() - 1) // width
        ok = False
        if pend and discard is not None and discard(codes[f]):
            ok = free(state - unit[f], w, cap, 0)
        if not ok:
            high = state | guard
            for delta, need, extra in moves[f]:
                if need <= w and (high - delta) & guard == guard:
                    rest = w - need
                    if free(state - delta, rest, min(cap + extra, rest), pend):
                        ok = True
                        break
        memo[key] = ok
        return ok

    def sized(state: int, w: int, have: tuple[int, ...], pend: int) -> bool:
        if not state:
            return not pend and not w and have in full
        key = (state, w, have, pend)
        got = memo_sized.get(key)
        if got is not None:
            return got
        f = ((state & -state).bit_length() - 1) // width
        ok = False
        if pend and discard is not None and discard(codes[f]):
            ok = sized(state - unit[f], w, have, 0)
        if not ok:
            high = state | guard
            for shape in shapes[f]:
                if shape.need <= w and (high - shape.delta) & guard == guard:
                    n = len(shape.naturals)
                    for k in range(shape.need, min(shape.room, w) + 1):
                        grown = tuple(sorted((*have, n + k)))
                        if grown in partial and sized(state - shape.delta, w - k, grown, pend):
                            ok = True
                            break
                    if ok:
                        break
        memo_sized[key] = ok
        return ok

    pend = 0 if discard is None else 1
    chosen: list[tuple[_Shape, int]] = []
    dropped: str | None = None
    state, w = tab.start, len(pool)
    if patterns is None:
        cap = 0
        if not free(state, w, cap, pend):
            return None
        while state:
            f = tab.low(state)
            if pend and discard is not None and discard(codes[f]) \
                    and free(state - unit[f], w, cap, 0):
                dropped, pend, state = codes[f], 0, state - unit[f]
                continue
            for shape in shapes[f]:
                if shape.need <= w and ((state | guard) - shape.delta) & guard == guard:
                    rest = w - shape.need
                    nxt = (state - shape.delta, rest, min(cap + shape.room - shape.need, rest))
                    if free(*nxt, pend):
                        chosen.append((shape, shape.need))
                        state, w, cap = nxt
                        break
        chosen = _spread(chosen, w)
    else:
        have: tuple[int, ...] = ()
        if not sized(state, w, have, pend):
            return None
        while state:
            f = tab.low(state)
            if pend and discard is not None and discard(codes[f]) \
                    and sized(state - unit[f], w, have, 0):
                dropped, pend, state = codes[f], 0, state - unit[f]
                continue
            step = _sized_step(tab, shapes[f], state, w, have, partial, sized, pend)
            chosen.append(step[0])
            state, w, have = step[1], step[2], step[3]
    return tuple(_emit(chosen, pool, rules)), dropped


def _may_cover(tab: _Table, discard: Callable[[str], bool] | None) -> bool:
    """A cheap necessary condition for a cover: the cards in no skeleton of the table can only
    be the one card left over."""
    covered = 0
    for group in tab.moves:
        for delta, _, _ in group:
            covered |= delta
    count = (1 << (tab.width - 1)) - 1
    dead = [(code, tab.start >> (tab.width * f) & count) for f, code in enumerate(tab.codes)
            if not covered >> (tab.width * f) & count]
    if not dead:
        return True
    return discard is not None and len(dead) == 1 and dead[0][1] == 1 and discard(dead[0][0])


def _sized_step(tab: _Table, shapes: tuple[_Shape, ...], state: int, w: int, have: tuple[int, ...],
                partial: frozenset[tuple[int, ...]],
                sized: Callable[[int, int, tuple[int, ...], int], bool],
                pend: int) -> tuple[tuple[_Shape, int], int, int, tuple[int, ...]]:
    """The first meld (and its wild count) on a successful sized search path."""
    for shape in shapes:
        if shape.need <= w and ((state | tab.guard) - shape.delta) & tab.guard == tab.guard:
            n = len(shape.naturals)
            for k in range(shape.need, min(shape.room, w) + 1):
                grown = tuple(sorted((*have, n + k)))
                if grown in partial and sized(state - shape.delta, w - k, grown, pend):
                    return (shape, k), state - shape.delta, w - k, grown
    raise AssertionError("sized search lost its path")  # pragma: no cover


# --- single cards and candidate melds -------------------------------------------------------


def usable_in_meld(card: str, hand: Sequence[str], rules: MeldRules) -> bool:
    """Whether ``card`` forms a valid meld together with at least two cards of ``hand``."""
    for naturals, pool in _pools(hand, rules):
        w = len(pool)
        if card != JOKER:  # the card as a natural
            tab = _table(naturals + Counter([card]), w, rules)
            if any(c == card for g in tab.shapes for s in g for _, c in s.naturals):
                return True
        if card == JOKER or card in rules.wilds:  # the card as a wild
            tab = _table(naturals, w + 1, rules)
            if any(max(s.need, 1) <= min(s.room, w + 1) for g in tab.shapes for s in g):
                return True
    return False


_CANDIDATES: Memo[tuple[tuple[str, ...], MeldRules], tuple[Listed, ...]] = Memo(
    "solver: a hand's candidate melds", 20_000)


def candidate_melds(cards: list[str], rules: MeldRules) -> list[Listed]:
    """Every set and run (up to 13 cards) that can be formed from ``cards``, naturals only
    (remembered per hand)."""
    return list(_CANDIDATES.get((tuple(sorted(cards)), rules), _candidates, cards, rules))


def _candidates(cards: list[str], rules: MeldRules) -> tuple[Listed, ...]:
    out: list[Listed] = []
    if rules.sets:
        out.extend(_sets(cards, rules))
    if rules.runs:
        out.extend(_runs(cards, rules))
    return tuple(out)


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


_RUN_CODES: Memo[AceModel, tuple[int, int, dict[str, list[str]]]] = Memo(
    "solver: run codes per ace model", 8)


def _run_codes(ace: AceModel) -> tuple[int, int, dict[str, list[str]]]:
    """The lowest and highest start of a run, and per suit the code of every value from the
    lowest start up to twelve past the highest (``make_code`` done once)."""
    return _RUN_CODES.get(ace, _made_run_codes, ace)


def _made_run_codes(ace: AceModel) -> tuple[int, int, dict[str, list[str]]]:
    lo, hi = {AceModel.LOW: (1, 13), AceModel.HIGH_ONLY: (2, 14),
              AceModel.HIGH_OR_LOW: (1, 14), AceModel.WRAP: (1, 13)}[ace]
    return lo, hi, {s: [make_code(v, s) for v in range(lo, hi + 13)] for s in SUITS}


def _runs(cards: list[str], rules: MeldRules) -> Iterator[Listed]:
    present = set(c for c in cards if c != JOKER)
    lo, hi, codes = _run_codes(rules.ace)
    top = hi if rules.ace is not AceModel.WRAP else hi + 12
    for suit in SUITS:
        column = codes[suit]
        held = [c in present for c in column]
        for start in range(lo, hi + 1):
            i = start - lo
            if not (held[i] and held[i + 1] and held[i + 2]):
                continue
            run: list[str] = []
            for value in range(start, min(start + 13, top + 1)):
                code = column[value - lo]
                if not held[value - lo] or code in run:
                    break
                run.append(code)
                if len(run) >= 3:
                    yield tuple(run)


def arrange_all(cards: list[str], rules: MeldRules,
                leave_one: bool) -> tuple[list[Listed], str | None] | None:
    """Split ``cards`` into melds, optionally leaving one card over (to discard), or None.

    Wild cards are listed with their designations (``"JK:7H"``); see :func:`whole_hand`.
    """
    found = whole_hand(cards, rules, leave_one=leave_one)
    return None if found is None else (list(found[0]), found[1])
