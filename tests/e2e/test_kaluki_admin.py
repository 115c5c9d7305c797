"""A host plays Kaluki against a computer player; an admin then replays that match step by step."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import (
    PHONE,
    api,
    assert_accessible,
    assert_fits,
    create_admin,
    fits_narrow,
    full_pack,
    screenshot,
    sign_in_as_guest,
    stock_for,
)

# The bot (seat 1) plays first and holds 14 cards of melds worth far more than the 51 it needs
# to open (TS-AS spades, three nines, 4C-6C, three sevens) and a 2D. It draws KD, then, after
# the host's draw and discard, 7C, which it lays off on 4C-6C: it can go out on its second turn.
BOT = ["TS", "JS", "QS", "KS", "AS", "9H", "9D", "9C", "4C", "5C", "6C", "7D", "7H", "7S", "2D"]
HOST = ["2C", "4D", "6H", "8S", "TC", "QD", "3H", "5S", "8D", "JC", "KH", "3C", "6D", "TH", "2S"]
UPCARD = ["KC"]
PACK = full_pack(packs=2, jokers=4)
DEAL = {"hands": [HOST, BOT], "discard": UPCARD,
        "stock": stock_for(PACK, [HOST, BOT], UPCARD, ["KD", "QH", "7C"])}
HAND = "[data-testid=hand] button.card"
MAX_TURNS = 40

shared: dict[str, Any] = {}


def test_host_plays_kaluki_against_a_bot(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Hostess")
    room = api(server, "POST", "/api/rooms", token,  # stacked deals: free play only
               {"game": "kaluki", "seats": 2, "deals": [DEAL]})
    page.goto(f"/#/room/{room['id']}")
    page.click("[data-testid=add-bots]")
    expect(page.locator("[data-testid=seats] li.taken")).to_have_count(2)
    page.click("[data-testid=start]")
    page.wait_for_selector(HAND)

    result = page.locator("[data-testid=hand-result]")
    draw = page.locator("[data-action=draw]")
    turns = 0
    while not result.is_visible():
        assert turns < MAX_TURNS, "the hand did not end"
        page.wait_for_selector("[data-testid=hand-result], [data-action=draw]:not([disabled])")
        if result.is_visible():
            break
        count = page.locator(HAND).count()
        draw.click()  # draw from the stock by click ...
        expect(page.locator(HAND)).to_have_count(count + 1)
        if turns == 0:
            screenshot(page, "kaluki-table.png")
        page.locator(HAND).last.click()  # ... and discard the card just drawn
        page.click("[data-action=discard]")
        expect(page.locator(HAND)).to_have_count(count)
        turns += 1

    assert turns >= 1
    expect(result).to_contain_text("Bot")
    expect(page.locator("[data-testid=result-score-1]")).not_to_have_text("0")
    expect(result.locator("th", has_text="Chips")).to_have_count(0)  # free play: no chips
    screenshot(page, "kaluki-result.png")
    shared["match_id"] = api(server, "GET", f"/api/rooms/{room['id']}", token)["match_id"]
    shared["host"] = "Hostess"


def test_admin_replays_the_match(new_page: Any, server: dict[str, Any]) -> None:
    match_id = shared.get("match_id")
    assert match_id, "the Kaluki test must run first"
    create_admin(server, "admin", "adminpass1")
    page = new_page()
    page.goto("/admin/")
    page.wait_for_selector("[data-testid=admin-login]")
    assert_accessible(page)
    page.fill("[data-testid=admin-login] input[name=username]", "admin")
    page.fill("[data-testid=admin-login] input[name=password]", "adminpass1")
    page.click("[data-testid=admin-login] button[type=submit]")

    expect(page.locator("h1")).to_have_text("Matches")
    filters = page.locator("[data-testid=match-filters]")
    filters.locator("select").first.select_option("kaluki")
    filters.locator("input").first.fill("Hostess")
    filters.locator("button[type=submit]").click()
    row = page.locator(f"[data-match='{match_id}']")
    expect(page.locator("[data-testid=match-list] tbody tr")).to_have_count(1)
    assert_accessible(page)  # the match list
    row.click()

    expect(page.locator("[data-testid=results]")).to_contain_text("went out")
    replay = page.locator("[data-testid=replay]")
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 1 of")
    expect(page.locator("[data-testid=replay-seat-0] [data-card]")).to_have_count(15)
    expect(page.locator("[data-testid=replay-seat-1] [data-card]")).to_have_count(15)
    page.click("[data-testid=replay-next]")
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 2 of")
    expect(page.locator("[data-testid=replay-now]")).to_contain_text("draws from the stock")
    expect(page.locator("[data-testid=replay-seat-1] [data-card]")).to_have_count(16)
    for _ in range(3):
        page.click("[data-testid=replay-next]")
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 5 of")
    page.click("[data-testid=replay-prev]")
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 4 of")
    page.keyboard.press("ArrowRight")  # the keyboard steps too
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 5 of")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 3 of")
    page.keyboard.press("ArrowRight")
    expect(replay.locator("[data-testid=replay-pos]")).to_contain_text("Step 4 of")
    assert_accessible(page)
    screenshot(page, "admin-replay.png", full_page=True)
    page.set_viewport_size(PHONE)  # the admin pages fit a phone too
    assert_fits(page)
    fits_narrow(page)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.locator(".action-list button", has_text="melds").first.click()  # jump to the bot's meld
    expect(page.locator("[data-testid=replay-board] .meld").first).to_be_visible()

    with page.expect_download() as download:
        page.click("[data-testid=download-log]")
    assert download.value.suggested_filename == f"match-{match_id}.json"

    page.click("text=Players")
    page.locator("[data-testid=player-list] tr", has_text="Hostess").click()
    expect(page.locator("[data-testid=ledger]")).to_contain_text("Hostess")

    # The match goes on after its first hand: the admin's views of it were recorded.
    page.click("[data-testid=tab-views]")
    views = page.locator(f"[data-testid=view-list] tr:has-text('{match_id}')")
    expect(views).to_have_count(2)  # the match log and the replay
    expect(views.first).to_contain_text("/states")


# The bot holds nothing useful and just draws and discards. The host opens with AS-KS-QS-JS (45)
# and KC-KD-JK (30): a joker in a three-card set must be designated (KALUKI-4), so the server
# answers designation_required and the client asks what the joker stands for.
WILD_HOST = ["AS", "KS", "QS", "JS", "KC", "KD", "JK", "2H", "4H", "6D", "8C", "TD", "3S", "5S",
             "9D"]
WILD_BOT = ["2C", "4C", "6H", "8D", "TC", "QD", "3H", "5D", "7S", "9C", "JH", "KH", "2S", "6S",
            "8H"]
WILD_DEAL = {"hands": [WILD_HOST, WILD_BOT], "discard": ["4D"],
             "stock": stock_for(PACK, [WILD_HOST, WILD_BOT], ["4D"], ["7D", "9H"])}


def test_wild_card_designation_prompt(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Wilda")
    room = api(server, "POST", "/api/rooms", token,
               {"game": "kaluki", "seats": 2, "deals": [WILD_DEAL]})
    # The computer player is seated through the API (the waiting room's button has tests of its
    # own): this test is about the wild card's designation.
    api(server, "POST", f"/api/rooms/{room['id']}/bots", token, {"count": 1})
    page.goto(f"/#/room/{room['id']}")
    expect(page.locator("[data-testid=start]")).to_be_enabled()
    page.click("[data-testid=start]")
    expect(page.locator("[data-action=draw]")).to_be_enabled()
    page.click("[data-action=draw]")
    for code in ["AS", "KS", "QS", "JS"]:
        page.click(f'[data-testid=hand] button[data-card="{code}"]')
    page.click("[data-testid=add-group]")
    for code in ["KC", "KD", "JK"]:
        page.click(f'[data-testid=hand] button[data-card="{code}"]')
    page.click("[data-action=meld]")
    dialog = page.locator("[data-testid=designation]")
    expect(dialog).to_be_visible()
    dialog.locator("select").select_option(label="Joker as King of hearts")  # of K♥, K♠ only
    dialog.locator("button[type=submit]").click()
    expect(page.locator("[data-testid=meld-1]")).to_be_visible()
    expect(page.locator("[data-meld='1'] [data-card='JK:KH']")).to_be_visible()
