"""Enumerating legal moves for clients, bots and tests, from the one source of legality.

``legal_actions`` proposes candidates — every draw, discard and knock; each meld the hand holds
(and the best arrangement's melds together, for initial-meld minimums); every lay-off of one
card, wilds designated at each open place; joker exchanges; borrows; whole-hand declarations
and Phom shows from the solver; every call — and keeps those the moves' own ``verify`` accepts
(:class:`app.engine.game.Judge`), without applying them. Lay-offs and calls of a natural card
are proposed only where the card could extend the meld (its rank for a set, the next card at
either end of a run, or the card an end joker stands for under DOUBLE-6); :func:`candidates` is
the whole unfiltered list. Discards and knocks are listed at once by the modules that verify
them (``accepted_discards``, ``accepted_knocks``): the very cards their checks accept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from . import phom
from .actions import (
    Action,
    Borrow,
    CallRummy,
    Declare,
    Discard,
    Draw,
    Knock,
    LayOff,
    MeldAction,
    Show,
    SwapJoker,
)
from .cards import JOKER, make_code, parse_entry
from .flow import discardable
from .game import Judge, accepted_discards, offered
from .melds import Entry, Meld, MeldRules, run_values, wild_places
from .memo import Memo
from .opening import opening_with
from .solver import Listed, best_arrangement, candidate_melds, whole_hand
from .state import State
from .table import accepted_knocks


def legal_types(st: State, seat: int) -> list[str]:
    """The action types ``seat`` may send now (the view's ``legal``), from the move table."""
    return offered(st, seat)


def legal_draws(st: State, seat: int, types: list[str]) -> dict[str, Any]:
    """Where ``seat`` may draw from now (the view's ``draws``; ``types``: its `legal_types`):
    ``from_stock``, and ``takes``, the discards it may take (the top one; any of the area under
    OPT-THROW). A take can be refused where drawing is legal (KALUKI-6, PHOM-5): a client
    offers only what is accepted. (No key is named ``stock``: views never carry one.)"""
    if "draw" not in types:
        return {"from_stock": False, "takes": []}
    refusal = Judge(st, seat).refusal
    if st.rules.options.throw_down:
        takes = [c for c in dict.fromkeys(st.discard) if refusal(Draw("discard", c)) is None]
    else:
        takes = st.discard[-1:] if refusal(Draw("discard")) is None else []
    return {"from_stock": refusal(Draw("stock")) is None, "takes": takes}


def legal_throws(st: State, seat: int, types: list[str]) -> dict[str, list[str]]:
    """The cards of ``seat``'s hand it may throw now (the view's ``throws``; ``types``: its
    `legal_types`): ``discard`` and ``knock`` (as the knock's discard), each empty unless its
    type is legal. A type can be legal while a card is not (a taken card, Knock's deadwood
    limit), so a client offers a card's action only where the engine accepts it."""
    if "discard" not in types and "knock" not in types:  # another seat's turn, say
        return {"discard": [], "knock": []}
    hand = list(dict.fromkeys(st.hands[seat])) if st.hands else []
    refusal = Judge(st, seat).refusal

    def accepted(kind: str, make: type[Discard] | type[Knock]) -> list[str]:
        return [c for c in hand if refusal(make(c)) is None] if kind in types else []

    return {"discard": accepted("discard", Discard), "knock": accepted("knock", Knock)}


class LegalMoves:
    """The legal actions of one seat in one state, worked out a type at a time when first asked
    for: a computer player that settles on a meld never lists its discards."""

    def __init__(self, st: State, seat: int) -> None:
        self.st = st
        self.seat = seat
        self.types = legal_types(st, seat)
        self._judge = Judge(st, seat)
        self._of: dict[str, list[Action]] = {}

    def of(self, kind: str) -> list[Action]:
        """The legal actions of type ``kind``, in the order ``legal_actions`` lists them."""
        got = self._of.get(kind)
        if got is None:
            got = self._of[kind] = self._work_out(kind)
        return got

    def all(self) -> list[Action]:
        """Every legal action, type by type in the view's order (``legal_actions``)."""
        return [a for kind in _PROPOSERS if kind in self.types for a in self.of(kind)]

    def _work_out(self, kind: str) -> list[Action]:
        if kind not in self.types:
            return []
        accepted = _ACCEPTED.get(kind)
        if accepted is not None:
            found = accepted(self.st, self.seat)
            if found is not None:
                return found
        refusal = self._judge.refusal
        proposed = _PROPOSERS[kind](self.st, self.seat, True)
        return [a for a in dict.fromkeys(proposed) if refusal(a) is None]


def legal_actions(st: State, seat: int) -> list[Action]:
    """Concrete legal actions for ``seat`` (a representative set of table moves)."""
    return LegalMoves(st, seat).all()


def candidates(st: State, seat: int) -> list[Action]:
    """Every candidate ``legal_actions`` considers, before the fit filter and the checks."""
    types = legal_types(st, seat)
    return [a for kind, propose in _PROPOSERS.items() if kind in types
            for a in dict.fromkeys(propose(st, seat, False))]


def _fits(card: str, meld: Meld, st: State) -> bool:
    """Could ``card`` possibly be laid off on ``meld``? (A superset: wild cards always.)"""
    if card == JOKER or card in st.rules.meld.wilds:
        return True
    ends = meld.cards[0].stands_for, meld.cards[-1].stands_for
    if meld.kind == "set":
        return card[0] == ends[0][0]
    suit = ends[0][1]
    if card[1] != suit:
        return False
    first, last = run_values(meld)
    if card == make_code(first - 1, suit) or card == make_code(last + 1, suit):
        return True
    return st.rules.game.end_jokers.fits(card, meld)  # DOUBLE-6: the end joker moves on


_ENTRIES: Memo[Listed, tuple[Entry, ...]] = Memo("moves: listings as entries", 50_000)


def _entries(listed: Listed) -> tuple[Entry, ...]:
    """A solver listing (``"JK:7H"``) as action entries (remembered)."""
    return _ENTRIES.get(listed, _parsed, listed)


def _parsed(listed: Listed) -> tuple[Entry, ...]:
    return tuple(parse_entry(c) for c in listed)


def _hand(st: State, seat: int) -> list[str]:
    return st.hands[seat] if st.hands else []


def _calls(st: State, seat: int, quick: bool) -> Iterator[Action]:
    if st.call is None:
        return
    called, hand = st.call.card, _hand(st, seat)
    wild = called == JOKER or called in st.rules.meld.wilds
    for index, meld in enumerate(st.melds):
        if quick and not _fits(called, meld, st):
            continue
        places = [None, *wild_places(called, meld)] if wild else [None]  # PROTOCOL §3
        for card in sorted(set(hand)):
            for place in places:
                yield CallRummy(index, card, place)


def _draws(st: State, seat: int, quick: bool) -> Iterator[Action]:
    yield Draw("stock")
    if st.rules.options.throw_down:
        yield from (Draw("discard", c) for c in sorted(set(st.discard)))
    elif st.discard:
        yield Draw("discard")


def _melds(st: State, seat: int, quick: bool) -> Iterator[Action]:
    """The best arrangement's melds together (for initial-meld minimums), then each alone and
    each meld the hand holds."""
    hand, rules = _hand(st, seat), st.rules.meld
    best = best_arrangement(hand, rules, st.rules.values.of).melds
    if st.must_use is not None and st.must_use in hand:  # KALUKI-6: the opening needed
        rest = list(hand)
        rest.remove(st.must_use)
        best = opening_with(rest, st.must_use, st.rules) or best
    if best:
        yield MeldAction(tuple(_entries(m) for m in best))
    for listed in [*best, *candidate_melds(hand, rules)]:
        yield MeldAction((_entries(listed),))


def _swaps(st: State, seat: int, quick: bool) -> Iterator[Action]:
    hand = _hand(st, seat)
    for index, meld in enumerate(st.melds):
        for placed in meld.cards:
            if placed.is_wild and placed.stands_for in hand:
                yield SwapJoker(index, placed.stands_for)


def _lay_offs(st: State, seat: int, quick: bool) -> Iterator[Action]:
    hand, rules = _hand(st, seat), st.rules.meld
    for index, meld in enumerate(st.melds):
        for card in sorted(set(hand)):
            if quick and not _fits(card, meld, st):
                continue
            for entry in _placements(card, meld, rules):
                yield LayOff(index, (entry,))


def _knocks(st: State, seat: int, quick: bool) -> Iterator[Action]:
    return (Knock(c) for c in discardable(st, seat))


def _discards(st: State, seat: int, quick: bool) -> Iterator[Action]:
    return (Discard(c) for c in sorted(set(_hand(st, seat))))


def _placements(card: str, meld: Meld, rules: MeldRules) -> list[Entry]:
    """A card laid off as it is, or a wild designated at each place it could fill."""
    if card not in rules.wilds:
        return [(card, None)]
    return [(card, None), *wild_places(card, meld)]


def _borrows(st: State, seat: int, quick: bool) -> Iterator[Action]:
    hand = _hand(st, seat)
    for index, meld in enumerate(st.melds):
        for card in {meld.codes[0], meld.codes[-1]} if meld.kind == "run" else set(meld.codes):
            for new in candidate_melds(hand + [card], st.rules.meld):
                if card in new and len(new) == 3:
                    yield Borrow(index, card, tuple((c, None) for c in new))


def _declarations(st: State, seat: int, quick: bool) -> Iterator[Action]:
    rules, hand = st.rules, _hand(st, seat)
    sizes = [list(p) for p in rules.game.declare_sizes] or None
    may = set(discardable(st, seat))
    for leave_one in (True, False):
        if not leave_one and rules.mandatory_discard:
            continue
        found = whole_hand(hand, rules.meld, leave_one=leave_one, sizes=sizes,
                           may_discard=may.__contains__)
        if found is not None:
            melds, discard = found
            yield Declare(tuple(_entries(m) for m in melds), discard)


def _shows(st: State, seat: int, quick: bool) -> Iterator[Action]:
    """PHOM-9: the best arrangement, or the locked cards' melds plus the best of the rest."""
    rules, hand = st.rules.meld, _hand(st, seat)
    value = st.rules.values.of
    yield Show(tuple(_entries(m) for m in best_arrangement(hand, rules, value).melds))
    locked = phom.lock_melds(hand, st.locked[seat], rules)
    if locked:
        rest = list(hand)
        for meld in locked:
            for card in meld:
                rest.remove(card)
        extra = best_arrangement(rest, rules, value).melds
        yield Show(tuple(_entries(m) for m in [*locked, *extra]))
    yield Show(())


def _accepted_discards(st: State, seat: int) -> list[Action] | None:
    cards = accepted_discards(st, seat)
    return None if cards is None else [Discard(c) for c in cards]


def _accepted_knocks(st: State, seat: int) -> list[Action]:
    return [Knock(c) for c in accepted_knocks(st, seat)]


# The types whose legal actions the moves' own modules list at once where the type is offered
# (None: ask each candidate's verify): the same list as the candidates ``verify`` accepts, a
# check per card fewer (tests/engine/test_legality.py compares the two).
_ACCEPTED: dict[str, Callable[[State, int], list[Action] | None]] = {
    "discard": _accepted_discards,
    "knock": _accepted_knocks,
}

# Each action type's candidates (``quick``: only lay-offs and calls that could fit), in the
# order the move lists give the types.
_PROPOSERS: dict[str, Callable[[State, int, bool], Iterable[Action]]] = {
    "call_rummy": _calls,
    "draw": _draws,
    "declare": _declarations,
    "meld": _melds,
    "swap_joker": _swaps,
    "show": _shows,
    "lay_off": _lay_offs,
    "borrow": _borrows,
    "knock": _knocks,
    "discard": _discards,
}
