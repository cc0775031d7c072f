"""Link codes: one identity on several devices (the hub and store, without sockets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server.core.linking import LIVE_PER_ADDRESS, VALID_FOR, normal, shown
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect


def code_for(client: Client, now: float = T0) -> p.LinkCodeIssued:
    client.send("link-code", now)
    issued: p.LinkCodeIssued = client.last(p.LinkCodeIssued)
    return issued


def linked(
    server: FakeServer, code: str, now: float = T0, name: str = "Phone", peer: str = "10.0.0.2"
) -> Client:
    device = Client(server, now, peer)
    device.send("hello", now, protocol=1, name=name, link=code)
    return device


def refusal(client: Client) -> p.Error:
    error: p.Error = client.errors()[-1]
    return error


def test_codes_are_read_in_any_case_with_or_without_the_dash() -> None:
    assert normal("k7mq-2d9x") == normal(" K7MQ 2D9X ") == "K7MQ2D9X"
    assert shown("K7MQ2D9X") == "K7MQ-2D9X"
    for bad in ("", "K7MQ2D9", "K7MQ2D9XY", "K7MQ2D9I", "K7MQ-2D9!", "Ｋ7MQ2D9X"):
        assert normal(bad) is None


def test_the_second_device_becomes_the_first_with_a_token_of_its_own() -> None:
    server = FakeServer()
    laptop = connect(server, "Ann")
    first = laptop.last(p.Welcome)
    assert "link" in (first.features or [])
    issued = code_for(laptop)
    assert issued.re == 1 + 1 and issued.expires_at == T0 + VALID_FOR
    assert len(issued.code) == 9 and issued.code[4] == "-"

    phone = linked(server, issued.code.lower(), T0 + 5)
    welcome = phone.last(p.Welcome)
    assert welcome.player == first.player and welcome.token != first.token
    assert welcome.re == 1
    phone.send("player-info", T0 + 6, color="#ff0000")
    assert phone.last(p.Profile).name == "Ann"  # the identity's name, not the hello's
    assert laptop.link.close_code == 4000  # one connection per identity, as with tokens

    again = Client(server, T0 + 7, "10.0.0.3")
    assert again.hello("x", token=first.token, now=T0 + 7).player == first.player


def test_a_code_works_once_and_a_refused_hello_may_be_followed_by_another() -> None:
    server = FakeServer()
    laptop = connect(server, "Ann")
    code = code_for(laptop).code
    linked(server, code, T0 + 1)
    late = linked(server, code, T0 + 2, peer="10.0.0.3")
    error = refusal(late)
    assert error.code == "bad-link" and error.re == 1 and not late.link.closed
    assert not [m for m in late.received() if isinstance(m, p.Welcome)]
    assert late.hello("Bo", now=T0 + 3).player != laptop.last(p.Welcome).player


def test_a_code_ends_after_ten_minutes_and_a_new_one_replaces_the_old() -> None:
    server = FakeServer()
    laptop = connect(server, "Ann")
    old = code_for(laptop).code
    new = code_for(laptop, T0 + 1).code
    assert refusal(linked(server, old, T0 + 2)).code == "bad-link"
    assert refusal(linked(server, new, T0 + 1 + VALID_FOR)).code == "bad-link"


def test_wrong_codes_back_off_per_address() -> None:
    server = FakeServer()
    laptop = connect(server, "Ann")
    code = code_for(laptop).code
    guesser = Client(server, T0, "10.0.0.9")
    for _ in range(5):  # free
        guesser.send("hello", T0, protocol=1, name="G", link="AAAA-AAAA")
        assert refusal(guesser).code == "bad-link"
    guesser.send("hello", T0 + 0.5, protocol=1, name="G", link=code)  # even the right one
    error = refusal(guesser)
    assert error.code == "rate-limited" and error.retry_after == pytest.approx(0.5)
    guesser.send("hello", T0 + 1, protocol=1, name="G", link="AAAA-AAAA")
    guesser.send("hello", T0 + 1.5, protocol=1, name="G", link=code)
    assert refusal(guesser).retry_after == pytest.approx(1.5)  # doubled
    assert not [m for m in guesser.received() if isinstance(m, p.Welcome)]
    phone = linked(server, code, T0 + 1.5, peer="10.0.0.8")  # another address is not held
    assert phone.last(p.Welcome).player == laptop.last(p.Welcome).player


def test_wrong_codes_from_one_ipv6_64_back_off_as_one_address() -> None:
    server = FakeServer()
    code = code_for(connect(server, "Ann")).code
    for n in range(5):  # the free ones, each from a fresh address of one /64
        guesser = Client(server, T0, f"2001:db8:5:6::{n + 1:x}")
        guesser.send("hello", T0, protocol=1, name="G", link="AAAA-AAAA")
        assert refusal(guesser).code == "bad-link"
    sixth = Client(server, T0, "2001:db8:5:6:abcd::1")
    sixth.send("hello", T0 + 0.5, protocol=1, name="G", link="AAAA-AAAA")
    assert refusal(sixth).code == "rate-limited"
    phone = linked(server, code, T0 + 0.5, peer="2001:db8:5:7::1")  # the next /64 is not held
    assert phone.last(p.Welcome)


def test_an_offline_identity_is_kept_while_its_code_works() -> None:
    server = FakeServer(grace_seconds=60)
    laptop = connect(server, "Ann")
    code = code_for(laptop).code
    laptop.drop(T0 + 1)
    server.advance(T0 + 300)  # past the grace, within the code's ten minutes
    phone = linked(server, code, T0 + 300)
    assert phone.last(p.Welcome).player == laptop.last(p.Welcome).player


def test_codes_and_linked_tokens_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path))
    laptop = connect(server, "Ann")
    first = laptop.last(p.Welcome)
    code = code_for(laptop).code
    laptop.drop(T0 + 1)
    stored = Store(path).db.execute("SELECT code_hash FROM link_codes").fetchall()
    assert stored and code.replace("-", "") not in str(stored)  # kept hashed only

    server2 = FakeServer(store=Store(path))
    server2.restore(T0 + 100, T0 + 2)
    phone = linked(server2, code, T0 + 100)
    second = phone.last(p.Welcome)
    assert second.player == first.player
    phone.drop(T0 + 101)

    server3 = FakeServer(store=Store(path))
    server3.restore(T0 + 120, T0 + 102)
    for token in (first.token, second.token):
        device = Client(server3, T0 + 120)
        assert device.hello("x", token=token, now=T0 + 120).player == first.player
    assert refusal(linked(server3, code, T0 + 121, peer="10.0.0.7")).code == "bad-link"


def test_a_ban_on_the_player_keeps_out_every_device_it_was_linked_to() -> None:
    from gridhall.server.core.bans import Ban
    from gridhall.server.core.identity import token_hash

    server = FakeServer()
    laptop = connect(server, "Ann")
    first = laptop.last(p.Welcome)
    code = code_for(laptop).code
    phone = linked(server, code, T0 + 1)
    second = phone.last(p.Welcome).token
    phone.drop(T0 + 2)
    server.hub.bans.add(
        Ban(1, None, first.player, token_hash(first.token), "Ann", T0 + 600, "spam")
    )
    again = Client(server, T0 + 3)
    again.send("hello", T0 + 3, protocol=1, name="Ann", token=second)
    assert refusal(again).code == "banned" and again.link.close_code == 1008


def test_a_right_code_of_ones_own_does_not_reset_the_backoff() -> None:
    server = FakeServer()
    guesser = Client(server, T0, "10.0.0.9")
    for _ in range(5):
        guesser.send("hello", T0, protocol=1, name="G", link="AAAA-AAAA")
    mine = connect(server, "Mallory", T0, peer="10.0.0.9")
    own = linked(server, code_for(mine, T0).code, T0 + 1, peer="10.0.0.9")
    assert own.last(p.Welcome).player == mine.last(p.Welcome).player
    again = Client(server, T0 + 1, "10.0.0.9")
    again.send("hello", T0 + 1, protocol=1, name="G", link="AAAA-AAAA")
    again.send("hello", T0 + 1, protocol=1, name="G", link="AAAA-AAAA")
    error = refusal(again)
    assert error.code == "rate-limited" and error.retry_after == pytest.approx(2.0)


def test_one_address_asking_for_codes_and_hanging_up_keeps_few_identities() -> None:
    server = FakeServer(grace_seconds=60.0)
    codes = []
    for n in range(20):  # each connection: a new identity, a code, gone
        asker = connect(server, f"A{n}", T0 + n, peer="10.0.0.66")
        codes.append(code_for(asker, T0 + n).code)
        asker.drop(T0 + n)
    server.advance(T0 + 20 + 60)  # past every grace, well within the codes' 10 minutes
    assert len(server.hub.identities.by_id) == LIVE_PER_ADDRESS
    for n, code in enumerate(codes[:-LIVE_PER_ADDRESS]):
        assert refusal(linked(server, code, T0 + 81, peer=f"10.0.1.{n}")).code == "bad-link"
    phone = linked(server, codes[-1], T0 + 81, peer="10.0.2.1")  # the latest still work
    assert phone.last(p.Welcome).name == "A19"


def test_another_address_keeps_its_own_share_of_codes() -> None:
    server = FakeServer()
    ann = connect(server, "Ann", peer="10.0.0.7")
    code = code_for(ann).code
    for n in range(10):
        code_for(connect(server, f"B{n}", peer="10.0.0.66"))
    ann.send("link-code", T0 + 1)  # asking again replaces Ann's code, nobody else's
    again = ann.last(p.LinkCodeIssued).code
    assert again != code
    assert refusal(linked(server, code, T0 + 2)).code == "bad-link"
    assert linked(server, again, T0 + 2, peer="10.0.0.9").last(p.Welcome).name == "Ann"
