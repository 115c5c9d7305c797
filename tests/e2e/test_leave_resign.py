"""Leaving and resigning at the table, stand-ins shown as such, moves played for a player, and a
table nobody is at closing and leaving the lobby (docs/server.md, "Leave and resign"), in real
browsers (desktop, and a 390x844 touch phone) against a real server with a short abandonment
period."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waits import wait_until

from .conftest import api, assert_accessible, e2e_server, screenshot, sign_in_as_guest

ABANDON_SECONDS = 4
START_CHIPS = 1000
BUY_IN = 200
WAIT = 30_000  # ms: generous, the machine is shared
VIEWS = [pytest.param(False, id="desktop"), pytest.param(True, id="phone")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server of this module's own: a table nobody is at is abandoned after 4 seconds."""
    yield from e2e_server(tmp_path_factory, "e2e-leave",
                          {"RUMMY_ABANDON_SECONDS": str(ABANDON_SECONDS)})


def _table(page: Any) -> None:
    expect(page.locator("[data-testid=hand] button.card").first).to_be_visible(timeout=WAIT)


@pytest.mark.parametrize("phone", VIEWS)
def test_leave_and_resign_at_the_table_then_the_abandoned_table_closes(
        new_page: Any, server: dict[str, Any], phone: bool) -> None:
    ann, ben = new_page(phone=phone), new_page(phone=phone)
    ann_token = sign_in_as_guest(ann, "Ann")
    ben_token = sign_in_as_guest(ben, "Ben")
    room = api(server, "POST", "/api/rooms", ann_token, {
        "game": "standard", "seats": 2, "stake": 1, "buy_in": BUY_IN, "grace_seconds": 120,
        "one_per_address": False})  # both people connect from 127.0.0.1
    room_id = room["id"]
    api(server, "POST", f"/api/rooms/{room_id}/join", ben_token, {})
    ann.goto(f"/#/room/{room_id}")
    ben.goto(f"/#/room/{room_id}")
    for page in (ann, ben):
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(2)
    ann.click("[data-testid=start]")
    _table(ann)
    _table(ben)

    # Ben leaves the table: his seat stays his, and Ann sees the countdown to its stand-in.
    ben.click("[data-testid=table-leave]")
    dialog = ben.locator("[data-testid=exit-dialog]")
    expect(dialog).to_contain_text("Your seat stays yours")
    assert_accessible(ben)
    dialog.locator("[data-testid=exit-confirm]").click()
    expect(ben.locator("[data-testid=host-room]")).to_be_visible()
    expect(ann.locator("[data-testid=stand-in-countdown-1]")).to_contain_text(
        "stand-in in", timeout=WAIT)
    assert api(server, "GET", "/api/me", ben_token)["tables"] == {room_id: BUY_IN}
    expect(ben.locator(f"tr[data-room='{room_id}']")).to_contain_text("Playing", timeout=WAIT)
    ben.goto(f"/#/room/{room_id}")  # back: the countdown stops
    _table(ben)
    expect(ann.locator("[data-testid=stand-in-countdown-1]")).to_have_count(0, timeout=WAIT)

    # Ann resigns: the dialog says what becomes of the seat, the hand and her chips.
    ann.click("[data-testid=table-resign]")
    dialog = ann.locator("[data-testid=exit-dialog]")
    expect(dialog).to_contain_text("You give up the match for good")
    expect(dialog).to_contain_text(f"Your {BUY_IN} chips at the table stay with the seat")
    assert_accessible(ann)
    screenshot(ann, ("phone-" if phone else "") + "resign.png")
    dialog.locator("[data-testid=exit-confirm]").click()
    expect(ann.locator("[data-testid=host-room]")).to_be_visible()
    expect(ben.locator("[data-testid=stand-in-0]")).to_have_text("stand-in", timeout=WAIT)
    expect(ben.locator("[data-testid=seat-0]")).not_to_contain_text("computer")
    # The resigned seat's escrow stays at the table until the match ends.
    assert api(server, "GET", "/api/me", ann_token)["tables"] == {room_id: BUY_IN}

    # Ben leaves too: nobody is at the table, so it is no longer listed as playing, nothing is
    # played, and after the abandonment period the match ends and every escrow returns.
    ben.click("[data-testid=table-leave]")
    expect(ben.locator("[data-testid=exit-dialog]")).to_contain_text("Nobody else is at the table")
    ben.click("[data-testid=exit-confirm]")
    expect(ben.locator("[data-testid=host-room]")).to_be_visible()
    expect(ben.locator(f"tr[data-room='{room_id}']")).to_have_count(0, timeout=WAIT)
    wait_until(lambda: api(server, "GET", f"/api/rooms/{room_id}", ben_token)["status"] == "closed",
           "the abandoned table closed")
    for token in (ann_token, ben_token):
        me = api(server, "GET", "/api/me", token)
        assert (me["balance"], me["tables"]) == (START_CHIPS, {}), me  # the hand was void
    expect(ann.locator(f"tr[data-room='{room_id}']")).to_have_count(0, timeout=WAIT)


@pytest.mark.parametrize("phone", VIEWS)
def test_a_timed_out_move_is_labelled_as_played_for_the_player(
        new_page: Any, server: dict[str, Any], phone: bool) -> None:
    page = new_page(phone=phone)
    token = sign_in_as_guest(page, "Tia")
    room = api(server, "POST", "/api/rooms", token,
               {"game": "standard", "seats": 2, "turn_seconds": 2})
    api(server, "POST", f"/api/rooms/{room['id']}/bots", token, {"count": 1})
    page.goto(f"/#/room/{room['id']}")
    page.click("[data-testid=start]")
    _table(page)
    log = page.locator("[data-testid=event-log]")
    expect(log).to_contain_text("(played for Tia: time ran out)", timeout=WAIT)
    expect(log.locator("li", has_text="played for Tia").first).to_have_text(
        re.compile(r"^(You|Tia) (drew|discarded) \S+ \(played for Tia: time ran out\)$"))
    if phone:
        log.scroll_into_view_if_needed()
    assert_accessible(page)
