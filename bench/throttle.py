"""What the account throttles add to a login, a registration or a guest account.

``python -m bench.throttle [REDIS_URL]`` prints the p50 and p99 time of one `take` (one event
under two limits, as a login does) and of one `give_back`, for the memory backend and for the
Redis backend (default redis://127.0.0.1:6379/0, under a key prefix of its own, deleted
afterwards). Each `take` uses a new key, so every call runs the whole check-and-record. For
scale it also prints the argon2id verification that every login does anyway.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import time

from app.services.accounts import hash_password, verify_password
from app.services.throttle import Limit, MemoryThrottle, RedisThrottle, Throttle

USERNAME = Limit("login_username", 10, 900.0, "failed logins for this username")
ADDRESS = Limit("login_address", 30, 900.0, "failed logins from this address")


def _percentiles(times: list[float]) -> dict[str, float]:
    times.sort()
    return {"p50_ms": round(times[len(times) // 2], 4),
            "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 4)}


async def throttle_figures(throttle: Throttle, samples: int = 2000) -> dict[str, object]:
    takes, gives = [], []
    for i in range(samples):
        start = time.perf_counter()
        tickets = await throttle.take((USERNAME, f"user{i}"), (ADDRESS, f"10.0.{i % 250}.1"))
        middle = time.perf_counter()
        await throttle.give_back(tickets)
        gives.append((time.perf_counter() - middle) * 1000)
        takes.append((middle - start) * 1000)
    return {"samples": samples, "take": _percentiles(takes), "give_back": _percentiles(gives)}


async def verify_figures(samples: int = 50) -> dict[str, object]:
    stored = await hash_password("a password to verify")
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        await verify_password(stored, "a wrong password")
        times.append((time.perf_counter() - start) * 1000)
    return {"samples": samples, "verify": _percentiles(times)}


async def main(redis_url: str) -> None:
    print("argon2id", await verify_figures())
    print("memory", await throttle_figures(MemoryThrottle()))
    prefix = f"bench-{secrets.token_hex(4)}"
    redis = RedisThrottle(redis_url, prefix)
    try:
        print("redis", await throttle_figures(redis))
        async for key in redis.redis.scan_iter(f"{prefix}:*"):
            await redis.redis.delete(key)
    finally:
        await redis.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "redis://127.0.0.1:6379/0"))
