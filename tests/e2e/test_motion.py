"""Moves you can see: cards fly from where a move takes them to where they land, the seat that
moved lights up, reduced motion keeps only the light, and card sounds are a setting that is off
until the player turns it on, in real Chromium on a desktop and on a 390x844 touch phone."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import api, full_pack, sign_in_as_guest, stock_for
from .test_standard_match import card, select, wait_my_turn

# Standard Rummy, the player in seat 0 (the dealer) against a computer player in seat 1, who
# plays first. The computer's ten cards hold no set and no run, and none forms with the upcard
# or the stock's top cards, so its turns are a draw and a discard. The player takes that
# discard, melds three kings, lays the fourth off on them and discards 2D; then draws from the
# stock.
PLAYER = ["KC", "KH", "KS", "KD", "2D", "4H", "6S", "8C", "TD", "QH"]
COMPUTER = ["AC", "3D", "5H", "7S", "9C", "JD", "2H", "4S", "6C", "8D"]
UPCARD = ["TS"]
DEAL = {"hands": [PLAYER, COMPUTER], "discard": UPCARD,
        "stock": stock_for(full_pack(), [PLAYER, COMPUTER], UPCARD, ["QC", "5D", "9S", "AD"])}

# Installed before the page loads: every flying card the page adds, with its box as it starts
# (beside the box of the seat it leaves) and as it lands (beside the pile's, the first meld's
# and the hand's then), and every seat box that was lit up. It reads the DOM only,
# not the client's own record.
WATCH = """(() => {
  window.__flights = [];
  window.__lit = [];
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect(); // in the page's coordinates: a tap may scroll it
    return { left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX,
             bottom: r.bottom + scrollY };
  };
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const started = (el) => {
    window.__flights.push({ el, kind: el.dataset.motion, seat: el.dataset.seat, start: box(el),
      onScreen: onScreen(el),
      seatBox: box(document.querySelector(`[data-testid=seat-${el.dataset.seat}]`)),
      });
  };
  const landed = (el) => {
    const f = window.__flights.find((x) => x.el === el);
    if (!f) return;
    f.end = box(el);
    f.pile = box(document.querySelector('[data-testid=discard-top]'));
    f.meld = box(document.querySelector('[data-meld="0"]'));
    f.hand = box(document.querySelector('[data-testid=hand]'));
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.attributeName === 'data-acted' && r.target.hasAttribute('data-acted')) {
        window.__lit.push(r.target.dataset.testid);
      }
      if (r.attributeName === 'data-landed') landed(r.target);
      for (const n of r.addedNodes) {
        if (n.classList && n.classList.contains('motion-card')) started(n);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         attributeFilter: ['data-acted', 'data-landed'] });
})()"""

FLIGHTS = "() => window.__flights.map(({ el, ...f }) => f)"
# The client's own record of what it showed (static/motion.js), for what leaves no element.
SHOWN = ("([kind, seat]) => (window.__rummyMotion || [])"
         ".some((e) => e.kind === kind && e.seat === seat)")
LANDED = ("([kind, seat, n]) => window.__flights"
          ".filter((f) => f.kind === kind && f.seat === seat && f.end).length >= n")


def flight(page: Any, kind: str, seat: int) -> dict[str, Any]:
    """The first finished flight of `kind` from `seat` (waits for it)."""
    page.wait_for_function(LANDED, arg=[kind, str(seat), 1], timeout=30_000)
    flights = page.evaluate(FLIGHTS)
    return next(f for f in flights if f["kind"] == kind and f["seat"] == str(seat) and f.get("end"))


def centre_in(box: dict[str, float], outer: dict[str, float]) -> bool:
    x = (box["left"] + box["right"]) / 2
    y = (box["top"] + box["bottom"]) / 2
    return outer["left"] <= x <= outer["right"] and outer["top"] <= y <= outer["bottom"]


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The share of box `a` that lies inside box `b`."""
    w = max(0.0, min(a["right"], b["right"]) - max(a["left"], b["left"]))
    h = max(0.0, min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]))
    return w * h / ((a["right"] - a["left"]) * (a["bottom"] - a["top"]))


def box_of(page: Any, selector: str) -> dict[str, float]:
    """The box of what `selector` finds in the page's coordinates (as the watcher's), once it
    stands still (a selected card rises)."""
    el = page.locator(selector)
    expect(el).to_be_visible()
    page.wait_for_function("(s) => document.querySelector(s).getAnimations({ subtree: true })"
                           ".length === 0", arg=selector, timeout=30_000)
    return el.evaluate("(e) => { const r = e.getBoundingClientRect(); return {"
                       " left: r.left + scrollX, top: r.top + scrollY,"
                       " right: r.right + scrollX, bottom: r.bottom + scrollY }; }")


# Armed before a click: the box on the screen of a card of the hand as the click lands. A
# flying card is fixed on the screen and starts where its card was seen; the page may scroll
# under both (the browser keeps the hand in place on the screen as the table above it grows).
AT_CLICK = """(s) => document.addEventListener('click', () => {
  const r = document.querySelector(s).getBoundingClientRect();
  window.__atClick = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
}, { capture: true, once: true })"""


def click_from_hand(page: Any, code: str, target: str, dispatch: bool = False) -> dict[str, float]:
    """Click `target` with card `code` of the hand selected; the card's box on the screen as
    the click landed."""
    box_of(page, card(code))  # once it stands still
    page.evaluate(AT_CLICK, card(code))
    if dispatch:  # the pinned hand may cover a meld
        page.locator(target).dispatch_event("click")
    else:
        page.click(target)
    box: dict[str, float] = page.evaluate("window.__atClick")
    return box


def table_waiting_for_start(new_page: Any, server: dict[str, Any], name: str,
                            phone: bool = False, reduced: bool = False) -> tuple[Any, str, str]:
    """A page watching for flights, seated in a hosted room with the computer player, connected
    before the deal (a connection's first state shows no moves: it is the room's past)."""
    page = new_page(phone=phone)
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    page.add_init_script(WATCH)
    token = sign_in_as_guest(page, name)
    room = api(server, "POST", "/api/rooms", token,
               {"game": "standard", "seats": 2, "deals": [DEAL]})
    api(server, "POST", f"/api/rooms/{room['id']}/bots", token, {"count": 1})
    page.goto(f"/#/room/{room['id']}")
    expect(page.locator("[data-testid=seats]")).to_be_visible()
    return page, token, str(room["id"])


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_moves_fly_to_where_they_land(new_page: Any, server: dict[str, Any], phone: bool) -> None:
    page, token, room_id = table_waiting_for_start(new_page, server, "Watcher", phone=phone)
    api(server, "POST", f"/api/rooms/{room_id}/start", token)

    # The computer's discard leaves its seat's box and lands on the discard pile; its seat is
    # lit up as it moves.
    thrown = flight(page, "discard", 1)
    assert centre_in(thrown["start"], thrown["seatBox"]), thrown
    assert overlap(thrown["end"], thrown["pile"]) > 0.9, thrown
    assert "seat-1" in page.evaluate("window.__lit")
    stocked = flight(page, "draw", 1)  # its draw came from the stock to the same seat
    assert centre_in(stocked["end"], stocked["seatBox"]), stocked

    # The player's own moves: the computer's discard from the pile into the hand, the kings
    # onto the table, the fourth king onto them, the discard from the hand onto the pile.
    wait_my_turn(page)
    pile = box_of(page, "[data-testid=discard-top]")
    page.click("[data-action=draw-discard]")
    taken = flight(page, "take", 0)
    assert overlap(taken["start"], pile) > 0.9, taken
    assert overlap(taken["end"], taken["hand"]) > 0.5, taken
    select(page, "KC", "KH", "KS")
    king = click_from_hand(page, "KC", "[data-action=meld]")
    melded = flight(page, "meld", 0)
    assert overlap(melded["onScreen"], king) > 0.9, melded  # from the first king's place
    assert centre_in(melded["end"], melded["meld"]), melded
    select(page, "KD")
    king = click_from_hand(page, "KD", "[data-testid=meld-0]", dispatch=True)
    laid = flight(page, "lay_off", 0)
    assert overlap(laid["onScreen"], king) > 0.9, laid
    assert centre_in(laid["end"], laid["meld"]), laid
    select(page, "2D")
    two = click_from_hand(page, "2D", "[data-action=discard]")
    own = flight(page, "discard", 0)
    assert overlap(own["onScreen"], two) > 0.9, own
    assert overlap(own["end"], own["pile"]) > 0.9, own

    # The stock's card into the hand; once it is down no flying card is left, and the card it
    # covered while it flew shows.
    page.wait_for_function(LANDED, arg=["discard", "1", 2], timeout=30_000)
    wait_my_turn(page)
    page.click("[data-action=draw]")
    drawn = flight(page, "draw", 0)
    assert overlap(drawn["end"], drawn["hand"]) > 0.5, drawn
    expect(page.locator(".motion-card")).to_have_count(0)
    expect(page.locator("[data-motion-landing]")).to_have_count(0)


def test_reduced_motion_lights_the_seat_without_flying(new_page: Any,
                                                      server: dict[str, Any]) -> None:
    page, token, room_id = table_waiting_for_start(new_page, server, "Still", reduced=True)
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    api(server, "POST", f"/api/rooms/{room_id}/start", token)
    page.wait_for_function(SHOWN, arg=["discard", 1], timeout=30_000)
    wait_my_turn(page)
    page.click("[data-action=draw]")
    page.wait_for_function(SHOWN, arg=["draw", 0], timeout=30_000)
    shown = page.evaluate("window.__rummyMotion")
    moves = [e for e in shown if e["kind"] in ("draw", "discard")]
    assert moves and not any(e["flew"] for e in moves), shown
    assert page.evaluate(FLIGHTS) == []
    assert "seat-1" in page.evaluate("window.__lit")


def test_card_sounds_are_off_until_turned_on_and_stay_on(new_page: Any,
                                                         server: dict[str, Any]) -> None:
    page, token, room_id = table_waiting_for_start(new_page, server, "Listener")
    api(server, "POST", f"/api/rooms/{room_id}/start", token)
    page.wait_for_function(SHOWN, arg=["discard", 1], timeout=30_000)  # in silence
    setting = page.locator("[data-testid=pref-cardSounds]")
    expect(setting).not_to_be_checked()
    shown = page.evaluate("window.__rummyMotion")
    assert not [e for e in shown if e["kind"] == "sound"], shown

    setting.check()
    page.reload()
    expect(page.locator("[data-testid=pref-cardSounds]")).to_be_checked()
    assert json.loads(page.evaluate("localStorage.getItem('rummy.prefs')"))["cardSounds"] is True
    wait_my_turn(page)
    page.click("[data-action=draw]")
    page.wait_for_function("() => window.__rummyMotion.some((e) => e.kind === 'sound'"
                           " && e.sound === 'draw' && e.played)", timeout=30_000)
