"""The lighter receive queue and writable flag of the server's websocket protocol
(app/api/wsprotocol.py) behave as the asyncio originals uvicorn uses them."""

from __future__ import annotations

import asyncio

from app.api.wsprotocol import Gate, Inbox
from tests.waits import DEADLINE


async def test_the_inbox_hands_items_over_in_order_and_a_reader_waits_for_the_next() -> None:
    inbox = Inbox()
    assert inbox.empty()
    inbox.put_nowait(1)
    inbox.put_nowait(2)
    assert not inbox.empty()
    assert [await inbox.get(), await inbox.get()] == [1, 2]
    reader = asyncio.create_task(inbox.get())
    await asyncio.sleep(0.01)
    assert not reader.done()
    inbox.put_nowait({"type": "websocket.disconnect"})
    assert await asyncio.wait_for(reader, DEADLINE) == {"type": "websocket.disconnect"}
    assert inbox.empty()


async def test_a_cancelled_reader_leaves_the_inbox_usable() -> None:
    inbox = Inbox()
    reader = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    reader.cancel()
    await asyncio.gather(reader, return_exceptions=True)
    inbox.put_nowait("next")
    assert await asyncio.wait_for(inbox.get(), DEADLINE) == "next"


async def test_the_gate_holds_writers_while_closed_and_releases_them_all() -> None:
    gate = Gate()
    assert gate.is_set()
    await asyncio.wait_for(gate.wait(), DEADLINE)  # open: no wait
    gate.clear()
    assert not gate.is_set()
    writers = [asyncio.create_task(gate.wait()) for _ in range(3)]
    await asyncio.sleep(0.01)
    assert not any(w.done() for w in writers)
    gate.set()
    await asyncio.wait_for(asyncio.gather(*writers), DEADLINE)
    assert gate.is_set()
