"""Results that say how the hand was decided and refusals that say why, in real browsers
against a real server: two people at a stacked table, on a desktop and on a 390×844 phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import api, assert_accessible, full_pack, screenshot, sign_in_as_guest, stock_for
from .test_standard_match import HAND, card, select

RESULT = "[data-testid=hand-result]"
SUMMARY = "[data-testid=result-why-summary]"
WAIT = 30_000  # a busy machine: conditions, never fixed sleeps


def seated_pair(new_page: Any, server: dict[str, Any], body: dict[str, Any], *,
                guest_locale: str = "en-US", guest_phone: bool = False) -> tuple[Any, Any]:
    """Host (seat 0, the dealer) and Guest (seat 1, who plays first) at a stacked table, both
    connected before the host starts it."""
    host = new_page()
    token = sign_in_as_guest(host, "Host")
    guest = new_page(locale=guest_locale, phone=guest_phone)
    guest_token = sign_in_as_guest(guest, "Guest")
    room_id = api(server, "POST", "/api/rooms", token, body)["id"]
    api(server, "POST", f"/api/rooms/{room_id}/join", guest_token, {})
    for page in (host, guest):
        page.goto(f"/#/room/{room_id}")
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(2, timeout=WAIT)
    host.click("[data-testid=start]")
    return host, guest


def draw_and_throw_back(page: Any, drawn: str) -> None:
    """A turn: draw ``drawn`` from the stock and discard it."""
    expect(page.locator("[data-action=draw]")).to_be_enabled(timeout=WAIT)
    page.click("[data-action=draw]")
    expect(page.locator(card(drawn))).to_have_count(1, timeout=WAIT)
    select(page, drawn)
    page.click("[data-action=discard]")
    expect(page.locator(card(drawn))).to_have_count(0, timeout=WAIT)


def stage(page: Any, *codes: str) -> None:
    """Select ``codes`` and add them as a group (the server finds they could be a meld)."""
    groups = page.locator("[data-testid=groups] .group")
    before = groups.count()
    select(page, *codes)
    page.click("[data-testid=add-group]")
    expect(groups).to_have_count(before + 1, timeout=WAIT)


# Knock (KNOCK-5..7): Host holds no meld, 54 in unmelded cards. Guest takes the upcard Q♠ and
# knocks with the 10♦: no meld either, 55. Host undercuts Guest: 1 + the knocker's 10.
KNOCK_HOST = ["AH", "2C", "3S", "4H", "5D", "6S", "7C", "8H", "9D", "9S"]
KNOCK_GUEST = ["AC", "2D", "3H", "4S", "5C", "6D", "7H", "8S", "9C", "TD"]
KNOCK_DEAL = {"hands": [KNOCK_HOST, KNOCK_GUEST], "discard": ["QS"],
              "stock": stock_for(full_pack(), [KNOCK_HOST, KNOCK_GUEST], ["QS"], [])}


def test_a_knock_undercut_shows_both_counts_and_a_disabled_discard_says_why_on_a_tap(
        new_page: Any, server: dict[str, Any]) -> None:
    host, guest = seated_pair(new_page, server, {"game": "knock", "seats": 2,
                                                 "deals": [KNOCK_DEAL]}, guest_phone=True)
    take = guest.locator("[data-action=draw-discard]")
    expect(take).to_be_enabled(timeout=WAIT)
    take.tap()
    expect(guest.locator(HAND)).to_have_count(11, timeout=WAIT)

    # GEN-8 on a phone: the Q♠ just taken cannot go back; a tap on Discard says so.
    guest.locator(card("QS")).tap()
    discard = guest.locator("[data-action=discard]")
    why = guest.locator("[data-testid=why-discard]")
    expect(discard).to_have_attribute("aria-disabled", "true")
    expect(why).to_be_hidden()
    discard.tap(force=True)  # an aria-disabled button still takes the tap that asks why
    expect(why).to_be_visible()
    expect(why).to_have_text("You cannot throw back the card you took from the pile this turn.")
    expect(guest.locator(HAND)).to_have_count(11)  # and nothing was sent
    guest.locator(card("QS")).tap()
    guest.locator(card("TD")).tap()
    expect(why).to_have_count(0)  # the 10♦ may go: no reason left
    guest.locator("[data-action=knock]").tap()

    for page in (host, guest):
        expect(page.locator(RESULT)).to_be_visible(timeout=WAIT)
        expect(page.locator(SUMMARY)).to_have_text(
            "Host undercut Guest: 54 against 55. The undercut knocker pays 10.")
        expect(page.locator("[data-testid=result-why-0]")).to_have_text(
            "Host: 54 in unmelded cards")
        expect(page.locator("[data-testid=result-why-1]")).to_have_text(
            "Guest: 55 in unmelded cards (knocked)")
        expect(page.locator("[data-testid=result-score-0]")).to_have_text("+11")
        expect(page.locator("[data-testid=result-score-1]")).to_have_text("-10")
    assert_accessible(host)
    assert_accessible(guest)
    screenshot(host, "knock-result.png")
    screenshot(guest, "phone-knock-result.png")


# Phỏm (PHOM-11): both draw and throw back for three rounds; in the fourth Guest shows
# J♠ Q♠ K♠ and 8♣ 8♦ 8♥ keeping A♦ 2♥ 4♠ (7), Host shows 5♣ 6♣ 7♣ and 9♦ 9♥ 9♠ keeping
# A♣ 2♦ 3♥ (6): Host wins, Guest (2nd) pays 1.
PHOM_HOST = ["5C", "6C", "7C", "9D", "9H", "9S", "AC", "2D", "3H"]
PHOM_GUEST = ["JS", "QS", "KS", "8C", "8D", "8H", "AD", "2H", "4S", "QD"]
PHOM_TOP = ["KC", "QH", "TC", "4D", "7S", "JD", "6H"]
PHOM_DEAL = {"hands": [PHOM_HOST, PHOM_GUEST], "discard": [],
             "stock": stock_for(full_pack(), [PHOM_HOST, PHOM_GUEST], [], PHOM_TOP)}


def test_a_phom_showdown_shows_each_total_and_place(new_page: Any,
                                                    server: dict[str, Any]) -> None:
    host, guest = seated_pair(new_page, server, {"game": "phom", "seats": 2,
                                                 "deals": [PHOM_DEAL]})
    expect(guest.locator("[data-action=discard]")).to_be_visible(timeout=WAIT)
    select(guest, "QD")  # PHOM-3: the opening is a discard
    guest.click("[data-action=discard]")
    draw_and_throw_back(host, "KC")
    draw_and_throw_back(guest, "QH")
    draw_and_throw_back(host, "TC")
    draw_and_throw_back(guest, "4D")
    draw_and_throw_back(host, "7S")
    for page, melds, drawn in ((guest, (["JS", "QS", "KS"], ["8C", "8D", "8H"]), "JD"),
                               (host, (["5C", "6C", "7C"], ["9D", "9H", "9S"]), "6H")):
        expect(page.locator("[data-action=draw]")).to_be_enabled(timeout=WAIT)
        page.click("[data-action=draw]")  # PHOM-9: the fourth turn shows every meld
        stage(page, *melds[0])
        select(page, *melds[1])
        page.click("[data-action=show]")
        expect(page.locator("[data-testid=melds] .meld")).to_have_count(
            2 if page is guest else 4, timeout=WAIT)
        select(page, drawn)
        page.click("[data-action=discard]")

    for page in (host, guest):
        expect(page.locator(RESULT)).to_be_visible(timeout=WAIT)
        expect(page.locator(SUMMARY)).to_have_text(
            "Host has the lowest total of unmelded cards: 6 against 7.")
        expect(page.locator("[data-testid=result-why-0]")).to_have_text(
            "Host: 6 points, place 1")
        expect(page.locator("[data-testid=result-why-1]")).to_have_text(
            "Guest: 7 points, place 2: pays 1")
        expect(page.locator("[data-testid=result-score-0]")).to_have_text("+1")
    assert_accessible(host)


# Kaluki: Guest may take the upcard K♥ (K♣ K♦ K♥ + Q♣ Q♥ Q♠ is worth 60, KALUKI-6) and holds
# three twos, three fives, the 3♥ and odd cards. Host holds nothing that opens.
KALUKI_GUEST = ["KC", "KD", "QC", "QH", "QS", "5C", "5D", "5S", "2C", "2D", "2H", "3H", "7D",
                "9S", "JC"]
KALUKI_HOST = ["2S", "4C", "6C", "8C", "TC", "4D", "6D", "8D", "TD", "3C", "5H", "7H", "9H", "AS",
               "JH"]
KALUKI_DEAL = {"hands": [KALUKI_HOST, KALUKI_GUEST], "discard": ["KH"],
               "stock": stock_for(full_pack(2, 4), [KALUKI_HOST, KALUKI_GUEST], ["KH"], [])}


def test_refusals_and_disabled_actions_say_why_in_spanish(new_page: Any,
                                                          server: dict[str, Any]) -> None:
    _, page = seated_pair(new_page, server, {"game": "kaluki", "seats": 2,
                                             "deals": [KALUKI_DEAL]}, guest_locale="es-ES")
    take = page.locator("[data-action=draw-discard]")
    expect(take).to_be_enabled(timeout=WAIT)
    take.click()
    expect(page.locator(HAND)).to_have_count(16, timeout=WAIT)

    # Meld with two cards: the reason on hover. Discard before opening: the reason on focus.
    select(page, "2C", "2D")
    meld = page.locator("[data-action=meld]")
    expect(meld).to_have_attribute("aria-disabled", "true")
    expect(page.locator("[data-testid=why-meld]")).to_be_hidden()
    meld.hover()
    expect(page.locator("[data-testid=why-meld]")).to_be_visible()
    expect(page.locator("[data-testid=why-meld]")).to_have_text(
        "Una combinación necesita al menos tres cartas.")
    select(page, "2D")
    page.locator("[data-action=discard]").focus()
    why_discard = page.locator("[data-testid=why-discard]")
    expect(why_discard).to_be_visible()
    expect(why_discard).to_have_text(
        "Tu primera bajada debe usar el Rey de corazones que tomaste del descarte.")

    # KALUKI-6 before KALUKI-5: the set of twos leaves out the King taken, whatever its points.
    select(page, "2D", "2H")
    meld.click()
    expect(page.locator(".toast", has_text="Tu primera bajada debe usar el Rey de corazones que "
                                           "tomaste del descarte.")).to_be_visible(timeout=WAIT)
    select(page, "2C", "2D", "2H")  # deselected

    # Add group stages only a group that could be a meld: 7♦ 9♠ J♣ is none.
    select(page, "7D", "9S", "JC")
    page.click("[data-testid=add-group]")
    expect(page.locator(".toast", has_text="Estas cartas no pueden formar una combinación.")
           ).to_be_visible(timeout=WAIT)
    expect(page.locator("[data-testid=groups]")).to_have_count(0)
    meld.click()  # still selected: Meld sends them, and the refusal names them (GEN-3)
    expect(page.locator(".toast", has_text="7♦ 9♠ J♣ no es una combinación válida.")
           ).to_be_visible(timeout=WAIT)
    select(page, "7D", "9S", "JC")

    stage(page, "KC", "KD", "KH")
    stage(page, "QC", "QH", "QS")
    select(page, "5C", "5D", "5S")
    meld.click()
    expect(page.locator("[data-testid=melds] .meld")).to_have_count(3, timeout=WAIT)

    # GEN-10: the 3♥ on the set of fives names the meld and the card.
    select(page, "3H")
    page.click("[data-testid=meld-2]")
    expect(page.locator(".toast", has_text=re.compile(
        r"^El Tres de corazones no encaja en la combinación 3 \(5. 5. 5.\)\.$"))
           ).to_be_visible(timeout=WAIT)
    expect(page.locator(card("3H"))).to_have_count(1)
    assert_accessible(page)


# Standard (STD-13): Guest draws Q♠, melds 3♣..9♣ and K♣ K♦ K♠ and goes out with the Q♠;
# Host is left holding 59 points.
STD_HOST = ["AS", "2S", "3H", "4H", "6D", "8D", "TD", "JS", "QH", "5S"]
STD_GUEST = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "KC", "KD", "KS"]
STD_DEAL = {"hands": [STD_HOST, STD_GUEST], "discard": ["2H"],
            "stock": stock_for(full_pack(), [STD_HOST, STD_GUEST], ["2H"], ["QS"])}


def test_going_out_shows_what_each_loser_owed(new_page: Any, server: dict[str, Any]) -> None:
    host, guest = seated_pair(new_page, server, {"game": "standard", "seats": 2,
                                                 "deals": [STD_DEAL]})
    expect(guest.locator("[data-action=draw]")).to_be_enabled(timeout=WAIT)
    guest.click("[data-action=draw]")
    expect(guest.locator(card("QS"))).to_have_count(1, timeout=WAIT)
    stage(guest, "3C", "4C", "5C", "6C", "7C", "8C", "9C")
    select(guest, "KC", "KD", "KS")
    guest.click("[data-action=meld]")
    expect(guest.locator(HAND)).to_have_count(1, timeout=WAIT)
    select(guest, "QS")
    guest.click("[data-action=discard]")
    for page in (host, guest):
        expect(page.locator(RESULT)).to_be_visible(timeout=WAIT)
        expect(page.locator(SUMMARY)).to_have_text(
            "Guest went out and scores the cards left in the other hands.")
        expect(page.locator("[data-testid=result-why-0]")).to_have_text(
            "Host: 59 points left in hand")
        expect(page.locator("[data-testid=result-why-1]")).to_have_count(0)  # the winner
        expect(page.locator("[data-testid=result-score-1]")).to_have_text("+59")


# Continental (CONT-6, CONT-7): Guest goes out before drawing with five runs of three, one
# with a joker (4♣ JK 6♣): each other player pays 1 for the win and 2 for the joker.
CONT_GUEST = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "TS", "JS", "QS", "4C", "JK",
              "6C"]
CONT_HOST = ["AD", "3D", "5H", "7S", "9C", "JD", "KH", "2S", "4H", "6S", "8C", "TD", "QH", "AS",
             "3S"]
CONT_DEAL = {"hands": [CONT_HOST, CONT_GUEST], "discard": ["KC"],
             "stock": stock_for(full_pack(2, 2), [CONT_HOST, CONT_GUEST], ["KC"], [])}


def test_a_continental_payment_is_itemised(new_page: Any, server: dict[str, Any]) -> None:
    host, guest = seated_pair(new_page, server, {"game": "continental", "seats": 2,
                                                 "deals": [CONT_DEAL]})
    expect(guest.locator("[data-action=declare]")).to_be_visible(timeout=WAIT)
    for run in (["AC", "2C", "3C"], ["4D", "5D", "6D"], ["7H", "8H", "9H"], ["TS", "JS", "QS"],
                ["4C", "JK", "6C"]):
        stage(guest, *run)
    guest.click("[data-action=declare]")
    for page in (host, guest):
        expect(page.locator(RESULT)).to_be_visible(timeout=WAIT)
        expect(page.locator(SUMMARY)).to_have_text(
            "Guest went out: each other player pays 3 (going out 1 + jokers 2).")
        expect(page.locator("[data-testid=result-why-0]")).to_have_text("Host pays 3")
        expect(page.locator("[data-testid=result-score-0]")).to_have_text("-3")
