"""What the web edge costs and saves, on a real server.

``python -m bench.edge`` starts ``python -m app serve`` on a free port (SQLite in a temporary
folder) and prints: the bytes of the client's first load (every file the lobby page loads) plain
and gzipped; then, per kind of request, sequential requests per second and p50/p99 latency:
`GET /api/games` plain and gzipped (the largest API answer), a JS module with its full body and
as a 304 revalidation, and a 1 MiB body refused with 413.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = 300
FIRST_LOAD = ["/", "/style.css", "/favicon.svg", "/app.js", "/api.js", "/cards.js", "/host.js",
              "/i18n.js", "/lobby.js", "/table.js", "/ui.js", "/vendor/preact.module.js",
              "/vendor/hooks.module.js", "/vendor/htm.module.js", "/i18n/en.json"]


@contextmanager
def server() -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{folder}/bench.db"}
        process = subprocess.Popen(  # noqa: S603 - fixed argv, our own interpreter
            [sys.executable, "-m", "app", "serve", "--port", str(port)], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait(base)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=10)


def _wait(base: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(f"{base}/api/health", trust_env=False).is_success:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def first_load_bytes(client: httpx.Client, encoding: str) -> int:
    """Bytes on the wire for every file of the first page load."""
    total = 0
    for path in FIRST_LOAD:
        with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as answer:
            answer.raise_for_status()
            total += sum(len(chunk) for chunk in answer.iter_raw())
    return total


def timed(request: Callable[[], httpx.Response], status: int) -> dict[str, float]:
    """Requests per second and p50/p99 milliseconds of `REQUESTS` sequential requests."""
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        if (answer := request()).status_code != status:
            raise SystemExit(f"expected {status}, got {answer.status_code}: {answer.text}")
        times.append(time.perf_counter() - start)
    cuts = statistics.quantiles(times, n=100)
    return {"per_s": len(times) / sum(times), "p50": cuts[49] * 1000, "p99": cuts[98] * 1000}


def main() -> None:
    with server() as base, httpx.Client(base_url=base, trust_env=False) as client:
        plain, packed = first_load_bytes(client, "identity"), first_load_bytes(client, "gzip")
        print(f"first load: {plain} bytes plain, {packed} gzipped ({packed / plain:.0%})")
        etag = client.get("/table.js").headers["etag"]
        big = b"x" * 2**20
        cases = {
            "GET /api/games plain": (lambda: client.get(
                "/api/games", headers={"Accept-Encoding": "identity"}), 200),
            "GET /api/games gzip": (lambda: client.get(
                "/api/games", headers={"Accept-Encoding": "gzip"}), 200),
            "GET /table.js gzip": (lambda: client.get(
                "/table.js", headers={"Accept-Encoding": "gzip"}), 200),
            "GET /table.js 304": (lambda: client.get(
                "/table.js", headers={"If-None-Match": etag}), 304),
            "POST 1 MiB -> 413": (lambda: client.post("/api/auth/guest", content=big), 413),
        }
        print(f"{'request':<22} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7}")
        for name, (request, status) in cases.items():
            figures = timed(request, status)
            print(f"{name:<22} {figures['per_s']:>7.0f} {figures['p50']:>7.2f} "
                  f"{figures['p99']:>7.2f}")


if __name__ == "__main__":
    main()
