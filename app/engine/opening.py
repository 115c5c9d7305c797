"""Initial melds (KALUKI-5/6, GERMAN-6): the most valuable opening a hand can lay.

``opening_with`` searches the melds a hand can form — wild cards designated at every place they
could stand — for disjoint melds worth the game's minimum, optionally using a given card (a
discard taken before opening, KALUKI-6). Values are the game's initial-meld values, so a joker
counts as the card it stands for (an ace at the top of a run is worth more than one below 2).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from .cards import JOKER, SUITS, make_code, parse_entry, rank_of
from .errors import IllegalAction
from .melds import AceModel, MeldRules, form_meld
from .memo import Memo
from .solver import Listed

if TYPE_CHECKING:  # the rules name the parts, and a part asks this module (KALUKI-6)
    from .rules import CardValues, GameRules

    _Spec = tuple[MeldRules, CardValues, int | None]  # what makes a listing a meld, its worth


@dataclass(frozen=True)
class _Option:
    listing: Listed
    used: Counter[str]
    points: int


_OPENINGS: Memo[tuple[tuple[str, ...], str | None, _Spec, int], tuple[Listed, ...] | None] = \
    Memo("opening: a hand's opening", 20_000)
_OPTIONS: Memo[tuple[Listed, _Spec], _Option | None] = Memo("opening: listings as options",
                                                           50_000)


def opening_with(hand: list[str], card: str | None, rules: GameRules) -> tuple[Listed, ...] | None:
    """Disjoint melds from ``hand`` (plus ``card``, which they must use) worth the minimum
    (remembered: the move list and the take's check ask about the same hands)."""
    cards = [*hand, card] if card is not None else list(hand)
    spec = (rules.meld, rules.game.values, rules.game.low_ace_in_run)
    return _OPENINGS.get((tuple(sorted(cards)), card, spec, rules.game.initial_meld),
                         _opening, cards, card, rules, spec)


def _opening(cards: list[str], card: str | None, rules: GameRules,
             spec: _Spec) -> tuple[Listed, ...] | None:
    options = sorted(_options(cards, rules, spec), key=lambda o: -o.points)
    need = rules.game.initial_meld
    pool = Counter(cards)
    firsts = [o for o in options if card is None or o.used[card] > 0]
    for first in firsts:
        if first.used - pool:
            continue
        rest = _reach(pool - first.used, options, need - first.points, 0, rules)
        if rest is not None:
            return (first.listing, *rest)
    return None


def can_open_with(hand: list[str], card: str, rules: GameRules) -> bool:
    return opening_with(hand, card, rules) is not None


def _reach(left: Counter[str], options: list[_Option], need: int, start: int,
           rules: GameRules) -> tuple[Listed, ...] | None:
    if need <= 0:
        return ()
    if _bound(left, rules) < need:
        return None
    for i in range(start, len(options)):
        option = options[i]
        if option.used - left:
            continue
        rest = _reach(left - option.used, options, need - option.points, i + 1, rules)
        if rest is not None:
            return (option.listing, *rest)
    return None


def _bound(left: Counter[str], rules: GameRules) -> int:
    """No melds from ``left`` can be worth more than this."""
    top = max(rules.values.of(make_code(1, "S")), 10)
    return sum(k * (top if c == JOKER else rules.values.of(c)) for c, k in left.items())


def _options(cards: list[str], rules: GameRules, spec: _Spec) -> list[_Option]:
    meld_rules = rules.meld
    wilds = sum(1 for c in cards if c == JOKER)
    listings = list(_set_listings(cards, meld_rules, wilds)) + list(
        _run_listings(cards, meld_rules, wilds))
    options = []
    for listing in listings:
        option = _OPTIONS.get((listing, spec), _option, listing, rules)
        if option is not None:
            options.append(option)
    return options


def _option(listing: Listed, rules: GameRules) -> _Option | None:
    """``listing`` as an option, or None if it is no meld (by the spec's parts of ``rules``)."""
    try:
        meld = form_meld([parse_entry(x) for x in listing], rules.meld)
    except IllegalAction:
        return None
    used = Counter(x.split(":")[0] for x in listing)
    return _Option(listing, used, rules.game.meld_points(meld))


def _set_listings(cards: list[str], rules: MeldRules, wilds: int) -> list[Listed]:
    if not rules.sets:
        return []
    out: list[Listed] = []
    limit = rules.set_max or 4
    suits_of: dict[int, set[str]] = {}
    for c in cards:
        if c != JOKER:
            suits_of.setdefault(rank_of(c), set()).add(c[1])
    for rank in sorted(suits_of):
        suits = sorted(suits_of[rank])
        for k in range(max(1, 3 - wilds), len(suits) + 1):  # fewer naturals make no set
            for chosen in combinations(suits, k):
                missing = [s for s in SUITS if s not in chosen]
                for j in range(0, min(wilds, limit - k) + 1):
                    if 3 <= k + j <= limit and j <= len(missing):
                        naturals = tuple(make_code(rank, s) for s in chosen)
                        out.append(naturals + tuple(f"{JOKER}:{make_code(rank, s)}"
                                                    for s in missing[:j]))
    return out


_COLUMNS = {suit: [make_code(v, suit) for v in range(15)] for suit in SUITS}  # by run value


def _run_listings(cards: list[str], rules: MeldRules, wilds: int) -> list[Listed]:
    if not rules.runs:
        return []
    present = set(cards)
    low, high = {AceModel.LOW: (1, 13), AceModel.HIGH_ONLY: (2, 14),
                 AceModel.HIGH_OR_LOW: (1, 14), AceModel.WRAP: (1, 13)}[rules.ace]
    out: list[Listed] = []
    for suit in SUITS:
        column = _COLUMNS[suit]
        held = [c in present for c in column]
        if not any(held[low:high + 1]):  # a listing holds a natural card
            continue
        for start in range(low, high - 1):
            listing: list[str] = []
            jokers = 0
            for value in range(start, min(high, start + 12) + 1):
                if held[value]:
                    listing.append(column[value])
                else:
                    jokers += 1
                    if jokers > wilds:
                        break
                    listing.append(f"{JOKER}:{column[value]}")
                if len(listing) >= 3 and jokers < len(listing):
                    out.append(tuple(listing))
    return out
