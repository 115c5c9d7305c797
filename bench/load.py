"""The live server under load (issue 9): throughput, latency, idle sockets and restarts.

``python -m bench.load MODE [--rooms N] [--players N] [--seconds S] [--rate R] [--sockets N]``
starts ``python -m app serve`` on PostgreSQL (a database of its own, created for the run and
dropped after it; ``--postgres`` names the server, default postgres@127.0.0.1:5432) with a short
pause between hands, raised guest and socket limits, and prints a table per mode:

- ``closed`` (20 rooms of 4, 20 s): in each room the player to act draws from the stock, then
  discards the card drawn, each action as soon as the last one is acknowledged. Actions/s and
  p50/p99 latency (send to ack) of the server, then of `bench.baseline` (a bare websocket
  server with the same message pattern on the same uvicorn) driven by the same client, and the
  ratio of the two. With ``--metrics-cost N``, the server is run 2N times instead, alternately
  with its Prometheus metrics on and off (``RUMMY_METRICS_ENABLED``), and the ratio of the
  actions/s of all "on" runs to all "off" runs is printed (issue 21: at most 3 % fewer).
- ``open`` (500 rooms of 4 at 0.5 actions/s per room, 30 s): the same play at fixed intended
  times; latency counts from the intended time. p50/p99/max and the rate achieved.
- ``idle`` (10,000 sockets): authenticated sockets spread over guest accounts (``--per-account``
  each, within the account cap) seated in started rooms; the server's RSS growth per socket.
- ``restart`` (500 rooms): rooms of a guest and three computer players who have played their
  first turns (the guest is to play), then SIGKILL and a new start: the time until the server
  answers and until, with each room's guest connected again, the lobby lists every room as
  playing (a table nobody is at is not listed: docs/server.md; and any restore figure
  ``/api/health`` gives), next to the time an empty server takes to start on the same database.

- ``--processes N`` (with ``closed``; Redis at ``--redis``): the closed loop on one process
  without Redis (the default), on one with Redis, and then on N processes sharing PostgreSQL and
  Redis (docs/scaling.md), each room made at one of them in turn, its players' sockets on that
  process (local) and then on the next one (each action relayed to the owner and its reply back
  through Redis). Actions/s and p50/p99 of each.

The machine's load average is printed with each run: other work on it shows in the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import httpx
from sqlalchemy.engine import URL, make_url

from .loadclient import (
    MatchOver,
    Stats,
    Table,
    baseline_room,
    gather_limited,
    play,
    server_room,
)

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"
STARTUP_TIMEOUT = 120.0
SETUP_CONCURRENCY = 8  # rooms set up at once
CONNECT_CONCURRENCY = 64  # sockets opening at once
T = TypeVar("T")
Plan = tuple[str, list[str]]  # a room's id and its players' tokens

# The server's settings for every mode: short pauses, no account or socket limit in the way.
SERVER_SETTINGS = {
    "RUMMY_NEXT_HAND_SECONDS": "0.05",
    "RUMMY_BOT_DELAY_SECONDS": "0.01",
    "RUMMY_CALL_GRACE_SECONDS": "0.05",
    "RUMMY_GUESTS_PER_ADDRESS_PER_HOUR": "100000",
    # The room runtime's per-socket message rate (ignored by servers without the setting).
    "RUMMY_SOCKET_MESSAGES_PER_SECOND": "1000",
    "RUMMY_SOCKET_BURST": "1000",
}


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on uvloop where it is installed (as uvicorn does), else asyncio's loop."""
    try:
        import uvloop
        factory = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Process:
    """A server process (the game server or the baseline) on a port of its own."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.argv, self.env, self.log = argv, env, log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def ws(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"

    @property
    def pid(self) -> int:
        assert self.process is not None  # noqa: S101 - started first
        return self.process.pid

    def start(self) -> float:
        """Start and wait for ``/api/health``; the seconds that took."""
        began = time.perf_counter()
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(  # noqa: S603 - our interpreter, fixed argv
                [sys.executable, *self.argv, "--port", str(self.port)], cwd=ROOT,
                env=self.env, stdout=out, stderr=subprocess.STDOUT)
        while time.perf_counter() - began < STARTUP_TIMEOUT:
            if self.process.poll() is not None:
                raise SystemExit(f"{' '.join(self.argv)} exited with {self.process.returncode}:"
                                 f"\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=5, trust_env=False).is_success:
                    return time.perf_counter() - began
            except httpx.TransportError:
                time.sleep(0.02)
        raise SystemExit(f"{' '.join(self.argv)} not healthy in {STARTUP_TIMEOUT} s:\n"
                         f"{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: nothing is flushed or closed."""
        os.kill(self.pid, signal.SIGKILL)
        assert self.process is not None  # noqa: S101
        self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def rss_kib(self) -> int:
        """Resident memory now (VmRSS), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise SystemExit("no VmRSS in /proc: the idle mode needs Linux")

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@contextmanager
def running(argv: list[str], env: dict[str, str], log: Path) -> Iterator[Process]:
    process = Process(argv, env, log)
    try:
        process.start()
        yield process
    finally:
        process.stop()


async def _admin(url: URL, statement: str) -> None:
    connection = await asyncpg.connect(host=url.host or "127.0.0.1", port=url.port or 5432,
                                       user=url.username, password=url.password,
                                       database=url.database or "postgres", timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@contextmanager
def database(postgres: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for this run (dropped afterwards); its URL."""
    url = make_url(postgres)
    name = f"rummy_bench_{secrets.token_hex(6)}"
    run(_admin(url, f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(drivername="postgresql+asyncpg", database=name).render_as_string(
            hide_password=False)
    finally:
        run(_admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def server_env(database_url: str, per_account: int = 5) -> dict[str, str]:
    """The environment without the caller's RUMMY_ settings, plus the bench's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUMMY_")}
    return {**env, **SERVER_SETTINGS, "RUMMY_DATABASE_URL": database_url,
            "RUMMY_MAX_SOCKETS_PER_PLAYER": str(per_account)}


def raise_open_files() -> None:
    """Allow as many open files as the hard limit; the servers started later inherit it."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def server_plans(process: Process, rooms: int, players: int, bots: int = 0) -> list[Plan]:
    async with httpx.AsyncClient(base_url=process.base, trust_env=False, timeout=60) as http:
        return await gather_limited([server_room(http, players, bots) for _ in range(rooms)],
                                    SETUP_CONCURRENCY)


async def seat_tables(process: Process, plans: list[Plan]) -> list[Table]:
    """A table per room, every player's socket connected and authenticated."""
    async def seat(plan: Plan) -> Table:
        table = Table()
        for token in plan[1]:
            await table.join(process.ws(plan[0]), token)
        return table

    return await gather_limited([seat(plan) for plan in plans],
                                max(1, CONNECT_CONCURRENCY // len(plans[0][1])))


async def drive(process: Process, plans: list[Plan] | None, args: argparse.Namespace,
                rate: float | None) -> tuple[Stats, int]:
    """Play every room (set up on the server when `plans` is None) for the measured window."""
    if plans is None:
        plans = await server_plans(process, args.rooms, args.players)
    return await measure(await seat_tables(process, plans), args, rate)


async def measure(tables: list[Table], args: argparse.Namespace,
                  rate: float | None) -> tuple[Stats, int]:
    """Play the seated tables through the warm-up and the measured window, then close them:
    the window's stats (with the average length of the messages received), and how many
    actions the rate limit refused."""
    # The client's own collector stays out of the measured window: a young collection walks
    # every table's kept view (a pause of 100 ms and more with 8,000 sockets), which would
    # count as the server's latency. What it allocates in a run's seconds is freed after.
    gc.collect()
    gc.disable()
    try:
        begin = time.perf_counter()
        start = begin + args.warmup
        stats = Stats(until=start + args.seconds)
        await asyncio.gather(*(play(t, stats, begin, start, stats.until, rate) for t in tables))
        await asyncio.gather(*(t.close() for t in tables))
    finally:
        gc.enable()
    stats.message_length = sum(t.received for t in tables) / max(
        1, sum(t.messages for t in tables))
    return stats, sum(t.rate_limited for t in tables)


def ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def per_s(value: float) -> str:
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def refusals(stats: Stats, rate_limited: int) -> str:
    said = [f"{code} {n}" for code, n in sorted(stats.errors.items())]
    if rate_limited:
        said.append(f"rate-limited (sent again) {rate_limited}")
    return ", ".join(said) or "none"


def closed(args: argparse.Namespace, url: str, workdir: Path) -> None:
    print(f"closed loop: {args.rooms} rooms x {args.players} players, each action as soon as "
          f"the last is acknowledged, {args.seconds:g} s after {args.warmup:g} s warm-up")
    rows = {}
    servers = {"server": {}} if not args.metrics_cost else {
        f"server, metrics {'on' if on else 'off'} ({n + 1})": {"RUMMY_METRICS_ENABLED": str(on)}
        for n in range(args.metrics_cost) for on in (1, 0)}
    for name, env in servers.items():
        log = workdir / f"server-{len(rows)}.log"
        with running(["-m", "app", "serve"], {**server_env(url), **env}, log) as server:
            rows[name] = run(drive(server, None, args, None))
    baseline = ["-m", "bench.baseline", "--players", str(args.players)]
    with running(baseline, server_env(url), workdir / "baseline.log") as bare:
        plans = [baseline_room(i, args.players) for i in range(args.rooms)]
        rows["baseline"] = run(drive(bare, plans, args, None))
    print("| target | actions/s | p50 ms | p99 ms | message length | refused |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, (stats, limited) in rows.items():
        print(f"| {name} | {per_s(stats.in_window / args.seconds)} | {ms(stats.percentile(50))} "
              f"| {ms(stats.percentile(99))} | {stats.message_length:.0f} "
              f"| {refusals(stats, limited)} |")
    bare_rate = rows["baseline"][0].in_window
    server_rate = max(stats.in_window for name, (stats, _) in rows.items() if name in servers)
    print(f"server/baseline: {100 * server_rate / max(bare_rate, 1):.1f} % (target >= 50 %)")
    if args.metrics_cost:
        on, off = (sum(stats.in_window for name, (stats, _) in rows.items()
                       if name.startswith(f"server, metrics {state}")) for state in ("on", "off"))
        print(f"metrics on/off: {100 * on / max(off, 1):.1f} % of the actions/s "
              "(target >= 97 %)")


async def drive_many(processes: list[Process], args: argparse.Namespace,
                     relayed: bool) -> tuple[Stats, int]:
    """The closed loop over rooms made at each process in turn; the players' sockets on the
    room's process, or (``relayed``) on the next one."""
    plans: list[list[Plan]] = [[] for _ in processes]
    for i, process in enumerate(processes):
        share = args.rooms // len(processes) + (i < args.rooms % len(processes))
        plans[i] = await server_plans(process, share, args.players)
    tables: list[Table] = []
    for i, mine in enumerate(plans):
        if mine:
            tables += await seat_tables(processes[(i + relayed) % len(processes)], mine)
    return await measure(tables, args, None)


def processes_mode(args: argparse.Namespace, url: str, workdir: Path) -> None:
    n = args.processes
    print(f"closed loop on 1 and on {n} processes (PostgreSQL and Redis): {args.rooms} rooms x "
          f"{args.players} players, {args.seconds:g} s after {args.warmup:g} s warm-up")
    env = {**server_env(url), "RUMMY_REDIS_URL": args.redis,
           "RUMMY_REDIS_PREFIX": f"bench-{secrets.token_hex(4)}"}
    rows = {}
    with running(["-m", "app", "serve"], server_env(url), workdir / "alone.log") as alone:
        rows["1 process without Redis"] = run(drive_many([alone], args, relayed=False))
    with running(["-m", "app", "serve"], env, workdir / "one.log") as one:
        rows["1 process"] = run(drive_many([one], args, relayed=False))
    with contextlib.ExitStack() as stack:
        many = [stack.enter_context(running(["-m", "app", "serve"], env,
                                            workdir / f"server{i}.log")) for i in range(n)]
        rows[f"{n} processes, sockets at the owner"] = run(drive_many(many, args, False))
        rows[f"{n} processes, sockets relayed"] = run(drive_many(many, args, True))
    print("| processes | actions/s | p50 ms | p99 ms | refused |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name, (stats, limited) in rows.items():
        print(f"| {name} | {per_s(stats.in_window / args.seconds)} | {ms(stats.percentile(50))} "
              f"| {ms(stats.percentile(99))} | {refusals(stats, limited)} |")


def open_loop(args: argparse.Namespace, url: str, workdir: Path) -> None:
    intended = args.rooms * args.rate
    print(f"open loop: {args.rooms} rooms x {args.players} players at {args.rate:g} actions/s "
          f"per room ({per_s(intended)}/s intended), {args.seconds:g} s after "
          f"{args.warmup:g} s warm-up; latency from the intended send time")
    with running(["-m", "app", "serve"], server_env(url), workdir / "server.log") as server:
        stats, limited = run(drive(server, None, args, args.rate))
    print("| target | intended/s | achieved/s | p50 ms | p99 ms | max ms | refused |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    print(f"| server | {per_s(intended)} | {per_s(stats.in_window / args.seconds)} "
          f"| {ms(stats.percentile(50))} | {ms(stats.percentile(99))} "
          f"| {ms(max(stats.latencies, default=0.0))} | {refusals(stats, limited)} |")
    print("target: p99 < 50 ms at 2,000 rooms x 4, 0.5 actions/s per room (issue 19)")


async def open_idle(process: Process, plans: list[Plan], sockets: int) -> list[Table]:
    """`sockets` authenticated sockets, round robin over every guest of `plans`."""
    seats = [(room, token) for room, tokens in plans for token in tokens]
    tables = [Table() for _ in range(sockets)]  # one per socket: each waits for its own state
    await gather_limited([table.join(process.ws(seats[i % len(seats)][0]),
                                     seats[i % len(seats)][1])
                          for i, table in enumerate(tables)], CONNECT_CONCURRENCY)
    return tables


async def idle_run(process: Process, args: argparse.Namespace) -> tuple[int, int, int]:
    players = args.players
    rooms = math.ceil(args.sockets / (args.per_account * players))
    plans = await server_plans(process, rooms, players)
    warm = await open_idle(process, plans, min(rooms * players, args.sockets))
    await asyncio.sleep(1)
    before = process.rss_kib()
    rest = await open_idle(process, plans, args.sockets - len(warm))
    await asyncio.sleep(2)  # let the last sockets' first messages go out
    after = process.rss_kib()
    opened = sum(not m.closed for t in warm + rest for m in t.members)
    await asyncio.gather(*(t.close() for t in warm + rest))
    if opened != args.sockets:
        raise SystemExit(f"only {opened} of {args.sockets} sockets stayed open")
    return before, after, len(rest)


def idle(args: argparse.Namespace, url: str, workdir: Path) -> None:
    accounts = math.ceil(args.sockets / (args.per_account * args.players)) * args.players
    print(f"idle sockets: {args.sockets} authenticated sockets over {accounts} guest accounts "
          f"(at most {args.per_account} each) seated in started rooms of {args.players}")
    env = server_env(url, per_account=args.per_account)
    with running(["-m", "app", "serve"], env, workdir / "server.log") as server:
        before, after, measured = run(idle_run(server, args))
    print("| sockets | server RSS before MiB | after MiB | KiB per socket |")
    print("| ---: | ---: | ---: | ---: |")
    print(f"| {args.sockets} | {before / 1024:.1f} | {after / 1024:.1f} "
          f"| {(after - before) / max(measured, 1):.1f} |")
    print("target: 10,000 sockets at <= 20 KiB each")


async def guest_turns(process: Process, plan: Plan, turns: int) -> bool:
    """The room's guest plays `turns` turns (draw, discard) once its turn comes, then waits
    for its turn again (the computer players have moved); whether every action was acked."""
    table = Table()
    await table.join(process.ws(plan[0]), plan[1][0])
    try:
        for _ in range(2 * turns):
            actor, view = await table.actor(STARTUP_TIMEOUT)
            if (await actor.act(view, actor.next_action(view)))["type"] != "ack":
                return False
        await table.actor(STARTUP_TIMEOUT)
        return True
    except MatchOver:  # a computer player went out first: the room is no longer live
        return False
    finally:
        await table.close()


async def lobby_playing(base: str, ids: set[str]) -> float:
    """Seconds until the lobby lists every room of `ids` as playing."""
    began = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30) as http:
        while time.perf_counter() - began < STARTUP_TIMEOUT:
            with_status = {r["id"]: r["status"] for r in
                           (await http.get("/api/rooms")).json()["rooms"]}
            if all(with_status.get(room) == "playing" for room in ids):
                return time.perf_counter() - began
            await asyncio.sleep(0.02)
    raise SystemExit(f"the rooms were not all playing {STARTUP_TIMEOUT} s after the restart")


async def players_back(process: Process, plans: list[Plan]) -> float:
    """Each room's guest connects again; seconds until the lobby lists every room as playing
    (it lists no table that nobody is at)."""
    tables = await open_idle(process, plans, len(plans))
    try:
        return await lobby_playing(process.base, {room for room, _ in plans})
    finally:
        await asyncio.gather(*(t.close() for t in tables))


def restart(args: argparse.Namespace, url: str, workdir: Path) -> None:
    print(f"restart: {args.rooms} live rooms (a guest and three computer players who have "
          "played their first turns), SIGKILL, start again")
    with running(["-m", "app", "serve"], server_env(url), workdir / "server.log") as server:
        server.stop()
        empty = server.start()  # for reference: a start with nothing to restore
        plans = run(server_plans(server, args.rooms, 4, bots=3))
        live = run(gather_limited([guest_turns(server, p, 0) for p in plans],
                                  CONNECT_CONCURRENCY))
        plans = [p for p, playing in zip(plans, live, strict=True) if playing]
        server.kill()
        began = time.perf_counter()
        answered = server.start()
        playing = run(players_back(server, plans))
        live = time.perf_counter() - began
        health = httpx.get(f"{server.base}/api/health", trust_env=False).json()
        checked = run(gather_limited([guest_turns(server, p, 1) for p in plans[:5]], 5))
    restore = ", ".join(f"{k} {v}" for k, v in health.items() if "restor" in k) or "not reported"
    print("| rooms | empty start s | health answers s | all rooms playing s "
          "| health's restore figure |")
    print("| ---: | ---: | ---: | ---: | --- |")
    print(f"| {len(plans)} | {empty:.2f} | {answered:.2f} | {live:.2f} | {restore} |")
    print(f"(lobby complete {playing:.2f} s after the first health answer, the guests back; "
          f"{sum(checked)} of {len(checked)} rooms checked played on)")
    print("target: 500 rooms rebuilt within 5 s")


MODES = {"closed": closed, "open": open_loop, "idle": idle, "restart": restart}
DEFAULTS: dict[str, dict[str, float]] = {
    "closed": {"rooms": 20, "seconds": 20.0}, "open": {"rooms": 500, "seconds": 30.0},
    "idle": {}, "restart": {"rooms": 500}}


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", nargs="?", choices=list(MODES), default="closed")
    parser.add_argument("--rooms", type=int, help="rooms (closed 20, open 500, restart 500)")
    parser.add_argument("--players", type=int, default=4, help="players per room (2 to 6)")
    parser.add_argument("--seconds", type=float, help="measured seconds (closed 20, open 30)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds played unmeasured")
    parser.add_argument("--rate", type=float, default=0.5, help="open: actions/s per room")
    parser.add_argument("--sockets", type=int, default=10_000, help="idle: sockets to open")
    parser.add_argument("--per-account", type=int, default=50,
                        help="idle: sockets per guest account (the server's cap is set to it)")
    parser.add_argument("--logs", type=Path,
                        help="a folder to keep the servers' logs in (default: deleted)")
    parser.add_argument("--processes", type=int, default=1,
                        help="closed: also run on this many processes sharing Redis")
    parser.add_argument("--metrics-cost", type=int, default=0, metavar="N",
                        help="closed: N runs with the metrics on, N with them off, alternating")
    parser.add_argument("--redis", default=REDIS, help=f"with --processes (default {REDIS})")
    parser.add_argument("--postgres", default=POSTGRES,
                        help=f"a database on the PostgreSQL server to use (default {POSTGRES})")
    args = parser.parse_args(argv)
    for name, value in DEFAULTS[args.mode].items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    return args


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    raise_open_files()
    print(f"load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="rummy-bench-") as folder, \
            database(args.postgres) as url:
        logs = args.logs or Path(folder)
        logs.mkdir(parents=True, exist_ok=True)
        if args.processes > 1 and args.mode == "closed":
            processes_mode(args, url, logs)
        else:
            MODES[args.mode](args, url, logs)
    print(f"load average {load_average()} at the end")


if __name__ == "__main__":
    main()
