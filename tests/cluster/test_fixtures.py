"""The fixtures start real servers that answer."""

from __future__ import annotations

import pytest


def test_redis_and_postgres_answer(redis_url: str, fresh_db: str) -> None:
    redis = pytest.importorskip("redis")
    psycopg = pytest.importorskip("psycopg")
    client = redis.Redis.from_url(redis_url)
    assert client.ping()
    client.close()
    with psycopg.connect(fresh_db) as db:
        assert db.execute("SELECT 1").fetchone() == (1,)
