"""The swarm of issue 41 item 10, run by ``bench/attack.py --only swarm``.

Ninety fuzzing clients and three flooders, each from a loopback address of its own,
while the probe plays in a room of its own. A fuzzer says hello (with its token
again after it is closed), makes a co-op Minesweeper room and then sends 17 frames a
second (within the rate limit): half are requests the protocol allows (moves in its
room, list-rooms, chat, sync, player-info, history and leaderboard queries), half are
made bad on purpose (random bytes, truncated MessagePack, arrays, maps without a
``type``, unknown types, known types with fields of the wrong kind or size, text
frames). A flooder sends ``list-rooms`` at 60 a second, three times the rate limit,
and connects again whenever it is closed. Together about 1,770 frames a second.

The scenario measures the probe's round trips for a baseline of its own first
(the probe alone, just before the swarm, in the same run), then during the swarm,
and prints both p99s and their ratio, with what the swarm sent and what came back:
answers, refusals by code, closes by reason, connects refused.

``burst`` (run by ``--only burst``): every two seconds a client from a fresh address
says hello and writes 400 KB of tiny frames (``list-rooms``, 26 bytes each) in one
write, then reads until it is closed. websockets parses a whole read at once, so each
such write was once reads of ~4,400 frames, each parsed in one callback (a stall of
the event loop for everyone) and queued for one connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import string
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

FUZZERS = 90
FLOODERS = 3
GOOD = 0.5
"""The share of a fuzzer's frames that are requests the protocol allows."""
FUZZ_RATE = 17.0
"""Frames a second per fuzzer (the server allows 20)."""
FLOOD_RATE = 60.0
"""Frames a second per flooder (three times what the server allows)."""
BASELINE = 15.0
"""Seconds of the probe alone before the swarm starts (its baseline)."""
MAX_FRAME = 8 * 2**20


def fuzz_address(n: int) -> str:
    return f"127.41.0.{1 + n}"


def flood_address(n: int) -> str:
    return f"127.41.1.{1 + n}"


def pack(data: Any) -> bytes:
    frame: bytes = msgpack.packb(data, use_bin_type=True)
    return frame


def junk(rng: random.Random) -> Any:
    """A value of a random kind and size, for a field."""
    kind = rng.randrange(9)
    if kind == 0:
        return rng.randint(-(2**63), 2**64 - 1)
    if kind == 1:
        return "".join(rng.choices(string.printable, k=rng.randrange(0, 300)))
    if kind == 2:
        return rng.random() * 1e9
    if kind == 3:
        return None
    if kind == 4:
        return rng.random() < 0.5
    if kind == 5:
        return [rng.randrange(100) for _ in range(rng.randrange(20))]
    if kind == 6:
        return {"x": rng.randrange(-5, 50), "y": junk(rng) if rng.random() < 0.3 else 1}
    if kind == 7:
        return rng.randbytes(rng.randrange(40))
    return "x" * rng.choice((1, 64, 4096, 40_000))


def good_request(rng: random.Random, n: int) -> dict[str, Any]:
    """A request the protocol allows (it may still be refused: chat past its limit,
    a move on a revealed cell, a query too soon)."""
    pick = rng.randrange(8)
    if pick <= 2:
        x, y = rng.randrange(9), rng.randrange(9)
        action = rng.choice(("mark", "mark", "reveal"))
        move: dict[str, Any] = {"action": action, "x": x, "y": y}
        if action == "mark":
            move["mark"] = rng.choice(("flag", "none"))
        return {"type": "move", "move": move, "id": n}
    if pick == 3:
        return {"type": "list-rooms", "id": n}
    if pick == 4:
        return {"type": "chat", "text": "fuzz " + str(n), "id": n}
    if pick == 5:
        return {"type": "sync", "id": n}
    if pick == 6:
        return {"type": "player-info", "color": rng.choice(("#aa3344", "#3344aa")), "id": n}
    return {"type": rng.choice(("leaderboard", "records")), "game": "gomoku", "id": n}


def bad_frame(rng: random.Random, n: int) -> bytes | str:
    """A frame made bad in one of many ways (each refused with an error)."""
    pick = rng.randrange(10)
    if pick == 0:
        return rng.randbytes(rng.randrange(1, 200))
    if pick == 1:
        return pack(good_request(rng, n))[: -rng.randrange(1, 4)]
    if pick == 2:
        return pack([junk(rng) for _ in range(rng.randrange(5))])
    if pick == 3:
        return pack({"id": n, "move": junk(rng)})
    if pick == 4:
        return pack({"type": "".join(rng.choices(string.ascii_lowercase, k=8)), "id": n})
    if pick == 5:
        return "{'type': 'list-rooms'}"
    if pick == 6:
        return pack({1: 2, "type": "move", "id": n})
    request = good_request(rng, n)
    field = rng.choice([k for k in request if k != "type"] + ["extra"])
    request[field] = junk(rng)
    if pick == 7:
        request["id"] = junk(rng)
    return pack(request)


@dataclass
class Swarm:
    """The swarm's clients and what they saw (``counts``)."""

    url: str
    port: int
    until: float
    seed: int
    counts: Counter[str] = field(default_factory=Counter)

    def running(self) -> bool:
        return time.time() < self.until

    async def _connect(self, address: str) -> ClientConnection | None:
        """A websocket from ``address``, or None (refused: counted, and a pause)."""
        sock = socket.socket()
        try:
            sock.bind((address, 0))
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port))
            return await connect(
                self.url, sock=sock, compression=None, max_size=MAX_FRAME, close_timeout=1
            )
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            sock.close()
            self.counts[f"connect refused ({type(exc).__name__})"] += 1
            await asyncio.sleep(0.5)
            return None

    async def _read(self, ws: ClientConnection, welcomed: asyncio.Future[dict[str, Any]]) -> None:
        counts = self.counts
        with contextlib.suppress(ConnectionClosed):
            async for data in ws:
                counts["received"] += 1
                if not isinstance(data, bytes) or b"\xa5error" not in data[:16]:
                    if not welcomed.done() and b"welcome" in data[:24]:
                        welcomed.set_result(msgpack.unpackb(data, raw=False))
                    continue
                counts["error " + str(msgpack.unpackb(data, raw=False).get("code"))] += 1

    async def _paced(self, ws: ClientConnection, rate: float, make: Callable[[int], Any]) -> None:
        next_at = time.monotonic()
        n = 0
        while self.running():
            n += 1
            await ws.send(make(n))
            self.counts["sent"] += 1
            next_at += 1 / rate
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    async def _session(
        self, address: str, hello: dict[str, Any], rate: float, make: Callable[[int], Any]
    ) -> dict[str, Any] | None:
        """One connection: hello, then ``make(n)`` at ``rate`` until closed or over.
        The welcome (for its token), if one came."""
        ws = await self._connect(address)
        if ws is None:
            return None
        welcomed: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        reader = asyncio.create_task(self._read(ws, welcomed))
        welcome = None
        try:
            await ws.send(pack({"type": "hello", "protocol": 1, **hello}))
            welcome = await asyncio.wait_for(asyncio.shield(welcomed), 10.0)
            if "token" not in hello:
                await ws.send(pack({"type": "create-room", "game": "minesweeper", "id": 0}))
            await self._paced(ws, rate, make)
        except ConnectionClosed as exc:
            why = exc.rcvd.reason if exc.rcvd else "no close frame"
            why = "frame too big" if why.startswith("frame with") else why
            self.counts[f"closed {exc.rcvd.code if exc.rcvd else ''} {why!r}"] += 1
        except TimeoutError:
            self.counts["no welcome in 10 s"] += 1
        finally:
            reader.cancel()
            with contextlib.suppress(Exception):
                await ws.close()
        return welcome

    async def fuzzer(self, n: int) -> None:
        rng = random.Random(self.seed * 1000 + n)
        hello: dict[str, Any] = {"name": f"Fuzz{n}"}
        await asyncio.sleep(rng.random() * 2.0)  # they arrive over two seconds

        def make(i: int) -> bytes | str:
            return pack(good_request(rng, i)) if rng.random() < GOOD else bad_frame(rng, i)

        while self.running():
            welcome = await self._session(fuzz_address(n), hello, FUZZ_RATE, make)
            if welcome is not None and "token" in welcome:
                hello = {"name": f"Fuzz{n}", "token": welcome["token"]}

    async def flooder(self, n: int) -> None:
        await asyncio.sleep(n * 0.3)

        def make(i: int) -> bytes:
            return pack({"type": "list-rooms", "id": i})

        while self.running():
            await self._session(flood_address(n), {"name": f"Flood{n}"}, FLOOD_RATE, make)

    async def run(self) -> None:
        await asyncio.gather(
            *(self.fuzzer(n) for n in range(FUZZERS)),
            *(self.flooder(n) for n in range(FLOODERS)),
        )


def p99(samples: list[float]) -> float:
    ordered = sorted(samples) or [float("nan")]
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def attack(
    url: str,
    port: int,
    seconds: float,
    begin: Callable[[], float],
    rtts: Callable[[float, float], list[float]],
    seed: int = 1,
) -> str:
    """The probe alone for :data:`BASELINE` s, then the swarm for ``seconds`` (``begin``
    starts the attack's clock and returns its start); the summary line."""
    calm = time.time()
    await asyncio.sleep(BASELINE)
    started = begin()
    swarm = Swarm(url, port, started + seconds, seed)
    await swarm.run()
    ended = time.time()
    before, during = rtts(calm, started), rtts(started, ended)
    c = swarm.counts
    elapsed = max(0.001, ended - started)
    errors = ", ".join(f"{k[6:]} {v}" for k, v in c.most_common() if k.startswith("error "))
    closes = ", ".join(f"{v} {k[7:]}" for k, v in c.most_common() if k.startswith("closed "))
    refused = sum(v for k, v in c.items() if k.startswith("connect refused"))
    return (
        f"probe p99 {p99(before):.1f} ms before ({len(before)} moves), "
        f"{p99(during):.1f} ms during ({len(during)}), x{p99(during) / p99(before):.1f}; "
        f"{c['sent'] / elapsed:,.0f} frames/s sent, {c['received'] / elapsed:,.0f}/s back; "
        f"errors: {errors or 'none'}; closed: {closes or 'none'}; "
        f"{refused} connects refused"
    )


BURST_BYTES = 400_000
BURST_EVERY = 2.0


def masked(payload: bytes) -> bytes:
    """A client's binary frame (masked, as RFC 6455 asks) of a payload under 126 bytes."""
    mask = random.randbytes(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x82, 0x80 | len(payload)]) + mask + body


async def bursts(url: str, port: int, until: float) -> str:
    """A burst of tiny frames in one write every :data:`BURST_EVERY` s, each from a fresh
    address, until ``until``; the summary line."""
    one = masked(pack({"type": "list-rooms", "id": 1}))
    blob = one * (BURST_BYTES // len(one))
    swarm = Swarm(url, port, until, 0)
    tasks = []
    n = 0
    while swarm.running():
        tasks.append(asyncio.create_task(_burst(swarm, f"127.42.{n // 250}.{1 + n % 250}", blob)))
        n += 1
        await asyncio.sleep(BURST_EVERY)
    await asyncio.gather(*tasks)
    c = swarm.counts
    closes = ", ".join(f"{v} {k[7:]}" for k, v in c.most_common() if k.startswith("closed "))
    return (
        f"{n} bursts of {len(blob) // len(one):,} frames ({len(blob) // 1000} KB) in one write; "
        f"{c['received']:,} frames back; closed: {closes or 'none'}"
    )


async def _burst(swarm: Swarm, address: str, blob: bytes) -> None:
    ws = await swarm._connect(address)
    if ws is None:
        return
    try:
        await ws.send(pack({"type": "hello", "protocol": 1, "name": "Burst"}))
        assert ws.transport is not None
        ws.transport.write(blob)
        async for _ in ws:
            swarm.counts["received"] += 1
    except ConnectionClosed as exc:
        why = exc.rcvd.reason if exc.rcvd else "no close frame"
        swarm.counts[f"closed {exc.rcvd.code if exc.rcvd else ''} {why!r}"] += 1
    finally:
        with contextlib.suppress(Exception):
            await ws.close()
