"""The match runner: the engine state of a room's match, its durable log, and its replies.

Every change goes the same way: the engine verifies the action and makes it on a copy (a rejected
action changes nothing), the store appends it to the match log and returns only once it is
durable, and only then does the runner take the new state and answer ``ack``. The runner never
waits for a socket and never schedules anything: the room does that with what it returns.

Deals are verifiable (PROTOCOL.md §7): the runner always holds the server seed of the next hand,
drawn from the OS CSPRNG as soon as the previous hand is dealt (or the room is made), so that
its commitment is shown before any player's seed for that hand is taken. The players' seeds wait
in memory until that deal. After a restart the pending seed is a fresh one (nothing has seen
it yet, and the seeds sent for the old one are gone with the process): the stored hands keep
their own seeds, and the fold checks that each seed pair gives its stored deal.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from app.engine.actions import Action, parse_action
from app.engine.deal import parse_deal, stacked_deal
from app.engine.errors import InvalidSeed, RuleError
from app.engine.fairdeal import SERVER_SEED_BYTES, DealSeeds, commitment, parse_client_seed
from app.engine.game import apply, check, close_call_window, new_match, next_dealer, start_hand
from app.engine.matchlog import HandLog, LoggedAction, MatchLog, fold
from app.engine.replay import hand_summary
from app.engine.rules import GameRules
from app.engine.state import State
from app.refusals import Code, Refusal

from .replies import Key, Replies
from .store import HandRecord, LiveMatch, MatchStore, RoomRecord

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
        self.settled: list[list[int] | None] = []  # per recorded hand: chips the ledger moved
        self.replies = Replies()
        self._new_server_seed()
        self.client_seeds: dict[int, str] = {}  # seat -> its seed for that hand
        self.seeds: DealSeeds | None = None  # the hand in play's; None: a stacked deal
        # A rated room's finished match: what it did to each player's rating (docs/server.md).
        self.rating_changes: list[dict[str, Any]] = []

    @property
    def next_commitment(self) -> str | None:
        """The commitment of the next hand's server seed; None when that hand is stacked or
        there is none."""
        if self.record.status == "closed" or self._next_is_stacked():
            return None
        st = self.state
        if st is not None and st.game_over:
            return None
        return self._next_commitment

    def _new_server_seed(self) -> None:
        """The next seeded hand's server seed, and its commitment (shown in every view until
        that hand is dealt, so worked out once)."""
        self.next_server_seed = _server_seed()
        self._next_commitment = commitment(self.next_server_seed)

    def _next_is_stacked(self) -> bool:
        deals = self.record.settings.deals
        hand_no = self.state.hand_no + 1 if self.state is not None else 0
        return deals is not None and hand_no < len(deals)

    def set_client_seed(self, seat: int, value: object) -> str:
        """A seated player's seed for the next seeded deal (``bad_seed`` if malformed); the
        commitment it is sent against."""
        try:
            seed = parse_client_seed(value)
        except InvalidSeed as exc:
            raise Refusal(exc.code, exc.message) from None
        committed = self.next_commitment
        if committed is None:
            raise Refusal(Code.NO_NEXT_DEAL, "no hand dealt from seeds is coming in this match")
        self.client_seeds[seat] = seed
        return committed

    def forget_client_seed(self, seat: int) -> None:
        self.client_seeds.pop(seat, None)

    def deal_info(self) -> dict[str, Any]:
        """The view's deal fields (PROTOCOL.md §7): the next hand's commitment, the hand in
        play's, and once a hand is over its revealed seeds."""
        st = self.state
        seeds = self.seeds
        out: dict[str, Any] = {"next_deal_commitment": self.next_commitment}
        if st is None or st.hand_no < 0:
            return out
        out["deal_commitment"] = None if seeds is None else seeds.commitment
        out["stacked_deal"] = seeds is None
        out["last_deal"] = None if seeds is None or not st.hand_over else {
            "hand_no": st.hand_no, "dealer": st.dealer, "commitment": seeds.commitment,
            **seeds.to_json()}
        return out

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
        await self.store.start_match(self.record, match_id, self.record.settings.seats)
        self.record.status = "playing"
        self.record.match_id = match_id
        self.state = new_match(self.rules)

    async def deal_next(self) -> Events:
        """Deal the next hand: the room's stacked deals first, then from the committed server
        seed and the seats' seeds; once it is stored, the hand after it gets its server seed."""
        st = self.state
        assert st is not None  # noqa: S101
        dealer = next_dealer(st)
        hand_no = st.hand_no + 1
        deals = self.record.settings.deals
        seeds = None
        if deals is not None and hand_no < len(deals):
            deal = stacked_deal(self.rules, dealer, deals[hand_no])
        else:
            seeds = DealSeeds.of(self.next_server_seed, [
                self.client_seeds.get(seat, "") for seat in range(self.rules.players)],
                self.rules.players)
            deal = seeds.deal(self.rules, dealer)
        await self.store.record_deal(self.record, self.match_id, hand_no, dealer, deal.to_json(),
                                     None if seeds is None else seeds.to_json())
        if seeds is not None:
            self._new_server_seed()
            self.client_seeds.clear()
        self.seeds = seeds
        self.state = start_hand(st, deal, dealer)
        self.hand_seq = 0
        self.replies.new_hand(hand_no)
        return [{"type": "deal", "hand_no": hand_no}]

    def judge(self, seat: int, action: Action, key: Key | None,
              client_id: str | int | None) -> Reply | None:
        """The refusal ``action`` would get now (remembered like any), or None if legal."""
        if self.state is None:
            return Refusal(Code.NO_MATCH, "the match has not started").reply(client_id)
        try:
            check(self.state, seat, action)
        except RuleError as exc:
            reply = exc.reply(client_id)
            if key is not None:
                self.replies.rejected(key, reply)
            return reply
        return None

    async def apply(self, seat: int, action: Action, key: Key | None,
                    client_id: str | int | None, played_for: str | None = None
                    ) -> tuple[Reply, Events]:
        """Judge, log and take ``action`` for ``seat``: the reply and the events (none if
        rejected). ``key`` is the client's (player, id), or None for the server's own moves;
        ``played_for`` marks a server move for a person's seat (``timeout``, ``stand_in``)."""
        st = self.state
        if st is None or self.record.match_id is None:
            return Refusal(Code.NO_MATCH, "the match has not started").reply(client_id), []
        try:  # the engine closes an open Call Rummy window itself, on its copy (OPT-CALL-4)
            new, events = apply(st, seat, action)
        except RuleError as exc:
            reply = exc.reply(client_id)
            if key is not None:
                self.replies.rejected(key, reply)
            return reply, []
        # Shielded: a caller cancelled mid-commit must not leave a logged action unapplied.
        return await asyncio.shield(self._take(st, new, events, seat, action, key, client_id,
                                               played_for))

    async def _take(self, st: State, new: State, events: Events, seat: int, action: Action,
                    key: Key | None, client_id: str | int | None, played_for: str | None
                    ) -> tuple[Reply, Events]:
        """Log ``action`` (durable before acknowledged or shown; a storage error propagates
        and nothing changed), then take its state."""
        logged = action.to_json()
        await self.store.append_action(self.record, self.match_id, st.hand_no, self.hand_seq,
                                       seat, logged, client_id, played_for)
        self.hand_seq += 1
        self.state = new
        reply = {"type": "ack", "id": client_id, "seq": new.seq}
        if key is not None:
            self.replies.acked(key, st.hand_no, reply)
        events.insert(0, _action_event(seat, logged, played_for))  # all public
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
            chips = await self.store.record_hand(self.record, self.match_id, st.hand_no, result)
            self.settled.append(chips)
            self.recorded_hands = len(st.results)
        if st.game_over and self.record.status != "closed":
            self.rating_changes = await self.store.finish_match(
                self.record, self.match_id, "finished", st.game_winner, list(st.totals))
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
            events.append(_action_event(step.entry.seat, step.entry.action_json(),
                                        step.entry.played_for))
            events.extend(step.events)
            client_id = step.entry.client_id
            if client_id is not None and step.entry.seat in owner:
                self.replies.acked((owner[step.entry.seat], client_id), step.hand,
                                   {"type": "ack", "id": client_id, "seq": st.seq})
        self.state = st
        self.seeds = _seeds(self.rules, live.hands[-1]) if live.hands else None
        self.hand_seq = len(live.hands[-1].actions) if live.hands else 0
        self.recorded_hands = live.recorded_hands
        self.settled = list(live.settled)
        self.record.status = "playing"
        self.record.match_id = live.match_id
        return events


def _action_event(seat: int, action: dict[str, Any], played_for: str | None) -> dict[str, Any]:
    """An action as the room shows it; a server move for a person's seat says so
    (``played_for``: ``timeout`` or ``stand_in``, docs/server.md)."""
    event = {"type": "action", "seat": seat, "action": action}
    if played_for is not None:
        event["played_for"] = played_for
    return event


def _server_seed() -> str:
    return secrets.token_hex(SERVER_SEED_BYTES)


def _seeds(rules: GameRules, hand: HandRecord) -> DealSeeds | None:
    if hand.server_seed is None or hand.client_seeds is None:
        return None  # a stacked deal
    return DealSeeds.of(hand.server_seed, hand.client_seeds, rules.players)


def _match_log(rules: GameRules, live: LiveMatch) -> MatchLog:
    """The stored hands, each dealt by its stored deal (the fold checks its seeds give it)."""
    return MatchLog.of(rules, tuple(
        HandLog(hand.dealer, parse_deal(rules, hand.deal), tuple(
            LoggedAction(seat, parse_action(action), _meta(client_id, played_for))
            for seat, action, client_id, played_for in hand.actions), seeds=_seeds(rules, hand))
        for hand in live.hands))


def _meta(client_id: str | int | None, played_for: str | None) -> dict[str, Any]:
    meta: dict[str, Any] = {} if client_id is None else {"client_id": client_id}
    if played_for is not None:
        meta["played_for"] = played_for
    return meta
