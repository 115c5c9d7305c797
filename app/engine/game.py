"""The one source of legality (GEN-7): every move is a ``verify`` and a ``do``.

Each (phase, action type) has one :class:`Move` in ``MOVES``: ``verify`` raises the precise
:class:`RuleError` and changes nothing; ``do`` changes the working copy of a verified move.
``apply(state, seat, action)`` is verify then do on a copy (GEN-7: every action is atomic; the
caller's state never changes); :class:`Judge` and ``check`` are verify alone, which is what the
room, the views, the move lists and the bots ask; ``offered`` says which types a seat may send
now (the view's ``legal``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..refusals import Code
from . import calls, phom, scoring, table
from .actions import Action, Declare, Discard, Draw, parse_action
from .deal import Deal
from .errors import IllegalAction, RuleError, excerpt, outcome, raised
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
from .phom import Rounds
from .rules import GameRules
from .state import CallWindow, Phase, State

# Resolution (not in RULES.md): once the stock has been rebuilt this often in one hand, the next
# time it runs out the hand ends with no winner, so that no hand can go on for ever.
MAX_RESTOCKS = 5


def _always(st: State, seat: int) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Move:
    """One (phase, action type): its checks, its change, and whether a seat is offered it now
    (a cheap precondition: where it is False, ``verify`` refuses every action of the type)."""

    verify: Callable[[State, int, Any], None]
    do: Callable[[State, int, Any, Events], None]
    offered: Callable[[State, int], bool] = _always


def new_match(rules: GameRules) -> State:
    """A match waiting for its first deal."""
    start = rules.options.starting_score if "starting_score" in rules.game.allowed_options else 0
    return State(rules=rules, totals=[start] * rules.players)


def next_dealer(st: State) -> int:
    """GEN-6: seat 0 first, then to the left; the previous winner with OPT-WIN-2 and CONT-2."""
    if st.hand_no < 0:
        return 0
    last = st.results[-1] if st.results else None
    if last is not None and last.winner is not None \
            and st.rules.game.order.winner_deals(st.rules.options):
        return last.winner
    return (st.dealer + 1) % st.players


def can_start_hand(st: State) -> bool:
    if st.phase in (Phase.DEAL, Phase.HAND_OVER):
        return True
    # OPT-WIN-2, NOWRANG-7: after each game the room's next hand starts a new game.
    return st.phase is Phase.GAME_OVER and st.rules.each_hand_a_game


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
    _check_seat(st, seat)
    new = st.copy()
    events: Events = []
    if new.phase is Phase.CALL and act.type != "call_rummy":
        _close_window(new, events)
    verified(new, seat, act).do(new, seat, act, events)
    new.seq += 1
    return new, events


def verified(st: State, seat: int, act: Action) -> Move:
    """The move ``act`` makes, verified on ``st`` (where no Call Rummy window is open, unless
    ``act`` is a call); raises its refusal."""
    move = move_for(st, seat, act.type)
    move.verify(st, seat, act)
    return move


def move_for(st: State, seat: int, kind: str) -> Move:
    """The move an action of type ``kind`` by ``seat`` makes now, or the refusal every action of
    that type gets (the checks that do not read the action itself)."""
    if st.hand_over:
        raise IllegalAction(Code.HAND_OVER, "no hand is in progress")
    if kind == "call_rummy":
        return CALL
    if seat != st.turn:
        raise IllegalAction(Code.NOT_YOUR_TURN, f"it is seat {st.turn}'s turn, not seat {seat}'s")
    if kind not in st.rules.action_types:
        raise IllegalAction(Code.NOT_IN_THIS_GAME, f"{kind} is not allowed in this game")
    found = MOVES.get((st.phase, kind))
    if found is None:
        raise _wrong_phase(st, kind)
    return found


class Judge:
    """``verify`` for one seat's actions in one state: the closed Call Rummy window, where an
    action needs it, and each action type's move are worked out once, so that judging many
    actions (the move lists) costs one ``verify`` each."""

    def __init__(self, st: State, seat: int) -> None:
        self.st = st
        self.seat = seat
        self._closed: State | None = None
        self._moves: dict[str, tuple[State, Move] | RuleError] = {}

    def check(self, act: Action) -> None:
        """Raise the refusal ``apply`` would raise for ``act``; return if it would accept."""
        found = self._moves.get(act.type)
        if found is None:
            found = self._moves[act.type] = outcome(self._move, act.type)
        st, move = raised(found)
        move.verify(st, self.seat, act)

    def refusal(self, act: Action) -> Code | None:
        """The code ``apply`` would refuse ``act`` with, or None."""
        try:
            self.check(act)
        except RuleError as exc:
            return exc.code
        return None

    def _move(self, kind: str) -> tuple[State, Move]:
        """The state an action of type ``kind`` is judged on, and its move."""
        st = self.st
        if st.phase is Phase.CALL and kind != "call_rummy":
            if self._closed is None:
                self._closed, _ = close_call_window(st)
            st = self._closed
            _refuse_if_called_out(st)
        return st, move_for(st, self.seat, kind)


def check(st: State, seat: int, action: Action | object) -> None:
    """Raise the :class:`RuleError` that ``apply`` would raise; return None if legal."""
    act = parse_action(action)
    _check_seat(st, seat)
    Judge(st, seat).check(act)


def refusal(st: State, seat: int, action: Action | object) -> Code | None:
    """The code ``apply`` would refuse ``action`` with, or None if it would accept."""
    try:
        check(st, seat, action)
    except RuleError as exc:
        return exc.code
    return None


def is_legal(st: State, seat: int, action: Action | object) -> bool:
    return refusal(st, seat, action) is None


def close_call_window(st: State) -> tuple[State, Events]:
    """OPT-CALL-4: close an open window now (a live room does this when its grace period ends
    with no action; ``apply`` closes it by itself before any action that is not a call)."""
    new = st.copy()
    events: Events = []
    if new.phase is Phase.CALL:
        calls.close_window(new, events)
    return new, events


def offered(st: State, seat: int) -> list[str]:
    """The action types ``seat`` may send now (the view's ``legal``), in the table's order:
    each type the game allows whose move in this phase is offered to the seat."""
    types: list[str] = []
    if st.phase is Phase.CALL and st.call is not None and seat != st.call.discarder:
        types.append("call_rummy")
    if st.hand_over or seat != st.turn:
        return types
    phase = Phase.DRAW if st.phase is Phase.CALL else st.phase  # what closing the window leaves
    allowed = st.rules.action_types
    return types + [kind for kind, move in _PHASE_MOVES.get(phase, ())
                    if kind in allowed and move.offered(st, seat)]


def _check_seat(st: State, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < st.players:
        raise IllegalAction(Code.BAD_SEAT, f"no seat {excerpt(seat)} in a {st.players}-player game")


def _close_window(st: State, events: Events) -> None:
    """OPT-CALL-4: the next action closes the window first; refused if a call went out."""
    calls.close_window(st, events)
    _refuse_if_called_out(st)


def _refuse_if_called_out(st: State) -> None:
    if st.hand_over:  # OPT-CALL-6: the winning call went out
        raise IllegalAction(Code.HAND_OVER, "the hand ended with a Rummy call")


_PLAY_TYPES = frozenset({"meld", "lay_off", "swap_joker", "borrow", "discard", "knock",
                         "declare", "show"})


def _wrong_phase(st: State, kind: str) -> IllegalAction:
    if st.phase in (Phase.DRAW, Phase.DRAW_SECOND) and kind in _PLAY_TYPES:
        return IllegalAction(Code.MUST_DRAW_FIRST, "draw a card first")
    if st.phase is Phase.PLAY and kind == "draw":
        return IllegalAction(Code.ALREADY_DREW, "you have already drawn this turn")
    if st.phase is Phase.OPENING:
        return IllegalAction(Code.MUST_DISCARD, "the opening turn is a discard only")
    return IllegalAction(Code.WRONG_PHASE, f"{kind} is not possible in phase {st.phase.value}")


# --- drawing --------------------------------------------------------------------------------

def _verify_draw(st: State, seat: int, act: Draw) -> None:
    if act.source == "stock":
        if not st.stock and not st.rules.options.block_rummy and st.restocks < MAX_RESTOCKS \
                and len(st.discard) <= 1:  # GEN-13, OPT-THROW-4: nothing to turn over
            raise IllegalAction(Code.STOCK_EMPTY, "the stock is empty; take the discard")
        return
    card = _discard_to_take(st, act)
    st.rules.game.take.check(st, seat, card)  # KALUKI-6, PHOM-5, PHOM-6


def _discard_to_take(st: State, act: Draw) -> str:
    """The discard ``act`` takes; refused if it is not there to take."""
    if not st.discard:
        raise IllegalAction(Code.DISCARD_EMPTY, "the discard pile is empty")
    if st.rules.options.throw_down:  # OPT-THROW-2: any card of the discard area
        if act.card is None:
            raise IllegalAction(Code.CARD_REQUIRED, "name the card to take from the discard area")
        if act.card not in st.discard:
            raise IllegalAction(Code.CARD_NOT_AVAILABLE, f"{act.card} is not in the discard area")
        return act.card
    if act.card is not None and act.card != st.discard[-1]:
        raise IllegalAction(Code.CARD_NOT_AVAILABLE,
                            f"only the top discard {st.discard[-1]} can be taken")
    return st.discard[-1]


def _do_draw(st: State, seat: int, act: Draw, events: Events) -> None:
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
    second = first and act.source == "discard" and st.rules.game.take.takes_second(st)  # BOAT-2
    st.phase = Phase.DRAW_SECOND if second else Phase.PLAY


def _draw_stock(st: State, seat: int, events: Events) -> None:
    if not st.stock:  # GEN-13, OPT-THROW-4: all but the latest discard, oldest on top
        st.stock = st.discard[:-1]
        st.discard = st.discard[-1:]
        st.restocks += 1
        events.append({"type": "restock", "stock_count": len(st.stock)})
    card = st.stock.pop(0)
    st.hands[seat].append(card)
    events.append({"type": "draw", "seat": seat, "source": "stock", "card": card,
                   "secret": seat})


def _draw_discard(st: State, seat: int, act: Draw, events: Events) -> None:
    card = _discard_to_take(st, act)
    if st.rules.options.throw_down:  # OPT-THROW-2: the latest copy of the card
        st.discard.pop(len(st.discard) - 1 - st.discard[::-1].index(card))
    else:
        st.discard.pop()
    st.rules.game.take.took(st, seat, card)  # KALUKI-6, PHOM-5, PHOM-6, PHOM-14
    st.hands[seat].append(card)
    st.taken.append(card)
    st.known[seat].append(card)
    events.append({"type": "draw", "seat": seat, "source": "discard", "card": card})


# --- discarding -----------------------------------------------------------------------------

def _verify_discard(st: State, seat: int, act: Discard) -> None:
    if st.must_use is not None:  # KALUKI-6
        raise IllegalAction(Code.MUST_USE_TAKEN_CARD,
                            f"open with the {st.must_use} you took before discarding",
                            {"card": st.must_use})
    if st.jokers_to_play:  # GERMAN-8
        raise IllegalAction(Code.JOKER_MUST_BE_PLAYED, "play the exchanged joker before discarding")
    if st.rules.game.rounds is not None:
        st.rules.game.rounds.check_discard(st, seat, act.card)
    table.verify_give_up(st, seat, act.card)


def accepted_discards(st: State, seat: int) -> list[str] | None:
    """The cards ``_verify_discard`` accepts from ``seat`` where the type is offered, in code
    order, worked out at once rather than card by card (the move lists ask every turn); None
    in a game played in rounds, whose checks (PHOM-6, PHOM-9) only the card's own verify
    answers. Otherwise ``verify_give_up`` accepts exactly the ``discardable`` cards (GEN-8)."""
    if st.rules.game.rounds is not None:
        return None
    if st.must_use is not None or st.jokers_to_play:  # KALUKI-6, GERMAN-8
        return []
    return discardable(st, seat)


def _do_discard(st: State, seat: int, act: Discard, events: Events) -> None:
    rounds = st.rules.game.rounds
    remove_from_hand(st, seat, [act.card])
    st.discard.append(act.card)
    events.append({"type": "discard", "seat": seat, "card": act.card})
    if rounds is None:
        if not st.hands[seat]:
            go_out(st, seat, events)
            return
    else:  # PHOM-8: Phom is won at once only by declaring; PHOM-7: four rounds end the hand
        ended = rounds.ended(st)
        if ended is not None:
            finish(st, ended, events)
            return
    window = st.rules.options.call_rummy and calls.opens_window(st, act.card)
    next_turn(st, seat)
    if window:  # OPT-CALL-1
        st.call = CallWindow(act.card, seat)
        st.phase = Phase.CALL


def _do_opening_discard(st: State, seat: int, act: Discard, events: Events) -> None:
    """PHOM-3, NOWRANG-4: the first player's first turn is a discard without a draw (its
    verify is the discard's: beginning the first turn changes nothing a discard's checks read,
    as a first turn is never PHOM-9's fourth)."""
    begin_turn(st, seat)
    _do_discard(st, seat, act, events)


def _verify_early_declare(st: State, seat: int, act: Declare) -> None:
    """CONT-6 (own first turn), PHOM-8 and NOWRANG-4 (the opening): declare before drawing."""
    if st.phase is Phase.DRAW and not _may_declare_before_drawing(st, seat):
        raise IllegalAction(Code.MUST_DRAW_FIRST, "draw a card first")
    table.verify_declare(st, seat, act)


def _may_declare_before_drawing(st: State, seat: int) -> bool:
    return st.rules.game.order.may_declare_before_draw(st, seat)  # CONT-6


def _do_early_declare(st: State, seat: int, act: Declare, events: Events) -> None:
    begin_turn(st, seat)
    table.do_declare(st, seat, act, events)


def _by_rounds(offered: Callable[[Rounds, State, int], bool]) -> Callable[[State, int], bool]:
    """A move always offered, or in a game played in rounds (PHOM-9) when its rounds offer it."""
    def by_rounds(st: State, seat: int) -> bool:
        rounds = st.rules.game.rounds
        return rounds is None or offered(rounds, st, seat)
    return by_rounds


CALL = Move(calls.verify_call, calls.do_call)

# In the order the view lists a phase's types (``offered``).
MOVES: dict[tuple[Phase, str], Move] = {
    (Phase.DRAW, "draw"): Move(_verify_draw, _do_draw),
    (Phase.DRAW, "declare"): Move(_verify_early_declare, _do_early_declare,
                                  _may_declare_before_drawing),
    (Phase.DRAW_SECOND, "draw"): Move(_verify_draw, _do_draw),
    (Phase.OPENING, "discard"): Move(_verify_discard, _do_opening_discard),
    (Phase.OPENING, "declare"): Move(_verify_early_declare, _do_early_declare),
    (Phase.PLAY, "meld"): Move(table.verify_meld, table.do_meld),
    (Phase.PLAY, "lay_off"): Move(table.verify_lay_off, table.do_lay_off,
                                  _by_rounds(Rounds.lay_off_offered)),
    (Phase.PLAY, "borrow"): Move(table.verify_borrow, table.do_borrow),
    (Phase.PLAY, "swap_joker"): Move(table.verify_swap_joker, table.do_swap_joker),
    (Phase.PLAY, "show"): Move(phom.verify_show, phom.do_show, _by_rounds(Rounds.show_offered)),
    (Phase.PLAY, "declare"): Move(table.verify_declare, table.do_declare),
    (Phase.PLAY, "knock"): Move(table.verify_knock, table.do_knock),
    (Phase.PLAY, "discard"): Move(_verify_discard, _do_discard,
                                  _by_rounds(Rounds.discard_offered)),
}


def _by_phase(moves: dict[tuple[Phase, str], Move]) -> dict[Phase, tuple[tuple[str, Move], ...]]:
    """Each phase's action types and moves, in the table's order (what ``offered`` walks)."""
    found: dict[Phase, list[tuple[str, Move]]] = {}
    for (phase, kind), move in moves.items():
        found.setdefault(phase, []).append((kind, move))
    return {phase: tuple(pairs) for phase, pairs in found.items()}


_PHASE_MOVES = _by_phase(MOVES)
