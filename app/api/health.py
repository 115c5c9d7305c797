"""What operators and balancers ask of a process (PROTOCOL.md §11, docs/operations.md):
liveness (`/api/health`), readiness (`/api/ready`) and the Prometheus metrics (`/metrics`)."""

import asyncio
import ipaddress

from fastapi import Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from sqlalchemy import text

from app import metrics
from app.refusals import Code, Refusal
from app.services import outage

from . import errors
from .deps import client_address
from .schemas import HealthOut, ReadyOut, api_router
from .schemas import errors as errors_of

router = api_router("/api", "health")

READY_TIMEOUT = 2.0  # seconds the database has to answer the readiness check


@router.get("/health")
async def health(request: Request) -> HealthOut:
    """Answers while the server is up; says whether stacked deals are allowed (development),
    lists the rooms that should have moved on by themselves and did not, and how long the
    rebuild of the live rooms took at start-up; one of several processes also says which it
    is, how many rooms it holds and how many writes it was refused for rooms it no longer held
    (docs/scaling.md)."""
    state = request.app.state
    out = {"status": "ok", "dev_stacked_decks": bool(state.settings.dev_stacked_decks),
           "stalled_rooms": state.registry.stalled(), "restore_seconds": state.restore_seconds}
    return HealthOut.model_validate({**out, **state.gateway.health()})


@router.get("/ready", responses=errors_of(503))
async def ready(request: Request) -> ReadyOut:
    """200 while this process can take actions: its database answers, no request met a storage
    outage in the last few seconds and, as one of several processes, Redis answers and its
    rooms' leases are held; else 503 `not_ready` naming each reason. Balancers and health
    checks use this; `/api/health` says only that it runs."""
    reasons = await unready(request)
    if reasons:
        raise Refusal(Code.NOT_READY, "not ready: " + "; ".join(reasons), {"reasons": reasons})
    return ReadyOut(status="ready")


async def unready(request: Request) -> list[str]:
    """Why the process cannot take actions now (empty: it can); sets `rummy_ready`."""
    state = request.app.state
    reasons = []
    try:
        async with asyncio.timeout(READY_TIMEOUT), state.sessions() as session:
            await session.execute(text("SELECT 1"))
    except Exception as exc:
        reasons.append(f"database unreachable ({outage.cause_name(exc)})")
    if (fault := state.storage_faults.recent()) is not None:
        reasons.append(fault)
    reasons += await state.gateway.unready()
    metrics.ready(not reasons)
    return reasons


async def metrics_page(request: Request) -> Response:
    """``GET /metrics``: the metrics in Prometheus' text format, for the addresses of
    RUMMY_METRICS_ALLOW; to anyone else it does not exist (404). Each scrape checks readiness
    first (`rummy_ready`). A plain route, not part of the JSON API or its document."""
    settings = request.app.state.settings
    host = client_address(request)
    if not settings.metrics_enabled or host is None or not allowed(host, settings.metrics_allow):
        return errors.response(Refusal(Code.NOT_FOUND, "no such page"))
    await unready(request)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


def allowed(host: str, networks: list[str]) -> bool:
    """Whether the address ``host`` is in one of ``networks`` (an IPv4 address seen as IPv6,
    ``::ffff:a.b.c.d``, counts as itself)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in ipaddress.ip_network(n, strict=False) for n in networks)
