"""The table in one screen (issue 18): on a phone (390×844, touch) at 2 and 4 players every part
of the table is in view without scrolling, the header is one row with a menu, six players sit as
compact seats with their last move beside them; on 1366×768 and 1280×800 every action is in view
with a group staged; the toast never covers the actions."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import PHONE, assert_accessible, full_pack, screenshot, stock_for
from .test_phone import targets_big_enough

HAND = "[data-testid=hand] button.card"
WAIT = 30_000  # ms: what a busy machine may take for the server's answer to show
# The player's hands per table size: 2♣ 3♣ 4♣ is the group staged, 7♦ 7♥ 7♠ a set to meld.
MINE = {2: ["2C", "3C", "4C", "7D", "7H", "7S", "9S", "TS", "JS", "QS"],
        4: ["2C", "3C", "4C", "7D", "7H", "7S", "KH"],
        6: ["2C", "3C", "4C", "7D", "7H", "KH"]}
TABLE_PARTS = ["[data-testid^=seat-]", "[data-testid=stock]", "[data-testid=discard]",
               "[data-testid=melds]", HAND, ".actions button"]


def unmeldable_hands(pack: list[str], count: int, size: int) -> list[list[str]]:
    """`count` hands of `size` from `pack` that hold no meld and none one card away (no two
    cards of a rank, no two of a suit within two ranks): the computer players cannot go out
    before the player's turn, so the table is as dealt plus their draws and discards."""
    ranks = "A23456789TJQK"
    hands: list[list[str]] = [[] for _ in range(count)]
    for c in pack:
        for hand in hands:
            clash = any(h[0] == c[0] or (
                h[1] == c[1] and abs(ranks.index(h[0]) - ranks.index(c[0])) <= 2) for h in hand)
            if len(hand) < size and not clash:
                hand.append(c)
                break
    assert all(len(h) == size for h in hands), hands
    return hands


def deal_for(players: int) -> dict[str, Any]:
    """Seat 0 (the player, the dealer) gets MINE; the computer players play first."""
    mine = MINE[players]
    rest = [c for c in full_pack() if c not in mine and c not in ("KC", "KD", "9H", "5S")]
    bots = unmeldable_hands(rest, players - 1, len(mine))
    hands = [mine, *bots]
    upcard = ["KC"]
    return {"hands": hands, "discard": upcard,
            "stock": stock_for(full_pack(), hands, upcard, ["KD", "9H", "5S"])}


def at_table(server: dict[str, Any], page: Any, name: str, players: int) -> None:
    """A guest (its token put in the page's storage) at a started room of `players` seats, the
    others computer players; waits for the player's turn."""
    def call(path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.post(server["base_url"] + path, json=body, headers=headers, timeout=20,
                       trust_env=False)
        assert r.is_success, r.text
        return r.json()

    guest = call("/api/auth/guest", body={"name": name})
    token = guest["token"]
    room = call("/api/rooms", token, {"game": "standard", "seats": players,
                                      "deals": [deal_for(players)]})
    call(f"/api/rooms/{room['id']}/bots", token, {"count": players - 1})
    call(f"/api/rooms/{room['id']}/start", token)
    page.context.add_init_script(
        f"localStorage.setItem('rummy.token', {json.dumps(token)});"
        f"localStorage.setItem('rummy.player', {json.dumps(json.dumps(guest['player']))});")
    page.goto(f"/#/room/{room['id']}")
    expect(page.locator(HAND)).to_have_count(len(MINE[players]), timeout=WAIT)
    expect(page.locator("[data-action=draw]")).to_be_enabled(timeout=WAIT)


# Layout shifts not caused by the player's own input, summed from the page's start (the CLS
# of the visit so far, unwindowed: stricter than Lighthouse's).
WATCH_SHIFTS = """window.__shifts = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value;
}).observe({ type: 'layout-shift', buffered: true });"""


def card(code: str) -> str:
    return f'[data-testid=hand] button[data-card="{code}"]'


def all_in_view(page: Any, selectors: list[str]) -> None:
    """Every match of every selector lies inside the window scrolled to the top (nothing to
    scroll to: the page's scroll is only for the panels below the table)."""
    size = page.viewport_size
    page.evaluate("window.scrollTo(0, 0)")
    for selector in selectors:
        boxes = [el.bounding_box() for el in page.locator(selector).all()]
        assert boxes, f"nothing matches {selector}"
        for box in boxes:
            assert box is not None, selector
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box)


def hand_clear_of_melds(page: Any) -> None:
    """The pinned hand (with its actions) covers no part of the melds' area."""
    melds = page.locator("[data-testid=melds]").bounding_box()
    hand = page.locator(".me").bounding_box()
    assert melds is not None and hand is not None
    assert not boxes_overlap(melds, hand), (melds, hand)


def stage_a_group(page: Any) -> None:
    """Draw, stage 2♣ 3♣ 4♣ as a group and select 7♦ 7♥ 7♠: Meld, Add group, Clear groups and
    Clear selection all show."""
    held = page.locator(HAND).count()
    page.locator("[data-action=draw]").click()
    expect(page.locator(HAND)).to_have_count(held + 1, timeout=WAIT)
    expect(page.locator("[data-action=discard]")).to_be_visible(timeout=WAIT)
    for code in ["2C", "3C", "4C"]:
        page.locator(card(code)).click()
    page.locator("[data-testid=add-group]").click()
    expect(page.locator("[data-testid=groups] .group")).to_have_count(1)
    for code in ["7D", "7H", "7S"]:
        page.locator(card(code)).click()
    expect(page.locator("[data-action=meld]")).to_be_enabled()


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_the_whole_table_in_one_phone_screen_at_two_players(new_page: Any,
                                                            server: dict[str, Any]) -> None:
    page = new_page(phone=True)
    at_table(server, page, "Pocket", 2)
    header = page.locator(".topbar").bounding_box()
    assert header is not None and header["height"] <= 60, header  # one row
    all_in_view(page, TABLE_PARTS)
    targets_big_enough(page)
    assert_accessible(page)

    # The menu holds the navigation and the language: a disclosure button, keyboard and focus.
    menu = page.locator("[data-testid=menu]")
    expect(page.locator("[data-testid=nav-history]")).to_be_hidden()
    expect(menu).to_have_attribute("aria-expanded", "false")
    menu.tap()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.locator("[data-testid=nav-history]")).to_be_visible()
    expect(page.locator("[data-testid=lang]")).to_be_visible()
    expect(page.locator("#header-menu a").first).to_be_focused()
    assert_accessible(page)
    targets_big_enough(page)
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(page.locator("[data-testid=lang]")).to_be_hidden()
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=nav-account]")).to_be_visible()
    melds = page.locator("[data-testid=melds]").bounding_box()
    assert melds is not None
    page.locator("[data-testid=melds]").tap(position={"x": 8, "y": melds["height"] - 8})
    # ^ a tap outside (below the open menu) closes it
    expect(menu).to_have_attribute("aria-expanded", "false")

    # After the draw, with a group staged and a meld selected, all still in one screen.
    stage_a_group(page)
    all_in_view(page, [*TABLE_PARTS, "[data-testid=groups]"])
    hand_clear_of_melds(page)

    # A refusal's toast does not cover the actions: 7♦ 7♥ and 9♠ are no meld.
    page.locator(card("7S")).tap()
    page.locator(card("9S")).tap()
    page.locator("[data-action=meld]").tap()
    toast = page.locator(".toast-error")
    expect(toast).to_have_text("7♦ 7♥ 9♠ is not a valid meld.", timeout=WAIT)
    toast_box = toast.bounding_box()
    assert toast_box is not None
    for button in page.locator(".actions button, [data-testid=hand]").all():
        box = button.bounding_box()
        assert box is not None and not boxes_overlap(toast_box, box), (toast_box, box)


def test_the_whole_table_in_one_phone_screen_at_four_players(new_page: Any,
                                                             server: dict[str, Any]) -> None:
    page = new_page(phone=True)
    at_table(server, page, "Quad", 4)
    expect(page.locator("[data-testid^=seat-]")).to_have_count(3)
    all_in_view(page, TABLE_PARTS)
    stage_a_group(page)
    all_in_view(page, [*TABLE_PARTS, "[data-testid=groups]"])
    assert_accessible(page)
    screenshot(page, "phone-table-four.png")


def test_six_players_sit_as_compact_seats_with_their_last_move(new_page: Any,
                                                               server: dict[str, Any]) -> None:
    page = new_page(phone=True)
    page.context.add_init_script(WATCH_SHIFTS)
    at_table(server, page, "Sixer", 6)
    seats = page.locator("[data-testid^=seat-]")
    expect(seats).to_have_count(5)
    # Three to a row: none is a full-width box, and the five take two short rows.
    for box in [s.bounding_box() for s in seats.all()]:
        assert box is not None and box["width"] < PHONE["width"] / 2 and box["height"] <= 80, box
    opponents = page.locator(".opponents").bounding_box()
    assert opponents is not None and opponents["height"] <= 170, opponents
    all_in_view(page, TABLE_PARTS)
    hand_clear_of_melds(page)
    # Each computer player drew and discarded before the player's turn: the last move beside
    # each seat says what it threw, as the log does.
    log = page.locator("[data-testid=event-log]")
    for seat in range(1, 6):
        last = page.locator(f"[data-testid=seat-{seat}] [data-testid=last-move-{seat}]")
        expect(last).to_have_text(re.compile(r"^discarded (10|[2-9AJQK])[♣♦♥♠]$"), timeout=WAIT)
        name = page.locator(f"[data-testid=seat-{seat}] .seat-name").inner_text()
        expect(log).to_contain_text(f"{name} {last.inner_text()}", timeout=WAIT)
    # Five computer players' moves arrived and the page did not jump (CLS < 0.1).
    assert page.evaluate("window.__shifts") < 0.1
    assert_accessible(page)


def desktop_actions_in_view(new_page: Any, server: dict[str, Any], size: dict[str, int]) -> None:
    page = new_page()
    page.set_viewport_size(size)
    at_table(server, page, "Wide", 2)
    all_in_view(page, TABLE_PARTS)
    stage_a_group(page)
    all_in_view(page, [*TABLE_PARTS, "[data-testid=groups]", ".hints",
                       "[data-testid=add-group]", "[data-action=meld]", "[data-action=discard]"])
    expect(page.locator("[data-testid=menu]")).to_be_hidden()  # the header has room for it all
    # A refusal's toast does not cover the actions on a desktop either.
    page.locator(card("7S")).click()
    page.locator(card("9S")).click()
    page.locator("[data-action=meld]").click()
    toast = page.locator(".toast-error")
    expect(toast).to_be_visible(timeout=WAIT)
    toast_box = toast.bounding_box()
    actions = page.locator(".actions").bounding_box()
    assert toast_box is not None and actions is not None
    assert not boxes_overlap(toast_box, actions), (toast_box, actions)


def test_every_action_in_view_at_1366_by_768(new_page: Any, server: dict[str, Any]) -> None:
    desktop_actions_in_view(new_page, server, {"width": 1366, "height": 768})


def test_every_action_in_view_at_1280_by_800(new_page: Any, server: dict[str, Any]) -> None:
    desktop_actions_in_view(new_page, server, {"width": 1280, "height": 800})
