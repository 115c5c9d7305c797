"""A stake needs a buy-in that can pay it (issue 18, item 2), over a real server: a stake with a
buy-in of 0 is refused with `stake_needs_buy_in` and changes nothing; a buy-in below one point's
stake is allowed, since each payment is capped by the payer's escrow (docs/server.md, "Chips")."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.api.client import balance, call, guest, refusal
from tests.api.halls import Hall, hall


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("stakes")) as running:
        yield running


async def test_a_stake_without_a_buy_in_is_refused(http: httpx.AsyncClient) -> None:
    host = await guest(http, "Stakeholder")
    body = {"game": "standard", "seats": 2, "stake": 10, "buy_in": 0}
    answer = await call(http, "POST", "/api/rooms", host, body, 400)
    assert answer["detail"]["code"] == "stake_needs_buy_in"
    assert "1000" in answer["detail"]["message"]  # the buy-in it proposes: 100 points' worth
    assert await refusal(http, "POST", "/api/rooms", host, {**body, "stake": 1}, 400) \
        == "stake_needs_buy_in"
    assert await balance(http, host) == 1000
    assert host.id not in str(await call(http, "GET", "/api/rooms"))


async def test_any_buy_in_can_pay_a_stake(http: httpx.AsyncClient) -> None:
    host = await guest(http, "Small Buyer")
    room = await call(http, "POST", "/api/rooms", host,
                      {"game": "standard", "seats": 2, "stake": 50, "buy_in": 10})
    assert (room["stake"], room["buy_in"]) == (50, 10)
    assert await balance(http, host) == 990
    free = await call(http, "POST", "/api/rooms", host,
                      {"game": "standard", "seats": 2, "stake": 0, "buy_in": 0})
    assert free["stake"] == 0
