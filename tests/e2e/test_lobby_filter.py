"""The lobby's filters (issue 22, docs/server.md "The lobby"): a player narrows the open rooms by
game, players, stake and turn timer; the rooms shown are the server's answer for those values,
and a filter nothing matches says so. On a phone too."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import api, assert_accessible, assert_fits, sign_in_as_guest


def _row(page: Any, room_id: str) -> Any:
    return page.locator(f"[data-testid=rooms] tr[data-room='{room_id}']")


def test_the_lobby_filters_rooms_by_game_players_stake_and_timer(
        new_page: Any, server: dict[str, Any]) -> None:
    host = api(server, "POST", "/api/auth/guest", body={"name": "Filter Host"})["token"]
    knock = api(server, "POST", "/api/rooms", host, {"game": "knock", "seats": 2})["id"]
    timed = api(server, "POST", "/api/rooms", host,
                {"game": "standard", "seats": 3, "stake": 2, "buy_in": 200,
                 "turn_seconds": 45})["id"]
    page = new_page(phone=True)
    sign_in_as_guest(page, "Picky")
    for room_id in (knock, timed):
        expect(_row(page, room_id)).to_have_count(1)
    assert_fits(page)

    page.select_option("select[name=filter_game]", "knock")
    expect(_row(page, timed)).to_have_count(0)
    expect(_row(page, knock)).to_have_count(1)

    page.select_option("select[name=filter_game]", "")
    page.select_option("select[name=filter_seats]", "3")
    page.fill("input[name=filter_stake]", "2")
    page.fill("input[name=filter_turn_seconds]", "45")
    page.locator("input[name=filter_turn_seconds]").press("Tab")  # a number counts when left
    expect(_row(page, knock)).to_have_count(0)
    expect(_row(page, timed)).to_have_count(1)
    assert_accessible(page)

    page.fill("input[name=filter_turn_seconds]", "30")
    page.locator("input[name=filter_turn_seconds]").press("Tab")
    expect(page.locator("[data-testid=rooms-empty]")).to_have_text(
        "No open rooms match these filters.")
