"""Command line: `python -m app` / `rummy` (PROTOCOL.md section 6, and `verify-deal`: section 7)."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import re
import socket
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import orjson
import uvicorn

if TYPE_CHECKING:
    from app.settings import Settings

# The collector's thresholds while serving. A live room replaces its state on every action, so
# at any moment nearly every room's current state (about thirty lists each) is younger than
# the last collection, and whichever generation is collected walks all of them: with 2,000
# rooms a young collection every 50,000 net allocations walked ~100,000 live objects (76-150 ms
# every few seconds), the open-loop tail (docs/benchmarks.md, issue 19). Young collections
# every 2,000 walk only the states made since the last one (10-13 ms); a middle collection,
# which walks every room (~300 ms at 2,000 rooms), waits for 1,000 of them (minutes under
# load). Steady play makes no cyclic garbage (its young collections free nothing), so little
# waits that long to be freed. `bench.baseline` serves with the same.
GC_THRESHOLDS = (2_000, 1_000, 10)


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

    verify = commands.add_parser(
        "verify-deal", help="re-derive a hand's deal from its revealed seeds and print it as JSON")
    verify.add_argument("--game", required=True, metavar="G")
    verify.add_argument("--options", default="{}", metavar="JSON")
    verify.add_argument("--players", type=int, required=True, metavar="N")
    verify.add_argument("--dealer", type=int, required=True, metavar="D")
    verify.add_argument("--server-seed", required=True, metavar="HEX")
    verify.add_argument("--client-seeds", required=True, metavar="JSON",
                        help='one text per seat, "" for a seat that sent none')
    verify.add_argument("--commitment", metavar="HEX",
                        help="the commitment shown before the hand: exit 1 if the seed differs")
    return parser


def _fail(message: str, status: int) -> NoReturn:
    """End the command with one line on standard error (never a traceback)."""
    print(f"rummy: {message}", file=sys.stderr)
    raise SystemExit(status)


def _settings() -> Settings:
    """The validated settings, or exit 2 with one line naming each bad variable."""
    from pydantic import ValidationError

    from app.settings import get_settings, problem

    try:
        return get_settings()
    except ValidationError as exc:
        _fail(f"bad setting: {problem(exc)}", 2)


def _redact(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _upgrade(url: str) -> str | None:
    """Apply pending migrations, or exit 1 with one line when the database cannot be opened."""
    from sqlalchemy.exc import SQLAlchemyError

    from app.db.migrate import upgrade

    try:
        return upgrade(url)
    except (OSError, SQLAlchemyError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        _fail(f"cannot open the database {_redact(url)} (RUMMY_DATABASE_URL): {reason}", 1)


def _reach_redis(url: str) -> None:
    """Exit 1 with one line unless Redis answers: checked before anything is served or
    migrated, as the database is."""
    import asyncio

    from redis.exceptions import RedisError

    from app.services.redis_client import check, redacted

    try:
        asyncio.run(check(url))
    except (OSError, RedisError) as exc:
        reason = (str(exc) or type(exc).__name__).splitlines()[0]
        _fail(f"cannot reach Redis at {redacted(url)} (RUMMY_REDIS_URL): {reason}", 1)


def migrate() -> int:
    """Apply pending migrations; print the database's revision."""
    url = _settings().database_url
    revision = _upgrade(url)
    print(f"migrate: {_redact(url)} is at revision {revision}")
    return 0


def create_admin(username: str, password: str) -> int:
    """Create an admin account, or make an existing player an admin (after migrating)."""
    import asyncio

    from app.db.session import make_engine, make_sessionmaker
    from app.services.accounts import AccountError
    from app.services.accounts import create_admin as make_admin

    url = _settings().database_url
    _upgrade(url)

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

    from app.api.messages import MAX_MESSAGE_BYTES
    from app.api.wsprotocol import LeanWebSocketProtocol, UpgradingHttpProtocol
    from app.logs import configuration

    settings = _settings()
    config = uvicorn.Config(
        "app.main:create_server", factory=True, interface="asgi3", host=host, port=port,
        # One logging configuration for uvicorn's loggers and the server's, applied here, so
        # the migrations' lines below are written the same way (docs/operations.md, "Logs").
        log_config=configuration(settings),
        # A websocket message over the limit is closed with 1009 as soon as its header says
        # so, before its payload is read.
        ws_max_size=MAX_MESSAGE_BYTES,
        # X-Forwarded-For is believed only from the configured proxies.
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies or None,
        # No per-message compression: a deflate context costs each socket ~64 KiB at rest.
        ws_per_message_deflate=False,
        ws=LeanWebSocketProtocol,  # uvicorn's own, lighter at rest
        http=UpgradingHttpProtocol,  # and its HTTP one, which leaves no cycle on an upgrade
        server_header=False)
    logging.captureWarnings(True)  # a library's warnings are log lines too (py.warnings)
    if settings.redis_url:
        _reach_redis(settings.redis_url)
    _upgrade(settings.database_url)
    gc.set_threshold(*GC_THRESHOLDS)
    server = _AnnouncingServer(config, plain=settings.log_format == "text")
    server.run(sockets=[_listen(host, port, settings.socket_send_buffer)])
    return 0


def _listen(host: str, port: int, send_buffer: int) -> socket.socket:
    """The listening socket. Accepted sockets inherit its send buffer: a capped buffer makes a
    client that stops reading show up in its outbox (and be dropped) instead of hiding
    megabytes in the kernel."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        _fail(f"serve: cannot listen on {host}:{port}: {exc.strerror}", 1)
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class _AnnouncingServer(uvicorn.Server):
    """Says which address to open once the socket is listening: a line of its own for a
    person (`plain`), else a log line like every other."""

    def __init__(self, config: uvicorn.Config, plain: bool) -> None:
        super().__init__(config)
        self.plain = plain

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.servers:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            if host in ("0.0.0.0", "::"):  # noqa: S104 - every interface: this machine is one
                host = "localhost"
            shown = f"[{host}]" if ":" in host else host
            line = f"Rummy Hall is serving: open http://{shown}:{port}/ (Ctrl+C stops it)"
            if self.plain:
                print(line, flush=True)
            else:
                logging.getLogger(__name__).info(line)


def _read_log(path: str) -> Any:
    """The parsed JSON of `path` (`-` is standard input); raises OSError or ValueError."""
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def replay(path: str) -> int:
    """Replay a match log; exit 0 with the result, or 1 if it is not a valid match log."""
    from app.engine.matchlog import InvalidMatchLog
    from app.engine.replay import run_replay

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


def _json_argument(name: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        _fail(f"verify-deal: {name} is not JSON: {exc}", 2)


def verify_deal(args: argparse.Namespace) -> int:
    """Print the deal that the seeds give (PROTOCOL.md §7) as a §4 ``deal`` object; exit 1 if
    the server seed does not hash to ``--commitment``, 2 on a bad argument."""
    from app.engine.errors import RuleError
    from app.engine.fairdeal import commitment, seeded_deal
    from app.engine.games import match_rules

    options = _json_argument("--options", args.options)
    client_seeds = _json_argument("--client-seeds", args.client_seeds)
    if args.commitment is not None and not re.fullmatch("[0-9a-fA-F]{64}", args.commitment):
        _fail(f"verify-deal: --commitment is 64 hex characters, not {args.commitment!r}", 2)
    try:
        rules = match_rules(args.game, options, args.players)
        if not 0 <= args.dealer < rules.players:
            _fail(f"verify-deal: --dealer must be a seat 0..{rules.players - 1}", 2)
        deal = seeded_deal(rules, args.dealer, args.server_seed, client_seeds)
        committed = commitment(args.server_seed)
    except RuleError as exc:
        _fail(f"verify-deal: {exc.code}: {exc.message}", 2)
    if args.commitment is not None and args.commitment.lower() != committed:
        _fail(f"verify-deal: the server seed hashes to {committed}, not to the commitment "
              f"{args.commitment}: this is not the seed that was committed to", 1)
    print(orjson.dumps(deal.to_json()).decode())
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
    if args.command == "verify-deal":
        return verify_deal(args)
    return replay(args.file)
