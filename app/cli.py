"""Command line: `python -m app` / `rummy` (PROTOCOL.md section 6)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import orjson


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummy", description="Rummy Hall server and tools.")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the app over HTTP and websockets")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)

    replay = commands.add_parser("replay", help="replay a match log and print the result as JSON")
    replay.add_argument("file", metavar="FILE", help="match log path, or - for standard input")
    return parser


def serve(host: str, port: int) -> int:
    """Serve the app until interrupted."""
    import uvicorn

    uvicorn.run("app.main:create_app", factory=True, host=host, port=port)
    return 0


def _read_log(path: str) -> Any:
    """The parsed JSON of `path` (`-` is standard input); raises OSError or ValueError."""
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def replay(path: str) -> int:
    """Replay a match log; exit 0 with the result, or 1 if it is not a valid match log."""
    from app.engine.replay import InvalidMatchLog, run_replay

    try:
        log = _read_log(path)
    except OSError as exc:
        print(f"replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # json.JSONDecodeError and UnicodeDecodeError
        print(f"replay: invalid JSON in {path}: {exc}", file=sys.stderr)
        return 1
    try:
        result = run_replay(log)
    except InvalidMatchLog as exc:
        print(f"replay: invalid match log: {exc}", file=sys.stderr)
        return 1
    print(orjson.dumps(result).decode())
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit status."""
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return serve(args.host, args.port)
    return replay(args.file)
