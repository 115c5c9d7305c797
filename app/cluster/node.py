"""This process in the cluster: its id, its liveness key, and its inbox.

The inbox is a Redis pub/sub channel per process. Pub/sub rather than streams: what travels is
live traffic (a socket's messages and the owner's replies) that is worthless once its socket or
its room has moved, and a client that misses some resyncs from the full state the owner sends on
every (re)connection; streams would add storage, trimming and acknowledgements for nothing, and
a hop of latency. Order holds per pair of processes: one task publishes everything this process
sends, in the order it was sent, and Redis delivers one publisher's messages in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable

from pydantic import ValidationError
from redis.asyncio import Redis

from app import metrics

from . import wire

log = logging.getLogger(__name__)

BATCH = 256  # messages per pipeline


class Node:
    def __init__(self, redis: Redis, prefix: str, ttl: float) -> None:
        self.id = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.redis = redis
        self.prefix = prefix
        self.ttl = ttl
        # Called with every message that arrives, parsed (the relay sets it).
        self.receive: Callable[[wire.Message], None] = lambda _message: None
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        # Called when the inbox is subscribed again after an outage (messages may be lost).
        self.reconnected: Callable[[], None] = lambda: None
        self.last_beat = 0.0  # monotonic time of the last heartbeat Redis took

    def channel(self, node_id: str) -> str:
        return f"{self.prefix}:node:{node_id}"

    @property
    def everyone(self) -> str:
        """The channel every process listens to as well as its own."""
        return f"{self.prefix}:nodes"

    def _alive_key(self, node_id: str) -> str:
        return f"{self.prefix}:alive:{node_id}"

    def send(self, node_id: str, message: wire.Message) -> None:
        """Queue a message to a process; never waits (and is lost if Redis is unreachable)."""
        metrics.relayed("sent")
        self._outbox.put_nowait((self.channel(node_id), wire.write(message)))

    def broadcast(self, message: wire.Message) -> None:
        """Queue a message to every process, this one included."""
        metrics.relayed("sent")
        self._outbox.put_nowait((self.everyone, wire.write(message)))

    async def start(self) -> None:
        await self.beat()
        # Every process of a deployment must say the same prefix (docs/scaling.md, "Redis").
        log.info("cluster: process %s, Redis keys and channels under %s:", self.id, self.prefix)
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]

    async def beat(self) -> None:
        """Say this process is alive for another lease period."""
        asked = time.monotonic()
        await self.redis.set(self._alive_key(self.id), "1", px=int(self.ttl * 1000))
        self.last_beat = time.monotonic()
        metrics.redis_round_trip(self.last_beat - asked)

    async def alive(self, node_ids: set[str]) -> set[str]:
        ids = sorted(node_ids)
        if not ids:
            return set()
        found = await self.redis.mget([self._alive_key(i) for i in ids])
        return {i for i, value in zip(ids, found, strict=True) if value is not None}

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            # Every queued message published, the batch being written included.
            await asyncio.wait_for(self._outbox.join(), 2.0)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(self._alive_key(self.id))
        await self.redis.aclose()

    async def _read(self) -> None:
        cut_off = False
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            connection = None
            try:
                await pubsub.subscribe(self.channel(self.id), self.everyone)
                # A dropped connection is made again and subscribed again inside redis-py (its
                # retry, app.services.redis_client): told here, as a failure is below.
                connection = pubsub.connection
                if connection is not None:
                    connection.register_connect_callback(self._connected_again)
                if cut_off:
                    cut_off = False
                    self.reconnected()
                async for message in pubsub.listen():
                    self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster inbox: %r; subscribing again", exc)
                cut_off = True
                await asyncio.sleep(0.2)
            finally:
                if connection is not None:  # it goes back to the pool for other commands
                    connection.deregister_connect_callback(self._connected_again)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _connected_again(self, _connection: object) -> None:
        """The inbox's connection was made again: messages may have been lost meanwhile."""
        log.warning("cluster inbox: connected to Redis again; messages may have been lost")
        self.reconnected()

    def _dispatch(self, data: bytes) -> None:
        """Hand a message on; one that is none of the cluster's (written by something else on
        this Redis, or by another version) is ignored with one line, without a traceback."""
        metrics.relayed("received")
        try:
            message = wire.parse(data)
        except ValidationError as exc:
            log.warning("cluster inbox: ignored %d bytes that are not a cluster message (%s)",
                        len(data), exc.errors()[0]["msg"])
            return
        try:
            self.receive(message)
        except Exception:
            log.exception("cluster inbox: a message could not be handled")

    async def _write(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: %d messages lost: %r", len(batch), exc)
            finally:
                for _ in batch:
                    self._outbox.task_done()
                await asyncio.sleep(0.1)
