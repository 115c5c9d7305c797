"""Three real server processes on one PostgreSQL database and one Redis (docs/scaling.md): any
process serves any player, the lobby and the throttles are the same from each, and a room
outlives its process (SIGKILL, SIGTERM)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections import Counter
from typing import Any

import httpx
import orjson
import pytest
import redis.asyncio
from sqlalchemy import select

from app.db.models import MatchAction, Room
from app.db.session import make_engine
from tests.api.client import WsClient, call, guest, http_client
from tests.api.procs import Seat, ServerProcess, admin_token, bearer, play_until_over, post_ok
from tests.api.procs import guest as raw_guest
from tests.api.scenarios import STANDARD
from tests.api.test_live_match import _check_messages, _play
from tests.cluster.conftest import LEASE_SECONDS, Fleet, PrivateRedis
from tests.waits import eventually

pytestmark = pytest.mark.postgres

# The lease in the fencing scenario: long, so that the former owner's next renewal comes many
# seconds after Redis restarts, however slowly the takeover goes on a busy machine.
FENCE_LEASE = 60


async def _lobby(proc: ServerProcess) -> list[dict[str, Any]]:
    async with http_client(proc.base_url) as http:
        return list((await call(http, "GET", "/api/rooms"))["rooms"])


async def _same_lobby(procs: list[ServerProcess], check: Any) -> list[dict[str, Any]]:
    """The lobby once every process shows the same one and it passes `check`."""
    async def same() -> tuple[list[dict[str, Any]]] | None:  # (lobby,): an empty one counts
        seen = [await _lobby(p) for p in procs]
        return (seen[0],) if all(s == seen[0] for s in seen) and check(seen[0]) else None

    return (await eventually(same, "the processes show the same lobby"))[0]


async def test_players_on_three_processes_play_a_full_match_with_chat(fleet: Fleet) -> None:
    procs = fleet(3)
    https = [http_client(p.base_url) for p in procs]
    try:
        players = [await guest(https[i], f"Player {i}") for i in range(3)]
        room = await call(https[0], "POST", "/api/rooms", players[0], {
            "game": STANDARD.game, "options": STANDARD.options, "seats": 3,
            "deals": STANDARD.deals})
        for seat in (1, 2):  # joined through the other processes: the call reaches the owner
            joined = await call(https[seat], "POST", f"/api/rooms/{room['id']}/join",
                                players[seat])
            assert joined["seat"] == seat
        lobby = await _same_lobby(procs, lambda rooms: any(
            r["id"] == room["id"] and r["taken"] == 3 for r in rooms))
        assert [r["id"] for r in lobby] == [room["id"]]

        clients = [await WsClient.join(procs[i].base_url, room["id"], players[i])
                   for i in range(3)]
        assert [c.seat for c in clients] == [0, 1, 2]
        for client in clients:
            client.pace = 0.06
        await clients[2].send({"type": "chat", "text": "hello from the third process"})
        for client in clients:
            line = await client.wait_for(lambda m: m["type"] == "chat")
            assert line == {"type": "chat", "seat": 2, "name": "Player 2",
                            "text": "hello from the third process"}
        started = await call(https[1], "POST", f"/api/rooms/{room['id']}/start", players[0])
        assert started["status"] == "playing"
        await asyncio.gather(*(_play(c, STANDARD) for c in clients))
        for client in clients:  # the chat line was checked above; the match's checks follow
            client.messages = [m for m in client.messages if m["type"] != "chat"]
        _check_messages(clients, STANDARD)  # each seat saw only its own view; acks in order
        await _same_lobby(procs, lambda rooms: all(r["id"] != room["id"] for r in rooms))
        for client in clients:
            await client.close()
    finally:
        for http in https:
            await http.aclose()


async def test_throttles_are_shared(fleet: Fleet) -> None:
    procs = fleet(3, RUMMY_GUESTS_PER_ADDRESS_PER_HOUR="4")
    https = [http_client(p.base_url) for p in procs]
    try:
        for i in range(4):
            await guest(https[i % 3], f"Guest {i}")
        for http in https:
            answer = await http.post("/api/auth/guest", json={"name": "One more"})
            assert answer.status_code == 429, answer.text
    finally:
        for http in https:
            await http.aclose()


# --- a room outlives its process ---------------------------------------------------------------


async def _room_on_first(procs: list[ServerProcess], http: list[Any]) -> tuple[
        dict[str, Any], list[dict[str, Any]]]:
    """A room owned by the first process: its host and a second player (seated through the
    other processes) and a computer player; started. Returns the room and the two players."""
    host, other = await raw_guest(http[0], "Ada"), await raw_guest(http[0], "Bo")
    room = await post_ok(http[0], "/api/rooms", host["token"], {
        "game": "standard", "options": {"target_score": 20}, "seats": 3})
    await post_ok(http[2], f"/api/rooms/{room['id']}/join", other["token"])
    await post_ok(http[1], f"/api/rooms/{room['id']}/bots", host["token"], {"count": 1})
    return room, [host, other]


async def _steady_play(procs: list[ServerProcess], stop: Any) -> dict[str, Any]:
    """Two players relayed through the second and third processes and a spectator on the
    owner play until the game is over; `stop(owner)` is called mid-hand under steady play.
    Every acknowledged action is in the log exactly once; the relayed players never see an
    error nor a disconnect; the spectator reconnects to a survivor and resyncs."""
    http = [httpx.AsyncClient(base_url=p.base_url, trust_env=False, timeout=20) for p in procs]
    try:
        room, players = await _room_on_first(procs, http)
        seats = [Seat("Ada", players[0]["token"]), Seat("Bo", players[1]["token"])]
        await seats[0].connect(procs[1].ws_url(room["id"]))
        await seats[1].connect(procs[2].ws_url(room["id"]))
        watcher = Seat("Cy", (await raw_guest(http[0], "Cy"))["token"])
        await watcher.connect(procs[0].ws_url(room["id"]))
        started = await post_ok(http[2], f"/api/rooms/{room['id']}/start", players[0]["token"])
        play = [asyncio.create_task(play_until_over(s, f"p{i}")) for i, s in enumerate(seats)]
        await eventually(lambda: sum(len(s.sent) for s in seats) >= 4
                         or any(t.done() for t in play), "four actions played")
        before = max(s.state["seq"] for s in seats if s.state is not None)
        # In a thread, as a real operator's signal would be: the clients play on meanwhile.
        stopping = asyncio.create_task(asyncio.to_thread(stop, procs[0]))
        await watcher.close()
        # Within a generous deadline (on a busy machine a hand-over takes many times its usual
        # second): this checks that play resumes; how fast is measured in bench/.
        await eventually(lambda: _progress(seats, before), "play resumed after the stop")
        await stopping
        again = await watcher.connect(procs[1].ws_url(room["id"]))  # a survivor
        assert again["seq"] >= before and again["view"] is not None
        finals = await asyncio.gather(*play)
        assert all(f["view"]["game_over"] for f in finals)
        assert all(s.ws is not None and s.ws.close_code is None for s in seats)
        logged = await _client_ids(procs[1].database_url, started["match_id"])
        acked = [client_id for s in seats for client_id, _ in s.sent]
        assert Counter(logged) == Counter(acked), "an acknowledged action lost or doubled"
        for seat in seats + [watcher]:
            await seat.close()
        return started
    finally:
        for client in http:
            await client.aclose()


def _progress(seats: list[Seat], before: int) -> bool:
    """Whether some seat has seen the match go past `before`."""
    return any(s.state is not None and s.state["seq"] > before + 1 for s in seats)


async def _client_ids(database_url: str, match_id: str) -> list[str]:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                select(MatchAction.client_id).where(MatchAction.match_id == match_id,
                                                    MatchAction.client_id.is_not(None)))
            return [orjson.loads(client_id) for (client_id,) in rows]
    finally:
        await engine.dispose()


async def test_sigkill_of_the_owner_mid_hand_the_match_goes_on(fleet: Fleet) -> None:
    await _steady_play(fleet(3), ServerProcess.kill)


async def test_sigterm_hands_the_rooms_over_without_a_client_error(fleet: Fleet) -> None:
    await _steady_play(fleet(3), ServerProcess.stop)


async def test_a_redis_restart_during_play(fleet: Fleet, private_redis: PrivateRedis) -> None:
    """Redis loses every lease: each process stops writing its rooms when its lease runs out
    (or the database fences its write off), a process takes each room over with a new token,
    and play resumes; no write of a former owner reaches the log."""
    procs = fleet(3, RUMMY_REDIS_URL=private_redis.url)

    def restart(_owner: ServerProcess) -> None:
        private_redis.stop()
        time.sleep(0.3)
        private_redis.start()

    started = await _steady_play(procs, restart)
    fence = await _fence(procs[0].database_url, started["id"])
    assert fence >= 2, "nobody took the room over after the restart"
    # Every action in the log is one the survivors' fold accepted: the admin's replay of the
    # whole match reproduces its recorded results.
    export = await _admin_export(procs[1], started["match_id"])
    path = procs[1].workdir / "export.json"
    path.write_text(json.dumps(export))
    done = procs[1].cli("replay", str(path))
    assert done.returncode == 0, done.stderr.decode()
    replayed = json.loads(done.stdout)
    assert replayed["ok"] is True and replayed["rejected"] is None
    assert replayed["totals"] == export["match"]["totals"]


async def _fence(database_url: str, room_id: str) -> int:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            return int((await connection.execute(
                select(Room.fence).where(Room.id == room_id))).scalar_one())
    finally:
        await engine.dispose()


async def _admin_export(proc: ServerProcess, match_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=proc.base_url, trust_env=False, timeout=20) as http:
        token = await admin_token(proc, http)
        answer = await http.get(f"/api/admin/matches/{match_id}", headers=bearer(token))
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


async def test_a_paused_owner_loses_its_room_and_writes_nothing_after(fleet: Fleet) -> None:
    """SIGSTOP of the owner: its lease runs out, a survivor takes the room over and play goes
    on; once the owner runs again (SIGCONT, its timers overdue) it drops the room instead of
    acting for it, and the log holds every acknowledged action once."""
    procs = fleet(3)
    paused: list[threading.Timer] = []

    def pause(owner: ServerProcess) -> None:
        assert owner.process is not None
        os.kill(owner.process.pid, signal.SIGSTOP)
        resume = threading.Timer(4 * float(LEASE_SECONDS),
                                 lambda: os.kill(owner.process.pid, signal.SIGCONT))
        paused.append(resume)
        resume.start()

    try:
        await _steady_play(procs, pause)
    finally:
        for timer in paused:
            timer.join()
    async with http_client(procs[0].base_url) as http:
        async def dropped() -> bool:
            health = await call(http, "GET", "/api/health")
            return bool(health["cluster"]["rooms"] == 0)

        await eventually(dropped, "the former owner holds no room")


async def test_a_logout_closes_the_tokens_sockets_at_every_process(fleet: Fleet) -> None:
    procs = fleet(2)
    async with http_client(procs[0].base_url) as http:
        player = await guest(http, "Dee")
        room = await call(http, "POST", "/api/rooms", player,
                          {"game": "standard", "options": {}, "seats": 2})
        sockets = [await WsClient.join(p.base_url, room["id"], player) for p in procs]
        answer = await call(http, "POST", "/api/auth/logout", player)
        assert answer["logged_out"] is True
        for client in sockets:
            code, _reason = await client.wait_closed()
            assert code == 4401
            assert any(m["type"] == "error" and m["code"] == "logged_out"
                       for m in client.messages)



async def test_after_a_redis_restart_the_fence_refuses_the_former_owner(
        fleet: Fleet, private_redis: PrivateRedis, redis_prefix: str) -> None:
    """Redis restarts just after the owner renewed its lease, and another process takes the room
    over at once: the former owner still counts its lease as held (for most of a lease period),
    so a player's action reaches its log writer, and the database refuses it (the fencing check,
    in the same transaction as the insert). The former owner drops the room, the action goes to
    the new owner, which applies it once, and the player sees only its ack."""
    procs = fleet(2, RUMMY_REDIS_URL=private_redis.url, RUMMY_LEASE_SECONDS=str(FENCE_LEASE))
    async with httpx.AsyncClient(base_url=procs[0].base_url, trust_env=False,
                                 timeout=20) as http:
        host, player = await raw_guest(http, "Bo"), await raw_guest(http, "Ada")
        room = await post_ok(http, "/api/rooms", host["token"],
                             {"game": "standard", "options": {}, "seats": 2})
        await post_ok(http, f"/api/rooms/{room['id']}/join", player["token"])
        ada = Seat("Ada", player["token"])  # seat 1, first to play; at the owner itself
        await ada.connect(procs[0].ws_url(room["id"]))
        started = await post_ok(http, f"/api/rooms/{room['id']}/start", host["token"])
        await ada.until(lambda m: m["view"] is not None and m["view"]["turn"] == 1)

        lease = redis.asyncio.Redis.from_url(private_redis.url)
        key = f"{redis_prefix}:lease:{room['id']}"
        # Just renewed: the owner relies on it for most of a lease period, and renews it (and
        # finds it gone) no sooner than 0.9 of a quarter period later.
        await eventually(lambda: _renewed(lease, key), "the owner renewed its lease",
                         interval=0.005)
        renewed = time.monotonic()
        await lease.aclose()
        private_redis.stop()
        private_redis.start()
        async with httpx.AsyncClient(base_url=procs[1].base_url, trust_env=False,
                                     timeout=20) as other:
            async def answered() -> bool:  # the call takes the room over at the second process
                return (await other.get(f"/api/rooms/{room['id']}",
                                        headers=bearer(host["token"]))).status_code == 200

            await eventually(answered, "the second process took the room over")
        assert await _fence(procs[0].database_url, room["id"]) == 2
        # A condition of the scenario, not a speed check: the long lease leaves room for a
        # busy machine.
        assert time.monotonic() - renewed < FENCE_LEASE / 4 * 0.9 - 3, \
            "the takeover came after the former owner's next renewal"

        ack = await ada.act("after-restart", {"type": "draw", "source": "stock"})
        assert ack["seq"] == 1
        health = await call_json(procs[0], "/api/health")
        assert health["cluster"]["fenced_writes"] >= 1, health  # the check was hit and held
        assert health["cluster"]["rooms"] == 0
        assert await _client_ids(procs[0].database_url, started["match_id"]) == ["after-restart"]
        await ada.close()


async def _renewed(lease: redis.asyncio.Redis, key: str) -> bool:
    """Whether the lease was renewed in the last second."""
    return bool(await lease.pttl(key) >= (FENCE_LEASE - 1) * 1000)


async def call_json(proc: ServerProcess, path: str) -> dict[str, Any]:
    async with http_client(proc.base_url) as http:
        return dict(await call(http, "GET", path))
