"""Bad settings end start-up with one line and exit status 2 (docs/security.md, "Settings").

Every case is checked in process (the line `app.settings.problem` writes, and that its suggested
value is accepted); one case of each kind of check also runs the real `python -m app serve` (and
`migrate`, `create-admin`) with a fresh SQLite path: the command must exit 2 before serving, print
exactly that one line on standard error, print no traceback, and leave the database untouched (the
file is never created). A process per case would cost the suite a minute for the same line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.db.session import Pool
from app.settings import Settings
from tests.conftest import REPO_ROOT, free_port

GOOD_KEY = "k" * 40
PRODUCTION = {"RUMMY_ENVIRONMENT": "production", "RUMMY_SECRET_KEY": GOOD_KEY}

# (variable, bad value, what the message says, other variables of the case)
BAD: list[tuple[str, str, str, dict[str, str]]] = [
    ("RUMMY_ENVIRONMENT", "staging", "'development' or 'production'", {}),
    ("RUMMY_DATABASE_URL", "mysql+aiomysql://u:p@db/rummy", "mysql, which is not supported", {}),
    ("RUMMY_DATABASE_URL", "rummy.db", "not a database URL", {}),
    ("RUMMY_DATABASE_URL", "sqlite+aiosqlite:////no/such/folder/x.db", "does not exist", {}),
    ("RUMMY_DATABASE_POOL_SIZE", "0", "greater than or equal to 1", {}),
    ("RUMMY_DATABASE_POOL_OVERFLOW", "-1", "greater than or equal to 0", {}),
    ("RUMMY_DATABASE_POOL_TIMEOUT", "0", "greater than 0", {}),
    ("RUMMY_DATABASE_POOL_TIMEOUT", "inf", "finite number", {}),
    ("RUMMY_REDIS_URL", "http://127.0.0.1:6379", "not a Redis URL", {}),
    ("RUMMY_REDIS_URL", "redis://127.0.0.1:port/0", "port that is not a number", {}),
    ("RUMMY_REDIS_URL", "redis://127.0.0.1:6379/zero", "database that is not a number", {}),
    # STD: the development key, and short keys, are refused outside development.
    ("RUMMY_SECRET_KEY", "short", "at least 32 characters", {"RUMMY_ENVIRONMENT": "production"}),
    ("RUMMY_SECRET_KEY", "dev-insecure-secret", "not the development key",
     {"RUMMY_ENVIRONMENT": "production"}),
    ("RUMMY_ALLOWED_ORIGINS", '["https://a.example"', "not a JSON list", {}),
    ("RUMMY_ALLOWED_ORIGINS", "https://a.example/lobby", "not an origin", {}),
    ("RUMMY_TRUSTED_PROXIES", "proxy.internal", "not an IP address or network", {}),
    ("RUMMY_API_DOCS", "perhaps", "valid boolean", {}),
    ("RUMMY_DEV_STACKED_DECKS", "please", "valid boolean", {}),
    # Stacked decks are for development only: a production server refuses to start with them.
    ("RUMMY_DEV_STACKED_DECKS", "1", "for development only", PRODUCTION),
    ("RUMMY_STARTING_CHIPS", "-1", "greater than or equal to 0", {}),
    ("RUMMY_STARTING_CHIPS", "1000000000000", "less than or equal to 1000000000", {}),
    ("RUMMY_STARTING_CHIPS", "12.5", "valid integer", {}),
    ("RUMMY_TOPUP_CHIPS", "0", "greater than or equal to 1", {}),
    ("RUMMY_TOPUP_PERIOD_SECONDS", "0.5", "greater than or equal to 1", {}),
    ("RUMMY_TOPUP_PERIOD_SECONDS", "inf", "finite number", {}),
    ("RUMMY_LEADERBOARD_MIN_MATCHES", "0", "greater than or equal to 1", {}),
    ("RUMMY_CALL_GRACE_SECONDS", "-0.5", "greater than or equal to 0", {}),
    ("RUMMY_BOT_DELAY_SECONDS", "inf", "finite number", {}),
    ("RUMMY_NEXT_HAND_SECONDS", "nan", "finite number", {}),
    ("RUMMY_NEXT_HAND_SECONDS", "86401", "less than or equal to 86400", {}),
    ("RUMMY_ABANDON_SECONDS", "0", "greater than 0", {}),
    ("RUMMY_MAX_SOCKETS_PER_PLAYER", "0", "greater than or equal to 1", {}),
    ("RUMMY_SOCKET_MESSAGES_PER_SECOND", "0", "greater than 0", {}),
    ("RUMMY_SOCKET_BURST", "0", "greater than or equal to 1", {}),
    ("RUMMY_SOCKET_QUEUE", "2", "greater than or equal to 8", {}),
    ("RUMMY_SOCKET_SEND_BUFFER", "1024", "greater than or equal to 4096", {}),
    ("RUMMY_LOGIN_ATTEMPTS_PER_USERNAME", "0", "greater than or equal to 1", {}),
    ("RUMMY_LOGIN_ATTEMPTS_PER_ADDRESS", "many", "valid integer", {}),
    ("RUMMY_LOGIN_WINDOW_SECONDS", "0", "greater than 0", {}),
    ("RUMMY_REGISTRATIONS_PER_ADDRESS_PER_HOUR", "-3", "greater than or equal to 1", {}),
    ("RUMMY_GUESTS_PER_ADDRESS_PER_HOUR", "100001", "less than or equal to 100000", {}),
    ("RUMMY_REPORTS_PER_PLAYER_PER_HOUR", "0", "greater than or equal to 1", {}),
    ("RUMMY_MAX_WAITING_ROOMS_PER_HOST", "0", "greater than or equal to 1", {}),
    ("RUMMY_REDIS_PREFIX", "no spaces please", "should match pattern", {}),
    ("RUMMY_LEASE_SECONDS", "0.1", "greater than or equal to 0.5", {}),
    ("RUMMY_ADDRESS_RETENTION_DAYS", "0", "greater than or equal to 1", {}),
    ("RUMMY_METRICS_ENABLED", "sometimes", "valid boolean", {}),
    ("RUMMY_METRICS_ALLOW", "prometheus.internal", "not an IP address or network", {}),
    ("RUMMY_LOG_FORMAT", "xml", "'text' or 'json'", {}),
    ("RUMMY_LOG_LEVEL", "verbose", "'debug', 'info', 'warning' or 'error'", {}),
]
# One case of each kind of check, run as a real process: a choice, a URL's kind, a URL's folder,
# a Redis URL, a production-only rule, a development-only switch, a number.
SERVED = [case for case in BAD if (case[0], case[1]) in {
    ("RUMMY_ENVIRONMENT", "staging"), ("RUMMY_DATABASE_URL", "mysql+aiomysql://u:p@db/rummy"),
    ("RUMMY_DATABASE_URL", "sqlite+aiosqlite:////no/such/folder/x.db"),
    ("RUMMY_REDIS_URL", "http://127.0.0.1:6379"), ("RUMMY_SECRET_KEY", "short"),
    ("RUMMY_DEV_STACKED_DECKS", "1"), ("RUMMY_STARTING_CHIPS", "12.5")}]
EXAMPLE = re.compile(r"\(for example (RUMMY_[A-Z_]+)=(.*)\)$")


def _clean_env(tmp_path: Path, **variables: str) -> dict[str, str]:
    """The test's environment without any RUMMY_ setting, plus a fresh SQLite path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUMMY_")}
    return {**env, "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", **variables}


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=env, capture_output=True,
        text=True, timeout=60, check=False)


def _assert_refused(done: subprocess.CompletedProcess[str], variable: str, what: str) -> str:
    """Exit 2, one line on stderr naming `variable` and `what` is wrong; returns the line."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"rummy: bad setting: {variable}: "), lines[0]
    assert what in lines[0], lines[0]
    assert EXAMPLE.search(lines[0]), lines[0]
    return lines[0]


@pytest.mark.parametrize(("variable", "value", "what", "others"), SERVED,
                         ids=[f"{v}={x}" for v, x, _, _ in SERVED])
def test_serve_refuses_a_bad_value_in_one_line(
        tmp_path: Path, variable: str, value: str, what: str, others: dict[str, str]) -> None:
    done = _run(_clean_env(tmp_path, **others, **{variable: value}), "serve", "--port", "1")

    _assert_refused(done, variable, what)
    assert done.stdout == ""
    assert not (tmp_path / "x.db").exists()  # nothing migrated, nothing served


@pytest.mark.parametrize(("variable", "value", "what", "others"), BAD,
                         ids=[f"{v}={x}" for v, x, _, _ in BAD])
def test_the_suggested_value_is_accepted(
        monkeypatch: pytest.MonkeyPatch, variable: str, value: str, what: str,
        others: dict[str, str]) -> None:
    line = _assert_refused_in_process(monkeypatch, others, variable, value, what)
    assert "\n" not in line and "Traceback" not in line
    match = EXAMPLE.search(line)
    assert match is not None and match.group(1) == variable
    example = match.group(2)
    if example.startswith("$("):  # a shell command that makes the value
        example = subprocess.run(  # noqa: S602 - the example the message shows, run as shown
            f"echo {example}", shell=True, capture_output=True, text=True, check=True
        ).stdout.strip()
    monkeypatch.setenv(variable, example)
    Settings()  # no error now


def _assert_refused_in_process(monkeypatch: pytest.MonkeyPatch, others: dict[str, str],
                               variable: str, value: str, what: str) -> str:
    from pydantic import ValidationError

    from app.settings import problem

    for name in [k for k in os.environ if k.startswith("RUMMY_")]:
        monkeypatch.delenv(name)
    for name, text in {**others, variable: value}.items():
        monkeypatch.setenv(name, text)
    with pytest.raises(ValidationError) as refused:
        Settings()
    line = problem(refused.value)
    assert line.startswith(f"{variable}: ") and what in line, line
    return line


def test_every_setting_has_a_bad_value_case() -> None:
    prefix = Settings.model_config.get("env_prefix", "")
    covered = {variable for variable, _, _, _ in BAD}
    assert {f"{prefix}{name}".upper() for name in Settings.model_fields} <= covered


@pytest.mark.parametrize("command", [["migrate"], ["create-admin", "boss", "--password", "pw"]])
def test_other_commands_refuse_bad_values_the_same_way(tmp_path: Path, command: list[str]) -> None:
    done = _run(_clean_env(tmp_path, RUMMY_STARTING_CHIPS="-5"), *command)

    _assert_refused(done, "RUMMY_STARTING_CHIPS", "greater than or equal to 0")
    assert not (tmp_path / "x.db").exists()


def test_several_bad_values_are_named_on_one_line(tmp_path: Path) -> None:
    done = _run(_clean_env(tmp_path, RUMMY_STARTING_CHIPS="-5", RUMMY_API_DOCS="perhaps"),
                "serve")

    line = _assert_refused(done, "RUMMY_API_DOCS", "valid boolean")
    assert "RUMMY_STARTING_CHIPS: input should be greater than or equal to 0" in line


def test_an_unreachable_database_is_one_line_too(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://rummy:secret@127.0.0.1:1/rummy"  # nothing listens on port 1
    done = _run(_clean_env(tmp_path, RUMMY_DATABASE_URL=url), "serve", "--port", "1")

    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert "cannot open the database" in done.stderr and "RUMMY_DATABASE_URL" in done.stderr
    assert "secret" not in done.stderr  # the password is not shown


@pytest.mark.parametrize("log_format", ["text", "json"])
@pytest.mark.parametrize("where", ["port", "socket"])
def test_an_unreachable_redis_is_one_line_too(tmp_path: Path, log_format: str,
                                              where: str) -> None:
    """Checked before the database is migrated, in either log format (issue 36: it was a
    101-line traceback, exit 3)."""
    url = (f"redis://:secret@127.0.0.1:{free_port()}/0" if where == "port"
           else f"unix://{tmp_path / 'no-redis.sock'}")
    done = _run(_clean_env(tmp_path, RUMMY_REDIS_URL=url, RUMMY_LOG_FORMAT=log_format),
                "serve", "--port", "1")

    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("rummy: cannot reach Redis at "), done.stderr
    assert "RUMMY_REDIS_URL" in done.stderr
    assert "secret" not in done.stderr  # the password is not shown
    assert not (tmp_path / "x.db").exists()  # nothing migrated


@pytest.mark.parametrize("text", ['["https://a.example", "http://b.example:8000"]',
                                  "https://a.example, http://b.example:8000"])
def test_lists_take_json_or_commas(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("RUMMY_ALLOWED_ORIGINS", text)
    monkeypatch.setenv("RUMMY_TRUSTED_PROXIES", "10.0.0.0/8,::1")

    settings = Settings()

    assert settings.allowed_origins == ["https://a.example", "http://b.example:8000"]
    assert settings.trusted_proxies == ["10.0.0.0/8", "::1"]


def test_every_setting_is_in_docs_security() -> None:
    text = (REPO_ROOT / "docs" / "security.md").read_text()
    prefix = Settings.model_config.get("env_prefix", "")
    missing = [name for name in Settings.model_fields if f"`{prefix}{name}`".upper() not in
               text.upper()]
    assert not missing, f"docs/security.md does not list {missing}"


def test_log_settings_take_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY_LOG_FORMAT", "JSON")
    monkeypatch.setenv("RUMMY_LOG_LEVEL", "Warning")

    settings = Settings()

    assert (settings.log_format, settings.log_level) == ("json", "warning")


def test_the_pool_settings_default_to_the_engine_s_own() -> None:
    defaults = {name: Settings.model_fields[f"database_pool_{name}"].default
                for name in ("size", "overflow", "timeout")}
    assert Pool(**defaults) == Pool()
