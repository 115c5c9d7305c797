"""The Tournaments page (issue 22, PROTOCOL.md §8) in the browser.

A tournament is created from the page (a refusal first, shown as the client shows refusals),
registered from it by a player on a desktop and one on a phone (two more register through the
API), starts by itself, and plays to the end with nobody at its tables (a tournament table's
absent player is played for once its wait for its players is over: docs/server.md
"Tournaments", "Tournament arrival"). The page, which asks again every few seconds, shows the
player's open table with how long its first deal waits for them, the bracket's tables and
winners, then the standings and prizes; the tournament is one of "Your games" on the lobby
while it registers and runs.

The games are Standard Rummy to 1 point (the first hand decides a match), as in
tests/api/test_tournaments.py, and each table waits 10 s for its players (the least), so a
whole tournament takes half a minute. Players who come to their tables, the waiting line and
the result screen's way to the next table: tests/e2e/test_tournament_arrival.py.

A second server whose computer players are slow keeps a table playing long enough to follow the
player's own table from the page (one click) and to see the Watch link of a table one is not at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    WAIT_MS,
    api,
    assert_accessible,
    assert_fits,
    e2e_server,
    screenshots,
    sign_in_as_guest,
)
from .test_i18n import LANGS, load, untranslated

START = 1000
FINISHED_MS = 240_000  # a whole tournament on a busy machine: far beyond its usual seconds
POLL_MS = 250  # how often a watching test looks at the page again


def _fill_form(page: Any, name: str, players: int, prizes: str, turn_seconds: int = 30,
               arrival_seconds: int = 10) -> None:
    page.fill("input[name=t_name]", name)
    page.select_option("select[name=t_game]", "standard")
    page.click(".t-options summary")
    page.fill("#opt-target_score", "1")
    page.fill("input[name=t_players]", str(players))
    page.select_option("select[name=t_table_seats]", "2")
    page.fill("input[name=t_entry]", "100")
    page.fill("input[name=t_prizes]", prizes)
    page.fill("input[name=t_turn_seconds]", str(turn_seconds))
    page.fill("input[name=t_arrival_seconds]", str(arrival_seconds))


def _create(page: Any, name: str, players: int, prizes: str, turn_seconds: int = 30,
            arrival_seconds: int = 10) -> str:
    """Fill the form on the Tournaments page and create: the new tournament's id."""
    _fill_form(page, name, players, prizes, turn_seconds, arrival_seconds)
    page.click("[data-testid=create-tournament-submit]")
    expect(page).to_have_url(re.compile(r"#/tournament/[^/]+$"))
    expect(page.locator("[data-testid=tournament-name]")).to_have_text(name)
    return str(page.url.split("#/tournament/")[1])


def _guest(server: dict[str, Any], name: str) -> str:
    return str(api(server, "POST", "/api/auth/guest", body={"name": name})["token"])


def test_a_tournament_from_the_page_to_its_standings(new_page: Any,
                                                     server: dict[str, Any]) -> None:
    ada, bea = new_page(), new_page(phone=True)
    sign_in_as_guest(ada, "Ada Knockout")
    sign_in_as_guest(bea, "Bea Phone")

    ada.click("[data-testid=nav-tournaments]")
    expect(ada.locator("[data-testid=tournaments] h1")).to_have_text("Tournaments")
    # Each page would go to its table by itself 3 s before the deal: 17 s to see it and stay.
    _fill_form(ada, "Friday knockout", 4, "70, 20", arrival_seconds=20)
    ada.click("[data-testid=create-tournament-submit]")
    expect(ada.locator("[data-testid=tournament-error]")).to_have_text(
        "Prizes must be whole percentages above 0 that add up to 100, at most one per player.")
    assert_accessible(ada)
    ada.fill("input[name=t_prizes]", "70, 30")
    ada.click("[data-testid=create-tournament-submit]")
    expect(ada).to_have_url(re.compile(r"#/tournament/[^/]+$"))
    tid = ada.url.split("#/tournament/")[1]
    expect(ada.locator("[data-testid=tournament]")).to_have_attribute("data-status", "registering")
    expect(ada.locator("[data-testid=cancel-tournament]")).to_be_visible()  # the creator's
    ada.click("[data-testid=register]")
    expect(ada.locator("[data-testid=entrants] li")).to_have_text(["Ada Knockout"])
    expect(ada.locator("[data-testid=balance]")).to_contain_text(str(START - 100))
    assert_accessible(ada)

    bea.goto("/#/tournaments")
    bea.click(f"[data-testid=tournaments-registering] [data-testid=tournament-{tid}]")
    expect(bea.locator("[data-testid=cancel-tournament]")).to_have_count(0)  # not hers
    bea.click("[data-testid=register]")
    expect(bea.locator("[data-testid=entrants] li")).to_have_text(["Ada Knockout", "Bea Phone"])
    expect(ada.locator("[data-testid=entrants] li")).to_have_count(2)  # Ada's page asked again
    assert_fits(bea)
    bea.goto("/#/")  # "Your games" leads back to it
    bea.click(f"[data-testid=my-rooms] [data-testid=my-tournament-{tid}]")
    expect(bea.locator("[data-testid=tournament-name]")).to_have_text("Friday knockout")

    ada.click("[data-testid=tournaments-back]")  # the list, with the form to create one
    expect(ada.locator(f"[data-testid=tournaments-registering] li[data-tournament='{tid}']")
           ).to_contain_text("2 / 4 players · Entry 100 chips")
    ada.evaluate("window.scrollTo(0, 0)")
    screenshots(ada, "tournaments.png", show="[data-testid=tournaments] h1")
    ada.click(f"[data-testid=tournament-{tid}]")

    for name in ("Cy", "Di"):  # the last place taken starts it
        api(server, "POST", f"/api/tournaments/{tid}/register", _guest(server, name))
    for page in (ada, bea):  # their tables wait for them (they stay: stand-ins play after 20 s)
        expect(page.locator("[data-testid=your-table]")).to_contain_text(
            re.compile(r"Your table is open: round 1, table \d\. The first deal waits for you"))
        expect(page.locator("[data-testid=going-to-table]")).to_contain_text("Going there by")
        page.click("[data-testid=stay-here]")
        expect(page.locator("[data-testid=tournament] dl.facts")).to_contain_text(
            re.compile(r"Wait for players\s*20 s"))

    _stay_to_the_end(ada, bea)
    for page in (ada, bea):
        tables = page.locator("[data-testid=bracket] [data-testid=bracket-table]")
        expect(tables).to_have_count(3)  # two tables of two, then the final
        for i in range(3):
            expect(tables.nth(i).locator("li[data-winner=true]")).to_have_count(1)
        expect(page.locator("[data-testid=bracket] h3")).to_have_text(["Round 1", "Final"])
        expect(page.locator("[data-testid=standings] tbody tr")).to_have_count(4)
        expect(page.locator("[data-testid=watch-table]")).to_have_count(0)  # nothing plays
    expect(ada.locator("[data-testid=standings] tbody td:nth-child(3)")).to_have_text(
        ["280 chips", "120 chips", "\u2014", "\u2014"])
    expect(ada.locator("[data-testid=prizes] li")).to_have_text(
        ["Place 1: 280 chips", "Place 2: 120 chips"])
    final = api(server, "GET", f"/api/tournaments/{tid}", _token(ada))
    prize = next(s["prize"] for s in final["standings"] if s["name"] == "Ada Knockout")
    expect(ada.locator("[data-testid=balance]")).to_contain_text(f"{START - 100 + prize} chips")
    assert_fits(bea)
    assert_accessible(bea)
    screenshots(ada, "tournament.png")
    for lang in LANGS:  # every string of both pages in every language
        texts = load(lang)
        ada.select_option("[data-testid=lang]", lang)
        expect(ada.locator("[data-testid=bracket] h2")).to_have_text(texts["tournament.bracket"])
        assert not untranslated(ada, lang), lang
        ada.click("[data-testid=tournaments-back]")
        expect(ada.locator("[data-testid=tournaments] h1")).to_have_text(texts["tournaments.title"])
        expect(ada.locator(f"[data-testid=tournaments-over] [data-tournament='{tid}']")
               ).to_be_visible()
        assert not untranslated(ada, lang), lang
        ada.click(f"[data-testid=tournament-{tid}]")
    ada.select_option("[data-testid=lang]", "en")

    bea.goto("/#/")  # over: no longer one of "Your games"
    expect(bea.locator("[data-testid=host-room]")).to_be_visible()
    expect(bea.locator(f"[data-testid=my-tournament-{tid}]")).to_have_count(0)


def _stay_to_the_end(*pages: Any) -> None:
    """Watch the pages until the tournament is over, each staying on the tournament's page
    whenever a table opens for its player (the page would go there by itself before its
    deal)."""
    deadline = time.monotonic() + FINISHED_MS / 1000
    while not all(page.locator("[data-testid=tournament][data-status=finished]").count()
                  for page in pages):
        assert time.monotonic() < deadline, "the tournament did not finish"
        for page in pages:
            stay = page.locator("[data-testid=stay-here]")
            if stay.count():
                stay.click()
        pages[0].wait_for_timeout(POLL_MS)


def test_unregister_and_cancel_give_the_entry_back(new_page: Any) -> None:
    page = new_page()
    sign_in_as_guest(page, "Cal Cancel")
    page.goto("/#/tournaments")
    tid = _create(page, "Called off", 2, "100")
    page.click("[data-testid=register]")
    expect(page.locator("[data-testid=balance]")).to_contain_text(f"{START - 100} chips")
    expect(page.locator("[data-testid=prize-pool]")).to_have_text("100 chips")
    page.click("[data-testid=unregister]")
    expect(page.locator("[data-testid=balance]")).to_contain_text(f"{START} chips")
    expect(page.locator("[data-testid=register]")).to_be_visible()
    page.click("[data-testid=cancel-tournament]")
    expect(page.locator("[data-testid=tournament]")).to_have_attribute("data-status", "cancelled")
    expect(page.locator(".notice")).to_have_text(
        "This tournament was cancelled: every entry was returned.")
    expect(page.locator("[data-testid=register]")).to_have_count(0)
    page.click("[data-testid=tournaments-back]")
    expect(page.locator(f"[data-testid=tournaments-over] [data-tournament='{tid}']")
           ).to_contain_text("Cancelled")


def _token(page: Any) -> str:
    return str(page.evaluate("localStorage.getItem('rummy.token')"))


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Computer players (the stand-ins of a tournament's absent players) that take 2 s a move:
    a table of Standard Rummy plays for a minute or more."""
    yield from e2e_server(tmp_path_factory, "e2e-slow", {"RUMMY_BOT_DELAY_SECONDS": "2"})


def test_own_table_reached_by_itself_and_a_watch_link(browser: Any,
                                                   slow_server: dict[str, Any]) -> None:
    contexts = [browser.new_context(viewport=size, base_url=slow_server["base_url"],
                                    has_touch=phone, is_mobile=phone)
                for size, phone in (({"width": 1400, "height": 900}, False),
                                    ({"width": 390, "height": 844}, True))]
    errors: list[str] = []
    try:
        host, player = (ctx.new_page() for ctx in contexts)
        for page in (host, player):
            page.set_default_timeout(WAIT_MS)
            page.on("pageerror", lambda e: errors.append(str(e)))
        sign_in_as_guest(host, "Hal Host")
        sign_in_as_guest(player, "Pia Player")
        host.goto("/#/tournaments")
        # The host does not play; the player's page goes to the table by itself 3 s before
        # its deal: after 17 s.
        tid = _create(host, "Heads up", 2, "100", turn_seconds=600, arrival_seconds=20)
        player.goto(f"/#/tournament/{tid}")
        player.click("[data-testid=register]")
        api(slow_server, "POST", f"/api/tournaments/{tid}/register",
            _guest(slow_server, "Quinn"))

        expect(player.locator("[data-testid=your-table]")).to_contain_text(
            "Your table is open: round 1, table 1. The first deal waits for you")
        room = player.locator("[data-testid=bracket-table]").get_attribute("data-room")
        watch = host.locator("[data-testid=watch-table]")
        expect(watch).to_have_attribute("href", f"#/room/{room}")
        expect(watch).to_have_attribute("aria-label", "Watch table 1 of round 1")
        assert_accessible(host)
        assert_fits(player)
        # Not clicked: the page goes to the table by itself 3 s before its deal.
        expect(player.locator("[data-testid=going-to-table]")).to_contain_text("Going there by")
        expect(player).to_have_url(re.compile(f"#/room/{room}$"))
        expect(player.locator("[data-testid=arrival-line]")).to_contain_text(
            "Waiting for players (1 of 2 here); the deal starts in")  # Quinn never comes
        expect(player.locator("[data-testid=hand] button.card")).not_to_have_count(0)
        watch.click()  # a spectator: the table, no hand of one's own
        expect(host).to_have_url(re.compile(f"#/room/{room}$"))
        expect(host.locator("[data-testid=stock]")).to_be_visible()
        expect(host.locator("[data-testid=hand] button.card")).to_have_count(0)
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, errors
