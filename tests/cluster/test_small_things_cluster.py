"""Issue 18's small things across processes: ``GET /api/me/rooms`` answers the same at every
process, private rooms included; a rematch called at another process than the finished room's
owner carries that room's chat into the new room (docs/server.md)."""

from __future__ import annotations

import pytest

from tests.api.client import WsClient, call, guest, http_client
from tests.api.scenarios import discard, draw, meld
from tests.api.test_rematch import SETTINGS
from tests.cluster.conftest import Fleet

pytestmark = pytest.mark.postgres


async def test_my_rooms_and_the_rematch_chat_at_either_process(fleet: Fleet) -> None:
    procs = fleet(2)
    owner, other = http_client(procs[0].base_url), http_client(procs[1].base_url)
    try:
        host, player = await guest(owner, "Host"), await guest(other, "Guest")
        room = await call(owner, "POST", "/api/rooms", host, {**SETTINGS, "private": True})
        await call(other, "POST", f"/api/rooms/{room['id']}/join", player,
                   {"invite": room["invite_code"]})
        for http in (owner, other):
            for who, seat in ((host, 0), (player, 1)):
                mine = (await call(http, "GET", "/api/me/rooms", who))["rooms"]
                assert [(r["id"], r["your_seat"]) for r in mine] == [(room["id"], seat)]

        await call(owner, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
        sockets = [await WsClient.join(procs[0].base_url, room["id"], host),
                   await WsClient.join(procs[1].base_url, room["id"], player)]
        await sockets[1].send({"type": "chat", "text": "see you in the next one"})
        await sockets[0].wait_for(lambda m: m["type"] == "chat")
        await call(other, "POST", f"/api/rooms/{room['id']}/start", host)
        await sockets[1].wait_turn()
        for action in (draw(), meld(["3C", "4C", "5C", "6C", "7C", "8C", "9C"]),
                       discard("KS")):
            await sockets[1].ack(action)
        await sockets[0].wait_for(lambda m: m["type"] == "state"
                                  and m["room"]["status"] == "closed")
        assert (await call(other, "GET", "/api/me/rooms", host))["rooms"] == []  # closed

        new = await call(other, "POST", f"/api/rooms/{room['id']}/rematch", host)
        for base_url in (procs[0].base_url, procs[1].base_url):
            first = await WsClient.join(base_url, new["id"], host)
            assert [(c["name"], c["text"]) for c in first.messages[0]["chat"]] == \
                [("Guest", "see you in the next one")]
            await first.close()
        for client in sockets:
            await client.close()
    finally:
        await owner.aclose()
        await other.aclose()
