"""The cluster's settings as an operator gives them (``server/cli.py``): the secret from
the command line, the settings file or the environment; passwords in the Redis and
PostgreSQL URLs, which the admin page never shows (nor the secret)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from gridhall.server import cli
from gridhall.server.core import cluster_settings
from gridhall.server.io.admin import admin_status
from gridhall.server.io.net.app import GameServer

pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(60)

FILE_SECRET = "secret-from-the-settings-file"
ENV_SECRET = "secret-from-the-environment-0"
FLAG_SECRET = "secret-from-the-command-line-0"


def with_password(url: str, password: str) -> str:
    """``url`` with a password for its user (the tests' PostgreSQL trusts loopback,
    so any password does; the point is where it shows)."""
    parts = urlsplit(url)
    netloc = f"{parts.username}:{password}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "sslmode=disable", ""))


def test_the_secret_and_the_urls_reach_the_node_and_the_admin_page_hides_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_db: str
) -> None:
    made: list[GameServer] = []
    monkeypatch.setattr(cli, "serve", lambda server, addresses, settings, **_: made.append(server))
    monkeypatch.setattr(cli.loops, "run", lambda main, factory: None)
    monkeypatch.setattr(cli.collector, "install", lambda: None)
    monkeypatch.delenv(cluster_settings.SECRET_ENV, raising=False)
    store = with_password(fresh_db, "hunter2-pg")
    redis_url = "redis://:hunter2-redis@127.0.0.1:1/0"  # (not reached: nothing is served)
    settings = tmp_path / "gridhall.toml"
    settings.write_text(
        f'cluster = "{redis_url}"\nstore = "{store}"\ncluster_secret = "{FILE_SECRET}"\n'
    )
    common = ["--config", str(settings), "--port", "0", "--no-discovery"]
    cli.main([*common, "--db", str(tmp_path / "a.db")])
    cli.main([*common, "--db", str(tmp_path / "b.db"), "--cluster-secret", FLAG_SECRET])
    settings.write_text(f'cluster = "{redis_url}"\nstore = "{store}"\n')
    monkeypatch.setenv(cluster_settings.SECRET_ENV, ENV_SECRET)
    cli.main([*common, "--db", str(tmp_path / "c.db")])
    try:
        assert [s.config.cluster_secret for s in made] == [FILE_SECRET, FLAG_SECRET, ENV_SECRET]
        assert made[0].config.store == store and made[0].config.cluster == redis_url
        shown = {row["key"]: row["value"] for row in admin_status.settings(made[1])}
        text = repr(admin_status.settings(made[1])) + repr(made[1].config)
        assert shown["cluster_secret"] == admin_status.HIDDEN
        assert shown["store"].startswith("postgresql://postgres:***@")
        assert shown["cluster"] == "redis://:***@127.0.0.1:1/0"
        for secret in ("hunter2", FLAG_SECRET, FILE_SECRET):
            assert secret not in text
    finally:
        for server in made:
            server.work.close()
            server.store.close()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://10.0.0.5:6379/0", "redis://10.0.0.5:6379/0"),
        (
            "rediss://gridhall:pw@h:6380/0?ssl_ca_certs=/c.pem",
            "rediss://gridhall:***@h:6380/0?ssl_ca_certs=/c.pem",
        ),
        ("unix:///run/redis.sock?password=pw&db=1", "unix:///run/redis.sock?password=***&db=1"),
        (
            "postgresql://g:p%40ss@h/db?sslmode=verify-full",
            "postgresql://g:***@h/db?sslmode=verify-full",
        ),
        ("postgresql://g@h/db?sslpassword=k", "postgresql://g@h/db?sslpassword=***"),
    ],
)
def test_urls_are_shown_without_their_passwords(url: str, shown: str) -> None:
    assert cluster_settings.redacted(url) == shown


def test_urls_and_secrets_are_checked() -> None:
    redis, pg = cluster_settings.REDIS_SCHEMES, cluster_settings.POSTGRES_SCHEMES
    assert cluster_settings.problem("rediss://h:6380/0", redis) is None
    assert cluster_settings.problem("unix:///run/redis.sock", redis) is None
    assert cluster_settings.problem("postgres://u@h/db", pg) is None
    assert cluster_settings.problem("http://h/", redis) is not None
    assert cluster_settings.problem("redis://h:99999/0", redis) is not None
    assert cluster_settings.problem("redis:///0", redis) is not None
    assert cluster_settings.problem("redis://h/0", pg) is not None
    assert cluster_settings.secret_problem("x" * 16) is None
    assert cluster_settings.secret_problem("x" * 15) is not None
    assert cluster_settings.secret_problem("x" * 16 + " y") is not None
