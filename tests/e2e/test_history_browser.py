"""A player's history, their replay of their own match, a profile, a leaderboard and the guest
upgrade, in the browser in English and in Spanish. The matches are the stacked rated Kaluki
match of tests/api/scenarios.py (seat 1 wins), played over real websockets by the browser's
guest (its token, at seat 1) and a second guest who hosts."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.api.client import Player, WsClient, call, guest, http_client
from tests.api.scenarios import KALUKI
from tests.api.scripted import play_script, play_scripted
from tests.waits import DEADLINE

from .conftest import api, open_replay, sign_in_as_guest

BOARD = "[data-testid=replay-board]"


def _rated_match(server: dict[str, Any], token: str, rival: str) -> str:
    """Play the rated Kaluki match: the browser's guest at seat 1 (wins) against `rival`."""
    me = api(server, "GET", "/api/me", token)

    async def play() -> str:
        async with http_client(server["base_url"]) as http:
            other = await guest(http, rival)
            players = [other, Player(me["id"], me["name"], token)]
            match_id, _ = await play_scripted(server["base_url"], http, players, KALUKI,
                                              rated=True)
            return match_id

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        return thread.submit(asyncio.run, play()).result()


def _face_up(page: Any, seat: int) -> int:
    seat_cards = f"{BOARD} [data-testid=replay-seat-{seat}] .card"
    return int(page.locator(f"{seat_cards}:not([data-card=''])").count())


def _walk(page: Any, server: dict[str, Any], *, name: str, rival: str, texts: dict[str, str],
          username: str) -> None:
    token = sign_in_as_guest(page, name)
    match_id = _rated_match(server, token, rival)

    page.click("[data-testid=nav-history]")
    row = page.locator(f"[data-testid=history-list] tr[data-match='{match_id}']")
    expect(row).to_contain_text(texts["won"])
    expect(row).to_contain_text(rival)
    expect(row.locator("td").nth(6)).to_contain_text("+")  # the rating went up

    position = open_replay(page, match_id, row.locator("[data-testid=history-replay]"))
    expect(page.locator("[data-testid=replay-seat-note]")).to_contain_text(name)
    expect(position).to_contain_text(
        str(1 + len(KALUKI.actions(0))))
    assert _face_up(page, 1) == 15 and _face_up(page, 0) == 0  # my hand, theirs face down
    assert page.locator(f"{BOARD} [data-testid=replay-seat-0] .card").count() == 15
    page.click("[data-testid=replay-last]")
    expect(page.locator(f"{BOARD} [data-testid=replay-seat-0] .card:not([data-card=''])")
           ).to_have_count(15)  # their hand, revealed at the hand's end (I went out)

    page.click("[data-testid=me-name]")
    expect(page.locator("[data-testid=profile-name]")).to_have_text(name)
    games = page.locator("[data-testid=profile-games] tr[data-game=kaluki]")
    expect(games).to_contain_text("100 %")
    expect(page.locator("[data-testid=profile-rating-kaluki]")).not_to_have_text("\u2014")

    games.locator("a").click()
    board = page.locator("[data-testid=board-list]")
    expect(board).to_contain_text(rival)
    expect(board).to_contain_text(name)
    expect(page.locator("[data-testid=board-me]")).to_contain_text(texts["rank"])

    balance = api(server, "GET", "/api/me", token)["balance"]
    page.click("[data-testid=nav-account]")
    page.fill("[data-testid=upgrade-form] input[name=username]", username)
    page.fill("[data-testid=upgrade-form] input[name=password]", "a sturdy passphrase 14")
    page.click("[data-testid=upgrade-submit]")
    expect(page.locator("[data-testid=account-note]")).to_contain_text(texts["upgraded"])
    expect(page.locator("[data-testid=upgrade-form]")).to_have_count(0)
    me = api(server, "GET", "/api/me", token)
    assert (me["is_guest"], me["username"], me["name"], me["balance"]) == (
        False, username, name, balance)
    login = httpx.post(server["base_url"] + "/api/auth/login", trust_env=False, timeout=10,
                       json={"username": username, "password": "a sturdy passphrase 14"})
    assert login.json()["player"]["id"] == me["id"]
    page.click("[data-testid=nav-history]")
    expect(page.locator(f"[data-testid=history-list] tr[data-match='{match_id}']")
           ).to_have_count(1)  # the guest's history is the account's


def test_history_replay_profile_board_and_upgrade_in_english(new_page: Any,
                                                              server: dict[str, Any]) -> None:
    _walk(new_page(), server, name="Ada Lovelace", rival="Rival One", username="ada_14",
          texts={"won": "won", "rank": "You are number", "upgraded": "is now an account"})


def test_the_same_in_spanish(new_page: Any, server: dict[str, Any]) -> None:
    _walk(new_page("es-ES"), server, name="Beatriz", rival="Rival Dos", username="beatriz_14",
          texts={"won": "ganada", "rank": "Eres el número", "upgraded": "ya es una cuenta"})


def test_a_rated_room_from_the_host_form_shows_the_rating_change(
        new_page: Any, server: dict[str, Any]) -> None:
    """The host marks the room rated in the form (with the Kaluki deal); a second player plays
    seat 1 over a websocket; the host draws and throws 8C in the browser and loses: the result
    screen shows both players' new ratings and changes."""
    page = new_page()
    sign_in_as_guest(page, "Rated Host")
    page.click("[data-testid=host-room]")
    page.click(".game-card:has(input[value=kaluki])")
    page.fill("#opt-target_score", "50")
    page.fill("input[name=seats]", "2")
    page.check("#rated")
    page.fill("[data-testid=deals]", json.dumps(KALUKI.deals))
    page.click("[data-testid=create-room]")
    page.wait_for_selector("[data-testid=seats]")
    room_id = page.url.rsplit("/", 1)[-1]

    async def rival() -> None:
        async with http_client(server["base_url"]) as http:
            other = await guest(http, "Rated Rival")
            await call(http, "POST", f"/api/rooms/{room_id}/join", other)
            client = await WsClient.join(server["base_url"], room_id, other)
            try:
                await play_script(client, KALUKI)
            finally:
                await client.close()

    with ThreadPoolExecutor(1) as thread:
        playing = thread.submit(asyncio.run, rival())
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(2)
        page.click("[data-testid=start]")
        expect(page.locator("[data-action=draw]")).to_be_enabled()
        page.click("[data-action=draw]")
        page.click('[data-testid=hand] button[data-card="8C"]')
        page.click("[data-action=discard]")
        playing.result(timeout=DEADLINE)

    changes = page.locator("[data-testid=rating-changes]")
    expect(page.locator("[data-testid=rating-change-1]")).to_contain_text("Rated Rival")
    expect(page.locator("[data-testid=rating-change-1]")).to_contain_text("(+")
    expect(page.locator("[data-testid=rating-change-0]")).to_contain_text("(-")
    expect(changes).to_contain_text("rating")
