"""The analysis in the browser (issue 23, PROTOCOL.md §10): a stacked Standard hand in which the
browser's player passes up going out, then the result screen's accuracy, the replay's grades and
the blunder's best move highlighted (on a desktop and at 390×844), the profile's accuracy per
game, and the admin's analysis of every seat.

Seat 0 (the browser's host, dealer) holds three melds of ten cards; seat 1 (a scripted guest
over a websocket) holds nothing that melds. Seat 1 draws QS and throws it; seat 0 draws KD and
could meld everything and go out by throwing KD, but throws KD holding its melds (the blunder of
tests/analysis/test_grades.py); seat 1 draws JH and throws it; seat 0 draws KS, melds its ten
cards and goes out throwing KS, scoring seat 1's 55 (STD-13) past the target of 20.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import expect

from tests.api.client import WsClient, call, guest, http_client
from tests.api.scenarios import Scenario, discard, draw, meld, stack
from tests.api.scripted import play_script
from tests.waits import DEADLINE

from .conftest import (
    PHONE,
    api,
    assert_accessible,
    assert_fits,
    create_admin,
    go_to_step,
    open_replay,
    screenshots,
    sign_in_as_guest,
)

MELDS = [["AS", "2S", "3S", "4S"], ["4H", "5H", "6H"], ["7C", "7D", "7S"]]
MELDED = [c for m in MELDS for c in m]
OTHER = ["AH", "2H", "3D", "4C", "5S", "6D", "7H", "8C", "9S", "JD"]
PASSED_UP = Scenario(
    game="standard", options={"target_score": 20}, players=2,
    deals=[stack(hands=[MELDED, OTHER], upcard=["QC"], stock_top=["QS", "KD", "JH", "KS"])],
    scripts=[[(1, [draw(), discard("QS")]),
              (0, [draw(), discard("KD")]),  # the browser: the blunder
              (1, [draw(), discard("JH")]),
              (0, [draw(), meld(*MELDS), discard("KS")])]],  # the browser goes out
    hand_scores=[[55, 0]], totals=[55, 0], winner=0, payments=[[(1, 0, 55)]],
)
HAND = "[data-testid=hand] button.card"
BLUNDER_STEP = 5  # the deal, seat 1's draw and discard, seat 0's draw, then its discard of KD
ANALYSIS_WAIT = 120_000  # the first analysis starts the server's worker process


def _card(page: Any, code: str) -> None:
    page.click(f'[data-testid=hand] button[data-card="{code}"]')


def _play_the_hand(page: Any, server: dict[str, Any]) -> str:
    """Host the stacked room, let the scripted guest join and play seat 1; play seat 0 by
    clicks. Returns the match id once the result screen shows the match over."""
    page.click("[data-testid=host-room]")
    page.click(".game-card:has(input[value=standard])")
    page.fill("#opt-target_score", "20")
    page.fill("input[name=seats]", "2")
    page.fill("[data-testid=deals]", json.dumps(PASSED_UP.deals))
    page.click("[data-testid=create-room]")
    page.wait_for_selector("[data-testid=seats]")
    room_id = page.url.rsplit("/", 1)[-1]

    async def rival() -> None:
        async with http_client(server["base_url"]) as http:
            other = await guest(http, "Steady Rival")
            await call(http, "POST", f"/api/rooms/{room_id}/join", other)
            client = await WsClient.join(server["base_url"], room_id, other)
            try:
                await play_script(client, PASSED_UP)
            finally:
                await client.close()

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        playing = thread.submit(asyncio.run, rival())
        expect(page.locator("[data-testid=seats] li.taken")).to_have_count(2)
        page.click("[data-testid=start]")
        expect(page.locator("[data-action=draw]")).to_be_enabled()
        page.click("[data-testid=stock]")
        _card(page, "KD")
        page.click("[data-action=discard]")
        expect(page.locator(HAND)).to_have_count(10)
        expect(page.locator("[data-action=draw]")).to_be_enabled()
        page.click("[data-testid=stock]")
        expect(page.locator(HAND)).to_have_count(11)
        for i, group in enumerate(MELDS):
            if i:
                page.click("[data-testid=add-group]")
            for code in group:
                _card(page, code)
        page.click("[data-action=meld]")
        expect(page.locator(HAND)).to_have_count(1)
        _card(page, "KS")
        page.click("[data-action=discard]")
        playing.result(timeout=DEADLINE)
    expect(page.locator("[data-testid=game-over]")).to_be_visible()
    token = page.evaluate("localStorage.getItem('rummy.token')")
    return str(api(server, "GET", f"/api/rooms/{room_id}", token)["match_id"])


def _see_the_blunder(page: Any) -> None:
    note = page.locator("[data-testid=decision-note]")
    expect(note).to_have_attribute("data-grade", "blunder")
    expect(note).to_contain_text("Blunder")
    expect(page.locator("[data-testid=decision-best]")).to_contain_text("melds")
    best = page.locator("[data-testid=replay-seat-0] .best-card")
    expect(best.first).to_be_visible()
    codes = best.evaluate_all("(els) => els.map((e) => e.dataset.card)")
    assert len(codes) >= 3 and set(codes) <= set(MELDED), codes  # the melds it held back


def test_the_replay_grades_a_passed_up_win_and_shows_the_best_move(
        new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    sign_in_as_guest(page, "Hasty Hannah")
    match_id = _play_the_hand(page, server)

    # The result screen: analysing, then the player's accuracy for the hand and the match.
    accuracy = page.locator("[data-testid=result-accuracy]")
    expect(accuracy).to_contain_text("Your accuracy", timeout=ANALYSIS_WAIT)
    expect(accuracy).to_contain_text("%")

    position = open_replay(page, match_id)
    expect(page.locator("[data-testid=analysis-summary]")).to_be_visible(timeout=ANALYSIS_WAIT)
    expect(page.locator("[data-testid=analysing]")).to_have_count(0)
    go_to_step(page, BLUNDER_STEP)
    expect(position).to_contain_text(f"Step {BLUNDER_STEP} of")
    expect(page.locator("[data-testid=replay-now]")).to_contain_text("discards")
    expect(page.locator(".action-list li button.current .grade-blunder")).to_have_text("??")
    _see_the_blunder(page)
    expect(page.locator("[data-testid=analysis-seat-0]")).to_contain_text("Hasty Hannah")
    screenshots(page, "replay-analysis.png", show="[data-testid=decision-note]")

    page.set_viewport_size(PHONE)  # 390×844: the grade and the highlighted cards still show
    assert_fits(page)
    page.locator("[data-testid=decision-note]").scroll_into_view_if_needed()
    _see_the_blunder(page)
    page.locator("[data-testid=replay-seat-0] .best-card").first.scroll_into_view_if_needed()
    assert_accessible(page)
    page.set_viewport_size({"width": 1400, "height": 900})

    # The profile: accuracy per game over time (this match analysed, so it counts).
    page.click("[data-testid=me-name]")
    row = page.locator("[data-testid=profile-accuracy] tr[data-game=standard]")
    expect(row).to_contain_text("%")
    latest = row.locator("[data-testid=profile-accuracy-standard]").inner_text()
    expect(row.locator("svg[role=img]")).to_have_attribute(
        "aria-label", f"Accuracy in Standard Rummy, oldest first: {latest}")
    assert_accessible(page)


def test_the_admins_match_page_shows_every_seats_analysis(
        new_page: Any, server: dict[str, Any]) -> None:
    player = new_page()
    sign_in_as_guest(player, "Careless Carl")
    match_id = _play_the_hand(player, server)
    create_admin(server, "analyst", "analystpass1")
    page = new_page()
    page.goto("/admin/")
    page.fill("[data-testid=admin-login] input[name=username]", "analyst")
    page.fill("[data-testid=admin-login] input[name=password]", "analystpass1")
    page.click("[data-testid=admin-login] button[type=submit]")
    filters = page.locator("[data-testid=match-filters]")
    filters.locator("input").first.fill("Careless Carl")
    filters.locator("button[type=submit]").click()
    page.locator(f"[data-match='{match_id}']").click()

    seats = page.locator("[data-testid=admin-analysis]")
    expect(seats).to_be_visible(timeout=ANALYSIS_WAIT)
    expect(seats.locator("[data-testid=admin-analysis-0]")).to_contain_text("Careless Carl")
    expect(seats.locator("[data-testid=admin-analysis-1]")).to_contain_text("Steady Rival")
    go_to_step(page, BLUNDER_STEP)
    _see_the_blunder(page)
    assert_accessible(page)
