"""A player verifies a live deal in the browser (PROTOCOL.md §7, with WebCrypto's SHA-256).

Vera plays Standard Rummy against a computer player. Her browser sends a random seed for the
first hand by itself; she types her own instead; the first hand is dealt from it and played out
(draw from the stock, discard the card drawn); "Verify this deal" in the results and on the
table says the deal is proven. For the second hand the test tampers with the revealed seeds on
their way to the browser, which then says the deal is not proven.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import api, screenshot, sign_in_as_guest

OWN_SEED = "vera-chose-this_1"

# Installed once the room's socket exists, before the match starts: every state message is kept
# in window.__last (the socket's own `receive` is wrapped, so the page's handlers stay as they are).
HOOK = """() => {
  window.__hook = (sock) => {
    const receive = sock.receive.bind(sock);
    sock.receive = (m) => { if (m.type === 'state') window.__last = m; receive(m); };
    sock.__hooked = true;
  };
  window.__hook(window.__rummySocket);
}"""

# Play hand `h` out from this page's own socket: draw from the stock, discard the card drawn
# (or, if a discard was refused, the last card). Returns true; after 180 s, wherever it is
# waiting (an action's answer included), throws what it waited for and what the page showed, so
# that `page.evaluate` (which has no time limit of its own) always ends.
PLAY_OUT = """async (h) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const view = () => (window.__last && window.__last.view) || null;
  const seconds = 180;
  const deadline = Date.now() + seconds * 1000;
  const late = (what) => {
    const v = view();
    const error = new Error(`hand ${h} not played out in ${seconds} s: waiting for ${what}; ` +
      'shown: ' + JSON.stringify({ seq: window.__last && window.__last.seq, phase: v && v.phase,
        turn: v && v.turn, seat: v && v.seat, legal: v && v.legal, hand_no: v && v.hand_no,
        page: document.body.innerText.slice(0, 300) }));
    error.late = true;
    return error;
  };
  const within = (promise, what) => {
    let timer;
    const expiry = new Promise((_, reject) => {
      timer = setTimeout(() => reject(late(what)), Math.max(0, deadline - Date.now()));
    });
    return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
  };
  for (;;) {
    if (Date.now() >= deadline) throw late('the hand to end, or a turn of this seat');
    const sock = window.__rummySocket;
    if (!sock.__hooked) window.__hook(sock);  // the page made a new socket
    const v = view();
    if (v && (v.hand_no > h || (v.hand_no === h && v.hand_over))) return true;
    if (v && v.hand_no === h && v.turn === v.seat) {
      const seq = window.__last.seq;
      try {
        if (v.legal.includes('draw')) {
          const before = v.hand.slice();
          await within(sock.act({ type: 'draw', source: 'stock' }), 'the answer to a draw');
          while (window.__last.seq <= seq) {
            if (Date.now() >= deadline) throw late('the state after a draw');
            await sleep(10);
          }
          const after = view();
          if (after.hand_over) return true;
          const card = after.hand.find((c) => !before.includes(c));
          await within(sock.act({ type: 'discard', card }), 'the answer to a discard');
        } else if (v.legal.includes('discard')) {
          await within(sock.act({ type: 'discard', card: v.hand[v.hand.length - 1] }),
            'the answer to a discard');
        }
      } catch (e) {
        if (e.late) throw e;  // else a stale turn: look again
      }
    }
    await sleep(60);
  }
}"""


def _tamper_with_reveals(page: Any, switch: dict[str, bool]) -> None:
    """Forward the room's socket both ways; once `switch["on"]`, change Vera's seat's seed in
    every revealed deal the server sends."""
    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if switch["on"] and isinstance(message, str) and '"last_deal"' in message:
                data = json.loads(message)
                reveal = (data.get("view") or {}).get("last_deal")
                if reveal:
                    reveal["client_seeds"][data["view"]["seat"]] = "tampered"
                    message = json.dumps(data)
            ws.send(message)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)


def _verified(scope: Any, proven: bool) -> None:
    scope.locator("[data-testid=verify-deal]").click()
    result = scope.locator("[data-testid=verify-result]")
    expect(result).to_have_attribute("data-proven", "true" if proven else "false")
    expect(result).to_contain_text("Deal proven" if proven else "Deal NOT proven")
    for check in ("commitment", "seed", "hand", "upcard"):
        mark = result.locator(f"[data-check={check}]")
        if proven:
            expect(mark).to_have_attribute("data-ok", "true")
    if not proven:  # the tampered seed: not the one Vera sent, and not her cards
        expect(result.locator("[data-check=seed]")).to_have_attribute("data-ok", "false")
        expect(result.locator("[data-check=hand]")).to_have_attribute("data-ok", "false")
        expect(result.locator("[data-check=commitment]")).to_have_attribute("data-ok", "true")


def test_verify_this_deal_proves_a_live_deal_and_catches_a_tampered_seed(
        new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Vera")
    room = api(server, "POST", "/api/rooms", token, {
        "game": "standard", "options": {"target_score": 1000}, "seats": 2, "stake": 0,
        "turn_seconds": 0})
    api(server, "POST", f"/api/rooms/{room['id']}/bots", token, {"count": 1})
    switch = {"on": False}
    _tamper_with_reveals(page, switch)
    page.goto(f"/#/room/{room['id']}")

    panel = page.locator("[data-testid=fair-panel]")
    mine = panel.locator("[data-testid=my-seed]")
    expect(mine).to_contain_text(re.compile(r"[0-9a-f]{32}"))  # sent by the browser itself
    panel.locator("[data-testid=seed-input]").fill("not a seed!")
    panel.locator("[data-testid=seed-submit]").click()
    expect(mine).not_to_contain_text("not a seed")
    panel.locator("[data-testid=seed-input]").fill(OWN_SEED)
    panel.locator("[data-testid=seed-submit]").click()
    expect(mine).to_contain_text(OWN_SEED)

    page.evaluate(HOOK)  # before the deal: the computer's first move may come at once
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] button.card")
    expect(page.locator("[data-testid=deal-commitment]")).to_be_visible()
    expect(page.locator("[data-testid=stacked-deal]")).to_have_count(0)

    outcome = page.evaluate(PLAY_OUT, 0)
    assert outcome is True, outcome
    result = page.locator("[data-testid=hand-result]")
    expect(result).to_be_visible()
    _verified(result, proven=True)
    screenshot(page, "fair-deal.png")
    page.click("[data-testid=result-close]")
    _verified(panel, proven=True)  # the table's control, for the same hand

    switch["on"] = True
    page.wait_for_function("() => window.__last.view.hand_no === 1")
    outcome = page.evaluate(PLAY_OUT, 1)
    assert outcome is True, outcome
    expect(result).to_be_visible()
    expect(result.locator("[data-testid=result-close]")).to_be_visible()
    _verified(result, proven=False)
