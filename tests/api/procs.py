"""Helpers for tests that run the real server as a process they may kill and start again.

- `ServerProcess`: `python -m app serve` on a fixed port and database; `start`, `kill` (SIGKILL,
  no clean shutdown), `stop`, and `cli` for the other commands on the same database.
- `fresh_database`: a throwaway SQLite file or PostgreSQL database per test.
- `Seat`: one scripted websocket client (PROTOCOL.md §5) that remembers every state and ack.
- `play_until_over`: a plain human strategy (draw, then discard) for seats facing bots.
- `ledger_report`: the chip ledger's invariants read straight from the database.
- `check_settlement`: a staked match's hand transfers are its results' payments at the stake.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect

from app.db.models import Account, Match, Room, Transfer
from app.db.session import make_engine, make_sessionmaker
from tests import pg
from tests.conftest import ROOMY_LIMITS
from tests.waits import STARTUP_DEADLINE, wait_until

REPO_ROOT = Path(__file__).resolve().parents[2]
RECV_TIMEOUT = 30.0
PACE = 0.06  # seconds between a scripted player's moves: under the 20 messages/s rate limit

FAST_TIMERS = {
    "RUMMY_DEV_STACKED_DECKS": "1",
    "RUMMY_BOT_DELAY_SECONDS": "0.01",
    "RUMMY_NEXT_HAND_SECONDS": "0.05",
    "RUMMY_CALL_GRACE_SECONDS": "0.05",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def fresh_database(backend: str, workdir: Path) -> Iterator[str]:
    """A database URL no other test uses: a new SQLite file, or a new PostgreSQL database
    (skipped when PostgreSQL is unreachable, unless RUMMY_REQUIRE_POSTGRES=1)."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / 'rummy.db'}"
        return
    url = pg.create_database("rummy_server")
    try:
        yield url
    finally:
        pg.drop_database(url)


class ServerProcess:
    """The server as a child process on one port and one database, restartable."""

    def __init__(self, workdir: Path, database_url: str, env: dict[str, str] | None = None,
                 port: int | None = None) -> None:
        self.workdir = workdir
        self.database_url = database_url
        self.port = port or free_port()
        self.env = {**os.environ, **ROOMY_LIMITS, **FAST_TIMERS,
                    "RUMMY_DATABASE_URL": database_url, **(env or {})}
        self.log = workdir / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"

    def start(self, **env: str) -> None:
        """Start (again) and wait until healthy; `env` overrides variables for this run."""
        assert self.process is None or self.process.poll() is not None, "already running"
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"\n===== start {self.starts} =====\n".encode())
            out.flush()
            self.process = subprocess.Popen(  # noqa: S603 - fixed argv, our own interpreter
                [sys.executable, "-m", "app", "serve", "--port", str(self.port)],
                cwd=REPO_ROOT, env={**self.env, **env}, stdout=out, stderr=subprocess.STDOUT)
        self._wait_until_healthy()

    def _wait_until_healthy(self) -> None:
        """Until the health check answers (or the process exits): a start on a busy machine
        may take a minute."""
        assert self.process is not None
        process = self.process

        def healthy() -> bool:
            if process.poll() is not None:
                pytest.fail(f"server exited with {process.returncode}:\n{self.log_text()}")
            try:
                return httpx.get(f"{self.base_url}/api/health", timeout=5,
                                 trust_env=False).is_success
            except httpx.TransportError:
                return False

        wait_until(healthy, f"server healthy at {self.base_url} (log: {self.log})",
                   timeout=STARTUP_DEADLINE)

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush, close or clean up anything."""
        assert self.process is not None and self.process.poll() is None, "not running"
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        assert self.process.returncode == -signal.SIGKILL

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def rss_bytes(self) -> int:
        """The running server's resident memory, from `VmRSS` in /proc/PID/status."""
        assert self.process is not None and self.process.poll() is None, "not running"
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(x for x in status.splitlines() if x.startswith("VmRSS:"))
        return int(line.split()[1]) * 1024  # reported in kB

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def cli(self, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        """Run `python -m app ARGS` on this server's database."""
        return subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
            [sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=self.env, input=stdin,
            capture_output=True, timeout=60, check=False)


@contextmanager
def server(workdir: Path, database_url: str, **kwargs: Any) -> Iterator[ServerProcess]:
    proc = ServerProcess(workdir, database_url, **kwargs)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


# --- HTTP -------------------------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def guest(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    """A new guest: `{"token", "player": {...}}`."""
    response = await http.post("/api/auth/guest", json={"name": name})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def balance(http: httpx.AsyncClient, token: str) -> int:
    response = await http.get("/api/me", headers=bearer(token))
    assert response.status_code == 200, response.text
    return int(response.json()["balance"])


async def post_ok(http: httpx.AsyncClient, path: str, token: str,
                  body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = await http.post(path, json=body, headers=bearer(token))
    assert response.status_code == 200, f"POST {path}: {response.status_code} {response.text}"
    return dict(response.json())


async def admin_token(proc: ServerProcess, http: httpx.AsyncClient) -> str:
    """Create an admin with the CLI and log in as it."""
    done = proc.cli("create-admin", "chief", "--password", "correct horse battery")
    assert done.returncode == 0, done.stderr.decode()
    response = await http.post("/api/auth/login", json={"username": "chief",
                                                         "password": "correct horse battery"})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


# --- websockets -------------------------------------------------------------------------------


class Seat:
    """One player's websocket to a room: sends actions, keeps the last state and every ack."""

    def __init__(self, name: str, token: str) -> None:
        self.name = name
        self.token = token
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] | None = None  # the last `state` message
        self.first: dict[str, Any] | None = None  # the first message after authenticating
        self.acks: dict[Any, dict[str, Any]] = {}
        self.sent: list[tuple[Any, dict[str, Any]]] = []  # acknowledged (client id, action)

    async def connect(self, url: str) -> dict[str, Any]:
        """Connect and authenticate; returns the state sent at once."""
        self.ws = await connect(url, open_timeout=RECV_TIMEOUT, close_timeout=2, max_size=2**22)
        await self.ws.send(orjson.dumps({"type": "auth", "token": self.token}).decode())
        self.first = await self.recv()
        assert self.first["type"] == "state", self.first
        return self.first

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        try:
            raw = await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT)
        except TimeoutError:
            pytest.fail(f"{self.name}: nothing received for {RECV_TIMEOUT} s; "
                        f"last state: {self.state}")
        message: dict[str, Any] = orjson.loads(raw)
        if message["type"] == "state":
            self.state = message
        return message

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None and self.state["view"] is not None
        return dict(self.state["view"])

    async def send(self, client_id: Any, action: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(orjson.dumps({"type": "action", "id": client_id,
                                         "action": action}).decode())

    async def reply(self, client_id: Any) -> dict[str, Any]:
        """Read until the ack or error for `client_id`, keeping states seen meanwhile."""
        while True:
            message = await self.recv()
            if message["type"] in ("ack", "error") and message.get("id") == client_id:
                return message
            assert message["type"] != "error", f"{self.name}: unexpected {message}"

    async def act(self, client_id: Any, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action that must be acknowledged; returns the ack."""
        await self.send(client_id, action)
        answer = await self.reply(client_id)
        assert answer["type"] == "ack", f"{self.name}: {action} refused: {answer}"
        self.acks[client_id] = answer
        self.sent.append((client_id, action))
        return answer

    async def until(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first state (the last one kept, or a later one) that passes `check`."""
        if self.state is not None and check(self.state):
            return self.state
        while True:
            message = await self.recv()
            if message["type"] == "state" and check(message):
                return message

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 3)
            self.ws = None


def _candidates(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What a plain human tries, in order: draw from the stock, else discard a card."""
    if "draw" in view["legal"]:
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
    if "discard" in view["legal"]:
        return [{"type": "discard", "card": card} for card in view["hand"]]
    return []


async def play_until_over(seat: Seat, prefix: str) -> dict[str, Any]:
    """Play this seat (draw, then discard) whenever it is to move, until the game is over;
    returns the final state. Every applied action is kept in `seat.sent`."""
    count = 0
    acted_at = -1
    while True:
        state = seat.state if seat.state is not None else await seat.recv()
        view = state["view"]
        if view is not None and view["game_over"]:
            return state
        mine = view is not None and view["turn"] == view["seat"] and state["seq"] != acted_at
        if not mine or not _candidates(view):
            await seat.recv()
            continue
        acted_at = state["seq"]
        for action in _candidates(view):
            count += 1
            client_id = f"{prefix}-{count}"
            await asyncio.sleep(PACE)
            await seat.send(client_id, action)
            answer = await seat.reply(client_id)
            if answer["type"] == "ack":
                seat.acks[client_id] = answer
                seat.sent.append((client_id, action))
                break
        else:
            pytest.fail(f"{seat.name}: no simple move was accepted in {view}")


# --- the ledger, read straight from the database ----------------------------------------------


def ledger_report(database_url: str) -> dict[str, Any]:
    """Every invariant of the chip ledger (docs/server.md), checked on the stored rows.

    Returns the accounts and transfers too, for test-specific checks.
    """

    async def read() -> dict[str, Any]:
        engine = make_engine(database_url)
        try:
            async with make_sessionmaker(engine)() as s:
                accounts = (await s.scalars(select(Account))).all()
                transfers = (await s.scalars(select(Transfer).order_by(Transfer.id))).all()
                rooms = (await s.scalars(select(Room))).all()
                matches = (await s.scalars(select(Match))).all()
                return {
                    "accounts": [{"id": a.id, "kind": a.kind, "player_id": a.player_id,
                                  "room_id": a.room_id, "seat": a.seat, "balance": a.balance,
                                  "minted": a.minted} for a in accounts],
                    "transfers": [{"id": t.id, "key": t.idempotency_key, "from": t.from_account,
                                   "to": t.to_account, "amount": t.amount, "reason": t.reason,
                                   "match_id": t.match_id, "hand_no": t.hand_no}
                                  for t in transfers],
                    "rooms": {r.id: {"status": r.status, "match_id": r.match_id} for r in rooms},
                    "matches": {m.id: {"status": m.status, "room_id": m.room_id,
                                       "totals": m.totals, "winner": m.winner}
                                for m in matches},
                }
        finally:
            await engine.dispose()

    return pg.run_sync(read)


def check_ledger(report: dict[str, Any]) -> None:
    """Assert the ledger's invariants on a `ledger_report`."""
    accounts = {a["id"]: a for a in report["accounts"]}
    banks = [a for a in accounts.values() if a["kind"] == "bank"]
    assert len(banks) == 1
    assert sum(a["balance"] for a in accounts.values()) == banks[0]["minted"]
    assert all(a["balance"] >= 0 for a in accounts.values()), "a negative balance"
    flows: Counter[int] = Counter()
    for t in report["transfers"]:
        assert t["amount"] > 0
        flows[t["to"]] += t["amount"]
        if t["from"] is not None:
            flows[t["from"]] -= t["amount"]
    for account_id, account in accounts.items():
        assert account["balance"] == flows[account_id], f"account {account} != its transfers"
    hands = Counter((t["match_id"], t["hand_no"], t["from"], t["to"])
                    for t in report["transfers"] if t["reason"] == "hand")
    assert all(n == 1 for n in hands.values()), f"a hand settled twice: {hands}"
    keys = Counter(t["key"] for t in report["transfers"])
    assert all(n == 1 for n in keys.values())
    finished_rooms = {m["room_id"] for m in report["matches"].values()
                      if m["status"] == "finished"}
    for account in accounts.values():
        if account["kind"] == "escrow" and account["room_id"] in finished_rooms:
            assert account["balance"] == 0, f"escrow left after the match: {account}"


def check_settlement(export: dict[str, Any], stake: int, buy_in: int) -> None:
    """The admin export's hand transfers are exactly each hand's payments (points, merged per
    payer and payee) times the stake, each capped by the payer's escrow at that moment
    (docs/server.md), in order; stacked deals never have a stake, so this is how the chips of
    fairly shuffled matches are checked."""
    escrow = [buy_in] * export["players"]
    expected = []
    for result in export["results"]:
        owed: Counter[tuple[int, int]] = Counter()
        for payer, payee, points in result["payments"]:
            owed[(payer, payee)] += points
        for (payer, payee), points in owed.items():
            amount = min(points * stake, escrow[payer])
            if amount > 0:
                escrow[payer] -= amount
                escrow[payee] += amount
                expected.append((result["hand"], payer, payee, amount))
    moved = [(t["hand"], t["from"]["seat"], t["to"]["seat"], t["amount"])
             for t in export["transfers"] if t["reason"] == "hand"]
    assert moved == expected
