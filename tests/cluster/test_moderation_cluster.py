"""A suspension takes effect at every process at once (PROTOCOL.md §9, docs/scaling.md): the
player's socket at another process is sent ``suspended`` and closed, and their token is refused
there too; lifted early, it works again everywhere. A room taken over by another process keeps
a blocked player's chat from the blocker."""

from __future__ import annotations

from tests.api.client import Player, WsClient, call, guest, http_client, refusal
from tests.api.procs import admin_token
from tests.cluster.conftest import Fleet
from tests.waits import eventually


async def test_a_suspension_closes_the_players_socket_at_another_process(fleet: Fleet) -> None:
    here, there = fleet(2)
    async with http_client(here.base_url) as http, http_client(there.base_url) as far:
        admin = Player("", "chief", await admin_token(here, http))
        host, player = await guest(http, "Host"), await guest(http, "Eve")
        room = await call(http, "POST", "/api/rooms", host,
                          {"game": "standard", "options": {}, "seats": 2})
        await call(http, "POST", f"/api/rooms/{room['id']}/join", player,
                   {"invite": room.get("invite_code")})
        socket = await WsClient.join(there.base_url, room["id"], player)  # at process B
        made = await call(http, "POST", f"/api/admin/players/{player.id}/sanctions", admin,
                          {"kind": "suspension", "hours": 1, "reason": "collusion"}, 201)
        code, _reason = await socket.wait_closed()  # told through Redis, by process A
        assert code == 4401
        assert any(m["type"] == "error" and m["code"] == "suspended" for m in socket.messages)
        assert await refusal(far, "GET", "/api/me", player, None, 403) == "suspended"

        await call(http, "DELETE", f"/api/admin/sanctions/{made['id']}", admin)
        await call(far, "GET", "/api/me", player)
        again = await WsClient.join(there.base_url, room["id"], player)
        await again.close()


async def test_a_blocked_players_chat_stays_hidden_after_a_takeover(fleet: Fleet) -> None:
    here, there = fleet(2)
    async with http_client(here.base_url) as http, http_client(there.base_url) as far:
        ann, bob = await guest(http, "Ann"), await guest(http, "Bob")
        room = await call(http, "POST", "/api/rooms", ann, {"game": "standard", "seats": 3})
        await call(http, "POST", f"/api/rooms/{room['id']}/bots", ann, {"count": 1})
        await call(far, "POST", f"/api/rooms/{room['id']}/join", bob)  # relayed to `here`
        await call(http, "POST", f"/api/rooms/{room['id']}/start", ann)  # owned by `here`
        await call(http, "POST", f"/api/players/{bob.id}/block", ann)
        sockets = [await WsClient.join(here.base_url, room["id"], p) for p in (bob, ann)]
        await sockets[0].send({"type": "chat", "text": "from bob"})
        await sockets[0].wait_for(lambda m: m.get("text") == "from bob")
        await sockets[1].send({"type": "chat", "text": "from ann"})
        await sockets[0].wait_for(lambda m: m.get("text") == "from ann")
        here.kill()
        for client in sockets:
            await client.close()

        async def taken_over() -> bool:  # `there` answers for the room once it holds it
            return (await far.get(f"/api/rooms/{room['id']}", headers=ann.headers)
                    ).status_code == 200

        await eventually(taken_over, "the room taken over by the second process")
        for player, lines in ((ann, ["from ann"]), (bob, ["from bob", "from ann"])):
            client = await WsClient.join(there.base_url, room["id"], player)
            try:
                assert [line["text"] for line in client.messages[0]["chat"]] == lines
            finally:
                await client.close()
