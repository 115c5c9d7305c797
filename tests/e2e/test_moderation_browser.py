"""Moderation in the browser (PROTOCOL.md §9, issue 24): a player blocks, mutes and reports
another from the seat's and the chat's menu; an admin decides the report, reads the audit,
mutes a player's chat and lifts it, corrects a ledger (and is refused below zero), suspends
a player (whose table says so and stops); the menu at phone size; the fair-play page's pairs
flagged by the server's review, with their evidence opening in the step replay."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.api.client import (
    Player,
    WsClient,
    call,
    guest,
    http_client,
    post_from,
    take_turn,
)
from tests.waits import eventually

from .conftest import (
    PHONE,
    api,
    assert_accessible,
    assert_fits,
    create_admin,
    screenshot,
    sign_in_as_guest,
)

ADMIN, PASSWORD = "moderator", "modpass123"
CHAT = "[data-testid=chat-list]"
shared: dict[str, Any] = {}


def two_at_a_table(new_page: Any, server: dict[str, Any], names: tuple[str, str],
                   phone: bool = False) -> tuple[Any, Any, dict[str, str]]:
    """Two players (the first on a phone if `phone`) seated at one Standard table, playing."""
    host, guest = new_page(phone=phone), new_page()
    host_token = sign_in_as_guest(host, names[0])
    guest_token = sign_in_as_guest(guest, names[1])
    room = api(server, "POST", "/api/rooms", host_token, {"game": "standard", "seats": 2})
    api(server, "POST", f"/api/rooms/{room['id']}/join", guest_token, {})
    api(server, "POST", f"/api/rooms/{room['id']}/start", host_token, {})
    for page in (host, guest):
        page.goto(f"/#/room/{room['id']}")
        page.wait_for_selector("[data-testid=hand] button.card")
    ids = {"host": api(server, "GET", "/api/me", host_token)["id"],
           "guest": api(server, "GET", "/api/me", guest_token)["id"], "room": room["id"],
           "match": api(server, "GET", f"/api/rooms/{room['id']}", host_token)["match_id"]}
    return host, guest, ids


def say(page: Any, text: str) -> None:
    """Send a chat line and wait for the server to give it back."""
    page.fill("[data-testid=chat-input]", text)
    page.press("[data-testid=chat-input]", "Enter")
    expect(page.locator(CHAT)).to_contain_text(text)


def admin_page(new_page: Any, server: dict[str, Any]) -> Any:
    if not shared.get("admin"):
        create_admin(server, ADMIN, PASSWORD)
        shared["admin"] = True
    page = new_page()
    page.goto("/admin/")
    page.fill("[data-testid=admin-login] input[name=username]", ADMIN)
    page.fill("[data-testid=admin-login] input[name=password]", PASSWORD)
    page.click("[data-testid=admin-login] button[type=submit]")
    expect(page.locator("h1")).to_have_text("Matches")
    return page


def submit(page: Any, fields: dict[str, str], button: str) -> None:
    """Fill an admin form's fields (by test id) and press its button."""
    for testid, value in fields.items():
        page.fill(f"[data-testid={testid}]", value)
    page.click(f"[data-testid={button}]")


def pick(page: Any, name: str) -> None:
    page.fill("[data-testid=pick-query]", name)
    page.click("[data-testid=pick-search]")
    expect(page.locator("[data-testid=pick-player] option")).to_have_count(1)


def test_block_mute_and_report_from_the_menus(new_page: Any, server: dict[str, Any]) -> None:
    alma, bruno, ids = two_at_a_table(new_page, server, ("Alma", "Bruno"))
    shared.update(ids=ids)
    seat = alma.locator("[data-testid=seat-1] [data-testid=player-1]")
    expect(seat).to_have_text("Bruno")
    expect(alma.locator("[data-testid=player-menu]")).to_have_count(0)
    say(bruno, "hello from Bruno")
    expect(alma.locator(CHAT)).to_contain_text("hello from Bruno")

    # Mute at this table, from the chat line's name; a computer player or oneself has no menu.
    alma.locator(CHAT).get_by_role("button", name="Options for Bruno").click()
    menu = alma.locator("[data-testid=player-menu]")
    expect(menu.locator("[data-testid=menu-block]")).to_be_focused()  # the first item
    alma.keyboard.press("ArrowDown")
    expect(menu.locator("[data-testid=menu-mute]")).to_be_focused()
    menu.locator("[data-testid=menu-mute]").click()
    expect(alma.locator(CHAT)).not_to_contain_text("hello from Bruno")
    expect(alma.locator(CHAT)).to_be_focused()  # the name that opened the menu is gone
    seat.click()
    expect(menu.locator("[data-testid=menu-mute]")).to_have_text("Unmute chat here")
    menu.locator("[data-testid=menu-mute]").click()
    expect(alma.locator(CHAT)).to_contain_text("hello from Bruno")

    # The keyboard: Enter opens the seat's menu, Escape closes it and the focus comes back.
    seat.focus()
    alma.keyboard.press("Enter")
    expect(menu).to_be_visible()
    expect(seat).to_have_attribute("aria-expanded", "true")
    assert_accessible(alma)
    alma.keyboard.press("Escape")
    expect(menu).to_have_count(0)
    expect(seat).to_be_focused()

    # Block: Bruno's lines are hidden, and the server no longer sends them.
    seat.click()
    menu.locator("[data-testid=menu-block]").click()
    expect(alma.locator(".toast-ok").last).to_contain_text("Bruno is blocked")
    expect(seat).to_be_focused()
    expect(alma.locator(CHAT)).not_to_contain_text("hello from Bruno")
    say(bruno, "after the block")
    say(alma, "Alma speaks")
    expect(bruno.locator(CHAT)).to_contain_text("Alma speaks")
    expect(alma.locator(CHAT)).not_to_contain_text("after the block")
    assert api(server, "GET", "/api/me/blocks", alma.evaluate(
        "localStorage.getItem('rummy.token')")) == {"blocked": [ids["guest"]]}
    seat.click()
    expect(menu.locator("[data-testid=menu-block]")).to_have_text("Unblock")

    # Report, about this match; the dialog gives the focus back to the seat's name.
    menu.locator("[data-testid=menu-report]").click()
    dialog = alma.locator("[data-testid=report-dialog]")
    expect(dialog.locator("[data-testid=report-reason]")).to_be_focused()
    expect(dialog.locator("[data-testid=report-match]")).to_be_checked()
    dialog.locator("[data-testid=report-reason]").select_option("abuse")
    dialog.locator("[data-testid=report-text]").fill("Rude in the chat.")
    assert_accessible(alma)
    dialog.locator("[data-testid=report-send]").click()
    expect(dialog).to_have_count(0)
    expect(alma.locator(".toast-ok").last).to_contain_text("went to the admins")
    expect(seat).to_be_focused()
    screenshot(alma, "moderation-table.png")


def test_the_admin_decides_the_report_and_reads_the_audit(new_page: Any,
                                                         server: dict[str, Any]) -> None:
    ids = shared.get("ids")
    assert ids, "the block and report test must run first"
    page = admin_page(new_page, server)
    page.click("[data-testid=tab-reports]")
    row = page.locator("[data-testid=report-list] tbody tr").filter(has_text="Rude in the chat.")
    expect(row).to_contain_text("Bruno")
    expect(row).to_contain_text("Alma")
    expect(row).to_contain_text("Abusive behaviour")
    expect(row.locator("[data-testid=report-status]")).to_have_text("Open")
    assert_accessible(page)
    row.locator("[data-testid=decide-note]").fill("Warned in writing")
    row.locator("[data-testid=decide-actioned]").click()
    expect(row.locator("[data-testid=report-status]")).to_have_text("Acted on")
    expect(row.locator("[data-testid=report-decision]")).to_contain_text(
        f"By {ADMIN}")
    expect(row.locator("[data-testid=report-decision]")).to_contain_text("Warned in writing")
    page.select_option("[data-testid=reports-status]", "open")  # the queue: open ones only
    expect(row).to_have_count(0)
    page.select_option("[data-testid=reports-status]", "actioned")
    row.locator(f"[data-open-match='{ids['match']}']").click()  # the match, in the replay
    expect(page.locator("[data-testid=replay]")).to_be_visible()
    page.get_by_role("button", name="Back").click()
    expect(page.locator("h1")).to_have_text("Reports")

    page.click("[data-testid=tab-audit]")
    decision = page.locator("[data-testid=audit-list] tr[data-action=report_actioned]")
    expect(decision).to_contain_text("Warned in writing")
    expect(decision).to_contain_text("Acted on a report")
    expect(decision).to_contain_text("Bruno")
    viewed = page.locator("[data-testid=audit-list] tr[data-action=view_live_match]").first
    expect(viewed).to_contain_text("Opened a match in progress")
    assert_accessible(page)
    screenshot(page, "admin-audit.png")


def test_sanctions_corrections_and_a_suspension(new_page: Any, server: dict[str, Any]) -> None:
    _, finn, _ = two_at_a_table(new_page, server, ("Eva", "Finn"))
    page = admin_page(new_page, server)
    page.click("[data-testid=tab-sanctions]")
    pick(page, "Finn")
    submit(page, {"sanction-hours": "2", "sanction-reason": "Spam in the chat"}, "sanction-give")
    row = page.locator("[data-testid=sanction-list] tbody tr").filter(has_text="Spam in the chat")
    expect(row).to_contain_text("Chat mute")
    expect(row).to_contain_text("Finn")
    expect(row).to_contain_text(ADMIN)  # given by
    expect(row.locator("[data-testid=sanction-lift]")).to_be_visible()
    assert_accessible(page)

    # The list is the server's (GET /api/admin/sanctions): a reload still shows the mute in
    # force, with the end the server keeps.
    token = page.evaluate("localStorage.getItem('rummy.admin.token')")  # admin/session.js
    listed = api(server, "GET", "/api/admin/sanctions", token)["sanctions"]
    mute = next(s for s in listed if s["reason"] == "Spam in the chat")
    page.reload()
    page.click("[data-testid=tab-sanctions]")
    row = page.locator(f"[data-testid=sanction-list] tr[data-sanction='{mute['id']}']")
    expect(row).to_contain_text("Spam in the chat")
    ends = page.evaluate("iso => new Date(iso).toLocaleString()", mute["ends_at"])
    expect(row.locator("[data-testid=sanction-until]")).to_have_text(ends)

    finn.fill("[data-testid=chat-input]", "muted words")  # refused, with the chat_muted text
    finn.press("[data-testid=chat-input]", "Enter")
    expect(finn.locator(".toast-error").last).to_have_text("An admin has muted your chat for now.")
    expect(finn.locator(CHAT)).not_to_contain_text("muted words")
    row.locator("[data-testid=sanction-lift]").click()  # lifted: no longer in force
    expect(row).to_have_count(0)
    assert mute["id"] not in [s["id"] for s in api(server, "GET", "/api/admin/sanctions",
                                                     token)["sanctions"]]
    page.check("[data-testid=sanctions-all]")  # every sanction: the mute, lifted early
    expect(row.locator("[data-testid=sanction-state]")).to_have_text("Lifted early")
    expect(row.locator("[data-testid=sanction-lift]")).to_have_count(0)
    page.uncheck("[data-testid=sanctions-all]")
    expect(row).to_have_count(0)
    say(finn, "free to speak")

    page.click("[data-testid=tab-corrections]")  # below zero: refused, nothing changes
    pick(page, "Finn")
    submit(page, {"correction-amount": "-100000000", "correction-reason": "Too much"},
           "correction-submit")
    expect(page.locator("[data-testid=corrections] .form-error")).to_contain_text(
        "Not enough chips.")
    submit(page, {"correction-amount": "25", "correction-reason": "Lost to a server fault"},
           "correction-submit")
    expect(page.locator("[data-testid=correction-done]")).to_contain_text("+25 chips for Finn")
    expect(page.locator("[data-testid=corrections] .form-error")).to_have_count(0)

    page.click("[data-testid=tab-sanctions]")  # a suspension: the table says so and stops
    pick(page, "Finn")
    page.select_option("[data-testid=sanction-kind]", "suspension")
    submit(page, {"sanction-reason": "Repeated abuse"}, "sanction-give")
    given = page.locator("[data-testid=sanction-list] tbody tr").filter(has_text="Repeated abuse")
    expect(given).to_contain_text("Suspension")  # the list, read again after giving
    expect(given.locator("[data-testid=sanction-lift]")).to_be_visible()
    expect(finn.locator("[data-testid=conn-closed]")).to_contain_text(
        "An admin has suspended your account")
    expect(finn.locator("[data-testid=reconnecting]")).to_have_count(0)
    finn.click("[data-testid=back-lobby]")
    expect(finn.locator("[data-testid=suspended]")).to_contain_text("Account suspended")
    page.click("[data-testid=tab-audit]")
    audit = page.locator("[data-testid=audit-list]")
    for action in ("chat_mute", "lift_chat_mute", "chips", "suspension"):
        expect(audit.locator(f"tr[data-action={action}]").first).to_be_visible()


def test_the_seat_menu_at_phone_size(new_page: Any, server: dict[str, Any]) -> None:
    carla, _, _ = two_at_a_table(new_page, server, ("Carla", "Dario"), phone=True)
    seat = carla.locator("[data-testid=seat-1] [data-testid=player-1]")
    seat.click()
    menu = carla.locator("[data-testid=player-menu]")
    expect(menu).to_be_in_viewport(ratio=1)
    box = menu.bounding_box()
    assert box and box["width"] <= PHONE["width"]
    for item in menu.locator("button").all():
        assert (item.bounding_box() or {"height": 0})["height"] >= 44
    assert_fits(carla)
    assert_accessible(carla)
    screenshot(carla, "phone-player-menu.png")
    menu.locator("[data-testid=menu-report]").click()
    dialog = carla.locator("[data-testid=report-dialog]")
    expect(dialog).to_be_in_viewport()
    assert_fits(carla)
    carla.click("#report-h")  # the focus leaves the form: Escape still closes the dialog
    carla.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(seat).to_be_focused()


# The fair-play review's data (docs/fairplay.md), each person from an address of their own
# (X-Forwarded-For: the browser tests' server trusts the test as its proxy). Dumper and Friend
# play four staked two-player matches to a target of 1 point (one hand, two if the stock runs
# out first): Dumper never melds (draws from the stock and throws the card drawn, `take_turn`),
# Friend leaves at the start and the computer player that takes a seat over goes out, so a hand
# moves Dumper's whole hand, some 30 to 80 points, to Friend. Against the field each hosts four
# staked six-seat matches of one hand with another guest and four computer players, all left
# to the stand-ins at once, at a buy-in of one
# chip: a hand there moves at most one stake between two seats, so their results against others
# explain none of that flow.
PAIR_ROOM = {"game": "standard", "seats": 2, "stake": 1, "buy_in": 200,
             "options": {"target_score": 1}}
FIELD_ROOM = {**PAIR_ROOM, "seats": 6, "buy_in": 1}
FIELD_MATCHES, PAIR_MATCHES = 4, 4


async def dumping_pair(base_url: str, admin: Player) -> tuple[Player, Player, list[str]]:
    """Dumper and Friend, with their history (above); the ids of their matches together."""
    async with http_client(base_url) as http:
        dumper, friend = [await guest(http, name) for name in ("Dumper", "Friend")]
        home = {dumper.id: "198.51.100.1", friend.id: "198.51.100.2"}
        started = []
        for n, player in enumerate([dumper, friend] * FIELD_MATCHES):
            other = await guest(http, f"Field {n + 1}")
            room = await post_from(http, home[player.id], "/api/rooms", player, FIELD_ROOM)
            await post_from(http, f"198.51.100.{n + 10}", f"/api/rooms/{room['id']}/join",
                            other, {"invite": room["invite_code"]})
            await call(http, "POST", f"/api/rooms/{room['id']}/bots", player, {"count": 4})
            started.append((await call(http, "POST", f"/api/rooms/{room['id']}/start",
                                       player))["match_id"])
            for seated in (player, other):
                await call(http, "POST", f"/api/rooms/{room['id']}/leave", seated)
        together = [await dump_to(http, base_url, dumper, friend, home)
                    for _ in range(PAIR_MATCHES)]

        async def all_over() -> bool:  # the list reads no match's hidden state (no audit)
            over = {m["id"] for p in (dumper, friend) for m in (await call(
                http, "GET", f"/api/admin/matches?player={p.id}", admin))["matches"]
                if m["status"] in ("finished", "abandoned")}
            return over >= {*started, *together}

        await eventually(all_over, "the fair-play matches are over")
    return dumper, friend, together


async def dump_to(http: httpx.AsyncClient, base_url: str, dumper: Player, friend: Player,
                  home: dict[str, str]) -> str:
    """One match of the pair to its end: Dumper pays Friend (above); its id."""
    room = await post_from(http, home[dumper.id], "/api/rooms", dumper, PAIR_ROOM)
    await post_from(http, home[friend.id], f"/api/rooms/{room['id']}/join", friend,
                    {"invite": room["invite_code"]})
    client = await WsClient.join(base_url, room["id"], dumper, home[dumper.id])
    try:
        started = await call(http, "POST", f"/api/rooms/{room['id']}/start", dumper)
        await call(http, "POST", f"/api/rooms/{room['id']}/leave", friend)
        while True:
            index, turn = await client.wait_index(lambda m: m["type"] == "state" and m["view"] and (
                m["view"]["game_over"] or (m["view"]["turn"] == client.seat
                                           and not m["view"]["hand_over"])), client.cursor)
            client.cursor = index + 1
            if turn["view"]["game_over"]:
                return str(started["match_id"])
            await take_turn(client, turn)
    finally:
        await client.close()


def test_the_fair_play_page_opens_the_evidence_in_the_replay(new_page: Any,
                                                            server: dict[str, Any]) -> None:
    """A pair the server's own review flags (PROTOCOL.md §9): the page shows it with its
    reason, and a pair's evidence match opens in the step replay; Back returns."""
    page = admin_page(new_page, server)
    token = api(server, "POST", "/api/auth/login", body={
        "username": ADMIN, "password": PASSWORD})["token"]
    admin = Player("", ADMIN, token)
    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        dumper, friend, together = thread.submit(
            asyncio.run, dumping_pair(server["base_url"], admin)).result()
    review = api(server, "GET", "/api/admin/fairplay", token)["pairs"]
    pair = next(p for p in review if set(p["players"]) == {dumper.id, friend.id})
    if not (pair["flagged"] and pair["reasons"] == ["chip_flow"]):
        hands = {m: [r["payments"] for r in api(server, "GET", f"/api/admin/matches/{m}",
                                                token)["results"]] for m in together}
        pytest.fail(f"the pair is not flagged for its chip flow: {pair}; its hands: {hands}")
    assert pair["matches"] == PAIR_MATCHES and set(pair["evidence"]) <= set(together), pair
    evidence = pair["evidence"][0]

    page.click("[data-testid=tab-fairplay]")
    row = page.locator(f"[data-testid=pair-list] tr[data-pair='{','.join(pair['players'])}']")
    names = {dumper.id: "Dumper", friend.id: "Friend"}
    expect(row).to_contain_text(" · ".join(names[p] for p in pair["players"]))
    expect(row).to_contain_text(f"{round(pair['score'] * 100)}%")
    expect(row.locator("[data-testid=pair-flagged]")).to_have_text("flagged")
    expect(row).to_contain_text("Chips flow one way between them")
    expect(row).not_to_contain_text("They connect from the same address")
    assert_accessible(page)
    page.fill("[data-testid=fair-min]", str(PAIR_MATCHES + 1))
    with page.expect_request(f"**/api/admin/fairplay?min_matches={PAIR_MATCHES + 1}"):
        page.locator("[data-testid=fairplay] button[type=submit]").click()
    expect(row).to_have_count(0)
    page.fill("[data-testid=fair-min]", str(PAIR_MATCHES))
    page.locator("[data-testid=fairplay] button[type=submit]").click()
    with page.expect_request(f"**/api/admin/matches/{evidence}"):
        row.locator(f"[data-open-match='{evidence}']").click()
    expect(page.locator("[data-testid=replay]")).to_be_visible()
    expect(page.locator("[data-testid=results] tbody")).to_contain_text("Friend")  # the winner
    page.get_by_role("button", name="Back").click()
    expect(page.locator("h1")).to_have_text("Fair play")
    expect(row.locator("[data-testid=pair-flagged]")).to_have_text("flagged")
