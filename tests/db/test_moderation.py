"""Sanctions end by themselves (PROTOCOL.md §9): a suspension or a chat mute refuses only while
it is in force, i.e. before its end and unless lifted early; each action is in the audit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import utcnow
from app.db.models import AdminAction, Player, Sanction
from app.refusals import Refusal
from app.services import moderation
from tests.db.ledger_helpers import bare_player

Sessions = async_sessionmaker[AsyncSession]


async def _admin(session: AsyncSession) -> str:
    admin = Player(name="chief", is_guest=True, role="admin")
    session.add(admin)
    await session.flush()
    return admin.id


async def test_a_sanction_refuses_only_while_in_force(sessions: Sessions) -> None:
    async with sessions() as s, s.begin():
        admin, player = await _admin(s), await bare_player(s)
        suspension = await moderation.sanction(s, admin, player, "suspension", 1, "dumping")
        mute = await moderation.sanction(s, admin, player, "chat_mute", 1, "spam")
    async with sessions() as s, s.begin():
        with pytest.raises(moderation.Suspended):
            await moderation.check_not_suspended(s, player)
        with pytest.raises(moderation.ChatMuted):
            await moderation.check_may_chat(s, player)
        # An hour later, both are over without anyone lifting them.
        await s.execute(update(Sanction).values(ends_at=utcnow() - timedelta(seconds=1)))
    async with sessions() as s, s.begin():
        await moderation.check_not_suspended(s, player)
        await moderation.check_may_chat(s, player)
        lifted = await moderation.lift(s, admin, suspension["id"])  # over already: unchanged
        assert lifted["lifted_at"] is None
        actions = list(await s.scalars(select(AdminAction.action)))
    assert sorted(actions) == ["chat_mute", "suspension"]
    assert mute["kind"] == "chat_mute"


async def test_an_admin_cannot_sanction_themselves(sessions: Sessions) -> None:
    async with sessions() as s, s.begin():
        admin = await _admin(s)
        with pytest.raises(Refusal) as refused:
            await moderation.sanction(s, admin, admin, "suspension", 1, "oops")
        assert refused.value.code == "forbidden"


async def test_the_list_of_sanctions_in_force_leaves_out_those_over_or_lifted(
        sessions: Sessions) -> None:
    async with sessions() as s, s.begin():
        admin, player = await _admin(s), await bare_player(s)
        over = await moderation.sanction(s, admin, player, "suspension", 1, "dumping")
        lifted = await moderation.sanction(s, admin, player, "chat_mute", 1, "spam")
        current = await moderation.sanction(s, admin, player, "chat_mute", 2, "shouting")
        await moderation.lift(s, admin, lifted["id"])
        await s.execute(update(Sanction).where(Sanction.id == over["id"])
                        .values(ends_at=utcnow() - timedelta(seconds=1)))
    async with sessions() as s, s.begin():
        active = await moderation.sanctions(s, player_id=player, limit=50, offset=0)
        every = await moderation.sanctions(s, active=False, player_id=player, limit=50,
                                           offset=0)
        nobody = await moderation.sanctions(s, active=False, player_id=admin, limit=50,
                                            offset=0)
    assert [r["id"] for r in active] == [current["id"]]
    assert active[0]["admin_name"] == "chief" and active[0]["lifted_by"] is None
    assert {r["id"] for r in every} == {over["id"], lifted["id"], current["id"]}
    by_id = {r["id"]: r for r in every}
    assert by_id[lifted["id"]]["lifted_by"] == admin and by_id[lifted["id"]]["lifted_at"]
    assert by_id[over["id"]]["lifted_at"] is None
    assert nobody == []
