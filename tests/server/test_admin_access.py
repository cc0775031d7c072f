"""Who may reach the admin page: loopback or an ``--admin-from`` network, with the
token, and a backoff on wrong tokens per address; bans as the server keeps them."""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.core.admin_access import (
    FAILURE_WAIT,
    FAILURE_WAIT_IN_ALL,
    FREE_FAILURES,
    FREE_FAILURES_IN_ALL,
    AdminAccess,
)
from gridhall.server.core.bans import Ban, Bans, refusal
from gridhall.server.io.admin_store import AUDIT_MARGIN, AUDIT_ROWS
from gridhall.server.io.app import GameServer
from gridhall.server.io.store import Store

T0 = 1_800_000_000.0


def test_only_loopback_peers_are_allowed_by_default() -> None:
    access = AdminAccess(None, entropy=secrets)
    for peer in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"):
        assert access.peer_allowed(peer), peer
    for peer in ("192.168.1.20", "10.0.0.1", "2001:db8::1", "?", "", "not an address"):
        assert not access.peer_allowed(peer), peer


def test_admin_from_networks_are_allowed_too() -> None:
    access = AdminAccess(None, ["192.168.1.0/24", "10.0.0.7", "2001:db8::/32"], secrets)
    for peer in ("192.168.1.20", "::ffff:192.168.1.99", "10.0.0.7", "2001:db8::5"):
        assert access.peer_allowed(peer), peer
    for peer in ("192.168.2.1", "10.0.0.8", "2001:db9::1"):
        assert not access.peer_allowed(peer), peer


def test_a_new_token_is_made_unless_one_is_given() -> None:
    made, again = AdminAccess(None, entropy=secrets), AdminAccess(None, entropy=secrets)
    assert len(made.token) >= 32 and made.token != again.token
    fixed = AdminAccess("my-fixed-admin-token", entropy=secrets)
    assert fixed.token_ok("my-fixed-admin-token")
    assert not fixed.token_ok("my-fixed-admin-tokeN") and not fixed.token_ok("")


def test_wrong_tokens_are_held_back_per_address_and_the_right_one_never_is() -> None:
    access = AdminAccess("right-token-right-token")
    for _ in range(FREE_FAILURES):
        assert access.check("10.0.0.1", "wrong", T0) == 0.0  # answered at once
    assert access.check("10.0.0.1", "wrong", T0) == FAILURE_WAIT
    assert access.check("10.0.0.1", "wrong", T0) == 2 * FAILURE_WAIT  # doubled
    assert access.check("10.0.0.1", "right-token-right-token", T0) is None  # at once
    assert access.check("10.0.0.1", "wrong", T0) == 0.0  # ...and it forgave the address
    assert access.check("10.0.0.2", "wrong", T0) == 0.0  # another address


def test_an_ipv6_64_is_one_address_for_wrong_tokens() -> None:
    access = AdminAccess("right-token-right-token")
    for n in range(FREE_FAILURES):
        assert access.check(f"2001:db8:7::{n + 1:x}", "wrong", T0) == 0.0
    assert access.check("2001:db8:7:0:ffff::1", "wrong", T0) == FAILURE_WAIT


def test_many_wrong_tokens_from_anywhere_are_held_back_too() -> None:
    access = AdminAccess("right-token-right-token")
    held = [access.check(f"10.1.0.{n}", "wrong", T0) for n in range(FREE_FAILURES_IN_ALL + 2)]
    assert held[:FREE_FAILURES_IN_ALL] == [0.0] * FREE_FAILURES_IN_ALL
    assert held[-2:] == [FAILURE_WAIT_IN_ALL, 2 * FAILURE_WAIT_IN_ALL]
    assert access.check("10.2.0.1", "right-token-right-token", T0) is None


def test_the_command_line_checks_admin_options() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(
        [
            "--admin-from",
            "192.168.1.0/24",
            "--admin-from",
            "10.1.2.3",
            "--admin-token",
            "abcdefghijklmnop",
        ]
    )
    assert args.admin_from == ["192.168.1.0/24", "10.1.2.3/32"]
    assert args.admin_token == "abcdefghijklmnop"
    for bad in ("not-a-network", "300.1.1.1"):
        with pytest.raises(argparse.ArgumentTypeError):
            cli.admin_network(bad)
    for bad in ("short", "has spaces in it, sixteen", "x" * 257, "ümlaut-ümlaut-ümlaut"):
        with pytest.raises(argparse.ArgumentTypeError):
            cli.admin_token(bad)


def test_bans_hold_until_their_end_and_name_it() -> None:
    ban = Ban(1, "10.0.0.9", None, None, None, T0 + 60, "spam")
    bans = Bans([ban, Ban(2, None, "p1", "hash", "Ann", T0 + 120, "")])
    assert bans.address("10.0.0.9", T0) == ban
    assert bans.address("::ffff:10.0.0.9", T0) == ban
    assert bans.address("10.0.0.8", T0) is None
    assert bans.token("hash", T0 + 100) is not None and bans.token("other", T0) is None
    assert bans.address("10.0.0.9", T0 + 60) is None  # it has ended
    assert refusal(ban) == "banned from this server until 2027-01-15 08:01 UTC: spam"
    assert [b.ban for b in bans.live(T0 + 61)] == [2]


def test_the_store_keeps_bans_settings_and_a_bounded_audit_log(tmp_path: object) -> None:
    db = f"{tmp_path}/gridhall.db"
    store = Store(db)
    kept = store.admin.add_ban("10.0.0.9", None, None, None, T0 + 60, "spam", T0)
    ended = store.admin.add_ban(None, "p1", "hash", "Ann", T0 + 1, "", T0)
    store.admin.save_settings({"chat_days": 7.0})
    for n in range(AUDIT_ROWS + AUDIT_MARGIN + 1):
        store.admin.audit(T0 + n, "127.0.0.1", "announce", {"n": n})
    store.close()
    store = Store(db)
    assert store.admin.load_bans(T0 + 2) == [kept]
    assert not store.admin.remove_ban(ended.ban)  # deleted once it ended
    assert store.admin.settings() == {"chat_days": 7.0}
    latest = store.admin.recent_audit(3)
    assert [row["detail"]["n"] for row in latest] == [
        AUDIT_ROWS + AUDIT_MARGIN - i for i in range(3)
    ]
    count = store.db.execute("SELECT COUNT(*) FROM audit").fetchone()[0]
    assert count <= AUDIT_ROWS + AUDIT_MARGIN
    store.close()


def test_admin_options_reach_the_server_from_the_file_and_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = tmp_path / "gridhall.toml"
    settings.write_text('admin_from = ["192.168.7.0/24"]\nadmin_token = "token-from-the-file"\n')
    made: list[GameServer] = []
    monkeypatch.setattr(cli, "serve", lambda server, addresses, settings, **_: made.append(server))
    monkeypatch.setattr(cli.loops, "run", lambda main, factory: None)
    monkeypatch.setattr(cli.collector, "install", lambda: None)
    cli.main(
        ["--config", str(settings), "--db", str(tmp_path / "g.db"), "--port", "0", "--no-discovery"]
    )
    cli.main(
        [
            "--config",
            str(settings),
            "--db",
            str(tmp_path / "g.db"),
            "--port",
            "0",
            "--no-discovery",
            "--admin-from",
            "10.9.0.0/16",
        ]
    )
    from_file, overridden = made
    try:
        assert from_file.admin.token == "token-from-the-file"
        assert from_file.admin.peer_allowed("192.168.7.9")
        assert not from_file.admin.peer_allowed("10.9.1.1")
        assert overridden.admin.peer_allowed("10.9.1.1")  # the command line wins
        assert not overridden.admin.peer_allowed("192.168.7.9")
        assert from_file.admin.peer_allowed("127.0.0.1")
    finally:
        for server in made:
            server.work.close()
            server.store.close()
