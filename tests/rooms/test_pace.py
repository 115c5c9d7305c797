"""The pace of unwatched computer play (app/rooms/pace.py): while people act, unwatched turns
take turns, each leaving the next max(INTERVAL, REST_RATIO × its time) to wait, and each waits
for a moment no person's action is being handled (at most YIELD_LIMIT); with nobody acting they
neither wait nor take turns."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.rooms.pace import Pace

THINK = 0.05


def acted(pace: Pace) -> None:
    """A person's action, handled and done."""
    with pace.person():
        pass


async def think(pace: Pace, seconds: float = THINK) -> float:
    """One unwatched decision of ``seconds``: the seconds spent waiting for the turn."""
    asked = time.monotonic()
    async with pace.unwatched():
        waited = time.monotonic() - asked
        time.sleep(seconds)  # a computer player deciding blocks the loop, as here
    return waited


async def test_a_long_decision_earns_a_rest_while_people_act() -> None:
    pace = Pace(interval=0.0, rest_ratio=4.0)
    acted(pace)
    await think(pace)
    assert await think(pace) >= 4.0 * THINK * 0.99


async def test_quick_decisions_are_spaced_by_the_interval() -> None:
    pace = Pace(interval=0.1, rest_ratio=4.0)
    acted(pace)
    began = time.monotonic()
    for _ in range(4):
        await think(pace, 0.0)
    assert time.monotonic() - began >= 3 * 0.1 * 0.99


async def test_decisions_take_turns_while_people_act() -> None:
    pace = Pace(interval=0.0, rest_ratio=0.0)
    acted(pace)
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
    acted(pace)
    await think(pace)
    await think(pace)
    assert len(waits) == 1 and waits[0] > 0


async def test_an_unwatched_turn_waits_while_a_person_is_handled() -> None:
    pace = Pace(interval=0.0, rest_ratio=0.0, yield_limit=30.0)
    handled = asyncio.Event()
    order: list[str] = []

    async def person() -> None:
        with pace.person():
            handled.set()
            await asyncio.sleep(0.05)  # its commit, say
            order.append("person")

    task = asyncio.create_task(person())
    await handled.wait()
    async with pace.unwatched():
        order.append("computer")
    await task
    assert order == ["person", "computer"]


async def test_people_without_a_gap_hold_an_unwatched_turn_back_only_so_long() -> None:
    pace = Pace(interval=0.0, rest_ratio=0.0, yield_limit=0.1)
    with pace.person():  # people acting without a gap
        asked = time.monotonic()
        async with pace.unwatched():
            waited = time.monotonic() - asked
    assert 0.1 * 0.99 <= waited < 10.0
