"""The process's Prometheus metrics (PROTOCOL.md §11, docs/operations.md): every name is
declared here, and the layers report through the functions below, so no other module knows
prometheus-client.

Counters and histograms move as things happen; what is a level (rooms, sockets, the database
pool, leases) is read from the process at each scrape, through the `Snapshot` that `watch`
was given (`app.main` builds it: only the wiring sees every part). With
``RUMMY_METRICS_ENABLED=0`` every report is a no-op and `/metrics` is not served, which is how
the cost of the metrics is measured (`bench.load closed --metrics-off`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

disable_created_metrics()  # no `_created` series: each counter's start time is noise here

# Seconds, from a fast local round trip to a stalled one.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                   5.0, 10.0)
BATCH_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500)  # a log commit holds at most 500 rows

ACTIONS = Counter("rummy_actions", "Players' actions received on sockets, by game and result",
                  ["game", "result"])
ACTION_SECONDS = Histogram("rummy_action_seconds",
                           "From a socket's action reaching its room to its ack or error",
                           buckets=LATENCY_BUCKETS)
ERRORS = Counter("rummy_errors", "Refusals sent: websocket errors and HTTP 4xx/5xx answers, "
                 "by code", ["code"])
LOG_COMMIT_SECONDS = Histogram("rummy_log_commit_seconds",
                               "One match-log commit (a batch of actions)",
                               buckets=LATENCY_BUCKETS)
LOG_BATCH_ACTIONS = Histogram("rummy_log_batch_actions", "Actions per match-log commit",
                              buckets=BATCH_BUCKETS)
LEDGER_TRANSFERS = Counter("rummy_ledger_transfers", "Ledger transfers committed")
BOT_DECISIONS = Counter("rummy_bot_decisions", "Computer-player moves chosen, by level",
                        ["level"])
BOT_SECONDS = Histogram("rummy_bot_decision_seconds", "Choosing one computer-player move",
                        buckets=LATENCY_BUCKETS)
SOCKET_DROPS = Counter("rummy_socket_drops", "Sockets cut off by the server, by reason",
                       ["reason"])
RELAYED = Counter("rummy_relayed_messages",
                  "Messages between processes through Redis, by direction", ["direction"])
REDIS_SECONDS = Histogram("rummy_redis_seconds",
                          "Redis round trips of the heartbeat and the lease renewals",
                          buckets=LATENCY_BUCKETS)
LEASE_RENEWALS = Counter("rummy_lease_renewals", "Room lease renewals, by result",
                         ["result"])
READY = Gauge("rummy_ready", "1 while the process can take actions (as /api/ready answers)")
RESTORE_SECONDS = Gauge("rummy_restore_seconds", "Start-up rebuild of the live rooms")

_on = True


def enable(on: bool) -> None:
    """Report (the default) or not (``RUMMY_METRICS_ENABLED=0``)."""
    global _on
    _on = on


def enabled() -> bool:
    return _on


def action(game: str, applied: bool, began: float) -> None:
    """A player's action answered; ``began``: `time.perf_counter()` when it reached the room."""
    if _on:
        ACTIONS.labels(game, "applied" if applied else "rejected").inc()
        ACTION_SECONDS.observe(time.perf_counter() - began)


def refused(code: str) -> None:
    if _on:
        ERRORS.labels(code).inc()


def log_committed(actions: int, seconds: float) -> None:
    if _on:
        LOG_BATCH_ACTIONS.observe(actions)
        LOG_COMMIT_SECONDS.observe(seconds)


def ledger_transfers(count: int) -> None:
    if _on:
        LEDGER_TRANSFERS.inc(count)


def bot_decided(level: str, seconds: float) -> None:
    if _on:
        BOT_DECISIONS.labels(level).inc()
        BOT_SECONDS.observe(seconds)


def socket_dropped(reason: str) -> None:
    if _on:
        SOCKET_DROPS.labels(reason).inc()


def relayed(direction: str) -> None:
    if _on:
        RELAYED.labels(direction).inc()


def redis_round_trip(seconds: float) -> None:
    if _on:
        REDIS_SECONDS.observe(seconds)


def leases_renewed(renewed: int, lost: int, failed: int) -> None:
    if _on:
        for result, count in (("renewed", renewed), ("lost", lost), ("failed", failed)):
            if count:
                LEASE_RENEWALS.labels(result).inc(count)


def ready(is_ready: bool) -> None:
    if _on:
        READY.set(1 if is_ready else 0)


def restored(seconds: float) -> None:
    if _on:
        RESTORE_SECONDS.set(seconds)


@dataclass(frozen=True)
class Snapshot:
    """The process's levels at one moment. ``leases_held`` is None on a single process."""

    rooms: dict[str, int] = field(default_factory=dict)  # status -> rooms
    sockets: int = 0
    stalled_rooms: int = 0
    log_pending: int = 0
    pool_in_use: int = 0
    pool_idle: int = 0
    pool_waiting: int = 0
    leases_held: int | None = None


# A closed room (its match over, or deserted before it began) stays held for its result screen
# and rematch, and with several processes keeps its lease: counted, so that the rooms' sum is
# what the process holds.
ROOM_STATUSES = ("waiting", "playing", "closed")


class _Levels(Collector):
    """Yields the gauges of the snapshot that `watch` was given, read at each scrape."""

    def __init__(self) -> None:
        self.snapshot: Callable[[], Snapshot] | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        if self.snapshot is None or not _on:
            return
        now = self.snapshot()
        rooms = GaugeMetricFamily("rummy_rooms", "Rooms held at this process, by status",
                                  labels=["status"])
        for status in ROOM_STATUSES:
            rooms.add_metric([status], now.rooms.get(status, 0))
        yield rooms
        yield GaugeMetricFamily("rummy_sockets", "Open authenticated websockets",
                                value=now.sockets)
        yield GaugeMetricFamily("rummy_stalled_rooms", "Rooms whose own next move is overdue",
                                value=now.stalled_rooms)
        yield GaugeMetricFamily("rummy_log_pending_actions",
                                "Actions appended to the match log, not yet committed",
                                value=now.log_pending)
        pool = GaugeMetricFamily("rummy_db_pool_connections",
                                 "Database pool connections, by state", labels=["state"])
        pool.add_metric(["in_use"], now.pool_in_use)
        pool.add_metric(["idle"], now.pool_idle)
        yield pool
        yield GaugeMetricFamily("rummy_db_pool_waiting",
                                "Requests waiting for a database pool connection",
                                value=now.pool_waiting)
        if now.leases_held is not None:
            yield GaugeMetricFamily("rummy_leases_held", "Room leases this process holds",
                                    value=now.leases_held)


_LEVELS = _Levels()
REGISTRY.register(_LEVELS)


def watch(snapshot: Callable[[], Snapshot] | None) -> None:
    """Read the levels from ``snapshot`` at each scrape (None: the process is stopping)."""
    _LEVELS.snapshot = snapshot
