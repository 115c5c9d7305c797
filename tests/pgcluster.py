"""A PostgreSQL cluster of a test's own, to stop and start at will (outage tests).

`private_cluster()` runs `initdb` into a fresh directory and `pg_ctl start` on a free port of
127.0.0.1 (its unix socket in that directory too), trust authentication, user `postgres`; it
yields a `PrivateCluster` (with `private_cluster(max_connections="9")`, any server setting
given as `-c name=value`) whose `stop("fast" | "immediate")` and `start()` take the database
away and bring it back, and removes everything afterwards. The machine's own PostgreSQL is never
touched. The binaries are found on PATH or under /usr/lib/postgresql/*/bin (newest first), or
in `RUMMY_PG_BIN`; without them the test is skipped. PostgreSQL refuses to run as root, so
under root every command runs as the `postgres` user (`runuser`), in a directory it owns.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.conftest import free_port
from tests.pg import CONNECT_TIMEOUT, run_sync

START_TIMEOUT = 60


def _bin_dir() -> Path | None:
    """The directory of `initdb` and `pg_ctl`, or None."""
    if os.environ.get("RUMMY_PG_BIN"):
        return Path(os.environ["RUMMY_PG_BIN"])
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent

    def version(path: Path) -> float:
        try:
            return float(path.parent.parent.name)
        except ValueError:
            return 0.0

    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=version)
    return candidates[-1].parent if candidates else None


class PrivateCluster:
    """One PostgreSQL cluster in `root` on `port`, owned by this test."""

    def __init__(self, bin_dir: Path, root: Path, port: int,
                 settings: dict[str, str] | None = None) -> None:
        self.bin_dir = bin_dir
        self.settings = settings or {}
        self.root = root
        self.port = port
        self.data = root / "data"
        self.log = root / "postgres.log"
        self.as_postgres = os.geteuid() == 0  # PostgreSQL will not run as root

    def _run(self, tool: str, *args: str) -> None:
        argv = [str(self.bin_dir / tool), *args]
        if self.as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        done = subprocess.run(  # noqa: S603 - a fixed tool with our own arguments
            argv, capture_output=True, text=True, timeout=START_TIMEOUT, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(f"{tool} {' '.join(args)} failed ({done.returncode}):\n"
                               f"{done.stdout}{done.stderr}\n{log}")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c full_page_writes=off")
        options += "".join(f" -c {name}={value}" for name, value in self.settings.items())
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", str(START_TIMEOUT), "start")

    def stop(self, mode: str = "fast") -> None:
        """`fast`: clients are disconnected, then a clean shutdown; `immediate`: no cleanup
        at all (like a crash; the next start recovers)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def is_running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL (async driver) of `database` on this cluster."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        async def create() -> None:
            connection = await asyncpg.connect(host="127.0.0.1", port=self.port,
                                               user="postgres", database="postgres",
                                               timeout=CONNECT_TIMEOUT)
            try:
                await connection.execute(f'CREATE DATABASE "{name}"')
            finally:
                await connection.close()

        run_sync(create)
        return self.url(name)


def _postgres_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root, and there is no postgres user to run PostgreSQL as")


@contextlib.contextmanager
def private_cluster(**settings: str) -> Iterator[PrivateCluster]:
    """A started cluster of this test's own, with PostgreSQL `settings`; stopped and removed
    afterwards."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
    root = Path(tempfile.mkdtemp(prefix="rummy-pg-"))  # in /tmp: reachable by `postgres`
    cluster = PrivateCluster(bin_dir, root, free_port(), settings)
    try:
        if cluster.as_postgres:
            owner = _postgres_user()
            os.chown(root, owner.pw_uid, owner.pw_gid)
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        if cluster.is_running():
            with contextlib.suppress(RuntimeError):
                cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
