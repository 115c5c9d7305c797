"""Two players in two browsers play a stacked Standard Rummy hand to its end, by click and drag."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from .conftest import api, full_pack, screenshot, sign_in_as_guest, stock_for

# Alice hosts through the form (Call Rummy, target score 50, these stacked deals in the
# development field; seat 0, the dealer); Bob joins by the invite link (seat 1) and plays first.
# Bob: draws QS (by dragging the stock onto his hand), melds 2C-3C-4C, drags AD to the discard.
# Alice: takes AD, melds three kings, lays 5C off on Bob's run, discards 4S with the keyboard.
# Bob: draws 3S, melds 7-7-7 and 9S-QS as two groups, discards 3S and goes out.
# Alice is left with AD 6D 8C 9H JD QC = 1 + 6 + 8 + 9 + 10 + 10 = 44 points for Bob.
# Call Rummy is on, yet no call window opens: AD cannot go on 2C-3C-4C, nor 4S on 2C-5C or the
# kings, and Bob's last discard ends the hand (OPT-CALL-1, -8). Were a window open, the server
# would only hold the next draw for RUMMY_CALL_GRACE_SECONDS (0.1 here): each player simply waits
# for the turn (wait_my_turn) and then for the draw's effect, with the default timeout.
ALICE = ["KC", "KH", "KS", "5C", "6D", "8C", "9H", "JD", "QC", "4S"]
BOB = ["2C", "3C", "4C", "7D", "7H", "7S", "9S", "TS", "JS", "AD"]
UPCARD = ["2D"]
DEAL = {"hands": [ALICE, BOB], "discard": UPCARD,
        "stock": stock_for(full_pack(), [ALICE, BOB], UPCARD, ["QS", "3S"])}

HAND = "[data-testid=hand] button.card"


def card(code: str) -> str:
    return f'[data-testid=hand] button[data-card="{code}"]'


def select(page: Any, *codes: str) -> None:
    for code in codes:
        page.click(card(code))


def wait_my_turn(page: Any) -> None:
    expect(page.locator("[data-action=draw]")).to_be_enabled()


def host_stacked_room(page: Any, server: dict[str, Any], token: str) -> dict[str, Any]:
    """The host form: a refused combination shows the server's error, text that is not JSON in
    the development deals field is caught next to it, and the filled form opens the room."""
    page.click("[data-testid=host-room]")
    page.wait_for_selector("[data-testid=host-form]")
    page.click(".game-card:has(input[value=standard])")
    page.check("#opt-call_rummy")
    page.check("#opt-complete_rummy")
    page.click("[data-testid=create-room]")
    expect(page.locator("[data-testid=host-error]")).to_contain_text("cannot be combined")
    page.uncheck("#opt-complete_rummy")
    page.fill("#opt-target_score", "50")
    page.fill("input[name=seats]", "2")
    page.fill("[data-testid=deals]", '[{"hands": ')
    page.click("[data-testid=create-room]")
    expect(page.locator("[data-testid=deals-error]")).to_contain_text("not valid JSON")
    expect(page.locator("[data-testid=host-form]")).to_be_visible()  # nothing was sent
    page.fill("[data-testid=deals]", json.dumps([DEAL]))
    expect(page.locator("[data-testid=deals-error]")).to_be_hidden()
    screenshot(page, "host-form.png", full_page=True)
    page.click("[data-testid=create-room]")
    page.wait_for_selector("[data-testid=seats]")
    room_id = page.url.rsplit("/", 1)[-1]
    room = api(server, "GET", f"/api/rooms/{room_id}", token)
    assert room["options"] == {"call_rummy": True, "target_score": 50}
    assert room["game"] == "standard"
    assert room["seats"] == 2
    expect(page.locator(".opt-summary")).to_contain_text("Target score: 50")
    return dict(room)


def test_two_players_play_a_stacked_hand(new_page: Any, server: dict[str, Any]) -> None:
    alice = new_page()
    token = sign_in_as_guest(alice, "Alice")
    expect(alice.locator("[data-testid=balance]")).to_contain_text("chips")
    room = host_stacked_room(alice, server, token)
    invite = alice.locator("[data-testid=invite-link]")
    expect(invite).to_have_value(f"{server['base_url']}/#/join/{room['invite_code']}")

    bob = new_page()
    sign_in_as_guest(bob, "Bob")
    expect(bob.locator(f"[data-room='{room['id']}']")).to_be_visible()  # listed, live
    screenshot(bob, "lobby.png")
    bob.goto(invite.input_value())
    bob.wait_for_selector("[data-testid=seats]")
    expect(alice.locator("[data-testid=seats] li.taken")).to_have_count(2)
    alice.click("[data-testid=start]")
    expect(alice.locator(HAND)).to_have_count(10)
    # A stacked deal has no commitment, and the table says so.
    expect(alice.locator("[data-testid=stacked-deal]")).to_be_visible()
    expect(alice.locator("[data-testid=deal-commitment]")).to_have_count(0)

    # Chat reaches the other player.
    alice.fill("[data-testid=chat-input]", "good luck")
    alice.press("[data-testid=chat-input]", "Enter")
    expect(bob.locator("[data-testid=chat-list]")).to_contain_text("Alice: good luck")

    # Bob: drag the stock onto the hand, meld by click, drag a card onto the discard pile.
    wait_my_turn(bob)
    expect(alice.locator("[data-testid=turn-text]")).to_contain_text("Bob")
    bob.drag_and_drop("[data-testid=stock]", "[data-testid=hand]")
    expect(bob.locator(HAND)).to_have_count(11)
    expect(bob.locator(card("QS"))).to_be_visible()
    select(bob, "2C", "3C", "4C")
    bob.click("[data-action=meld]")
    expect(bob.locator("[data-testid=meld-0]")).to_be_visible()
    bob.drag_and_drop(card("AD"), "[data-testid=discard]")
    expect(bob.locator(HAND)).to_have_count(7)

    # A dropped connection: the banner shows, the client reconnects and gets the state again.
    bob.evaluate("window.__rummySocket.dropForTest()")
    expect(bob.locator("[data-testid=reconnecting]")).to_be_visible()
    expect(bob.locator("[data-testid=reconnecting]")).to_be_hidden()
    expect(bob.locator(HAND)).to_have_count(7)

    # Alice: reorder by drag, sort, take the discard, meld, lay off on Bob's meld, discard.
    wait_my_turn(alice)
    alice.drag_and_drop(card("QC"), f"{HAND} >> nth=0")
    expect(alice.locator(HAND).first).to_have_attribute("data-card", "QC")
    alice.click("[data-testid=sort-rank]")
    expect(alice.locator(HAND).first).to_have_attribute("data-card", "4S")
    alice.click("[data-testid=discard-top]")
    expect(alice.locator(HAND)).to_have_count(11)
    select(alice, "AD")  # GEN-8: the card just taken may not be thrown back
    expect(alice.locator("[data-action=discard]")).to_be_disabled()
    expect(alice.locator("[data-testid=discard-top]")).to_be_disabled()
    select(alice, "AD")
    select(alice, "KC", "KH", "KS")
    alice.click("[data-action=meld]")
    expect(alice.locator("[data-testid=meld-1]")).to_be_visible()
    select(alice, "5C")
    alice.click("[data-testid=meld-0]")
    expect(alice.locator("[data-meld='0'] [data-card]")).to_have_count(4)
    alice.locator(card("4S")).focus()
    alice.keyboard.press("Space")
    expect(alice.locator(card("4S"))).to_have_attribute("aria-pressed", "true")
    alice.click("[data-action=discard]")
    expect(alice.locator(HAND)).to_have_count(6)

    # Bob: draw by click, build two groups, meld them, discard the last card.
    wait_my_turn(bob)
    bob.click("[data-testid=stock]")
    expect(bob.locator(HAND)).to_have_count(8)
    select(bob, "7D", "7H", "7S")
    bob.click("[data-testid=add-group]")
    select(bob, "9S", "TS", "JS", "QS")
    bob.click("[data-action=meld]")
    expect(bob.locator("[data-testid=meld-3]")).to_be_visible()
    select(bob, "3S")
    screenshot(bob, "table.png")
    bob.click("[data-action=discard]")

    for page in (alice, bob):
        result = page.locator("[data-testid=hand-result]")
        expect(result).to_be_visible()
        expect(result).to_contain_text("Bob wins the hand")
        expect(page.locator("[data-testid=result-score-1]")).to_have_text("+44")
        expect(page.locator("[data-testid=result-score-0]")).to_have_text("0")
        expect(page.locator("[data-testid=result-row-0]")).to_contain_text("")
        expect(page.locator("[data-testid=result-row-0] [data-card]")).to_have_count(6)
    screenshot(bob, "hand-result.png")
    bob.click("[data-testid=result-close]")
    expect(bob.locator("[data-testid=total-1]")).to_have_text("44")


def test_no_stacked_deals_field_unless_the_server_allows_them(new_page: Any) -> None:
    page = new_page()
    page.route("**/api/health", lambda route: route.fulfill(
        json={"status": "ok", "dev_stacked_decks": False}))
    sign_in_as_guest(page, "Carol")
    page.click("[data-testid=host-room]")
    expect(page.locator("#opt-call_rummy")).to_be_attached()
    page.wait_for_load_state("networkidle")
    expect(page.locator("[data-testid=deals]")).to_have_count(0)
