"""The pure parts of admission: the per-address gate, origin matching, fitting the
socket caps to the open-files limit, and ``--allow-origin``."""

from __future__ import annotations

import socket

import pytest

from gridhall.server import cli
from gridhall.server.core.gate import Gate
from gridhall.server.core.origin import allowed, normalize
from gridhall.server.io.net.handshake import unread_bytes
from gridhall.server.io.runtime.fdlimit import socket_caps


def test_a_gate_refuses_past_an_addresses_bound_and_evicts_the_oldest_past_the_total() -> None:
    gate: Gate[str] = Gate(total=3, per_address=2)
    assert gate.enter("a1", "A") == (True, None)
    assert gate.enter("a2", "A") == (True, None)
    assert gate.enter("a3", "A") == (False, None)
    assert gate.enter("b1", "B") == (True, None)
    assert gate.enter("c1", "C") == (True, "a1")
    assert "a1" not in gate and len(gate) == 3 and gate.by_address["A"] == 1
    assert gate.leave("a2") and not gate.leave("a2")
    assert "A" not in gate.by_address


def test_a_waiter_that_was_heard_is_never_evicted() -> None:
    heard = {"a1"}
    gate: Gate[str] = Gate(total=2, per_address=2, heard=heard.__contains__)
    gate.enter("a1", "A", 0.0)
    gate.enter("b1", "B", 0.0)
    assert gate.enter("c1", "C", 1.0) == (True, "b1")  # a1 spoke: b1 is the idle one
    heard.add("c1")
    assert gate.enter("d1", "D", 2.0) == (True, None)  # nobody idle: let in over the total
    assert len(gate) == 3 and "a1" in gate and "c1" in gate
    assert gate.leave("a1") and gate.by_address["A"] == 0


def test_a_waiter_is_evicted_only_once_it_was_quiet_for_a_while() -> None:
    gate: Gate[str] = Gate(total=1, per_address=5, idle_after=2.0)
    gate.enter("a1", "A", 10.0)
    assert gate.enter("b1", "B", 11.0) == (True, None)  # a1 may still be saying hello
    assert gate.enter("c1", "C", 12.5) == (True, "a1")
    assert gate.evict_idle(12.9) is None and gate.evict_idle(13.0) == "b1"


def test_past_the_ceiling_the_oldest_goes_even_if_young() -> None:
    gate: Gate[str] = Gate(total=1, per_address=5, idle_after=60.0, ceiling=2)
    gate.enter("a1", "A", 0.0)
    assert gate.enter("b1", "B", 0.0) == (True, None)
    assert gate.enter("c1", "C", 0.0) == (True, "a1")


def test_a_gate_that_evicts_its_own_lets_an_addresses_newest_in() -> None:
    gate: Gate[str] = Gate(total=4, per_address=2, evict_own=True)
    for item in ("a1", "b1", "a2"):
        gate.enter(item, item[0].upper())
    assert gate.enter("a3", "A") == (True, "a1")  # A's own oldest, not B's
    assert "b1" in gate and gate.by_address["A"] == 2


@pytest.mark.parametrize(
    ("origin", "host", "ok"),
    [
        (None, "127.0.0.1:8765", True),
        ("http://127.0.0.1:8765", "127.0.0.1:8765", True),
        ("HTTP://Game.LAN:8765", "game.lan:8765", True),
        ("http://game.lan", "game.lan:80", True),
        ("https://game.lan", "game.lan", True),
        ("http://[::1]:8765", "[::1]:8765", True),
        ("http://127.0.0.1:8766", "127.0.0.1:8765", False),
        ("http://evil.example", "127.0.0.1:8765", False),
        ("http://game.lan:8765", None, False),
        ("null", "127.0.0.1:8765", False),
        ("file://", "127.0.0.1:8765", False),
        ("http://127.0.0.1:99999", "127.0.0.1:8765", False),
    ],
)
def test_only_the_servers_own_origin_or_none_is_allowed(
    origin: str | None, host: str | None, ok: bool
) -> None:
    assert allowed(origin, host) is ok


def test_listed_origins_are_allowed_whatever_the_host() -> None:
    extra = frozenset({normalize("http://games.example:8080") or ""})
    assert allowed("http://games.example:8080", "10.0.0.5:8765", extra)
    assert not allowed("http://games.example:8081", "10.0.0.5:8765", extra)


def test_socket_caps_leave_descriptors_for_new_players_under_a_desktop_limit() -> None:
    caps = socket_caps(1024, reserve=64, handshakes=256, connections=500)
    assert caps.handshakes + caps.connections <= 1024 - 64
    assert caps.connections == 500
    assert caps.ceiling is not None and caps.ceiling + caps.connections == 1024 - 64
    small = socket_caps(256, reserve=64, handshakes=256, connections=500)
    assert small.handshakes + small.connections <= 256 - 64 and small.handshakes >= 4
    assert socket_caps(None, reserve=64, handshakes=256, connections=500).connections == 500
    assert socket_caps(1024, reserve=64, handshakes=256, connections=2).connections == 2


def test_allow_origin_is_repeatable_and_checked() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(
        ["--allow-origin", "HTTP://Games.example:8080/", "--allow-origin", "https://play.example"]
    )
    assert args.allow_origin == ["http://games.example:8080", "https://play.example:443"]
    for bad in ("ftp://x", "games.example", "http://x/page"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--allow-origin", bad])


class _Transport:
    """What ``unread_bytes`` asks of a transport: its socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def get_extra_info(self, name: str) -> socket.socket | None:
        return self.sock if name == "socket" else None


def test_bytes_waiting_in_the_kernel_count_as_heard() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        assert unread_bytes(_Transport(ours)) == 0  # type: ignore[arg-type]
        theirs.sendall(b"\x82\x85hello")
        assert unread_bytes(_Transport(ours)) == 7  # type: ignore[arg-type]
    assert unread_bytes(None) == 0
