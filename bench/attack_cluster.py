"""Attacks on a cluster of two nodes (issue 41), run by ``bench/attack.py --only NAME``.

Starts a throw-away Redis and PostgreSQL (``bench/cluster_services.py``) and two nodes,
A and B, each a ``python -m gridhall.server --cluster ... --store ...`` process of this
tree (or of ``--server-path``'s, for a before/after), then:

- ``relay-flood``: Ann (on A, a process of her own) hosts a co-op Minesweeper room and
  times her moves (flag toggles, as attack.py's probe does); Eve, connected to B, joins
  it as a spectator (B relays her to A over Redis) and sends ~60 KiB chat frames as fast
  as her socket takes them, reconnecting and joining again whenever she is closed. Then
  Redis is paused (SIGSTOP) for 2 s while she goes on (what B queues meanwhile). Then
  everyone leaves the room, and 1,000 addresses connect to B, say hello and leave.
  Printed: Eve's frames and what answered them, the messages written to Redis streams
  (XADD calls), Redis's memory (before, peak, after), the room's streams (entries, bytes),
  Ann's round trips, B's RSS while Redis was paused, and, two beats after, the keys the
  closed room and the 1,000 addresses left in Redis (with the longest time to live).
- ``registry``: anyone who can write to Redis writes a node entry by hand: is it in
  ``welcome.nodes``, and is a page of its origin let in (the WebSocket handshake's
  status)? And a message written by hand on a room's input stream: does the room take
  it as a player's (a chat line as Ann, and Ann's own connection replaced)?

Every node gets the cluster secret by ``GRIDHALL_CLUSTER_SECRET`` (a tree from before
the secret existed ignores it). Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall.protocol import decode_map, encode_map  # noqa: E402

SECRET = "bench-attack-cluster-secret-0123456789"
SECRET_ENV = "GRIDHALL_CLUSTER_SECRET"
LEASE_MS = 3000
BEAT = LEASE_MS / 3000
"""Seconds between two beats of a node."""
MAX_FRAME = 8 * 2**20
BIG_CHAT = "spam " * 12_200
"""A chat line of ~61,000 characters: a ~60 KiB frame (the client limit is 64 KiB)."""
ADDRESSES = 1000
FAKE_NODE = "ws://127.0.0.66:8765/"
FAKE_ORIGIN = "http://127.0.0.66:8765"


def frame(type_: str, **fields: Any) -> bytes:
    return encode_map({"type": type_, **fields})


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values) or [float("nan")]
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


# -- the nodes ---------------------------------------------------------------------


class Node:
    """One ``gridhall-server`` cluster node in a process of its own."""

    def __init__(self, tmp: str, name: str, redis_url: str, store_url: str, env: dict[str, str]):
        self.name = name
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gridhall.server",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--db",
                f"{tmp}/{name}.db",
                "--log-level",
                "WARNING",
                "--no-discovery",
                "--cluster",
                redis_url,
                "--store",
                store_url,
                "--lease-ms",
                str(LEASE_MS),
                "--node-id",
                name,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"node {name} did not start: {self.proc.stderr.read()[-2000:]}")
        self.port = int(line.rsplit(" ", 1)[1])
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@dataclass
class Cluster:
    redis: Any
    """``cluster_services.RedisServer``."""
    a: Node
    b: Node
    client: Any = None
    """A ``redis.asyncio`` client for the measurements."""


@contextlib.asynccontextmanager
async def cluster(args: argparse.Namespace) -> AsyncIterator[Cluster]:
    import redis.asyncio as aioredis
    from cluster_services import services

    env = dict(os.environ, **{SECRET_ENV: SECRET})
    if args.server_path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.server_path, env.get("PYTHONPATH")]))
    with services() as (redis, postgres), tempfile.TemporaryDirectory() as tmp:
        store = postgres.new_database()
        nodes = [Node(tmp, name, redis.url, store, env) for name in ("A", "B")]
        client = aioredis.from_url(redis.url)
        try:
            await asyncio.sleep(2 * BEAT)  # each node has seen the other
            yield Cluster(redis, nodes[0], nodes[1], client)
        finally:
            await client.aclose()
            for node in nodes:
                node.stop()
                warnings = [line for line in node.log if "Traceback" in line or "ERROR" in line]
                if warnings:
                    print(f"  node {node.name} logged {len(warnings)} errors", file=sys.stderr)


async def connect_from(address: str, url: str, **extra: Any) -> ClientConnection:
    """A websocket from the loopback address ``address``."""
    sock = socket.socket()
    try:
        sock.bind((address, 0))
        sock.setblocking(False)
        port = int(url.rsplit(":", 1)[1].strip("/"))
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        return await connect(
            url, sock=sock, compression=None, max_size=MAX_FRAME, close_timeout=1, **extra
        )
    except BaseException:
        sock.close()
        raise


async def until(ws: ClientConnection, type_: str, timeout: float = 15.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        msg = decode_map(
            await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic())), MAX_FRAME
        )
        if msg["type"] == type_:
            return msg
        if msg["type"] == "error":
            raise RuntimeError(f"refused: {msg.get('code')}: {msg.get('message')}")


# -- relay-flood --------------------------------------------------------------------


async def probe(url: str) -> None:
    """(Ann, a process of her own) host a co-op room, print ``ROOM code pid``, then
    toggle a flag every 0.1 s, printing each round trip (ms); on SIGTERM, leave the
    room (it closes: nobody is left) and end."""
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with connect(url, compression=None, max_size=MAX_FRAME) as ws:
        await ws.send(frame("hello", protocol=1, name="Ann"))
        welcome = await until(ws, "welcome")
        await ws.send(frame("create-room", game="minesweeper", options={"preset": "beginner"}))
        room = (await until(ws, "joined"))["room"]
        await until(ws, "state")
        print(f"ROOM {room} {welcome['player']}", flush=True)
        marks = itertools.cycle(["flag", "none"])
        next_at = time.monotonic()
        for n in itertools.count():
            if stop.is_set():
                break
            next_at += 0.1
            start = time.perf_counter()
            await ws.send(
                frame("move", move={"action": "mark", "x": 0, "y": 0, "mark": next(marks)}, id=n)
            )
            while True:
                msg = decode_map(await ws.recv(), MAX_FRAME)
                if msg["type"] == "moved" or msg.get("re") == n:
                    break
            print(f"{time.time():.4f} {(time.perf_counter() - start) * 1000:.3f}", flush=True)
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await ws.send(frame("leave-room"))
        await until(ws, "left")


@dataclass
class Flood:
    counts: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)


async def eve(url: str, room: str, flood: Flood, end: float, big: bytes = b"") -> None:
    """Join ``room`` through ``url`` as a spectator and send ``big`` (a ~60 KiB chat
    frame) until ``end``; closed, come back (a new connection, a new identity)."""
    big = big or frame("chat", text=BIG_CHAT)
    while time.monotonic() < end:
        try:
            ws = await connect_from("127.0.0.2", url)
        except (OSError, InvalidHandshake):
            flood.counts["connects refused"] += 1
            await asyncio.sleep(0.1)
            continue
        reader: asyncio.Task[None] | None = None
        try:
            await ws.send(frame("hello", protocol=1, name="Eve"))
            await until(ws, "welcome")
            await ws.send(frame("join-room", room=room, role="spectator"))
            await until(ws, "state")
            flood.counts["joined"] += 1

            async def read(ws: ClientConnection = ws) -> None:
                async for data in ws:
                    if isinstance(data, bytes) and b"\xa5error" in data[:16]:
                        flood.counts[str(decode_map(data, MAX_FRAME).get("code"))] += 1

            reader = asyncio.create_task(read())
            while time.monotonic() < end:
                await ws.send(big)
                flood.counts["sent"] += 1
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else "cut"
            flood.closes[f"{code} {exc.rcvd.reason if exc.rcvd else ''}".strip()] += 1
        except (RuntimeError, TimeoutError, OSError) as exc:
            flood.counts[f"failed: {str(exc)[:40]}"] += 1
            await asyncio.sleep(0.1)
        finally:
            if reader is not None:
                reader.cancel()
            with contextlib.suppress(Exception):
                await ws.close()


async def redis_memory(client: Any) -> int:
    return int((await client.info("memory"))["used_memory"])


async def xadds(client: Any) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_xadd", {}).get("calls", 0))


async def keys_like(client: Any, pattern: str) -> list[tuple[str, int]]:
    """Keys matching ``pattern`` with their time to live in ms (-1: none)."""
    found = []
    async for key in client.scan_iter(match=pattern, count=1000):
        found.append((key.decode(), int(await client.pttl(key))))
    return sorted(found)


def ttl_text(keys: list[tuple[str, int]]) -> str:
    if not keys:
        return "none"
    forever = sum(1 for _, ttl in keys if ttl < 0)
    longest = max(ttl for _, ttl in keys) / 1000
    return f"{len(keys)} ({forever} with no expiry, the longest expires in {longest:.0f} s)"


async def hello_and_leave(url: str, address: str) -> bool:
    try:
        ws = await connect_from(address, url)
    except (OSError, InvalidHandshake):
        return False
    async with ws:
        await ws.send(frame("hello", protocol=1, name="Passer"))
        try:
            await until(ws, "welcome", 10)
        except (RuntimeError, TimeoutError, ConnectionClosed):
            return False
    return True


async def attack_relay_flood(c: Cluster, seconds: float) -> list[str]:
    lines: list[str] = []
    ann = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--probe",
        c.a.url,
        stdout=asyncio.subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", "")),
    )
    assert ann.stdout is not None
    first = (await ann.stdout.readline()).split()
    room, ann_id = first[1].decode(), first[2].decode()
    rtts: list[tuple[float, float]] = []

    async def read_probe() -> None:
        assert ann.stdout is not None
        while line := await ann.stdout.readline():
            t, ms = line.split()
            rtts.append((float(t), float(ms)))

    probe_task = asyncio.create_task(read_probe())
    await asyncio.sleep(3.0)  # a quiet baseline
    idle = [ms for _, ms in rtts]
    mem0, xadd0 = await redis_memory(c.client), await xadds(c.client)
    rss_start = rss_mb(c.b.proc.pid)
    peak = mem0
    stop_sampling = False

    async def sample() -> None:
        nonlocal peak
        while not stop_sampling:
            peak = max(peak, await redis_memory(c.client))
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    flood = Flood()
    start = time.time()
    await eve(c.b.url, room, flood, time.monotonic() + seconds)
    during = [ms for t, ms in rtts if start <= t]
    xadd1 = await xadds(c.client)
    streams = []
    for key in ("gridhall:relay:A:in", "gridhall:relay:B:out"):  # (A owns the room)
        length = int(await c.client.xlen(key))
        size = int(await c.client.memory_usage(key) or 0)
        streams.append(f"{key.rsplit(':', 1)[1]} {length} entries {size / 2**20:.1f} MiB")
    stop_sampling = True
    await sampler
    mem1 = await redis_memory(c.client)
    sent = flood.counts["sent"]
    lines.append(
        f"Eve (on B, relayed to A): {sent} frames of ~60 KiB in {seconds:.0f} s "
        f"({sent / seconds:.0f}/s), {flood.counts['joined']} connections; answers "
        f"{dict(flood.counts - Counter(sent=sent, joined=flood.counts['joined']))}; "
        f"closed {dict(flood.closes)}"
    )
    lines.append(
        f"Redis: {xadd1 - xadd0} stream messages written (XADD); memory "
        f"{mem0 / 2**20:.1f} MiB before, {peak / 2**20:.1f} peak (+{(peak - mem0) / 2**20:.0f}), "
        f"{mem1 / 2**20:.1f} after; room streams: {', '.join(streams)}"
    )
    lines.append(
        f"Ann's moves (on A): idle p50 {pct(idle, 0.5):.1f} p99 {pct(idle, 0.99):.1f} ms; "
        f"during the flood p50 {pct(during, 0.5):.1f} p99 {pct(during, 0.99):.1f} "
        f"max {max(during, default=float('nan')):.1f} ms ({len(during)} moves)"
    )
    # valid frames as fast as she can: only the session's rate reaches Redis
    valid = Flood()
    xadd2 = await xadds(c.client)
    await eve(c.b.url, room, valid, time.monotonic() + 5.0, frame("list-rooms"))
    relayed = await xadds(c.client) - xadd2
    lines.append(
        f"Eve's valid frames (list-rooms) as fast as she can for 5 s: {valid.counts['sent']} "
        f"sent over {valid.counts['joined']} connections (closed for flooding, back at once); "
        f"{relayed} stream messages written, both ways ({relayed / 5:.0f}/s; the session's "
        "rate is 20/s, bursts of 60)"
    )
    # Redis slow (paused): what B holds meanwhile
    rss0 = rss_mb(c.b.proc.pid)
    top = rss0
    flood2 = Flood()
    pause_end = time.monotonic() + 2.0
    flooding = asyncio.create_task(eve(c.b.url, room, flood2, time.monotonic() + 4.0))
    c.redis.proc.send_signal(signal.SIGSTOP)
    try:
        while time.monotonic() < pause_end:
            top = max(top, rss_mb(c.b.proc.pid))
            await asyncio.sleep(0.05)
    finally:
        c.redis.proc.send_signal(signal.SIGCONT)
    await flooding
    lines.append(
        f"B's RSS: {rss_start:.0f} MB before the flood, {rss0:.0f} after it; Redis then paused "
        f"2 s under the flood: peak {top:.0f} MB (+{top - rss0:.0f}); Eve sent "
        f"{flood2.counts['sent']} frames meanwhile"
    )
    probe_task.cancel()
    ann.send_signal(signal.SIGTERM)
    await ann.wait()  # Ann's connection ends: a co-op room with nobody left closes
    await asyncio.sleep(4 * BEAT)
    left = await keys_like(c.client, f"*{room}*")
    mem2 = await redis_memory(c.client)
    players = [k for k in await keys_like(c.client, "gridhall:player:*")]
    lines.append(
        f"room {room} closed, two beats later: its keys {ttl_text(left)} "
        f"[{', '.join(k.split(':', 3)[-1] for k, _ in left)}]; "
        f"gridhall:player:* {ttl_text(players)} (Ann: {ann_id}); Redis memory "
        f"{mem2 / 2**20:.1f} MiB"
    )
    ok = 0
    for batch in range(0, ADDRESSES, 50):
        got = await asyncio.gather(
            *(
                hello_and_leave(c.b.url, f"127.1.{n // 250}.{n % 250 + 1}")
                for n in range(batch, min(ADDRESSES, batch + 50))
            )
        )
        ok += sum(got)
    await asyncio.sleep(2 * BEAT)
    addrs = await keys_like(c.client, "gridhall:addr:*")
    held = await keys_like(c.client, "gridhall:held:*")
    lines.append(
        f"{ok} of {ADDRESSES} addresses said hello to B and left; two beats later "
        f"gridhall:addr:* {ttl_text(addrs)}, gridhall:held:* {ttl_text(held)}"
    )
    return lines


# -- registry -------------------------------------------------------------------------


async def attack_registry(c: Cluster, seconds: float) -> list[str]:
    lines: list[str] = []
    await c.client.hset("gridhall:node:evil", mapping={"address": FAKE_NODE})
    await c.client.pexpire("gridhall:node:evil", 60_000)
    await asyncio.sleep(2 * BEAT)
    async with await connect_from("127.0.0.3", c.a.url) as ws:
        await ws.send(frame("hello", protocol=1, name="Visitor"))
        welcome = await until(ws, "welcome")
    listed = FAKE_NODE in (welcome.get("nodes") or [])
    lines.append(
        f"a node entry written by hand ({FAKE_NODE}): "
        f"{'LISTED' if listed else 'not listed'} in welcome.nodes {welcome.get('nodes')}"
    )
    try:
        ws = await connect(c.a.url, origin=FAKE_ORIGIN, close_timeout=1)  # type: ignore[arg-type]
        await ws.close()
        status = "101 (let in)"
    except InvalidStatus as exc:
        status = f"{exc.response.status_code} (refused)"
    lines.append(f"a page of its origin ({FAKE_ORIGIN}) opening a socket to A: {status}")
    async with await connect_from("127.0.0.4", c.a.url) as ann:
        await ann.send(frame("hello", protocol=1, name="Ann"))
        ann_id = (await until(ann, "welcome"))["player"]
        await ann.send(frame("create-room", game="gomoku"))
        room = (await until(ann, "joined"))["room"]
        async with await connect_from("127.0.0.5", c.a.url) as bob:
            await bob.send(frame("hello", protocol=1, name="Bob"))
            await until(bob, "welcome")
            await bob.send(frame("join-room", room=room))
            await until(bob, "state")
            key = f"gridhall:room:{room}:in"
            forged = {"p": ann_id, "n": "evil", "i": "evil:1"}
            await c.client.xadd(
                key, {"k": "open", "a": "127.0.0.66", "since": -1, "deltas": 0, "s": 0, **forged}
            )
            await c.client.xadd(
                key, {"k": "frame", "d": frame("chat", text="forged by evil"), "s": 1, **forged}
            )
            said = False
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                async with asyncio.timeout(3 * BEAT):
                    while not said:
                        msg = decode_map(await bob.recv(), MAX_FRAME)
                        said = msg["type"] == "chat" and msg.get("text") == "forged by evil"
            replaced = ""
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.5):
                    try:
                        while True:
                            await ann.recv()
                    except ConnectionClosed as exc:
                        replaced = f"closed {exc.rcvd.code if exc.rcvd else ''}"
    lines.append(
        f"a chat line written by hand on {key} as Ann: "
        f"{'SHOWN to Bob as Ann' if said else 'not shown'}; Ann's own connection "
        f"{replaced or 'kept'}"
    )
    return lines


CLUSTER_ATTACKS = {"relay-flood": attack_relay_flood, "registry": attack_registry}


async def run(names: list[str], args: argparse.Namespace) -> None:
    """Each attack on a fresh cluster; its figures printed as it ends."""
    for name in names:
        async with cluster(args) as c:
            t0 = time.time()
            lines = await CLUSTER_ATTACKS[name](c, args.seconds)
            print(
                f"{name} (two nodes, {'tree ' + args.server_path if args.server_path else 'this tree'}, "
                f"{time.time() - t0:.0f} s):",
                flush=True,
            )
            for line in lines:
                print("  " + line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--only", default=",".join(CLUSTER_ATTACKS))
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--server-path", default=None)
    args = parser.parse_args()
    if args.probe:
        with contextlib.suppress(KeyboardInterrupt, ConnectionClosed):
            asyncio.run(probe(args.probe))
        return
    asyncio.run(run([n.strip() for n in args.only.split(",") if n.strip()], args))


if __name__ == "__main__":
    main()
