"""A small scripted client of the live server (PROTOCOL.md §5): HTTP calls and `WsClient`.

`WsClient` connects to ``/ws/rooms/{id}``, authenticates, and records EVERY message it receives
(parsed, in arrival order) so that tests can check all of them afterwards. Actions carry client
ids and `act` waits for the matching ``ack`` or ``error``; `wait_turn` waits for a state in which
it is this client's turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.waits import DEADLINE

TIMEOUT = DEADLINE  # a generous deadline for any reply: the suite runs on busy machines

Message = dict[str, Any]


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return bearer(self.token)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def http_client(base_url: str) -> httpx.AsyncClient:
    # A pooled connection is dropped before uvicorn's keep-alive timeout (5 s) can close it
    # under a request sent on it (httpx's default expiry is the same 5 s: a ReadError race).
    return httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=TIMEOUT,
                             limits=httpx.Limits(keepalive_expiry=2.0))


async def guest(http: httpx.AsyncClient, name: str) -> Player:
    """A new guest (who receives the starting grant)."""
    response = await http.post("/api/auth/guest", json={"name": name})
    assert response.status_code == 200, response.text
    body = response.json()
    return Player(body["player"]["id"], body["player"]["name"], body["token"])


async def login(http: httpx.AsyncClient, username: str, password: str) -> Player:
    response = await http.post("/api/auth/login", json={"username": username,
                                                        "password": password})
    assert response.status_code == 200, response.text
    body = response.json()
    return Player(body["player"]["id"], body["player"]["name"], body["token"])


async def call(http: httpx.AsyncClient, method: str, path: str, player: Player | None = None,
               body: Any = None, status: int = 200) -> Any:
    """One HTTP call that must answer `status`; returns the JSON body."""
    headers = player.headers if player is not None else {}
    response = await http.request(method, path, headers=headers, json=body)
    assert response.status_code == status, f"{method} {path}: {response.status_code} " \
                                            f"{response.text}"
    return response.json()


async def refusal(http: httpx.AsyncClient, method: str, path: str, player: Player | None,
                  body: Any, status: int) -> str:
    """The error code of a refused HTTP call (``{"detail": {"code", "message"}}``)."""
    answer = await call(http, method, path, player, body, status)
    detail = answer["detail"]
    assert isinstance(detail, dict) and detail["message"], answer
    return str(detail["code"])


async def balance(http: httpx.AsyncClient, player: Player) -> int:
    return int((await call(http, "GET", "/api/me", player))["balance"])


async def post_from(http: httpx.AsyncClient, address: str, path: str, player: Player,
                    body: Any) -> Any:
    """A POST as if from ``address`` (X-Forwarded-For: the server must trust the test as its
    proxy, RUMMY_TRUSTED_PROXIES): a staked room keeps one account per address."""
    answer = await http.post(path, json=body, headers={**player.headers,
                                                       **forwarded_for(address)})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def forwarded_for(address: str | None) -> dict[str, str]:
    return {"X-Forwarded-For": address} if address else {}


def ws_url(base_url: str, room_id: str) -> str:
    return base_url.replace("http://", "ws://", 1) + f"/ws/rooms/{room_id}"


class WsClient:
    """One websocket connection to a room; every received message is kept in `messages`."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.messages: list[Message] = []
        self.raw: list[str] = []
        self.times: list[float] = []  # time.monotonic() at each message's arrival
        self.seat: int | None = None
        self.cursor = 0  # `wait_turn` looks at messages from here on
        self.pace = 0.0  # least seconds between two actions (the server limits the rate)
        self._last_act = 0.0
        self.latency = 0.0  # seconds from sending the last action to its reply's arrival
        self._ids = itertools.count(1)
        self._tag = secrets.token_hex(3)  # ids stay unique across this player's connections
        self._arrived = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base_url: str, room_id: str, name: str = "client",
                   address: str | None = None, headers: dict[str, str] | None = None
                   ) -> WsClient:
        """Connect without authenticating (for tests of the handshake itself); ``address``: as
        if from there (X-Forwarded-For, for a server that trusts the test's proxy);
        ``headers``: more of the upgrade request's."""
        ws = await connect(ws_url(base_url, room_id), proxy=None, open_timeout=TIMEOUT,
                           max_size=2**22,
                           additional_headers={**forwarded_for(address), **(headers or {})})
        return cls(ws, name)

    @classmethod
    async def join(cls, base_url: str, room_id: str, player: Player,
                   address: str | None = None, headers: dict[str, str] | None = None
                   ) -> WsClient:
        """Connect (from ``address``, with ``headers``, as `open`), authenticate and wait for
        the first state message."""
        client = await cls.open(base_url, room_id, player.name, address, headers)
        await client.send({"type": "auth", "token": player.token})
        first = await client.wait_for(lambda m: m["type"] in ("state", "error"))
        assert first["type"] == "state", first
        client.seat = next((s["seat"] for s in first["room"]["players"]
                            if s is not None and s["player_id"] == player.id), None)
        return client

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                async with self._arrived:
                    self.raw.append(text)
                    self.messages.append(orjson.loads(text))
                    self.times.append(time.monotonic())
                    self._arrived.notify_all()
        async with self._arrived:
            self._arrived.notify_all()

    @property
    def is_closed(self) -> bool:
        return self._reader.done()

    async def send(self, message: Any) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def send_raw(self, text: str | bytes) -> None:
        await self.ws.send(text)

    async def wait_for(self, check: Any, start: int = 0, timeout: float = TIMEOUT) -> Message:
        """The first message from index `start` on for which `check(message)` is true."""
        return (await self.wait_index(check, start, timeout))[1]

    async def wait_index(self, check: Any, start: int = 0,
                         timeout: float = TIMEOUT) -> tuple[int, Message]:
        found = await self.poll(check, start, timeout)
        if found is not None:
            return found
        if self.is_closed:
            raise AssertionError(f"{self.name}: socket closed while waiting; "
                                 f"got {self.messages[start:][-5:]}")
        raise AssertionError(f"{self.name}: no matching message in {timeout} s; "
                             f"got {self.messages[start:][-5:]}")

    async def poll(self, check: Any, start: int = 0,
                   timeout: float = TIMEOUT) -> tuple[int, Message] | None:
        """The first message from index `start` on that passes `check`, with its index; None
        if the socket closes or nothing passes within `timeout` (tests that expect either)."""
        async def find() -> tuple[int, Message] | None:
            async with self._arrived:
                while True:
                    for i in range(start, len(self.messages)):
                        if check(self.messages[i]):
                            return i, self.messages[i]
                    if self.is_closed:
                        return None
                    await self._arrived.wait()

        try:
            return await asyncio.wait_for(find(), timeout)
        except TimeoutError:
            return None

    def next_id(self) -> str:
        return f"{self.name}-{self._tag}-{next(self._ids)}"

    async def act(self, action: Any, client_id: Any = None) -> Message:
        """Send an action with a client id; the matching ``ack`` or ``error``."""
        client_id = self.next_id() if client_id is None else client_id
        wait = self._last_act + self.pace - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_act = time.monotonic()
        start = len(self.messages)
        await self.send({"type": "action", "id": client_id, "action": action})
        index, reply = await self.wait_index(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == client_id, start)
        self.latency = self.times[index] - self._last_act
        self.cursor = max(self.cursor, index + 1)
        return reply

    async def ack(self, action: Any, client_id: Any = None) -> Message:
        """An action that must be applied."""
        reply = await self.act(action, client_id)
        assert reply["type"] == "ack", f"{self.name} {action}: {reply}"
        return reply

    async def refused(self, raw: Any, client_id: Any = None) -> Message:
        """Send a raw frame (text, or an object to encode) that must earn an error; the error."""
        start = len(self.messages)
        await (self.send_raw(raw) if isinstance(raw, str | bytes) else self.send(raw))
        return await self.wait_for(
            lambda m: m["type"] == "error" and m.get("id") == client_id, start)

    async def wait_turn(self, hand_no: int | None = None) -> Message:
        """The first state (after what this client already handled) where it is to act."""
        def my_turn(m: Message) -> bool:
            view = m.get("view") if m["type"] == "state" else None
            return (view is not None and view["turn"] == self.seat and not view["hand_over"]
                    and (hand_no is None or view["hand_no"] == hand_no))

        index, message = await self.wait_index(my_turn, self.cursor)
        self.cursor = index + 1
        return message

    async def wait_state(self, check: Any, timeout: float = TIMEOUT) -> Message:
        """The first state message whose view satisfies `check`."""
        return await self.wait_for(
            lambda m: m["type"] == "state" and m["view"] is not None and check(m["view"]),
            timeout=timeout)

    @property
    def states(self) -> list[Message]:
        return [m for m in self.messages if m["type"] == "state"]

    @property
    def acks(self) -> list[Message]:
        return [m for m in self.messages if m["type"] == "ack"]

    def latest_state(self) -> Message:
        return self.states[-1]

    async def wait_closed(self, timeout: float = TIMEOUT) -> tuple[int | None, str | None]:
        """Wait for the server to close the socket; its close code and reason."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.ws.close_code, self.ws.close_reason

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self._reader


async def fresh_state(base_url: str, room_id: str, player: Player) -> Message:
    """What a new connection of `player` receives at once: the room's current state."""
    client = await WsClient.join(base_url, room_id, player)
    try:
        return client.messages[0]
    finally:
        await client.close()


def drawn_card(before: list[str], after: list[str]) -> str:
    """The card a draw added to a hand."""
    added = Counter(after) - Counter(before)
    assert len(added) == 1, f"not one card drawn: {before} -> {after}"
    return next(iter(added))


async def take_turn(client: WsClient, turn: Message | None = None
                    ) -> list[tuple[Message, float]]:
    """Take this client's turn (`turn`, or the next state where it is to act): draw from the
    stock and discard the card drawn (always legal: GEN-8 forbids only a taken discard).
    Returns each action sent with the seconds its ack took."""
    turn = turn or await client.wait_turn()
    done = []
    action: Message = {"type": "draw", "source": "stock"}
    drew = await client.ack(action)
    done.append((action, client.latency))
    state = await client.wait_for(lambda m: m["type"] == "state" and m["seq"] >= drew["seq"])
    if state["view"]["hand_over"]:  # a draw can end the hand (no restock left)
        return done
    action = {"type": "discard", "card": drawn_card(turn["view"]["hand"], state["view"]["hand"])}
    await client.ack(action)
    done.append((action, client.latency))
    return done
