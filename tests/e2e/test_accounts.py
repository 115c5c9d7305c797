"""Accounts in the browser: signing up is refused a common password with the reason; Log out
revokes the token on the server; a guest is warned first that the account cannot be recovered."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import sign_in_as_guest


def _token_works(server: dict[str, Any], token: str) -> bool:
    answer = httpx.get(server["base_url"] + "/api/me", headers={"Authorization": f"Bearer {token}"},
                       timeout=10, trust_env=False)
    return answer.status_code == 200


def test_a_guest_is_warned_before_logging_out(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    token = sign_in_as_guest(page, "Fleeting")
    warning = page.locator("[data-testid=guest-logout]")
    page.click("[data-testid=logout]")
    expect(warning).to_contain_text("cannot be recovered")
    page.click("text=Stay logged in")
    expect(warning).to_have_count(0)
    expect(page.locator("[data-testid=me-name]")).to_have_text("Fleeting")
    assert _token_works(server, token)

    page.click("[data-testid=logout]")
    page.click("[data-testid=guest-logout-confirm]")
    expect(page.locator("[data-testid=auth-submit]")).to_be_visible()
    assert page.evaluate("localStorage.getItem('rummy.token')") is None
    assert not _token_works(server, token)  # revoked on the server, not only forgotten


def test_sign_up_and_log_out(new_page: Any, server: dict[str, Any]) -> None:
    page = new_page()
    page.goto("/")
    page.click("[data-testid=tab-register]")
    expect(page.locator("#password-help")).to_contain_text("At least 10 characters")
    page.fill("input[name=username]", "Browser_User")
    page.fill("input[name=password]", "qwertyuiop")
    page.click("[data-testid=auth-submit]")
    expect(page.locator(".form-error")).to_contain_text("well-known common passwords")
    page.fill("input[name=password]", "a sturdy passphrase")
    page.click("[data-testid=auth-submit]")
    expect(page.locator("[data-testid=me-name]")).to_have_text("Browser_User")
    token = str(page.evaluate("localStorage.getItem('rummy.token')"))

    page.click("[data-testid=logout]")  # no warning: a registered player can log in again
    expect(page.locator("[data-testid=auth-submit]")).to_be_visible()
    assert not _token_works(server, token)
    page.click("[data-testid=tab-login]")
    page.fill("input[name=username]", "browser_user")  # any case
    page.fill("input[name=password]", "a sturdy passphrase")
    page.click("[data-testid=auth-submit]")
    expect(page.locator("[data-testid=me-name]")).to_have_text("Browser_User")
