"""``/api/auth``: play as a guest, register, log in (PROTOCOL.md §5)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.db.models import Player
from app.services import accounts

from .deps import SessionDep

router = APIRouter(prefix="/api/auth", tags=["auth"])


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)


class CredentialsIn(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


def _answer(token: str, player: Player) -> dict[str, Any]:
    return {"token": token, "player": {"id": player.id, "name": player.name,
                                       "role": player.role}}


@router.post("/guest")
async def guest(body: GuestIn, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        player = await accounts.create_guest(session, body.name)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)


@router.post("/register")
async def register(body: CredentialsIn, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        player = await accounts.register(session, body.username, body.password)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)


@router.post("/login")
async def login(body: CredentialsIn, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        player = await accounts.login(session, body.username, body.password)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)
