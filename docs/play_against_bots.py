"""Play a game of Rummy against computer players through the HTTP + websocket API.

Start the server with `make run`, then in another terminal:

    .venv/bin/python docs/play_against_bots.py                 # Standard Rummy, 2 bots
    .venv/bin/python docs/play_against_bots.py --game knock --bots 1

The script signs in as a guest, creates a room, fills it with computer players, starts it and
plays a simple strategy until the game ends: draw from the stock, lay down every meld the server
says is possible, and discard the highest card. It prints what happens. Read it as an example of
the protocol (PROTOCOL.md §5): every message is JSON, actions carry a client id, the server
answers with `ack` or `error` and pushes `state` messages holding this player's view.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
from typing import Any

import httpx
import websockets

VALUES = {r: i + 1 for i, r in enumerate("A23456789TJQK")}


async def play(base: str, game: str, bots: int) -> dict[str, Any]:
    http = httpx.AsyncClient(base_url=base, trust_env=False)
    login = (await http.post("/api/auth/guest", json={"name": "Newcomer"})).json()
    headers = {"Authorization": f"Bearer {login['token']}"}
    room = (await http.post("/api/rooms", headers=headers, json={
        "game": game, "options": {}, "seats": bots + 1, "stake": 1, "buy_in": 100})).json()
    await http.post(f"/api/rooms/{room['id']}/bots", headers=headers, json={"count": bots})
    ids = itertools.count(1)
    async with websockets.connect(base.replace("http", "ws") + f"/ws/rooms/{room['id']}") as ws:
        await ws.send(json.dumps({"type": "auth", "token": login["token"]}))
        await http.post(f"/api/rooms/{room['id']}/start", headers=headers)
        pending = None  # the id of our action the server has not answered yet
        view: dict[str, Any] | None = None
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] in ("ack", "error") and message.get("id") == pending:
                pending = None
                if message["type"] == "error":
                    print("refused:", message["code"], message["message"])
            elif message["type"] == "state" and message["view"] is not None:
                view = message["view"]
            if view is None:
                continue
            if view["game_over"]:
                print("game over; totals", view["totals"], "winner seat", view["game_winner"])
                break
            if pending is None and view["turn"] == view["seat"] and view["legal"]:
                await asyncio.sleep(0.06)  # the server allows about 20 messages a second
                pending = next(ids)
                action = choose(view)
                await ws.send(json.dumps({"type": "action", "id": pending, "action": action}))
    me = (await http.get("/api/me", headers=headers)).json()
    print("chips now", me["balance"])
    await http.aclose()
    return {"totals": view["totals"] if view else None, "balance": me["balance"]}


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A plain strategy: draw from the stock, then discard the highest card not just taken."""
    legal = view["legal"]
    if "draw" in legal:
        return {"type": "draw", "source": "stock"}
    taken = view["turn_state"]["taken"]
    hand = [c for c in view["hand"] if c not in taken] or view["hand"]
    if "knock" in legal and len(view["hand"]) <= 3:
        return {"type": "knock", "discard": max(hand, key=lambda c: VALUES.get(c[0], 0))}
    if "discard" in legal:
        return {"type": "discard", "card": max(hand, key=lambda c: VALUES.get(c[0], 0))}
    return {"type": legal[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="standard")
    parser.add_argument("--bots", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(play(args.url, args.game, args.bots))


if __name__ == "__main__":
    main()
