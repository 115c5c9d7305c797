"""The rooms' durable storage over SQL: one transaction per call, except the match log's
appends, which the process's `LogWriter` group-commits (the ``MatchStore`` protocol of
``app.rooms.store``, satisfied structurally: this module never imports the rooms).

With several processes a room's record carries the fencing token its owner took it with; the
match's writes (start, deals, actions, results, the end) check it against the room's row in
their own transaction and raise `StaleOwner` if another process has taken the room since."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

import orjson
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import seating_policy
from app.db.base import utcnow
from app.db.models import (
    ChatMessage,
    HandResult,
    Match,
    MatchAction,
    MatchHand,
    MatchSeat,
    Player,
    Room,
    RoomSeat,
    WaitingQuickSeat,
)
from app.refusals import Code, Refusal
from app.seating_policy import Ask
from app.services import ledger, moderation, ratings, tables, tournaments
from app.services.logwriter import LogWriter, check_fence
from app.services.records import (
    Arrival,
    ChatLine,
    HandRecord,
    LiveMatch,
    RoomRecord,
    SeatRecord,
)
from app.services.room_settings import RoomSettings


class SqlMatchStore:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], log: LogWriter) -> None:
        self.sessions = sessions
        self.log = log
        # Told a tournament's id once one of its tables' results is committed (the process's
        # tournament director, set at start-up: it seats the next round).
        self.table_finished: Callable[[str], None] | None = None

    async def save_room(self, room: RoomRecord) -> None:
        async with self.sessions() as s, s.begin():
            await _upsert_room(s, room)

    async def open_room(self, room: RoomRecord, cap: int | None) -> None:
        """Store a new room; ``cap``: refuse it (``too_many_waiting_rooms``) if its host hosts
        that many rooms waiting for players already, counted in the database under a lock of
        the host's row, so that calls at once, on one process or several, never pass it
        (`seating_policy.may_open`)."""
        async with self.sessions() as s, s.begin():
            if cap is not None:
                await s.execute(select(Player.id).where(Player.id == room.host_id)
                                .with_for_update())
                hosted = await s.scalar(select(func.count()).select_from(Room).where(
                    Room.host_id == room.host_id, Room.status == "waiting"))
                refused = seating_policy.may_open(int(hosted or 0), cap)
                if refused is not None:
                    raise refused
            await _upsert_room(s, room)

    async def sit(self, room: RoomRecord, seat: SeatRecord, ask: Ask | None = None) -> None:
        """Take the seat and escrow the buy-in, in one transaction. ``ask``: a person asking for
        the seat, first judged by the seating policy with their ties read in this transaction
        (`seating_policy.check`: ``already_waiting``, ``blocked``, ``same_address``). A
        person's seat in a waiting quick-seat room is written to `waiting_quick_seats`, whose
        key is the person: of two such seats taken at once anywhere, the second is refused
        ``already_waiting`` when the first commits."""
        try:
            async with self.sessions() as s, s.begin():
                if ask is not None:
                    seating_policy.check(ask, await tables.ties_of(s, ask.player))
                s.add(RoomSeat(room_id=room.id, seat=seat.seat, player_id=seat.player_id,
                               bot=seat.bot, name=seat.name))
                if _waits_quick(room, seat):
                    s.add(WaitingQuickSeat(player_id=seat.player_id, room_id=room.id,
                                           seat=seat.seat))
                await s.flush()
                if room.settings.buy_in > 0:
                    await ledger.buy_in(s, f"buyin:{room.id}:{seat.seat}:{secrets.token_hex(8)}",
                                        room.id, seat.seat, room.settings.buy_in,
                                        player_id=seat.player_id)
        except IntegrityError:
            if ask is None or not _waits_quick(room, seat):
                raise
            await self._refuse_second_quick_seat(ask)

    async def _refuse_second_quick_seat(self, ask: Ask) -> None:
        """The person's seat in another waiting quick-seat room was committed meanwhile: the
        policy, asked again with the ties as they are now, refuses with that room and seat."""
        async with self.sessions() as s:
            ties = await tables.ties_of(s, ask.player)
        seating_policy.check(ask, ties)
        raise Refusal(Code.TRY_AGAIN, "your seat in another quick-seat room changed meanwhile: "
                      "try again")

    async def stand(self, room: RoomRecord, seat: SeatRecord) -> None:
        async with self.sessions() as s, s.begin():
            await s.execute(delete(RoomSeat).where(RoomSeat.room_id == room.id,
                                                   RoomSeat.seat == seat.seat))
            await s.execute(delete(WaitingQuickSeat).where(WaitingQuickSeat.room_id == room.id,
                                                           WaitingQuickSeat.seat == seat.seat))
            await ledger.cash_out(s, f"cashout:{room.id}:{seat.seat}:{secrets.token_hex(8)}",
                                  room.id, seat.seat, player_id=seat.player_id)

    async def start_match(self, room: RoomRecord, match_id: str, players: int) -> None:
        async with self.sessions() as s, s.begin():
            await _fenced(s, room)
            rs = room.settings
            s.add(Match(id=match_id, room_id=room.id, game=rs.game, options=rs.options,
                        players=players, stake=rs.stake, status="active",
                        private=rs.private, rated=rs.rated))
            await s.flush()
            for seat in room.taken:
                s.add(MatchSeat(match_id=match_id, seat=seat.seat, player_id=seat.player_id,
                                bot=seat.bot, name=seat.name))
            await s.execute(update(Room).where(Room.id == room.id)
                            .values(status="playing", match_id=match_id))
            await s.execute(delete(WaitingQuickSeat).where(WaitingQuickSeat.room_id == room.id))

    async def record_deal(self, room: RoomRecord, match_id: str, hand_no: int, dealer: int,
                          deal: dict[str, Any], seeds: dict[str, Any] | None) -> None:
        seeds = seeds or {}
        async with self.sessions() as s, s.begin():
            await _fenced(s, room)
            s.add(MatchHand(match_id=match_id, hand_no=hand_no, dealer=dealer, deal=deal,
                            server_seed=seeds.get("server_seed"),
                            client_seeds=seeds.get("client_seeds")))

    async def append_action(self, room: RoomRecord, match_id: str, hand_no: int, seq: int,
                            seat: int, action: dict[str, Any],
                            client_id: str | int | None, played_for: str | None = None
                            ) -> None:
        """Durable once this returns (the log writer's commit that holds it succeeded)."""
        encoded = None if client_id is None else orjson.dumps(client_id).decode()
        fence = None if room.fence is None else (room.id, room.fence)
        await self.log.append(match_id, hand_no, seq, seat, action, encoded, fence, played_for)

    async def record_hand(self, room: RoomRecord, match_id: str, hand_no: int,
                          result: dict[str, Any]) -> list[int] | None:
        """The hand's result and its chip settlement from escrow, in one transaction; returns
        each seat's chips as the ledger moved them (None without a stake)."""
        detail = {k: v for k, v in result.items()
                  if k not in ("winner", "reason", "scores", "ended")}
        async with self.sessions() as s, s.begin():
            await _fenced(s, room)
            s.add(HandResult(match_id=match_id, hand_no=hand_no, winner=result["winner"],
                             reason=result["reason"], scores=result["scores"], detail=detail))
            await s.flush()
            payments = result.get("payments") or []
            if room.settings.stake == 0:
                return None
            escrows = {seat.seat: (await ledger.escrow_for(s, room.id, seat.seat)).id
                       for seat in room.taken}
            seat_of = {account: seat for seat, account in escrows.items()}
            moved = await ledger.settle_hand(s, match_id, hand_no, payments, room.settings.stake,
                                             escrows)
            return ledger.net_by_seat(room.settings.seats, [
                (seat_of[t.from_account], seat_of[t.to_account], t.amount)
                for t in moved if t.from_account is not None])

    async def finish_match(self, room: RoomRecord, match_id: str, status: str, winner: int | None,
                           totals: list[int]) -> list[dict[str, Any]]:
        """Close the match and the room, return every seat's escrow, record a tournament
        table's result (and a final's prizes), keep who played each seat (its turns, own and
        played for, and whether its person resigned: a profile counts the match by them) and,
        for a rated room's finished match, update its players' ratings; returns the rating
        changes."""
        async with self.sessions() as s, s.begin():
            await _fenced(s, room)
            tournament = None
            if room.settings.stand_in_for_absent:  # the tournament's row is locked first
                tournament = await tournaments.table_finished(s, room.id, match_id, winner,
                                                              totals)
            await s.execute(update(Match).where(Match.id == match_id).values(
                status=status, winner=winner, totals=totals, finished_at=utcnow()))
            for seat in room.taken:
                await ledger.cash_out(s, f"cashout:{match_id}:{seat.seat}", room.id, seat.seat,
                                      player_id=seat.player_id)
            await s.execute(update(Room).where(Room.id == room.id).values(status="closed"))
            turns = await ratings.turns_by_seat(s, match_id)
            left = {x.seat for x in room.taken if x.player_id is not None and x.bot}
            await _keep_who_played(s, match_id, room.taken, turns, left)
            changes = []
            if status == "finished" and room.settings.rated:
                people = {x.seat: x.player_id for x in room.taken if x.player_id is not None}
                rated, ranks = ratings.own_play(
                    people, left, turns,
                    ratings.finishing_ranks(room.settings.game, totals, winner))
                changes = await ratings.rate_match(s, match_id, room.settings.game, rated, ranks)
        if tournament is not None and self.table_finished is not None:
            self.table_finished(tournament)
        return [ratings.change_json(c) for c in changes]

    async def add_chat(self, room: RoomRecord, match_id: str | None, seat: int | None,
                       player_id: str, name: str, text: str) -> ChatLine:
        """Store the line; it comes back with the players who blocked its speaker (not shown
        it, `seating_policy.shown`). A speaker whose chat is muted is refused
        (``chat_muted``), nothing stored (PROTOCOL.md §9)."""
        async with self.sessions() as s, s.begin():
            await moderation.check_may_chat(s, player_id)
            blockers = await moderation.blockers_of(s, [player_id])
            s.add(ChatMessage(room_id=room.id, match_id=match_id, seat=seat,
                              player_id=player_id, name=name, text=text))
        return ChatLine(seat, name, text, player_id, blockers.get(player_id, frozenset()))

    async def carry_chat(self, room: RoomRecord, lines: list[ChatLine]) -> list[ChatLine]:
        """Store another room's lines as this room's (a rematch's), each with its speaker and no
        seat (the seats are new), so a restart keeps them; they come back with their speakers'
        blockers as they are now. Said already: a chat mute since does not refuse them."""
        async with self.sessions() as s, s.begin():
            for line in lines:
                s.add(ChatMessage(room_id=room.id, match_id=None, seat=None,
                                  player_id=line.speaker, name=line.name, text=line.text))
            blockers = await moderation.blockers_of(s, [line.speaker for line in lines])
        return [ChatLine(None, line.name, line.text, line.speaker,
                         blockers.get(line.speaker or "", frozenset())) for line in lines]

    async def recent_chat(self, room_ids: list[str]) -> dict[str, list[ChatLine]]:
        """Each room's recent chat lines, oldest first, with their speakers' blockers as they
        are now (a restart's or a takeover's rebuilt room shows them as before)."""
        async with self.sessions() as s:
            return await _recent_chat(s, room_ids)

    async def take_over(self, room_id: str) -> int | None:
        """Raise the room's fencing token and return it, so that every write of its previous
        owner is refused from now on; None if the room is closed or unknown."""
        async with self.sessions() as s, s.begin():
            return (await s.execute(
                update(Room).where(Room.id == room_id, Room.status != "closed")
                .values(fence=Room.fence + 1).returning(Room.fence))).scalar_one_or_none()

    async def live_room_ids(self) -> list[str]:
        """The rooms that are waiting or playing (each must have an owner)."""
        async with self.sessions() as s:
            return list((await s.scalars(select(Room.id).where(
                Room.status != "closed"))).all())

    async def room_by_invite(self, code: str) -> str | None:
        async with self.sessions() as s:
            return (await s.scalars(select(Room.id).where(
                Room.invite_code == code, Room.status != "closed"))).first()

    async def open_rooms(self, only: str | None = None) -> list[RoomRecord]:
        """Rooms waiting for players (``only``: that room alone, if it is waiting)."""
        async with self.sessions() as s:
            query = select(Room).where(Room.status == "waiting")
            if only is not None:
                query = query.where(Room.id == only)
            rooms = (await s.scalars(query)).all()
            arrivals = await _arrivals(s, rooms)
            return [await _record(s, r, arrivals.get(r.id)) for r in rooms]

    async def live_matches(self, only: str | None = None) -> list[LiveMatch]:
        """Every playing room (``only``: that room alone) with its match log so far, read in a
        few queries for all rooms at once (a restart rebuilds hundreds of rooms)."""
        async with self.sessions() as s:
            query = select(Room).where(Room.status == "playing", Room.match_id.is_not(None))
            if only is not None:
                query = query.where(Room.id == only)
            rooms = (await s.scalars(query)).all()
            if not rooms:
                return []
            match_ids = [r.match_id for r in rooms]
            room_ids = [r.id for r in rooms]
            seats = _grouped(await s.scalars(select(RoomSeat).where(
                RoomSeat.room_id.in_(room_ids)).order_by(RoomSeat.room_id, RoomSeat.seat)),
                lambda x: x.room_id)
            hands = _grouped(await s.scalars(select(MatchHand).where(
                MatchHand.match_id.in_(match_ids)).order_by(MatchHand.match_id,
                                                            MatchHand.hand_no)),
                lambda h: h.match_id)
            actions = _grouped(await s.execute(
                select(MatchAction.match_id, MatchAction.hand_no, MatchAction.seat,
                       MatchAction.action, MatchAction.client_id, MatchAction.played_for)
                .where(MatchAction.match_id.in_(match_ids), MatchAction.seat.is_not(None))
                .order_by(MatchAction.match_id, MatchAction.hand_no, MatchAction.seq)),
                lambda a: (a.match_id, a.hand_no))
            counts = await s.execute(
                select(HandResult.match_id, func.count()).where(
                    HandResult.match_id.in_(match_ids)).group_by(HandResult.match_id))
            recorded = {match_id: count for match_id, count in counts}
            chat = await _recent_chat(s, room_ids)
            moves = await ledger.hand_moves(s, match_ids)
            arrivals = await _arrivals(s, rooms)
        out = []
        for room in rooms:
            assert room.match_id is not None  # noqa: S101 - selected above
            records = [HandRecord(h.hand_no, h.dealer, h.deal, [
                (a.seat, a.action, None if a.client_id is None else orjson.loads(a.client_id),
                 a.played_for)
                for a in actions.get((room.match_id, h.hand_no), [])],
                h.server_seed, h.client_seeds)
                for h in hands.get(room.match_id, [])]
            done = int(recorded.get(room.match_id, 0))
            settled = [ledger.net_by_seat(room.seats, moves.get(room.match_id, {}).get(n, []))
                       for n in range(done)] if room.stake else []
            out.append(LiveMatch(
                _room_record(room, seats.get(room.id, []), arrivals.get(room.id)), room.match_id,
                records, done, chat.get(room.id, []), settled))
        return out


RECENT_CHAT = 50


async def _fenced(s: AsyncSession, room: RoomRecord) -> None:
    """Refuse the write (``StaleOwner``) if another process took the room over; the row stays
    share-locked until the transaction ends, so a takeover waits for this write or fences it."""
    if room.fence is not None:
        await check_fence(await s.connection(), {room.id: room.fence})


async def _keep_who_played(s: AsyncSession, match_id: str, taken: list[SeatRecord],
                           turns: dict[int, ratings.Turns], left: set[int]) -> None:
    """Each seat's turns, own and played for, and whether its person resigned (``left``), on
    the match's seats (migration 0015)."""
    for seat in taken:
        seen = turns.get(seat.seat, ratings.Turns())
        await s.execute(update(MatchSeat).where(
            MatchSeat.match_id == match_id, MatchSeat.seat == seat.seat).values(
            own_turns=seen.own, played_for_turns=seen.played_for, resigned=seat.seat in left))


async def _recent_chat(s: AsyncSession, room_ids: list[str]) -> dict[str, list[ChatLine]]:
    """The last ``RECENT_CHAT`` chat lines of each room, oldest first, each with the players
    who blocked its speaker now."""
    ranked = select(ChatMessage.room_id, ChatMessage.seat, ChatMessage.name, ChatMessage.text,
                    ChatMessage.player_id, func.row_number().over(
                        partition_by=ChatMessage.room_id,
                        order_by=(ChatMessage.created_at.desc(), ChatMessage.id.desc()),
                    ).label("rank")).where(ChatMessage.room_id.in_(room_ids)).subquery()
    rows = (await s.execute(select(ranked).where(ranked.c.rank <= RECENT_CHAT).order_by(
        ranked.c.room_id, ranked.c.rank.desc()))).all()
    blockers = await moderation.blockers_of(s, [row.player_id for row in rows])
    out: dict[str, list[ChatLine]] = {}
    for row in rows:
        out.setdefault(row.room_id, []).append(ChatLine(
            row.seat, row.name, row.text, row.player_id,
            blockers.get(row.player_id or "", frozenset())))
    return out


def _waits_quick(room: RoomRecord, seat: SeatRecord) -> bool:
    """A person's seat in a quick-seat room waiting for players (one per person at a time)."""
    return (room.quick_seat is not None and room.status == "waiting"
            and seat.player_id is not None and not seat.bot)


def _grouped(rows: Any, key: Any) -> dict[Any, list[Any]]:
    out: dict[Any, list[Any]] = {}
    for row in rows:
        out.setdefault(key(row), []).append(row)
    return out


async def _upsert_room(s: AsyncSession, room: RoomRecord) -> None:
    row = await s.get(Room, room.id)
    values = {"host_id": room.host_id, **room.settings.shown(),
              "invite_code": room.invite_code, "status": room.status,
              "match_id": room.match_id, "dev_deals": room.settings.deals,
              "quick_seat": room.quick_seat}
    if row is None:
        s.add(Room(id=room.id, fence=room.fence or 0, **values))
    else:
        for key, value in values.items():
            setattr(row, key, value)
    await s.flush()
    if room.status != "waiting":  # started or closed: its seats wait no more
        await s.execute(delete(WaitingQuickSeat).where(WaitingQuickSeat.room_id == room.id))
    for seat in room.taken:
        existing = await s.get(RoomSeat, (room.id, seat.seat))
        if existing is not None:
            existing.player_id, existing.bot, existing.name = seat.player_id, seat.bot, seat.name


async def _arrivals(s: AsyncSession, rooms: Sequence[Room]) -> dict[str, Arrival]:
    """The tournament tables' deadlines for their first deal, by room (PROTOCOL.md §8)."""
    ids = [r.id for r in rooms if r.stand_in_for_absent]
    return await tournaments.arrivals(s, ids) if ids else {}


async def _record(s: AsyncSession, room: Room, arrival: Arrival | None) -> RoomRecord:
    seats = (await s.scalars(select(RoomSeat).where(RoomSeat.room_id == room.id)
                             .order_by(RoomSeat.seat))).all()
    return _room_record(room, list(seats), arrival)


def _room_record(room: Room, seats: list[RoomSeat], arrival: Arrival | None) -> RoomRecord:
    settings = RoomSettings(
        game=room.game, options=room.options, seats=room.seats, stake=room.stake,
        buy_in=room.buy_in, turn_seconds=room.turn_seconds, grace_seconds=room.grace_seconds,
        private=room.private, spectator_chat=room.spectator_chat, rated=room.rated,
        stand_in_for_absent=room.stand_in_for_absent, one_per_address=room.one_per_address,
        deals=room.dev_deals)
    return RoomRecord(
        id=room.id, host_id=room.host_id, settings=settings,
        invite_code=room.invite_code or "", status=room.status, match_id=room.match_id,
        taken=[SeatRecord(x.seat, x.player_id, x.bot, x.name) for x in seats],
        quick_seat=room.quick_seat,
        fence=room.fence or None,  # 0: never taken by a process
        arrival=arrival)
