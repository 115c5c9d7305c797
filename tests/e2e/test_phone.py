"""A phone (390×844, touch): every page fits, passes axe, and a whole hand is played by taps."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from .conftest import (
    PHONE,
    assert_accessible,
    assert_fits,
    fits_narrow,
    full_pack,
    screenshot,
    stock_for,
)
from .test_i18n import by_suit

# The player (seat 0, the dealer) holds three melds; the computer player (seat 1) plays first
# with a hand that melds nothing. Whatever the computer takes, the player draws one of the top
# stock cards (junk for both), throws it away, and on the next turn draws again, lays down the
# three melds and goes out by discarding the card drawn.
MINE = ["2C", "3C", "4C", "7D", "7H", "7S", "9S", "TS", "JS", "QS"]
BOT = ["AD", "3D", "5D", "8C", "TC", "QC", "KH", "2H", "4H", "6S"]
UPCARD = ["KC"]
DEAL = {"hands": [MINE, BOT], "discard": UPCARD,
        "stock": stock_for(full_pack(), [MINE, BOT], UPCARD, ["KD", "9H", "5S", "AH", "8D", "6C"])}
HAND = "[data-testid=hand] button.card"


def card(code: str) -> str:
    return f'[data-testid=hand] button[data-card="{code}"]'


def check(page: Any, shot: str | None = None) -> None:
    expect(page.locator("h1")).to_have_count(1)
    assert_fits(page)
    fits_narrow(page)
    targets_big_enough(page)
    assert_accessible(page)
    if shot:
        screenshot(page, shot)


def in_view(page: Any, selector: str) -> None:
    """Every match of `selector` is on screen without scrolling (and wide enough to tap)."""
    for box in [el.bounding_box() for el in page.locator(selector).all()]:
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (selector, box)


SMALL_TARGETS = """() => [...document.querySelectorAll('button, a[href], select, '
    + 'input:not([type=checkbox]):not([type=radio]), label.check, .opt-bool label')]
  .filter((el) => el.offsetParent !== null && !el.closest('.sr-only, .hand'))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width < 44 || r.height < 44)
  .map(([el, r]) => `${el.tagName} ${el.textContent.trim().slice(0, 20)} ${r.width}x${r.height}`)"""


def targets_big_enough(page: Any) -> None:
    """Every control is at least 44 px high and wide (a checkbox by its label; a hand card shows
    44 px of its width under the next one)."""
    small = page.evaluate(SMALL_TARGETS)
    assert not small, small


def focus_is_a_control(page: Any) -> None:
    """The focus is on a control (not lost to the page's body)."""
    expect(page.locator("button:focus, a:focus, h1:focus")).to_have_count(1)


def draw_and_throw_away(page: Any) -> str:
    expect(page.locator("[data-action=draw]")).to_be_enabled()
    page.locator("[data-testid=stock]").tap()
    expect(page.locator(HAND)).to_have_count(11)
    focus_is_a_control(page)  # the stock button is disabled now: focus is on the card drawn
    hand = page.locator(HAND).evaluate_all("els => els.map((e) => e.dataset.card)")
    assert hand == sorted(hand, key=by_suit), hand  # the card drawn went where the sort puts it
    drawn = [c for c in hand if c not in MINE]
    assert len(drawn) == 1, drawn
    expect(page.locator(card(drawn[0]))).to_be_focused()  # once the re-render's effect ran
    page.locator(card(drawn[0])).tap()
    return drawn[0]


def test_a_hand_played_by_taps_on_a_phone(new_page: Any) -> None:
    page = new_page(phone=True)
    page.goto("/")
    page.wait_for_selector("[data-testid=auth-submit]")
    check(page, "phone-landing.png")
    page.locator("input[name=name]").fill("Pia")
    page.locator("[data-testid=auth-submit]").tap()
    page.wait_for_selector("[data-testid=host-room]")
    expect(page.locator("[data-testid=logout]")).to_be_in_viewport()
    check(page, "phone-lobby.png")

    page.locator("[data-testid=host-room]").tap()
    page.wait_for_selector("[data-testid=host-form]")
    page.locator(".game-card:has(input[value=standard])").tap()
    check(page, "phone-host-form.png")
    page.locator("[data-testid=deals]").fill(json.dumps([DEAL]))
    page.locator("[data-testid=create-room]").tap()  # no label may be in its way
    page.wait_for_selector("[data-testid=seats]")
    check(page)
    page.locator("[data-testid=add-bots]").tap()
    page.locator("[data-testid=start]").tap()
    expect(page.locator(HAND)).to_have_count(10)
    focus_is_a_control(page)  # the Start button is gone, focus is not lost with it
    # Sorted on the deal (the default preference): by suit, clubs first.
    assert page.locator(HAND).first.get_attribute("data-card") == "2C"
    expect(page.locator("h1")).to_have_text("Standard Rummy")
    in_view(page, HAND)
    in_view(page, ".actions button")
    check(page, "phone-table.png")

    drawn = draw_and_throw_away(page)
    expect(page.locator("[data-action=meld]")).to_be_disabled()  # one card makes no meld
    page.locator(card("9S")).tap()
    page.locator(card("TS")).tap()
    expect(page.locator("[data-action=meld]")).to_be_enabled()  # three might
    page.locator(card("9S")).tap()
    page.locator(card("TS")).tap()
    page.locator("[data-action=discard]").tap()
    expect(page.locator(HAND)).to_have_count(10)
    expect(page.locator(card(drawn))).to_have_count(0)
    focus_is_a_control(page)  # Discard is disabled now: focus moved to the hand

    last = draw_and_throw_away(page)  # selected, for the last discard
    page.locator(card(last)).tap()  # unselect it again
    for group in (["2C", "3C", "4C"], ["7D", "7H", "7S"]):
        for code in group:
            page.locator(card(code)).tap()
        page.locator("[data-testid=add-group]").tap()
    for code in ["9S", "TS", "JS", "QS"]:
        page.locator(card(code)).tap()
    page.locator("[data-action=meld]").tap()
    expect(page.locator(HAND)).to_have_count(1)
    # The melds animate in, and not for those who ask for less motion. Checked while the turn
    # is still the player's: once the hand is over the next one is dealt a moment later (on a
    # busy machine, before the result is even drawn) and the table has no meld any more.
    motion = "getComputedStyle(document.querySelector('.meld')).animationName"
    assert page.evaluate(motion) == "meld-in"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(motion) == "none"
    page.locator(card(last)).tap()
    page.locator("[data-action=discard]").tap()

    result = page.locator("[data-testid=hand-result]")
    expect(result).to_contain_text("Pia wins the hand")
    expect(page.locator("[data-testid=result-close]")).to_be_focused()
    screenshot(page, "phone-result.png")
    in_view(page, ".result-table thead th")  # the Total column is not cut off
    check(page)
