"""The web edge over a real server (docs/security.md): size limits, security headers, compressed
and revalidated static files, the API documentation switch, proxies.

Every check talks to a real `python -m app serve` over real sockets.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import os
import socket
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.api import messages
from app.main import STATIC_DIR
from app.refusals import Refusal
from tests.conftest import running_server
from tests.waits import DEADLINE

LIMIT = 16 * 1024  # docs/server.md: websocket messages are limited to 16 KiB
PRODUCTION = {"RUMMY_ENVIRONMENT": "production", "RUMMY_SECRET_KEY": "s" * 40}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("edge")) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, trust_env=False, timeout=10) as client:
        yield client


def _token(http: httpx.Client) -> str:
    answer = http.post("/api/auth/guest", json={"name": "Edge"})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def _assert_protected(response: httpx.Response) -> None:
    """The security headers of every answer: a CSP without inline script, no framing."""
    policy = response.headers.get("content-security-policy", "")
    directives = dict(d.strip().partition(" ")[::2] for d in policy.split(";"))
    assert directives["script-src"] == "'self'", policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert directives["frame-ancestors"] == "'none'"
    assert directives["connect-src"] == "'self'"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


# --- security headers -------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "status", "kind"), [
    ("GET", "/", 200, "text/html"),
    ("GET", "/admin/", 200, "text/html"),
    ("GET", "/app.js", 200, "text/javascript"),
    ("GET", "/style.css", 200, "text/css"),
    ("GET", "/favicon.svg", 200, "image/svg+xml"),
    ("GET", "/api/games", 200, "application/json"),
    ("GET", "/api/health", 200, "application/json"),
    ("GET", "/api/me", 401, "application/json"),
    ("GET", "/api/no-such-call", 404, "application/json"),
    ("POST", "/api/auth/guest", 422, "application/json"),
    ("GET", "/no-such-file.js", 404, "application/json"),
])
def test_every_answer_carries_the_security_headers(
        http: httpx.Client, method: str, path: str, status: int, kind: str) -> None:
    response = http.request(method, path, json={} if method == "POST" else None)

    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(kind)
    _assert_protected(response)


def test_the_pages_load_no_inline_script(http: httpx.Client) -> None:
    for page in ("/", "/admin/"):
        html = http.get(page).text
        assert "<script>" not in html and "<style" not in html and "style=" not in html
        assert 'src="data:' not in html and 'href="data:' not in html  # img-src 'self' only
        assert '<script type="module" src="/' in html


# --- request body limit -----------------------------------------------------------------------


def test_a_1_mib_body_is_413_and_changes_nothing(http: httpx.Client) -> None:
    token = _token(http)
    before = http.get("/api/rooms").json()
    body = orjson.dumps({"game": "standard", "seats": 2, "options": {"pad": "x" * 2**20}})

    response = http.post("/api/rooms", content=body, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})

    assert response.status_code == 413
    assert response.json()["detail"]["code"] == "body_too_large"
    _assert_protected(response)
    assert http.get("/api/rooms").json() == before


def test_a_chunked_body_over_64_kib_is_413(http: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
        yield b'{"name": "'
        for _ in range(64):
            yield b"y" * 16_384
        yield b'"}'

    response = http.post("/api/auth/guest", content=chunks(),
                         headers={"Content-Type": "application/json"})

    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert response.status_code == 413
    assert response.json()["detail"]["code"] == "body_too_large"


def test_a_body_under_the_limit_is_read(http: httpx.Client) -> None:
    body = b'{"name": "Ann", "pad": "' + b"z" * 60_000 + b'"}'

    response = http.post("/api/auth/guest", content=body,
                         headers={"Content-Type": "application/json"})

    assert response.status_code == 200, response.text


def test_an_announced_large_body_is_refused_before_it_is_sent(server: str) -> None:
    """Only the headers and 10 bytes go out; the 413 comes back without waiting for the rest."""
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"POST /api/auth/guest HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"
                     b'{"name": "')
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413 "), answer


# --- websocket message limit ------------------------------------------------------------------


async def _room_socket(server: str, http: httpx.Client) -> tuple[str, str]:
    token = _token(http)
    room = http.post("/api/rooms", json={"game": "standard", "seats": 2},
                     headers={"Authorization": f"Bearer {token}"})
    assert room.status_code == 200, room.text
    return server.replace("http://", "ws://") + f"/ws/rooms/{room.json()['id']}", token


async def test_a_17_kib_websocket_message_is_closed_with_1009(
        server: str, http: httpx.Client) -> None:
    url, token = await _room_socket(server, http)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
        assert orjson.loads(await asyncio.wait_for(ws.recv(), DEADLINE))["type"] == "state"
        # Just under the limit: still an ordinary message, answered.
        await ws.send(orjson.dumps({"type": "ping", "pad": "p" * (LIMIT - 40)}).decode())
        assert orjson.loads(await asyncio.wait_for(ws.recv(), DEADLINE)) == {"type": "pong"}

        await ws.send(orjson.dumps({"type": "ping", "pad": "p" * 17 * 1024}).decode())
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 1009


async def test_a_message_over_the_limit_in_fragments_is_closed_with_1009(
        server: str, http: httpx.Client) -> None:
    url, token = await _room_socket(server, http)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
        await asyncio.wait_for(ws.recv(), DEADLINE)
        await ws.send(["q" * 9 * 1024, "q" * 9 * 1024])  # two frames, one 18 KiB message
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 1009


async def test_an_oversized_frame_is_closed_before_it_is_read_whole(server: str) -> None:
    """A frame header announcing 17 KiB, then only 100 bytes: the close comes at once."""
    host, port = server.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /ws/rooms/x HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    # FIN + text opcode, masked, 64-bit length; then a sliver of the payload.
    writer.write(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", 17 * 1024) + os.urandom(4)
                 + b"x" * 100)
    frame = await asyncio.wait_for(reader.read(2 + 125), 5)
    writer.close()
    assert frame[0] == 0x88, frame  # a close frame
    assert struct.unpack("!H", frame[2:4])[0] == 1009


def test_the_message_parser_keeps_its_own_limit() -> None:
    """Defence in depth, for a server without uvicorn's limit: bytes, not characters."""
    with pytest.raises(Refusal) as refused:
        messages.parse('{"type": "chat", "text": "' + "é" * 9_000 + '"}')
    assert refused.value.code == "message_too_large"


# --- static files: compressed, revalidated ----------------------------------------------------


@pytest.mark.parametrize("path", ["/table.js", "/style.css", "/i18n/en.json", "/api/games"])
def test_answers_are_gzipped_when_asked(http: httpx.Client, path: str) -> None:
    plain = http.get(path, headers={"Accept-Encoding": "identity"})
    packed = http.get(path, headers={"Accept-Encoding": "gzip"})

    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["vary"]
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.content == plain.content  # httpx unpacked it: the same bytes
    _assert_protected(packed)


def test_the_gzip_on_the_wire_unpacks_to_the_file(server: str) -> None:
    with httpx.Client(base_url=server, trust_env=False, timeout=DEADLINE) as client, \
            client.stream("GET", "/table.js", headers={"Accept-Encoding": "gzip"}) as answer:
        raw = b"".join(answer.iter_raw())
    assert gzip.decompress(raw) == (STATIC_DIR / "table.js").read_bytes()


@pytest.mark.parametrize("path", ["/", "/app.js", "/vendor/preact.module.js", "/i18n/es.json"])
def test_static_files_revalidate_with_etags(http: httpx.Client, path: str) -> None:
    first = http.get(path)
    assert first.headers["cache-control"] == "no-cache"
    assert first.headers["etag"] and first.headers["last-modified"]

    again = http.get(path, headers={"If-None-Match": first.headers["etag"],
                                    "Accept-Encoding": "gzip"})

    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["cache-control"] == "no-cache"
    _assert_protected(again)


# --- API documentation and proxies ------------------------------------------------------------


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json"])
def test_api_docs_are_served_in_development(http: httpx.Client, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 200
    assert "content-security-policy" in answer.headers


def test_production_hides_the_api_docs_and_ignores_forwarded_headers(tmp_path: Path) -> None:
    with running_server(tmp_path, PRODUCTION) as base_url, \
            httpx.Client(base_url=base_url, trust_env=False, timeout=DEADLINE) as client:
        for path in ("/docs", "/redoc", "/openapi.json"):
            assert client.get(path).status_code == 404, path
        assert client.get("/api/games").status_code == 200
        # No trusted proxy: a client cannot claim https (nor another address).
        claimed = client.get("/", headers={"X-Forwarded-Proto": "https"})
        assert "strict-transport-security" not in claimed.headers


def test_api_docs_setting_and_trusted_proxies_in_production(tmp_path: Path) -> None:
    env = {**PRODUCTION, "RUMMY_API_DOCS": "1", "RUMMY_TRUSTED_PROXIES": "127.0.0.1"}
    with running_server(tmp_path, env) as base_url, \
            httpx.Client(base_url=base_url, trust_env=False, timeout=DEADLINE) as client:
        assert client.get("/openapi.json").json()["info"]["title"] == "Rummy Hall"
        docs = client.get("/docs")
        assert docs.status_code == 200
        assert "frame-ancestors 'none'" in docs.headers["content-security-policy"]
        # From the trusted proxy, https is believed: the answer asks for https from now on.
        proxied = client.get("/", headers={"X-Forwarded-Proto": "https"})
        assert proxied.headers["strict-transport-security"].startswith("max-age=")


# --- server errors ----------------------------------------------------------------------------


def test_a_server_error_carries_the_headers_and_the_error_format(tmp_path: Path) -> None:
    with running_server(tmp_path) as base_url, \
            httpx.Client(base_url=base_url, trust_env=False, timeout=DEADLINE) as client:
        with sqlite3.connect(tmp_path / "x.db") as db:  # the server's database loses a table
            db.execute("DROP TABLE auth_tokens")
        answer = client.post("/api/auth/guest", json={"name": "Ann"})

    assert answer.status_code >= 500
    assert answer.json()["detail"]["code"]
    _assert_protected(answer)
