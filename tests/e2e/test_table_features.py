"""Play again, play against the computer, watching, each game's prompts and aids, the wild-card
dialog and the chips at the table, in real browsers against a real server."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import (
    api,
    assert_accessible,
    fits_narrow,
    full_pack,
    screenshots,
    sign_in_as_guest,
    stock_for,
)
from .test_standard_match import HAND, select
from .test_standard_match import wait_my_turn as my_turn_to_draw

TURN = "[data-testid=turn-text]"


def hosted(server: dict[str, Any], token: str, body: dict[str, Any], bots: int) -> str:
    room = api(server, "POST", "/api/rooms", token, body)
    if bots:
        api(server, "POST", f"/api/rooms/{room['id']}/bots", token, {"count": bots})
    return str(room["id"])


def test_play_against_the_computer_with_knock_and_continental_prompts_and_watch(
        new_page: Any) -> None:
    alice = new_page()
    sign_in_as_guest(alice, "Solo")
    alice.click("[data-testid=play-computer-knock]")
    expect(alice.locator(HAND)).to_have_count(10)  # one click: seated, bots added, dealt
    room_id = alice.url.rsplit("/", 1)[-1]
    expect(alice.locator("[data-testid=seat-1]")).to_contain_text("Bot 2")
    expect(alice.locator("[data-testid=rules-panel] summary")).to_have_text(
        "How to play Knock Rummy")

    # Knock: draw, then "discard, or knock"; the deadwood is shown throughout.
    my_turn_to_draw(alice)
    expect(alice.locator(TURN)).to_have_text(
        "Your turn — draw from the stock or take the top discard")
    expect(alice.locator("[data-aid=deadwood]")).to_have_text(re.compile(r"^Deadwood: \d+$"))
    expect(alice.locator("[data-action=knock]")).to_have_count(0)  # not legal before drawing

    # Bob watches the running room from the lobby meanwhile.
    bob = new_page()
    sign_in_as_guest(bob, "Watcher")
    bob.click(f"[data-testid=watch-{room_id}]")
    expect(bob.locator(".me .seat-name")).to_have_text("Spectator")
    expect(bob.locator(HAND)).to_have_count(0)
    expect(bob.locator("[data-testid=aids]")).to_have_count(0)
    expect(bob.locator("[data-testid=seat-0]")).to_contain_text("Solo")
    assert_accessible(bob)  # a spectator's table
    fits_narrow(bob)

    alice.click("[data-action=draw]")
    expect(alice.locator(TURN)).to_have_text("Your turn — discard, or knock to end the hand")
    knock = alice.locator("[data-action=knock]")
    expect(knock).to_be_disabled()
    alice.locator(HAND).first.click()
    expect(knock).to_be_enabled()
    screenshots(alice, "knock-table.png")
    alice.locator(HAND).first.click()

    # Continental from the lobby: the contract, and its own prompts on the first turn.
    alice.goto("/#/")
    alice.click("[data-testid=play-computer-continental]")
    expect(alice.locator(HAND)).to_have_count(15)
    my_turn_to_draw(alice)
    expect(alice.locator("[data-aid=contract]")).to_have_text(
        "Contract: 5+4+3+3 or 4+4+4+3 or 3+3+3+3+3")
    expect(alice.locator(TURN)).to_have_text(
        "Your turn — draw a card, or go out now if your hand already fits the contract")
    alice.click("[data-action=draw]")
    expect(alice.locator(TURN)).to_have_text(
        "Your turn — discard, or go out with your whole hand in the contract's runs")
    expect(alice.locator("[data-action=meld]")).to_have_count(0)

    # The host form explains the game picked.
    alice.goto("/#/host")
    alice.click(".game-card:has(input[value=kaluki])")
    rules = alice.locator("[data-testid=rules-panel]")
    expect(rules.locator("summary")).to_have_text("How to play Caloochi (Kaluki)")
    rules.locator("summary").click()
    expect(rules.locator("[data-testid=rules-turn]")).to_contain_text("worth 51 points")
    screenshots(alice, "host-rules.png", show="[data-testid=rules-panel]")


# Phỏm, Solo (seat 0, the dealer, 9 cards) against a computer player (10 cards, plays first).
# No meld can form among the computer's cards, the stock's top and Solo's discards, so the hand
# runs its four rounds; Solo holds JD QD KD and shows it on the fourth.
PHOM_SOLO = ["JD", "QD", "KD", "2S", "6H", "9H", "4C", "8D", "TS"]
PHOM_BOT = ["AC", "AH", "3S", "5D", "7C", "9C", "JH", "QS", "4D", "8S"]
PHOM_TOP = ["2H", "6S", "TC", "KC", "5H", "3C", "7D", "QH"]
PHOM_DEAL = {"hands": [PHOM_SOLO, PHOM_BOT], "discard": [],
             "stock": stock_for(full_pack(), [PHOM_SOLO, PHOM_BOT], [], PHOM_TOP)}


def test_phom_prompts_follow_its_four_rounds(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Solo")
    room_id = hosted(server, token, {"game": "phom", "seats": 2, "deals": [PHOM_DEAL]}, 1)
    api(server, "POST", f"/api/rooms/{room_id}/start", token)
    page.goto(f"/#/room/{room_id}")
    for round_no, drawn in enumerate(PHOM_TOP[0:8:2][:3], start=1):
        my_turn_to_draw(page)
        expect(page.locator("[data-aid=round]")).to_have_text(f"Round {round_no} of 4")
        # The discard makes no meld with Solo's cards (PHOM-5): it cannot be taken, so its
        # button and the pile are disabled, and only the stock is offered.
        expect(page.locator("[data-action=draw-discard]")).to_be_disabled()
        expect(page.locator("[data-testid=discard-top]")).to_be_disabled()
        expect(page.locator("[data-action=draw]")).to_be_enabled()
        expect(page.locator(TURN)).to_have_text(
            "Your turn — draw, or take the discard if it makes a meld with two of your cards")
        page.click("[data-action=draw]")
        expect(page.locator(TURN)).to_have_text(
            "Your turn — discard a card (your melds stay hidden until round 4)")
        expect(page.locator("[data-action=show]")).to_have_count(0)  # only in round 4
        select(page, drawn)
        page.click("[data-action=discard]")
    my_turn_to_draw(page)
    expect(page.locator("[data-aid=round]")).to_have_text("Round 4 of 4")
    page.click("[data-action=draw]")
    expect(page.locator(TURN)).to_have_text(
        "Your turn — last round: show all your melds, then discard")
    expect(page.locator("[data-action=discard]")).to_have_count(0)  # the show comes first
    select(page, "JD", "QD", "KD")
    page.click("[data-action=show]")
    expect(page.locator("[data-testid=melds] .meld")).to_have_count(1)
    expect(page.locator(TURN)).to_have_text(
        "Your turn — lay off on other players' melds, then discard")
    select(page, PHOM_TOP[6])
    page.click("[data-action=discard]")
    expect(page.locator("[data-testid=hand-result]")).to_be_visible()


# Kaluki, Solo (seat 0) against a computer player: Solo opens with K♣ K♦ + joker and three
# queens (60 points, 51 needed); the joker can only be K♥ or K♠.
KALUKI_SOLO = ["KC", "KD", "JK", "QC", "QH", "QS",
               "2C", "6C", "4D", "8D", "5H", "9H", "3S", "7S", "2C"]
KALUKI_BOT = ["AS", "AD", "3C", "4H", "6D", "7D", "8C", "9S", "TH", "JC", "5S", "TC", "9D",
              "JH", "3D"]
KALUKI_DEAL = {"hands": [KALUKI_SOLO, KALUKI_BOT], "discard": ["2D"],
               "stock": stock_for(full_pack(2, 4), [KALUKI_SOLO, KALUKI_BOT], ["2D"], [])}


def test_kaluki_opening_aid_and_the_wild_card_dialog(new_page: Any,
                                                      server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Solo")
    room_id = hosted(server, token, {"game": "kaluki", "seats": 2, "deals": [KALUKI_DEAL]}, 1)
    api(server, "POST", f"/api/rooms/{room_id}/start", token)
    refused: list[int] = []
    armed: list[bool] = []  # the Meld's query, not the one "Add group" asks first

    def relay(ws: Any) -> None:
        """The room's socket, except that the Meld's first wild-card query is refused the way
        the server refuses one: its English message and rule ID must not reach the player."""
        room_ws = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            query = json.loads(message)
            if query.get("type") != "designations" or refused or not armed:
                room_ws.send(message)
                return
            refused.append(query["id"])
            ws.send(json.dumps({"type": "error", "id": query["id"], "code": "no_such_meld",
                                "message": "there is no meld 9 on the table (OPT-LAYOFF-1)"}))
        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/rooms/"), relay)
    page.goto(f"/#/room/{room_id}")
    my_turn_to_draw(page)
    expect(page.locator("[data-aid=opening]")).to_have_text(
        re.compile(r"^Melds in your hand: \d+ of the 51 points needed to open$"))
    page.click("[data-action=draw]")
    expect(page.locator(TURN)).to_have_text(
        "Your turn — open with melds worth 51 points, or discard")
    select(page, "KC", "KD", "JK")
    page.click("[data-testid=add-group]")
    select(page, "QC", "QH", "QS")
    expect(page.locator("[data-testid=groups] .group")).to_have_count(1)
    armed.append(True)
    page.click("[data-action=meld]")
    dialog = page.locator("[data-testid=designation]")
    expect(dialog.locator("[data-testid=wild-none]")).to_have_text(
        "That meld is not on the table.")  # translated: no server message, no rule ID
    assert refused
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    page.click("[data-action=meld]")
    choice = dialog.locator("[data-testid=wild-choice-0]")
    expect(choice.locator("option")).to_have_text(["Joker as King of hearts",
                                                   "Joker as King of spades"])
    expect(choice).to_be_focused()
    assert_accessible(page)  # the wild-card dialog
    dialog.locator("[data-testid=wild-ok]").click()  # the default is valid
    expect(dialog).to_have_count(0)
    expect(page.locator("[data-testid=melds] .meld")).to_have_count(2)
    expect(page.locator("[data-testid=melds]")).to_contain_text("Solo")
    state = api(server, "GET", f"/api/rooms/{room_id}", token)
    assert state["status"] == "playing"
    expect(page.locator("[data-aid=opening]")).to_have_count(0)  # opened


# Standard, one hand is the match: Host (0), Guest (1) and a computer player (2). The guest
# draws KS, melds 3C..9C and goes out by discarding KS.
ONE_HAND_HANDS = [["AS", "2S", "3H", "4H", "6D", "8D", "TD"],
                  ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                  ["AH", "2H", "5S", "7S", "9S", "JS", "QH"]]
ONE_HAND = {"hands": ONE_HAND_HANDS, "discard": ["KC"],
            "stock": stock_for(full_pack(), ONE_HAND_HANDS, ["KC"], ["KS"])}


def test_rematch_takes_both_players_to_the_new_room(new_page: Any,
                                                    server: dict[str, Any]) -> None:
    host, other = new_page(), new_page()
    token = sign_in_as_guest(host, "Host")
    other_token = sign_in_as_guest(other, "Guest")
    room_id = hosted(server, token, {"game": "standard", "seats": 3, "turn_seconds": 120,
                                     "options": {"each_hand_own_game": True},
                                     "deals": [ONE_HAND]}, 0)
    api(server, "POST", f"/api/rooms/{room_id}/join", other_token, {})
    api(server, "POST", f"/api/rooms/{room_id}/bots", token, {"count": 1})
    host.goto(f"/#/room/{room_id}")
    other.goto(f"/#/room/{room_id}")
    host.click("[data-testid=start]")
    my_turn_to_draw(other)
    other.click("[data-action=draw]")
    select(other, "3C", "4C", "5C", "6C", "7C", "8C", "9C")
    other.click("[data-action=meld]")
    select(other, "KS")
    other.click("[data-action=discard]")
    expect(host.locator("[data-testid=game-over]")).to_be_visible()
    expect(other.locator("[data-testid=play-again]")).to_have_count(0)  # the host's to offer
    screenshots(host, "rematch.png")
    host.click("[data-testid=play-again]")
    expect(host.locator("[data-testid=seats]")).to_be_visible()
    new_id = host.url.rsplit("/", 1)[-1]
    assert new_id != room_id
    expect(other.locator("[data-testid=rematch]")).to_contain_text("Host offers a rematch")
    assert_accessible(other)  # the invitation
    fits_narrow(other)
    other.click("[data-testid=join-rematch]")
    expect(other.locator("[data-testid=seats]")).to_be_visible()
    assert other.url.rsplit("/", 1)[-1] == new_id
    for page in (host, other):
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(3)
    room = api(server, "GET", f"/api/rooms/{new_id}", token)
    assert [p["name"] for p in room["players"]] == ["Host", "Bot 2", "Guest"]
    assert (room["turn_seconds"], room["options"]) == (120, {"each_hand_own_game": True})


def test_chips_at_the_table_agree_with_the_ledger(new_page: Any,
                                                  server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Staker")
    room_id = hosted(server, token, {"game": "standard", "seats": 2, "stake": 1,
                                     "buy_in": 200}, 1)
    page.goto(f"/#/room/{room_id}")
    me = api(server, "GET", "/api/me", token)
    assert (me["balance"], me["tables"]) == (800, {room_id: 200})
    expect(page.locator("[data-testid=balance]")).to_contain_text("800 chips")
    expect(page.locator("[data-testid=at-tables]")).to_have_text("+200 at tables")
    page.click("[data-testid=start]")
    expect(page.locator("[data-testid=chips-stack]")).to_have_text("Your chips: 800")
    expect(page.locator("[data-testid=chips-escrow]")).to_have_text("On this table: 200")
    expect(page.locator("[data-testid=balance]")).to_contain_text("800 chips")


def test_a_capped_settlement_shows_the_chips_the_ledger_moved(new_page: Any,
                                                              server: dict[str, Any]) -> None:
    """At 50 chips a point against a buy-in of 10 every payment is capped by the payer's
    escrow: the result's chips column shows what the ledger moved, not points × stake."""
    page = new_page()
    token = sign_in_as_guest(page, "Capped")
    room_id = hosted(server, token, {"game": "standard", "seats": 2, "stake": 50, "buy_in": 10,
                                     "options": {"each_hand_own_game": True}}, 1)
    page.goto(f"/#/room/{room_id}")
    page.click("[data-testid=start]")
    expect(page.locator(HAND)).to_have_count(10)
    expect(page.locator("[data-testid=chips-escrow]")).to_have_text("On this table: 10")
    screenshots(page, "table-chips.png")
    api(server, "POST", f"/api/rooms/{room_id}/leave", token)  # two computer players finish
    expect(page.locator("[data-testid=hand-result]")).to_be_visible(timeout=60_000)
    moved = api(server, "GET", "/api/me", token)["balance"] - 1000
    assert moved in (-10, 10), moved
    expect(page.locator("[data-testid=result-chips-0]")).to_have_text(f"{moved:+d}")
    expect(page.locator("[data-testid=result-chips-1]")).to_have_text(f"{-moved:+d}")
    points = max(int(page.locator(f"[data-testid=result-score-{s}]").inner_text())
                 for s in (0, 1))
    assert points * 50 > 10  # the points at this stake were more than the escrow held
    screenshots(page, "result-chips.png")


def test_the_host_form_seats_computer_players_at_the_level_chosen(new_page: Any) -> None:
    """Issue 12: the host form takes a level for the computer players it seats; the waiting
    room shows each computer player's level."""
    page = new_page()
    sign_in_as_guest(page, "Leveller")
    page.goto("/#/host")
    page.click(".game-card:has(input[value=standard])")
    page.fill("input[name=seats]", "3")
    page.fill("input[name=bots]", "2")
    page.select_option("select[name=bot_level]", "hard")
    page.click("[data-testid=host-form] button[type=submit]")
    seats = page.locator("[data-testid=seats] li.taken")
    expect(seats).to_have_count(3)
    expect(seats.filter(has_text="hard")).to_have_count(2)
