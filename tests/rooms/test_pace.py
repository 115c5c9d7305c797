"""The pace of unwatched computer play (app/rooms/pace.py): while people act, unwatched
decisions take turns, each leaving the next max(INTERVAL, REST_RATIO × its time) to wait; with
nobody acting they neither wait nor take turns."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.rooms.pace import Pace

THINK = 0.05


async def think(pace: Pace, seconds: float = THINK) -> float:
    """One unwatched decision of ``seconds``: the seconds spent waiting for the turn."""
    asked = time.monotonic()
    async with pace.unwatched():
        waited = time.monotonic() - asked
        time.sleep(seconds)  # a computer player deciding blocks the loop, as here
    return waited


async def test_a_long_decision_earns_a_rest_while_people_act() -> None:
    pace = Pace(interval=0.0, rest_ratio=4.0)
    pace.person_acted()
    await think(pace)
    assert await think(pace) >= 4.0 * THINK * 0.99


async def test_quick_decisions_are_spaced_by_the_interval() -> None:
    pace = Pace(interval=0.1, rest_ratio=4.0)
    pace.person_acted()
    began = time.monotonic()
    for _ in range(4):
        await think(pace, 0.0)
    assert time.monotonic() - began >= 3 * 0.1 * 0.99


async def test_decisions_take_turns_while_people_act() -> None:
    pace = Pace(interval=0.0, rest_ratio=0.0)
    pace.person_acted()
    inside = most = 0

    async def decide() -> None:
        nonlocal inside, most
        async with pace.unwatched():
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            inside -= 1

    await asyncio.gather(*(decide() for _ in range(5)))
    assert most == 1


async def test_no_wait_when_nobody_acts(monkeypatch: pytest.MonkeyPatch) -> None:
    pace = Pace(interval=0.1, rest_ratio=4.0)
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(seconds)

    monkeypatch.setattr("app.rooms.pace.asyncio.sleep", sleep)
    await think(pace)
    await think(pace)
    assert waits == []
    pace.person_acted()
    await think(pace)
    await think(pace)
    assert len(waits) == 1 and waits[0] > 0
