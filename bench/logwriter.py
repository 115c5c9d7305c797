"""The match log's appends on PostgreSQL: one transaction per append versus the log writer.

``python -m bench.logwriter [--appenders 80] [--seconds 10] [--think-ms 0] [--commits N]
[--url URL]`` creates a throwaway database on the server of URL (default
postgresql+asyncpg://postgres@127.0.0.1:5432/postgres), migrates it, and runs APPENDERS concurrent
appenders (each a room: one match, every append awaited before the next, then a random pause of
up to THINK_MS, like a client's round trip) for SECONDS per path, in the same run:

- ``per-append``: the path before the writer, an ORM unit of work and a transaction per append
  on an engine that pings each connection at checkout (SQLAlchemy's default pool, 5 + 10);
- ``writer``: `app.services.logwriter.LogWriter` on the app's engine (group commit), with
  COMMITS concurrent commits (default: the writer's own).

For each it prints appends/s, the number of commits and the p50/p99 time of one append. The
database is dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import time
from collections.abc import Awaitable, Callable

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.migrate import upgrade
from app.db.models import Match, MatchAction
from app.db.session import Pool, make_engine, make_sessionmaker
from app.services.logwriter import LogWriter

DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
ACTION = {"type": "discard", "card": "TD"}

Append = Callable[[str, int], Awaitable[None]]


async def _admin(url: str, sql: str) -> None:
    parsed = make_url(url)
    connection = await asyncpg.connect(host=parsed.host, port=parsed.port or 5432,
                                       user=parsed.username, password=parsed.password,
                                       database=parsed.database)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def _matches(engine: AsyncEngine, count: int) -> list[str]:
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        matches = [Match(game="standard", options={}, players=4) for _ in range(count)]
        s.add_all(matches)
    return [m.id for m in matches]


async def _run(engine: AsyncEngine, append: Append, appenders: int, seconds: float,
               think_ms: float) -> dict[str, object]:
    commits = 0

    def count(_connection: object) -> None:
        nonlocal commits
        commits += 1

    match_ids = await _matches(engine, appenders)
    times: list[float] = []
    deadline = time.monotonic() + seconds

    async def room(match_id: str) -> None:
        seq = 0
        while time.monotonic() < deadline:
            start = time.perf_counter()
            await append(match_id, seq)
            times.append((time.perf_counter() - start) * 1000)
            seq += 1
            if think_ms:
                await asyncio.sleep(random.random() * think_ms / 1000)  # noqa: S311 - timing

    event.listen(engine.sync_engine, "commit", count)
    started = time.monotonic()
    await asyncio.gather(*(room(m) for m in match_ids))
    elapsed = time.monotonic() - started
    event.remove(engine.sync_engine, "commit", count)
    times.sort()
    return {"appends": len(times), "appends_per_s": round(len(times) / elapsed),
            "commits": commits, "rows_per_commit": round(len(times) / max(commits, 1), 1),
            "p50_ms": round(times[len(times) // 2], 2),
            "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2)}


async def per_append(url: str, appenders: int, seconds: float,
                     think_ms: float) -> dict[str, object]:
    engine = make_engine(url, Pool(size=5), pool_pre_ping=True)
    sessions = make_sessionmaker(engine)

    async def append(match_id: str, seq: int) -> None:
        async with sessions() as s, s.begin():
            s.add(MatchAction(match_id=match_id, hand_no=0, seq=seq, seat=seq % 4,
                              action=ACTION, client_id=None))

    try:
        return await _run(engine, append, appenders, seconds, think_ms)
    finally:
        await engine.dispose()


async def writer(url: str, appenders: int, seconds: float, think_ms: float,
                 commits: int | None) -> dict[str, object]:
    engine = make_engine(url)
    log = LogWriter(engine, commits)

    async def append(match_id: str, seq: int) -> None:
        await log.append(match_id, 0, seq, seq % 4, ACTION, None)

    try:
        return await _run(engine, append, appenders, seconds, think_ms)
    finally:
        await log.close()
        await engine.dispose()


async def main(url: str, appenders: int, seconds: float, think_ms: float,
               commits: int | None) -> None:
    name = f"rummy_bench_{secrets.token_hex(4)}"
    await _admin(url, f'CREATE DATABASE "{name}"')
    database = make_url(url).set(database=name).render_as_string(hide_password=False)
    try:
        await asyncio.to_thread(upgrade, database)
        print("per-append", await per_append(database, appenders, seconds, think_ms))
        print("writer", await writer(database, appenders, seconds, think_ms, commits))
    finally:
        await _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appenders", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think-ms", type=float, default=0.0)
    parser.add_argument("--commits", type=int, default=None)
    parser.add_argument("--url", default=DEFAULT_URL)
    options = parser.parse_args()
    asyncio.run(main(options.url, options.appenders, options.seconds, options.think_ms,
                     options.commits))
