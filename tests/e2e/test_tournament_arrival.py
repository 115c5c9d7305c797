"""Tournament arrival in the browser (PROTOCOL.md §8 "Arrival" and "Where to be", issue 35).

Four players, each in a browser of their own (two desktops at 1280×800, two phones at 390×844,
in English, Spanish, Danish and Finnish), enter a knockout at tables of two. From the
tournament page ("Go to your table") each comes to their table, where the first to come sees
the waiting line ("Waiting for players (1 of 2 here); the deal starts in 42 s") until the
other one is there, and the bracket of a player still on the tournament page marks who is at
the table. The matches are Knock Rummy to 1 point with a turn timer of 1 s, so the server's
moves play them out in seconds (the players do nothing: this is about where the client leads
them). Each round-1 result screen says what comes next: the two winners are led to the final
(one clicks "Go to your next table", the other is taken there when the countdown ends), the
two others are out; at the end every result screen gives the player's place, read in all five
languages.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.waits import wait_until

from .conftest import api, assert_accessible, assert_fits, sign_in_as_guest
from .test_i18n import LANGS, load, untranslated

DESKTOP = {"width": 1280, "height": 800}
MATCH_MS = 120_000  # a match of server moves on a busy machine: far beyond its usual seconds
KNOCKOUT = {"name": "Browser knockout", "game": "knock", "options": {"target_score": 1},
            "players": 4, "table_seats": 2, "entry": 0, "prizes": [100], "turn_seconds": 1,
            "arrival_seconds": 60}
LANG = {"Ada": "en", "Bea": "es", "Cy": "da", "Di": "fi"}


def _players(new_page: Any) -> list[tuple[Any, str, str]]:
    """Ada and Cy on desktops, Bea and Di on phones, each in their language (`LANG`): (page,
    name, token)."""
    out = []
    for name, phone in (("Ada", False), ("Bea", True), ("Cy", False), ("Di", True)):
        page = new_page(phone=phone)
        if not phone:
            page.set_viewport_size(DESKTOP)
        out.append((page, name, sign_in_as_guest(page, name)))
        page.select_option("[data-testid=lang]", LANG[name])
    return out


def _tables(server: dict[str, Any], tid: str, token: str) -> dict[str, list[str]]:
    """Each round-1 table's room and its players' ids."""
    t = api(server, "GET", f"/api/tournaments/{tid}", token)
    return {x["room"]: x["players"] for x in t["rounds"][0]["tables"]}


def test_the_client_leads_each_player_to_their_next_table(new_page: Any,
                                                          server: dict[str, Any]) -> None:
    people = _players(new_page)
    ids = {name: api(server, "GET", "/api/me", token)["id"] for _, name, token in people}
    tid = api(server, "POST", "/api/tournaments", people[0][2], KNOCKOUT)["id"]
    for page, _, token in people:
        page.goto(f"/#/tournament/{tid}")
        api(server, "POST", f"/api/tournaments/{tid}/register", token)
    ada, bea = people[0][0], people[1][0]
    expect(ada.locator("[data-testid=your-table]")).to_contain_text(
        re.compile(r"Your table is open: round 1, table \d\. The first deal waits for you: \d+ s"))
    for page, name, _ in people:
        expect(page.locator("[data-testid=your-table]")).to_contain_text(
            _texts(name)["tournament.table_open"].split(":")[0])
        assert not untranslated(page, LANG[name])
    assert_fits(bea)

    # One player of each table comes first and waits for the other; then the other comes.
    tables = _tables(server, tid, people[0][2])
    by_id = {ids[name]: (page, name) for page, name, _ in people}
    order = [by_id[p] for players in tables.values() for p in players]
    tables_list = list(tables)
    for k, (page, name) in enumerate(order):
        page.click("[data-testid=go-table]")
        if k % 2 == 0:
            expect(page.locator("[data-testid=arrival-line]")).to_have_text(
                _waiting(_texts(name)["arrival.waiting"]))
            expect(page.locator("[data-testid^=arrived-]")).to_have_count(2)
            if k == 0:  # the bracket of a player still on the tournament page shows who came
                expect(order[3][0].locator(f"[data-room='{tables_list[0]}'] [data-testid=here]")
                       ).to_have_count(1)
            if name in ("Bea", "Di"):
                assert_fits(page)
            else:
                assert_accessible(page)
    for page, _, _ in people:  # everyone is there: dealt at once, well before the 60 s
        expect(page.locator("[data-testid=arrival-wait]")).to_have_count(0)
        expect(page.locator("[data-testid=stock]")).to_be_visible()

    # Round 1 over: the final opens, and its players' result screens lead there, one of them
    # by a click, the other when its countdown ends; the others are out.
    final = wait_until(lambda: _final(server, tid, people[0][2]), "the final open",
                       timeout=MATCH_MS / 1000)
    finalists = [(page, name) for page, name, _ in people if ids[name] in final["players"]]
    out = [(page, name) for page, name, _ in people if ids[name] not in final["players"]]
    (first, first_name), (second, second_name) = finalists
    expect(first.locator("[data-testid=next-table]").first).to_contain_text(
        _texts(first_name)["next.open"].split(":")[0])
    first.locator("[data-testid=go-next-table]").first.click()  # one click
    expect(first).to_have_url(re.compile(f"#/room/{final['room']}$"))
    for page, name in out:
        expect(page.locator("[data-testid=next-step]").first).to_have_text(
            _texts(name)["next.out"])
    expect(second).to_have_url(re.compile(f"#/room/{final['room']}$"))  # after the countdown

    # The final, and at the end every player's place on their result screen.
    done = wait_until(lambda: _finished(server, tid, people[0][2]), "the tournament over",
                      timeout=MATCH_MS / 1000)
    for standing in done["standings"]:
        page, name = by_id[standing["player"]]
        key = "next.champion" if standing["place"] == 1 else "next.finished"
        expect(page.locator("[data-testid=next-step]").first).to_have_text(
            _texts(name)[key].replace("{place}", str(standing["place"])))
    assert not untranslated(bea, "es")
    assert_fits(bea)
    ada_place = next(s["place"] for s in done["standings"] if s["player"] == ids["Ada"])
    key = "next.champion" if ada_place == 1 else "next.finished"
    for lang in LANGS:  # the result screen's next step in every language (Ada's desktop)
        ada.select_option("[data-testid=lang]", lang)
        expect(ada.locator("[data-testid=next-step]").first).to_have_text(
            load(lang)[key].replace("{place}", str(ada_place)))
        assert not untranslated(ada, lang), lang


def _texts(name: str) -> dict[str, str]:
    """The words of ``name``'s page."""
    return load(LANG[name])


def _waiting(text: str) -> re.Pattern[str]:
    """The waiting line for one of two players here, the seconds left whatever they are."""
    return re.compile(re.escape(text).replace(re.escape("{here}"), "1")
                      .replace(re.escape("{seats}"), "2").replace(re.escape("{n}"), r"\d+"))


def _final(server: dict[str, Any], tid: str, token: str) -> dict[str, Any] | None:
    """The final's table once it has opened (its players' ``my_table``)."""
    rounds = api(server, "GET", f"/api/tournaments/{tid}", token)["rounds"]
    final = rounds[1]["tables"][0] if len(rounds) > 1 else None
    return final if final is not None and final["opened_at"] else None


def _finished(server: dict[str, Any], tid: str, token: str) -> dict[str, Any] | None:
    t = api(server, "GET", f"/api/tournaments/{tid}", token)
    return t if t["status"] == "finished" else None
