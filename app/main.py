"""The ASGI application: wiring settings, the database, the rooms and the routers."""

from __future__ import annotations

import asyncio
import gc
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.types import Receive, Scope, Send

from app import __version__, metrics
from app.api import (
    admin,
    auth,
    edge,
    errors,
    games,
    health,
    me,
    moderation,
    players,
    rooms,
    schemas,
    tournaments,
    ws,
)
from app.api.gateway import LocalGateway
from app.api.outage import add_outage_handlers
from app.api.request_ids import RequestIds, start_socket
from app.api.sockets import SocketIndex
from app.cluster.cluster import Cluster
from app.cluster.gateway import ClusterGateway
from app.cluster.leases import Leases
from app.cluster.lobby import SharedLobby
from app.cluster.locks import SharedLocks
from app.cluster.node import Node
from app.cluster.relay import Relay
from app.cluster.store import OwnedStore
from app.db.session import Pool, make_engine, make_sessionmaker, pool_levels
from app.refusals import Refusal
from app.rooms.registry import RoomRegistry
from app.rooms.scheduler import RoomTiming
from app.rooms.tournaments import TournamentDirector
from app.services import ledger, outage
from app.services.addresses import AddressBook
from app.services.analysis import Analyst
from app.services.logwriter import LogWriter
from app.services.redis_client import make_redis
from app.services.store import SqlMatchStore
from app.services.throttle import Limits, make_throttle
from app.services.tournaments import SqlTournamentStore
from app.settings import Settings, get_settings

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"



@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    engine = make_engine(settings.database_url, Pool(settings.database_pool_size,
                                                     settings.database_pool_overflow,
                                                     settings.database_pool_timeout))
    sessions = make_sessionmaker(engine)
    async with sessions() as session, session.begin():
        await ledger.ensure_bank(session)
    timing = RoomTiming(call_grace=settings.call_grace_seconds,
                        bot_delay=settings.bot_delay_seconds,
                        next_hand=settings.next_hand_seconds,
                        abandon=settings.abandon_seconds)
    log_writer = LogWriter(engine)
    store = SqlMatchStore(sessions, log_writer)
    app.state.sessions = sessions
    app.state.throttle = make_throttle(settings)
    app.state.limits = Limits.from_settings(settings)
    app.state.sockets = SocketIndex(settings.max_sockets_per_player)
    app.state.analyst = Analyst()
    app.state.addresses = AddressBook(sessions, settings.address_retention_days)
    began = time.perf_counter()
    gateway = _gateway(settings, store, timing, app.state.sockets)
    app.state.gateway = gateway
    app.state.registry = gateway.registry
    await gateway.start()
    director = TournamentDirector(SqlTournamentStore(sessions), gateway,
                                  gateway.tournament_ownership(), sweep=settings.lease_seconds,
                                  pace=timing.pace)
    director.tell = gateway.tournaments_told(director.poked)
    store.table_finished = director.poke
    app.state.tournaments = director
    await director.start()
    app.state.restore_seconds = round(time.perf_counter() - began, 3)
    metrics.restored(app.state.restore_seconds)
    metrics.watch(_levels(app, engine, log_writer))
    # What start-up built (modules, tables, restored rooms) lives as long as the process: out
    # of the collector's sight, a full collection no longer walks it, so it pauses play less.
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        metrics.watch(None)
        await director.close()
        await gateway.close(log_writer.close())
        await log_writer.close()  # what the rooms appended is committed before the engine goes
        await app.state.throttle.close()
        await app.state.addresses.close()
        await asyncio.to_thread(app.state.analyst.close)
        await engine.dispose()


def _levels(app: FastAPI, engine: AsyncEngine,
            log_writer: LogWriter) -> Callable[[], metrics.Snapshot]:
    """What the metrics read at each scrape: the rooms, sockets, log writer and database pool
    of this process, and its leases as one of several."""
    state = app.state
    gateway = state.gateway
    leases = gateway.cluster.leases if isinstance(gateway, ClusterGateway) else None

    def snapshot() -> metrics.Snapshot:
        rooms = state.registry.rooms.values()
        in_use, idle, waiting = pool_levels(engine)
        return metrics.Snapshot(
            rooms=Counter(room.record.status for room in rooms), sockets=state.sockets.count(),
            stalled_rooms=sum(1 for room in rooms if room.stalled()),
            log_pending=log_writer.pending, pool_in_use=in_use, pool_idle=idle,
            pool_waiting=waiting, leases_held=None if leases is None else leases.held())

    return snapshot


def _gateway(settings: Settings, store: SqlMatchStore, timing: RoomTiming,
             sockets: SocketIndex) -> LocalGateway | ClusterGateway:
    """The one place the deployment is decided: this process alone, or one of several."""
    if not settings.is_cluster:
        return LocalGateway(RoomRegistry(
            store, timing, max_waiting_per_host=settings.max_waiting_rooms_per_host))
    cluster = _cluster(settings, store, timing)
    return ClusterGateway(cluster, Relay(cluster, sockets),
                          SharedLocks(cluster.node.redis, settings.redis_prefix))


def _cluster(settings: Settings, store: SqlMatchStore, timing: RoomTiming) -> Cluster:
    """This process as one of several sharing PostgreSQL and Redis (docs/scaling.md)."""
    assert settings.redis_url is not None  # noqa: S101 - is_cluster
    redis = make_redis(settings.redis_url, connect_timeout=2,
                       timeout=max(1.0, settings.lease_seconds / 2))
    node = Node(redis, settings.redis_prefix, settings.lease_seconds)
    leases = Leases(redis, settings.redis_prefix, node.id, settings.lease_seconds)
    lost: list[Cluster] = []  # the store reports to the cluster, which is made after it
    owned = OwnedStore(store, leases, lambda room_id: lost[0].lost(room_id))
    registry = RoomRegistry(owned, timing, claim=lambda room_id: lost[0].claim_new(room_id),
                            max_waiting_per_host=settings.max_waiting_rooms_per_host)
    tournaments = Leases(redis, f"{settings.redis_prefix}:tournament", node.id,
                         settings.lease_seconds)
    cluster = Cluster(node, leases, SharedLobby(redis, settings.redis_prefix,
                                                settings.lease_seconds), store, owned, registry,
                      tournaments)
    lost.append(cluster)
    return cluster


def create_app() -> FastAPI:
    """Build the app: API routers first, then the browser client at `/`, behind the web edge.
    The API's documentation pages are served in development or with RUMMY_API_DOCS=1."""
    settings = get_settings()  # fail at start-up, not on the first request
    metrics.enable(settings.metrics_enabled)
    docs = settings.is_development or settings.api_docs
    app = FastAPI(title="Rummy Hall", version=__version__, lifespan=_lifespan,
                  docs_url="/docs" if docs else None, redoc_url="/redoc" if docs else None,
                  openapi_url="/openapi.json" if docs else None)
    app.state.settings = settings
    app.state.storage_faults = outage.Faults()
    if settings.allowed_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.allowed_origins,
                           allow_methods=["*"], allow_headers=["*"])
    edge.protect(app)
    app.add_exception_handler(Refusal, errors.refused)
    add_outage_handlers(app)
    for module in (health, games, auth, me, players, moderation, rooms, tournaments, admin):
        app.include_router(module.router)
    app.add_route("/metrics", health.metrics_page, methods=["GET"], include_in_schema=False)
    app.router.routes.append(edge.ClientMount(
        "/", edge.ClientFiles(directory=STATIC_DIR, html=True), name="static"))
    schemas.document(app)
    return app


class RummyHall:
    """The server's ASGI entry point: room sockets (``/ws/rooms/{id}``) go straight to their
    handler, everything else to the FastAPI app (its HTTP middlewares and routes). An idle
    socket then costs what uvicorn and the room need, not FastAPI's routing as well."""

    def __init__(self, api: FastAPI) -> None:
        self.api = api
        self.http = RequestIds(api)  # outside everything, so that every answer carries its id

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function handing over the coroutine: no frame of its own per open socket.
        if scope["type"] == "websocket" and scope["path"].startswith(ws.PATH):
            scope["app"] = self.api
            start_socket(scope)
            return ws.serve(scope, receive, send)
        return self.http(scope, receive, send)


def create_server() -> RummyHall:
    """What ``python -m app serve`` runs (a factory, so settings are read at start-up)."""
    return RummyHall(create_app())
