"""A process's cluster inbox over a real Redis: a message that is none of the cluster's (another
program's, another version's) is ignored with one warning line and no traceback, and the
messages after it still arrive."""

from __future__ import annotations

import asyncio
import logging

import pytest
from redis.asyncio import Redis

from app.cluster import wire
from app.cluster.node import Node
from tests.waits import DEADLINE


async def test_a_foreign_message_is_one_line_and_the_next_still_arrives(
        redis_url: str, redis_prefix: str, caplog: pytest.LogCaptureFixture) -> None:
    node = Node(Redis.from_url(redis_url), redis_prefix, ttl=5.0)
    arrived: asyncio.Queue[wire.Message] = asyncio.Queue()
    node.receive = arrived.put_nowait
    await node.start()
    publisher = Redis.from_url(redis_url)
    try:
        caplog.set_level(logging.DEBUG, logger="app.cluster.node")
        expected = wire.Logout("ab" * 32)

        async def delivered() -> wire.Message:
            while True:  # the inbox subscribes in the background: publish until it hears
                await publisher.publish(node.channel(node.id), b'{"k": "nonsense", "x": 1}')
                await publisher.publish(node.channel(node.id), b"\x00not json")
                await publisher.publish(node.channel(node.id), wire.write(expected))
                try:
                    return await asyncio.wait_for(arrived.get(), 0.5)
                except TimeoutError:
                    continue

        assert await asyncio.wait_for(delivered(), DEADLINE) == expected
    finally:
        await publisher.aclose()
        await node.close()
    foreign = [r for r in caplog.records if "not a cluster message" in r.getMessage()]
    assert len(foreign) >= 2 and all(r.levelno == logging.WARNING for r in foreign)
    assert all(r.exc_info is None for r in caplog.records if r.name == "app.cluster.node")
