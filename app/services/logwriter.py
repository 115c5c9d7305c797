"""The match log's writer: every room's action appends, group-committed.

One `LogWriter` per process. An append joins a queue; a commit takes everything queued (at most
`MAX_BATCH` rows) and inserts it in one transaction, so a busy server pays one round trip and
one fsync for many actions instead of one per action. On PostgreSQL the writer has a small
asyncpg pool of its own and a batch is one fixed statement that inserts the rows of eight
arrays (`unnest`, one per column): one Bind and Execute however many rows, atomic by itself,
with no BEGIN or COMMIT round trip and none of SQLAlchemy's checkout, greenlet and bind
processing on the hot path (a batch with fences is an explicit transaction). SQLite goes
through SQLAlchemy Core. While commits are in flight new appends queue up for the next one; up
to `commits` run at once (one on SQLite, whose file has a single writer), so one commit's
fsync does not hold up every room.

Guarantees:
- `append` returns only after the transaction holding its row committed: never an
  acknowledgement before the row is durable. It raises what that commit raised (an outage stays
  recognisable by `app.services.outage.is_storage_outage`).
- A batch that fails for a reason other than an outage is retried row by row, so only a bad row
  (a repeated (match, hand, seq), say) fails its own append.
- A connection found dead (PostgreSQL restarted since it was pooled, or lost during the commit)
  is replaced and the batch tried once more, skipping any row that the lost commit did store:
  pooled connections are not pinged before use, so this is how the first commit after a
  recovery succeeds.
- Per match, rows commit in the order of the `append` calls: a match with rows in a commit in
  flight waits for that commit before its next rows are taken.
- A caller cancelled before its row is taken into a commit withdraws the row; once taken, the
  row is committed all the same.
- `close` refuses new appends and returns once everything queued is committed (or failed).
- An append may carry its room's fencing token (several processes, docs/scaling.md): the commit
  share-locks those rooms' rows, inserts only the rows whose token is still the room's, and
  fails the others with `StaleOwner`, so a process that lost a room can never add to its log.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import orjson
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app import metrics
from app.db.models import MatchAction, Room, new_id
from app.db.session import PG_CONNECT_TIMEOUT_SECONDS, PG_LOG_COMMITS, asyncpg_dsn
from app.services.outage import is_storage_outage

MAX_BATCH = 500  # rows per transaction: bounds a commit's time and its statement's size

_TABLE = MatchAction.metadata.tables[MatchAction.__tablename__]
_INSERT = insert(_TABLE)
# PostgreSQL: the driver's own statements, no SQL compiled nor bind value processed per row
# (`created_at` is the column's default); the actions as JSON text, cast by the statement.
_PG_INSERT = (
    "INSERT INTO match_actions (id, match_id, hand_no, seq, seat, action, client_id, played_for) "
    "SELECT id, match_id, hand_no, seq, seat, action::json, client_id, played_for FROM unnest("
    "$1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[]"
    ") AS row (id, match_id, hand_no, seq, seat, action, client_id, played_for)")
_PG_FENCES = "SELECT id, fence FROM rooms WHERE id = ANY($1::text[]) FOR SHARE"
_PG_STORED = "SELECT id FROM match_actions WHERE id = ANY($1::text[])"
# What says a pooled connection died under a commit (not that PostgreSQL cannot be reached).
_LOST = (asyncpg.ConnectionDoesNotExistError, asyncpg.InterfaceError, ConnectionResetError,
         BrokenPipeError)
Rows = list[dict[str, Any]]


class LogWriterClosed(RuntimeError):
    """An append after `close`: the server is shutting down."""


class StaleOwner(ConnectionError):
    """The room was taken over by another process: this one may no longer write it (counted as
    a storage outage: nothing changed, and the write belongs at the room's new owner)."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"room {room_id} has a newer owner")
        self.room_id = room_id


async def check_fence(connection: AsyncConnection, fences: dict[str, int]) -> None:
    """Share-lock the rooms' rows; raise `StaleOwner` for the first whose token moved on."""
    stale = await _stale_rooms(connection, fences)
    if stale:
        raise StaleOwner(min(stale))


async def _stale_rooms(connection: AsyncConnection, fences: dict[str, int]) -> set[str]:
    rows = await connection.execute(select(Room.id, Room.fence).where(
        Room.id.in_(list(fences))).with_for_update(read=True))
    return _moved_on(fences, {room_id: fence for room_id, fence in rows})


def _moved_on(fences: dict[str, int], current: dict[str, int]) -> set[str]:
    """The rooms whose token is no longer the one the appends carry."""
    return {room_id for room_id, fence in fences.items() if current.get(room_id) != fence}


@dataclass(slots=True)
class _Append:
    row: dict[str, Any]
    fence: tuple[str, int] | None = None  # (room id, token)
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())
    stale: bool = False

    @property
    def match_id(self) -> str:
        return str(self.row["match_id"])


class LogWriter:
    def __init__(self, engine: AsyncEngine, commits: int | None = None,
                 max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        self.commits = commits or (1 if engine.dialect.name == "sqlite" else PG_LOG_COMMITS)
        self.max_batch = max_batch
        self._dsn = asyncpg_dsn(engine.url) if engine.dialect.name == "postgresql" else None
        self._pool: asyncpg.Pool | None = None
        self._pool_made = asyncio.Lock()
        self._queue: deque[_Append] = deque()
        self._busy: set[str] = set()  # matches with rows in a commit in flight
        self._committing = 0  # rows in commits in flight
        self._tasks: set[asyncio.Task[None]] = set()
        self._scheduled = False
        self._closed = False

    async def append(self, match_id: str, hand_no: int, seq: int, seat: int | None,
                     action: dict[str, Any], client_id: str | None,
                     fence: tuple[str, int] | None = None, played_for: str | None = None
                     ) -> None:
        """Store one row of `match_actions`; returns once it is committed. With `fence`
        (room id, token), only while the room's token is still that one."""
        if self._closed:
            raise LogWriterClosed("the match log writer is closed")
        pending = _Append({"id": new_id(), "match_id": match_id, "hand_no": hand_no,
                           "seq": seq, "seat": seat, "action": action, "client_id": client_id,
                           "played_for": played_for},
                          fence)
        self._queue.append(pending)
        if not self._scheduled:  # after the current tick: appends made in it share the commit
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._dispatch)
        await pending.done

    @property
    def pending(self) -> int:
        """Rows appended and not yet committed (queued, or in a commit in flight)."""
        return len(self._queue) + self._committing

    async def close(self) -> None:
        """Refuse new appends; return when every queued one is committed or has failed."""
        self._closed = True
        while self._queue or self._tasks:
            self._dispatch()
            if self._tasks:
                await asyncio.wait(set(self._tasks))
        if self._pool is not None:
            await self._pool.close()

    def _dispatch(self) -> None:
        """Start commits while connections are free and rows wait."""
        self._scheduled = False
        while len(self._tasks) < self.commits and self._queue:
            batch = self._take()
            if not batch:
                return
            self._busy.update(p.match_id for p in batch)
            self._committing += len(batch)
            task = asyncio.create_task(self._commit(batch))
            self._tasks.add(task)
            task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._dispatch()

    def _take(self) -> list[_Append]:
        """The next batch in queue order, leaving the rows of matches with a commit in flight
        (and abandoning those whose caller was cancelled before they were taken)."""
        batch: list[_Append] = []
        left: deque[_Append] = deque()
        while self._queue and len(batch) < self.max_batch:
            pending = self._queue.popleft()
            if pending.done.cancelled():
                continue
            (left if pending.match_id in self._busy else batch).append(pending)
        left.extend(self._queue)
        self._queue = left
        return batch

    async def _commit(self, batch: list[_Append]) -> None:
        try:
            began = time.perf_counter()
            error = await self._store(batch)
            if error is None:
                metrics.log_committed(len(batch), time.perf_counter() - began)
            if error is None or len(batch) == 1 or is_storage_outage(error):
                for pending in batch:
                    _settle(pending, _refusal(pending) if error is None else error)
            else:  # one bad row fails only its own append
                for pending in batch:
                    error = await self._store([pending])
                    _settle(pending, _refusal(pending) if error is None else error)
        finally:
            for pending in batch:
                if not pending.done.done():  # this task was cancelled (the loop is closing)
                    pending.done.cancel()
            self._busy.difference_update(p.match_id for p in batch)
            self._committing -= len(batch)

    async def _store(self, batch: list[_Append]) -> Exception | None:
        """Insert the rows in one transaction; the error, or None once committed."""
        if self._dsn is None:
            try:
                async with self.engine.begin() as connection:
                    fences = _fences(batch)
                    rows = _unfenced(batch, fences, await _stale_rooms(connection, fences)
                                     if fences else set())
                    if rows:
                        await connection.execute(_INSERT, rows)
                return None
            except Exception as exc:
                return exc
        try:
            await self._store_pg(batch, retried=False)
            return None
        except _LOST:
            pass  # a dead connection, now discarded: once more on a new one
        except Exception as exc:
            return exc
        try:
            await self._store_pg(batch, retried=True)
            return None
        except Exception as exc:
            return exc

    async def _store_pg(self, batch: list[_Append], retried: bool) -> None:
        """One batch on one of the writer's own connections. Without fences and not
        `retried`, one statement (atomic by itself); otherwise a transaction that first
        checks the fences and, after a lost commit, which rows it did store."""
        async with (await self._pg_pool()).acquire() as connection:
            fences = _fences(batch)
            if not fences and not retried:
                await connection.execute(_PG_INSERT, *_pg_columns([p.row for p in batch]))
                return
            async with connection.transaction():
                stale: set[str] = set()
                if fences:
                    stale = _moved_on(fences, dict(await connection.fetch(_PG_FENCES,
                                                                          list(fences))))
                rows = _unfenced(batch, fences, stale)
                if retried and rows:
                    stored = {r["id"] for r in await connection.fetch(
                        _PG_STORED, [row["id"] for row in rows])}
                    rows = [row for row in rows if row["id"] not in stored]
                if rows:
                    await connection.execute(_PG_INSERT, *_pg_columns(rows))

    async def _pg_pool(self) -> asyncpg.Pool:
        """The writer's own connections (as many as its commits), made on first use."""
        if self._pool is None:
            async with self._pool_made:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=0, max_size=self.commits, reset=_as_it_is,
                        timeout=PG_CONNECT_TIMEOUT_SECONDS)
        return self._pool


async def _as_it_is(_connection: asyncpg.Connection) -> None:
    """A connection goes back to the writer's pool without asyncpg's reset (a round trip of
    RESET ALL, UNLISTEN and more per commit): the writer never changes a session's state."""


def _pg_columns(rows: Rows) -> tuple[list[Any], ...]:
    """The batch as the statement's eight arrays, one per column (the action as JSON text)."""
    return ([r["id"] for r in rows], [r["match_id"] for r in rows],
            [r["hand_no"] for r in rows], [r["seq"] for r in rows], [r["seat"] for r in rows],
            [orjson.dumps(r["action"]).decode() for r in rows], [r["client_id"] for r in rows],
            [r["played_for"] for r in rows])


def _fences(batch: list[_Append]) -> dict[str, int]:
    return dict(pending.fence for pending in batch if pending.fence is not None)


def _unfenced(batch: list[_Append], fences: dict[str, int], stale: set[str]) -> Rows:
    """The rows that may be written: those without a fence, and those whose room's token is
    still theirs (the others are marked stale)."""
    rows = []
    for pending in batch:
        pending.stale = pending.fence is not None and (
            pending.fence[0] in stale or fences[pending.fence[0]] != pending.fence[1])
        if not pending.stale:
            rows.append(pending.row)
    return rows


def _refusal(pending: _Append) -> Exception | None:
    return StaleOwner(pending.fence[0]) if pending.stale and pending.fence else None


def _settle(pending: _Append, error: Exception | None) -> None:
    if pending.done.done():  # its caller was cancelled while the row was being committed
        return
    if error is None:
        pending.done.set_result(None)
    else:
        pending.done.set_exception(error)
