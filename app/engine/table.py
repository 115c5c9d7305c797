"""Handlers for moves on the table: meld, lay off, borrow, exchange a joker, declare, knock."""

from __future__ import annotations

from collections import Counter

from ..refusals import Code
from . import phom, scoring
from .actions import Borrow, Declare, Knock, LayOff, MeldAction, SwapJoker
from .cards import JOKER
from .errors import IllegalAction
from .flow import (
    Events,
    after_table_move,
    discardable,
    finish,
    go_out,
    meld_at,
    place_meld,
    remove_from_hand,
)
from .melds import Entry, Meld, extend_meld, form_meld, wild_places
from .rules import GameRules
from .solver import usable_in_meld
from .state import State


def check_may_lay_off(st: State, seat: int) -> None:
    if st.rules.options.layoff_requires_meld and not st.opened[seat]:  # OPT-LAYOFF-1
        raise IllegalAction(Code.MUST_MELD_FIRST, "lay a meld of your own before laying off")
    if st.rules.game.initial_meld and not st.opened[seat]:  # KALUKI-6, GERMAN-7
        raise IllegalAction(Code.MUST_MELD_FIRST, "make your initial meld before laying off")


def _played_jokers(st: State, cards: list[str]) -> None:
    """GERMAN-8: jokers put on the table count against the exchanged jokers still to play."""
    st.jokers_to_play = max(0, st.jokers_to_play - cards.count(JOKER))


def _formed(entries: tuple[Entry, ...], rules: GameRules, seat: int) -> Meld:
    """GEN-3: ``form_meld``, whose ``invalid_meld`` names the listing that is no meld."""
    try:
        return form_meld(entries, rules.meld, owner=seat)
    except IllegalAction as exc:
        if exc.code != Code.INVALID_MELD:
            raise
        raise IllegalAction(exc.code, exc.message, {"cards": [c for c, _ in entries]}) from None


def _lay_new_melds(st: State, seat: int, listed: tuple[tuple[Entry, ...], ...]) -> list[Meld]:
    melds = [_formed(m, st.rules, seat) for m in listed]
    if st.rules.options.one_meld_per_turn and st.melds_this_turn + len(melds) > 1:
        raise IllegalAction(Code.ONE_MELD_PER_TURN, "only one new meld per turn")  # OPT-ONEMELD-1
    placed = [place_meld(st, meld) for meld in melds]
    st.melds_this_turn += len(melds)
    st.opened[seat] = True
    st.tabled[seat] = True
    st.acted = True
    return placed


def meld(st: State, seat: int, act: MeldAction, events: Events) -> None:
    if not act.melds:
        raise IllegalAction(Code.INVALID_MELD, "list at least one meld")
    cards = [c for m in act.melds for c, _ in m]
    remove_from_hand(st, seat, cards)
    opening = not st.opened[seat]
    placed = _lay_new_melds(st, seat, act.melds)
    minimum = st.rules.game.initial_meld
    if minimum and opening:  # the minimum first: a too-low opening fails whatever it uses
        points = sum(st.rules.game.meld_points(m) for m in placed)
        if points < minimum:  # KALUKI-5, GERMAN-6
            raise IllegalAction(Code.INITIAL_MELD_TOO_LOW,
                                f"your first meld must be worth {minimum}; this is {points}",
                                {"need": minimum, "points": points})
    if opening and st.must_use is not None and st.must_use not in cards:
        raise IllegalAction(Code.MUST_USE_TAKEN_CARD,
                            f"your opening must use the {st.must_use} you took",
                            {"card": st.must_use})  # KALUKI-6
    st.must_use = None
    _played_jokers(st, cards)
    events.append({"type": "meld", "seat": seat, "melds": [m.to_json() for m in placed]})
    after_table_move(st, seat, events)


def lay_off(st: State, seat: int, act: LayOff, events: Events) -> None:
    if st.rules.game.phom:
        phom.check_lay_off(st, seat, act.meld)
    else:
        check_may_lay_off(st, seat)
    target = meld_at(st, act.meld)
    cards = [c for c, _ in act.cards]
    remove_from_hand(st, seat, cards)
    if st.rules.game.phom and not st.hands[seat]:  # PHOM-9: the fourth turn ends with a discard
        raise IllegalAction(Code.MUST_KEEP_DISCARD, "keep a card to discard")
    try:
        st.melds[act.meld] = laid_off(target, list(act.cards), st.rules)
    except IllegalAction as exc:
        raise misfit(exc, target, list(act.cards), st.rules) from None
    st.tabled[seat] = True
    st.acted = True
    _played_jokers(st, cards)
    events.append({"type": "lay_off", "seat": seat, "meld": act.meld, "cards": cards,
                   "result": st.melds[act.meld].to_json()})
    after_table_move(st, seat, events)


def misfit(exc: IllegalAction, meld: Meld, entries: list[Entry],
           rules: GameRules) -> IllegalAction:
    """A refused lay-off (GEN-10) naming the meld and the first card that fits it on its own
    neither (``card`` absent when each fits alone but not all together)."""
    if exc.code != Code.INVALID_MELD:
        return exc
    fields: dict[str, object] = {"meld": meld.id}
    for entry in entries:
        try:
            laid_off(meld, [entry], rules)
        except IllegalAction as alone:
            if alone.code == Code.INVALID_MELD:
                fields["card"] = entry[0]
                break
    return IllegalAction(exc.code, exc.message, fields)


def laid_off(meld: Meld, entries: list[Entry], rules: GameRules) -> Meld:
    """GEN-10 with DOUBLE-6: ``meld`` with ``entries`` laid off, or raise (the one check used
    by lay-offs and by Rummy calls)."""
    if rules.game.end_joker_moves:
        meld, entries = _move_end_joker(meld, entries, rules)
    return extend_meld(meld, entries, rules.meld) if entries else meld


def _move_end_joker(meld: Meld, entries: list[Entry],
                    rules: GameRules) -> tuple[Meld, list[Entry]]:
    """DOUBLE-6: the natural card an end joker stands for replaces it; the joker moves to the
    other end of the run and stands for the next rank beyond it."""
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
        moved = form_meld(listing, rules.meld, owner=meld.owner)  # invalid past the ace
        moved = Meld(moved.kind, moved.cards, meld.owner, moved.start, id=meld.id)
        return moved, entries[:index] + entries[index + 1:]
    return meld, entries


def borrow(st: State, seat: int, act: Borrow, events: Events) -> None:
    source = meld_at(st, act.meld)
    if source.owner != seat and not st.rules.options.borrowing_any_meld:  # OPT-BORROW-1
        raise IllegalAction(Code.NOT_YOUR_MELD, "you may borrow only from a meld you laid")
    st.melds[act.meld] = _without_card(source, act.card)
    into = list(act.into)
    position = next((i for i, (c, _) in enumerate(into) if c == act.card), None)
    if position is None:
        raise IllegalAction(Code.INVALID_MELD, f"the new meld must include the borrowed {act.card}")
    hand_part = into[:position] + into[position + 1:]
    if len(hand_part) < 2:  # OPT-BORROW-3
        raise IllegalAction(Code.INVALID_MELD, "use the borrowed card with at least two of yours")
    remove_from_hand(st, seat, [c for c, _ in hand_part])
    _lay_new_melds(st, seat, (tuple(into),))
    events.append({"type": "borrow", "seat": seat, "from": act.meld, "card": act.card,
                   "meld": st.melds[-1].to_json()})
    after_table_move(st, seat, events)


def _without_card(meld: Meld, card: str) -> Meld:
    """OPT-BORROW-2: the meld giving up ``card`` must stay valid (a run loses only an end)."""
    codes = meld.codes
    if card not in codes:
        raise IllegalAction(Code.CARD_NOT_IN_MELD, f"{card} is not in meld {meld.id}")
    if len(codes) <= 3:
        raise IllegalAction(Code.CANNOT_BORROW, "a meld of three cards cannot give up a card")
    if meld.kind == "run":
        if codes[0] == card:
            return Meld("run", meld.cards[1:], meld.owner, meld.start + 1, id=meld.id)
        if codes[-1] == card:
            return Meld("run", meld.cards[:-1], meld.owner, meld.start, id=meld.id)
        raise IllegalAction(Code.CANNOT_BORROW, "only an end card of a run may be borrowed")
    index = codes.index(card)
    return Meld("set", meld.cards[:index] + meld.cards[index + 1:], meld.owner, id=meld.id)


def swap_joker(st: State, seat: int, act: SwapJoker, events: Events) -> None:
    """KALUKI-7, GERMAN-8: put the natural card in the wild's place and take the wild."""
    game = st.rules.game
    if game.exchange_needs_opening and not st.opened[seat]:  # GERMAN-7
        raise IllegalAction(Code.MUST_MELD_FIRST, "make your initial meld before exchanging")
    if not game.exchange_needs_opening and st.acted:  # KALUKI-7
        raise IllegalAction(Code.SWAP_TOO_LATE,
                            "exchange jokers after drawing, before melding or laying off")
    target = meld_at(st, act.meld)
    index = next((i for i, p in enumerate(target.cards)
                  if p.is_wild and p.stands_for == act.card), None)
    if index is None:
        raise IllegalAction(Code.NO_JOKER_FOR_CARD,
                            f"no wild in meld {act.meld} stands for {act.card}")
    if act.card == st.must_use and st.hands[seat].count(act.card) <= 1:  # KALUKI-6
        raise IllegalAction(Code.MUST_USE_TAKEN_CARD,
                            f"your opening must use the {act.card} you took", {"card": act.card})
    remove_from_hand(st, seat, [act.card])
    wild = target.cards[index]
    cards = list(target.cards)
    cards[index] = type(wild)(act.card, act.card)
    st.melds[act.meld] = Meld(target.kind, tuple(cards), target.owner, target.start,
                              id=target.id)
    st.hands[seat].append(wild.card)
    if game.joker_must_be_played:
        st.jokers_to_play += 1
        if not _joker_playable(st, seat, wild.card):  # GERMAN-8 with the GEN-8 corollary
            raise IllegalAction(Code.JOKER_UNPLAYABLE,
                                "you could not play that joker and still discard this turn")
    events.append({"type": "swap_joker", "seat": seat, "meld": act.meld, "card": act.card})


def _joker_playable(st: State, seat: int, joker: str) -> bool:
    """Could the exchanged ``joker`` go on the table this turn with a discard still left?"""
    rest = list(st.hands[seat])
    rest.remove(joker)
    hand, st.hands[seat] = st.hands[seat], rest
    try:
        if not discardable(st, seat):
            return False
    finally:
        st.hands[seat] = hand
    for meld in st.melds:
        for entry in wild_places(joker, meld):
            try:
                extend_meld(meld, [entry], st.rules.meld)
            except IllegalAction:
                continue
            return True
    return len(rest) >= 3 and usable_in_meld(joker, rest, st.rules.meld)


def declare(st: State, seat: int, act: Declare, events: Events) -> None:
    """OPT-COMPLETE-1, BOAT-5, CONT-6, QUEEN-2, PHOM-8, NOWRANG-6: the whole hand at once."""
    rules = st.rules
    if act.discard is None and rules.mandatory_discard:
        raise IllegalAction(Code.MUST_KEEP_DISCARD, "declare with a discard")
    cards = [c for m in act.melds for c, _ in m]
    expected = Counter(st.hands[seat])
    if act.discard is not None:
        if act.discard not in discardable(st, seat):
            raise IllegalAction(Code.CANNOT_DISCARD_TAKEN_CARD if act.discard in expected
                                else Code.CARD_NOT_IN_HAND, f"you cannot discard {act.discard}")
        expected[act.discard] -= 1
    if Counter(cards) != +expected:
        raise IllegalAction(Code.DECLARE_INCOMPLETE,
                            "the declared melds must hold every card of your hand")
    sizes = sorted((len(m) for m in act.melds), reverse=True)
    patterns = rules.game.declare_sizes
    if patterns and tuple(sizes) not in patterns:
        raise IllegalAction(Code.WRONG_PATTERN, "declare melds of the sizes "
                            + " or ".join("-".join(map(str, p)) for p in patterns))
    melds = [form_meld(m, rules.meld, owner=seat) for m in act.melds]
    if rules.game.phom:
        phom.check_declared_locks(st, seat, melds)
    placed = [place_meld(st, m) for m in melds]
    remove_from_hand(st, seat, cards)
    events.append({"type": "declare", "seat": seat, "melds": [m.to_json() for m in placed],
                   "discard": act.discard})
    if act.discard is not None:
        remove_from_hand(st, seat, [act.discard])
        st.discard.append(act.discard)
    go_out(st, seat, events)


def knock(st: State, seat: int, act: Knock, events: Events) -> None:
    """KNOCK-4: discard and end the hand at once."""
    if act.discard in st.hands[seat] and act.discard not in discardable(st, seat):
        raise IllegalAction(Code.CANNOT_DISCARD_TAKEN_CARD,
                            f"{act.discard} was taken from the discard pile this turn")
    remove_from_hand(st, seat, [act.discard])
    st.discard.append(act.discard)
    events.append({"type": "knock", "seat": seat, "discard": act.discard})
    finish(st, scoring.knock_result(st, seat), events)
