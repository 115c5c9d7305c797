"""Issue 18's small things in the browser: the hand as the player arranged it survives a dropped
socket and a reload; "Your games" leads back to a private room; My matches and the replay say
options and phases in words and the replay lays hands out as the table does; the lobby's game
buttons say what each game is; a clash of options is named in the player's language."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import expect

from tests.api.client import Player, guest, http_client
from tests.api.scenarios import KALUKI
from tests.api.scripted import play_scripted

from .conftest import api, assert_accessible, sign_in_as_guest

HAND = "[data-testid=hand] button.card"
SUITS, RANKS = "CDHS", "A23456789TJQK"
WAIT = 30_000
# Seat 1's hand in the stacked Kaluki deal (tests/api/scenarios.py), as dealt.
SEAT_1_DEALT = ["KH", "KD", "KS", "9C", "TC", "JC", "2H", "3H", "4H", "5H", "7S", "7D", "JK",
                "QC", "QS"]


def by_rank(code: str) -> tuple[int, int]:
    return (99, 99) if code.startswith("JK") else (RANKS.index(code[0]), SUITS.index(code[1]))


def by_suit(code: str) -> tuple[int, int]:
    return (99, 99) if code.startswith("JK") else (SUITS.index(code[1]), RANKS.index(code[0]))


def hand_of(page: Any) -> list[str]:
    return list(page.locator(HAND).evaluate_all("bs => bs.map((b) => b.dataset.card)"))


def expect_hand(page: Any, cards: list[str]) -> None:
    """The hand shows exactly `cards`, in this order (waiting for it)."""
    expect(page.locator(HAND)).to_have_count(len(cards), timeout=WAIT)
    for i, card in enumerate(cards):
        expect(page.locator(HAND).nth(i)).to_have_attribute("data-card", card, timeout=WAIT)


def table_against_the_computer(server: dict[str, Any], token: str, **room: Any) -> str:
    made = api(server, "POST", "/api/rooms", token, {"game": "standard", "seats": 2, **room})
    api(server, "POST", f"/api/rooms/{made['id']}/bots", token, {"count": 1})
    api(server, "POST", f"/api/rooms/{made['id']}/start", token)
    return str(made["id"])


def test_the_hand_order_survives_a_dropped_socket_and_a_reload(
        new_page: Any, server: dict[str, Any]) -> None:
    """Sorted by rank, then the first card moved two places right (Alt+→): the same order after
    the socket drops and after a reload; the card drawn next goes where the rank sort puts it,
    so the sort survived too."""
    page = new_page()
    token = sign_in_as_guest(page, "Orderly")
    room_id = table_against_the_computer(server, token)
    page.goto(f"/#/room/{room_id}")
    expect(page.locator("[data-action=draw]")).to_be_enabled(timeout=WAIT)  # my hand holds still
    dealt = hand_of(page)
    ranked = sorted(dealt, key=by_rank)
    page.click("[data-testid=sort-rank]")
    expect_hand(page, ranked)
    for at in (1, 2):
        page.locator(HAND).nth(at - 1).focus()
        page.keyboard.press("Alt+ArrowRight")
        expect(page.locator(HAND).nth(at)).to_have_attribute("data-card", ranked[0])
    arranged = [ranked[1], ranked[2], ranked[0], *ranked[3:]]
    assert arranged != sorted(dealt, key=by_suit)  # the order a lost arrangement fell back to
    expect_hand(page, arranged)

    page.evaluate("() => { window.__oldWs = window.__rummySocket.ws; window.__oldWs.close(); }")
    page.wait_for_function("() => window.__rummySocket.ws !== window.__oldWs"
                           " && window.__rummySocket.lastStatus === 'open'", timeout=WAIT)
    expect_hand(page, arranged)

    page.reload()
    expect(page.locator("[data-action=draw]")).to_be_enabled(timeout=WAIT)
    expect_hand(page, arranged)

    page.click("[data-action=draw]")
    expect(page.locator(HAND)).to_have_count(len(dealt) + 1, timeout=WAIT)
    drawn = next(c for c in hand_of(page) if c not in dealt)
    at = next((i for i, c in enumerate(arranged) if by_rank(c) > by_rank(drawn)), len(arranged))
    expect_hand(page, [*arranged[:at], drawn, *arranged[at:]])


def test_your_games_lead_back_to_a_private_room(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Hidden Host")
    room_id = table_against_the_computer(server, token, game="knock", private=True)
    page.reload()  # the lobby as the player comes back to it
    entry = page.locator(f"[data-testid=my-rooms] li[data-room='{room_id}']")
    expect(entry).to_contain_text("Knock Rummy", timeout=WAIT)
    expect(entry).to_contain_text("Playing")
    expect(entry).to_contain_text("Private room")
    expect(page.locator(f"[data-testid=rooms] tr[data-room='{room_id}']")).to_have_count(0)
    assert_accessible(page)
    page.click(f"[data-testid=my-room-{room_id}]")
    expect(page).to_have_url(re.compile(f"#/room/{room_id}$"))
    expect(page.locator(HAND)).to_have_count(10, timeout=WAIT)  # back at the table, my hand


def test_my_matches_and_the_replay_say_options_and_phases_in_words(
        new_page: Any, server: dict[str, Any]) -> None:
    """The stacked Kaluki match (the browser's guest at seat 1 wins) with a switch and a number
    among its options: My matches reads them as label and Yes or the value; the replay names
    each phase and lays seat 1's dealt hand out sorted by suit, as the table does."""
    page = new_page()
    token = sign_in_as_guest(page, "Wordsmith")
    me = api(server, "GET", "/api/me", token)
    scenario = dataclasses.replace(KALUKI, options={"target_score": 50, "mandatory_discard": True})

    async def play() -> str:
        async with http_client(server["base_url"]) as http:
            other = await guest(http, "Rival Words")
            match_id, _ = await play_scripted(server["base_url"], http,
                                              [other, Player(me["id"], me["name"], token)],
                                              scenario)
            return match_id

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        match_id = thread.submit(asyncio.run, play()).result()

    page.click("[data-testid=nav-history]")
    row = page.locator(f"[data-testid=history-list] tr[data-match='{match_id}']")
    expect(row).to_contain_text("Target score: 50", timeout=WAIT)
    options = row.locator("td").nth(1).locator(".muted")
    expect(options).to_contain_text(": Yes")
    expect(options).not_to_contain_text("true")

    row.locator("[data-testid=history-replay]").click()
    phase = page.locator("[data-testid=replay-phase]")
    expect(phase).to_have_text("Phase: Drawing", timeout=WAIT)  # after the deal: seat 1 draws
    seat = page.locator("[data-testid=replay-board] [data-testid=replay-seat-1] .card")
    shown = seat.evaluate_all("cs => cs.map((c) => c.dataset.card)")
    assert shown == sorted(SEAT_1_DEALT, key=by_suit) != SEAT_1_DEALT, shown
    page.click("[data-testid=replay-next]")
    expect(phase).to_have_text("Phase: Playing")


def test_the_lobby_says_what_each_game_is(new_page: Any, server: dict[str, Any]) -> None:
    games = api(server, "GET", "/api/games")["games"]
    for locale, line in (("en-US", "Melds stay in hand: knock low, beware the undercut."),
                         ("es-ES", "Las combinaciones quedan en la mano: llama con poco y que "
                                   "no te superen.")):
        page = new_page(locale)
        sign_in_as_guest(page, "Curious")
        expect(page.locator("[data-testid=game-line-knock]")).to_have_text(line, timeout=WAIT)
        for g in games:
            button = page.locator(f"[data-testid=play-computer-{g['key']}]")
            text = button.locator(".game-line").inner_text().strip()
            assert text and text != button.locator(".game-name").inner_text().strip(), g["key"]
            assert button.get_attribute("aria-describedby") == f"quick-line-{g['key']}"
    assert_accessible(page)


def test_a_clash_of_options_is_named_in_spanish(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page("es-ES")
    sign_in_as_guest(page, "Combina")
    page.click("[data-testid=host-room]")
    page.click(".game-card:has(input[value=standard])")
    page.check("#opt-complete_rummy")
    page.check("#opt-call_rummy")
    page.click("[data-testid=create-room]")
    expect(page.locator("[data-testid=host-error]")).to_have_text(
        "Rummy completo no se puede combinar con Cantar rummy.", timeout=WAIT)
