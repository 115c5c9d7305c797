"""A bare websocket server with the live room's message pattern: what the wire alone allows.

``python -m bench.baseline --port P [--players N]`` serves a plain ASGI app through uvicorn with
the options ``python -m app serve`` uses (the same event loop, HTTP and websocket
implementations, the same message size limit), so that `bench.load` can drive it with the same
client as the game server. The app keeps no accounts, rules, database or timers:

- ``GET /api/health`` answers ``{"status": "ok"}``;
- ``/ws/rooms/{id}`` (a room made on first use) takes ``{"type": "auth", "token": SEAT}`` and
  sends that member the room's state; then, for an action of the seat to act (a ``draw``, then a
  ``discard``), it sends the actor an ``ack`` and each member a ``state`` of about 1.5 KB, the
  view built and JSON-encoded for each member as the server does; anything else gets an error.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
import uvicorn

from app.api.messages import MAX_MESSAGE_BYTES
from app.api.wsprotocol import LeanWebSocketProtocol

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

HAND_SIZE = 7
CARDS = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
PILE_KEPT = 40  # discards shown: the state is then as long as the server's, on average


class Member:
    """One authenticated socket; sends are serialised, as the server's are."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        text = orjson.dumps(message).decode()
        async with self._lock:
            await self._send({"type": "websocket.send", "text": text})


class BareRoom:
    """Whose turn it is and what each seat holds; every draw comes from an endless pack."""

    def __init__(self, room_id: str, players: int) -> None:
        self.players = players
        self.pack = itertools.cycle(CARDS)
        self.hands = [[next(self.pack) for _ in range(HAND_SIZE)] for _ in range(players)]
        self.pile = [next(self.pack)]
        self.turn = 1 % players
        self.drawn = False
        self.seq = 0
        self.members: dict[int, Member] = {}
        ids = [secrets.token_hex(16) for _ in range(players)]
        self.summary = {
            "id": room_id, "host_id": ids[0], "game": "standard", "options": {},
            "seats": players, "stake": 0, "buy_in": 0, "turn_seconds": 0, "private": False,
            "spectator_chat": False, "status": "playing", "match_id": secrets.token_hex(16),
            "players": [{"seat": s, "name": f"p{s}", "bot": None, "player_id": ids[s]}
                        for s in range(players)],
            "taken": players}

    def state(self, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]:
        """A member's state message, shaped like the server's view of a Standard hand."""
        n = self.players
        mine = seat == self.turn
        legal = (["meld", "lay_off", "discard"] if self.drawn else ["draw"]) if mine else []
        view = {
            "game": "standard", "seat": seat, "players": n, "phase": "play" if self.drawn
            else "draw", "turn": self.turn, "dealer": 0, "hand_no": 0, "hand": self.hands[seat],
            "hand_counts": [len(h) for h in self.hands], "stock_count": 23, "restocks": 0,
            "discard": self.pile, "melds": [], "known": [[]] * n, "locked": [[]] * n,
            "opened": [False] * n, "shown": [False] * n, "turns": [self.seq // 2 // n] * n,
            "hand_scores": [0] * n, "totals": [0] * n, "hand_over": False, "game_over": False,
            "game_winner": None, "results": [], "revealed": [], "call_window": None,
            "turn_state": {"taken": [], "drawn": int(self.drawn), "melds": 0, "acted": False,
                           "must_use": None, "jokers_to_play": 0},
            "legal": legal, "turn_deadline": None}
        return {"type": "state", "seq": self.seq, "view": view, "room": self.summary,
                "events": events}

    def apply(self, seat: int, action: Any) -> str | None:
        """Apply a draw or a discard of the seat to act; the refusal's code, or None."""
        kind = action.get("type") if isinstance(action, dict) else None
        if seat != self.turn:
            return "not_your_turn"
        if kind == "draw" and not self.drawn:
            self.hands[seat] = [*self.hands[seat], next(self.pack)]
        elif kind == "discard" and self.drawn and action.get("card") in self.hands[seat]:
            hand = list(self.hands[seat])
            hand.remove(action["card"])
            self.hands[seat] = hand
            self.pile = [*self.pile, action["card"]][-PILE_KEPT:]
            self.turn = (self.turn + 1) % self.players
        else:
            return "illegal_action"
        self.drawn = kind == "draw"
        self.seq += 1
        return None

    async def act(self, seat: int, member: Member, message: dict[str, Any]) -> None:
        client_id, action = message.get("id"), message.get("action")
        refusal = self.apply(seat, action)
        if refusal is not None:
            await member.send({"type": "error", "id": client_id, "code": refusal,
                               "message": refusal.replace("_", " ")})
            return
        await member.send({"type": "ack", "id": client_id, "seq": self.seq})
        events = [{"type": "action", "seat": seat, "action": action},
                  {"type": action["type"], "seat": seat, "card": self.pile[-1]}]
        for other, to in list(self.members.items()):
            await to.send(self.state(other, events))


class BareApp:
    """The ASGI app: the health answer and the room sockets."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.rooms: dict[str, BareRoom] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "websocket" and path.startswith("/ws/rooms/"):
            await self.socket(path.removeprefix("/ws/rooms/"), receive, send)
        elif scope["type"] == "http":
            found = path == "/api/health"
            await send({"type": "http.response.start", "status": 200 if found else 404,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body",
                        "body": b'{"status":"ok"}' if found else b"{}"})
        elif scope["type"] == "lifespan":
            await receive()  # startup: nothing to start
            await send({"type": "lifespan.startup.complete"})
            await receive()  # shutdown
            await send({"type": "lifespan.shutdown.complete"})

    async def socket(self, room_id: str, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        room = self.rooms.get(room_id) or self.rooms.setdefault(
            room_id, BareRoom(room_id, self.players))
        member, seat = Member(send), None
        while (event := await receive())["type"] == "websocket.receive":
            message = orjson.loads(event.get("text") or event.get("bytes") or b"null")
            if seat is None and message.get("type") == "auth":
                seat = int(message["token"]) % self.players
                room.members[seat] = member
                await member.send(room.state(seat, []))
            elif seat is not None and message.get("type") == "action":
                await room.act(seat, member, message)
        if seat is not None and room.members.get(seat) is member:
            del room.members[seat]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.baseline", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    # The options of app.cli.serve: same loop, websocket protocol, size limit and no
    # compression, no server header.
    uvicorn.Server(uvicorn.Config(BareApp(args.players), host=args.host, port=args.port,
                                  ws_max_size=MAX_MESSAGE_BYTES, ws=LeanWebSocketProtocol,
                                  ws_per_message_deflate=False, proxy_headers=False,
                                  server_header=False)).run()


if __name__ == "__main__":
    main()
