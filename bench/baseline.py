"""A bare websocket server with the live room's message pattern: what the wire alone allows.

``python -m bench.baseline --port P [--players N]`` serves a plain ASGI app through uvicorn with
the options ``python -m app serve`` uses (the same event loop, HTTP and websocket
implementations, the same message size limit and collector thresholds), so that `bench.load`
can drive it with the same client as the game server. The app keeps no accounts, rules,
database or timers:

- ``GET /api/health`` answers ``{"status": "ok"}``;
- ``/ws/rooms/{id}`` (a room made on first use) takes ``{"type": "auth", "token": SEAT}`` and
  sends that member the room's state; then, for an action of the seat to act (a ``draw``, then a
  ``discard``), it sends each member a ``state`` and the actor an ``ack``, the view built and
  JSON-encoded for each member; anything else gets an error. A state has the keys of the
  server's (its room summary, the table's presence, clock and deal fields, the seat's legal
  draws, throws and aids) and its length: the stock runs out and is turned over, and a hand
  ends after as many actions as the server's and adds its result, so the messages grow over
  a run as the server's do (`bench.load` prints both sides' average length).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
import uvicorn

from app.api.messages import MAX_MESSAGE_BYTES
from app.api.wsprotocol import LeanWebSocketProtocol
from app.cli import GC_THRESHOLDS

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

HAND_SIZE = 7
CARDS = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
# A hand of the server's pattern (draws from the stock, each drawn card discarded) ends with
# the stock exhausted after this many actions, and adds its result to every later view.
HAND_ACTIONS = 277


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
    """Whose turn it is, what each seat holds, the pile and the hands' results: the stock is
    an endless pack whose count is the server's, turned over from the pile when it runs out."""

    def __init__(self, room_id: str, players: int) -> None:
        self.players = players
        self.pack = itertools.cycle(CARDS)
        self.turn = 1 % players
        self.drawn = False
        self.seq = 0
        self.hand_no = -1
        self.results: list[dict[str, Any]] = []
        self._deal()
        self.members: dict[int, Member] = {}
        ids = [secrets.token_hex(16) for _ in range(players)]
        self.summary = {
            "id": room_id, "host_id": ids[0], "game": "standard", "options": {},
            "seats": players, "stake": 0, "buy_in": 0, "turn_seconds": 0, "private": False,
            "spectator_chat": False, "status": "playing", "match_id": secrets.token_hex(16),
            "grace_seconds": 3600, "rated": False,
            "players": [{"seat": s, "name": f"load {s}", "bot": None, "level": None,
                         "player_id": ids[s], "stand_in": None} for s in range(players)],
            "taken": players, "rematch": None}
        self.commitments = [secrets.token_hex(32) for _ in range(2)]

    def _deal(self) -> None:
        if self.hand_no >= 0:
            n = self.players
            self.results.append({"ended": True, "winner": None, "reason": "exhausted",
                                 "scores": [0] * n, "revealed": self.hands, "payments": []})
        self.hand_no += 1
        self.hands = [[next(self.pack) for _ in range(HAND_SIZE)] for _ in range(self.players)]
        self.pile = [next(self.pack)]
        self.stock = len(CARDS) - HAND_SIZE * self.players - 1
        self.restocks = 0
        self.actions = 0

    def state(self, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]:
        """A member's state message, with the keys of the server's for a Standard hand."""
        n = self.players
        mine = seat == self.turn
        legal = (["meld", "lay_off", "discard"] if self.drawn else ["draw"]) if mine else []
        view = {
            "game": "standard", "players": n, "phase": "play" if self.drawn else "draw",
            "turn": self.turn, "dealer": 0, "hand_no": self.hand_no,
            "hand_counts": [len(h) for h in self.hands], "stock_count": self.stock,
            "restocks": self.restocks, "discard": self.pile, "melds": [], "known": [[]] * n,
            "locked": [[]] * n, "opened": [False] * n, "shown": [False] * n,
            "turns": [self.actions // 2 // n] * n, "hand_scores": [0] * n, "totals": [0] * n,
            "hand_over": False, "game_over": False, "game_winner": None,
            "results": self.results, "revealed": [],
            "turn_state": {"taken": [], "drawn": int(self.drawn), "melds": 0, "acted": False,
                           "must_use": None, "jokers_to_play": 0},
            "presence": ["connected"] * n, "turn_deadline": None, "stand_ins": [None] * n,
            "stand_in_at": [None] * n, "next_deal_commitment": self.commitments[0],
            "deal_commitment": self.commitments[1], "stacked_deal": False, "last_deal": None,
            "seat": seat, "hand": self.hands[seat], "call_window": None, "legal": legal,
            "draws": {"from_stock": mine and not self.drawn,
                      "takes": self.pile[-1:] if mine and not self.drawn else []},
            "throws": {"discard": self.hands[seat] if mine and self.drawn else [], "knock": []},
            "aids": {}}
        return {"type": "state", "seq": self.seq, "view": view, "room": self.summary,
                "events": events}

    def apply(self, seat: int, action: Any) -> str | None:
        """Apply a draw or a discard of the seat to act; the refusal's code, or None."""
        kind = action.get("type") if isinstance(action, dict) else None
        if seat != self.turn:
            return "not_your_turn"
        if kind == "draw" and not self.drawn:
            if not self.stock:  # turned over from the pile, its top card left
                self.stock, self.pile = len(self.pile) - 1, self.pile[-1:]
                self.restocks += 1
            self.stock -= 1
            self.hands[seat] = [*self.hands[seat], next(self.pack)]
        elif kind == "discard" and self.drawn and action.get("card") in self.hands[seat]:
            hand = list(self.hands[seat])
            hand.remove(action["card"])
            self.hands[seat] = hand
            self.pile = [*self.pile, action["card"]]
            self.turn = (self.turn + 1) % self.players
        else:
            return "illegal_action"
        self.drawn = kind == "draw"
        self.seq += 1
        self.actions += 1
        if self.actions == HAND_ACTIONS:
            self._deal()
        return None

    async def act(self, seat: int, member: Member, message: dict[str, Any]) -> None:
        client_id, action = message.get("id"), message.get("action")
        refusal = self.apply(seat, action)
        if refusal is not None:
            await member.send({"type": "error", "id": client_id, "code": refusal,
                               "message": refusal.replace("_", " ")})
            return
        events = [{"type": "action", "seat": seat, "action": action},
                  {"type": action["type"], "seat": seat, "card": self.pile[-1]}]
        for other, to in list(self.members.items()):
            await to.send(self.state(other, events))
        await member.send({"type": "ack", "id": client_id, "seq": self.seq})


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
    # compression, no server header, and the same collector thresholds.
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.Server(uvicorn.Config(BareApp(args.players), host=args.host, port=args.port,
                                  ws_max_size=MAX_MESSAGE_BYTES, ws=LeanWebSocketProtocol,
                                  ws_per_message_deflate=False, proxy_headers=False,
                                  server_header=False)).run()


if __name__ == "__main__":
    main()
