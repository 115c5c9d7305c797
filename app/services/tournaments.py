"""Sit-and-go knockout tournaments (PROTOCOL.md §8): the transactions over their tables.

A tournament's entries are chips in its pot, an escrow account of the ledger (`ledger.pot_of`):
registering moves the entry from the wallet into it, unregistering and cancelling move it back,
and the prizes leave it in one transaction with the standings, the one that ends the last
table's match (`table_finished`, called by the match store as it closes the match). Each call
here runs in its caller's transaction and locks the tournament's row first, so that
registrations, a cancellation and the tables' results of one tournament are serialised.
`SqlTournamentStore` is what the process's tournament director uses (`app.rooms.tournaments`).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import utcnow
from app.db.models import HandResult, Player, Tournament, TournamentEntry, TournamentTable
from app.engine.games import game_def
from app.fairplay.apart import apart
from app.refusals import Code, Refusal
from app.services import accounts, fairplay, ledger
from app.services.records import Arrival
from app.services.room_settings import MAX_STAKE, MAX_TURN_SECONDS, RoomSettings

MIN_PLAYERS, MAX_PLAYERS = 2, 64
MIN_TABLE_SEATS, MAX_TABLE_SEATS = 2, 6
# How long a table's first deal waits at most for its players (PROTOCOL.md §8 "Arrival").
MIN_ARRIVAL_SECONDS, MAX_ARRIVAL_SECONDS, ARRIVAL_SECONDS = 10, 300, 60
FINISHED_LISTED = 20  # GET /api/tournaments: the latest finished or cancelled


@dataclass(frozen=True)
class TournamentSettings:
    """What a creator chooses (PROTOCOL.md §8), checked once when made: each rule refuses with
    its own code (400). A table is a room of the game with ``table_seats`` seats at most."""

    game: str
    players: int
    table_seats: int
    entry: int
    prizes: list[int]
    turn_seconds: int
    options: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    arrival_seconds: int = ARRIVAL_SECONDS

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise Refusal(Code.BAD_PLAYERS,
                          f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        if not MIN_TABLE_SEATS <= self.table_seats <= MAX_TABLE_SEATS:
            raise Refusal(Code.BAD_TABLE_SEATS,
                          f"table_seats must be {MIN_TABLE_SEATS} to {MAX_TABLE_SEATS}")
        if not 0 <= self.entry <= MAX_STAKE:
            raise Refusal(Code.BAD_ENTRY, f"entry must be 0 to {MAX_STAKE:,} chips")
        if not 1 <= self.turn_seconds <= MAX_TURN_SECONDS:
            raise Refusal(Code.BAD_TURN_SECONDS,
                          f"a tournament's turn_seconds must be 1 to {MAX_TURN_SECONDS}")
        if not MIN_ARRIVAL_SECONDS <= self.arrival_seconds <= MAX_ARRIVAL_SECONDS:
            raise Refusal(Code.BAD_ARRIVAL_SECONDS, "arrival_seconds must be "
                          f"{MIN_ARRIVAL_SECONDS} to {MAX_ARRIVAL_SECONDS}")
        _check_prizes(self.prizes, self.players)
        self.table(self.table_seats)  # the game, its options and the seats (bad_players, ...)
        if self.name is not None:
            object.__setattr__(self, "name", accounts.check_name(self.name))

    def table(self, seats: int) -> RoomSettings:
        """A table's room: private, free, the tournament's timer, played on for the absent."""
        return RoomSettings(game=self.game, seats=seats, options=self.options,
                            turn_seconds=self.turn_seconds, private=True,
                            stand_in_for_absent=True)


def _check_prizes(prizes: Sequence[int], players: int) -> None:
    if (not prizes or len(prizes) > players or any(p <= 0 for p in prizes)
            or sum(prizes) != 100):
        raise Refusal(Code.BAD_PRIZES, "prizes must be whole percentages, each above 0, "
                      f"summing to 100, at most one per player ({players})")


def settings_of(t: Tournament) -> TournamentSettings:
    return TournamentSettings(game=t.game, players=t.players, table_seats=t.table_seats,
                              entry=t.entry, prizes=list(t.prizes),
                              turn_seconds=t.turn_seconds, options=dict(t.options), name=t.name,
                              arrival_seconds=t.arrival_seconds)


def prize_chips(pool: int, prizes: Sequence[int]) -> list[int]:
    """Place k gets ⌊pool × prizes[k] / 100⌋; what rounding leaves goes to first place."""
    chips = [pool * p // 100 for p in prizes]
    chips[0] += pool - sum(chips)
    return chips


def table_sizes(players: int, seats: int) -> list[int]:
    """⌈players / seats⌉ tables as even as possible, the larger first."""
    count = math.ceil(players / seats)
    small, extra = divmod(players, count)
    return [small + 1] * extra + [small] * (count - extra)


# --- the calls --------------------------------------------------------------------------------


async def create(s: AsyncSession, creator: Player, settings: TournamentSettings) -> Tournament:
    t = Tournament(name=settings.name or f"{game_def(settings.game).name} sit and go",
                   creator_id=creator.id, game=settings.game, options=settings.options,
                   players=settings.players, table_seats=settings.table_seats,
                   entry=settings.entry, prizes=settings.prizes,
                   turn_seconds=settings.turn_seconds, arrival_seconds=settings.arrival_seconds)
    s.add(t)
    await s.flush()
    return t


async def register(s: AsyncSession, tournament_id: str, player: Player) -> Tournament:
    """Enter ``player``, the entry into the pot; the last entry starts the tournament."""
    t = await _locked(s, tournament_id)
    if t.status != "registering":
        raise Refusal(Code.TOURNAMENT_STARTED, "the tournament no longer takes registrations")
    if await s.get(TournamentEntry, (t.id, player.id)) is not None:
        raise Refusal(Code.ALREADY_REGISTERED, "you are registered already")
    entries = await _entry_count(s, t.id)
    if entries >= t.players:
        raise Refusal(Code.TOURNAMENT_FULL, "every place is taken")
    t.entries_made += 1
    s.add(TournamentEntry(tournament_id=t.id, player_id=player.id, name=player.name,
                          number=t.entries_made))
    if t.entry > 0:
        wallet = await ledger.wallet_of(s, player.id)
        pot = await ledger.pot_of(s, t.id)
        await ledger.transfer(s, f"tournament:{t.id}:entry:{t.entries_made}", wallet.id,
                              pot.id, t.entry, "tournament_entry")
    if entries + 1 == t.players:
        t.status = "running"
    await s.flush()
    return t


async def unregister(s: AsyncSession, tournament_id: str, player_id: str) -> Tournament:
    t = await _locked(s, tournament_id)
    if t.status != "registering":
        raise Refusal(Code.TOURNAMENT_STARTED, "the tournament has started: entries are final")
    entry = await s.get(TournamentEntry, (t.id, player_id))
    if entry is None:
        raise Refusal(Code.NOT_REGISTERED, "you are not registered")
    await _refund(s, t, entry)
    await s.delete(entry)
    await s.flush()
    return t


async def cancel(s: AsyncSession, tournament_id: str, caller: Player) -> Tournament:
    """The creator or an admin cancels a tournament that has not started: every entry back."""
    t = await _locked(s, tournament_id)
    if caller.id != t.creator_id and caller.role != "admin":
        raise Refusal(Code.NOT_CREATOR, "only the tournament's creator (or an admin) may "
                      "cancel it")
    if t.status != "registering":
        raise Refusal(Code.TOURNAMENT_STARTED, "only a tournament that has not started may be "
                      "cancelled")
    for entry in await _entries(s, t.id):
        await _refund(s, t, entry)
    await s.execute(delete(TournamentEntry).where(TournamentEntry.tournament_id == t.id))
    t.status, t.finished_at = "cancelled", utcnow()
    await s.flush()
    return t


async def _refund(s: AsyncSession, t: Tournament, entry: TournamentEntry) -> None:
    if t.entry > 0:
        wallet = await ledger.wallet_of(s, entry.player_id)
        pot = await ledger.pot_of(s, t.id)
        await ledger.transfer(s, f"tournament:{t.id}:refund:{entry.number}", pot.id,
                              wallet.id, t.entry, "tournament_refund")


# --- rounds and results -----------------------------------------------------------------------


@dataclass(frozen=True)
class TableToOpen:
    """A table of the round in play whose match has not ended: its room's id and settings, its
    players (id, name) in seat order, when it first opened (epoch seconds; None until then),
    how long its first deal waits at most for its players, and the room each of its players
    won the round before at (where their sockets are told that this table opened: PROTOCOL.md
    §8 "Where to be")."""

    tournament_id: str
    room_id: str
    settings: RoomSettings
    players: list[tuple[str, str]]
    opened_at: float | None = None
    arrival_seconds: int = ARRIVAL_SECONDS
    previous: dict[str, str] = field(default_factory=dict)

    def arrival(self, now: float) -> Arrival:
        """When its first deal comes at the latest, if it opens ``now`` (or opened before)."""
        return _arrival(self.tournament_id, self.opened_at, self.arrival_seconds, now)


def _arrival(tournament_id: str, opened_at: float | None, seconds: int, now: float) -> Arrival:
    return Arrival(tournament_id, (now if opened_at is None else opened_at) + seconds)


async def tables_to_open(s: AsyncSession, tournament_id: str) -> list[TableToOpen]:
    """The running tournament's tables still to play, seating the next round first when every
    table of the last one has its winner (none once the final is played)."""
    t = await _locked(s, tournament_id)
    if t.status != "running":
        return []
    tables = await _tables(s, t.id)
    last = tables[-1].round if tables else 0
    current = [x for x in tables if x.round == last]
    if not current or all(x.winner is not None for x in current):
        ids = ([x.winner for x in current if x.winner is not None] if current
               else [e.player_id for e in await _entries(s, t.id)])
        if len(ids) < 2:
            return []
        current = _seat_round(s, t, last + 1, ids, await fairplay.flagged_among(s, ids))
        await s.flush()
    names = {e.player_id: e.name for e in await _entries(s, t.id)}
    settings = settings_of(t)
    won_at = {x.winner: x.room_id for x in tables if x.round == current[0].round - 1
              and x.winner is not None and x.room_id is not None}
    return [TableToOpen(t.id, x.room_id, settings.table(len(x.players)),
                        [(p, names[p]) for p in x.players], _epoch(x.opened_at),
                        t.arrival_seconds, {p: won_at[p] for p in x.players if p in won_at})
            for x in current if x.winner is None and x.room_id is not None]


async def table_opened(s: AsyncSession, room_id: str, at: float) -> None:
    """The table's room was opened (seated, its match started) at ``at`` (epoch seconds): kept
    once, the first time, so that its first deal's deadline is the same after a restart."""
    await s.execute(update(TournamentTable).where(
        TournamentTable.room_id == room_id, TournamentTable.opened_at.is_(None)).values(
        opened_at=datetime.fromtimestamp(at, UTC)))


async def arrivals(s: AsyncSession, room_ids: Sequence[str]) -> dict[str, Arrival]:
    """The tournaments' tables among these rooms, by room, each with its first deal's deadline
    (PROTOCOL.md §8 "Arrival"): from its first opening, or from now for a table whose opening
    was not kept yet (the process stopped in between; its driver keeps it when it opens the
    table again)."""
    rows = await s.execute(select(TournamentTable.room_id, TournamentTable.tournament_id,
                                  TournamentTable.opened_at, Tournament.arrival_seconds).join(
        Tournament, Tournament.id == TournamentTable.tournament_id).where(
        TournamentTable.room_id.in_(room_ids)))
    now = time.time()
    return {str(room_id): _arrival(tournament_id, _epoch(opened_at), seconds, now)
            for room_id, tournament_id, opened_at, seconds in rows}


def _epoch(at: datetime | None) -> float | None:
    return None if at is None else at.timestamp()


def _seat_round(s: AsyncSession, t: Tournament, round_no: int, players: list[str],
                flagged: set[tuple[str, str]]) -> list[TournamentTable]:
    """Seat ``players`` at random, tables as even as possible, pairs the fair-play review
    flagged at different tables where the draw allows; a lone player advances."""
    order = list(players)
    secrets.SystemRandom().shuffle(order)
    sizes = table_sizes(len(order), t.table_seats)
    order = apart(order, sizes, flagged)
    tables = []
    for table_no, size in enumerate(sizes):
        seated, order = order[:size], order[size:]
        lone = size == 1
        tables.append(TournamentTable(
            tournament_id=t.id, round=round_no, table_no=table_no,
            room_id=None if lone else secrets.token_hex(8), players=seated,
            winner=seated[0] if lone else None, places=[0] if lone else None))
    s.add_all(tables)
    return tables


async def table_finished(s: AsyncSession, room_id: str, match_id: str, winner: int | None,
                         totals: list[int]) -> str | None:
    """Record the result of a tournament table's match, in the transaction that closes it; the
    final's ends the tournament (standings and prizes). The tournament's id, or None when the
    room is not a tournament's table."""
    table = await s.scalar(select(TournamentTable).where(TournamentTable.room_id == room_id))
    if table is None:
        return None
    t = await _locked(s, table.tournament_id)
    if table.winner is not None:
        return t.id
    last_hand = await s.scalar(select(HandResult.scores).where(HandResult.match_id == match_id)
                               .order_by(HandResult.hand_no.desc()).limit(1))
    places = table_places(t.game, totals, winner, last_hand or [0] * len(totals))
    table.places = places
    table.winner = table.players[places.index(0)]
    await s.flush()
    tables = await _tables(s, t.id)
    current = [x for x in tables if x.round == table.round]
    if len(current) == 1 and all(x.winner is not None for x in current):
        await _finish(s, t, tables)
    return t.id


def table_places(game: str, totals: Sequence[int], winner: int | None,
                 last_hand: Sequence[int]) -> list[int]:
    """Each seat's place at its table (0 best): the match's winner, or on a tie the best total,
    then the best score in the last hand, then the lower seat; the others by total, equal
    totals sharing a place."""
    better = game_def(game).scoring.better
    seats = range(len(totals))
    if winner is None:
        winner = min(seats, key=lambda x: (
            sum(better(totals[o], totals[x]) for o in seats),
            sum(better(last_hand[o], last_hand[x]) for o in seats), x))
    return [0 if x == winner else
            1 + sum(1 for o in seats if o != winner and better(totals[o], totals[x]))
            for x in seats]


async def _finish(s: AsyncSession, t: Tournament, tables: list[TournamentTable]) -> None:
    """Standings and prizes, paid from the pot in this transaction (PROTOCOL.md §8 places)."""
    entries = {e.player_id: e for e in await _entries(s, t.id)}
    order = standings_order(tables, {p: e.number for p, e in entries.items()})
    pot = await ledger.pot_of(s, t.id)
    chips = prize_chips(t.entry * len(entries), t.prizes)
    wallets = {p: (await ledger.wallet_of(s, p)).id for p in order[:len(chips)]}
    await ledger.lock_accounts(s, [pot.id, *wallets.values()])
    for place, player_id in enumerate(order, start=1):
        prize = chips[place - 1] if place <= len(chips) else 0
        entries[player_id].place, entries[player_id].prize = place, prize
        if prize > 0:
            await ledger.transfer(s, f"tournament:{t.id}:prize:{place}", pot.id,
                                  wallets[player_id], prize, "tournament_prize")
    t.status, t.finished_at = "finished", utcnow()
    await s.flush()


def standings_order(tables: Sequence[TournamentTable], number: dict[str, int]) -> list[str]:
    """Players from first to last: the final's winner, the final's others by their place
    there, then each earlier round's eliminated, later rounds first; within a round by place at
    their table, equal places in the order of registration."""
    rounds = sorted({x.round for x in tables}, reverse=True)
    out: list[str] = []
    for round_no in rounds:
        placed = [(place, number[player], player)
                  for x in tables if x.round == round_no and x.places is not None
                  for player, place in zip(x.players, x.places, strict=True)
                  if round_no == rounds[0] or player != x.winner]
        out.extend(player for _, _, player in sorted(placed))
    return out


# --- reading ----------------------------------------------------------------------------------


async def find(s: AsyncSession, tournament_id: str) -> Tournament:
    t = await s.get(Tournament, tournament_id)
    if t is None:
        raise Refusal(Code.NO_SUCH_TOURNAMENT, f"no tournament {tournament_id[:40]!r}")
    return t


async def shown(s: AsyncSession, t: Tournament, viewer: str | None = None) -> dict[str, Any]:
    """The tournament as PROTOCOL.md §8 shows it to ``viewer`` (their ``my_table``)."""
    entries = await _entries(s, t.id)
    tables = await _tables(s, t.id)
    pool = t.entry * len(entries)
    rounds: dict[int, list[dict[str, Any]]] = {}
    for x in tables:
        rounds.setdefault(x.round, []).append(
            {"room": x.room_id, "players": list(x.players), "winner": x.winner,
             "opened_at": x.opened_at})
    standings = sorted((e for e in entries if e.place is not None), key=lambda e: e.place or 0)
    return {"id": t.id, "name": t.name, "creator": t.creator_id, "game": t.game,
            "options": t.options, "status": t.status, "players": t.players,
            "table_seats": t.table_seats, "entry": t.entry, "prize_pool": pool,
            "arrival_seconds": t.arrival_seconds, "my_table": my_table(t, tables, viewer),
            "prizes": prize_chips(pool, t.prizes),
            "registered": [{"id": e.player_id, "name": e.name} for e in entries],
            "rounds": [{"round": n, "tables": tabs} for n, tabs in sorted(rounds.items())],
            "standings": [{"place": e.place, "player": e.player_id, "name": e.name,
                           "prize": e.prize} for e in standings]}


def my_table(t: Tournament, tables: Sequence[TournamentTable], viewer: str | None) -> str | None:
    """The room of the round now running at which ``viewer`` still plays (PROTOCOL.md §8
    "Where to be"), once it has opened: None while they wait for the round to end (or for
    their table to open), once they are out, and once the tournament is over."""
    if t.status != "running" or not tables:
        return None
    last = tables[-1].round
    return next((x.room_id for x in tables if x.round == last and x.winner is None
                 and x.opened_at is not None and viewer in x.players), None)


async def listing(s: AsyncSession) -> list[Tournament]:
    """Registering and running tournaments, then the latest finished or cancelled."""
    live = (await s.scalars(select(Tournament).where(
        Tournament.status.in_(("registering", "running"))).order_by(
        Tournament.created_at.desc()))).all()
    over = (await s.scalars(select(Tournament).where(
        or_(Tournament.status == "finished", Tournament.status == "cancelled")).order_by(
        Tournament.finished_at.desc()).limit(FINISHED_LISTED))).all()
    return [*live, *over]


async def listing_of(s: AsyncSession, player_id: str) -> list[Tournament]:
    """The registering and running tournaments that the player is registered in or created,
    newest first (the lobby's "Your games")."""
    entered = select(TournamentEntry.tournament_id).where(
        TournamentEntry.player_id == player_id)
    return list((await s.scalars(select(Tournament).where(
        Tournament.status.in_(("registering", "running")),
        or_(Tournament.creator_id == player_id, Tournament.id.in_(entered))).order_by(
        Tournament.created_at.desc()))).all())


async def _locked(s: AsyncSession, tournament_id: str) -> Tournament:
    query = select(Tournament).where(Tournament.id == tournament_id).execution_options(
        populate_existing=True)
    if s.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    t = await s.scalar(query)
    if t is None:
        raise Refusal(Code.NO_SUCH_TOURNAMENT, f"no tournament {tournament_id[:40]!r}")
    return t


async def _entries(s: AsyncSession, tournament_id: str) -> list[TournamentEntry]:
    return list((await s.scalars(select(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament_id).order_by(TournamentEntry.number))).all())


async def _entry_count(s: AsyncSession, tournament_id: str) -> int:
    return int(await s.scalar(select(func.count()).select_from(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament_id)) or 0)


async def _tables(s: AsyncSession, tournament_id: str) -> list[TournamentTable]:
    return list((await s.scalars(select(TournamentTable).where(
        TournamentTable.tournament_id == tournament_id).order_by(
        TournamentTable.round, TournamentTable.table_no))).all())


class SqlTournamentStore:
    """The director's storage (``app.rooms.tournaments.TournamentStore``): one transaction per
    call."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def running(self) -> list[str]:
        async with self.sessions() as s:
            return list((await s.scalars(select(Tournament.id).where(
                Tournament.status == "running"))).all())

    async def tables_to_open(self, tournament_id: str) -> list[TableToOpen]:
        async with self.sessions() as s, s.begin():
            return await tables_to_open(s, tournament_id)

    async def table_opened(self, room_id: str, at: float) -> None:
        async with self.sessions() as s, s.begin():
            await table_opened(s, room_id, at)
