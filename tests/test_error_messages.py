"""Every error code the server can send has a player-facing message in every language."""

from __future__ import annotations

import ast
import json
import re

from tests.conftest import REPO_ROOT

LANGS = ["en", "da", "es", "fi", "nl"]
SNAKE = re.compile(r"^[a-z]+(_[a-z0-9]+)+$|^[a-z]+$")
# Where a code is written: the first argument of the error types and reply helpers (the second
# of the ones that take a status or a client id first), and the `code` of error classes.
CODE_ARG = {"IllegalAction": 0, "MalformedAction": 0, "InvalidOptions": 0, "InvalidDeal": 0,
            "InvalidSeed": 0, "RuleError": 0, "RoomError": 0, "InvalidSettings": 0,
            "BadMessage": 0, "refuse": 0, "refusal": 0, "error": 0, "http_error": 1,
            "error_reply": 1}
# Codes the browser client makes itself (static/api.js, static/table.js).
CLIENT_CODES = {"network_error", "not_connected", "connection_lost", "invalid_input"}
RULE_ID = re.compile(r"\b[A-Z]{2,}-[A-Z0-9]+(-\d+)?\b")


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def server_codes() -> set[str]:
    codes: set[str] = set()
    for path in (REPO_ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) in CODE_ARG:
                at = CODE_ARG[_name(node.func)]
                arg = node.args[at] if len(node.args) > at else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and SNAKE.match(arg.value):
                    codes.add(arg.value)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in ("code", "CODE") \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                codes.add(node.value.value)
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "_STATUS" for t in node.targets) \
                    and isinstance(node.value, ast.Dict):
                codes |= {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    return codes


def test_the_scan_finds_the_codes_of_every_layer() -> None:
    codes = server_codes()
    for code in ("not_your_turn", "conflicting_options", "no_such_room", "not_last_turn",
                 "too_many_sockets", "forbidden", "insufficient_chips", "storage_unavailable",
                 "body_too_large", "bad_message", "invite_required"):
        assert code in codes, code
    assert len(codes) > 90


def test_every_code_has_a_message_in_every_language() -> None:
    for lang in LANGS:
        texts = json.loads((REPO_ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
        missing = sorted(c for c in server_codes() | CLIENT_CODES if f"err.{c}" not in texts)
        assert not missing, (lang, missing)
        for key, text in texts.items():
            if key.startswith("err."):
                # No rule ID, no snake_case code, no card code like 6H in what a player reads.
                assert not RULE_ID.search(text), (lang, key, text)
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (lang, key, text)
                assert not re.search(r"\b[2-9TJQKA][CDHS]\b", text), (lang, key, text)
