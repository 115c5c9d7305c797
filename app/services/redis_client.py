"""The one place the server builds a Redis client (the cluster's, pub/sub included, and the
throttles'), so every client survives a Redis restart the same way (docs/scaling.md, "Redis").

A restarted Redis leaves the pool full of connections to the old server: the first command on
each fails. redis-py's client made from a URL does not retry at all, so each of those commands
failed its request (issue 36: 12-15 of 30 calls answered 503 after `/api/ready` said 200). Here a
command that meets a dropped connection is sent again on a fresh one (the dead one is closed
by the retry), at most ``RETRIES`` times, a few milliseconds apart.

Only a connection error is retried, never a timeout: a command on a connection from before the
restart never reached the new server, but one that timed out may have been applied (a lease
taken, a throttle's event recorded, a message published), and a timeout retried would also
multiply how long a call waits on a Redis that does not answer.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

RETRIES = 2  # fresh connections tried after the first failure
BACKOFF = ExponentialBackoff(cap=0.25, base=0.025)  # 50 ms, then 100 ms
START_UP_TIMEOUT = 3.0  # seconds the start-up check gives Redis to answer


def make_redis(url: str, *, connect_timeout: float, timeout: float) -> Redis:
    """A pooled client of the Redis at ``url`` that retries dropped connections."""
    return Redis.from_url(url, socket_connect_timeout=connect_timeout, socket_timeout=timeout,
                          retry=Retry(BACKOFF, RETRIES, supported_errors=(RedisConnectionError,)))


async def check(url: str) -> None:
    """Raise (a RedisError or OSError) unless the Redis at ``url`` answers a PING."""
    redis = make_redis(url, connect_timeout=START_UP_TIMEOUT, timeout=START_UP_TIMEOUT)
    try:
        await redis.ping()
    finally:
        await redis.aclose()


def redacted(url: str) -> str:
    """``url`` without its password, to be shown."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))
