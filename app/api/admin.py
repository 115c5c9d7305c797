"""``/api/admin``: match history, match logs and ledgers; every route needs an admin."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Query

from app.engine.deal import stacked_deal
from app.engine.errors import RuleError
from app.engine.game import apply, new_match, start_hand
from app.engine.games import match_rules
from app.engine.replay import settle_calls
from app.services import matches

from .deps import AdminPlayer, SessionDep

router = APIRouter(prefix="/api/admin", tags=["admin"])


@router.get("/matches")
async def list_matches(
        admin: AdminPlayer, session: SessionDep, player: str | None = None,
        game: str | None = None, status: str | None = None, since: datetime | None = None,
        until: datetime | None = None, limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0)) -> dict[str, Any]:
    async with session.begin():
        found = await matches.list_matches(session, player=player, game=game, status=status,
                                           since=since, until=until, limit=limit,
                                           offset=offset)
    return {"matches": found}


@router.get("/matches/{match_id}")
async def match_log(match_id: str, admin: AdminPlayer, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        return await matches.match_log(session, match_id)


@router.get("/matches/{match_id}/states")
async def match_states(match_id: str, admin: AdminPlayer, session: SessionDep) -> dict[str, Any]:
    """The engine's full state after the deal and after each action: the admin replay."""
    async with session.begin():
        log = await matches.match_log(session, match_id)
    return {"steps": replay_steps(log)}


def replay_steps(log: dict[str, Any]) -> list[dict[str, Any]]:
    """Every state of a match log, one step per deal and per action, through the same engine.

    A rejected action (which a recorded log never holds) ends the list with its error."""
    rules = match_rules(log["game"], log.get("options") or {}, log["players"])
    st = new_match(rules)
    steps: list[dict[str, Any]] = []
    for h, hand in enumerate(log["hands"]):
        st = start_hand(st, stacked_deal(rules, hand["dealer"], hand["deal"]), hand["dealer"])
        steps.append({"hand": h, "index": None, "seat": None, "action": None,
                      "state": st.to_json()})
        for i, entry in enumerate(hand["actions"]):
            try:
                st, _ = apply(st, entry["seat"], entry["action"])
            except RuleError as exc:
                steps.append({"hand": h, "index": i, "seat": entry["seat"],
                              "action": entry["action"], "state": st.to_json(),
                              "error": {"code": exc.code, "message": exc.message}})
                return steps
            steps.append({"hand": h, "index": i, "seat": entry["seat"],
                          "action": entry["action"], "state": st.to_json()})
        st = settle_calls(st)
        steps[-1]["state"] = st.to_json()
    return steps


@router.get("/players")
async def players(admin: AdminPlayer, session: SessionDep,
                  q: str | None = None) -> dict[str, Any]:
    async with session.begin():
        return {"players": await matches.list_players(session, q)}


@router.get("/players/{player_id}/ledger")
async def player_ledger(player_id: str, admin: AdminPlayer,
                        session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        return await matches.player_ledger(session, player_id)
