"""``/api/admin``: match history, match logs and ledgers; every route needs an admin.

The routes that reveal a match's hidden state refuse an admin seated in it while it is in
progress (403 ``seated_in_match``) and record every view of a match in progress
(``GET /api/admin/views`` lists them): ``app.services.audit``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import Depends, Query, Request
from pydantic import BeforeValidator, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.engine.matchlog import InvalidMatchLog
from app.engine.replay import replay_steps
from app.refusals import Code, Refusal
from app.services import audit, fairplay, matches, moderation

from .deps import AdminPlayer, GatewayDep, SessionDep
from .gateway import Gateway
from .schemas import (
    MAX_OFFSET,
    MAX_TEXT,
    AuditOut,
    CorrectionOut,
    FairplayOut,
    In,
    Integer,
    LedgerOut,
    MatchListOut,
    MatchLogOut,
    PlayersOut,
    ReportRow,
    ReportsOut,
    SanctionOut,
    SanctionsOut,
    StatesOut,
    ViewsOut,
    api_router,
    errors,
)
from .sockets import SocketIndex

router = api_router("/api/admin", "admin", 400, 401, 403, 503)

MAX_NOTE = 1000  # a reason's or a note's length
_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")


def _iso_only(value: Any) -> Any:
    """A moment is an ISO 8601 date-time, as the schema says (pydantic would also read a number
    as seconds since 1970)."""
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        raise ValueError("a date-time is written in ISO 8601, e.g. 2026-01-31T12:00:00Z")
    return value


Moment = Annotated[datetime | None, BeforeValidator(_iso_only)]
Filter = Annotated[str | None, Query(max_length=MAX_TEXT)]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]


@dataclass(frozen=True)
class Page:
    """Which rows of a list, newest first: ``limit`` of them (1 to 500) after ``offset``."""

    limit: int
    offset: int


def _page(limit: Annotated[int, Query(ge=1, le=500)] = 50, offset: Offset = 0) -> Page:
    return Page(limit, offset)


PageDep = Annotated[Page, Depends(_page)]
Rows = Callable[..., Awaitable[list[dict[str, Any]]]]


async def _listed(session: AsyncSession, page: Page, key: str, rows: Rows) -> dict[str, Any]:
    """``{key: rows}`` of one page, read in a transaction of its own (``rows`` takes the
    session and the page's ``limit`` and ``offset``)."""
    async with session.begin():
        return {key: await rows(session, limit=page.limit, offset=page.offset)}


@router.get("/matches")
async def list_matches(
        admin: AdminPlayer, session: SessionDep, page: PageDep, player: Filter = None,
        game: Filter = None, status: Filter = None, since: Moment = None,
        until: Moment = None) -> MatchListOut:
    async with session.begin():
        found = await matches.list_matches(session, player=player, game=game, status=status,
                                           since=since, until=until, limit=page.limit,
                                           offset=page.offset)
    return MatchListOut.model_validate({"matches": found})


async def _open(session: AsyncSession, admin: Player, match_id: str, route: str) -> None:
    await audit.open_hidden_state(session, admin.id, match_id, route)


@router.get("/matches/{match_id}", responses=errors(404))
async def match_log(match_id: str, admin: AdminPlayer, session: SessionDep) -> MatchLogOut:
    """The match log (the admin's export), with results, transfers and chat."""
    async with session.begin():
        await _open(session, admin, match_id, "GET /api/admin/matches/{id}")
        return MatchLogOut.model_validate(await matches.match_log(session, match_id))


@router.get("/matches/{match_id}/states", responses=errors(404))
async def match_states(match_id: str, admin: AdminPlayer, session: SessionDep) -> StatesOut:
    """The engine's full state after the deal and after each action: the admin replay."""
    async with session.begin():
        await _open(session, admin, match_id, "GET /api/admin/matches/{id}/states")
        log = await matches.match_log(session, match_id)
    try:
        return StatesOut.model_validate({"steps": replay_steps(log)})
    except InvalidMatchLog as exc:  # a match whose first deal was never stored
        return StatesOut(steps=[], error=str(exc))


@router.get("/players")
async def players(admin: AdminPlayer, session: SessionDep, q: Filter = None) -> PlayersOut:
    async with session.begin():
        return PlayersOut.model_validate({"players": await matches.list_players(session, q)})


@router.get("/players/{player_id}/ledger", responses=errors(404))
async def player_ledger(player_id: str, admin: AdminPlayer, session: SessionDep) -> LedgerOut:
    async with session.begin():
        return LedgerOut.model_validate(await matches.player_ledger(session, player_id))


@router.get("/views")
async def views(admin: AdminPlayer, session: SessionDep, page: PageDep) -> ViewsOut:
    """Admin views of matches in progress (who, which match, when, which route), newest first."""
    return ViewsOut.model_validate(await _listed(session, page, "views", audit.list_views))


# --- moderation (PROTOCOL.md §9): each action recorded in the audit ---------------------------


class DecisionIn(In):
    status: Literal["dismissed", "actioned"]
    note: str = Field(max_length=MAX_NOTE)


class SanctionIn(In):
    kind: Literal["chat_mute", "suspension"]
    hours: Integer = Field(ge=1, le=moderation.MAX_HOURS)
    reason: str = Field(max_length=MAX_NOTE)


class CorrectionIn(In):
    amount: Integer = Field(ge=-moderation.MAX_CORRECTION, le=moderation.MAX_CORRECTION)
    reason: str = Field(max_length=MAX_NOTE)


@router.get("/fairplay")
async def fairplay_review(admin: AdminPlayer, session: SessionDep, request: Request,
                          min_matches: int = Query(3, ge=1, le=10_000)) -> FairplayOut:
    """Every pair of players with at least ``min_matches`` matches together in the review's
    window, highest score first; the flagged pairs are kept for seating (docs/fairplay.md)."""
    days = request.app.state.settings.address_retention_days
    async with session.begin():
        pairs = await fairplay.run(session, days)
    return FairplayOut.model_validate(
        {"pairs": [p.to_json() for p in pairs if p.matches >= min_matches]})


@router.get("/reports")
async def reports(admin: AdminPlayer, session: SessionDep, page: PageDep) -> ReportsOut:
    """Every report, newest first, with its status (open, dismissed, actioned)."""
    return ReportsOut.model_validate(
        await _listed(session, page, "reports", moderation.reports))


@router.post("/reports/{report_id}", responses=errors(404))
async def decide_report(report_id: str, body: DecisionIn, admin: AdminPlayer,
                        session: SessionDep) -> ReportRow:
    """Decide a report; the report as it now stands."""
    async with session.begin():
        return ReportRow.model_validate(
            await moderation.decide(session, admin.id, report_id, body.status, body.note))


@router.post("/players/{player_id}/sanctions", status_code=201, responses=errors(404))
async def sanction(player_id: str, body: SanctionIn, admin: AdminPlayer, session: SessionDep,
                   gateway: GatewayDep, request: Request) -> SanctionOut:
    """A chat mute or a suspension for ``hours``, at once: a suspended player's sockets are
    closed on every process (403 for an admin sanctioning themselves)."""
    async with session.begin():
        made = await moderation.sanction(session, admin.id, player_id, body.kind, body.hours,
                                         body.reason)
    if body.kind == "suspension":
        _suspended(request, gateway, player_id)
    return SanctionOut.model_validate(made)


@router.get("/sanctions")
async def list_sanctions(admin: AdminPlayer, session: SessionDep, page: PageDep,
                         active: bool = True, player: Filter = None) -> SanctionsOut:
    """The sanctions in force now (``active``, the default: not lifted, not over), or every
    sanction (``active=false``), newest first; only ``player``'s if given (an extension of
    PROTOCOL.md §9)."""
    return SanctionsOut.model_validate(await _listed(
        session, page, "sanctions",
        partial(moderation.sanctions, active=active, player_id=player)))


@router.delete("/sanctions/{sanction_id}", responses=errors(404))
async def lift(sanction_id: str, admin: AdminPlayer, session: SessionDep) -> SanctionOut:
    async with session.begin():
        return SanctionOut.model_validate(await moderation.lift(session, admin.id, sanction_id))


@router.post("/players/{player_id}/chips", responses=errors(404, 409))
async def correct(player_id: str, body: CorrectionIn, admin: AdminPlayer,
                  session: SessionDep) -> CorrectionOut:
    """A ledger correction: a compensating transfer from or to the bank, never an edit; one
    that would take the wallet below zero is refused (409 ``insufficient_chips``)."""
    if body.amount == 0:
        raise Refusal(Code.BAD_FIELD, "a correction moves at least one chip",
                      {"field": "amount"})
    async with session.begin():
        return CorrectionOut.model_validate(
            await moderation.correct(session, admin.id, player_id, body.amount, body.reason))


@router.get("/audit")
async def audit_log(admin: AdminPlayer, session: SessionDep, page: PageDep) -> AuditOut:
    """Every admin action, newest first: who, what, on whom, why, when."""
    return AuditOut.model_validate(await _listed(session, page, "actions", audit.list_actions))


def _suspended(request: Request, gateway: Gateway, player_id: str) -> None:
    """Close the player's sockets here at once, and have every other process do the same."""
    sockets: SocketIndex = request.app.state.sockets
    sockets.suspend_now(player_id)
    gateway.suspended(player_id)
