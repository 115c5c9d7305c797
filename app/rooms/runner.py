"""The match runner: the engine state of a room's match, its durable log, and its replies.

Every change goes the same way: the engine judges the action on a copy of the state (a rejected
action changes nothing), the store appends it to the match log and returns only once it is
durable, and only then does the runner take the new state and answer ``ack``. The runner never
waits for a socket and never schedules anything: the room does that with what it returns.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from app.engine.actions import Action, parse_action
from app.engine.deal import parse_deal, shuffled_deal, stacked_deal
from app.engine.errors import RuleError
from app.engine.game import apply, check, close_call_window, new_match, next_dealer, start_hand
from app.engine.matchlog import HandLog, LoggedAction, MatchLog, fold
from app.engine.replay import hand_summary
from app.engine.rules import GameRules
from app.engine.state import State

from .errors import error_reply
from .replies import Key, Replies
from .store import LiveMatch, MatchStore, RoomRecord

Events = list[dict[str, Any]]
Reply = dict[str, Any]


class MatchRunner:
    def __init__(self, record: RoomRecord, rules: GameRules, store: MatchStore) -> None:
        self.record = record
        self.rules = rules
        self.store = store
        self.state: State | None = None
        self.hand_seq = 0  # actions logged in the hand in play
        self.recorded_hands = 0
        self.replies = Replies()

    @property
    def seq(self) -> int:
        """Actions applied in the match (PROTOCOL.md §5 ``seq``)."""
        return self.state.seq if self.state is not None else 0

    @property
    def match_id(self) -> str:
        assert self.record.match_id is not None  # noqa: S101 - only called once started
        return self.record.match_id

    async def start(self) -> None:
        match_id = secrets.token_hex(16)
        await self.store.start_match(self.record, match_id, self.record.seats)
        self.record.status = "playing"
        self.record.match_id = match_id
        self.state = new_match(self.rules)

    async def deal_next(self) -> Events:
        """Deal the next hand: the room's stacked deals first, then a fair shuffle."""
        st = self.state
        assert st is not None  # noqa: S101
        dealer = next_dealer(st)
        hand_no = st.hand_no + 1
        deals = self.record.deals
        if deals is not None and hand_no < len(deals):
            deal = stacked_deal(self.rules, dealer, deals[hand_no])
        else:
            deal = shuffled_deal(self.rules, dealer, secrets.SystemRandom())
        await self.store.record_deal(self.record, self.match_id, hand_no, dealer, deal.to_json())
        self.state = start_hand(st, deal, dealer)
        self.hand_seq = 0
        self.replies.new_hand(hand_no)
        return [{"type": "deal", "hand_no": hand_no}]

    def judge(self, seat: int, action: Action, key: Key | None,
              client_id: str | int | None) -> Reply | None:
        """The refusal ``action`` would get now (remembered like any), or None if legal."""
        if self.state is None:
            return error_reply(client_id, "no_match", "the match has not started")
        try:
            check(self.state, seat, action)
        except RuleError as exc:
            reply = error_reply(client_id, exc.code, exc.message)
            if key is not None:
                self.replies.rejected(key, reply)
            return reply
        return None

    async def apply(self, seat: int, action: Action, key: Key | None,
                    client_id: str | int | None) -> tuple[Reply, Events]:
        """Judge, log and take ``action`` for ``seat``: the reply and the events (none if
        rejected). ``key`` is the client's (player, id), or None for the server's own moves."""
        st = self.state
        if st is None or self.record.match_id is None:
            return error_reply(client_id, "no_match", "the match has not started"), []
        try:  # the engine closes an open Call Rummy window itself, on its copy (OPT-CALL-4)
            new, events = apply(st, seat, action)
        except RuleError as exc:
            reply = error_reply(client_id, exc.code, exc.message)
            if key is not None:
                self.replies.rejected(key, reply)
            return reply, []
        # Shielded: a caller cancelled mid-commit must not leave a logged action unapplied.
        return await asyncio.shield(self._take(st, new, events, seat, action, key, client_id))

    async def _take(self, st: State, new: State, events: Events, seat: int, action: Action,
                    key: Key | None, client_id: str | int | None) -> tuple[Reply, Events]:
        """Log ``action`` (durable before acknowledged or shown; a storage error propagates
        and nothing changed), then take its state."""
        logged = action.to_json()
        await self.store.append_action(self.record, self.match_id, st.hand_no, self.hand_seq,
                                       seat, logged, client_id)
        self.hand_seq += 1
        self.state = new
        reply = {"type": "ack", "id": client_id, "seq": new.seq}
        if key is not None:
            self.replies.acked(key, st.hand_no, reply)
        events.insert(0, {"type": "action", "seat": seat, "action": logged})  # all public
        return reply, events

    def close_window(self) -> Events:
        """OPT-CALL-4: the grace period is over; the winning call (if any) is applied. Not
        logged: a match log closes the window with its next action or the end of its hand."""
        assert self.state is not None  # noqa: S101
        self.state, events = close_call_window(self.state)
        return events or [{"type": "call_window_closed"}]

    async def record_results(self) -> None:
        """Store a finished hand (and settle it); finish a finished match. Safe to repeat:
        after a restart the last hand or the match's end may not have been stored yet."""
        st = self.state
        if st is None or self.record.match_id is None or not st.hand_over or st.hand_no < 0:
            return
        if len(st.results) > self.recorded_hands:
            result = st.results[-1].to_json()
            result.update(hand_summary(st, st.hand_no))
            await self.store.record_hand(self.record, self.match_id, st.hand_no, result)
            self.recorded_hands = len(st.results)
        if st.game_over and self.record.status != "closed":
            await self.store.finish_match(self.record, self.match_id, "finished", st.game_winner,
                                          list(st.totals))
            self.record.status = "closed"

    async def abandon(self) -> None:
        """End the match as ``abandoned``: the hand in play is void, every escrow returns."""
        st = self.state
        totals = list(st.totals) if st is not None else []
        await self.store.finish_match(self.record, self.match_id, "abandoned", None, totals)
        self.record.status = "closed"

    def restore(self, live: LiveMatch, owner: dict[int, str]) -> Events:
        """Rebuild the match by folding its log (after a restart), with the replies of its
        client ids; ``owner`` maps a seat to the player who acts for it. Returns the events of
        the hand in play (what a reconnecting client is shown)."""
        st = new_match(self.rules)
        events: Events = []
        for step in fold(_match_log(self.rules, live)):
            if step.error is not None:  # a log this server wrote never holds one
                raise step.error
            st = step.state
            if step.entry is None:
                events = [{"type": "deal", "hand_no": step.hand}]
                self.replies.new_hand(step.hand)
                continue
            events.append({"type": "action", "seat": step.entry.seat,
                           "action": step.entry.action_json()})
            events.extend(step.events)
            client_id = step.entry.client_id
            if client_id is not None and step.entry.seat in owner:
                self.replies.acked((owner[step.entry.seat], client_id), step.hand,
                                   {"type": "ack", "id": client_id, "seq": st.seq})
        self.state = st
        self.hand_seq = len(live.hands[-1].actions) if live.hands else 0
        self.recorded_hands = live.recorded_hands
        self.record.status = "playing"
        self.record.match_id = live.match_id
        return events


def _match_log(rules: GameRules, live: LiveMatch) -> MatchLog:
    return MatchLog.of(rules, tuple(
        HandLog(hand.dealer, parse_deal(rules, hand.deal), tuple(
            LoggedAction(seat, parse_action(action),
                         {} if client_id is None else {"client_id": client_id})
            for seat, action, client_id in hand.actions))
        for hand in live.hands))
