"""Browser tests: a real server (PostgreSQL when reachable, else SQLite) and Debian's Chromium."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import pg
from tests.conftest import REPO_ROOT, running_server

CHROMIUM = os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"
E2E_ENV = {
    "RUMMY_DEV_STACKED_DECKS": "1",
    "RUMMY_BOT_DELAY_SECONDS": "0.05",
    "RUMMY_NEXT_HAND_SECONDS": "0.2",
    "RUMMY_CALL_GRACE_SECONDS": "0.1",
    "RUMMY_LEADERBOARD_MIN_MATCHES": "1",
    # X-Forwarded-For from the test is believed (a browser sends none): a staked room keeps one
    # account per address, and the fair-play review's players each have their own.
    "RUMMY_TRUSTED_PROXIES": "127.0.0.1",
}

sync_api = pytest.importorskip("playwright.sync_api")
# Every action, wait_for_* and expect(...) waits up to this long (Playwright's expect would give
# up after 5 s): on a busy machine a computer's move or a page's render can take seconds.
WAIT_MS = 30_000
sync_api.expect.set_options(timeout=WAIT_MS)


def _database_url(workdir: Path) -> tuple[str, bool]:
    """A fresh PostgreSQL database if the server is reachable, else a SQLite file."""
    if pg.unreachable_reason() is None:
        return pg.create_database("rummy_e2e"), True
    if pg.is_required():
        pytest.fail(f"{pg.unreachable_reason()} (and RUMMY_REQUIRE_POSTGRES=1)")
    return f"sqlite+aiosqlite:///{workdir / 'e2e.db'}", False


def e2e_server(tmp_path_factory: pytest.TempPathFactory, name: str,
               extra: dict[str, str] | None = None) -> Iterator[dict[str, Any]]:
    """A real server with the browser tests' settings (and `extra`) on a fresh database: its
    base URL, database URL and environment."""
    workdir = tmp_path_factory.mktemp(name)
    database_url, is_pg = _database_url(workdir)
    env = {**E2E_ENV, "RUMMY_DATABASE_URL": database_url, **(extra or {})}
    try:
        with running_server(workdir, env) as base_url:
            yield {"base_url": base_url, "database_url": database_url, "env": env}
    finally:
        if is_pg:
            pg.drop_database(database_url)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The base URL and database URL of one real server for all browser tests."""
    yield from e2e_server(tmp_path_factory, "e2e")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module: Playwright's sync API holds an event loop of its own while
    it is open, so it must be closed before an async test runs in the same process."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: dict[str, Any]) -> Iterator[Any]:
    """Make pages in fresh browser contexts (each its own localStorage, i.e. its own player).

    Any uncaught page error, "missing translation" warning or Content-Security-Policy violation
    (the server's CSP allows no inline script: docs/security.md) fails the test."""
    contexts: list[Any] = []
    problems: list[str] = []

    def make(locale: str = "en-US", phone: bool = False) -> Any:
        size = PHONE if phone else {"width": 1400, "height": 900}
        ctx = browser.new_context(viewport=size, locale=locale, base_url=server["base_url"],
                                  has_touch=phone, is_mobile=phone)
        ctx.set_default_timeout(WAIT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("console", lambda m: problems.append(m.text)
                if _is_problem(m.text) else None)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not problems, problems


def _is_problem(console_text: str) -> bool:
    return "missing translation" in console_text or "Content Security Policy" in console_text


PHONE = {"width": 390, "height": 844}
AXE = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id}: ${v.help} @ ${v.nodes.slice(0, 3).map((n) => n.target.join(' '))}`);
}"""


def assert_accessible(page: Any) -> None:
    """axe-core (vendored in static/vendor, loaded from our own origin) finds no serious or
    critical violation on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url="/vendor/axe.min.js")
    problems = page.evaluate(AXE)
    assert not problems, problems


WIDE = """() => [...document.body.querySelectorAll('*')]
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
  .slice(-4).map((el) => `${el.tagName}.${el.className} ${el.getBoundingClientRect().right}`)"""


def assert_fits(page: Any) -> None:
    """No horizontal scroll: the page is no wider than the window."""
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    wide = page.evaluate(WIDE) if width[0] > width[1] else []
    assert width[0] <= width[1], f"page is {width[0]} px wide in a {width[1]} px window: {wide}"


NARROW = {"width": 360, "height": 740}


def screenshot(page: Any, name: str, full_page: bool = False) -> None:
    """A screenshot for docs/screenshots, of a page that fits a 360 px phone too."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page, animations="disabled")
    fits_narrow(page)


def fits_narrow(page: Any) -> None:
    """The page fits a 360 px window too (the narrowest phone the client is made for)."""
    size = page.viewport_size
    page.set_viewport_size(NARROW)
    try:
        assert_fits(page)
    finally:
        page.set_viewport_size(size)


def screenshots(page: Any, name: str, show: str | None = None) -> None:
    """``name`` at the page's width and ``phone-name`` at 390 px, where the page must fit, as
    at 360 px, and pass axe (``show``: a selector scrolled into view for the phone's shot)."""
    size = page.viewport_size
    assert_accessible(page)
    screenshot(page, name)
    page.set_viewport_size(PHONE)
    try:
        assert_fits(page)
        if show:
            page.locator(show).scroll_into_view_if_needed()
        screenshot(page, "phone-" + name)
    finally:
        page.set_viewport_size(size)


def sign_in_as_guest(page: Any, name: str) -> str:
    """Open the app, play as a guest; returns the bearer token from localStorage."""
    page.goto("/")
    page.fill("input[name=name]", name)
    page.click("[data-testid=auth-submit]")
    page.wait_for_selector("[data-testid=host-room]")
    return str(page.evaluate("localStorage.getItem('rummy.token')"))


def open_replay(page: Any, match_id: str, link: Any = None) -> Any:
    """Open the player's replay of ``match_id`` by clicking ``link`` (a locator of its
    ``#/replay/ID`` link), else by its address; returns the step's position (``replay-pos``)
    once the board of that match shows."""
    if link is None:
        page.goto(f"/#/replay/{match_id}")
    else:
        link.click()
    sync_api.expect(page).to_have_url(re.compile(f"#/replay/{re.escape(match_id)}$"))
    sync_api.expect(page.locator("[data-testid=replay-board]")).to_be_visible()
    return page.locator("[data-testid=replay-pos]")


def go_to_step(page: Any, step: int) -> None:
    """Show the replay's (or the admin's match page's) ``step``, counting the deal as 1."""
    page.locator(".action-list li button").nth(step - 1).click()
    sync_api.expect(page.locator(".action-list li button.current")).to_have_count(1)


def api(server: dict[str, Any], method: str, path: str, token: str | None = None,
        body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.request(method, server["base_url"] + path, json=body, headers=headers,
                      timeout=10, trust_env=False)
    assert r.is_success, r.text
    return r.json()


def create_admin(server: dict[str, Any], username: str, password: str) -> None:
    subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [sys.executable, "-m", "app", "create-admin", username, "--password", password],
        cwd=REPO_ROOT, env={**os.environ, **server["env"]}, check=True, capture_output=True)


def full_pack(packs: int = 1, jokers: int = 0) -> list[str]:
    cards = [r + s for s in "CDHS" for r in "A23456789TJQK"] * packs
    return cards + ["JK"] * jokers


def stock_for(pack: list[str], hands: list[list[str]], discard: list[str],
              top: list[str]) -> list[str]:
    """The stock: `top` first, then whatever of the pack the hands and discard do not use."""
    rest = list(pack)
    for card in [c for h in hands for c in h] + discard + top:
        rest.remove(card)
    return top + rest
