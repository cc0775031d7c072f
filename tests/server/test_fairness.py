"""What one address may hold or try: rooms, room creations, password guesses."""

from __future__ import annotations

from gridhall import protocol as p
from gridhall.server.core.fairness import Backoff, PasswordGuard, PerAddress, address_key
from tests.server.helpers import T0, Client, FakeServer, connect


def private_room(server: FakeServer, password: str = "sesame") -> str:
    owner = connect(server, "Owner", peer="10.9.9.9")
    owner.send("create-room", game="gomoku", password=password)
    code: str = owner.last(p.Joined).room
    return code


def guess(client: Client, code: str, password: str, now: float = T0) -> p.Error | None:
    client.clear()
    client.send("join-room", now, room=code, password=password)
    errors = client.errors()
    return errors[-1] if errors else None


def test_a_join_password_is_checked_by_a_job() -> None:
    server = FakeServer()
    code = private_room(server)
    bob = connect(server, "Bob")
    server.hold_work = True
    bob.send("join-room", room=code, password="sesame")
    assert [w.job.kind for w in server.work] == ["password"]
    server.finish_work()
    assert bob.last(p.Joined).room == code


def test_a_second_guess_while_one_is_hashed_is_busy() -> None:
    server = FakeServer()
    code = private_room(server)
    bob, cy = connect(server, "Bob"), connect(server, "Cy", peer="10.0.0.2")
    server.hold_work = True
    bob.send("join-room", room=code, password="nope")
    error = guess(cy, code, "nope2")
    assert error is not None and error.code == "server-busy" and error.retry_after
    assert len(server.work) == 1


def test_password_guesses_back_off_per_address_with_retry_after() -> None:
    server = FakeServer()
    code = private_room(server)
    for n in range(5):  # five free tries, from as many connections of one address
        error = guess(connect(server, f"Bob{n}"), code, f"wrong{n}", T0 + n * 0.01)
        assert error is not None and error.code == "wrong-password"
    bob = connect(server, "Bob")
    error = guess(bob, code, "wrong5", T0 + 0.1)
    assert error is not None and error.code == "rate-limited" and error.retry_after
    assert not server.work  # refused before any hashing
    later = T0 + 0.1 + error.retry_after
    error = guess(bob, code, "sesame", later)
    assert error is None and bob.last(p.Joined).room == code


def test_a_guesser_that_disconnects_at_once_still_counts() -> None:
    server = FakeServer()
    code = private_room(server)
    server.hold_work = True
    for n in range(5):
        hit = connect(server, f"Hit{n}")
        hit.send("join-room", room=code, password=f"wrong{n}")
        hit.drop()
        server.finish_work()
    error = guess(connect(server, "Again"), code, "wrong")
    assert error is not None and error.code == "rate-limited"


def test_one_room_guessed_from_many_addresses_backs_off_for_the_guessers() -> None:
    server = FakeServer()
    code = private_room(server)
    guessers = [connect(server, f"G{n}", peer=f"10.1.0.{n}") for n in range(21)]
    for g in guessers[:20]:  # one guess from each of 20 addresses
        error = guess(g, code, "wrong")
        assert error is not None and error.code == "wrong-password"
    error = guess(guessers[20], code, "wrong")  # the 21st failure is still judged
    assert error is not None and error.code == "wrong-password"
    error = guess(guessers[0], code, "wrong")  # a guesser that failed here backs off
    assert error is not None and error.code == "rate-limited" and error.retry_after


def test_guessers_at_a_room_never_lock_out_a_friend_from_another_address() -> None:
    server = FakeServer()
    code = private_room(server)
    guessers = [connect(server, f"G{n}", peer=f"10.2.0.{n}") for n in range(4)]
    refused = 0
    for n in range(40):  # four addresses guess as fast as they are let
        error = guess(guessers[n % 4], code, f"wrong{n}", T0 + n * 0.01)
        assert error is not None
        refused += error.code == "rate-limited"
    assert refused  # the guessers are slowed down...
    friend = connect(server, "Friend", peer="10.3.0.1")
    error = guess(friend, code, "sesame", T0 + 0.5)  # ...the friend is not
    assert error is None and friend.last(p.Joined).room == code


def test_backoff_doubles_is_capped_and_is_forgotten() -> None:
    backoff = Backoff(free=2, base=1.0, cap=4.0, forget=100.0)
    for _ in range(2):
        backoff.failed("k", 0.0)
    assert backoff.wait("k", 0.0) == 1.0
    backoff.failed("k", 0.0)
    assert backoff.wait("k", 0.0) == 2.0
    for _ in range(5):
        backoff.failed("k", 0.0)
    assert backoff.wait("k", 0.0) == 4.0
    assert backoff.wait("k", 100.0) == 0.0 and len(backoff) == 0
    backoff.failed("j", 0.0)
    backoff.succeeded("j")
    assert backoff.wait("j", 0.0) == 0.0


def test_one_address_holds_at_most_its_share_of_rooms() -> None:
    server = FakeServer(max_rooms_per_address=3)
    for n in range(3):
        connect(server, f"A{n}").send("create-room", game="gomoku")
    extra = connect(server, "A3")
    extra.send("create-room", game="gomoku")
    [error] = extra.errors()
    assert error.code == "server-busy" and "address" in error.message
    other = connect(server, "B", peer="10.0.0.2")
    other.send("create-room", game="gomoku")
    assert other.last(p.Joined) and not other.errors()


def test_a_dropped_creators_room_counts_until_its_grace_ends() -> None:
    server = FakeServer(max_rooms_per_address=1, grace_seconds=30.0)
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku")
    ann.drop(T0 + 1)
    bob = connect(server, "Bob", T0 + 2)
    bob.send("create-room", T0 + 2, game="gomoku")
    assert bob.errors()[-1].code == "server-busy"
    server.advance(T0 + 32)  # Ann's grace is over: her room closes
    bob.send("create-room", T0 + 32, game="gomoku")
    assert bob.last(p.Joined)


def test_creating_rooms_too_fast_is_rate_limited_with_retry_after() -> None:
    server = FakeServer(room_creation_burst=2, room_creations_per_minute=6)
    ann = connect(server, "Ann")
    for _ in range(2):
        ann.send("create-room", game="gomoku")
        ann.send("leave-room")
    ann.clear()
    rid = ann.send("create-room", game="gomoku")
    [error] = ann.errors()
    assert error.code == "rate-limited" and error.re == rid
    assert error.retry_after is not None and 9 < error.retry_after <= 10
    ann.send("create-room", T0 + 10, game="gomoku")
    assert ann.last(p.Joined)


def test_forgotten_failures_are_swept_at_the_next_failure() -> None:
    backoff = Backoff(free=2, base=1.0, cap=4.0, forget=100.0)
    for n in range(50):
        backoff.failed(f"10.0.0.{n}", T0)
    backoff.failed("10.0.1.1", T0 + 100)  # every earlier key is forgotten by now
    assert len(backoff) == 1 and "10.0.1.1" in backoff


def test_a_key_that_fails_again_outlives_quieter_ones() -> None:
    backoff = Backoff(free=2, base=1.0, cap=4.0, forget=100.0)
    backoff.failed("a", T0)
    backoff.failed("b", T0 + 10)
    backoff.failed("a", T0 + 60)  # "a" failed last: "b" is the one forgotten first
    backoff.failed("c", T0 + 111)
    assert "b" not in backoff and "a" in backoff and backoff.wait("a", T0 + 111) == 0.0
    backoff.failed("a", T0 + 112)  # its count went on: a third failure in a row
    assert backoff.wait("a", T0 + 112) == 2.0


def test_a_full_backoff_table_drops_its_quietest_key() -> None:
    backoff = Backoff(free=2, base=1.0, cap=4.0, forget=1000.0, max_keys=100)
    for n in range(1000):
        backoff.failed(f"k{n}", T0 + n * 0.01)
    assert len(backoff) == 100
    assert "k999" in backoff and "k900" in backoff and "k899" not in backoff


def test_an_ipv6_64_guesses_passwords_as_one_address() -> None:
    guard = PasswordGuard()
    for n in range(5):  # the five free guesses, each from a new address of one /64
        assert guard.wait("ROOM", f"2001:db8:1:2::{n + 1:x}", T0) == 0.0
        guard.tried("ROOM", f"2001:db8:1:2::{n + 1:x}", False, T0)
    assert guard.wait("ROOM", "2001:db8:1:2:ffff::9", T0) > 0  # the sixth waits
    assert guard.wait("ROOM", "2001:db8:1:3::1", T0) == 0.0  # the next /64 does not
    assert address_key("::ffff:10.0.0.7") == "10.0.0.7" == address_key("10.0.0.7")


def test_full_buckets_are_swept_and_the_table_stays_bounded() -> None:
    creations = PerAddress(rate=1.0, burst=3, max_keys=50)
    for n in range(500):
        creations.take(f"10.1.{n // 250}.{n % 250}", T0)
    assert len(creations) == 50
    creations.take("10.9.9.9", T0 + 3)  # 3 s later every bucket is full again
    assert len(creations) == 1
