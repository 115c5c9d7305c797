"""The first hand of every way into a match is proven by "Verify this deal" (issue 18, item 3;
PROTOCOL.md §7, docs/fairness.md), on a desktop and on a 390×844 touch phone.

The first hand of a quick play was not: the match was started over HTTP before the table page
opened, so the hand was dealt without the player's seed, against a commitment the browser never
saw. Quick play now opens the table first and starts once the browser's seed is in. Checked
here: the first hand of a quick play, of a hosted room, and of its rematch, each played out from
the page's own socket (draw from the stock, discard the card drawn) and verified in the hand's
results, with the four checks all true.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import api, sign_in_as_guest
from .test_fair_deal_browser import PLAY_OUT, _verified

DEVICES = pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
WAIT = 30_000
SENT = re.compile(r"[0-9a-f]{32}")  # the seed the browser sent by itself

# test_fair_deal_browser's hook (every state message kept in window.__last, which PLAY_OUT
# reads), installed on each room socket the moment the page makes it: before its first message,
# so that no state is missed however fast the first hand's first moves come.
EARLY_HOOK = """
window.__hook = (sock) => {
  const receive = sock.receive.bind(sock);
  sock.receive = (m) => { if (m.type === 'state') window.__last = m; receive(m); };
  sock.__hooked = true;
};
let current = null;
Object.defineProperty(window, '__rummySocket', { configurable: true, get: () => current,
  set: (sock) => { current = sock; if (sock && !sock.__hooked) window.__hook(sock); } });
"""


def _page(new_page: Any, phone: bool) -> Any:
    page = new_page(phone=phone)
    page.add_init_script(EARLY_HOOK)
    return page


def _first_hand_proven(page: Any) -> None:
    """Play hand 1 out from the page's socket; its result says the deal is proven."""
    page.wait_for_function("() => window.__last && window.__last.view", timeout=WAIT)
    outcome = page.evaluate(PLAY_OUT, 0)
    assert outcome is True, outcome
    result = page.locator("[data-testid=hand-result]")
    expect(result).to_be_visible(timeout=WAIT)
    expect(result.locator("#result-h")).to_contain_text("1")
    _verified(result, proven=True)


@DEVICES
def test_the_first_hand_of_a_quick_play_is_proven(new_page: Any, phone: bool) -> None:
    page = _page(new_page, phone)
    sign_in_as_guest(page, "Quick Vera")
    page.click("[data-testid=play-computer-standard]")
    expect(page.locator("[data-testid=hand] button.card")).to_have_count(10, timeout=WAIT)
    fair = page.evaluate("""() => JSON.parse(localStorage.getItem(
        'rummy.fair.' + location.hash.split('/').pop()))""")
    assert fair["dealt"]["0"]["commitment"] in fair["sent"]  # its seed went in before the deal
    _first_hand_proven(page)


@DEVICES
def test_the_first_hand_of_a_hosted_room_and_of_its_rematch_are_proven(
        new_page: Any, server: dict[str, Any], phone: bool) -> None:
    page = _page(new_page, phone)
    token = sign_in_as_guest(page, "Host Vera")
    room = api(server, "POST", "/api/rooms", token, {
        "game": "standard", "options": {"each_hand_own_game": True}, "seats": 2})
    api(server, "POST", f"/api/rooms/{room['id']}/bots", token, {"count": 1})
    page.goto(f"/#/room/{room['id']}")
    expect(page.locator("[data-testid=my-seed]")).to_contain_text(SENT, timeout=WAIT)
    page.click("[data-testid=start]")
    _first_hand_proven(page)

    # One hand is the match: play again, and the new room's first hand is proven too.
    page.locator("[data-testid=hand-result] [data-testid=play-again]").click()
    expect(page.locator("[data-testid=seats]")).to_be_visible(timeout=WAIT)
    assert page.url.rsplit("/", 1)[-1] != room["id"]
    expect(page.locator("[data-testid=my-seed]")).to_contain_text(SENT, timeout=WAIT)
    page.click("[data-testid=start]")
    _first_hand_proven(page)
