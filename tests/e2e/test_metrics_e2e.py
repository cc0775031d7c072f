"""``GET /metrics`` on a real server: off by default, gated, and counting exactly what a
scripted session with real websocket clients did."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from gridhall.server.core.admin_access import FREE_FAILURES, AdminAccess
from gridhall.server.io import app, front_door
from gridhall.server.io.app import GameServer
from gridhall.server.io.metrics import bearer, refusal
from tests.wsclient import TIMEOUT, WsClient

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def http_get(
    server: GameServer, path: str, headers: dict[str, str] | None = None, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 request; the server closes the connection after answering."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
    data = await asyncio.wait_for(reader.read(), TIMEOUT)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines)}
    return int(status_line.split()[1]), fields, body


async def scrape(server: GameServer) -> tuple[Samples, dict[str, str]]:
    """Every sample of ``/metrics`` by (name, labels), and each family's type."""
    status, headers, body = await http_get(server, "/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    types: dict[str, str] = {}
    for family in text_string_to_metric_families(body.decode()):
        types[family.name + ("_total" if family.type == "counter" else "")] = family.type
        for s in family.samples:
            samples[s.name, tuple(sorted(s.labels.items()))] = s.value
    return samples, types


def by_label(samples: Samples, name: str, label: str) -> dict[str, float]:
    return {
        dict(labels)[label]: value for (n, labels), value in samples.items() if n == name and value
    }


async def test_metrics_count_exactly_what_a_scripted_session_did(make_server: Any) -> None:
    server = await make_server(metrics=True)
    async with WsClient.connect(url(server), "Ann") as a, WsClient.connect(url(server), "Bob") as b:
        await a.send("create-room", game="gomoku", id=1)
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room, id=2)
        await a.expect("state", status="playing")
        await b.expect("state", status="playing")
        for n, (mover, other) in enumerate(((a, b), (b, a), (a, b))):
            await mover.send("move", move={"x": n, "y": 0})
            await other.expect("moved", by=mover.player)
            await mover.expect("moved", by=mover.player)
        await a.send("move", move={"x": 9, "y": 9}, id=9)  # Bob's turn
        assert (await a.expect("error", re=9))["code"] == "not-your-turn"
        await b.send("chat", text="good game")
        await a.expect("chat")
        await b.expect("chat")
        for c in (a, b):  # a barrier: everything sent to each client before has arrived
            await c.send("list-rooms", id=50)
            await c.expect("rooms", re=50)

        samples, types = await scrape(server)
        assert samples["gridhall_connections_total", ()] == 2
        assert samples["gridhall_connections", ()] == 2
        assert by_label(samples, "gridhall_messages_received_total", "type") == {
            "hello": 2,
            "create-room": 1,
            "join-room": 1,
            "move": 4,
            "chat": 1,
            "list-rooms": 2,
        }
        sent = by_label(samples, "gridhall_messages_sent_total", "type")
        assert sum(sent.values()) == len(a.frames) + len(b.frames)
        assert sent["welcome"] == 2 and sent["moved"] == 6 and sent["chat"] == 2
        assert sent["error"] == 1 and sent["rooms"] == 2
        assert by_label(samples, "gridhall_refusals_total", "code") == {"not-your-turn": 1}
        assert samples["gridhall_move_round_trip_seconds_count", ()] == 3
        assert samples["gridhall_move_round_trip_seconds_bucket", (("le", "+Inf"),)] == 3
        assert samples["gridhall_journal_commit_seconds_count", ()] >= 1
        assert by_label(samples, "gridhall_rooms", "game") == {"gomoku": 1}
        assert by_label(samples, "gridhall_players", "game") == {"gomoku": 2}
        assert samples["gridhall_spectators", (("game", "gomoku"),)] == 0
        assert types["gridhall_connections_total"] == "counter"
        assert types["gridhall_connections"] == "gauge"
        assert types["gridhall_move_round_trip_seconds"] == "histogram"
        assert types["gridhall_worker_wait_seconds"] == "histogram"


async def test_made_up_message_types_and_codes_cannot_grow_the_label_set(make_server: Any) -> None:
    server = await make_server(metrics=True, max_bad_messages=1000)
    async with WsClient.connect(url(server), "Ann") as a:
        for n in range(30):
            await a.send(f"invented-{n}", id=n)
            await a.expect("error", re=n)
        samples, _ = await scrape(server)
    received = by_label(samples, "gridhall_messages_received_total", "type")
    assert received == {"hello": 1, "other": 30}
    assert by_label(samples, "gridhall_refusals_total", "code") == {"unknown-type": 30}


async def test_metrics_are_off_by_default(make_server: Any) -> None:
    server = await make_server()
    status, _, body = await http_get(server, "/metrics")
    assert status == 404 and b"gridhall_" not in body


async def test_head_gets_the_headers_and_other_methods_405(make_server: Any) -> None:
    server = await make_server(metrics=True)
    status, headers, body = await http_get(server, "/metrics?x=1", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    status, headers, _ = await http_get(server, "/metrics", method="POST")
    assert status == 405 and headers["allow"] == "GET, HEAD"


async def test_a_remote_peer_needs_the_admin_token(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server(metrics=True, admin_token="t" * 32)
    monkeypatch.setattr(front_door, "peer_of", lambda connection: "192.0.2.7")  # seen as remote
    for headers in (
        {},
        {"Authorization": "Bearer " + "x" * 32},
        {"Authorization": "Basic " + "t" * 32},
    ):
        status, _, body = await http_get(server, "/metrics", headers)
        assert status == 403 and b"gridhall_" not in body, headers
    status, headers, body = await http_get(
        server, "/metrics", {"Authorization": "Bearer " + "t" * 32}
    )
    assert status == 200 and b"gridhall_connections_total 0.0" in body
    assert headers["content-type"].startswith("text/plain")


def test_the_gate_lets_in_this_machine_the_admin_networks_and_the_token() -> None:
    access = AdminAccess("s" * 32, ["192.168.7.0/24"])
    for peer in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1", "192.168.7.9"):
        assert refusal(access, peer, None, 0.0) is None, peer
    for peer in ("192.168.1.20", "10.0.0.1", "::ffff:10.0.0.1", "fe80::1", "?", ""):
        assert refusal(access, peer, None, 0.0) == (403, 0.0), peer
        assert refusal(access, peer, "Bearer not-the-token", 0.0) == (403, 0.0), peer
    assert refusal(access, "10.0.0.1", "Bearer " + "s" * 32, 0.0) is None


def test_wrong_tokens_are_held_back_and_the_right_one_never_is() -> None:
    access = AdminAccess("s" * 32)
    for _ in range(FREE_FAILURES):
        assert refusal(access, "10.0.0.1", "Bearer wrong", 100.0) == (403, 0.0)
    status, wait = refusal(access, "10.0.0.1", "Bearer wrong", 100.0) or (0, 0.0)
    assert status == 429 and wait > 0
    assert refusal(access, "10.0.0.1", "Bearer " + "s" * 32, 100.0) is None  # at once
    assert refusal(access, "10.0.0.2", "Bearer wrong", 100.0) == (403, 0.0)


def test_a_wrong_token_is_refused_from_this_machine_too() -> None:
    access = AdminAccess("s" * 32)
    for peer in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
        refused = refusal(access, peer, "Bearer not-the-token", 0.0)
        assert refused is not None and refused[0] in (403, 429), peer
        assert refusal(access, peer, None, 0.0) is None  # no token: this machine may


def test_bearer_reads_the_token_of_an_authorization_header() -> None:
    assert bearer("Bearer abc") == "abc" and bearer("bearer  abc ") == "abc"
    assert bearer(None) is None and bearer("Basic abc") is None and bearer("Bearer ") is None


def test_the_server_starts_without_prometheus_client_unless_metrics_is_asked_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_prometheus(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("prometheus_client") or name.endswith("metrics"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_prometheus)
    from gridhall.server.core.config import ServerConfig

    server = GameServer(ServerConfig(db=str(tmp_path / "a.db")))
    assert server.metrics is None
    server.store.close()
    with pytest.raises(app.MetricsUnavailable, match="prometheus-client"):
        GameServer(ServerConfig(db=str(tmp_path / "b.db"), metrics=True))


async def test_a_move_that_needs_a_worker_job_counts_the_job_and_its_round_trip(
    make_server: Any,
) -> None:
    server = await make_server(metrics=True)
    async with WsClient.connect(url(server), "Ann") as a:
        await a.send("create-room", game="minesweeper", options={})
        await a.expect("state", status="playing")
        await a.send("move", move={"action": "reveal", "x": 0, "y": 0})
        await a.expect("moved", by=a.player)  # the mines are laid in a worker first
        samples, _ = await scrape(server)
    jobs = by_label(samples, "gridhall_worker_jobs_total", "kind")
    assert jobs.get("layout") == 1, jobs
    assert samples["gridhall_worker_wait_seconds_count", (("kind", "layout"),)] == 1
    assert samples["gridhall_move_round_trip_seconds_count", ()] == 1
