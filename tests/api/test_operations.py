"""Operations over a real server (PROTOCOL.md §11, docs/operations.md): `/metrics` read with
prometheus-client's own parser moves by exactly what a scripted turn did, is refused to an
address outside RUMMY_METRICS_ALLOW, and `/api/ready` says 503 while the database is gone and
200 once it is back (`/api/health` answering throughout)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select

from app.api.health import allowed
from app.db.models import Transfer
from app.db.session import make_engine
from tests.api.client import WsClient, call, drawn_card, guest, http_client
from tests.api.procs import ServerProcess, fresh_database, server
from tests.pgcluster import private_cluster
from tests.waits import eventually

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

pytestmark = pytest.mark.postgres


async def scrape(http: httpx.AsyncClient) -> Samples:
    """Every sample of /metrics, parsed by the client library's own parser."""
    answer = await http.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(answer.text)
            for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


async def transfers(database_url: str) -> int:
    """Transfer rows committed, read straight from the database."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            return int(await connection.scalar(select(func.count()).select_from(Transfer)) or 0)
    finally:
        await engine.dispose()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("operations")
    with fresh_database("postgresql", workdir) as url, server(workdir, url) as proc:
        yield proc


async def test_a_scripted_turn_moves_the_metrics_by_exactly_what_it_did(
        hall: ServerProcess) -> None:
    async with http_client(hall.base_url) as http:
        host, other = await guest(http, "Host"), await guest(http, "Other")
        room = await call(http, "POST", "/api/rooms", host, {"game": "standard", "seats": 2})
        await call(http, "POST", f"/api/rooms/{room['id']}/join", other)
        seats = [await WsClient.join(hall.base_url, room["id"], p) for p in (host, other)]
        await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
        mover = next(s for s in seats if s.seat == 1)  # dealer 0: seat 1 plays first
        turn = await mover.wait_turn()
        ledger = await transfers(hall.database_url)
        before = await scrape(http)

        drew = await mover.ack({"type": "draw", "source": "stock"})
        again = await mover.act({"type": "draw", "source": "stock"})
        assert again["type"] == "error" and again["code"] == "already_drew", again
        state = await mover.wait_for(lambda m: m["type"] == "state" and m["seq"] >= drew["seq"])
        card = drawn_card(turn["view"]["hand"], state["view"]["hand"])
        await mover.ack({"type": "discard", "card": card})
        assert (await http.get("/api/me")).status_code == 401  # no token: not_authenticated
        await guest(http, "Newcomer")  # the starting grant: ledger transfers
        after = await scrape(http)
        for seat in seats:
            await seat.close()

    game = {"game": "standard"}
    assert moved(before, after, "rummy_actions_total", **game, result="applied") == 2
    assert moved(before, after, "rummy_actions_total", **game, result="rejected") == 1
    assert moved(before, after, "rummy_action_seconds_count") == 3
    assert moved(before, after, "rummy_action_seconds_sum") > 0
    assert moved(before, after, "rummy_action_seconds_bucket", le="+Inf") == 3
    assert moved(before, after, "rummy_errors_total", code="already_drew") == 1
    assert moved(before, after, "rummy_errors_total", code="not_authenticated") == 1
    assert moved(before, after, "rummy_log_batch_actions_sum") == 2  # the two applied actions
    assert moved(before, after, "rummy_log_commit_seconds_count") >= 1
    new_transfers = await transfers(hall.database_url) - ledger
    assert new_transfers >= 1
    assert moved(before, after, "rummy_ledger_transfers_total") == new_transfers
    assert value(after, "rummy_rooms", status="playing") == 1
    assert value(after, "rummy_rooms", status="waiting") == 0
    assert value(after, "rummy_sockets") == 2
    assert value(after, "rummy_ready") == 1
    assert value(after, "rummy_log_pending_actions") == 0
    assert value(after, "rummy_db_pool_connections", state="in_use") >= 0
    assert ("rummy_leases_held", frozenset()) not in after  # one process: no leases


async def test_computer_players_moves_are_counted(hall: ServerProcess) -> None:
    async with http_client(hall.base_url) as http:
        host = await guest(http, "Watcher")
        room = await call(http, "POST", "/api/rooms", host, {"game": "standard", "seats": 2})
        await call(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
        before = await scrape(http)
        seat = await WsClient.join(hall.base_url, room["id"], host)
        await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
        await seat.wait_turn()  # the computer player (seat 1) has played its turn
        after = await scrape(http)
        await seat.close()
    assert moved(before, after, "rummy_bot_decisions_total", level="sensible") >= 2
    assert moved(before, after, "rummy_bot_decision_seconds_count") >= 2
    # The computer's moves are the room's own, not a socket's actions.
    assert moved(before, after, "rummy_actions_total", game="standard", result="applied") == 0


async def test_health_and_readiness_answer(hall: ServerProcess) -> None:
    async with http_client(hall.base_url) as http:
        ready = await http.get("/api/ready")
        assert ready.status_code == 200 and ready.json() == {"status": "ready"}
        assert (await http.get("/api/health")).status_code == 200


@pytest.mark.parametrize(("host", "networks", "expected"), [
    ("127.0.0.1", ["127.0.0.1/32", "::1/128"], True),
    ("::1", ["127.0.0.1/32", "::1/128"], True),
    ("::ffff:127.0.0.1", ["127.0.0.1/32"], True),
    ("10.1.2.3", ["10.0.0.0/8"], True),
    ("10.1.2.3", ["127.0.0.1/32", "::1/128"], False),
    ("testclient", ["127.0.0.1/32"], False),
    ("", ["0.0.0.0/0"], False),
])
def test_the_allow_list(host: str, networks: list[str], expected: bool) -> None:
    assert allowed(host, networks) is expected


def test_metrics_are_refused_outside_the_allow_list(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}"
    with server(tmp_path, url, env={"RUMMY_METRICS_ALLOW": "10.20.30.0/24"}) as proc:
        answer = httpx.get(f"{proc.base_url}/metrics", timeout=30, trust_env=False)
        assert answer.status_code == 404
        assert answer.json()["detail"]["code"] == "not_found"
        assert "rummy_" not in answer.text
        assert httpx.get(f"{proc.base_url}/api/ready", timeout=30,
                         trust_env=False).status_code == 200


async def test_readiness_follows_the_database(tmp_path: Path) -> None:
    with private_cluster() as cluster:
        proc = ServerProcess(tmp_path, cluster.create_database("rummy"))
        try:
            proc.start()
            async with http_client(proc.base_url) as http:
                await _readiness_through_an_outage(http, cluster)
        finally:
            proc.stop()


async def _readiness_through_an_outage(http: httpx.AsyncClient, cluster: Any) -> None:
    assert (await http.get("/api/ready")).status_code == 200
    player = await guest(http, "Steady")
    cluster.stop("immediate")

    async def not_ready() -> dict[str, Any] | None:
        answer = await http.get("/api/ready")
        return answer.json()["detail"] if answer.status_code == 503 else None

    detail = await eventually(not_ready, "/api/ready says 503")
    assert detail["code"] == "not_ready"
    assert any("database unreachable" in reason for reason in detail["reasons"])
    assert (await http.get("/api/health")).status_code == 200  # alive, not ready
    assert value(await scrape(http), "rummy_ready") == 0

    cluster.start()

    async def ready() -> bool:
        return (await http.get("/api/ready")).status_code == 200

    await eventually(ready, "/api/ready says 200 again")
    assert value(await scrape(http), "rummy_ready") == 1
    assert (await http.get("/api/me", headers=player.headers)).status_code == 200
