"""The meld solver (GEN-12): known hands, and a property test against an exhaustive search.

The brute force below is written independently of the solver: it tries every sub-multiset of a
small hand as a meld by listing it every possible way (as a set with every designation, as a run
at every start) and asking ``form_meld``; then it tries every partition of the hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from app.engine.cards import JOKER, RANKS, SUITS, make_code, parse_entry, rank_of, standard_pack
from app.engine.errors import RuleError
from app.engine.melds import AceModel, MeldRules, form_meld
from app.engine.solver import (
    Arrangement,
    arrange_all,
    best_arrangement,
    candidate_melds,
    usable_in_meld,
    whole_hand,
)

TWOS = frozenset({"2C", "2D", "2H", "2S"})
STANDARD = MeldRules()
WRAP = MeldRules(ace=AceModel.WRAP)
KALUKI = MeldRules(ace=AceModel.HIGH_OR_LOW, set_max=4, set_distinct_suits=True,
                   wilds=frozenset({JOKER}), designate_set_wilds=True)
DOUBLE = MeldRules(ace=AceModel.HIGH_OR_LOW, set_max=None, set_distinct_suits=False,
                   wilds=frozenset({JOKER}))
CONTINENTAL = MeldRules(ace=AceModel.HIGH_OR_LOW, sets=False, wilds=TWOS | {JOKER})
GERMAN = MeldRules(ace=AceModel.HIGH_OR_LOW, wilds=frozenset({JOKER}),
                   wilds_at_most_naturals=True, designate_set_wilds=True)
NOWRANG = MeldRules(ace=AceModel.HIGH_ONLY, sets=False)

# family: (rules, packs, jokers)
FAMILIES = {
    "standard": (STANDARD, 1, 0),
    "wrap": (WRAP, 1, 0),
    "kaluki": (KALUKI, 2, 4),
    "double_rum": (DOUBLE, 2, 4),
    "continental": (CONTINENTAL, 3, 3),
    "german": (GERMAN, 2, 6),
    "nowrang": (NOWRANG, 1, 0),
}


def value(code: str) -> int:
    if code == JOKER:
        return 25
    rank = rank_of(code)
    return 15 if rank == 1 else min(rank, 10)


# --- the independent brute force ----------------------------------------------------------


def _accepts(listing: Sequence[str], rules: MeldRules) -> bool:
    try:
        form_meld([parse_entry(x) for x in listing], rules)
    except RuleError:
        return False
    return True


@cache
def is_meld(cards: tuple[str, ...], rules: MeldRules) -> bool:
    """Whether the multiset ``cards`` can be listed as a valid meld (tries every listing)."""
    if len(cards) < 3:
        return False
    capable = [i for i, c in enumerate(cards) if c in rules.wilds and c != JOKER]
    for as_wild in product((False, True), repeat=len(capable)):
        wild_idx = {i for i, w in zip(capable, as_wild) if w}
        wilds = [c for i, c in enumerate(cards) if c == JOKER or i in wild_idx]
        naturals = [c for i, c in enumerate(cards) if c != JOKER and i not in wild_idx]
        if not naturals:
            continue
        if rules.sets and len({rank_of(c) for c in naturals}) == 1:
            rank = RANKS[rank_of(naturals[0]) - 1]
            designs = (product(SUITS, repeat=len(wilds)) if set(wilds) - {JOKER}
                       else combinations_with_replacement(SUITS, len(wilds)))
            for suits in designs:
                if any(w == rank + s for w, s in zip(wilds, suits)):
                    continue  # a two standing for itself is tried as a natural
                listing = naturals + [f"{w}:{rank}{s}" for w, s in zip(wilds, suits)]
                if _accepts(listing, rules):
                    return True
        if rules.runs and len({c[1] for c in naturals}) == 1:
            suit = naturals[0][1]
            for start in range(1, 15):
                slots = [make_code(start + i, suit) for i in range(len(cards))]
                left = Counter(naturals)
                spare = list(wilds)
                listing = []
                for code in slots:
                    if left[code]:
                        left[code] -= 1
                        listing.append(code)
                    elif spare:
                        wild = spare.pop()
                        if wild == code:
                            break
                        listing.append(f"{wild}:{code}")
                    else:
                        break
                else:
                    if not +left and not spare and _accepts(listing, rules):
                        return True
    return False


def brute(cards: list[str], rules: MeldRules) -> tuple[int, dict[int, set[tuple[int, ...]]]]:
    """(least deadwood value, {mask of cards left out: meld-size patterns covering the rest})."""
    cards = sorted(cards)
    n = len(cards)
    full = (1 << n) - 1
    melds_by_low: dict[int, list[int]] = {i: [] for i in range(n)}
    for mask in range(1, full + 1):
        if mask.bit_count() >= 3:
            sub = tuple(cards[i] for i in range(n) if mask >> i & 1)
            if is_meld(sub, rules):
                melds_by_low[(mask & -mask).bit_length() - 1].append(mask)
    best: dict[int, int] = {0: 0}
    covers: dict[int, set[tuple[int, ...]]] = {0: {()}}

    def least(mask: int) -> int:
        if mask not in best:
            low = (mask & -mask).bit_length() - 1
            options = [value(cards[low]) + least(mask & ~(1 << low))]
            options += [least(mask & ~m) for m in melds_by_low[low] if m & mask == m]
            best[mask] = min(options)
        return best[mask]

    def cover(mask: int) -> set[tuple[int, ...]]:
        if mask not in covers:
            low = (mask & -mask).bit_length() - 1
            out: set[tuple[int, ...]] = set()
            for m in melds_by_low[low]:
                if m & mask == m:
                    size = m.bit_count()
                    out |= {tuple(sorted((*p, size))) for p in cover(mask & ~m)}
            covers[mask] = out
        return covers[mask]

    left_out = {0: cover(full)} | {1 << i: cover(full & ~(1 << i)) for i in range(n)}
    return least(full), left_out


# --- checks of solver output --------------------------------------------------------------


def check_melds(melds: Sequence[Sequence[str]], rules: MeldRules) -> list[str]:
    """Every meld passes form_meld; returns the physical cards used."""
    used = []
    for meld in melds:
        form_meld([parse_entry(x) for x in meld], rules)
        used += [parse_entry(x)[0] for x in meld]
    return used


def check_arrangement(arr: Arrangement, hand: list[str], rules: MeldRules) -> None:
    used = check_melds(arr.melds, rules)
    assert Counter(used) + Counter(arr.deadwood) == Counter(hand)
    assert arr.deadwood_value == sum(value(c) for c in arr.deadwood)


def deal(rng: random.Random, packs: int, jokers: int, size: int) -> list[str]:
    """A random hand: often from a narrow slice of the pack or built from planted melds (dense in
    melds), and rich in wild cards."""
    pack = standard_pack(packs)
    wild = min(jokers, rng.choice([0, 0, 1, 1, 2, 3, 4]))
    mode = rng.random()
    if mode < 0.3:
        hand: list[str] = []
        while len(hand) < size - wild:
            if rng.random() < 0.5:
                suit, start = rng.choice(SUITS), rng.randint(1, 12)
                hand += [make_code(start + i, suit) for i in range(rng.randint(3, 4))]
            else:
                rank = RANKS[rng.randint(0, 12)]
                hand += [rank + s for s in rng.sample(SUITS, rng.randint(3, 4))]
        hand = hand[:size - wild - rng.randint(0, 1)]
        hand += rng.sample(pack, size - wild - len(hand))
        return [JOKER] * wild + hand
    if mode < 0.7:
        low = rng.randint(1, 10)
        ranks = {((low + i - 1) % 13) + 1 for i in range(rng.randint(3, 5))} | {1}
        suits = rng.sample(SUITS, rng.randint(1, 3))
        pack = [c for c in pack if rank_of(c) in ranks and c[1] in suits]
    if len(pack) < size:
        pack = standard_pack(packs)
    return [JOKER] * wild + rng.sample(pack, size - wild)


SIZE_PATTERNS = [[[3, 3]], [[4, 3]], [[3, 3], [4, 4]], [[5, 3], [3, 3, 3]], [[6, 3], [4, 4]]]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_against_brute_force(family: str) -> None:
    rules, packs, jokers = FAMILIES[family]
    rng = random.Random(f"solver-{family}")
    wholes = leaves = 0
    for _ in range(2000):
        hand = deal(rng, packs, jokers, rng.randint(6, 8))
        least, left_out = brute(hand, rules)
        arr = best_arrangement(hand, rules, value)
        check_arrangement(arr, hand, rules)
        assert arr.deadwood_value == least, (hand, arr, least)
        assert best_arrangement(list(reversed(hand)), rules, value) == arr  # deterministic

        cards = sorted(hand)
        banned = rng.choice(cards)
        may = (lambda c, banned=banned: c != banned) if rng.random() < 0.5 else None
        sizes = rng.choice(SIZE_PATTERNS) if rng.random() < 0.3 else None
        allowed = None if sizes is None else {tuple(sorted(p)) for p in sizes}

        def fits(patterns: set[tuple[int, ...]],
                 allowed: set[tuple[int, ...]] | None = allowed) -> bool:
            return bool(patterns) if allowed is None else bool(patterns & allowed)

        can_whole = fits(left_out[0])
        can_leave = any(fits(p) for mask, p in left_out.items()
                        if mask and (may is None or may(cards[mask.bit_length() - 1])))
        found = whole_hand(hand, rules, leave_one=False, sizes=sizes)
        assert (found is not None) == can_whole, (hand, sizes, found)
        if found is not None:
            wholes += 1
            assert found[1] is None
            assert Counter(check_melds(found[0], rules)) == Counter(hand)
            if allowed is not None:
                assert tuple(sorted(len(m) for m in found[0])) in allowed
        found = whole_hand(hand, rules, leave_one=True, sizes=sizes, may_discard=may)
        assert (found is not None) == (can_leave or can_whole), (hand, sizes, found)
        if found is not None:
            melds, discard = found
            assert (discard is not None) == can_leave
            leaves += discard is not None
            rest = Counter(hand) - Counter([discard] if discard else [])
            assert Counter(check_melds(melds, rules)) == rest
            if discard is not None and may is not None:
                assert may(discard)
            if allowed is not None:
                assert tuple(sorted(len(m) for m in melds)) in allowed
    assert wholes > 40 and leaves > 80  # the sample reaches the interesting cases


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_usable_in_meld_against_brute_force(family: str) -> None:
    rules, packs, jokers = FAMILIES[family]
    rng = random.Random(f"usable-{family}")
    hits = 0
    for _ in range(300):
        hand = deal(rng, packs, jokers, rng.randint(4, 7))
        card = rng.choice(standard_pack(packs, jokers))
        expected = any(is_meld(tuple(sorted([card, *sub])), rules)
                       for mask in range(1, 1 << len(hand)) if mask.bit_count() >= 2
                       for sub in [[c for i, c in enumerate(hand) if mask >> i & 1]])
        assert usable_in_meld(card, hand, rules) == expected, (card, hand)
        hits += expected
    assert hits > 15


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_big_hands_are_consistent(family: str) -> None:
    """16 cards from up to 4 packs with up to 6 wilds: valid output, and a zero-deadwood best
    arrangement exactly when the whole hand melds."""
    rules, packs, jokers = FAMILIES[family]
    rng = random.Random(f"big-{family}")
    for _ in range(150):
        hand = deal(rng, max(packs, rng.randint(1, 4)), 6, 16)
        arr = best_arrangement(hand, rules, value)
        check_arrangement(arr, hand, rules)
        found = whole_hand(hand, rules, leave_one=False)
        assert (found is not None) == (arr.deadwood_value == 0), hand
        if found is not None:
            assert Counter(check_melds(found[0], rules)) == Counter(hand)


# --- known hands --------------------------------------------------------------------------


def split(text: str) -> list[str]:
    return text.split()


def arrangement(hand: str, rules: MeldRules,
                worth: Callable[[str], int] = value) -> Arrangement:
    cards = hand.split()
    arr = best_arrangement(cards, rules, worth)
    check_arrangement(arr, cards, rules) if worth is value else None
    return arr


def test_standard_hand_prefers_the_cheaper_deadwood() -> None:
    arr = arrangement("7H 7C 7D 8H 9H KS", STANDARD)
    # 7C 7D 7H as a set leaves 8H 9H KS = 27; 7H 8H 9H as a run leaves 7C 7D KS = 24
    assert arr.deadwood_value == 24
    assert arr.melds == (("7H", "8H", "9H"),)
    assert sorted(arr.deadwood) == ["7C", "7D", "KS"]


def test_no_meld_and_empty_hand() -> None:
    assert arrangement("2C 5D 9H KS", STANDARD) == Arrangement((), ("2C", "5D", "9H", "KS"), 26)
    assert arrangement("", STANDARD) == Arrangement((), (), 0)


def test_ace_models() -> None:
    assert arrangement("QH KH AH", STANDARD).deadwood_value == 35
    assert arrangement("QH KH AH", KALUKI).melds == (("QH", "KH", "AH"),)
    assert arrangement("AH 2H 3H", KALUKI).melds == (("AH", "2H", "3H"),)
    assert arrangement("KH AH 2H", KALUKI).deadwood_value == 27
    assert arrangement("KH AH 2H", WRAP).melds == (("KH", "AH", "2H"),)
    assert arrangement("AH 2H 3H", NOWRANG).deadwood_value == 20
    assert arrangement("QH KH AH", NOWRANG).melds == (("QH", "KH", "AH"),)


def test_jokers_are_designated_and_dumped_into_melds() -> None:
    arr = arrangement("JK 7H 9H JK 4C 4D", KALUKI)
    assert arr.deadwood_value == 0
    assert sorted(arr.melds) == [("4C", "4D", "JK:4H"), ("7H", "JK:8H", "9H")]
    arr = arrangement("JK JK 5S", KALUKI)  # a lone natural carries two jokers
    assert arr.deadwood == () and arr.melds == (("5S", "JK:6S", "JK:7S"),)
    arr = arrangement("JK JK JK QS KS", KALUKI)  # the extra joker goes below Q-K-A
    assert arr.deadwood == () and arr.melds == (("JK:TS", "JK:JS", "QS", "KS", "JK:AS"),)


def test_leftover_joker_when_no_room() -> None:
    arr = arrangement("JK JK JK 5S", GERMAN)  # German: no more wilds than naturals
    assert arr.melds == () and arr.deadwood_value == 3 * 25 + 5
    arr = arrangement("JK JK 5S 6S", GERMAN)
    assert arr.melds == (("5S", "6S", "JK:7S", "JK:8S"),) and arr.deadwood == ()
    arr = arrangement("JK 5S 5H 5D 5C", KALUKI)  # a full set has no room: the 5S is cheaper
    assert arr.deadwood == ("5S",) and arr.melds == (("5C", "5D", "5H", "JK:5S"),)


def test_double_rum_sets_of_identical_cards() -> None:
    arr = arrangement("7H 7H 7H JK JK", DOUBLE)
    assert arr.deadwood == ()
    assert arr.melds[0][:3] == ("7H", "7H", "7H")
    assert arrangement("7H 7H 7H", KALUKI).deadwood_value == 21


def test_twos_wild_as_natural_or_wild() -> None:
    arr = arrangement("AH 2H 3H", CONTINENTAL)
    assert arr.melds == (("AH", "2H", "3H"),)  # the two as itself
    arr = arrangement("5C 2D 7C", CONTINENTAL)
    assert arr.melds == (("5C", "2D:6C", "7C"),)
    arr = arrangement("9S TS 2C 2D", CONTINENTAL)
    assert arr.deadwood_value == 0 and len(arr.melds) == 1


def test_whole_hand_and_sizes() -> None:
    hand = split("3H 4H 5H 6H 9C 9D 9S KD")
    assert whole_hand(hand, STANDARD, leave_one=False) is None
    melds, discard = whole_hand(hand, STANDARD, leave_one=True) or ((), None)
    assert discard == "KD" and sorted(melds) == [("3H", "4H", "5H", "6H"), ("9C", "9D", "9S")]
    assert whole_hand(hand, STANDARD, leave_one=True, may_discard=lambda c: c != "KD") is None
    # leave_one prefers leaving a card; the whole hand is the fallback
    seven = split("3H 4H 5H 6H 9C 9D 9S")
    assert whole_hand(seven, STANDARD, leave_one=True) is not None
    melds, discard = whole_hand(seven, STANDARD, leave_one=True) or ((), None)
    assert discard in ("3H", "6H")
    melds, discard = whole_hand(seven, STANDARD, leave_one=False) or ((), "?")
    assert discard is None and len(melds) == 2
    # Nowrang: one 4-card run and two 3-card runs out of eleven cards
    eleven = split("2C 3C 4C 5C 7D 8D 9D JS QS KS AS")
    found = whole_hand(eleven, NOWRANG, leave_one=True, sizes=[[4, 3, 3]])
    assert found is not None
    melds, discard = found
    assert discard in ("2C", "5C", "JS", "AS")
    assert sorted(len(m) for m in melds) == [3, 3, 4]
    assert whole_hand(eleven, NOWRANG, leave_one=True, sizes=[[3, 3, 3]]) is None  # 10 cards
    assert whole_hand(eleven, NOWRANG, leave_one=True, sizes=[[5, 5]]) is None


def test_continental_pattern_with_jokers_and_twos() -> None:
    hand = split("3H 4H 5H 6H 7H 9C TC JC QC 4S 2D 6S JK 8D 9D KS")
    found = whole_hand(hand, CONTINENTAL, leave_one=True,
                       sizes=[[5, 4, 3, 3], [4, 4, 4, 3], [3, 3, 3, 3, 3]])
    assert found is not None
    melds, discard = found
    assert discard == "KS"
    check_melds(melds, CONTINENTAL)
    assert sorted(len(m) for m in melds) in ([3, 3, 4, 5], [3, 4, 4, 4], [3, 3, 3, 3, 3])


def test_joker_may_be_the_discard() -> None:
    found = whole_hand(split("JK 5C 6C 7C"), KALUKI, leave_one=True,
                       may_discard=lambda c: c == JOKER)
    assert found == ((("5C", "6C", "7C"),), JOKER)


def test_usable_in_meld() -> None:
    assert usable_in_meld("7H", ["7C", "7D", "KS"], STANDARD)
    assert usable_in_meld("7H", ["8H", "9H"], STANDARD)
    assert not usable_in_meld("7H", ["7C", "8H", "KS"], STANDARD)
    assert not usable_in_meld("AH", ["KH", "QH"], STANDARD)
    assert usable_in_meld("7H", ["JK", "JK"], KALUKI)
    assert not usable_in_meld("7H", ["JK", "KS"], KALUKI)
    assert usable_in_meld(JOKER, ["7H", "8H"], KALUKI)
    assert not usable_in_meld(JOKER, ["7H", "KS"], GERMAN)


def test_candidate_melds_and_arrange_all() -> None:
    assert ("7C", "7D", "7H") in candidate_melds(["7C", "7D", "7H", "8H", "9H"], STANDARD)
    assert ("7H", "8H", "9H") in candidate_melds(["7C", "7D", "7H", "8H", "9H"], STANDARD)
    assert ("QH", "KH", "AH") in candidate_melds(["QH", "KH", "AH"], KALUKI)
    assert ("KH", "AH", "2H") in candidate_melds(["KH", "AH", "2H"], WRAP)
    assert candidate_melds(["KH", "AH", "2H"], KALUKI) == []
    found = arrange_all(["7C", "7D", "7H", "8H", "9H", "TH", "2S"], STANDARD, leave_one=True)
    assert found == ([("7C", "7D", "7H"), ("8H", "9H", "TH")], "2S")
    assert arrange_all(["7C", "7D", "7H", "8H"], STANDARD, leave_one=False) is None
