"""A stake moves chips only with a buy-in (issue 18, item 2), on a desktop and a 390×844 touch
phone: the host form explains a stake with no buy-in and proposes one, the server refuses the
combination if the host submits it anyway, and the waiting room and the table say what the
player can lose and win."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import assert_accessible, sign_in_as_guest

WAIT = 30_000


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_stake_without_a_buy_in_is_explained_refused_and_mended(
        new_page: Any, phone: bool) -> None:
    page = new_page(phone=phone)
    sign_in_as_guest(page, "Stake Setter")
    page.goto("/#/host")
    page.click(".game-card:has(input[value=standard])")
    page.fill("input[name=seats]", "3")
    page.fill("input[name=bots]", "2")
    page.fill("input[name=stake]", "10")
    advice = page.locator("[data-testid=stake-advice]")
    expect(advice).to_contain_text("A stake of 10 per point needs a buy-in")
    assert_accessible(page)

    page.click("[data-testid=create-room]")  # submitted as it is: the server refuses it
    expect(page.locator("[data-testid=host-error]")).to_contain_text(
        "A stake needs a buy-in", timeout=WAIT)
    assert "#/room/" not in page.url

    page.click("[data-testid=propose-buy-in]")  # 100 points' worth
    expect(page.locator("input[name=buy_in]")).to_have_value("1000")
    expect(advice).to_contain_text("lose at most their buy-in (1000 chips) and win at most 2000")
    page.click("[data-testid=create-room]")
    limits = page.locator("[data-testid=stake-limits]")
    expect(limits).to_have_text("You can lose at most 1000 chips and win at most 2000.",
                                timeout=WAIT)
    expect(page.locator("[data-testid=seats]")).to_contain_text("Bot 3", timeout=WAIT)
    page.click("[data-testid=start]")
    expect(page.locator("[data-testid=hand] button.card")).to_have_count(7, timeout=WAIT)  # STD-2
    expect(limits).to_have_text("You can lose at most 1000 chips and win at most 2000.")


def test_one_account_per_address_follows_the_stake_until_the_host_chooses(
        new_page: Any) -> None:
    """Issue 24's prevention: on by default for a staked room, and the host's to turn off."""
    page = new_page()
    sign_in_as_guest(page, "Address Host")
    page.goto("/#/host")
    page.click(".game-card:has(input[value=standard])")
    box = page.locator("input[name=one_per_address]")
    expect(box).not_to_be_checked()
    page.fill("input[name=stake]", "5")
    page.fill("input[name=buy_in]", "500")
    expect(box).to_be_checked()
    box.uncheck()
    page.fill("input[name=stake]", "6")  # the host's choice stands
    expect(box).not_to_be_checked()
    with page.expect_response(lambda r: r.url.endswith("/api/rooms")
                              and r.request.method == "POST", timeout=WAIT) as made:
        page.click("[data-testid=create-room]")
    room = made.value.json()
    assert room["stake"] == 6 and room["one_per_address"] is False, room
