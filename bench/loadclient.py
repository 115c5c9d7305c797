"""The client of `bench.load`: rooms of players on websockets, played turn by turn.

A `Table` is one room's members (`Member`, one socket each). `play` acts for whoever's turn it
is: a draw from the stock, then a discard of the card drawn (the view's `legal` says which),
each with a client id, waiting for its ack before the next. Closed loop: the next action goes as
soon as the turn allows, latency from send to ack. Open loop: each room acts at fixed intended
times and latency counts from the intended time, so a slow server cannot hide its queue by
slowing the client down (no coordinated omission). The same client drives the game server
(rooms made with `server_room`) and `bench.baseline` (`baseline_room`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import random
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

# What a member keeps of a state's view: all that `ready` and `next_action` read. A whole
# message is ~150 objects; eight thousand members keeping theirs would make the client's own
# garbage collections (not the server) the tail of an open-loop run.
KEPT = ("seat", "turn", "hand_over", "game_over", "hand_no", "legal", "hand")
REPLY_TIMEOUT = 30.0  # an action unanswered this long counts as lost
STALL_TIMEOUT = 30.0  # a room where nobody may act this long counts as stalled
RETRY_PAUSE = 0.05  # before acting again after a refusal (e.g. the per-socket rate limit)
ROOM = {"game": "standard", "options": {}, "turn_seconds": 0,
        # No computer player takes the seat of a disconnected human in this run's lifetime
        # (a field of the room runtime; ignored where it does not exist).
        "grace_seconds": 3600}


class Closed(Exception):
    """Every socket of a table is closed."""


class MatchOver(Exception):
    """The table's match ended (a computer player can win before a guest ever plays)."""


class Member:
    """One player's socket: the latest state it received, and its pending replies by id."""

    def __init__(self, ws: ClientConnection, table: Table) -> None:
        self.ws = ws
        self.table = table
        self.message: dict[str, Any] | None = None  # the last state's seq and `KEPT` view
        self.floor = (-1, -1)  # (hand_no, seq) of its last ack: act only on a newer state
        self.before: Counter[str] = Counter()  # the hand before the draw
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.ids = (f"{secrets.token_hex(3)}-{n}" for n in itertools.count())
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(WebSocketException, OSError):
            async for raw in self.ws:
                self.table.received += len(raw)
                self.table.messages += 1
                message = orjson.loads(raw)
                if message.get("type") == "state":
                    self.message = _kept(message)
                    self.table.changed.set()
                elif (reply := self.replies.pop(message.get("id"), None)) is not None:
                    reply.set_result(message)
        self.table.changed.set()

    @property
    def closed(self) -> bool:
        return self.reader.done()

    def ready(self) -> dict[str, Any] | None:
        """The view to act on: this seat's turn to draw or discard, newer than its last ack."""
        message = self.message
        view: dict[str, Any] | None = message.get("view") if message is not None else None
        if message is None or view is None:
            return None
        if view["turn"] != view["seat"] or view["hand_over"] or view["game_over"]:
            return None
        if (view["hand_no"], message["seq"]) < self.floor:
            return None
        return view if {"draw", "discard"} & set(view["legal"]) else None

    def next_action(self, view: dict[str, Any]) -> dict[str, Any]:
        if "draw" in view["legal"]:
            self.before = Counter(view["hand"])
            return {"type": "draw", "source": "stock"}
        drawn = Counter(view["hand"]) - self.before
        return {"type": "discard", "card": next(iter(drawn), view["hand"][-1])}

    async def act(self, view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """Send the action and return its reply; a rate-limited one is sent again, same id."""
        client_id = next(self.ids)
        while True:
            reply = asyncio.get_running_loop().create_future()
            self.replies[client_id] = reply
            await self.ws.send(orjson.dumps({"type": "action", "id": client_id,
                                             "action": action}).decode())
            answer: dict[str, Any] = await asyncio.wait_for(reply, REPLY_TIMEOUT)
            if answer.get("code") != "rate_limited":
                break
            self.table.rate_limited += 1
            await asyncio.sleep(RETRY_PAUSE)
        if answer["type"] == "ack":
            self.floor = (view["hand_no"], answer["seq"])
        return answer

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        await self.reader


def _kept(message: dict[str, Any]) -> dict[str, Any]:
    view = message.get("view")
    return {"seq": message["seq"],
            "view": None if view is None else {key: view[key] for key in KEPT}}


class Table:
    """One room's members; `changed` is set whenever any of them receives something."""

    def __init__(self) -> None:
        self.members: list[Member] = []
        self.changed = asyncio.Event()
        self.rate_limited = 0
        self.messages = 0  # received, and their length (characters)
        self.received = 0

    async def join(self, url: str, token: str) -> Member:
        """Connect, authenticate and wait for the first state."""
        ws = await connect(url, proxy=None, open_timeout=60, max_size=2**22,
                           ping_interval=None)  # browsers answer pings but send none
        member = Member(ws, self)
        self.members.append(member)
        await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
        while member.message is None:
            if member.closed:
                raise Closed(f"{url}: closed before the first state")
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), REPLY_TIMEOUT)
        return member

    async def actor(self, patience: float = STALL_TIMEOUT) -> tuple[Member, dict[str, Any]]:
        """The member whose turn it is, with the view it acts on (waits up to `patience`
        seconds for one)."""
        while True:
            self.changed.clear()
            for member in self.members:
                if (view := member.ready()) is not None:
                    return member, view
            if any(m.message and (m.message.get("view") or {}).get("game_over")
                   for m in self.members):
                raise MatchOver("the match is over")
            if all(member.closed for member in self.members):
                raise Closed("every socket of the room is closed")
            await asyncio.wait_for(self.changed.wait(), patience)

    async def close(self) -> None:
        await asyncio.gather(*(member.close() for member in self.members))


@dataclass
class Stats:
    """Replies to the actions sent in the measured window: their latencies in seconds, how
    many acks came before the window's end (`until`), the refusals by code."""

    until: float = math.inf
    latencies: list[float] = field(default_factory=list)
    in_window: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    message_length: float = 0.0  # of every message received, on average (characters)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else 0.0


async def play(table: Table, stats: Stats, begin: float, start: float, until: float,
               rate: float | None = None) -> None:
    """Act for the table from `begin` until `until` (perf_counter times), recording the
    actions sent from `start` on.

    Without `rate`, closed loop: each action as soon as the last one is acknowledged. With it,
    open loop: intended times `rate` per second from a random phase; an action goes at its
    intended time or, if the room is behind, at once, and its latency counts from that time.
    """
    phase = random.random() / rate if rate else 0.0
    for k in itertools.count():
        intended = begin + phase + k / rate if rate else time.perf_counter()
        if intended >= until:
            return
        await asyncio.sleep(intended - time.perf_counter())
        try:
            member, view = await table.actor()
            sent = time.perf_counter()
            reply = await member.act(view, member.next_action(view))
        except (TimeoutError, Closed, WebSocketException) as exc:
            stats.errors[type(exc).__name__] += 1
            return
        since = intended if rate else sent
        if reply["type"] != "ack":
            stats.errors[str(reply.get("code"))] += since >= start
            await asyncio.sleep(RETRY_PAUSE)
        elif since >= start:
            done = time.perf_counter()
            stats.latencies.append(done - since)
            stats.in_window += done < until


async def call(http: httpx.AsyncClient, path: str, token: str | None = None,
               body: Any = None) -> Any:
    """POST to the server; its JSON answer, or the run ends saying what was refused. A kept-alive
    connection the server closed as it was reused (a busy machine's setup runs past uvicorn's
    keep-alive timeout) fails before the request is read: sent once more on a new one."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        answer = await http.post(path, json=body, headers=headers)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        answer = await http.post(path, json=body, headers=headers)
    if not answer.is_success:
        raise SystemExit(f"POST {path}: {answer.status_code} {answer.text[:300]}")
    return answer.json()


async def server_room(http: httpx.AsyncClient, players: int, bots: int = 0
                      ) -> tuple[str, list[str]]:
    """A free Standard room on the game server, every seat taken (by guests, then `bots`
    computer players) and the first hand dealt; its id and the guests' tokens, host first."""
    guests = await asyncio.gather(*(call(http, "/api/auth/guest", body={"name": f"load {i}"})
                                    for i in range(players - bots)))
    tokens = [guest["token"] for guest in guests]
    room = await call(http, "/api/rooms", tokens[0], {**ROOM, "seats": players})
    for token in tokens[1:]:
        await call(http, f"/api/rooms/{room['id']}/join", token)
    if bots:
        await call(http, f"/api/rooms/{room['id']}/bots", tokens[0], {"count": bots})
    await call(http, f"/api/rooms/{room['id']}/start", tokens[0])
    return room["id"], tokens


def baseline_room(number: int, players: int) -> tuple[str, list[str]]:
    """A room of `bench.baseline`: made on first use; its tokens are the seat numbers."""
    return f"bare{number}", [str(seat) for seat in range(players)]


async def gather_limited(jobs: list[Any], limit: int) -> list[Any]:
    """Await the coroutines `jobs`, at most `limit` at a time, in order."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Any) -> Any:
        async with gate:
            return await job

    return list(await asyncio.gather(*(one(job) for job in jobs)))
