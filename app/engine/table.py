"""Moves on the table: meld, lay off, borrow, exchange a joker, declare, knock.

Each move is a ``verify_*`` that raises the precise refusal and changes nothing, and a ``do_*``
that changes the working copy of a verified move (:mod:`.game` pairs them). Whether a listing is
a meld and what a lay-off makes are pure answers, remembered in the engine's memo, so a move
verified and then done works each out once.
"""

from __future__ import annotations

from collections import Counter

from ..refusals import Code
from . import scoring
from .actions import Borrow, Declare, Knock, LayOff, MeldAction, SwapJoker
from .cards import JOKER
from .errors import IllegalAction, RuleError, outcome, raised
from .flow import (
    Events,
    after_table_move,
    blocked,
    check_left,
    discardable,
    finish,
    go_out,
    hand_after,
    meld_at,
    place_meld,
    remove_from_hand,
)
from .melds import Entry, Meld, MeldRules, extend_meld, form_meld, wild_places
from .memo import Memo
from .rules import GameRules
from .solver import usable_in_meld
from .state import State

_FORMED: Memo[object, Meld | RuleError] = Memo("table: listings as melds", 50_000)
_LAID: Memo[object, Meld | RuleError] = Memo("table: lay-offs", 50_000)


def _form(entries: tuple[Entry, ...], rules: MeldRules) -> Meld:
    """GEN-3: ``form_meld``, whose ``invalid_meld`` names the listing that is no meld."""
    try:
        return form_meld(entries, rules)
    except IllegalAction as exc:
        if exc.code != Code.INVALID_MELD:
            raise
        raise IllegalAction(exc.code, exc.message, {"cards": [c for c, _ in entries]}) from None


def formed(entries: tuple[Entry, ...], rules: GameRules, seat: int) -> Meld:
    """The meld ``entries`` list, owned by ``seat``, or its refusal (remembered)."""
    meld = raised(_FORMED.get((entries, rules.meld), outcome, _form, entries, rules.meld))
    return Meld(meld.kind, meld.cards, seat, meld.start)


def check_may_lay_off(st: State, seat: int) -> None:
    if st.rules.options.layoff_requires_meld and not st.opened[seat]:  # OPT-LAYOFF-1
        raise IllegalAction(Code.MUST_MELD_FIRST, "lay a meld of your own before laying off")
    if st.rules.game.initial_meld and not st.opened[seat]:  # KALUKI-6, GERMAN-7
        raise IllegalAction(Code.MUST_MELD_FIRST, "make your initial meld before laying off")


def _played_jokers(st: State, cards: list[str]) -> None:
    """GERMAN-8: jokers put on the table count against the exchanged jokers still to play."""
    st.jokers_to_play = max(0, st.jokers_to_play - cards.count(JOKER))


def _new_melds(st: State, seat: int, listed: tuple[tuple[Entry, ...], ...]) -> list[Meld]:
    melds = [formed(m, st.rules, seat) for m in listed]
    if st.rules.options.one_meld_per_turn and st.melds_this_turn + len(melds) > 1:
        raise IllegalAction(Code.ONE_MELD_PER_TURN, "only one new meld per turn")  # OPT-ONEMELD-1
    return melds


def _lay_new_melds(st: State, seat: int, melds: list[Meld]) -> None:
    for meld in melds:
        place_meld(st, meld)
    st.melds_this_turn += len(melds)
    st.opened[seat] = True
    st.tabled[seat] = True
    st.acted = True


# --- meld -------------------------------------------------------------------------------------

def _meld_cards(act: MeldAction | Declare) -> list[str]:
    return [c for m in act.melds for c, _ in m]


def verify_meld(st: State, seat: int, act: MeldAction) -> None:
    if not act.melds:
        raise IllegalAction(Code.INVALID_MELD, "list at least one meld")
    cards = _meld_cards(act)
    left = hand_after(st, seat, cards)
    melds = _new_melds(st, seat, act.melds)
    opening = not st.opened[seat]
    # KALUKI-6 before KALUKI-5: an opening that leaves out the card just taken is refused for
    # that, whatever its points; the taken card is what the player must change first.
    if opening and st.must_use is not None and st.must_use not in cards:
        raise IllegalAction(Code.MUST_USE_TAKEN_CARD,
                            f"your opening must use the {st.must_use} you took",
                            {"card": st.must_use})
    minimum = st.rules.game.initial_meld
    if minimum and opening:
        points = sum(st.rules.game.meld_points(m) for m in melds)
        if points < minimum:  # KALUKI-5, GERMAN-6
            raise IllegalAction(Code.INITIAL_MELD_TOO_LOW,
                                f"your first meld must be worth {minimum}; this is {points}",
                                {"need": minimum, "points": points})
    check_left(st, seat, left)


def do_meld(st: State, seat: int, act: MeldAction, events: Events) -> None:
    cards = _meld_cards(act)
    remove_from_hand(st, seat, cards)
    first = len(st.melds)
    _lay_new_melds(st, seat, [formed(m, st.rules, seat) for m in act.melds])
    st.must_use = None
    _played_jokers(st, cards)
    events.append({"type": "meld", "seat": seat, "melds": [m.to_json() for m in st.melds[first:]]})
    after_table_move(st, seat, events)


# --- lay off ----------------------------------------------------------------------------------

def laid_off(meld: Meld, entries: list[Entry] | tuple[Entry, ...], rules: GameRules) -> Meld:
    """GEN-10 with DOUBLE-6: ``meld`` with ``entries`` laid off, or raise (the one check used
    by lay-offs and by Rummy calls; remembered, for it does not depend on the meld's number)."""
    entries = tuple(entries)
    got = raised(_LAID.get((meld, entries, rules.meld, rules.game.end_jokers),
                           outcome, _laid_off, meld, entries, rules))
    return Meld(got.kind, got.cards, got.owner, got.start, id=meld.id)


def _laid_off(meld: Meld, entries: tuple[Entry, ...], rules: GameRules) -> Meld:
    meld, listed = rules.game.end_jokers.move(meld, list(entries), rules.meld)  # DOUBLE-6
    return extend_meld(meld, listed, rules.meld) if listed else meld


def verify_lay_off(st: State, seat: int, act: LayOff) -> None:
    rounds = st.rules.game.rounds
    if rounds is not None:
        rounds.check_lay_off(st, seat, act.meld)
    else:
        check_may_lay_off(st, seat)
    target = meld_at(st, act.meld)
    left = hand_after(st, seat, [c for c, _ in act.cards])
    if rounds is not None:
        rounds.check_left_after_lay_off(left)
    try:
        laid_off(target, act.cards, st.rules)
    except IllegalAction as exc:
        raise misfit(exc, target, list(act.cards), st.rules) from None
    check_left(st, seat, left)


def do_lay_off(st: State, seat: int, act: LayOff, events: Events) -> None:
    cards = [c for c, _ in act.cards]
    remove_from_hand(st, seat, cards)
    st.melds[act.meld] = laid_off(st.melds[act.meld], act.cards, st.rules)
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


# --- borrow -----------------------------------------------------------------------------------

def _borrowed_into(act: Borrow) -> list[Entry]:
    """The new meld's cards from the hand (OPT-BORROW-3); refused if it leaves out the card."""
    into = list(act.into)
    position = next((i for i, (c, _) in enumerate(into) if c == act.card), None)
    if position is None:
        raise IllegalAction(Code.INVALID_MELD, f"the new meld must include the borrowed {act.card}")
    return into[:position] + into[position + 1:]


def verify_borrow(st: State, seat: int, act: Borrow) -> None:
    source = meld_at(st, act.meld)
    if source.owner != seat and not st.rules.options.borrowing_any_meld:  # OPT-BORROW-1
        raise IllegalAction(Code.NOT_YOUR_MELD, "you may borrow only from a meld you laid")
    _without_card(source, act.card)
    hand_part = _borrowed_into(act)
    if len(hand_part) < 2:  # OPT-BORROW-3
        raise IllegalAction(Code.INVALID_MELD, "use the borrowed card with at least two of yours")
    left = hand_after(st, seat, [c for c, _ in hand_part])
    _new_melds(st, seat, (act.into,))
    check_left(st, seat, left)


def do_borrow(st: State, seat: int, act: Borrow, events: Events) -> None:
    st.melds[act.meld] = _without_card(st.melds[act.meld], act.card)
    remove_from_hand(st, seat, [c for c, _ in _borrowed_into(act)])
    _lay_new_melds(st, seat, [formed(act.into, st.rules, seat)])
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


# --- exchange a joker -------------------------------------------------------------------------

def _swapped(target: Meld, act: SwapJoker) -> tuple[Meld, str]:
    """The meld with ``act.card`` in the wild's place, and the wild taken; refused if no wild
    of the meld stands for the card."""
    index = next((i for i, p in enumerate(target.cards)
                  if p.is_wild and p.stands_for == act.card), None)
    if index is None:
        raise IllegalAction(Code.NO_JOKER_FOR_CARD,
                            f"no wild in meld {act.meld} stands for {act.card}")
    wild = target.cards[index]
    cards = list(target.cards)
    cards[index] = type(wild)(act.card, act.card)
    return Meld(target.kind, tuple(cards), target.owner, target.start, id=target.id), wild.card


def verify_swap_joker(st: State, seat: int, act: SwapJoker) -> None:
    """KALUKI-7, GERMAN-8: put the natural card in the wild's place and take the wild."""
    exchange = st.rules.game.exchange
    exchange.check(st, seat)  # KALUKI-7, GERMAN-7
    swapped, wild = _swapped(meld_at(st, act.meld), act)
    if act.card == st.must_use and st.hands[seat].count(act.card) <= 1:  # KALUKI-6
        raise IllegalAction(Code.MUST_USE_TAKEN_CARD,
                            f"your opening must use the {act.card} you took", {"card": act.card})
    rest = hand_after(st, seat, [act.card])
    if exchange.jokers_owed and not _joker_playable(st, seat, rest, swapped, act.meld, wild):
        raise IllegalAction(Code.JOKER_UNPLAYABLE,  # GERMAN-8 with the GEN-8 corollary
                            "you could not play that joker and still discard this turn")


def do_swap_joker(st: State, seat: int, act: SwapJoker, events: Events) -> None:
    st.melds[act.meld], wild = _swapped(st.melds[act.meld], act)
    remove_from_hand(st, seat, [act.card])
    st.hands[seat].append(wild)
    st.jokers_to_play += st.rules.game.exchange.jokers_owed  # GERMAN-8
    events.append({"type": "swap_joker", "seat": seat, "meld": act.meld, "card": act.card})


def _joker_playable(st: State, seat: int, rest: list[str], swapped: Meld, index: int,
                    joker: str) -> bool:
    """Could the exchanged ``joker`` go on the table this turn with a discard still left
    (``rest``: the hand without the card put in its place; ``swapped``: meld ``index`` after)?"""
    if not discardable(st, seat, rest):
        return False
    for i, meld in enumerate(st.melds):
        meld = swapped if i == index else meld
        for entry in wild_places(joker, meld):
            try:
                extend_meld(meld, [entry], st.rules.meld)
            except IllegalAction:
                continue
            return True
    return len(rest) >= 3 and usable_in_meld(joker, rest, st.rules.meld)


# --- declare and knock ------------------------------------------------------------------------

def verify_declare(st: State, seat: int, act: Declare) -> None:
    """OPT-COMPLETE-1, BOAT-5, CONT-6, QUEEN-2, PHOM-8, NOWRANG-6: the whole hand at once."""
    rules = st.rules
    if act.discard is None and rules.mandatory_discard:
        raise IllegalAction(Code.MUST_KEEP_DISCARD, "declare with a discard")
    expected = Counter(st.hands[seat])
    if act.discard is not None:
        if act.discard not in discardable(st, seat):
            raise IllegalAction(Code.CANNOT_DISCARD_TAKEN_CARD if act.discard in expected
                                else Code.CARD_NOT_IN_HAND, f"you cannot discard {act.discard}")
        expected[act.discard] -= 1
    if Counter(_meld_cards(act)) != +expected:
        raise IllegalAction(Code.DECLARE_INCOMPLETE,
                            "the declared melds must hold every card of your hand")
    sizes = sorted((len(m) for m in act.melds), reverse=True)
    patterns = rules.game.declare_sizes
    if patterns and tuple(sizes) not in patterns:
        raise IllegalAction(Code.WRONG_PATTERN, "declare melds of the sizes "
                            + " or ".join("-".join(map(str, p)) for p in patterns))
    melds = [form_meld(m, rules.meld, owner=seat) for m in act.melds]
    if rules.game.rounds is not None:
        rules.game.rounds.check_declared_locks(st, seat, melds)


def do_declare(st: State, seat: int, act: Declare, events: Events) -> None:
    placed = [place_meld(st, form_meld(m, st.rules.meld, owner=seat)) for m in act.melds]
    remove_from_hand(st, seat, _meld_cards(act))
    events.append({"type": "declare", "seat": seat, "melds": [m.to_json() for m in placed],
                   "discard": act.discard})
    if act.discard is not None:
        remove_from_hand(st, seat, [act.discard])
        st.discard.append(act.discard)
    go_out(st, seat, events)


def verify_give_up(st: State, seat: int, card: str) -> None:
    """A card leaving the hand for the discard pile: held, and not taken this turn (GEN-8)."""
    if card not in st.hands[seat]:
        hand_after(st, seat, [card])
    elif blocked(st, seat) and card not in discardable(st, seat):
        raise IllegalAction(Code.CANNOT_DISCARD_TAKEN_CARD,
                            f"{card} was taken from the discard pile this turn")


def verify_knock(st: State, seat: int, act: Knock) -> None:
    """KNOCK-4: discard and end the hand at once."""
    verify_give_up(st, seat, act.discard)


def accepted_knocks(st: State, seat: int) -> list[str]:
    """The discards ``verify_knock`` accepts from ``seat`` where knocking is offered, at once:
    the ``discardable`` cards (``verify_give_up`` refuses only the others)."""
    return discardable(st, seat)


def do_knock(st: State, seat: int, act: Knock, events: Events) -> None:
    remove_from_hand(st, seat, [act.discard])
    st.discard.append(act.discard)
    events.append({"type": "knock", "seat": seat, "discard": act.discard})
    finish(st, scoring.knock_result(st, seat), events)
