"""The fencing token on real PostgreSQL: once another process takes a room over, every write of
the previous owner (the log writer's appends, deals, results) is refused in its own transaction
and nothing of it is stored; the new owner's writes go through."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db.migrate import upgrade
from app.db.models import MatchAction, MatchHand
from app.db.session import make_engine, make_sessionmaker
from app.services import ledger
from app.services.accounts import create_guest
from app.services.logwriter import LogWriter, StaleOwner
from app.services.records import RoomRecord
from app.services.room_settings import RoomSettings
from app.services.store import SqlMatchStore
from tests import pg

pytestmark = pytest.mark.postgres


@pytest.fixture
async def stores() -> AsyncIterator[tuple[SqlMatchStore, SqlMatchStore, Any]]:
    """Two processes' stores (each its own engine and log writer) on one fresh database."""
    url = pg.create_database("rummy_fence")
    try:
        upgrade(url)
        engines = [make_engine(url), make_engine(url)]
        writers = [LogWriter(e) for e in engines]
        made = [SqlMatchStore(make_sessionmaker(e), w) for e, w in zip(engines, writers,
                                                                        strict=True)]
        try:
            yield made[0], made[1], make_sessionmaker(engines[0])
        finally:
            for writer, engine in zip(writers, engines, strict=True):
                await writer.close()
                await engine.dispose()
    finally:
        pg.drop_database(url)


async def test_a_stale_owner_cannot_write_the_room(
        stores: tuple[SqlMatchStore, SqlMatchStore, Any]) -> None:
    first, second, sessions = stores
    async with sessions() as s, s.begin():
        await ledger.ensure_bank(s)
        host = await create_guest(s, "Host")
    record = RoomRecord(id="room-fenced", host_id=host.id, invite_code="fenced", fence=1,
                        settings=RoomSettings(game="standard", seats=2))
    await first.save_room(record)
    assert await first.take_over(record.id) == 2  # the first process takes it: token 2
    mine = RoomRecord(**{**record.__dict__, "fence": 2})
    await first.start_match(mine, "match-1", 2)
    await first.record_deal(mine, "match-1", 0, 0, {"hands": []}, None)
    await first.append_action(mine, "match-1", 0, 0, 1, {"type": "draw"}, "a-1")

    assert await second.take_over(record.id) == 3  # the second takes it over
    theirs = RoomRecord(**{**record.__dict__, "fence": 3})
    with pytest.raises(StaleOwner):  # the first, not yet aware, is fenced off
        await first.append_action(mine, "match-1", 0, 1, 0, {"type": "draw"}, "a-2")
    with pytest.raises(StaleOwner):
        await first.record_deal(mine, "match-1", 1, 1, {"hands": []}, None)
    await second.append_action(theirs, "match-1", 0, 1, 0, {"type": "draw"}, "b-1")

    async with sessions() as s:
        rows = (await s.execute(select(MatchAction.seq, MatchAction.client_id)
                                .order_by(MatchAction.seq))).all()
        hands = await s.scalar(select(func.count()).select_from(MatchHand))
    assert [(seq, client_id) for seq, client_id in rows] == [(0, '"a-1"'), (1, '"b-1"')]
    assert hands == 1
