"""Play now (issue 22, docs/server.md "Quick seat") in the browser: two players, one of them on a
phone, each pick Knock Rummy for two on the lobby's Play now form, are seated at one table, and
it starts by itself when the second sits down; the second saw the first waiting there."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import assert_accessible, assert_fits, sign_in_as_guest

HAND = "[data-testid=hand] button.card"


def _play_now(page: Any) -> None:
    page.select_option("select[name=playnow_game]", "knock")
    page.select_option("select[name=playnow_seats]", "2")
    page.click("[data-testid=play-now-submit]")


def test_play_now_seats_two_strangers_at_one_table_that_starts_itself(new_page: Any) -> None:
    first, second = new_page(), new_page(phone=True)
    sign_in_as_guest(first, "Early Bird")
    sign_in_as_guest(second, "Late Comer")
    assert_accessible(first)
    assert_fits(second)

    _play_now(first)
    expect(first.locator("[data-testid=wait-line]")).to_have_text(
        "The game starts by itself when every seat is taken.")
    expect(first.locator("[data-testid=start]")).to_have_count(0)  # nobody has to press start
    room_id = first.url.split("#/room/")[1]

    second.select_option("select[name=playnow_game]", "knock")
    expect(second.locator("[data-testid=play-now-line]")).to_have_text(
        "Waiting at this table now: 1")
    expect(second.locator(f"[data-testid=rooms] tr[data-room='{room_id}'] "
                          "[data-testid=quick-badge]")).to_have_text("Quick seat")
    _play_now(second)
    for page in (first, second):
        expect(page).to_have_url(re.compile(f"#/room/{room_id}$"))
        expect(page.locator(HAND)).to_have_count(10)  # Knock deals ten: the match started
