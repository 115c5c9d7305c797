"""Meld validation: sets and runs under every ace model (GEN-2, GEN-3) with wild cards (GEN-4).

:func:`form_meld` checks a new meld as listed by a player; :func:`extend_meld` checks a lay-off
(GEN-10). Both return a new :class:`Meld` whose wild cards all carry a definite designation, or
raise :class:`IllegalAction` with code ``invalid_meld`` or ``designation_required``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations

from ..refusals import Code
from .cards import JOKER, SUITS, Placed, make_code, rank_of, suit_of
from .errors import IllegalAction

Entry = tuple[str, "str | None"]  # (card code, designation or None)


class AceModel(StrEnum):
    """GEN-2: how the ace ranks in runs."""

    LOW = "ace_low"
    HIGH_OR_LOW = "ace_high_or_low"
    WRAP = "ace_wrap"
    HIGH_ONLY = "ace_high_only"


@dataclass(frozen=True, slots=True)
class MeldRules:
    """What makes a valid meld in one game (with its options applied)."""

    ace: AceModel = AceModel.LOW
    sets: bool = True
    runs: bool = True
    set_max: int | None = 4
    set_distinct_suits: bool = True
    wilds: frozenset[str] = frozenset()
    # GEN-4 needs one natural card per meld; GERMAN-5 needs no more wilds than naturals.
    wilds_at_most_naturals: bool = False
    # KALUKI-4, GERMAN-5: a wild in a set whose suit is not determined must be designated.
    designate_set_wilds: bool = False


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table (GEN-9): runs are stored in ascending (cyclic) order."""

    kind: str  # "set" or "run"
    cards: tuple[Placed, ...]
    owner: int = -1
    # Value (GEN-2) of the run's first card: 1..14; unused for sets.
    start: int = 0
    id: int = field(default=-1, compare=False)

    @property
    def codes(self) -> list[str]:
        return [p.card for p in self.cards]

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "owner": self.owner, "kind": self.kind,
                "cards": [str(p) for p in self.cards]}


def _bad(message: str) -> IllegalAction:
    return IllegalAction(Code.INVALID_MELD, message)


def _listing(entries: Sequence[Entry]) -> str:
    return " ".join(c if d is None else f"{c}:{d}" for c, d in entries)


def is_wild(card: str, designation: str | None, rules: MeldRules) -> bool:
    """A wild-capable card is wild when it is a joker or designated as another card."""
    if card == JOKER:
        return True
    return card in rules.wilds and designation is not None and designation != card


def form_meld(entries: Sequence[Entry], rules: MeldRules, owner: int = -1) -> Meld:
    """Validate a new meld listed by a player (runs lowest card first).

    An undesignated wild-capable two (twos wild) is natural; where the meld is valid only with
    some of them wild, and then in exactly one way, that reading is inferred (PROTOCOL.md §1:
    ``6S 7S 2C 9S`` is ``6S 7S 2C:8S 9S``); several readings need a designation.
    """
    try:
        return _form_meld(entries, rules, owner, ())
    except IllegalAction as natural:
        open_twos = [i for i, (c, d) in enumerate(entries)
                     if d is None and c != JOKER and c in rules.wilds]
        if natural.code != Code.INVALID_MELD or not open_twos or len(entries) < 3:
            raise
        readings: set[tuple[Placed, ...]] = set()
        found: Meld | None = None
        for n in range(1, len(open_twos) + 1):
            for chosen in combinations(open_twos, n):
                try:
                    meld = _form_meld(entries, rules, owner, chosen)
                except IllegalAction as exc:
                    if exc.code == Code.DESIGNATION_REQUIRED:
                        readings.add(())  # valid with some designation: another reading
                    continue
                readings.add(meld.cards)
                found = meld
        if len(readings) > 1:
            raise IllegalAction(Code.DESIGNATION_REQUIRED,
                                f"say what each two stands for: {_listing(entries)}") from None
        if found is None or readings != {found.cards}:
            raise
        return found


def _form_meld(entries: Sequence[Entry], rules: MeldRules, owner: int,
               wild_twos: Sequence[int]) -> Meld:
    """``form_meld`` with the undesignated twos at ``wild_twos`` read as wild cards."""
    listing = _listing(entries)
    if len(entries) < 3:
        raise _bad(f"a meld needs at least 3 cards: {listing}")
    wild = [is_wild(c, d, rules) or i in wild_twos for i, (c, d) in enumerate(entries)]
    for (card, designation), w in zip(entries, wild):
        if designation is not None and not w and designation != card:
            raise _bad(f"{card} is not a wild card and cannot stand for {designation}")
    naturals = [c for (c, _), w in zip(entries, wild) if not w]
    _check_wild_count(len(naturals), len(entries) - len(naturals), rules, listing)
    ranks = {rank_of(c) for c in naturals}
    candidates: list[str] = []
    if rules.sets and len(ranks) == 1:
        candidates.append("set")
    if rules.runs and len(ranks) == len(naturals):
        candidates.append("run")
    if not candidates:
        kinds = " or ".join(k for k, on in (("set", rules.sets), ("run", rules.runs)) if on)
        raise _bad(f"not a valid {kinds}: {listing}")
    built: list[Meld] = []
    errors: list[IllegalAction] = []
    for kind in candidates:
        try:
            if kind == "set":
                built.append(_form_set(entries, wild, rules, owner, listing))
            else:
                built.append(_form_run(entries, wild, rules, owner, listing))
        except IllegalAction as exc:
            errors.append(exc)
    if len(built) == 1:
        return built[0]
    if len(built) > 1:
        raise IllegalAction(Code.DESIGNATION_REQUIRED,
                            f"say what each wild card stands for (set or run?): {listing}")
    required = [e for e in errors if e.code == Code.DESIGNATION_REQUIRED]
    raise required[0] if required else errors[-1]


def _check_wild_count(naturals: int, wilds: int, rules: MeldRules, listing: str) -> None:
    if naturals == 0:
        raise _bad(f"a meld needs at least one natural card: {listing}")  # GEN-4
    if rules.wilds_at_most_naturals and wilds > naturals:
        raise _bad(f"more wild cards than natural cards: {listing}")  # GERMAN-5


def _form_set(entries: Sequence[Entry], wild: list[bool], rules: MeldRules, owner: int,
              listing: str) -> Meld:
    naturals = [c for (c, _), w in zip(entries, wild) if not w]
    rank = rank_of(naturals[0])
    if any(rank_of(c) != rank for c in naturals):
        raise _bad(f"a set is all of one rank: {listing}")
    if rules.set_max is not None and len(entries) > rules.set_max:
        raise _bad(f"a set has at most {rules.set_max} cards: {listing}")
    used: list[str] = []
    for (card, designation), w in zip(entries, wild):
        if not w:
            used.append(suit_of(card))
        elif designation is not None:
            if rank_of(designation) != rank:
                raise _bad(f"{card}:{designation} does not fit a set of {make_code(rank, 'C')[0]}s")
            used.append(suit_of(designation))
    if rules.set_distinct_suits and len(set(used)) != len(used):
        raise _bad(f"a set may not hold two cards of one suit: {listing}")
    missing = [s for s in SUITS if s not in used]
    open_wilds = sum(1 for (_, d), w in zip(entries, wild) if w and d is None)
    if open_wilds and rules.designate_set_wilds and len(missing) != open_wilds:
        raise IllegalAction(Code.DESIGNATION_REQUIRED,
                            f"say which card each wild stands for in this set: {listing}")
    placed = []
    for (card, designation), w in zip(entries, wild):
        if not w:
            placed.append(Placed(card, card))
        elif designation is not None:
            placed.append(Placed(card, designation))
        else:  # GEN-4: the first missing suit in the order C, D, H, S
            suit = missing.pop(0) if missing else "C"
            placed.append(Placed(card, make_code(rank, suit)))
    return Meld("set", tuple(placed), owner)


def _value_candidates(rank: int, ace: AceModel) -> tuple[int, ...]:
    if rank == 1 and ace is AceModel.HIGH_ONLY:
        return (14,)
    if rank == 1 and ace is AceModel.HIGH_OR_LOW:
        return (1, 14)
    return (rank,)


def _run_bounds(ace: AceModel) -> tuple[int, int]:
    """Lowest and highest value a run may reach (unbounded for WRAP, checked by length)."""
    return {AceModel.LOW: (1, 13), AceModel.HIGH_ONLY: (2, 14),
            AceModel.HIGH_OR_LOW: (1, 14), AceModel.WRAP: (1, 13 + 12)}[ace]


def _form_run(entries: Sequence[Entry], wild: list[bool], rules: MeldRules, owner: int,
              listing: str) -> Meld:
    fixed: list[tuple[int, str]] = []
    for i, ((card, designation), w) in enumerate(zip(entries, wild)):
        if not w:
            fixed.append((i, card))
        elif designation is not None:
            fixed.append((i, designation))
    suits = {suit_of(code) for _, code in fixed}
    if len(suits) != 1:
        raise _bad(f"a run is all of one suit: {listing}")
    suit = suits.pop()
    n = len(entries)
    if n > 13:
        raise _bad(f"a run has at most 13 cards: {listing}")
    lo, hi = _run_bounds(rules.ace)
    for start in _run_starts(fixed, rules.ace):
        if start >= lo and start + n - 1 <= hi:
            placed = tuple(Placed(c, make_code(start + i, suit))
                           for i, (c, _) in enumerate(entries))
            return Meld("run", placed, owner, start=start)
    raise _bad(f"not a run (list runs lowest card first): {listing}")


def _run_starts(fixed: list[tuple[int, str]], ace: AceModel) -> list[int]:
    """Start values consistent with every card whose position fixes its rank."""
    starts: set[int] | None = None
    for i, code in fixed:
        if ace is AceModel.WRAP:
            options = {(rank_of(code) - 1 - i) % 13 + 1}
        else:
            options = {v - i for v in _value_candidates(rank_of(code), ace)}
        starts = options if starts is None else starts & options
    return sorted(starts or ())


def run_values(meld: Meld) -> tuple[int, int]:
    """First and last value of a run (the last may exceed 13 under WRAP)."""
    return meld.start, meld.start + len(meld.cards) - 1


def extend_meld(meld: Meld, entries: Sequence[Entry], rules: MeldRules) -> Meld:
    """GEN-10: lay cards off on ``meld``; the result must be a valid meld of the same kind."""
    listing = _listing(entries)
    if not entries:
        raise _bad("lay off at least one card")
    wild = [is_wild(c, d, rules) for c, d in entries]
    for (card, designation), w in zip(entries, wild):
        if designation is not None and not w and designation != card:
            raise _bad(f"{card} is not a wild card and cannot stand for {designation}")
    naturals = sum(1 for p in meld.cards if not p.is_wild) + wild.count(False)
    _check_wild_count(naturals, len(meld.cards) + len(entries) - naturals, rules, listing)
    if meld.kind == "set":
        existing = [(p.card, p.stands_for if p.is_wild else None) for p in meld.cards]
        grown = _form_set(existing + list(entries), [p.is_wild for p in meld.cards] + wild,
                          rules, meld.owner, listing)
        return replace(grown, id=meld.id)
    return _extend_run(meld, entries, wild, rules, listing)


def _extend_run(meld: Meld, entries: Sequence[Entry], wild: list[bool], rules: MeldRules,
                listing: str) -> Meld:
    suit = suit_of(meld.cards[0].stands_for)
    first, last = run_values(meld)
    total = len(meld.cards) + len(entries)
    if total > 13:
        raise _bad(f"a run has at most 13 cards: {listing}")
    lo, hi = _run_bounds(rules.ace)
    fits: list[tuple[int, dict[int, int]]] = []
    for low in range(last - total + 1, first + 1):
        if rules.ace is not AceModel.WRAP and (low < lo or low + total - 1 > hi):
            continue
        slots = _assign_slots(entries, wild, suit, low, total, first, last, rules.ace)
        if slots is not None:
            fits.append((low, slots))
    if not fits:
        raise _bad(f"{listing} cannot be laid off on {' '.join(str(p) for p in meld.cards)}")
    if len(fits) > 1 and any(d is None for (_, d), w in zip(entries, wild) if w):
        raise IllegalAction(Code.DESIGNATION_REQUIRED,
                            f"say which card each wild stands for: {listing}")
    low, slots = fits[0]  # only naturals: e.g. an ace that fits either end goes low
    by_value = {first + i: p for i, p in enumerate(meld.cards)}
    for index, value in slots.items():
        by_value[value] = Placed(entries[index][0], make_code(value, suit))
    cards = tuple(by_value[v] for v in range(low, low + total))
    start = (low - 1) % 13 + 1 if rules.ace is AceModel.WRAP else low
    return Meld("run", cards, meld.owner, start=start, id=meld.id)


def _assign_slots(entries: Sequence[Entry], wild: list[bool], suit: str, low: int, total: int,
                  first: int, last: int, ace: AceModel) -> dict[int, int] | None:
    """Give each new card a free value in ``low .. low+total-1``, or None if they cannot fit."""
    free = [v for v in range(low, low + total) if not first <= v <= last]
    taken: dict[int, int] = {}
    open_wilds = []
    for index, ((card, designation), w) in enumerate(zip(entries, wild)):
        code = designation if w else card
        if code is None:
            open_wilds.append(index)
            continue
        if suit_of(code) != suit:
            return None
        value = _match_value(rank_of(code), free, ace, set(taken.values()))
        if value is None:
            return None
        taken[index] = value
    rest = [v for v in free if v not in taken.values()]
    if len(rest) != len(open_wilds):
        return None
    taken.update(zip(open_wilds, rest))
    return taken


def _match_value(rank: int, free: list[int], ace: AceModel, used: set[int]) -> int | None:
    for value in free:
        if value in used:
            continue
        if ace is AceModel.WRAP:
            if (value - 1) % 13 + 1 == rank:
                return value
        elif value in _value_candidates(rank, ace):
            return value
    return None


def wild_places(wild: str, meld: Meld) -> list[Entry]:
    """Every designation under which ``wild`` could be laid off on ``meld``: each suit of a
    set's rank, or either end of a run (validity is for :func:`extend_meld` to decide)."""
    if meld.kind == "set":
        rank = meld.cards[0].stands_for[0]
        return [(wild, rank + suit) for suit in SUITS]
    first, last = run_values(meld)
    suit = meld.cards[0].stands_for[1]
    return [(wild, make_code(first - 1, suit)), (wild, make_code(last + 1, suit))]
