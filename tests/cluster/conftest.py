"""Real Redis and PostgreSQL servers for the cluster tests, started here and stopped at
the end of the session, on free loopback ports in temporary directories.

Debian's ``redis-server`` and PostgreSQL's ``initdb``/``pg_ctl`` (from
``/usr/lib/postgresql/*/bin``) must be installed (``.ci/run`` installs them). On a
developer machine without them the tests are skipped with the reason; in CI (``CI`` set)
a missing binary fails instead, so a broken CI image is never a silent pass. PostgreSQL
refuses to run as root: when the tests run as root, it runs as the ``postgres`` user."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from gridhall.server.cluster.pg_store import PgStore


def missing(what: str) -> None:
    """Skip (or, in CI, fail) because ``what`` is not installed."""
    reason = f"{what} is not installed (apt-get install redis-server postgresql)"
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the cluster tests, but {reason}")
    pytest.skip(reason)


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """``redis-server`` on a free loopback port, no persistence; :meth:`restart` loses
    everything it held, as a Redis crash without persistence does."""

    def __init__(
        self, binary: str, workdir: Path, host: str = "127.0.0.1", run: Sequence[str] = ()
    ) -> None:
        """``run`` prefixes the command (e.g. ``ip netns exec NS``: on another host)."""
        self.binary = binary
        self.workdir = workdir
        self.host = host
        self.run = list(run)
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *self.run,
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                self.host,
                # another host's clients (a test LAN in namespaces): no password here
                *(["--protected-mode", "no"] if self.run else []),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--loglevel",
                "notice",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # blocks until Redis says it is ready (or ends)
            if "Ready to accept connections" in line:
                return
        raise RuntimeError(f"redis-server ended with {self.proc.wait()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


class PostgresServer:
    """A throw-away PostgreSQL cluster (``initdb`` + ``pg_ctl``) on a free loopback
    port; trust authentication on loopback only."""

    def __init__(
        self, bindir: Path, host: str = "127.0.0.1", run: Sequence[str] = (), clients: str = ""
    ) -> None:
        """``run`` prefixes the server's start (e.g. ``ip netns exec NS``: on another
        host); ``clients`` (a CIDR) may connect besides loopback."""
        self.bindir = bindir
        self.host = host
        self.prefix = list(run)
        self.clients = clients
        self.root = Path(tempfile.mkdtemp(prefix="gridhall-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.user = "postgres" if self.as_user else pwd.getpwuid(os.geteuid()).pw_name

    def run(self, *argv: str, prefix: Sequence[str] = ()) -> None:
        subprocess.run(
            [*prefix, *self.as_user, *argv],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.root,
        )

    def start(self) -> None:
        self.run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            self.user,
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        if self.clients:
            with open(self.data / "pg_hba.conf", "a") as hba:
                hba.write(f"host all all {self.clients} trust\n")
        self.run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-w",
            "-l",
            str(self.root / "log"),
            "-o",
            f"-h {self.host} -p {self.port} -k {self.root} -F",
            "start",
            prefix=self.prefix,
        )

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{db}"

    def stop(self) -> None:
        try:
            self.run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        missing("redis-server")
    assert binary is not None
    server = RedisServer(binary, tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _pg_bin()
    if bindir is None:
        missing("PostgreSQL (initdb, pg_ctl)")
    assert bindir is not None
    server = PostgresServer(bindir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    return postgres_server.url()


@pytest.fixture
def redis_clean(redis_server: RedisServer) -> str:
    """The shared Redis (started again if a test stopped it), emptied of what earlier
    tests' nodes left; its URL."""
    redis = pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
    if redis_server.proc is None:
        redis_server.start()
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    client.close()
    return redis_server.url


@pytest.fixture
def fresh_db(postgres_server: PostgresServer) -> str:
    """A new, empty database of its own for one test (its URL)."""
    psycopg = pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server.url(), autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return postgres_server.url(name)


@pytest.fixture
def stores(fresh_db: str, tmp_path: Path) -> Iterator[tuple[PgStore, PgStore]]:
    """Two nodes' PostgreSQL stores (``a`` and ``b``) on ``fresh_db``, each with its own
    SQLite file, clustered (rooms come by takeover)."""
    pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')
    from gridhall.server.cluster.pg_store import PgStore
    from gridhall.server.io.store import Store

    a = PgStore(fresh_db, Store(tmp_path / "a.db"), node="a", clustered=True)
    b = PgStore(fresh_db, Store(tmp_path / "b.db"), node="b", clustered=True)
    yield a, b
    a.close()
    b.close()
