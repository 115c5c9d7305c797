"""Bots playing a match against each other through the engine, recorded as a match log.

Every action goes through ``bot.choose(player_view(state, seat), rules)`` (and, in an open Call
Rummy window, ``bot.maybe_call`` for every seat but the discarder, clockwise from the
discarder's left) and then ``apply``; the match log (PROTOCOL.md §4) replays with
``app.engine.replay.run_replay``. Pure: deals come from ``random.Random(seed * 1000 + hand)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from app.engine.deal import shuffled_deal
from app.engine.errors import RuleError
from app.engine.game import (
    apply,
    can_start_hand,
    close_call_window,
    new_match,
    next_dealer,
    start_hand,
)
from app.engine.rules import GameRules
from app.engine.state import Phase, State
from app.engine.views import player_view

from .base import Bot

MAX_ACTIONS_PER_HAND = 2500  # > six passes through a two-pack stock (MAX_RESTOCKS)

# observe(before, seat, action JSON or None for a closed call window, after)
Observer = Callable[[State, int | None, dict[str, Any] | None, State], None]


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
        self.actions: list[dict[str, Any]] = []

    def act(self, seat: int, action: dict[str, Any], context: str) -> None:
        before = self.st
        try:
            self.st, _ = apply(before, seat, action)
        except RuleError as exc:
            raise BotRejected(f"{type(self.bots[seat]).__name__} at seat {seat}: {action} "
                              f"rejected ({exc.code}: {exc.message}); {context}") from exc
        self.actions.append({"seat": seat, "action": action})
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
            call = self.bots[seat].maybe_call(player_view(self.st, seat), self.rules)
            if call is not None:
                self.act(seat, call, context)
        if self.st.call is not None and self.st.call.calls:
            before = self.st
            self.st, _ = close_call_window(before)
            if self.observe is not None:
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
            action = self.bots[seat].choose(player_view(self.st, seat), self.rules)
            self.act(seat, action, context)


def play_match(rules: GameRules, bots: Sequence[Bot], seed: int, max_hands: int,
               observe: Observer | None = None,
               max_actions: int = MAX_ACTIONS_PER_HAND) -> tuple[State, dict[str, Any]]:
    """Play up to ``max_hands`` hands (fewer if the game ends); return the state and its log."""
    match = _Match(rules, bots, observe, max_actions)
    log: dict[str, Any] = {"game": rules.key, "options": rules.options.model_dump(
        exclude_defaults=True), "players": rules.players, "hands": []}
    for h in range(max_hands):
        if not can_start_hand(match.st):
            break
        dealer = next_dealer(match.st)
        deal = shuffled_deal(rules, dealer, random.Random(seed * 1000 + h))
        match.st = start_hand(match.st, deal, dealer)
        match.actions = []
        log["hands"].append({"dealer": dealer, "deal": deal.to_json(),
                             "actions": match.actions})
        match.play_hand(f"game={rules.key} options={log['options']} "
                        f"players={rules.players} seed={seed} hand={h}")
    return match.st, log
