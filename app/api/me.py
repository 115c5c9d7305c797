"""``/api/me``: who I am, my chips, my name, my matches, my rooms and my top-up."""

from __future__ import annotations

from datetime import timedelta

from fastapi import Query, Request
from pydantic import Field

from app.db.base import utcnow
from app.services import accounts, history, ledger, progress, tables, wallet

from .deps import CurrentPlayer, SessionDep
from .schemas import (
    MAX_OFFSET,
    NAME_RULE,
    AccuracyOut,
    In,
    MatchesPage,
    MeOut,
    MyRoomsOut,
    RenamedOut,
    TopUpOut,
    TopUpStatus,
    api_router,
    errors,
)

router = api_router("/api/me", "me", 401, 503)


class NameIn(In):
    name: str = Field(max_length=64, json_schema_extra=NAME_RULE)


@router.get("")
async def me(player: CurrentPlayer, session: SessionDep) -> MeOut:
    async with session.begin():
        account = await ledger.wallet_of(session, player.id)
        tables = await ledger.escrows_of(session, player.id)
    return MeOut(id=player.id, name=player.name, username=player.username, role=player.role,
                 is_guest=player.is_guest, balance=account.balance,
                 escrow=sum(tables.values()), tables=tables)


@router.patch("", responses=errors(400, 409))
async def rename(body: NameIn, player: CurrentPlayer, session: SessionDep) -> RenamedOut:
    """Change my display name (an account's is unique among accounts without regard to case)."""
    async with session.begin():
        renamed = await accounts.rename(session, player.id, body.name)
        return RenamedOut(id=renamed.id, name=renamed.name)


@router.get("/matches", responses=errors(400))
async def my_matches(player: CurrentPlayer, session: SessionDep,
                     game: str | None = Query(None, max_length=32),
                     limit: int = Query(20, ge=1, le=100),
                     offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> MatchesPage:
    """My matches that are over, newest first (paged, optionally of one game)."""
    async with session.begin():
        return MatchesPage.model_validate(await history.my_matches(
            session, player.id, game=game, limit=limit, offset=offset))


@router.get("/accuracy", responses=errors(400))
async def my_accuracy(player: CurrentPlayer, session: SessionDep,
                      limit: int = Query(100, ge=1, le=200)) -> AccuracyOut:
    """My accuracy in each of my latest analysed matches, oldest first (the profile's chart)."""
    async with session.begin():
        return AccuracyOut.model_validate(
            {"matches": await progress.accuracies(session, player.id, limit)})


@router.get("/rooms")
async def my_rooms(player: CurrentPlayer, session: SessionDep) -> MyRoomsOut:
    """The open rooms I sit in, private ones included: the lobby's way back to them."""
    async with session.begin():
        return MyRoomsOut.model_validate({"rooms": await tables.rooms_of(session, player.id)})


def _period(request: Request) -> tuple[int, timedelta]:
    settings = request.app.state.settings
    return settings.topup_chips, timedelta(seconds=settings.topup_period_seconds)


@router.get("/topup")
async def top_up_status(player: CurrentPlayer, session: SessionDep,
                        request: Request) -> TopUpStatus:
    async with session.begin():
        return TopUpStatus.model_validate(
            await wallet.top_up_status(session, player.id, *_period(request), utcnow()))


@router.post("/topup", responses=errors(409))
async def top_up(player: CurrentPlayer, session: SessionDep, request: Request) -> TopUpOut:
    """Claim the top-up: only with no chips at all, once per period (409 otherwise)."""
    amount, period = _period(request)
    async with session.begin():
        balance = await wallet.claim_top_up(session, player.id, amount, period, utcnow())
    return TopUpOut(amount=amount, balance=balance)
