"""Who decided, in the browser (PROTOCOL.md §4 `played_for`, §10 "Who decided"): the replay
marks each move the server played for a person (their timer, a stand-in) in its list and at
its step, the analysis says such a decision is not counted and shows no accuracy for a seat
with no decision of its own (desktop 1280×800 and phone 390×844, and in Finnish); a player who
resigned sees at the match's end that a stand-in played their seat out, and so does their
history.

The match: two seats of Standard, one hand, on the stacked deal in which seat 1 (Ben, first to
play) can go out at once (tests/api/test_rating_fairness.py). Nobody moves: a turn timer of 1 s
plays Ben's first turn, Ann's, and the first move of Ben's second, which makes him away; a
stand-in then goes out for him.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.api.client import Player, WsClient, call, guest, http_client
from tests.api.test_rating_fairness import DEAL, ONE_GAME
from tests.waits import DEADLINE

from .conftest import (
    PHONE,
    api,
    assert_accessible,
    assert_fits,
    go_to_step,
    open_replay,
    sign_in_as_guest,
)
from .test_i18n import LANGS, load, untranslated

DESKTOP = {"width": 1280, "height": 800}
ANALYSIS_WAIT = 120_000  # ms: the first analysis starts the server's worker process
MARK = "[data-testid=played-for-mark]"


def _room(http: Any, host: Player, other: Player, turn_seconds: int = 0) -> Any:
    return call(http, "POST", "/api/rooms", host, {
        "game": "standard", "seats": 2, "options": ONE_GAME, "deals": [DEAL],
        "turn_seconds": turn_seconds})


def _nobody_moves(server: dict[str, Any], token: str) -> str:
    """The browser's guest (``token``, seat 0) and Ben, both connected, let their timers run
    out until the stand-in goes out for Ben; the match id."""
    me = api(server, "GET", "/api/me", token)

    async def play() -> str:
        async with http_client(server["base_url"]) as http:
            ann, ben = Player(me["id"], me["name"], token), await guest(http, "Idle Ben")
            room = await _room(http, ann, ben, turn_seconds=1)
            await call(http, "POST", f"/api/rooms/{room['id']}/join", ben)
            clients = [await WsClient.join(server["base_url"], room["id"], p)
                       for p in (ann, ben)]
            try:
                started = await call(http, "POST", f"/api/rooms/{room['id']}/start", ann)
                await clients[0].wait_state(lambda v: v["game_over"], timeout=DEADLINE)
            finally:
                for client in clients:
                    await client.close()
            return str(started["match_id"])

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        return thread.submit(asyncio.run, play()).result(timeout=DEADLINE * 2)


def _marked_steps(server: dict[str, Any], token: str, match_id: str) -> dict[int, tuple[int, str]]:
    """The replay's steps the server played, by position in the list (1: the deal)."""
    steps = api(server, "GET", f"/api/matches/{match_id}/replay", token)["steps"]
    return {i + 1: (s["seat"], s["played_for"]) for i, s in enumerate(steps)
            if s.get("played_for")}


def _see_the_marks(page: Any, server: dict[str, Any], token: str, match_id: str,
                   lang: str) -> None:
    words = load(lang)
    me = api(server, "GET", "/api/me", token)
    names = {0: me["name"], 1: "Idle Ben"}
    marked = _marked_steps(server, token, match_id)
    assert {why for _, why in marked.values()} == {"timeout", "stand_in"}, marked
    open_replay(page, match_id)
    expect(page.locator("[data-testid=analysis-summary]")).to_be_visible(timeout=ANALYSIS_WAIT)
    marks = page.locator(f".action-list {MARK}")
    expect(marks).to_have_count(len(marked))
    for why in ("timeout", "stand_in"):
        expect(page.locator(f".action-list {MARK}[data-played-for={why}]").first).to_have_text(
            words[f"replay.played_for_short.{why}"])
    for step, (seat, why) in sorted(marked.items()):
        go_to_step(page, step)
        expect(page.locator("[data-testid=replay-played-for]")).to_have_text(
            words[f"replay.played_for.{why}"].replace("{name}", names[seat]))
    go_to_step(page, 1)  # the deal: nobody decided anything
    expect(page.locator("[data-testid=replay-played-for]")).to_have_count(0)
    # Ben's stand-in went out: its decision is graded, and not counted as his.
    go_to_step(page, max(marked))
    expect(page.locator("[data-testid=decision-not-counted]")).to_have_text(
        words["analysis.not_counted"].replace("{name}", names[1]))
    # Neither seat made a decision of its own: no accuracy.
    for seat in (0, 1):
        expect(page.locator(f"[data-testid=analysis-seat-{seat}] td").nth(1)).to_have_text("\u2014")
    assert not untranslated(page, lang)


@pytest.mark.parametrize("size", [pytest.param(DESKTOP, id="desktop"),
                                  pytest.param(PHONE, id="phone")])
def test_the_replay_marks_the_moves_the_server_played(
        new_page: Any, server: dict[str, Any], size: dict[str, int]) -> None:
    page = new_page(phone=size == PHONE)
    page.set_viewport_size(size)
    token = sign_in_as_guest(page, "Idle Ann")
    match_id = _nobody_moves(server, token)
    _see_the_marks(page, server, token, match_id, "en")
    page.locator(f".action-list {MARK}").last.scroll_into_view_if_needed()
    assert_fits(page)
    assert_accessible(page)


def test_the_replay_marks_them_in_every_language(new_page: Any,
                                                 server: dict[str, Any]) -> None:
    page = new_page(locale="fi-FI")
    page.set_viewport_size(DESKTOP)
    token = sign_in_as_guest(page, "Ann")
    expect(page.locator("html")).to_have_attribute("lang", "fi")  # the browser's language
    match_id = _nobody_moves(server, token)
    _see_the_marks(page, server, token, match_id, "fi")
    for lang in LANGS:
        page.select_option("[data-testid=lang]", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        _see_the_marks(page, server, token, match_id, lang)


@pytest.mark.parametrize("size", [pytest.param(DESKTOP, id="desktop"),
                                  pytest.param(PHONE, id="phone")])
def test_a_player_who_resigned_sees_their_seat_played_out(
        new_page: Any, server: dict[str, Any], size: dict[str, int]) -> None:
    ann, ben = new_page(phone=size == PHONE), new_page(phone=size == PHONE)
    for page in (ann, ben):
        page.set_viewport_size(size)
    ann_token = sign_in_as_guest(ann, "Staying Ann")
    ben_token = sign_in_as_guest(ben, "Leaving Ben")
    room = api(server, "POST", "/api/rooms", ann_token, {
        "game": "standard", "seats": 2, "options": ONE_GAME, "deals": [DEAL]})
    api(server, "POST", f"/api/rooms/{room['id']}/join", ben_token, {})
    for page in (ann, ben):
        page.goto(f"/#/room/{room['id']}")
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(2)
    match_id = api(server, "POST", f"/api/rooms/{room['id']}/start", ann_token)["match_id"]
    expect(ben.locator("[data-testid=hand] button.card").first).to_be_visible()
    api(server, "POST", f"/api/rooms/{room['id']}/leave", ben_token, {})  # before any turn

    # The stand-in goes out with Ben's melds; Ben, watching, is told whose moves they were.
    expect(ben.locator("[data-testid=game-over]")).to_be_visible()
    expect(ben.locator("[data-testid=result-played-out]")).to_have_text(
        load("en")["result.played_out"])
    expect(ann.locator("[data-testid=game-over]")).to_be_visible()
    expect(ann.locator("[data-testid=result-played-out]")).to_have_count(0)
    assert_fits(ben)
    assert_accessible(ben)

    ben.goto("/#/history")
    row = ben.locator(f"[data-testid=history-list] tr[data-match='{match_id}']")
    expect(row.locator("[data-testid=history-played-out]")).to_have_text(
        load("en")["history.played_out"])
    ann.goto("/#/history")
    expect(ann.locator(f"tr[data-match='{match_id}'] [data-testid=history-result]")).to_be_visible()
    expect(ann.locator("[data-testid=history-played-out]")).to_have_count(0)

    # His profile: the stand-in's win is no win of his, nor a loss (he resigned at once).
    ben.goto(f"/#/player/{api(server, 'GET', '/api/me', ben_token)['id']}")
    won = ben.locator("[data-testid=profile-won-standard]")
    expect(won).to_contain_text("\u2014")
    expect(won).to_contain_text(load("en")["profile.won_lost"].format(wins=0, losses=0))
