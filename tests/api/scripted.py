"""Play a stacked-deck scenario (tests/api/scenarios.py) to its end between real websocket
clients: for tests that need finished matches rather than the match itself."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.api.client import Player, WsClient, call
from tests.api.scenarios import Scenario


async def play_scripted(base_url: str, http: httpx.AsyncClient, players: list[Player],
                        scenario: Scenario, **room: Any) -> tuple[str, dict[str, Any]]:
    """Seat `players` (the first hosts) in a room of the scenario's game and deals (`room`:
    more fields of POST /api/rooms, e.g. rated or private), play every seat's script; the
    match id and the first player's last view."""
    made = await call(http, "POST", "/api/rooms", players[0], {
        "game": scenario.game, "options": scenario.options, "seats": scenario.players,
        "deals": scenario.deals, **room})
    for player in players[1:]:
        await call(http, "POST", f"/api/rooms/{made['id']}/join", player,
                   {"invite": made["invite_code"]})
    clients = [await WsClient.join(base_url, made["id"], p) for p in players]
    try:
        started = await call(http, "POST", f"/api/rooms/{made['id']}/start", players[0])
        await asyncio.gather(*(play_script(c, scenario) for c in clients))
        final = clients[0].latest_state()["view"]
    finally:
        for client in clients:
            await client.close()
    return str(started["match_id"]), final


async def play_script(client: WsClient, scenario: Scenario) -> None:
    """Play this client's turns of the scenario, each when it is its turn, to the end."""
    for hand_no, turns in enumerate(scenario.scripts):
        for seat, actions in turns:
            if seat == client.seat:
                await client.wait_turn(hand_no)
                for action in actions:
                    await client.ack(action)
    await client.wait_state(lambda view: view["game_over"])
