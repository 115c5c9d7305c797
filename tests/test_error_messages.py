"""The registry of refusals (app/refusals.py) is the one list of error codes: every code has a
player-facing message in every language, no code is written as a bare string anywhere else in
app/, each answers over HTTP with the registry's status, and docs/server.md's table is the
registry's."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.api import errors
from app.refusals import TABLE_BEGIN, TABLE_END, Code, Fault, Refusal, table
from tests.conftest import REPO_ROOT

LANGS = ["en", "da", "es", "fi", "nl"]
# Codes the browser client makes itself (static/api.js, static/table.js).
CLIENT_CODES = {"network_error", "not_connected", "connection_lost"}
RULE_ID = re.compile(r"\b[A-Z]{2,}-[A-Z0-9]+(-\d+)?\b")
# Strings equal to a code that mean something else in their module; kept as small as it can be.
NOT_A_CODE = {
    ("app/engine/state.py", "hand_over"),  # Phase values and the state's game_over flag
    ("app/engine/state.py", "game_over"),
    ("app/engine/views.py", "hand_over"),  # the view's flags
    ("app/engine/views.py", "game_over"),
    ("app/engine/replay.py", "game_over"),  # a replay step's flag
    ("app/engine/flow.py", "hand_over"),  # event types
    ("app/engine/flow.py", "game_over"),
    ("app/rooms/runner.py", "call_window_closed"),  # an event type
    ("app/engine/games.py", "one_meld_per_turn"),  # an option's name
    ("app/engine/options.py", "one_meld_per_turn"),
    ("app/engine/scoring.py", "blocked"),  # how a hand ended: a blocked game (no one can go)
}


def test_codes_are_snake_case_and_their_message_key_is_the_clients() -> None:
    for code in Code:
        assert re.fullmatch(r"[a-z]+(_[a-z0-9]+)*", code.value), code
        assert code.message_key == f"err.{code.value}"
        assert 400 <= code.status < 600 and isinstance(code.fault, Fault)
        assert (code.fault is Fault.SERVER) == (code.status >= 500), code


def test_every_code_has_a_message_in_every_language() -> None:
    for lang in LANGS:
        texts = json.loads((REPO_ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
        wanted = {code.message_key for code in Code} | {f"err.{c}" for c in CLIENT_CODES}
        missing = sorted(wanted - texts.keys())
        assert not missing, (lang, missing)
        for key, text in texts.items():
            if key.startswith("err."):
                # No rule ID, no snake_case code, no card code like 6H in what a player reads.
                assert not RULE_ID.search(text), (lang, key, text)
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (lang, key, text)
                assert not re.search(r"\b[2-9TJQKA][CDHS]\b", text), (lang, key, text)


def _bare_codes() -> set[tuple[str, str, int]]:
    values = {code.value for code in Code}
    found = set()
    for path in sorted((REPO_ROOT / "app").rglob("*.py")):
        module = path.relative_to(REPO_ROOT).as_posix()
        if module == "app/refusals.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in values \
                    and (module, node.value) not in NOT_A_CODE:
                found.add((module, node.value, node.lineno))
    return found


def test_no_code_is_written_as_a_bare_string_outside_the_registry() -> None:
    assert not sorted(_bare_codes()), "write Code.X, or say in NOT_A_CODE why not"


def test_the_allowlist_holds_only_strings_still_there() -> None:
    for module, value in NOT_A_CODE:
        tree = ast.parse((REPO_ROOT / module).read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.Constant) and n.value == value for n in ast.walk(tree)), \
            (module, value)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    """A bare app with the server's handler, raising the refusal the path names."""
    app = FastAPI()
    app.add_exception_handler(Refusal, errors.refused)

    @app.get("/refuse/{code}")
    async def refuse(code: str) -> Any:
        raise Refusal(Code(code), f"refused: {code}", {"retry_after": 7} if code ==
                      Code.TOO_MANY_ATTEMPTS else None)

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


async def test_every_code_answers_with_the_registrys_status(http: httpx.AsyncClient) -> None:
    for code in Code:
        answer = await http.get(f"/refuse/{code.value}")
        assert answer.status_code == code.status, code
        detail = answer.json()["detail"]
        assert (detail["code"], detail["message"]) == (code.value, f"refused: {code.value}")
    throttled = await http.get(f"/refuse/{Code.TOO_MANY_ATTEMPTS.value}")
    assert throttled.headers["Retry-After"] == "7" and throttled.json()["detail"][
        "retry_after"] == 7


def test_a_websocket_error_carries_the_fields_beside_the_fixed_four_and_a_short_message() -> None:
    reply = Refusal(Code.MUST_USE_TAKEN_CARD, "x" * 500, {"card": "KD", "code": "no"}).reply(3)
    assert reply["card"] == "KD" and (reply["type"], reply["id"], reply["code"]) == (
        "error", 3, "must_use_taken_card")
    assert len(reply["message"]) == 200


def test_docs_server_md_holds_the_registrys_table() -> None:
    text = (REPO_ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    assert TABLE_BEGIN in text and TABLE_END in text, "regenerate: python -m app.refusals"
    held = text.split(TABLE_BEGIN, 1)[1].split(TABLE_END, 1)[0].strip()
    assert held == table(), "docs/server.md: paste the output of python -m app.refusals"
