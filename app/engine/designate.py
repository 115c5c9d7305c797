"""The valid designations of a group's wild cards (GEN-4), so a client offers only those.

:func:`designations` tries, for each undesignated wild in a group, only the cards it could
stand for (the naturals' rank in each suit, or their suit at each rank) and keeps the
assignments that :func:`form_meld` (a new meld) or :func:`extend_meld` (a lay-off on ``meld``)
accept: the same judge as ``apply``, so an offered designation is never refused for its fit.
:func:`answer` is a client's query of them (docs/server.md), from its card codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import TypedDict

from ..refusals import Code
from .cards import JOKER, SUITS, make_code, parse_code, rank_of, suit_of
from .errors import IllegalAction
from .melds import Entry, Meld, MeldRules, extend_meld, form_meld, wild_places

MAX_OPEN_WILDS = 2  # up to ~30 candidates each: about 1,000 trials, a few milliseconds


class Answer(TypedDict):
    wilds: list[int]  # positions of the cards that may be designated
    options: list[list[str]]  # every valid listing
    valid: bool  # whether the cards can be a meld (or lay off) at all


def answer(cards: Sequence[object], rules: MeldRules, table: Sequence[Meld],
           meld: int | None = None) -> Answer:
    """What the wilds of ``cards`` (card codes, as a client sent them) may stand for, as a new
    meld or laid off on the meld ``meld`` of ``table``: public knowledge, so anyone may ask.
    Raises ``bad_card`` or ``no_such_meld``."""
    codes = [parse_code(c) for c in cards]
    target = None
    if meld is not None:
        if meld >= len(table):
            raise IllegalAction(Code.NO_SUCH_MELD, f"there is no meld {meld} on the table")
        target = table[meld]
    return {"wilds": open_wilds(codes, rules), "options": designations(codes, rules, target),
            "valid": could_meld(codes, rules, target)}


def open_wilds(cards: Sequence[str], rules: MeldRules) -> list[int]:
    """Positions of the cards that may be designated: jokers and the game's wild cards."""
    return [i for i, c in enumerate(cards) if c == JOKER or c in rules.wilds]


def designations(cards: Sequence[str], rules: MeldRules,
                 meld: Meld | None = None) -> list[list[str]]:
    """Every way to designate the wilds (:func:`open_wilds`) of ``cards`` so that they form a
    valid new meld, or lay off on ``meld``: each a listing as an action carries it
    (``"JK:6H"``; a wild-capable two may stand for itself, as a natural). Empty if none fits,
    or there are no wilds or more than ``MAX_OPEN_WILDS`` of them."""
    wild_at = open_wilds(cards, rules)
    if not wild_at or len(wild_at) > MAX_OPEN_WILDS:
        return []
    naturals = [c for i, c in enumerate(cards) if i not in wild_at]
    choices = [_candidates(cards[i], naturals, meld) for i in wild_at]
    found: dict[tuple[str, ...], list[str]] = {}  # one listing per meld, whatever its order
    for combo in product(*choices):
        if len(set(combo)) != len(combo):
            continue
        entries: list[Entry] = [(c, None) for c in cards]
        for i, designation in zip(wild_at, combo):
            entries[i] = (cards[i], designation)
        listing = _accepted(entries, rules, meld)
        if listing is not None:
            codes = [c if d is None or d == c else f"{c}:{d}" for c, d in listing]
            found.setdefault(tuple(sorted(codes)), codes)
    return list(found.values())


def could_meld(cards: Sequence[str], rules: MeldRules, meld: Meld | None = None) -> bool:
    """Whether ``cards`` can be a valid new meld (or lay off on ``meld``) in some order and with
    some designation of their wilds: what a client may stage as a group. True when more than
    ``MAX_OPEN_WILDS`` wilds leave it to the move itself."""
    if len(open_wilds(cards, rules)) > MAX_OPEN_WILDS:
        return True
    entries: list[Entry] = [(c, None) for c in cards]
    try:
        if _accepted(entries, rules, meld, strict=True) is not None:
            return True
    except IllegalAction:  # valid with a designation the player still has to say
        return True
    return bool(designations(cards, rules, meld))


def _accepted(entries: list[Entry], rules: MeldRules, meld: Meld | None,
              strict: bool = False) -> list[Entry] | None:
    """``entries`` as given, or in rank order (ace low, then high), if the judge accepts;
    ``strict``: a ``designation_required`` refusal is raised, not taken for a misfit."""
    if meld is not None:
        try:
            extend_meld(meld, entries, rules)
        except IllegalAction as exc:
            if strict and exc.code == Code.DESIGNATION_REQUIRED:
                raise
            return None
        return entries

    def value(entry: Entry, ace: int) -> int:
        rank = rank_of(entry[1] or entry[0])
        return ace if rank == 1 else rank
    for order in (entries, sorted(entries, key=lambda e: value(e, 1)),
                  sorted(entries, key=lambda e: value(e, 14))):
        try:
            form_meld(order, rules)
        except IllegalAction as exc:
            if strict and exc.code == Code.DESIGNATION_REQUIRED:
                raise
            continue
        return list(order)
    return None


def _candidates(card: str, naturals: list[str], meld: Meld | None) -> list[str]:
    """The cards a wild could stand for beside these naturals (and on this meld): in a set
    their rank in each suit, in a run their suit at each rank."""
    out: list[str] = [card] if card != JOKER else []  # a two played as itself
    if meld is not None:
        out += [d for _, d in wild_places(card, meld) if d is not None]
        naturals = naturals + [meld.cards[0].stands_for]
    ranks = {rank_of(c) for c in naturals}
    suits = {suit_of(c) for c in naturals}
    if len(ranks) == 1 and (meld is None or meld.kind == "set"):
        rank = next(iter(ranks))
        out += [make_code(rank, s) for s in SUITS]
    if len(suits) == 1 and (meld is None or meld.kind == "run"):
        suit = next(iter(suits))
        out += [make_code(r, suit) for r in range(1, 14)]
    return list(dict.fromkeys(out))
