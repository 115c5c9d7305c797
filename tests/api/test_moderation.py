"""Moderation over a real server on PostgreSQL (PROTOCOL.md §9): blocks keep players apart at
tables and hide chat; reports reach the admins' queue and are decided; a chat mute and a
suspension take effect at once and can be lifted early; ledger corrections are compensating
transfers that never take a wallet below zero; the audit lists every admin action.
(Non-admins are refused every admin call: tests/api/test_admin_access.py walks every route.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.client import Player, WsClient, balance, call, guest, http_client, refusal
from tests.api.halls import Hall, hall
from tests.api.procs import fresh_database, ledger_report
from tests.api.procs import server as server_process

pytestmark = pytest.mark.postgres

ROOM = {"game": "standard", "seats": 3}
QUICK = {"game": "standard", "seats": 3, "stake": 0, "turn_seconds": 60}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("moderation"), "postgresql") as running:
        yield running


def _admin(server: Hall) -> Player:
    return Player("", "admin", server.admin_token)


async def _room(http: httpx.AsyncClient, host: Player) -> dict[str, Any]:
    made: dict[str, Any] = await call(http, "POST", "/api/rooms", host, ROOM)
    return made


async def _join(http: httpx.AsyncClient, room: dict[str, Any], player: Player,
                status: int = 200) -> Any:
    return await call(http, "POST", f"/api/rooms/{room['id']}/join", player,
                      {"invite": room.get("invite_code")}, status)


async def _audit(http: httpx.AsyncClient, server: Hall) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = (await call(http, "GET", "/api/admin/audit?limit=500",
                                                _admin(server)))["actions"]
    return actions


async def test_a_block_refuses_the_seat_both_ways(http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await guest(http, name) for name in ("Ann", "Bob", "Cat")]
    assert await call(http, "POST", f"/api/players/{bob.id}/block", ann) == {
        "blocked": [bob.id]}
    assert await call(http, "POST", f"/api/players/{bob.id}/block", ann) == {
        "blocked": [bob.id]}  # a repeat changes nothing
    assert await call(http, "GET", "/api/me/blocks", ann) == {"blocked": [bob.id]}
    assert await call(http, "GET", "/api/me/blocks", bob) == {"blocked": []}
    assert await refusal(http, "POST", f"/api/players/{ann.id}/block", ann, None, 400) \
        == "bad_field"
    assert await refusal(http, "POST", "/api/players/nobody/block", ann, None, 404) \
        == "not_found"

    anns = await _room(http, ann)
    assert (await _join(http, anns, bob, 403))["detail"]["code"] == "blocked"
    await _join(http, anns, cat)  # others still sit with either
    bobs = await _room(http, bob)
    assert (await _join(http, bobs, ann, 403))["detail"]["code"] == "blocked"  # the other way

    # Quick seat passes over a room where a block stands, rather than refusing.
    first = await call(http, "POST", "/api/quickseat", ann, QUICK, 201)
    second = await call(http, "POST", "/api/quickseat", bob, QUICK, 201)
    assert second["room"]["id"] != first["room"]["id"]
    third = await call(http, "POST", "/api/quickseat", cat, QUICK)  # the fullest: either
    assert third["room"]["id"] in (first["room"]["id"], second["room"]["id"])

    assert await call(http, "DELETE", f"/api/players/{bob.id}/block", ann) == {"blocked": []}
    await _join(http, anns, bob)


async def test_two_joins_at_once_across_a_block_seat_only_one(http: httpx.AsyncClient) -> None:
    """The block is checked where the seat is taken (in the room, in the seat's own
    transaction), so two players a block stands between who join at once are never both
    seated: one is, the other is refused 403 ``blocked``."""
    ann, bob, cat = [await guest(http, name) for name in ("Ann", "Bob", "Cat")]
    await call(http, "POST", f"/api/players/{bob.id}/block", ann)
    for _ in range(6):
        room = await call(http, "POST", "/api/rooms", cat, ROOM)
        answers = await asyncio.gather(*(
            http.post(f"/api/rooms/{room['id']}/join", headers=p.headers) for p in (ann, bob)))
        assert sorted(a.status_code for a in answers) == [200, 403], [a.text for a in answers]
        refused = next(a for a in answers if a.status_code == 403)
        assert refused.json()["detail"]["code"] == "blocked"
        seated = await call(http, "GET", f"/api/rooms/{room['id']}", cat)
        assert seated["taken"] == 2
        await call(http, "POST", f"/api/rooms/{room['id']}/leave", cat)  # closes: 5 at most


async def test_a_blocked_players_chat_is_not_delivered(server: Hall,
                                                       http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await guest(http, name) for name in ("Ann", "Bob", "Cat")]
    room = await _room(http, ann)
    for player in (bob, cat):
        await _join(http, room, player)
    await call(http, "POST", f"/api/players/{bob.id}/block", ann)  # seated already: stays
    sockets = {p.id: await WsClient.join(server.base_url, room["id"], p)
               for p in (ann, bob, cat)}
    try:
        await sockets[bob.id].send({"type": "chat", "text": "from bob"})
        await sockets[cat.id].wait_for(lambda m: m.get("text") == "from bob")
        await sockets[ann.id].send({"type": "chat", "text": "from ann"})
        for player in (ann, bob, cat):  # lines reach everyone in order: bob's came first
            await sockets[player.id].wait_for(lambda m: m.get("text") == "from ann")
        assert not [m for m in sockets[ann.id].messages if m.get("text") == "from bob"]

        again = await WsClient.join(server.base_url, room["id"], ann)  # the recent chat too
        texts = [line["text"] for line in again.messages[0]["chat"]]
        assert "from ann" in texts and "from bob" not in texts
        await again.close()
    finally:
        for client in sockets.values():
            await client.close()


async def _chat_shown(base_url: str, room_id: str, player: Player) -> list[str]:
    """The chat lines ``player``'s first state in the room shows."""
    client = await WsClient.join(base_url, room_id, player)
    try:
        return [line["text"] for line in client.messages[0]["chat"]]
    finally:
        await client.close()


async def test_a_blocked_players_chat_stays_hidden_after_a_restart(tmp_path: Path) -> None:
    """The recent chat a room rebuilt from the database gives (a match resumed from its log, a
    room still waiting) keeps each line's speaker, so the blocker is not shown it."""
    with fresh_database("postgresql", tmp_path) as url, server_process(tmp_path, url) as proc:
        async with http_client(proc.base_url) as http:
            ann, bob = await guest(http, "Ann"), await guest(http, "Bob")
            playing, waiting = await _room(http, ann), await _room(http, ann)
            for room in (playing, waiting):
                await _join(http, room, bob)
            await call(http, "POST", f"/api/rooms/{playing['id']}/bots", ann, {"count": 1})
            await call(http, "POST", f"/api/rooms/{playing['id']}/start", ann)
            await call(http, "POST", f"/api/players/{bob.id}/block", ann)
            for room in (playing, waiting):
                sockets = [await WsClient.join(proc.base_url, room["id"], p) for p in (ann, bob)]
                await sockets[1].send({"type": "chat", "text": "from bob"})
                await sockets[1].wait_for(lambda m: m.get("text") == "from bob")
                await sockets[0].send({"type": "chat", "text": "from ann"})
                await sockets[1].wait_for(lambda m: m.get("text") == "from ann")
                for client in sockets:
                    await client.close()
                assert await _chat_shown(proc.base_url, room["id"], ann) == ["from ann"]
        proc.kill()
        proc.start()
        for room in (playing, waiting):
            assert await _chat_shown(proc.base_url, room["id"], ann) == ["from ann"]
            assert await _chat_shown(proc.base_url, room["id"], bob) == ["from bob", "from ann"]


async def test_a_report_reaches_the_queue_and_is_decided(server: Hall,
                                                         http: httpx.AsyncClient) -> None:
    ann, bob = await guest(http, "Ann"), await guest(http, "Bob")
    body = {"player": bob.id, "reason": "abuse", "text": "rude in chat"}
    made = await call(http, "POST", "/api/reports", ann, body, 201)
    later = await call(http, "POST", "/api/reports", ann,
                       {**body, "reason": "collusion", "match": "m1", "text": "x" * 1000}, 201)
    await call(http, "POST", "/api/reports", ann, {**body, "reason": "spite"}, 422)
    await call(http, "POST", "/api/reports", ann, {**body, "text": "x" * 1001}, 422)
    await call(http, "POST", "/api/reports", ann, {**body, "player": "nobody"}, 404)

    queue = (await call(http, "GET", "/api/admin/reports", _admin(server)))["reports"]
    ids = [r["id"] for r in queue]
    assert ids.index(later["id"]) < ids.index(made["id"])  # newest first
    mine = next(r for r in queue if r["id"] == made["id"])
    assert (mine["reporter"], mine["player"], mine["reason"], mine["status"], mine["match"]) \
        == (ann.id, bob.id, "abuse", "open", None)

    decided = await call(http, "POST", f"/api/admin/reports/{made['id']}", _admin(server),
                         {"status": "dismissed", "note": "banter"})
    assert (decided["status"], decided["note"]) == ("dismissed", "banter")
    assert decided["decided_by"] and decided["decided_at"]
    await call(http, "POST", f"/api/admin/reports/{made['id']}", _admin(server),
               {"status": "open", "note": "x"}, 422)
    await call(http, "POST", "/api/admin/reports/nothing", _admin(server),
               {"status": "actioned", "note": "x"}, 404)
    audit = await _audit(http, server)
    assert any((a["action"], a["player"], a["subject"], a["reason"])
               == ("report_dismissed", bob.id, made["id"], "banter") for a in audit)


async def test_a_self_report_is_refused(http: httpx.AsyncClient) -> None:
    ann = await guest(http, "Ann")
    body = {"player": ann.id, "reason": "other", "text": "me"}
    assert await refusal(http, "POST", "/api/reports", ann, body, 400) == "cannot_report_self"


async def test_a_repeat_of_an_open_report_is_folded_into_it(server: Hall,
                                                            http: httpx.AsyncClient) -> None:
    """The same reporter, player and match (or none) while the report is open: 200 and the
    open report, unchanged; another match, another reporter or a decided report: a new one."""
    ann, bob, cat = [await guest(http, name) for name in ("Ann", "Bob", "Cat")]
    body = {"player": bob.id, "reason": "abuse", "text": "rude"}
    first = await call(http, "POST", "/api/reports", ann, body, 201)
    again = await call(http, "POST", "/api/reports", ann,
                       {**body, "reason": "cheating", "text": "and more"}, 200)
    assert again == first
    about_match = await call(http, "POST", "/api/reports", ann, {**body, "match": "m1"}, 201)
    assert await call(http, "POST", "/api/reports", ann, {**body, "match": "m1"}) == about_match
    assert about_match != first
    assert await call(http, "POST", "/api/reports", cat, body, 201) != first

    queue = (await call(http, "GET", "/api/admin/reports?limit=500", _admin(server)))["reports"]
    anns = [r for r in queue if r["reporter"] == ann.id]
    assert sorted(r["id"] for r in anns) == sorted([first["id"], about_match["id"]])
    kept = next(r for r in anns if r["id"] == first["id"])
    assert (kept["reason"], kept["text"]) == ("abuse", "rude")

    await call(http, "POST", f"/api/admin/reports/{first['id']}", _admin(server),
               {"status": "dismissed", "note": "banter"})
    assert await call(http, "POST", "/api/reports", ann, body, 201) != first


async def test_reports_are_limited_per_player_per_hour(http: httpx.AsyncClient) -> None:
    """RUMMY_REPORTS_PER_PLAYER_PER_HOUR (10): the 11th new report within the hour is 429
    ``too_many_reports`` with Retry-After; a repeat of an open one still answers it, and
    another player's reports are their own."""
    ann, bob, cat = [await guest(http, name) for name in ("Ann", "Bob", "Cat")]
    body = {"player": bob.id, "reason": "abuse", "text": "x" * 1000}
    made = [await call(http, "POST", "/api/reports", ann, {**body, "match": f"m{n}"}, 201)
            for n in range(10)]
    over = await http.post("/api/reports", json={**body, "match": "m10"}, headers=ann.headers)
    assert over.status_code == 429, over.text
    detail = over.json()["detail"]
    assert detail["code"] == "too_many_reports"
    assert 3500 < detail["retry_after"] <= 3600
    assert over.headers["Retry-After"] == str(detail["retry_after"])
    assert await call(http, "POST", "/api/reports", ann, {**body, "match": "m3"}) == made[3]
    await call(http, "POST", "/api/reports", cat, body, 201)


async def test_a_burst_of_reports_files_at_most_the_limit(http: httpx.AsyncClient) -> None:
    """30 reports sent at once by one player (each about another match): 10 filed, 20
    refused; 30 repeats at once of one report: one filed, the rest answer it."""
    ann, bob, cat = [await guest(http, name) for name in ("Ann", "Bob", "Cat")]
    body = {"player": bob.id, "reason": "abuse", "text": "spam"}
    answers = await asyncio.gather(*(
        http.post("/api/reports", json={**body, "match": f"b{n}"}, headers=ann.headers)
        for n in range(30)))
    assert sorted(a.status_code for a in answers) == [201] * 10 + [429] * 20, \
        [a.text for a in answers]

    repeats = await asyncio.gather(*(
        http.post("/api/reports", json=body, headers=cat.headers) for _ in range(30)))
    assert sorted(a.status_code for a in repeats) == [200] * 29 + [201]
    assert len({a.json()["id"] for a in repeats}) == 1


async def test_a_chat_mute_refuses_chat_until_lifted(server: Hall,
                                                     http: httpx.AsyncClient) -> None:
    ann, bob = await guest(http, "Ann"), await guest(http, "Bob")
    room = await _room(http, ann)
    await _join(http, room, bob)
    muted = await call(http, "POST", f"/api/admin/players/{bob.id}/sanctions", _admin(server),
                       {"kind": "chat_mute", "hours": 2, "reason": "spam"}, 201)
    assert (muted["kind"], muted["player"], muted["lifted_at"]) == ("chat_mute", bob.id, None)
    sockets = [await WsClient.join(server.base_url, room["id"], p) for p in (ann, bob)]
    try:
        refused = await sockets[1].refused({"type": "chat", "text": "buy chips here"})
        assert refused["code"] == "chat_muted"
        await call(http, "GET", "/api/me", bob)  # a mute is not a suspension

        lifted = await call(http, "DELETE", f"/api/admin/sanctions/{muted['id']}",
                            _admin(server))
        assert lifted["lifted_at"]
        await sockets[1].send({"type": "chat", "text": "sorry"})
        await sockets[0].wait_for(lambda m: m.get("text") == "sorry")
        assert not [m for m in sockets[0].messages if m.get("text") == "buy chips here"]
    finally:
        for client in sockets:
            await client.close()
    actions = {(a["action"], a["subject"]) for a in await _audit(http, server)}
    assert {("chat_mute", muted["id"]), ("lift_chat_mute", muted["id"])} <= actions


async def test_a_suspension_closes_sockets_and_refuses_the_token_at_once(
        server: Hall, http: httpx.AsyncClient) -> None:
    ann, bob = await guest(http, "Ann"), await guest(http, "Bob")
    room = await _room(http, ann)
    await _join(http, room, bob)
    socket = await WsClient.join(server.base_url, room["id"], bob)
    made = await call(http, "POST", f"/api/admin/players/{bob.id}/sanctions", _admin(server),
                      {"kind": "suspension", "hours": 24, "reason": "chip dumping"}, 201)
    error = await socket.wait_for(lambda m: m["type"] == "error")
    assert error["code"] == "suspended"
    await socket.wait_closed()
    assert await refusal(http, "GET", "/api/me", bob, None, 403) == "suspended"
    assert await refusal(http, "POST", "/api/quickseat", bob, QUICK, 403) == "suspended"
    late = await WsClient.open(server.base_url, room["id"])
    await late.send({"type": "auth", "token": bob.token})
    assert (await late.wait_for(lambda m: m["type"] == "error"))["code"] == "suspended"
    await late.wait_closed()
    await call(http, "GET", "/api/me", ann)  # others are untouched

    await call(http, "DELETE", f"/api/admin/sanctions/{made['id']}", _admin(server))
    await call(http, "GET", "/api/me", bob)  # lifted early: the same token works again
    actions = {(a["action"], a["player"]) for a in await _audit(http, server)}
    assert {("suspension", bob.id), ("lift_suspension", bob.id)} <= actions


async def test_an_admin_cannot_sanction_themselves(server: Hall,
                                                   http: httpx.AsyncClient) -> None:
    me = await call(http, "GET", "/api/me", _admin(server))
    assert await refusal(http, "POST", f"/api/admin/players/{me['id']}/sanctions",
                         _admin(server), {"kind": "suspension", "hours": 1, "reason": "oops"},
                         403) == "forbidden"
    await call(http, "GET", "/api/me", _admin(server))
    await call(http, "POST", "/api/admin/players/nobody/sanctions", _admin(server),
               {"kind": "suspension", "hours": 1, "reason": "x"}, 404)
    await call(http, "DELETE", "/api/admin/sanctions/nothing", _admin(server), None, 404)
    for bad in ({"kind": "ban", "hours": 1, "reason": "x"},
                {"kind": "suspension", "hours": 0, "reason": "x"}):
        await call(http, "POST", f"/api/admin/players/{me['id']}/sanctions", _admin(server),
                   bad, 422)


async def test_the_sanctions_in_force_are_listed_until_lifted(server: Hall,
                                                             http: httpx.AsyncClient) -> None:
    """``GET /api/admin/sanctions`` (an extension of §9): the sanctions in force with their
    ends, names and reasons; ``active=false`` every one, lifted ones with ``lifted_at``.
    (A sanction over by itself is not in force: tests/db/test_moderation.py.)"""
    ann, bob = await guest(http, "Ann"), await guest(http, "Bob")
    admin = _admin(server)
    me = await call(http, "GET", "/api/me", admin)
    give = f"/api/admin/players/{bob.id}/sanctions"
    mute = await call(http, "POST", give, admin,
                      {"kind": "chat_mute", "hours": 2, "reason": "spam"}, 201)
    suspension = await call(http, "POST", give, admin,
                            {"kind": "suspension", "hours": 24, "reason": "dumping"}, 201)
    other = await call(http, "POST", f"/api/admin/players/{ann.id}/sanctions", admin,
                       {"kind": "chat_mute", "hours": 1, "reason": "shouting"}, 201)

    async def listed(query: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = (await call(
            http, "GET", f"/api/admin/sanctions?{query}", admin))["sanctions"]
        return found

    active = await listed(f"player={bob.id}")
    assert [s["id"] for s in active] == [suspension["id"], mute["id"]]  # newest first
    assert active[0] == {**suspension, "player_name": "Bob", "admin_name": me["name"],
                         "lifted_by": None}
    assert active[1]["ends_at"] == mute["ends_at"] and active[1]["reason"] == "spam"
    everyone = [s["id"] for s in await listed("limit=500")]
    assert {mute["id"], suspension["id"], other["id"]} <= set(everyone)
    assert [s["id"] for s in await listed(f"player={bob.id}&limit=1&offset=1")] \
        == [mute["id"]]

    await call(http, "DELETE", f"/api/admin/sanctions/{suspension['id']}", admin)
    assert [s["id"] for s in await listed(f"player={bob.id}")] == [mute["id"]]
    assert [s["id"] for s in await listed(f"player={bob.id}&active=true")] == [mute["id"]]
    both = await listed(f"player={bob.id}&active=false")
    assert [s["id"] for s in both] == [suspension["id"], mute["id"]]
    assert both[0]["lifted_at"] and both[0]["lifted_by"] == me["id"]
    assert both[1]["lifted_at"] is None
    await call(http, "GET", "/api/me", bob)  # the suspension is lifted indeed
    assert await listed("player=nobody&active=false") == []
    for bad in ("active=maybe", "limit=0", "limit=501", "offset=-1"):
        await call(http, "GET", f"/api/admin/sanctions?{bad}", admin, None, 422)
    assert await refusal(http, "GET", "/api/admin/sanctions", bob, None, 403) == "forbidden"
    await call(http, "DELETE", f"/api/admin/sanctions/{mute['id']}", admin)


async def test_a_correction_is_a_ledger_transfer_never_below_zero(
        server: Hall, http: httpx.AsyncClient) -> None:
    bob = await guest(http, "Bob")
    start = await balance(http, bob)
    path = f"/api/admin/players/{bob.id}/chips"
    paid = await call(http, "POST", path, _admin(server), {"amount": 250, "reason": "refund"})
    assert paid["balance"] == start + 250 == await balance(http, bob)
    before = ledger_report(server.database_url)
    assert await refusal(http, "POST", path, _admin(server),
                         {"amount": -(start + 251), "reason": "too much"}, 409) \
        == "insufficient_chips"
    assert ledger_report(server.database_url) == before  # nothing changed
    assert await refusal(http, "POST", path, _admin(server), {"amount": 0, "reason": "x"},
                         400) == "bad_field"
    taken = await call(http, "POST", path, _admin(server), {"amount": -100, "reason": "bug"})
    assert taken["balance"] == start + 150 == await balance(http, bob)

    ledger = await call(http, "GET", f"/api/admin/players/{bob.id}/ledger", _admin(server))
    corrections = [t for t in ledger["transfers"] if t["reason"] == "correction"]
    assert sorted(t["amount"] for t in corrections) == [100, 250]
    audit = [a for a in await _audit(http, server) if a["player"] == bob.id]
    assert [(a["action"], a["reason"]) for a in audit] == [("chips", "-100: bug"),
                                                            ("chips", "+250: refund")]
    assert all(a["admin_name"] for a in audit)
