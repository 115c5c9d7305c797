"""``/api/tournaments``: sit-and-go knockout tournaments (PROTOCOL.md §8).

Each route is one transaction of `app.services.tournaments`; a registration that fills the
tournament, like a table's end, pokes the process's director, which opens the tables. Every
answer says where the caller is to be (``my_table``); one tournament's also who is connected
at each table that plays (asked of the tables' rooms through the gateway).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from pydantic import ConfigDict, Field

from app.db.models import Player
from app.rooms.commands import Caller, Present
from app.rooms.tournaments import TournamentDirector
from app.services import tournaments
from app.services.tournaments import ARRIVAL_SECONDS, TournamentSettings

from .deps import CurrentPlayer, GatewayDep, SessionDep
from .gateway import Gateway
from .schemas import (
    In,
    Integer,
    TournamentOut,
    TournamentsOut,
    api_router,
    errors,
    tournament_rules,
)

router = api_router("/api", "tournaments", 401, 503)


def _director(request: Request) -> TournamentDirector:
    director: TournamentDirector = request.app.state.tournaments
    return director


DirectorDep = Annotated[TournamentDirector, Depends(_director)]


class TournamentIn(In):
    model_config = ConfigDict(json_schema_extra=tournament_rules)
    name: str | None = None
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: Integer
    table_seats: Integer
    entry: Integer
    prizes: list[Integer]
    turn_seconds: Integer
    arrival_seconds: Integer = ARRIVAL_SECONDS

    def settings(self) -> TournamentSettings:
        """The body as the tournament's settings (validated there, each rule its code)."""
        return TournamentSettings(**self.model_dump())


@router.post("/tournaments", responses=errors(400))
async def create(body: TournamentIn, player: CurrentPlayer,
                 session: SessionDep) -> TournamentOut:
    settings = body.settings()
    async with session.begin():
        t = await tournaments.create(session, player, settings)
        return TournamentOut.model_validate(await tournaments.shown(session, t, player.id))


@router.get("/tournaments", responses=errors(400))
async def listing(player: CurrentPlayer, session: SessionDep,
                  mine: bool = Query(False)) -> TournamentsOut:
    """All that register and run and the latest over; with ``mine``, only the caller's that
    register or run (registered in or created: the lobby's "Your games")."""
    async with session.begin():
        found = await (tournaments.listing_of(session, player.id) if mine
                       else tournaments.listing(session))
        return TournamentsOut(tournaments=[
            TournamentOut.model_validate(await tournaments.shown(session, t, player.id))
            for t in found])


@router.get("/tournaments/{tournament_id}", responses=errors(400, 404))
async def one(tournament_id: str, player: CurrentPlayer, session: SessionDep,
              gateway: GatewayDep) -> TournamentOut:
    """The tournament, with who is connected at each table that plays."""
    async with session.begin():
        t = await tournaments.find(session, tournament_id)
        out = TournamentOut.model_validate(await tournaments.shown(session, t, player.id))
    await _connected(gateway, out, player)
    return out


async def _connected(gateway: Gateway, out: TournamentOut, player: Player) -> None:
    """Fill each playing table's ``connected`` from its room's presence, all tables at once;
    a table that does not answer now (its owner changing hands) is left null: the page asks
    again in a moment."""
    playing = [(table, table.room) for r in out.rounds for table in r.tables
               if table.room is not None and table.winner is None and table.opened_at]
    answers = await asyncio.gather(*(
        gateway.run(room, Present(), Caller(player.id, player.name)) for _, room in playing),
        return_exceptions=True)
    for (table, _), answer in zip(playing, answers, strict=True):
        if not isinstance(answer, BaseException):
            table.connected = list(answer["connected"])


@router.post("/tournaments/{tournament_id}/register", responses=errors(400, 404, 409))
async def register(tournament_id: str, player: CurrentPlayer, session: SessionDep,
                   director: DirectorDep) -> TournamentOut:
    """Enter (the entry into the tournament's pot); the last place taken starts it."""
    async with session.begin():
        t = await tournaments.register(session, tournament_id, player)
        out = TournamentOut.model_validate(await tournaments.shown(session, t, player.id))
    if out.status == "running":
        director.poke(out.id)
    return out


@router.post("/tournaments/{tournament_id}/unregister", responses=errors(400, 404, 409))
async def unregister(tournament_id: str, player: CurrentPlayer,
                     session: SessionDep) -> TournamentOut:
    async with session.begin():
        t = await tournaments.unregister(session, tournament_id, player.id)
        return TournamentOut.model_validate(await tournaments.shown(session, t, player.id))


@router.post("/tournaments/{tournament_id}/cancel", responses=errors(400, 403, 404, 409))
async def cancel(tournament_id: str, player: CurrentPlayer,
                 session: SessionDep) -> TournamentOut:
    async with session.begin():
        t = await tournaments.cancel(session, tournament_id, player)
        return TournamentOut.model_validate(await tournaments.shown(session, t, player.id))
