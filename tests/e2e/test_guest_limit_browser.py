"""The guest limit says how long to wait (issue 18, item 9), in the player's language: over
`RUMMY_GUESTS_PER_ADDRESS_PER_HOUR` the server answers 429 with Retry-After and `retry_after`,
and the sign-in form says "try again in N minutes" rather than only "Too many attempts"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import running_server

from .conftest import E2E_ENV, sign_in_as_guest


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server of its own that lets one guest an hour come from an address."""
    workdir: Path = tmp_path_factory.mktemp("guest_limit")
    env = {**E2E_ENV, "RUMMY_GUESTS_PER_ADDRESS_PER_HOUR": "1"}
    with running_server(workdir, env) as base_url:
        yield {"base_url": base_url, "env": env}


def _refused(page: Any) -> Any:
    page.goto("/")
    page.fill("input[name=name]", "One Too Many")
    page.click("[data-testid=auth-submit]")
    return page.locator(".form-error[role=alert]")


def test_the_guest_limit_says_how_long_to_wait(new_page: Any) -> None:
    sign_in_as_guest(new_page(), "First Of Hour")
    spanish = _refused(new_page(locale="es-ES", phone=True))
    expect(spanish).to_have_text(re.compile(
        r"^Demasiados intentos desde esta dirección: vuelve a intentarlo dentro de (59|60) "
        r"minutos\.$"))
    english = _refused(new_page())
    expect(english).to_have_text(re.compile(
        r"^Too many attempts from this address: try again in (59|60) minutes\.$"))
