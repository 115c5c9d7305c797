"""One error format under ``/api/`` (docs/server.md, "HTTP API"): every 4xx and 5xx answers
``{"detail": {"code", "message", ...}}``, Starlette's own 404 and 405 and FastAPI's 422
included; every 405 names in `Allow` exactly the methods its path takes; and a NUL character is
refused where the schema says so (a declared field, the path, the query), not in a key the
schema leaves free.

Every check talks to a real `python -m app serve` over real sockets.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.api.routes import walk
from tests.conftest import running_server

PARAM = re.compile(r"\{[^}]+\}")
# Every method a client may send (HEAD too: the API's routes take GET without HEAD).
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("error_shapes")) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, trust_env=False, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def token(http: httpx.Client) -> dict[str, str]:
    answer = http.post("/api/auth/guest", json={"name": "Shapes"})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The answer's detail, checked to be the error format with `status` and `code`."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    detail: dict[str, Any] = response.json()["detail"]
    assert isinstance(detail, dict), detail
    assert detail["code"] == code, detail
    assert isinstance(detail["message"], str) and detail["message"], detail
    return detail


# --- 404 and 405 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/api/no-such-call"),
    ("POST", "/api/rooms/r1/no-such-call"),
    ("DELETE", "/api/me/blocks/and/more"),
    ("PUT", "/api/a/b/c/d/e"),
])
def test_an_unknown_api_path_is_404_not_found(http: httpx.Client, method: str,
                                              path: str) -> None:
    _refused(http.request(method, path), 404, "not_found")


def _served() -> dict[str, set[str]]:
    """Each API path (its parameters as ``{}``) and the methods its routes take."""
    served: dict[str, set[str]] = defaultdict(set)
    for path, route in walk(create_app().routes):
        served[PARAM.sub("{}", path)] |= route.methods or set()
    return dict(served)


def _covers(template: str, path: str) -> bool:
    """Whether a request for `path` reaches a route of `template`: segment by segment, the same
    text or a parameter."""
    wanted, given = template.split("/"), path.split("/")
    return len(wanted) == len(given) and all(w in ("{}", g) for w, g in zip(wanted, given,
                                                                           strict=True))


def test_every_405_names_exactly_the_methods_of_its_path(http: httpx.Client) -> None:
    """For every API path, every method it does not take: 405 ``method_not_allowed``, and
    `Allow` (and the detail's `allowed`) the methods of every route the path reaches (`GET` and
    `PATCH /api/me` are two routes; ``/api/rooms/quick``-like paths reach a parameter's route
    too)."""
    served = _served()
    assert len(served) >= 30
    checked = 0
    for template in served:
        path = template.replace("{}", "p0")
        allowed = set().union(*(methods for other, methods in served.items()
                                if _covers(other, path)))
        for method in sorted(set(METHODS) - allowed):
            response = http.request(method, path)
            assert response.status_code == 405, (method, path, response.text)
            named = {m.strip() for m in response.headers["allow"].split(",")}
            assert named == allowed, (method, path, response.headers["allow"])
            if method != "HEAD":  # no body
                detail = _refused(response, 405, "method_not_allowed")
                assert detail["allowed"] == sorted(allowed)
            checked += 1
    assert checked >= 100


# --- 422 --------------------------------------------------------------------------------------


def test_a_body_its_schema_refuses_is_invalid_input_with_where(http: httpx.Client) -> None:
    detail = _refused(http.post("/api/auth/guest", json={"name": 5}), 422, "invalid_input")
    assert detail["errors"] == [{"type": "string_type", "loc": ["body", "name"],
                                 "msg": "Input should be a valid string"}]
    assert detail["message"] == "name: Input should be a valid string"

    missing = _refused(http.post("/api/auth/guest", json={}), 422, "invalid_input")
    assert [e["loc"] for e in missing["errors"]] == [["body", "name"]]


def test_a_body_that_is_not_json_is_invalid_input(http: httpx.Client) -> None:
    answer = http.post("/api/auth/guest", content=b'{"name": ',
                       headers={"Content-Type": "application/json"})
    detail = _refused(answer, 422, "invalid_input")
    assert detail["errors"][0]["type"] == "json_invalid"


def test_a_query_its_schema_refuses_is_invalid_input(http: httpx.Client,
                                                     token: dict[str, str]) -> None:
    detail = _refused(http.get("/api/me/matches?limit=0", headers=token), 422, "invalid_input")
    assert [e["loc"] for e in detail["errors"]] == [["query", "limit"]]


def test_an_invalid_input_echoes_neither_the_input_nor_a_thousand_errors(
        http: httpx.Client, token: dict[str, str]) -> None:
    body = {"game": "standard", "players": 4, "table_seats": 4, "entry": 0, "turn_seconds": 0,
            "prizes": ["x" * 1000] * 40}
    detail = _refused(http.post("/api/tournaments", json=body, headers=token), 422,
                      "invalid_input")
    assert len(detail["errors"]) == 10
    assert all(set(e) == {"type", "loc", "msg"} for e in detail["errors"])
    assert len(detail["message"]) <= 200
    assert "x" * 100 not in str(detail)


def test_the_document_says_a_422_is_in_the_error_format() -> None:
    document = create_app().openapi()
    refs = {operation["responses"]["422"]["content"]["application/json"]["schema"]["$ref"]
            for operations in document["paths"].values() for operation in operations.values()
            if "422" in operation["responses"]}
    assert refs == {"#/components/schemas/ErrorOut"}
    assert "HTTPValidationError" not in document["components"]["schemas"]


# --- NUL --------------------------------------------------------------------------------------


def test_a_nul_in_a_key_the_schema_leaves_free_is_ignored(http: httpx.Client,
                                                          token: dict[str, str]) -> None:
    answer = http.post("/api/auth/guest", json={"name": "Nul", "note": "a\x00b",
                                                "\x00": ["\x00"]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"]["name"] == "Nul"
    room = http.post("/api/rooms", headers=token,
                     json={"game": "standard", "seats": 2, "extra": {"\x00": "\x00"}})
    assert room.status_code == 200, room.text


@pytest.mark.parametrize(("path", "body", "loc"), [
    ("/api/auth/guest", {"name": "A\x00n"}, ["body", "name"]),
    ("/api/rooms", {"game": "standard", "seats": 2, "options": {"x": ["a\x00"]}},
     ["body", "options"]),
    ("/api/rooms", {"game": "standard", "seats": 2, "options": {"\x00": 1}}, ["body", "options"]),
    ("/api/rooms/r1/join", {"invite": "\x00"}, ["body", "invite"]),
])
def test_a_nul_in_a_declared_field_is_refused(http: httpx.Client, token: dict[str, str],
                                              path: str, body: dict[str, Any],
                                              loc: list[str]) -> None:
    detail = _refused(http.post(path, json=body, headers=token), 400, "nul_character")
    assert [e["loc"] for e in detail["errors"]] == [loc]


@pytest.mark.parametrize("path", ["/api/rooms?game=%00", "/api/rooms/a%00b"])
def test_a_nul_in_the_path_or_query_is_refused(http: httpx.Client, token: dict[str, str],
                                               path: str) -> None:
    _refused(http.get(path, headers=token), 400, "nul_character")
