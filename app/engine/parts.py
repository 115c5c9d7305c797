"""The parts a game's definition names where games differ (issue 20, STYLE habit 2).

Each part answers the few questions the engine asks at one place in a turn: ``take`` (may this
discard be taken, and what taking it does), ``order`` (who deals after a win, whether a
declaration may come before the draw), ``end_jokers`` (what an end joker of a run may do),
``exchange`` (joker exchanges) and ``hand_end`` (how a hand ends besides going out). Every game
names one of each (``GameDef`` gives the plain part by default), so the engine asks the part and
never which game it is. Parts hold no state: they are answers, shared by every match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..refusals import Code
from .errors import IllegalAction
from .melds import Entry, Meld, MeldRules, form_meld
from .opening import can_open_with
from .solver import best_arrangement

if TYPE_CHECKING:
    from .options import Options
    from .state import State

# --- the take ---------------------------------------------------------------------------------


class Take:
    """GEN-7, STD-7: the top discard may be taken as it is, one card, with nothing more to it
    (the plain part, ``TAKE_ONE``)."""

    def check(self, st: State, seat: int, card: str) -> None:
        """Raise if ``seat`` may not take ``card`` from the discard pile now."""

    def took(self, st: State, seat: int, card: str) -> None:
        """What taking ``card`` (verified) does besides moving it into the hand."""

    def takes_second(self, st: State) -> bool:
        """After the first draw of a turn, from the discard pile: is a second card drawn?"""
        return False

    def melds_only(self, st: State, seat: int) -> bool:
        """Is every take ``seat`` may make now one that melds (so a bot takes what it may)?"""
        return False


TAKE_ONE = Take()


class TakeTwo(Take):
    """BOAT-2: the top discard comes with a second card, from the stock or the discard pile."""

    def takes_second(self, st: State) -> bool:
        return bool(st.stock or st.discard)  # Resolution: if any card is left to take


TAKE_TWO = TakeTwo()


class TakeForOpening(Take):
    """KALUKI-6: before the initial meld, the discard only to use it in that opening."""

    def check(self, st: State, seat: int, card: str) -> None:
        if not st.opened[seat] and not can_open_with(st.hands[seat], card, st.rules):
            raise IllegalAction(Code.CANNOT_USE_DISCARD,
                                f"before opening, take {card} only to use it in a 51 opening")

    def took(self, st: State, seat: int, card: str) -> None:
        if not st.opened[seat]:
            st.must_use = card

    def melds_only(self, st: State, seat: int) -> bool:
        return not st.opened[seat]


TAKE_FOR_OPENING = TakeForOpening()


# --- the order of play ------------------------------------------------------------------------


class Order:
    """GEN-6: the deal passes to the left (to the winner with OPT-WIN-2); GEN-7: a declaration
    comes after the draw (the plain part, ``PLAIN_ORDER``)."""

    def winner_deals(self, options: Options) -> bool:
        """Does the winner of a hand deal the next one?"""
        return options.each_hand_own_game  # OPT-WIN-2

    def may_declare_before_draw(self, st: State, seat: int) -> bool:
        """May ``seat`` declare in the draw phase, before drawing?"""
        return False


PLAIN_ORDER = Order()


class ContinentalOrder(Order):
    """CONT-2: the winner deals the next hand; CONT-6: a player may declare before drawing on
    his own first turn."""

    def winner_deals(self, options: Options) -> bool:
        return True

    def may_declare_before_draw(self, st: State, seat: int) -> bool:
        return st.turns[seat] == 0


CONTINENTAL_ORDER = ContinentalOrder()


# --- end jokers -------------------------------------------------------------------------------


class EndJokers:
    """GEN-10: a lay-off extends a run as it lies; a joker stays where it was placed (the plain
    part, ``FIXED_END_JOKERS``)."""

    def fits(self, card: str, meld: Meld) -> bool:
        """Could ``card`` be laid off on ``meld`` by moving one of its end jokers? (A move
        list's quick filter, asked where the card extends neither end.)"""
        return False

    def move(self, meld: Meld, entries: list[Entry],
             rules: MeldRules) -> tuple[Meld, list[Entry]]:
        """``meld`` and the lay-off's ``entries`` once an end joker has moved (raise if the
        move makes no meld); the entries left to extend the meld with."""
        return meld, entries


FIXED_END_JOKERS = EndJokers()


class EndJokerMoves(EndJokers):
    """DOUBLE-6: the natural card an end joker stands for replaces it; the joker moves to the
    other end of the run and stands for the next rank beyond it."""

    def fits(self, card: str, meld: Meld) -> bool:
        return any(p.is_wild and p.stands_for == card for p in (meld.cards[0], meld.cards[-1]))

    def move(self, meld: Meld, entries: list[Entry],
             rules: MeldRules) -> tuple[Meld, list[Entry]]:
        if meld.kind != "run":
            return meld, entries
        for index, (card, designation) in enumerate(entries):
            if designation is not None:
                continue
            ends = (0, len(meld.cards) - 1)
            end = next((e for e in ends if meld.cards[e].is_wild
                        and meld.cards[e].stands_for == card), None)
            if end is None:
                continue
            joker = meld.cards[end].card
            naturals = [(p.card, p.stands_for if p.is_wild else None) for p in meld.cards]
            naturals[end] = (card, None)
            listing = [(joker, None)] + naturals if end == len(meld.cards) - 1 else naturals + [
                (joker, None)]
            moved = form_meld(listing, rules, owner=meld.owner)  # invalid past the ace
            moved = Meld(moved.kind, moved.cards, meld.owner, moved.start, id=meld.id)
            return moved, entries[:index] + entries[index + 1:]
        return meld, entries


END_JOKER_MOVES = EndJokerMoves()


# --- joker exchange ---------------------------------------------------------------------------


class Exchange:
    """A joker on the table stays there (the plain part, ``NO_EXCHANGE``)."""

    jokers_owed = 0  # how many exchanged jokers the player must play this turn

    def action_types(self) -> frozenset[str]:
        return frozenset()

    def check(self, st: State, seat: int) -> None:
        """Raise if ``seat`` may not exchange a joker now (asked only where the game allows
        the exchange at all: the other checks of the move are the engine's)."""
        raise IllegalAction(Code.NOT_IN_THIS_GAME, "jokers are not exchanged in this game")


NO_EXCHANGE = Exchange()


class ExchangeBeforeMelding(Exchange):
    """KALUKI-7: after drawing, before melding or laying off, a joker on the table may be taken
    for the natural card it stands for."""

    def action_types(self) -> frozenset[str]:
        return frozenset({"swap_joker"})

    def check(self, st: State, seat: int) -> None:
        if st.acted:
            raise IllegalAction(Code.SWAP_TOO_LATE,
                                "exchange jokers after drawing, before melding or laying off")


EXCHANGE_BEFORE_MELDING = ExchangeBeforeMelding()


class ExchangeAfterOpening(ExchangeBeforeMelding):
    """GERMAN-7: only after the initial meld; GERMAN-8: the exchanged joker must be played in
    the same turn (the engine refuses an exchange that could not be, the GEN-8 corollary)."""

    jokers_owed = 1

    def check(self, st: State, seat: int) -> None:
        if not st.opened[seat]:
            raise IllegalAction(Code.MUST_MELD_FIRST, "make your initial meld before exchanging")


EXCHANGE_AFTER_OPENING = ExchangeAfterOpening()


# --- how a hand ends --------------------------------------------------------------------------


class HandEnd:
    """GEN-11: a hand ends when a player goes out (or declares); there is no knock (the plain
    part, ``GOING_OUT``)."""

    def action_types(self) -> frozenset[str]:
        return frozenset()

    def aid(self, st: State, hand: list[str]) -> dict[str, Any]:
        """The seat's own aid for ``hand`` (``aids.seat_aids``)."""
        return {}


GOING_OUT = HandEnd()


class Knocking(HandEnd):
    """KNOCK-4: after drawing, a player may knock, discarding, to end the hand at once; the
    table shows his deadwood."""

    def action_types(self) -> frozenset[str]:
        return frozenset({"knock"})

    def aid(self, st: State, hand: list[str]) -> dict[str, Any]:
        if not hand:
            return {}
        rules = st.rules
        return {"deadwood": best_arrangement(hand, rules.meld, rules.values.of).deadwood_value}


KNOCKING = Knocking()
