"""Structured logs (docs/operations.md, "Logs"; PROTOCOL.md §11).

A real server (`python -m app serve`) runs with RUMMY_LOG_FORMAT=json and RUMMY_LOG_LEVEL=debug
while a player signs up with a password, logs in, hosts a room against a computer player, plays
over a websocket (a refused action, then a turn), opens the room's invite link and logs out;
another socket tries a forged token. Then its whole output is read: every line is one JSON
object, the actions' lines name the room and the match, the request id sent comes back and is
on its access line, and no password, token, invite code or secret key appears anywhere. The
formatter, the redaction and the request ids are also checked in-process.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
import pytest
from starlette.types import Receive, Scope, Send
from uvicorn.logging import DefaultFormatter

from app import logs
from app.api.request_ids import RequestIds, request_id
from app.settings import Settings
from tests.api.client import Player, WsClient, call, http_client, take_turn
from tests.api.halls import FAST
from tests.conftest import running_server

PASSWORD = "Tr0ub4dor&3-" + secrets.token_hex(4)
SECRET_KEY = "log-test-key-" + secrets.token_hex(16)
FORGED_TOKEN = "forged-" + secrets.token_hex(16)
SENT_ID = "trace-7:abc.DEF_1"
HEX_ID = re.compile(r"[0-9a-f]{32}")


@dataclass
class Played:
    """What the scenario did, and the server's whole output afterwards."""

    output: str
    player: Player
    room_id: str
    match_id: str
    invite_code: str
    actions: int  # the player's actions answered (applied or refused)
    answered_id: str  # the X-Request-ID answer to SENT_ID
    made_id: str  # the X-Request-ID answer to a request whose own id was not sane

    @property
    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.output.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    workdir = tmp_path_factory.mktemp("json_logs")
    env = {**FAST, "RUMMY_LOG_FORMAT": "json", "RUMMY_LOG_LEVEL": "debug",
           "RUMMY_SECRET_KEY": SECRET_KEY}
    with running_server(workdir, env) as base_url:
        facts = asyncio.run(_play(base_url))
    # The server has stopped: its output is complete (each line is flushed as it is written).
    return Played((workdir / "server.log").read_text(), **facts)


async def _play(base_url: str) -> dict[str, Any]:
    async with http_client(base_url) as http:
        username = "logger_" + secrets.token_hex(3)
        await call(http, "POST", "/api/auth/register", None,
                   {"username": username, "password": PASSWORD})
        wrong = await http.post("/api/auth/login", json={"username": username,
                                                          "password": PASSWORD + "x"})
        assert wrong.status_code == 401, wrong.text
        body = await call(http, "POST", "/api/auth/login", None,
                          {"username": username, "password": PASSWORD})
        player = Player(body["player"]["id"], body["player"]["name"], body["token"])
        made = await http.post("/api/rooms", headers={**player.headers, "X-Request-ID": SENT_ID},
                               json={"game": "standard", "seats": 2})
        assert made.status_code == 200, made.text
        room = made.json()
        await call(http, "POST", f"/api/rooms/{room['id']}/bots", player, {"count": 1})
        started = await call(http, "POST", f"/api/rooms/{room['id']}/start", player)
        actions = await _play_a_turn(base_url, room["id"], player)
        await _forge_a_socket(base_url, room["id"])
        opened = await http.get(f"/api/invites/{room['invite_code']}", headers={
            **player.headers, "X-Request-ID": "not sane: spaces"})
        assert opened.status_code == 200, opened.text
        await call(http, "POST", "/api/auth/logout", player)
    return {"player": player, "room_id": room["id"], "match_id": started["match_id"],
            "invite_code": room["invite_code"], "actions": actions,
            "answered_id": made.headers["X-Request-ID"],
            "made_id": opened.headers["X-Request-ID"]}


async def _play_a_turn(base_url: str, room_id: str, player: Player) -> int:
    """A refused action, a turn (draw, discard), then the computer player's move."""
    client = await WsClient.join(base_url, room_id, player)
    try:
        turn = await client.wait_turn()
        refused = await client.act({"type": "discard", "card": "XX"})
        assert refused["type"] == "error", refused
        done = await take_turn(client, turn)
        last = client.acks[-1]["seq"]
        await client.wait_for(lambda m: m["type"] == "state" and m["seq"] > last)
    finally:
        await client.close()
    return 1 + len(done)


async def _forge_a_socket(base_url: str, room_id: str) -> None:
    client = await WsClient.open(base_url, room_id, "forger")
    try:
        await client.send({"type": "auth", "token": FORGED_TOKEN})
        refused = await client.wait_for(lambda m: m["type"] == "error")
        assert refused["code"] == "auth_failed", refused
    finally:
        await client.close()


# --- the real server's output -------------------------------------------------------------


def test_every_line_is_one_json_object_with_time_level_and_message(played: Played) -> None:
    lines = played.lines

    assert len(lines) > 10, played.output
    for line in lines:
        assert isinstance(line, dict), line
        assert line["level"] in ("debug", "info", "warning", "error", "critical"), line
        assert isinstance(line["message"], str) and line["logger"], line
        assert line["time"].endswith("Z") and datetime.fromisoformat(line["time"]), line
    loggers = {line["logger"] for line in lines}
    assert {"uvicorn.error", "uvicorn.access", "app.rooms.commands", "app.cli"} <= loggers
    assert any(line["message"].startswith("Rummy Hall is serving") for line in lines)


def test_the_players_actions_are_logged_with_room_match_and_player(played: Played) -> None:
    acted = [line for line in played.lines if line["logger"] == "app.rooms.commands"]

    assert len(acted) == played.actions, acted
    assert {line["level"] for line in acted} == {"debug"}
    for line in acted:
        assert (line["room"], line["match"], line["player"]) == (
            played.room_id, played.match_id, played.player.id), line
    assert "refused (" in acted[0]["message"] and "applied (seq" in acted[-1]["message"]
    # A socket's lines carry the socket's id.
    assert len({line["request_id"] for line in acted}) == 1
    assert HEX_ID.fullmatch(acted[0]["request_id"])


def test_the_rooms_own_moves_are_logged_with_room_and_match(played: Played) -> None:
    moved = [line for line in played.lines if line["logger"] == "app.rooms.room"
             and "by the server" in line["message"]]

    assert moved, played.output
    for line in moved:
        assert (line["room"], line["match"]) == (played.room_id, played.match_id), line
        assert "request_id" not in line  # not the request that planned it


def test_the_request_id_sent_comes_back_and_is_on_its_access_line(played: Played) -> None:
    assert played.answered_id == SENT_ID
    assert HEX_ID.fullmatch(played.made_id)  # an id with spaces is replaced

    access = [line for line in played.lines if line["logger"] == "uvicorn.access"]
    sent = [line for line in access if line.get("request_id") == SENT_ID]
    assert [(line["method"], line["path"], line["status"]) for line in sent] == [
        ("POST", "/api/rooms", 200)]
    assert all(HEX_ID.fullmatch(line["request_id"]) for line in access if line not in sent)
    assert [line["path"] for line in access if line["request_id"] == played.made_id] == [
        "/api/invites/[redacted]"]


def test_no_secret_is_logged(played: Played) -> None:
    secrets_ = {"password": PASSWORD, "token": played.player.token,
                "forged token": FORGED_TOKEN, "secret key": SECRET_KEY,
                "invite code": played.invite_code}

    for what, value in secrets_.items():
        assert value not in played.output, f"the {what} is in the log"


# --- in-process ---------------------------------------------------------------------------


class _Record:
    id = "room-1"
    match_id: str | None = "match-1"


def _written(formatter: logging.Formatter, *messages: tuple[str, tuple[Any, ...]],
             exc: bool = False, name: str = "app.test") -> list[str]:
    """The lines `formatter` writes for `messages`, through the configured filters."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter)
    handler.addFilter(logs.Where())
    handler.addFilter(logs.Redacted())
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.propagate, logger.level = False, logging.DEBUG
    try:
        for message, args in messages:
            if exc:
                try:
                    raise ValueError("bad\nvalue")
                except ValueError:
                    logger.exception(message, *args)
            else:
                logger.info(message, *args)
    finally:
        logger.removeHandler(handler)
    return out.getvalue().splitlines()


@pytest.fixture
def in_a_room() -> Iterator[None]:
    room = logs.ROOM.set((_Record(), "player-1"))  # type: ignore[arg-type] - duck-typed
    request = logs.REQUEST_ID.set("req-1")
    yield
    logs.ROOM.reset(room)
    logs.REQUEST_ID.reset(request)


def test_json_lines_name_where_they_come_from_only_when_set(in_a_room: None) -> None:
    [inside] = _written(logs.JsonLines(), ("dealt %d\ncards", (10,)), exc=True)
    logs.ROOM.set(None)
    logs.REQUEST_ID.set(None)
    [outside] = _written(logs.JsonLines(), ("idle", ()))

    line = json.loads(inside)
    assert list(line)[:4] == ["time", "level", "logger", "message"]
    assert (line["level"], line["logger"], line["message"]) == ("error", "app.test",
                                                                "dealt 10\ncards")
    assert (line["room"], line["match"], line["player"], line["request_id"]) == (
        "room-1", "match-1", "player-1", "req-1")
    assert line["exception"].startswith("Traceback") and "bad\nvalue" in line["exception"]
    assert set(json.loads(outside)) == {"time", "level", "logger", "message"}


def test_access_lines_are_redacted_and_split_into_fields() -> None:
    [text] = _written(logs.JsonLines(), ('%s - "%s %s HTTP/%s" %d', (
        "10.0.0.1:5000", "GET", "/api/rooms/r1?invite=SECRET&x=1", "1.1", 200)),
        name="uvicorn.access")

    line = json.loads(text)
    assert "SECRET" not in text
    assert (line["client"], line["method"], line["path"], line["status"]) == (
        "10.0.0.1:5000", "GET", "/api/rooms/r1?invite=[redacted]&x=1", 200)


@pytest.mark.parametrize(("text", "shown"), [
    ("/api/invites/AbC123", "/api/invites/[redacted]"),
    ("/api/invites/AbC123?x=1", "/api/invites/[redacted]?x=1"),
    ("/api/rooms/r1?invite=abc&token=t&x=1",
     "/api/rooms/r1?invite=[redacted]&token=[redacted]&x=1"),
    ("/ws/rooms/r1?Token=abc", "/ws/rooms/r1?Token=[redacted]"),
    ("/api/rooms?game=standard", "/api/rooms?game=standard"),
])
def test_redact(text: str, shown: str) -> None:
    assert logs.redact(text) == shown


def test_text_lines_look_like_uvicorns(in_a_room: None) -> None:
    config = logs.configuration(Settings(log_format="text"))["formatters"]["default"]
    formatter = DefaultFormatter(config["fmt"], use_colors=False)

    assert _written(formatter, ("room %s: match %s abandoned", ("r", "m"))) == [
        "INFO:     room r: match m abandoned"]


def test_debug_is_the_servers_own_other_libraries_stay_at_info() -> None:
    config = logs.configuration(Settings(log_level="debug"))
    quiet = logs.configuration(Settings(log_level="warning"))

    assert config["loggers"]["app"]["level"] == "DEBUG"
    assert config["root"]["level"] == config["loggers"]["uvicorn"]["level"] == "INFO"
    assert quiet["root"]["level"] == quiet["loggers"]["uvicorn.access"]["level"] == "WARNING"


@pytest.mark.parametrize(("sent", "kept"), [
    (b"abc-123", True), (b"trace-7:abc.DEF_1", True), (b"x" * 128, True),
    (b"x" * 129, False), (b"with space", False), (b"", False), ("é".encode(), False),
    (b"a\nb", False),
])
def test_a_request_id_is_kept_only_when_sane(sent: bytes, kept: bool) -> None:
    made = request_id([(b"host", b"x"), (b"x-request-id", sent)])

    assert made == sent.decode() if kept else HEX_ID.fullmatch(made)
    assert HEX_ID.fullmatch(request_id([]))


async def test_the_middleware_sets_the_id_for_the_request_and_returns_it() -> None:
    seen: list[str | None] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(logs.REQUEST_ID.get())
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    transport = httpx.ASGITransport(app=RequestIds(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        kept = await client.get("/", headers={"X-Request-ID": "abc-1"})
        made = await client.get("/")

    assert kept.headers["X-Request-ID"] == "abc-1" == seen[0]
    assert made.headers["X-Request-ID"] == seen[1] and HEX_ID.fullmatch(seen[1] or "")


async def test_a_database_error_does_not_show_its_parameters() -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from app.db.session import make_engine

    engine = make_engine("sqlite+aiosqlite:///:memory:")
    try:
        async with engine.connect() as connection:
            with pytest.raises(DBAPIError) as failed:
                await connection.execute(text("SELECT * FROM no_such_table WHERE code = :code"),
                                         {"code": "INVITE-SECRET"})
    finally:
        await engine.dispose()

    assert "INVITE-SECRET" not in str(failed.value)
    assert "hidden" in str(failed.value)
