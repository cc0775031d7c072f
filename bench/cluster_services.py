"""Throw-away Redis and PostgreSQL servers for the cluster bench (``load.py --nodes``).

The same way tests/cluster/conftest.py starts them, without pytest: Debian's
``redis-server`` and PostgreSQL's ``initdb``/``pg_ctl`` (``/usr/lib/postgresql/*/bin``)
on free loopback ports in temporary directories, no persistence, no fsync; PostgreSQL
runs as the ``postgres`` user when this runs as root (it refuses root). Also: the CPU
time they use, so the bench can charge a move for Redis's and PostgreSQL's work too.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


class Missing(RuntimeError):
    """A binary the cluster needs is not installed."""


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (0 if it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (PostgreSQL's backends and workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


class RedisServer:
    """``redis-server`` on a free loopback port, no persistence."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise Missing("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--loglevel",
                "notice",
                "--maxclients",
                "10000",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # blocks until Redis says it is ready (or ends)
            if "Ready to accept connections" in line:
                # keep reading what it logs, so a full pipe never stalls it
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()
                return
        raise RuntimeError(f"redis-server ended with {self.proc.wait()}")

    def flush(self) -> None:
        """Empty it (between the bench's setups)."""
        import redis

        client = redis.Redis.from_url(self.url)
        client.flushdb()
        client.close()

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid) if self.proc is not None else 0.0

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


def pg_bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl is None:
        raise Missing("PostgreSQL is not installed (apt-get install postgresql)")
    return Path(pg_ctl).parent


class PostgresServer:
    """A throw-away PostgreSQL cluster (``initdb`` + ``pg_ctl``) on a free loopback port;
    trust authentication on loopback only; ``fsync`` off (``-F``) as in the tests."""

    def __init__(self) -> None:
        self.bindir = pg_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="gridhall-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.user = "postgres" if self.as_user else pwd.getpwuid(os.geteuid()).pw_name

    def run(self, *argv: str) -> None:
        subprocess.run(
            [*self.as_user, *argv],
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
        self.run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-w",
            "-l",
            str(self.root / "log"),
            "-o",
            f"-h 127.0.0.1 -p {self.port} -k {self.root} -F -c max_connections=300",
            "start",
        )

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A new, empty database (one per bench setup); its URL."""
        import psycopg

        name = "bench_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def cpu(self) -> float:
        """CPU seconds of the postmaster and its current children (backends that ended
        in between are not counted: the nodes keep theirs open)."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        return cpu_seconds(pid) + sum(cpu_seconds(c) for c in children(pid))

    def stop(self) -> None:
        try:
            self.run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def services() -> Iterator[tuple[RedisServer, PostgresServer]]:
    """Redis and PostgreSQL, started, and stopped (their files removed) at the end."""
    with tempfile.TemporaryDirectory(prefix="gridhall-redis-") as tmp:
        redis = RedisServer(Path(tmp))
        postgres = PostgresServer()
        redis.start()
        try:
            postgres.start()
            try:
                yield redis, postgres
            finally:
                postgres.stop()
        finally:
            redis.stop()
