"""A sit-and-go tournament played by the server, beside ordinary rooms (issue 22).

``python -m bench.tournament [--players 64] [--seats 4] [--rooms 50] [--seconds S] [--repeat 3]
[--rate R]``
starts ``python -m app serve`` (one process, PostgreSQL: a database of its own per run, as
`bench.load` makes them) with ``RUMMY_BOT_DELAY_SECONDS=0`` and `bench.load`'s short pauses,
and runs:

1. **tournament alone**: ``--players`` guests register for a Standard Rummy knockout with
   tables of ``--seats``; each comes to each of their tables once it opens (a socket per
   player, as the bench's look at the tournament finds the table) and goes again once its first
   hand is dealt (PROTOCOL.md §8 "Arrival": the deal waits for every player, or 10 s), so every
   seat of every table is played by the server (a computer player stands in for the absent); the
   time from the registration that fills it to its end (status ``finished``, prizes paid), and
   its rounds. Each round counts the bench's look (up to ``POLL`` late) and the arrivals.
2. **rooms alone**: ``--rooms`` ordinary rooms of four guests, each action (draw from the
   stock, discard the card drawn) as soon as the last is acknowledged (`bench.loadclient`'s
   closed loop), or with ``--rate`` that many a second per room (its open loop, latency from
   each action's intended time), for ``--seconds`` (default: the tournament's time alone);
   actions/s and p50/p99 of the time from an action's send to its ack.
3. **both**: the rooms as in 2, and the tournament filled at the start of their measured
   window: the rooms' figures beside it, and its time to finish.

2 and 3 alternate ``--repeat`` times, each on a new server and database, so that a change in
the machine's load falls on both. The question it answers: does a tournament hold up the rooms
around it (the median of the p99s of 3 against that of 2)? Unwatched tables play in the gaps
between people's actions (`app.rooms.pace`), so beside busy rooms the tournament takes longer.
The machine's load average is printed with each run: other work on it shows in the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from .load import (
    Process,
    database,
    load_average,
    measure,
    ms,
    per_s,
    raise_open_files,
    refusals,
    run,
    running,
    seat_tables,
    server_env,
    server_plans,
)
from .loadclient import Stats, call

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
FINISH_TIMEOUT = 900.0  # seconds a tournament may take before the run gives up
# Seconds between looks at the tournament (its finish time is known to this much, and a new
# round's tables are found this late): a look is a request, its rounds and standings read from
# the database (~6 ms of the server here), which the rooms-alone runs do not carry, so seldom.
POLL = 1.0
ARRIVAL_SECONDS = 10  # the least: a table whose players the bench fails to bring deals anyway
ARRIVE_TIMEOUT = 60.0  # seconds an arriving socket waits for its table's first deal


def tournament_body(args: argparse.Namespace) -> dict[str, Any]:
    return {"name": "bench knockout", "game": "standard", "options": args.options,
            "players": args.players, "table_seats": args.seats, "entry": 10,
            "prizes": [50, 30, 20] if args.players >= 3 else [100], "turn_seconds": 30,
            "arrival_seconds": ARRIVAL_SECONDS}


async def registered(http: httpx.AsyncClient,
                     args: argparse.Namespace) -> tuple[str, dict[str, str]]:
    """A tournament with every place but the last taken: its id, and each guest's token by
    player id, in registration order (the last one's registration starts it)."""
    guests = [await call(http, "/api/auth/guest", body={"name": f"entrant {n}"})
              for n in range(args.players)]
    tokens = {g["player"]["id"]: g["token"] for g in guests}
    first = guests[0]["token"]
    t = await call(http, "/api/tournaments", first, tournament_body(args))
    for token in list(tokens.values())[:-1]:
        await call(http, f"/api/tournaments/{t['id']}/register", token)
    return t["id"], tokens


async def arrive(server: Process, room: str, tokens: list[str]) -> None:
    """The table's players come (a socket each) and go again once its first hand is dealt:
    from then on the server plays every seat, as for players who never came."""
    sockets = [await connect(server.ws(room), open_timeout=ARRIVE_TIMEOUT) for _ in tokens]
    try:
        for ws, token in zip(sockets, tokens, strict=True):
            await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
        async with asyncio.timeout(ARRIVE_TIMEOUT):
            while True:  # the last one's arrival deals at once
                message = orjson.loads(await sockets[-1].recv())
                view = message.get("view") if message.get("type") == "state" else None
                if view is not None and view["hand_no"] >= 0:
                    break
    finally:
        for ws in sockets:
            await ws.close()


async def play_out(server: Process, http: httpx.AsyncClient, tournament_id: str,
                   tokens: dict[str, str]) -> tuple[float, int]:
    """Fill the tournament, bring each table's players as it opens, and wait for its end: the
    seconds that took, and its rounds."""
    last = list(tokens.values())[-1]
    began = time.perf_counter()
    await call(http, f"/api/tournaments/{tournament_id}/register", last)
    came: set[str] = set()
    arrivals: list[asyncio.Task[None]] = []
    try:
        while time.perf_counter() - began < FINISH_TIMEOUT:
            answer = await http.get(f"/api/tournaments/{tournament_id}",
                                    headers={"Authorization": f"Bearer {last}"})
            t = answer.json()
            if t["status"] == "finished":
                return time.perf_counter() - began, len(t["rounds"])
            for table in (x for r in t["rounds"] for x in r["tables"]):
                if table["opened_at"] and table["winner"] is None and table["room"] not in came:
                    came.add(table["room"])
                    arrivals.append(asyncio.ensure_future(arrive(
                        server, table["room"], [tokens[p] for p in table["players"]])))
            await asyncio.sleep(POLL)
    finally:
        for task in arrivals:
            task.cancel()
        await asyncio.gather(*arrivals, return_exceptions=True)
    raise SystemExit(f"tournament {tournament_id} not finished in {FINISH_TIMEOUT:.0f} s")


async def alone(server: Process, args: argparse.Namespace) -> tuple[float, int]:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=60) as http:
        tournament_id, tokens = await registered(http, args)
        return await play_out(server, http, tournament_id, tokens)


async def rooms_and(server: Process, args: argparse.Namespace,
                    tournament: bool) -> tuple[Stats, int, tuple[float, int] | None]:
    """The rooms' closed loop; with ``tournament``, filled as their measured window opens."""
    plans = await server_plans(server, args.rooms, 4)
    tables = await seat_tables(server, plans)
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=60) as http:
        entered = await registered(http, args) if tournament else None
        playing = asyncio.ensure_future(measure(tables, args, args.rate))
        await asyncio.sleep(args.warmup)
        outcome = None if entered is None else await play_out(server, http, *entered)
        stats, limited = await playing
    return stats, limited, outcome


def row(name: str, outcome: tuple[float, int] | None,
        rooms: tuple[Stats, int] | None, seconds: float) -> str:
    t = "-" if outcome is None else f"{outcome[0]:.1f}"
    rounds = "-" if outcome is None else str(outcome[1])
    if rooms is None:
        return f"| {name} | {t} | {rounds} | - | - | - | - |"
    stats, limited = rooms
    return (f"| {name} | {t} | {rounds} | {per_s(stats.in_window / seconds)} "
            f"| {ms(stats.percentile(50))} | {ms(stats.percentile(99))} "
            f"| {refusals(stats, limited)} |")


def bench(args: argparse.Namespace, postgres: str, logs: Path) -> None:
    env = {"RUMMY_BOT_DELAY_SECONDS": "0"}

    def serve(url: str, name: str) -> Any:
        return running(["-m", "app", "serve"], {**server_env(url), **env}, logs / name)

    loop = "a closed loop" if args.rate is None else f"an open loop of {args.rate:g} actions/s each"
    print(f"tournament: {args.players} players, tables of {args.seats}, every seat played by "
          f"the server; beside it {args.rooms} rooms of 4 in {loop}")
    with database(postgres) as url, serve(url, "t.log") as s:
        first = run(alone(s, args))
    print(f"  tournament alone: {first[0]:.1f} s ({first[1]} rounds); "
          f"load average {load_average()}")
    if args.seconds is None:
        args.seconds = max(2.0, first[0])
    rows = [row("tournament alone", first, None, args.seconds)]
    p99s: dict[bool, list[float]] = {False: [], True: []}
    for n in range(args.repeat):  # alternating, so a change in the machine's load hits both
        for tournament in (False, True):
            with database(postgres) as url, serve(url, f"{n}-{tournament}.log") as s:
                stats, limited, beside = run(rooms_and(s, args, tournament))
            name = f"tournament + {args.rooms} rooms" if tournament else f"{args.rooms} rooms alone"
            print(f"  {name} ({n + 1}/{args.repeat}): load average {load_average()}")
            rows.append(row(name, beside, (stats, limited), args.seconds))
            p99s[tournament].append(stats.percentile(99))
    print("| run | tournament s | rounds | room actions/s | p50 ms | p99 ms | refused |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    print("\n".join(rows))
    p99_alone, p99_beside = statistics.median(p99s[False]), statistics.median(p99s[True])
    print(f"rooms' p99 beside the tournament: {100 * p99_beside / max(p99_alone, 1e-9):.0f} % "
          f"of their p99 alone (medians of {args.repeat}; target <= 100 %, within run-to-run "
          "noise)")


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.tournament", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64, help="entrants (2 to 64)")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (2 to 6)")
    parser.add_argument("--rooms", type=int, default=50, help="ordinary rooms beside it")
    parser.add_argument("--seconds", type=float,
                        help="the rooms' measured seconds (default: the tournament's time alone)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="alternating runs of the rooms alone and beside the tournament")
    parser.add_argument("--rate", type=float,
                        help="each room's actions a second, an open loop (default: a closed "
                             "loop, each action as soon as the last is acknowledged)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds played unmeasured")
    parser.add_argument("--target", type=int, default=None,
                        help="the tables' target score (default: the game's own)")
    parser.add_argument("--logs", type=Path,
                        help="a folder to keep the servers' logs in (default: deleted)")
    parser.add_argument("--postgres", default=POSTGRES,
                        help=f"a database on the PostgreSQL server to use (default {POSTGRES})")
    args = parser.parse_args(argv)
    args.options = {} if args.target is None else {"target_score": args.target}
    return args


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    raise_open_files()
    print(f"load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="rummy-bench-") as folder:
        logs = args.logs or Path(folder)
        logs.mkdir(parents=True, exist_ok=True)
        bench(args, args.postgres, logs)
    print(f"load average {load_average()} at the end")


if __name__ == "__main__":
    main()
