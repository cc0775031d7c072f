"""A cluster secured as docs/cluster.md ("Securing a cluster") says: Redis over TLS
(``rediss://``) with an ACL user limited to gridhall's keys and no default user;
PostgreSQL over TLS (``sslmode=verify-full``) with a role and a password. Two nodes
play a relayed room through them; a wrong password, or a URL without TLS, stops a
node at start with one line that names what failed and never the password.

The certificates come from a throw-away CA made here with ``openssl`` (for 127.0.0.1);
Redis and PostgreSQL are started here too, on loopback."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cluster.conftest import PostgresServer, RedisServer, _pg_bin, missing
from tests.cluster.nodes import SECRET, cluster, refused_start
from tests.wsclient import WsClient

psycopg = pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(180)

REDIS_PASSWORD = "redis-pw-0123456789"
PG_PASSWORD = "pg-pw-0123456789"
ACL = ["gridhall", "on", f">{REDIS_PASSWORD}", "~gridhall:*", "+@all", "-@dangerous"]
"""The Redis user the nodes use: gridhall's keys only, no dangerous commands."""


@dataclass
class Secured:
    redis: str
    postgres: str
    ca: Path


def certificates(folder: Path) -> None:
    """ca.pem, and server.pem/server.key for 127.0.0.1 signed by it."""
    if shutil.which("openssl") is None:
        missing("openssl")
    key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for args in (
        f"req -x509 {key} -keyout ca.key -out ca.pem -days 1 -subj /CN=gridhall-test-CA",
        f"req {key} -keyout server.key -out server.csr -subj /CN=127.0.0.1",
        "x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem "
        "-days 1 -extfile san.ext",
    ):
        subprocess.run(["openssl", *args.split()], check=True, cwd=folder, capture_output=True)


class TlsRedis(RedisServer):
    """Redis on a TLS port only, with the ACL above and the default user off."""

    def __init__(self, binary: str, workdir: Path) -> None:
        super().__init__(binary, workdir)
        self.tls_port = self.port

    def start(self) -> None:
        d = self.workdir
        options = {
            "port": "0",
            "tls-port": str(self.tls_port),
            "bind": "127.0.0.1",
            "tls-cert-file": str(d / "server.pem"),
            "tls-key-file": str(d / "server.key"),
            "tls-ca-cert-file": str(d / "ca.pem"),
            "tls-auth-clients": "no",
            "save": "",
            "appendonly": "no",
            "dir": str(d),
        }
        self.proc = subprocess.Popen(
            [
                self.binary,
                *(word for name, value in options.items() for word in (f"--{name}", value)),
                *("--user", "default", "off"),
                *("--user", *ACL),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "Ready to accept connections" in line:
                return
        raise RuntimeError(f"redis-server ended with {self.proc.wait()}")


def tls_postgres(pg: PostgresServer, certs: Path) -> None:
    """Turn on TLS, and password logins over TLS for the gridhall role (the tests' own
    superuser keeps trust, on loopback, to set things up)."""
    for name in ("server.pem", "server.key"):
        shutil.copy(certs / name, pg.data / name)
        if pg.as_user:
            user = pwd.getpwnam("postgres")
            os.chown(pg.data / name, user.pw_uid, user.pw_gid)
        os.chmod(pg.data / name, 0o600)
    (pg.data / "pg_hba.conf").write_text(
        "local all all trust\n"
        "hostssl gridhall gridhall 127.0.0.1/32 scram-sha-256\n"
        f"host all {pg.user} 127.0.0.1/32 trust\n"
    )
    with psycopg.connect(pg.url(), autocommit=True) as db:
        db.execute("ALTER SYSTEM SET ssl = on")
        db.execute("ALTER SYSTEM SET ssl_cert_file = 'server.pem'")
        db.execute("ALTER SYSTEM SET ssl_key_file = 'server.key'")
        db.execute(f"CREATE ROLE gridhall LOGIN PASSWORD '{PG_PASSWORD}'")
        db.execute("CREATE DATABASE gridhall OWNER gridhall")
        db.execute("SELECT pg_reload_conf()")


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secured]:
    redis_bin, pg_bin = shutil.which("redis-server"), _pg_bin()
    if redis_bin is None or pg_bin is None:
        missing("redis-server or PostgreSQL")
    assert redis_bin is not None and pg_bin is not None
    folder = tmp_path_factory.mktemp("tls")
    certificates(folder)
    redis = TlsRedis(redis_bin, folder)
    redis.start()
    pg = PostgresServer(pg_bin)
    try:
        pg.start()
        tls_postgres(pg, folder)
        ca = folder / "ca.pem"
        yield Secured(
            f"rediss://gridhall:{REDIS_PASSWORD}@127.0.0.1:{redis.tls_port}/0?ssl_ca_certs={ca}",
            f"postgresql://gridhall:{PG_PASSWORD}@127.0.0.1:{pg.port}/gridhall"
            f"?sslmode=verify-full&sslrootcert={ca}",
            ca,
        )
    finally:
        redis.stop()
        pg.stop()


async def test_two_nodes_play_through_tls_and_passwords(tmp_path: Path, secured: Secured) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(
            cluster(tmp_path, secured.redis, secured.postgres, count=2)
        )
        a = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(nodes[1].url, "Bob"))
        await a.send("create-room", game="gomoku")
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)  # relayed over Redis's TLS port
        await b.expect("state", status="playing")
        await a.send("move", move={"x": 0, "y": 0})
        await b.expect("moved", by=a.player)
        await b.send("move", move={"x": 0, "y": 1})
        await a.expect("moved", by=b.player)


def test_a_wrong_password_or_no_tls_stops_a_node_and_says_why(
    tmp_path: Path, secured: Secured
) -> None:
    base = ["--cluster-secret", SECRET, "--lease-ms", "4000", "--db", str(tmp_path / "n.db")]
    redis, pg = secured.redis, secured.postgres
    cases = {
        "cannot use Redis at rediss://gridhall:***@": (
            redis.replace(REDIS_PASSWORD, "not-the-password-1"),
            pg,
        ),
        "cannot use Redis at redis://gridhall:***@": (  # TLS port, no TLS
            redis.replace("rediss://", "redis://").split("?")[0],
            pg,
        ),
        "password authentication failed": (redis, pg.replace(PG_PASSWORD, "not-the-password-2")),
        "cannot use PostgreSQL at postgresql://gridhall:***@": (
            redis,
            pg.split("?")[0] + "?sslmode=disable",  # only TLS logins are allowed
        ),
    }
    for said, (redis_url, pg_url) in cases.items():
        ended = refused_start("--cluster", redis_url, "--store", pg_url, *base)
        assert ended.returncode == 1 and said in ended.stderr, ended.stderr
        assert len(ended.stderr.strip().splitlines()) <= 3, ended.stderr  # no traceback
        for password in (REDIS_PASSWORD, PG_PASSWORD, "not-the-password"):
            assert password not in ended.stderr
