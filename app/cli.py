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

    commands.add_parser("migrate", help="apply pending database migrations and exit")

    admin = commands.add_parser("create-admin", help="create an admin (or promote a player)")
    admin.add_argument("username", metavar="USERNAME")
    admin.add_argument("--password", required=True, metavar="PASSWORD")

    replay = commands.add_parser("replay", help="replay a match log and print the result as JSON")
    replay.add_argument("file", metavar="FILE", help="match log path, or - for standard input")
    return parser


def _database_url() -> str:
    from app.settings import get_settings

    return get_settings().database_url


def _redact(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def migrate() -> int:
    """Apply pending migrations; print the database's revision."""
    from app.db.migrate import upgrade

    url = _database_url()
    revision = upgrade(url)
    print(f"migrate: {_redact(url)} is at revision {revision}")
    return 0


def create_admin(username: str, password: str) -> int:
    """Create an admin account, or make an existing player an admin (after migrating)."""
    import asyncio

    from app.db.migrate import upgrade
    from app.db.session import make_engine, make_sessionmaker
    from app.services.accounts import AccountError
    from app.services.accounts import create_admin as make_admin

    url = _database_url()
    upgrade(url)

    async def run() -> str:
        engine = make_engine(url)
        try:
            async with make_sessionmaker(engine)() as session, session.begin():
                return (await make_admin(session, username, password)).id
        finally:
            await engine.dispose()

    try:
        player_id = asyncio.run(run())
    except AccountError as exc:
        print(f"create-admin: {exc}", file=sys.stderr)
        return 1
    print(f"create-admin: {username} is an admin (player {player_id})")
    return 0


def serve(host: str, port: int) -> int:
    """Apply pending migrations, then serve the app until interrupted."""
    import uvicorn

    from app.db.migrate import upgrade

    upgrade(_database_url())
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
    if args.command == "migrate":
        return migrate()
    if args.command == "create-admin":
        return create_admin(args.username, args.password)
    return replay(args.file)
