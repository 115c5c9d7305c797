"""Phỏm's own mechanics (PHOM-3..14): four rounds, locked cards, hidden melds and the final show.

:class:`Rounds` is the part a game played in Phỏm's rounds names (``GameDef.rounds``, and
``GameDef.take``); the engine asks it wherever such a game differs and nowhere tests which game
it is.
"""

from __future__ import annotations

from collections import Counter

from ..refusals import Code
from . import scoring
from .actions import Show
from .errors import IllegalAction
from .flow import Events, hand_after, place_meld, remove_from_hand
from .melds import Meld, MeldRules, form_meld
from .options import Options
from .parts import Take
from .solver import candidate_melds
from .state import HandResult, State

LAST_TURN = 4  # PHOM-7: every player has exactly four turns


def _small_melds(cards: list[str], rules: MeldRules) -> list[tuple[str, ...]]:
    """Three-card melds suffice: any meld holding a card contains a three-card one that does."""
    return [m for m in candidate_melds(cards, rules) if len(m) == 3]


def locks_hold(hand: list[str], locked: list[str], rules: MeldRules) -> bool:
    """PHOM-6: disjoint melds in ``hand`` hold every locked card, never two in one meld."""
    return lock_melds(hand, locked, rules) is not None


def lock_melds(hand: list[str], locked: list[str],
               rules: MeldRules) -> list[tuple[str, ...]] | None:
    """Disjoint three-card melds holding each locked card once (PHOM-6), or None. Without a
    locked card there is nothing to hold (every discard check of a seat that took none)."""
    if not locked:
        return []
    return _cover(sorted(locked), Counter(hand), _small_melds(hand, rules), set(locked))


def _cover(todo: list[str], left: Counter[str], melds: list[tuple[str, ...]],
           locked: set[str]) -> list[tuple[str, ...]] | None:
    if not todo:
        return []
    card, rest = todo[0], todo[1:]
    for meld in melds:
        if card in meld and len(locked.intersection(meld)) == 1 and not Counter(meld) - left:
            found = _cover(rest, left - Counter(meld), melds, locked)
            if found is not None:
                return [meld, *found]
    return None


def check_take(st: State, seat: int, card: str) -> None:
    """PHOM-5/6: the discard may be taken only into a meld with two or more hand cards."""
    hand = st.hands[seat] + [card]
    usable = any(card in m for m in _small_melds(hand, st.rules.meld))
    if not usable or not locks_hold(hand, st.locked[seat] + [card], st.rules.meld):
        raise IllegalAction(Code.CANNOT_USE_DISCARD,
                            f"{card} does not complete a meld with two of your cards")


def check_discard(st: State, seat: int, card: str) -> None:
    if st.turns[seat] == LAST_TURN and not st.shown[seat]:
        raise IllegalAction(Code.MUST_SHOW, "show your melds before the last discard")  # PHOM-9
    if card in st.locked[seat]:
        raise IllegalAction(Code.CARD_LOCKED, f"{card} was taken from the discard pile")
    hand = list(st.hands[seat])
    if card in hand:
        hand.remove(card)
    if not locks_hold(hand, st.locked[seat], st.rules.meld):
        raise IllegalAction(Code.BREAKS_LOCKED_MELD,
                            f"discarding {card} leaves a taken card without its meld")


def check_lay_off(st: State, seat: int, index: int) -> None:
    """PHOM-9, PHOM-13: after the show, only onto other players' shown melds."""
    if st.rules.options.no_layoff_on_others:
        raise IllegalAction(Code.NOT_IN_THIS_GAME, "lay-offs are not played in this room")
    if st.turns[seat] != LAST_TURN or not st.shown[seat]:
        raise IllegalAction(Code.MUST_SHOW, "lay off only after your show on your last turn")
    if index < len(st.melds) and st.melds[index].owner == seat:
        raise IllegalAction(Code.CANNOT_LAY_OFF_OWN, "lay off only on other players' melds")


def check_declared_locks(st: State, seat: int, melds: list[Meld]) -> None:
    """PHOM-8: Ù must hold every locked card, at most one in each meld."""
    if len(st.hands[seat]) != 10:
        raise IllegalAction(Code.CANNOT_DECLARE, "declare Ù only while holding ten cards")
    _check_locks_in(st.locked[seat], melds)


def _check_locks_in(locked: list[str], melds: list[Meld]) -> None:
    for meld in melds:
        if len(set(locked).intersection(meld.codes)) > 1:
            raise IllegalAction(Code.TWO_LOCKED_IN_MELD, "a meld may hold only one taken card")
    shown = {c for m in melds for c in m.codes}
    missing = [c for c in locked if c not in shown]
    if missing:
        raise IllegalAction(Code.LOCKED_CARD_NOT_SHOWN,
                            f"taken cards must be in your melds: {' '.join(missing)}")


def verify_show(st: State, seat: int, act: Show) -> None:
    """PHOM-9: on the fourth turn, after drawing, show every meld; no meld may stay in hand."""
    if st.turns[seat] != LAST_TURN:
        raise IllegalAction(Code.NOT_LAST_TURN, "melds are shown on your fourth turn")
    if st.shown[seat]:
        raise IllegalAction(Code.ALREADY_SHOWN, "you have already shown")
    melds = [form_meld(m, st.rules.meld, owner=seat) for m in act.melds]
    left = hand_after(st, seat, [c for m in act.melds for c, _ in m])
    _check_locks_in(st.locked[seat], melds)
    if not left:
        raise IllegalAction(Code.MUST_KEEP_DISCARD, "keep a card to discard (or declare Ù)")
    if candidate_melds(left, st.rules.meld):
        raise IllegalAction(Code.MELD_LEFT_IN_HAND, "show every meld you hold")


def do_show(st: State, seat: int, act: Show, events: Events) -> None:
    remove_from_hand(st, seat, [c for m in act.melds for c, _ in m])
    placed = [place_meld(st, form_meld(m, st.rules.meld, owner=seat)) for m in act.melds]
    st.locked[seat] = []
    st.shown[seat] = True
    st.opened[seat] = bool(placed)
    events.append({"type": "show", "seat": seat, "melds": [m.to_json() for m in placed]})


def hand_complete(st: State) -> bool:
    """PHOM-7: the hand ends after every player's fourth turn."""
    return all(t >= LAST_TURN for t in st.turns)


class Rounds(Take):
    """PHOM-3..14: a hand of four rounds; a taken discard is locked into a meld until the
    fourth turn's show; lay-offs after the show; the hand ends after the fourth turns. The
    game's take is this part too (``GameDef.take``): a take must complete a meld."""

    def action_types(self, options: Options) -> frozenset[str]:
        """PHOM-9, PHOM-13: the show, and lay-offs unless the room plays without them."""
        return frozenset({"show"} | (set() if options.no_layoff_on_others else {"lay_off"}))

    # PHOM-5, PHOM-6, PHOM-9, PHOM-13, PHOM-8: the module's checks, as the part's
    check = staticmethod(check_take)

    def took(self, st: State, seat: int, card: str) -> None:
        """PHOM-5, PHOM-6: the taken card is locked; PHOM-14: the discarder pays one."""
        st.locked[seat].append(card)
        if st.rules.options.discard_penalties:
            st.takes[seat] += 1
            st.hand_scores[(seat - 1) % st.players] -= 1
            st.hand_scores[seat] += 1

    def melds_only(self, st: State, seat: int) -> bool:
        return True  # PHOM-5

    check_discard = staticmethod(check_discard)

    check_lay_off = staticmethod(check_lay_off)

    def check_left_after_lay_off(self, left: list[str]) -> None:
        if not left:  # PHOM-9: the fourth turn ends with a discard
            raise IllegalAction(Code.MUST_KEEP_DISCARD, "keep a card to discard")

    check_declared_locks = staticmethod(check_declared_locks)

    def show_offered(self, st: State, seat: int) -> bool:
        """PHOM-9: the show only on the fourth turn, before it is made."""
        return st.turns[seat] == LAST_TURN and not st.shown[seat]

    def lay_off_offered(self, st: State, seat: int) -> bool:
        """PHOM-9: lay-offs only after the fourth turn's show."""
        return st.turns[seat] == LAST_TURN and st.shown[seat]

    def discard_offered(self, st: State, seat: int) -> bool:
        """PHOM-9: no discard on the fourth turn before the show."""
        return st.turns[seat] != LAST_TURN or st.shown[seat]

    def ended(self, st: State) -> HandResult | None:
        """PHOM-7, PHOM-11: after every player's fourth turn, the showdown's result."""
        return scoring.phom_result(st) if hand_complete(st) else None

    def aid(self, st: State, seat: int, before_turn: bool) -> dict[str, int]:
        """PHOM-7: the round of ``seat``'s turn; a turn counts from its draw (or opening
        discard), so before it the one about to begin."""
        begun = st.turns[seat] + (st.turn == seat and before_turn)
        return {"n": min(max(begun, 1), LAST_TURN), "of": LAST_TURN}


ROUNDS = Rounds()
