"""The one source of legality: ``apply`` / ``check`` per phase (GEN-7) for every game.

``apply(state, seat, action)`` copies the state, runs the handler for the state's phase and the
action's type on the copy, and returns the new state with its events; any rule violation raises
a :class:`RuleError` and the caller's state is unchanged (GEN-7: every action is atomic).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..refusals import Code
from . import calls, phom, scoring, table
from .actions import Action, Declare, Discard, Draw, parse_action
from .deal import Deal
from .errors import IllegalAction, RuleError, excerpt
from .flow import (
    Events,
    begin_turn,
    discardable,
    finish,
    go_out,
    next_turn,
    remove_from_hand,
    reset_turn,
)
from .opening import can_open_with
from .rules import GameRules
from .state import CallWindow, Phase, State

Handler = Callable[[State, int, Any, Events], None]
# Resolution (not in RULES.md): once the stock has been rebuilt this often in one hand, the next
# time it runs out the hand ends with no winner, so that no hand can go on for ever.
MAX_RESTOCKS = 5


def new_match(rules: GameRules) -> State:
    """A match waiting for its first deal."""
    start = rules.options.starting_score if "starting_score" in rules.game.allowed_options else 0
    return State(rules=rules, totals=[start] * rules.players)


def next_dealer(st: State) -> int:
    """GEN-6: seat 0 first, then to the left; the previous winner with OPT-WIN-2 and CONT-2."""
    if st.hand_no < 0:
        return 0
    last = st.results[-1] if st.results else None
    if last is not None and last.winner is not None and (
            st.rules.options.each_hand_own_game or st.rules.game.winner_deals):
        return last.winner
    return (st.dealer + 1) % st.players


def can_start_hand(st: State) -> bool:
    if st.phase in (Phase.DEAL, Phase.HAND_OVER):
        return True
    # OPT-WIN-2, NOWRANG-7: after each game the room's next hand starts a new game.
    return st.phase is Phase.GAME_OVER and (
        st.rules.options.each_hand_own_game or st.rules.game.each_hand_a_game)


def start_hand(st: State, deal: Deal, dealer: int) -> State:
    """Begin the next hand with ``deal`` (from :mod:`app.engine.deal`) dealt by ``dealer``."""
    if not can_start_hand(st):
        raise IllegalAction(Code.GAME_OVER, "the game is over; no further hand can be dealt")
    n = st.players
    new = st.copy()
    new.hand_no += 1
    new.dealer = dealer
    new.game_winner = None
    new.hands = [list(h) for h in deal.hands]
    new.stock = list(deal.stock)
    new.discard = list(deal.discard)
    new.melds = []
    new.opened, new.tabled, new.shown = [False] * n, [False] * n, [False] * n
    new.turns, new.takes, new.hand_scores = [0] * n, [0] * n, [0] * n
    new.known = [[] for _ in range(n)]
    new.locked = [[] for _ in range(n)]
    new.call = None
    new.restocks = 0
    new.turn = (dealer + 1) % n  # STD-4: the dealer's left plays first
    reset_turn(new)
    new.phase = Phase.DRAW if st.rules.game.upcard else Phase.OPENING
    return new


def apply(st: State, seat: int, action: Action | object) -> tuple[State, Events]:
    """Apply ``action`` for ``seat``; return the new state and its events, or raise.

    ``action`` is a parsed :data:`Action` (used as it is) or its JSON (parsed here). In an open
    Call Rummy window an action that is not a call first closes the window on the copy
    (OPT-CALL-4: the winning call comes first, and so do its events); if the action is then
    refused, nothing changed and the window is still open.
    """
    act = parse_action(action)
    if not isinstance(seat, int) or not 0 <= seat < st.players:
        raise IllegalAction(Code.BAD_SEAT, f"no seat {excerpt(seat)} in a {st.players}-player game")
    new = st.copy()
    events: Events = []
    _dispatch(new, seat, act, events)
    new.seq += 1
    return new, events


def check(st: State, seat: int, action: Action | object) -> None:
    """Raise the :class:`RuleError` that ``apply`` would raise; return None if legal."""
    apply(st, seat, action)


def is_legal(st: State, seat: int, action: Action | object) -> bool:
    try:
        apply(st, seat, action)
    except RuleError:
        return False
    return True


def close_call_window(st: State) -> tuple[State, Events]:
    """OPT-CALL-4: close an open window now (a live room does this when its grace period ends
    with no action; ``apply`` closes it by itself before any action that is not a call)."""
    new = st.copy()
    events: Events = []
    if new.phase is Phase.CALL:
        calls.close_window(new, events)
    return new, events


# --- dispatch -------------------------------------------------------------------------------

def _dispatch(st: State, seat: int, act: Action, events: Events) -> None:
    if st.hand_over:
        raise IllegalAction(Code.HAND_OVER, "no hand is in progress")
    if act.type == "call_rummy":
        calls.call(st, seat, act, events)  # type: ignore[arg-type]
        return
    if st.phase is Phase.CALL:  # OPT-CALL-4: the next action closes the window first
        calls.close_window(st, events)
        if st.hand_over:  # OPT-CALL-6: the winning call went out
            raise IllegalAction(Code.HAND_OVER, "the hand ended with a Rummy call")
    if seat != st.turn:
        raise IllegalAction(Code.NOT_YOUR_TURN, f"it is seat {st.turn}'s turn, not seat {seat}'s")
    _check_available(st.rules, act)
    handler = _HANDLERS.get((st.phase, act.type))
    if handler is None:
        raise _wrong_phase(st, act)
    handler(st, seat, act, events)


_PLAY_TYPES = frozenset({"meld", "lay_off", "swap_joker", "borrow", "discard", "knock",
                         "declare", "show"})


def _wrong_phase(st: State, act: Action) -> IllegalAction:
    if st.phase in (Phase.DRAW, Phase.DRAW_SECOND) and act.type in _PLAY_TYPES:
        return IllegalAction(Code.MUST_DRAW_FIRST, "draw a card first")
    if st.phase is Phase.PLAY and act.type == "draw":
        return IllegalAction(Code.ALREADY_DREW, "you have already drawn this turn")
    if st.phase is Phase.OPENING:
        return IllegalAction(Code.MUST_DISCARD, "the opening turn is a discard only")
    return IllegalAction(Code.WRONG_PHASE, f"{act.type} is not possible in phase {st.phase.value}")


def allowed_types(rules: GameRules) -> frozenset[str]:
    """The action types this game with these options ever allows."""
    return rules.action_types


def _check_available(rules: GameRules, act: Action) -> None:
    if act.type not in allowed_types(rules):
        raise IllegalAction(Code.NOT_IN_THIS_GAME, f"{act.type} is not allowed in this game")


# --- drawing --------------------------------------------------------------------------------

def _draw(st: State, seat: int, act: Draw, events: Events) -> None:
    first = st.phase is Phase.DRAW
    if first:
        begin_turn(st, seat)
    if act.source == "stock":
        if not st.stock and st.rules.options.block_rummy:  # OPT-BLOCK-2: declining ends it
            events.append({"type": "block", "seat": seat})
            finish(st, scoring.block_result(st, seat), events)
            return
        if not st.stock and st.restocks >= MAX_RESTOCKS:  # a hand nobody can finish
            finish(st, scoring.exhausted_result(st), events)
            return
        _draw_stock(st, seat, events)
    else:
        _draw_discard(st, seat, act, events)
    st.drawn += 1
    # BOAT-2: a second card after the discard, if any card is left to take (Resolution).
    boat_second = (first and act.source == "discard" and st.rules.game.draw_two_from_discard
                   and (st.stock or st.discard))
    st.phase = Phase.DRAW_SECOND if boat_second else Phase.PLAY


def _draw_stock(st: State, seat: int, events: Events) -> None:
    if not st.stock:
        _restock(st, events)
    card = st.stock.pop(0)
    st.hands[seat].append(card)
    events.append({"type": "draw", "seat": seat, "source": "stock", "card": card,
                   "secret": seat})


def _restock(st: State, events: Events) -> None:
    """GEN-13, OPT-THROW-4: all but the latest discard become the stock, oldest on top."""
    if len(st.discard) <= 1:
        raise IllegalAction(Code.STOCK_EMPTY, "the stock is empty; take the discard")
    st.stock = st.discard[:-1]
    st.discard = st.discard[-1:]
    st.restocks += 1
    events.append({"type": "restock", "stock_count": len(st.stock)})


def _draw_discard(st: State, seat: int, act: Draw, events: Events) -> None:
    card = _take_discard(st, act)
    game = st.rules.game
    if game.discard_take_needs_opening_meld and not st.opened[seat]:  # KALUKI-6
        if not can_open_with(st.hands[seat], card, st.rules):
            raise IllegalAction(Code.CANNOT_USE_DISCARD,
                                f"before opening, take {card} only to use it in a 51 opening")
        st.must_use = card
    if game.phom:  # PHOM-5, PHOM-6, PHOM-14
        phom.check_take(st, seat, card)
        st.locked[seat].append(card)
        if st.rules.options.discard_penalties:
            st.takes[seat] += 1
            st.hand_scores[(seat - 1) % st.players] -= 1
            st.hand_scores[seat] += 1
    st.hands[seat].append(card)
    st.taken.append(card)
    st.known[seat].append(card)
    events.append({"type": "draw", "seat": seat, "source": "discard", "card": card})


def _take_discard(st: State, act: Draw) -> str:
    if not st.discard:
        raise IllegalAction(Code.DISCARD_EMPTY, "the discard pile is empty")
    if st.rules.options.throw_down:  # OPT-THROW-2: any card of the discard area
        if act.card is None:
            raise IllegalAction(Code.CARD_REQUIRED, "name the card to take from the discard area")
        if act.card not in st.discard:
            raise IllegalAction(Code.CARD_NOT_AVAILABLE, f"{act.card} is not in the discard area")
        index = len(st.discard) - 1 - st.discard[::-1].index(act.card)
        return st.discard.pop(index)
    if act.card is not None and act.card != st.discard[-1]:
        raise IllegalAction(Code.CARD_NOT_AVAILABLE,
                            f"only the top discard {st.discard[-1]} can be taken")
    return st.discard.pop()


# --- discarding -----------------------------------------------------------------------------

def _discard(st: State, seat: int, act: Discard, events: Events) -> None:
    game = st.rules.game
    if st.must_use is not None:  # KALUKI-6
        raise IllegalAction(Code.MUST_USE_TAKEN_CARD,
                            f"open with the {st.must_use} you took before discarding",
                            {"card": st.must_use})
    if st.jokers_to_play:  # GERMAN-8
        raise IllegalAction(Code.JOKER_MUST_BE_PLAYED, "play the exchanged joker before discarding")
    if game.phom:
        phom.check_discard(st, seat, act.card)
    if act.card in st.hands[seat] and act.card not in discardable(st, seat):
        raise IllegalAction(Code.CANNOT_DISCARD_TAKEN_CARD,
                            f"{act.card} was taken from the discard pile this turn")  # GEN-8
    remove_from_hand(st, seat, [act.card])
    st.discard.append(act.card)
    events.append({"type": "discard", "seat": seat, "card": act.card})
    if not st.hands[seat] and not game.phom:  # PHOM-8: Phom is won at once only by declaring
        go_out(st, seat, events)
        return
    if game.phom and phom.hand_complete(st):  # PHOM-7, PHOM-11
        finish(st, scoring.phom_result(st), events)
        return
    window = st.rules.options.call_rummy and calls.opens_window(st, act.card)
    next_turn(st, seat)
    if window:  # OPT-CALL-1
        st.call = CallWindow(act.card, seat)
        st.phase = Phase.CALL


def _opening_discard(st: State, seat: int, act: Discard, events: Events) -> None:
    """PHOM-3, NOWRANG-4: the first player's first turn is a discard without a draw."""
    begin_turn(st, seat)
    _discard(st, seat, act, events)


def _declare_without_draw(st: State, seat: int, act: Declare, events: Events) -> None:
    """CONT-6 (own first turn), PHOM-8 and NOWRANG-4 (the opening): declare before drawing."""
    game = st.rules.game
    if st.phase is Phase.DRAW and not (game.declare_before_draw and st.turns[seat] == 0):
        raise IllegalAction(Code.MUST_DRAW_FIRST, "draw a card first")
    begin_turn(st, seat)
    table.declare(st, seat, act, events)


_HANDLERS: dict[tuple[Phase, str], Handler] = {
    (Phase.DRAW, "draw"): _draw,
    (Phase.DRAW, "declare"): _declare_without_draw,
    (Phase.DRAW_SECOND, "draw"): _draw,
    (Phase.OPENING, "discard"): _opening_discard,
    (Phase.OPENING, "declare"): _declare_without_draw,
    (Phase.PLAY, "meld"): table.meld,
    (Phase.PLAY, "lay_off"): table.lay_off,
    (Phase.PLAY, "borrow"): table.borrow,
    (Phase.PLAY, "swap_joker"): table.swap_joker,
    (Phase.PLAY, "declare"): table.declare,
    (Phase.PLAY, "knock"): table.knock,
    (Phase.PLAY, "show"): phom.show,
    (Phase.PLAY, "discard"): _discard,
}
