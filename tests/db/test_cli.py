"""`python -m app migrate` and `create-admin` against real databases (PROTOCOL.md section 6)."""

from __future__ import annotations

import os
import subprocess
import sys

from app.db import migrate
from app.db.session import make_engine, make_sessionmaker
from app.services import accounts
from tests.conftest import REPO_ROOT


def _app(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [sys.executable, "-m", "app", *args],
        cwd=REPO_ROOT,
        env={**os.environ, "RUMMY_DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_migrate_then_create_admin(db_url: str) -> None:
    done = _app(db_url, "migrate")
    assert done.returncode == 0, done.stderr
    assert f"revision {migrate.head()}" in done.stdout
    assert migrate.current(db_url) == migrate.head()

    done = _app(db_url, "create-admin", "boss", "--password", "boss password")
    assert done.returncode == 0, done.stderr
    assert "boss is an admin" in done.stdout
    refused = _app(db_url, "create-admin", "x!", "--password", "boss password")
    assert refused.returncode == 1 and "username must be" in refused.stderr

    engine = make_engine(db_url)
    try:
        async with make_sessionmaker(engine)() as session, session.begin():
            admin = await accounts.login(session, "boss", "boss password")
            assert admin.role == "admin"
    finally:
        await engine.dispose()
