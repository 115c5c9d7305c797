"""Bots playing a match against each other through the engine, recorded as a match log.

Every action is ``bot.choose(seat_view_of(state, seat), rules)`` (and, in an open Call Rummy
window, ``bot.maybe_call`` for every seat but the discarder, clockwise from the discarder's
left), applied as the bot returned it; each hand is dealt by ``deal_hand`` from the
:class:`~app.engine.matchlog.HandLog` it is logged as, so the :class:`MatchLog` returned folds
(``app.engine.matchlog.fold``) to the state the bots reached. Pure: deals come from
``random.Random(seed * 1000 + hand)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from app.engine.actions import Action
from app.engine.deal import shuffled_deal
from app.engine.errors import RuleError
from app.engine.game import apply, can_start_hand, new_match, next_dealer
from app.engine.matchlog import HandLog, LoggedAction, MatchLog, deal_hand, settle_calls
from app.engine.rules import GameRules
from app.engine.state import Phase, State
from app.engine.views import seat_view_of

from .base import Bot

MAX_ACTIONS_PER_HAND = 2500  # > six passes through a two-pack stock (MAX_RESTOCKS)

# observe(before, seat, action or None for a closed call window, after)
Observer = Callable[[State, int | None, Action | None, State], None]


class BotRejected(AssertionError):
    """The engine refused an action a bot chose: a bot (or view) bug."""


class HandDidNotEnd(AssertionError):
    """A hand ran over the action cap."""


class _Match:
    def __init__(self, rules: GameRules, bots: Sequence[Bot], observe: Observer | None,
                 max_actions: int) -> None:
        self.rules = rules
        self.bots = bots
        self.observe = observe
        self.max_actions = max_actions
        self.st = new_match(rules)
        self.actions: list[LoggedAction] = []

    def act(self, seat: int, action: Action, context: str) -> None:
        before = self.st
        try:
            self.st, _ = apply(before, seat, action)
        except RuleError as exc:
            raise BotRejected(f"{type(self.bots[seat]).__name__} at seat {seat}: "
                              f"{action.to_json()} rejected ({exc.code}: {exc.message}); "
                              f"{context}") from exc
        self.actions.append(LoggedAction(seat, action))
        if self.observe is not None:
            self.observe(before, seat, action, self.st)

    def call_round(self, context: str) -> None:
        """OPT-CALL: every seat but the discarder may call; then the window closes (the room's
        grace period) if anyone called, so the next player decides on the settled table."""
        window = self.st.call
        if window is None:
            return
        n = self.rules.players
        for k in range(1, n):
            seat = (window.discarder + k) % n
            call = self.bots[seat].maybe_call(seat_view_of(self.st, seat), self.rules)
            if call is not None:
                self.act(seat, call, context)
        before = self.st
        self.st, events = settle_calls(before)
        if events and self.observe is not None:
            self.observe(before, None, None, self.st)

    def play_hand(self, context: str) -> None:
        while not self.st.hand_over:
            if len(self.actions) >= self.max_actions:
                raise HandDidNotEnd(f"hand not over after {self.max_actions} actions; {context}")
            if self.st.phase is Phase.CALL:
                self.call_round(context)
                if self.st.hand_over:
                    break
            seat = self.st.turn
            if seat is None:
                raise HandDidNotEnd(f"nobody to act in phase {self.st.phase.value}; {context}")
            action = self.bots[seat].choose(seat_view_of(self.st, seat), self.rules)
            self.act(seat, action, context)


def play_match(rules: GameRules, bots: Sequence[Bot], seed: int, max_hands: int,
               observe: Observer | None = None,
               max_actions: int = MAX_ACTIONS_PER_HAND) -> tuple[State, MatchLog]:
    """Play up to ``max_hands`` hands (fewer if the game ends); return the state and its log."""
    match = _Match(rules, bots, observe, max_actions)
    hands: list[HandLog] = []
    options = rules.options.model_dump(exclude_defaults=True)
    for h in range(max_hands):
        if not can_start_hand(match.st):
            break
        dealer = next_dealer(match.st)
        hand = HandLog(dealer, shuffled_deal(rules, dealer, random.Random(seed * 1000 + h)))
        match.st = deal_hand(match.st, hand, h)
        match.actions = []
        match.play_hand(f"game={rules.key} options={options} players={rules.players} "
                        f"seed={seed} hand={h}")
        hands.append(HandLog(hand.dealer, hand.deal, tuple(match.actions)))
    return match.st, MatchLog.of(rules, tuple(hands))
