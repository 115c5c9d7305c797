"""Leaving and resigning at the table, stand-ins shown as such, moves played for a player, a
table nobody is at closing and leaving the lobby, the dialog saying when nobody else is at the
table, and "Your games" offering to watch a resigned seat's table (docs/server.md, "Leave and
resign"), in real browsers (desktop, and a 390x844 touch phone; one run in Danish) against a
real server with a short abandonment period."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waits import wait_until

from .conftest import (
    api,
    assert_accessible,
    e2e_server,
    fits_narrow,
    screenshot,
    sign_in_as_guest,
)
from .test_i18n import load

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


LOOKS = [pytest.param(False, "en-US", id="desktop"), pytest.param(True, "en-US", id="phone"),
         pytest.param(False, "da-DK", id="desktop-da")]
DESKTOP = {"width": 1280, "height": 800}


def _exit_dialog(page: Any, button: str) -> Any:
    page.click(f"[data-testid={button}]")
    dialog = page.locator("[data-testid=exit-dialog]")
    expect(dialog).to_be_visible()
    return dialog


def _close(page: Any) -> None:
    """Escape closes the dialog wherever the focus is: here after a click on its heading has
    left the focus on the page's body (at a load of 14 it was still on the opener)."""
    page.click("#exit-h")
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=exit-dialog]")).to_have_count(0)


@pytest.mark.parametrize(("phone", "locale"), LOOKS)
def test_the_exit_dialog_says_when_nobody_else_is_at_the_table_and_a_resigned_seat_is_watched(
        new_page: Any, server: dict[str, Any], phone: bool, locale: str) -> None:
    """Issue 35: the dialog says that nobody else is at the table when no other person who
    plays a seat is connected (computer players, resigned seats and spectators do not count),
    and what the server then does: for Leave the match waits, for Resign it waits for the
    other people, or the stand-ins play it out when nobody else plays a seat. After resigning,
    "Your games" offers to watch the table, not to go back to a seat; a waiting room left is
    gone from it."""
    words = load(locale[:2])
    nobody = words["exit.leave_alone"].split(":")[0]  # "Nobody else is at the table"
    assert all(words[key].startswith(nobody + ":") for key in (
        "exit.resign_alone_wait", "exit.resign_alone_played_out"))
    ann, ben = new_page(locale=locale, phone=phone), new_page(locale=locale, phone=phone)
    for page in (ann, ben):
        if not phone:
            page.set_viewport_size(DESKTOP)
    ann_token, ben_token = sign_in_as_guest(ann, "Ann"), sign_in_as_guest(ben, "Ben")
    room_id = api(server, "POST", "/api/rooms", ann_token,
                  {"game": "standard", "seats": 3, "grace_seconds": 120})["id"]
    api(server, "POST", f"/api/rooms/{room_id}/join", ben_token, {})
    api(server, "POST", f"/api/rooms/{room_id}/bots", ann_token, {"count": 1})
    # Leaving a waiting room frees its seat: it is gone from "Your games".
    spare = api(server, "POST", "/api/rooms", ben_token, {"game": "knock", "seats": 2})["id"]
    ben.goto(f"/#/room/{spare}")
    ben.get_by_role("button", name=words["room.leave"], exact=True).click()
    expect(ben.locator(f"[data-testid=my-room-{room_id}]")).to_have_text(words["lobby.mine_back"])
    expect(ben.locator(f"[data-testid=my-rooms] li[data-room='{spare}']")).to_have_count(0)
    for page in (ann, ben):
        page.goto(f"/#/room/{room_id}")
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(3)
    ann.click("[data-testid=start]")
    _table(ann)
    _table(ben)

    # Ben is at the table: Ann's dialogs say nothing of an empty table.
    expect(ann.locator("[data-testid=presence-1]")).to_have_count(0)
    for button in ("table-leave", "table-resign"):
        dialog = _exit_dialog(ann, button)
        expect(dialog).not_to_contain_text(nobody)
        _close(ann)

    # Ben leaves the table (his seat stays his): with no other person connected, the match
    # waits, whether Ann leaves or resigns.
    _exit_dialog(ben, "table-leave").locator("[data-testid=exit-confirm]").click()
    expect(ben.locator("[data-testid=host-room]")).to_be_visible()
    expect(ann.locator("[data-testid=presence-1]")).to_have_class(re.compile(r"\bdisconnected\b"))
    expect(_exit_dialog(ann, "table-leave")).to_contain_text(words["exit.leave_alone"])
    _close(ann)
    expect(_exit_dialog(ann, "table-resign")).to_contain_text(words["exit.resign_alone_wait"])
    _close(ann)

    # Ben goes back to his seat from "Your games", and resigns there.
    back = ben.locator(f"[data-testid=my-room-{room_id}]")
    expect(back).to_have_text(words["lobby.mine_back"])
    back.click()
    _table(ben)
    expect(ann.locator("[data-testid=presence-1]")).to_have_count(0)
    dialog = _exit_dialog(ben, "table-resign")
    expect(dialog).not_to_contain_text(nobody)  # Ann is at the table
    dialog.locator("[data-testid=exit-confirm]").click()
    expect(ben.locator("[data-testid=host-room]")).to_be_visible()

    # "Your games" offers Ben to watch the table, not to sit down again; he watches.
    mine = ben.locator(f"[data-testid=my-rooms] li[data-room='{room_id}']")
    expect(mine).to_contain_text(words["lobby.mine_resigned"])
    watch = ben.locator(f"[data-testid=my-room-{room_id}]")
    expect(watch).to_have_text(words["watch.watch"])
    expect(mine).not_to_contain_text(words["lobby.mine_back"])
    assert_accessible(ben)
    fits_narrow(ben)
    watch.click()
    expect(ben.locator("[data-testid=stand-in-1]")).to_be_visible()
    expect(ben.locator("[data-testid=table-resign]")).to_have_count(0)  # a spectator

    # Ann is alone with computer players (Ben's seat is a stand-in's, and a spectator does not
    # count): Leave says the match waits; Resign, that the stand-ins play it out.
    expect(ann.locator("[data-testid=stand-in-1]")).to_be_visible()
    expect(_exit_dialog(ann, "table-leave")).to_contain_text(words["exit.leave_alone"])
    _close(ann)
    dialog = _exit_dialog(ann, "table-resign")
    expect(dialog).to_contain_text(words["exit.resign_alone_played_out"])
    expect(dialog).not_to_contain_text(words["exit.resign_alone_wait"])
    assert_accessible(ann)
    _close(ann)
