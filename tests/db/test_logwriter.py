"""The match log writer on SQLite and PostgreSQL: group commit, durability before return,
per-match order, a bad row failing alone, close flushing; on a private PostgreSQL cluster,
an outage refused and the first commits after the restart succeeding."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.migrate import upgrade
from app.db.models import Match, MatchAction
from app.db.session import make_engine, make_sessionmaker
from app.services.logwriter import LogWriter, LogWriterClosed
from app.services.outage import is_storage_outage
from tests.pgcluster import private_cluster

MATCHES = 8
PER_MATCH = 25


@pytest.fixture
async def engine(migrated_url: str) -> AsyncIterator[AsyncEngine]:
    engine = make_engine(migrated_url)
    try:
        yield engine
    finally:
        await engine.dispose()


@pytest.fixture
async def reader(migrated_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine of its own: what it sees is committed, not just written by the writer."""
    engine = make_engine(migrated_url)
    try:
        yield engine
    finally:
        await engine.dispose()


class Commits:
    """The rows of `match_actions` each commit held, in commit order (and, on SQLite, those of
    each rolled-back transaction). SQLite: seen through SQLAlchemy's events, as the writer goes
    through Core there. PostgreSQL: read back by `read`, grouped by the transaction that wrote
    them (`xmin`): the writer uses asyncpg connections of its own, and a commit is one
    implicit or explicit transaction."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.batches: list[list[tuple[str, int]]] = []
        self.rolled_back: list[list[tuple[str, int]]] = []
        if engine.dialect.name != "sqlite":
            return
        written: dict[int, list[tuple[str, int]]] = defaultdict(list)

        @event.listens_for(engine.sync_engine, "before_execute")
        def _execute(conn: Connection, statement: Any, multiparams: Any, params: Any,
                     options: Any) -> None:
            if getattr(statement, "table", None) is MatchAction.__table__:
                rows = multiparams or [params]  # one row comes as `params`
                written[id(conn)].extend((r["match_id"], r["seq"]) for r in rows)

        @event.listens_for(engine.sync_engine, "commit")
        def _commit(conn: Connection) -> None:
            self.batches.append(written.pop(id(conn), []))

        @event.listens_for(engine.sync_engine, "rollback")
        def _rollback(conn: Connection) -> None:
            if id(conn) in written:
                self.rolled_back.append(written.pop(id(conn)))

    async def read(self, match_ids: list[str]) -> None:
        """PostgreSQL: the batches of these matches' rows, by writing transaction."""
        if self.engine.dialect.name == "sqlite":
            return
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text(
                "SELECT xmin::text::bigint AS tx, match_id, seq FROM match_actions "
                "WHERE match_id = ANY(:m) ORDER BY tx, hand_no, seq"), {"m": match_ids})).all()
        by_tx: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for tx, match_id, seq in rows:
            by_tx[tx].append((match_id, seq))
        self.batches = list(by_tx.values())

    @property
    def rows(self) -> list[tuple[str, int]]:
        return [row for batch in self.batches for row in batch]


async def _matches(engine: AsyncEngine, count: int) -> list[str]:
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        matches = [Match(game="standard", options={}, players=2) for _ in range(count)]
        s.add_all(matches)
    return [m.id for m in matches]


async def _logged(engine: AsyncEngine, match_id: str) -> list[tuple[int, int, dict[str, Any]]]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(MatchAction.hand_no, MatchAction.seq, MatchAction.action)
            .where(MatchAction.match_id == match_id)
            .order_by(MatchAction.hand_no, MatchAction.seq))
        return [(r.hand_no, r.seq, r.action) for r in rows]


def _action(match_id: str, seq: int) -> dict[str, Any]:
    return {"type": "discard", "card": f"{seq}{match_id[:4]}"}


async def test_concurrent_appends_share_commits_and_all_land_in_order(
        engine: AsyncEngine, reader: AsyncEngine) -> None:
    match_ids = await _matches(engine, MATCHES)
    commits = Commits(engine)
    writer = LogWriter(engine)

    async def play(match_id: str) -> None:  # one room: each append awaited before the next
        for seq in range(PER_MATCH):
            await writer.append(match_id, 0, seq, seq % 2, _action(match_id, seq), f'"c{seq}"')
            await asyncio.sleep(random.random() / 1000)

    await asyncio.gather(*(play(m) for m in match_ids))
    await writer.close()
    await commits.read(match_ids)

    appends = MATCHES * PER_MATCH
    assert len(commits.rows) == appends
    assert len(commits.batches) < appends / 2, len(commits.batches)
    for match_id in match_ids:
        assert await _logged(reader, match_id) == [
            (0, seq, _action(match_id, seq)) for seq in range(PER_MATCH)]


async def test_appends_of_one_match_commit_in_call_order(
        engine: AsyncEngine, reader: AsyncEngine) -> None:
    """Appends made without waiting for each other (several commits may be in flight): per
    match, the commits hold the rows in the order of the calls."""
    match_ids = await _matches(engine, 3)
    commits = Commits(engine)
    writer = LogWriter(engine, commits=3, max_batch=7)  # on SQLite too: they queue for the lock
    calls = [(m, seq) for seq in range(40) for m in match_ids]
    tasks = []
    for i, (match_id, seq) in enumerate(calls):
        tasks.append(asyncio.create_task(
            writer.append(match_id, 0, seq, 0, _action(match_id, seq), None)))
        if i % 5 == 0:
            await asyncio.sleep(0)  # let commits start while more appends arrive
    await asyncio.gather(*tasks)
    await commits.read(match_ids)

    assert len(commits.batches) > 1
    assert max(len(batch) for batch in commits.batches) <= 7
    for match_id in match_ids:
        assert [seq for m, seq in commits.rows if m == match_id] == list(range(40))
        assert [seq for _, seq, _ in await _logged(reader, match_id)] == list(range(40))
    await writer.close()


async def test_append_returns_only_once_its_row_is_visible_elsewhere(
        engine: AsyncEngine, reader: AsyncEngine) -> None:
    match_ids = await _matches(engine, 4)
    writer = LogWriter(engine)

    async def play(match_id: str) -> None:
        for seq in range(10):
            await writer.append(match_id, 0, seq, 1, _action(match_id, seq), None)
            async with reader.connect() as conn:
                seen = await conn.scalar(select(func.count()).select_from(MatchAction).where(
                    MatchAction.match_id == match_id, MatchAction.seq == seq))
            assert seen == 1, (match_id, seq)

    await asyncio.gather(*(play(m) for m in match_ids))
    await writer.close()


async def test_a_bad_row_fails_only_its_own_append(
        engine: AsyncEngine, reader: AsyncEngine) -> None:
    match_ids = await _matches(engine, 5)
    taken = match_ids[0]
    writer = LogWriter(engine, commits=1)
    await writer.append(taken, 0, 0, 0, _action(taken, 0), None)
    commits = Commits(engine)
    blocker = asyncio.create_task(writer.append(taken, 0, 1, 0, _action(taken, 1), None))
    await asyncio.sleep(0)  # the next appends queue behind this commit, then share one

    # (match, hand 0, seq 0) is taken: that append repeats it, the others are new
    calls = [(m, 0, 0) for m in match_ids[1:]] + [(taken, 0, 0)] + [(m, 1, 0) for m in match_ids]
    results = await asyncio.gather(
        *(writer.append(m, hand, seq, 0, {"type": "draw", "from": "stock"}, None)
          for m, hand, seq in calls), return_exceptions=True)
    await blocker

    failed = [call for call, result in zip(calls, results, strict=True) if result is not None]
    assert failed == [(taken, 0, 0)]
    error = results[calls.index((taken, 0, 0))]
    assert isinstance(error, IntegrityError | asyncpg.UniqueViolationError)  # SQLite | PG
    assert not is_storage_outage(error)
    # the bad row was in a batch with others, which were then stored one by one
    await commits.read(match_ids)
    stored = [(m, seq) for m, hand, seq in calls if (m, hand, seq) != (taken, 0, 0)]
    assert all(len(batch) == 1 for batch in commits.batches
               if any(row in batch for row in stored)), commits.batches
    if engine.dialect.name == "sqlite":
        assert len(commits.rolled_back[0]) == len(calls)
    for match_id in match_ids:
        expected = [(0, 0), (0, 1), (1, 0)] if match_id == taken else [(0, 0), (1, 0)]
        assert [(hand, seq) for hand, seq, _ in await _logged(reader, match_id)] == expected
    await writer.close()


async def test_close_commits_what_is_queued_then_refuses(
        engine: AsyncEngine, reader: AsyncEngine) -> None:
    match_ids = await _matches(engine, 4)
    writer = LogWriter(engine)
    tasks = [asyncio.create_task(writer.append(m, 0, seq, 0, _action(m, seq), None))
             for seq in range(30) for m in match_ids]
    await asyncio.sleep(0)  # the appends are queued; none is committed yet
    await writer.close()

    assert all(task.done() and task.exception() is None for task in tasks)
    for match_id in match_ids:
        assert [seq for _, seq, _ in await _logged(reader, match_id)] == list(range(30))
    with pytest.raises(LogWriterClosed):
        await writer.append(match_ids[0], 0, 30, 0, _action(match_ids[0], 30), None)


async def test_an_append_cancelled_before_its_commit_is_withdrawn(
        engine: AsyncEngine, reader: AsyncEngine) -> None:
    kept, withdrawn = await _matches(engine, 2)
    writer = LogWriter(engine)
    tasks = [asyncio.create_task(writer.append(m, 0, 0, 0, _action(m, 0), None))
             for m in (kept, withdrawn)]
    await asyncio.sleep(0)  # both queued, no commit taken yet
    tasks[1].cancel()
    await writer.close()

    assert tasks[0].result() is None and tasks[1].cancelled()
    assert [seq for _, seq, _ in await _logged(reader, kept)] == [0]
    assert await _logged(reader, withdrawn) == []


@pytest.mark.postgres
async def test_an_outage_is_refused_and_the_first_commits_after_it_succeed() -> None:
    with private_cluster() as cluster:
        url = cluster.create_database("rummy")
        await asyncio.to_thread(upgrade, url)
        engine = make_engine(url)
        writer = LogWriter(engine)
        try:
            await _outage_and_recovery(cluster, engine, writer)
        finally:
            await writer.close()
            await engine.dispose()


async def _outage_and_recovery(cluster: Any, engine: AsyncEngine, writer: LogWriter) -> None:
    match_ids = await _matches(engine, 3)
    seqs = dict.fromkeys(match_ids, 0)

    async def round_of_appends() -> list[BaseException | None]:
        async def one(match_id: str) -> None:
            await writer.append(match_id, 0, seqs[match_id], 0, _action(match_id, 0), None)
            seqs[match_id] += 1

        return await asyncio.gather(*(one(m) for m in match_ids), return_exceptions=True)

    assert await round_of_appends() == [None] * 3  # the pool now holds live connections

    # Restarted while idle: the pooled connections are dead, and are not pinged before use.
    await asyncio.to_thread(cluster.stop, "fast")
    await asyncio.to_thread(cluster.start)
    assert await round_of_appends() == [None] * 3

    # Down: every append is refused as an outage, nothing is half-written.
    await asyncio.to_thread(cluster.stop, "immediate")
    refused = await round_of_appends()
    assert all(isinstance(r, Exception) and is_storage_outage(r) for r in refused), refused

    await asyncio.to_thread(cluster.start)
    assert await round_of_appends() == [None] * 3
    assert await round_of_appends() == [None] * 3
    await engine.dispose()  # its pooled connection died with the cluster (the writer's are its own)
    async with engine.connect() as conn:
        for match_id in match_ids:
            seqs_stored = (await conn.scalars(text(
                "SELECT seq FROM match_actions WHERE match_id = :m ORDER BY seq"),
                {"m": match_id})).all()
            assert seqs_stored == [0, 1, 2, 3]
