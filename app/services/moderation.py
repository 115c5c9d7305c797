"""Moderation (PROTOCOL.md §9): players' blocks and reports; admins' decisions on reports,
sanctions (chat mute, suspension) and ledger corrections, each recorded in the audit
(``admin_actions``) in the same transaction as the action itself.

The caller owns the transaction, as with the ledger; nothing here commits.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.base import utcnow
from app.db.models import AdminAction, Block, Player, Report, Sanction, new_id
from app.refusals import Code, FixedRefusal, Refusal
from app.services import ledger, matches
from app.services.matches import NotFound

REASONS = ("cheating", "collusion", "abuse", "other")
DECISIONS = ("dismissed", "actioned")
KINDS = ("chat_mute", "suspension")
MAX_REPORT_TEXT = 1000
MAX_HOURS = 24 * 365 * 10  # ten years: longer is a permanent ban, which this is not
MAX_CORRECTION = 10**12
REPORT_WINDOW = timedelta(hours=1)


class Suspended(FixedRefusal):
    code = Code.SUSPENDED


class ChatMuted(FixedRefusal):
    code = Code.CHAT_MUTED


class TooManyReports(FixedRefusal):
    code = Code.TOO_MANY_REPORTS


# --- blocks -----------------------------------------------------------------------------------


async def blocked_by(s: AsyncSession, player_id: str) -> list[str]:
    """The players ``player_id`` blocked, oldest block first."""
    return list(await s.scalars(select(Block.blocked_id).where(Block.player_id == player_id)
                                .order_by(Block.created_at, Block.blocked_id)))


async def block(s: AsyncSession, player_id: str, other_id: str) -> list[str]:
    """Block ``other_id`` (a repeat changes nothing); the blocked list after it."""
    if other_id == player_id:
        raise Refusal(Code.BAD_FIELD, "you cannot block yourself", {"field": "id"})
    await matches.existing_player(s, other_id)
    if await s.get(Block, (player_id, other_id)) is None:
        s.add(Block(player_id=player_id, blocked_id=other_id))
        await s.flush()
    return await blocked_by(s, player_id)


async def unblock(s: AsyncSession, player_id: str, other_id: str) -> list[str]:
    """Lift a block of ``other_id`` (none: nothing changes); the blocked list after it."""
    await s.execute(delete(Block).where(Block.player_id == player_id,
                                        Block.blocked_id == other_id))
    return await blocked_by(s, player_id)


async def blockers_of(s: AsyncSession, speakers: Iterable[str | None]
                      ) -> dict[str, frozenset[str]]:
    """The players who blocked each of ``speakers`` (None: nobody's line), who are not shown
    their chat (`app.seating_policy.shown`); a speaker nobody blocked is left out."""
    wanted = {speaker for speaker in speakers if speaker is not None}
    found: dict[str, set[str]] = {}
    if wanted:
        for blocker, blocked in await s.execute(select(Block.player_id, Block.blocked_id)
                                                .where(Block.blocked_id.in_(wanted))):
            found.setdefault(blocked, set()).add(blocker)
    return {speaker: frozenset(who) for speaker, who in found.items()}


# --- reports ----------------------------------------------------------------------------------


async def report(s: AsyncSession, reporter_id: str, player_id: str, match_id: str | None,
                 reason: str, text: str, *, per_hour: int) -> tuple[str, bool]:
    """File a report; its id, and whether it is new. Nobody reports themselves
    (``cannot_report_self``). A report of the same player (about the same match, or about none)
    that the reporter has open already is the answer, unchanged: a repeat is not a new
    report. A new one is refused (429 ``too_many_reports``) beyond ``per_hour`` in the last
    hour. The reporter's row is locked, so that one player's reports are filed one at a time
    and two at once can neither both pass the limit nor both be new."""
    if player_id == reporter_id:
        raise Refusal(Code.CANNOT_REPORT_SELF, "you cannot report yourself")
    await matches.existing_player(s, player_id)
    await s.execute(select(Player.id).where(Player.id == reporter_id).with_for_update())
    same_match = Report.match_id.is_(None) if match_id is None else Report.match_id == match_id
    found = await s.scalar(select(Report.id).where(
        Report.reporter_id == reporter_id, Report.player_id == player_id, same_match,
        Report.status == "open").order_by(Report.created_at).limit(1))
    if found is not None:
        return found, False
    await _check_report_limit(s, reporter_id, per_hour)
    row = Report(id=new_id(), reporter_id=reporter_id, player_id=player_id, match_id=match_id,
                 reason=reason, text=text, status="open")
    s.add(row)
    await s.flush()
    return row.id, True


async def _check_report_limit(s: AsyncSession, reporter_id: str, per_hour: int) -> None:
    """Refuse a report beyond ``per_hour`` in the sliding hour, with the whole seconds until the
    oldest that counts leaves it."""
    now = utcnow()
    times = list(await s.scalars(select(Report.created_at).where(
        Report.reporter_id == reporter_id, Report.created_at > now - REPORT_WINDOW)
        .order_by(Report.created_at)))
    if len(times) < per_hour:
        return
    wait = times[len(times) - per_hour] + REPORT_WINDOW - now
    seconds = max(1, math.ceil(wait.total_seconds()))
    raise TooManyReports(f"at most {per_hour} reports an hour; try again in {seconds} s",
                         {"retry_after": seconds})


def _moment(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


async def reports(s: AsyncSession, *, limit: int, offset: int) -> list[dict[str, Any]]:
    """Every report, newest first."""
    rows = await s.scalars(select(Report).order_by(Report.created_at.desc(), Report.id)
                           .limit(limit).offset(offset))
    return [report_out(r) for r in rows]


def report_out(r: Report) -> dict[str, Any]:
    return {"id": r.id, "reporter": r.reporter_id, "player": r.player_id, "match": r.match_id,
            "reason": r.reason, "text": r.text, "status": r.status, "note": r.note,
            "decided_by": r.decided_by, "decided_at": _moment(r.decided_at),
            "at": r.created_at.isoformat()}


async def decide(s: AsyncSession, admin_id: str, report_id: str, status: str, note: str
                 ) -> dict[str, Any]:
    """Decide a report (``dismissed`` or ``actioned``; a later decision replaces it); the
    report after it."""
    row = await s.get(Report, report_id)
    if row is None:
        raise NotFound(f"no report {report_id[:40]!r}")
    row.status, row.note, row.decided_by, row.decided_at = status, note, admin_id, utcnow()
    _audit(s, admin_id, f"report_{status}", row.player_id, row.id, note)
    await s.flush()
    return report_out(row)


# --- sanctions --------------------------------------------------------------------------------


def _in_force(player_id: str, kinds: Iterable[str], now: datetime) -> Any:
    return (select(Sanction).where(Sanction.player_id == player_id, Sanction.kind.in_(kinds),
                                   Sanction.lifted_at.is_(None), Sanction.ends_at > now)
            .order_by(Sanction.ends_at.desc()).limit(1))


async def check_not_suspended(s: AsyncSession, player_id: str) -> None:
    """Refuse (403 ``suspended``) a player whose suspension is in force."""
    found = await s.scalar(_in_force(player_id, ["suspension"], utcnow()))
    if found is not None:
        raise Suspended(f"your account is suspended until {found.ends_at.isoformat()}",
                        {"until": found.ends_at.isoformat()})


async def check_may_chat(s: AsyncSession, player_id: str) -> None:
    """Refuse (``chat_muted``) a player whose chat mute is in force."""
    found = await s.scalar(_in_force(player_id, ["chat_mute"], utcnow()))
    if found is not None:
        raise ChatMuted(f"your chat is muted until {found.ends_at.isoformat()}",
                        {"until": found.ends_at.isoformat()})


def sanction_out(row: Sanction) -> dict[str, Any]:
    return {"id": row.id, "player": row.player_id, "kind": row.kind, "reason": row.reason,
            "admin": row.admin_id, "at": row.created_at.isoformat(),
            "ends_at": row.ends_at.isoformat(), "lifted_at": _moment(row.lifted_at)}


async def sanction(s: AsyncSession, admin_id: str, player_id: str, kind: str, hours: int,
                   reason: str) -> dict[str, Any]:
    """Sanction a player for ``hours`` from now; an admin cannot sanction themselves."""
    if player_id == admin_id:
        raise Refusal(Code.FORBIDDEN, "an admin cannot sanction themselves")
    await matches.existing_player(s, player_id)
    now = utcnow()
    row = Sanction(id=new_id(), player_id=player_id, kind=kind, reason=reason, admin_id=admin_id,
                   ends_at=now + timedelta(hours=hours), created_at=now)
    s.add(row)
    _audit(s, admin_id, kind, player_id, row.id, reason)
    await s.flush()
    return sanction_out(row)


async def sanctions(s: AsyncSession, *, active: bool = True, player_id: str | None = None,
                    limit: int, offset: int) -> list[dict[str, Any]]:
    """The sanctions newest first, each with the player's and the admin's names and who lifted
    it: only those in force now (not lifted, ``ends_at`` later than now) if ``active``, else
    every one; only ``player_id``'s if given."""
    player, admin = aliased(Player), aliased(Player)
    query = (select(Sanction, player.name, admin.name)
             .join(player, player.id == Sanction.player_id)
             .join(admin, admin.id == Sanction.admin_id))
    if active:
        query = query.where(Sanction.lifted_at.is_(None), Sanction.ends_at > utcnow())
    if player_id is not None:
        query = query.where(Sanction.player_id == player_id)
    rows = await s.execute(query.order_by(Sanction.created_at.desc(), Sanction.id)
                           .limit(limit).offset(offset))
    return [{**sanction_out(row), "player_name": player_name, "admin_name": admin_name,
             "lifted_by": row.lifted_by} for row, player_name, admin_name in rows]


async def lift(s: AsyncSession, admin_id: str, sanction_id: str) -> dict[str, Any]:
    """Lift a sanction early (one already over or lifted is left as it is, and said so)."""
    row = await s.get(Sanction, sanction_id)
    if row is None:
        raise NotFound(f"no sanction {sanction_id[:40]!r}")
    now = utcnow()
    if row.lifted_at is None and row.ends_at > now:
        row.lifted_at, row.lifted_by = now, admin_id
        _audit(s, admin_id, f"lift_{row.kind}", row.player_id, row.id, "lifted early")
        await s.flush()
    return sanction_out(row)


# --- corrections ------------------------------------------------------------------------------


async def correct(s: AsyncSession, admin_id: str, player_id: str, amount: int, reason: str
                  ) -> dict[str, Any]:
    """A compensating transfer between the bank and the player's wallet (never an edit):
    ``amount`` > 0 pays the wallet from the bank (minting what the bank lacks), < 0 takes
    from the wallet (``InsufficientChips`` if it holds too little: nothing changes)."""
    await matches.existing_player(s, player_id)
    action_id = new_id()
    moved = await ledger.correct(s, f"correction:{action_id}", player_id, amount)
    wallet = await ledger.wallet_of(s, player_id)
    _audit(s, admin_id, "chips", player_id, str(moved.id), f"{amount:+d}: {reason}",
           action_id=action_id)
    await s.flush()
    return {"transfer": moved.id, "amount": amount,
            "balance": await ledger.balance(s, wallet.id)}


# --- the audit --------------------------------------------------------------------------------


def _audit(s: AsyncSession, admin_id: str, action: str, player_id: str | None,
           subject: str | None, reason: str, *, action_id: str | None = None) -> None:
    s.add(AdminAction(id=action_id or new_id(), admin_id=admin_id, action=action,
                      player_id=player_id, subject=subject, reason=reason))
