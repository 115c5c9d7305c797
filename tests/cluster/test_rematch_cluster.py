"""Play again across processes: the rematch call reaches the finished room's owner (checks and
invitations) from another process, which opens the new room; the invitation reaches a socket
on either process (docs/server.md)."""

from __future__ import annotations

import pytest

from tests.api.client import WsClient, call, guest, http_client
from tests.api.scenarios import discard, draw, meld
from tests.api.test_rematch import SETTINGS
from tests.cluster.conftest import Fleet

pytestmark = pytest.mark.postgres


async def test_a_rematch_called_at_another_process_invites_every_player(fleet: Fleet) -> None:
    procs = fleet(2)
    owner, other = http_client(procs[0].base_url), http_client(procs[1].base_url)
    try:
        host, player = await guest(owner, "Host"), await guest(other, "Guest")
        room = await call(owner, "POST", "/api/rooms", host, SETTINGS)
        await call(other, "POST", f"/api/rooms/{room['id']}/join", player, {})
        await call(owner, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
        sockets = [await WsClient.join(procs[0].base_url, room["id"], host),
                   await WsClient.join(procs[1].base_url, room["id"], player)]
        await call(other, "POST", f"/api/rooms/{room['id']}/start", host)
        await sockets[1].wait_turn()
        for action in (draw(), meld(["3C", "4C", "5C", "6C", "7C", "8C", "9C"]),
                       discard("KS")):
            await sockets[1].ack(action)
        await sockets[0].wait_for(lambda m: m["type"] == "state"
                                  and m["room"]["status"] == "closed")
        new = await call(other, "POST", f"/api/rooms/{room['id']}/rematch", host)
        for client in sockets:
            offer = await client.wait_for(lambda m: m["type"] == "rematch")
            assert (offer["from"], offer["room"]) == (room["id"], new["id"])
        again = await call(owner, "POST", f"/api/rooms/{room['id']}/rematch", host)
        assert again["id"] == new["id"]  # the first offer stands, whichever process is asked
        joined = await call(owner, "POST", f"/api/rooms/{new['id']}/join", player,
                            {"invite": offer["invite_code"]})
        assert joined["room"]["taken"] == 3
        for client in sockets:
            await client.close()
    finally:
        await owner.aclose()
        await other.aclose()
