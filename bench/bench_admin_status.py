"""What the admin page costs the event loop: building and encoding one ``admin-status``
(sent once a second per open page) for a busy server, against building and encoding the
lobby's ``rooms`` answer for the same rooms (what any player may ask for) in the same run;
and what counting rooms' activity adds to each stored input, against making that input.

    .venv/bin/python bench/bench_admin_status.py [--rooms 200] [--spectators 2]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall import protocol as p
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.effects import Log
from gridhall.server.io.admin.admin_status import status
from gridhall.server.io.net.app import GameServer


class Quiet:
    """A connection that drops what it is sent (the bench measures the server's side)."""

    peer = "10.0.0.1"
    closed = False

    def send_frame(self, frame: bytes) -> None:
        pass

    def close(self, code: int, reason: str) -> None:
        pass


def best(call: Any, runs: int) -> float:
    """The fastest of ``runs`` calls, in seconds (the machine is shared and noisy)."""
    fastest = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        call()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


async def main(rooms: int, spectators: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = GameServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                db=f"{tmp}/b.db",
                max_rooms=rooms + 1,
                max_rooms_per_address=rooms,
                room_creation_burst=rooms,
            )
        )
        await server.start()
        hub, now = server.hub, time.time()

        def person(name: str, n: int) -> Any:
            ident, effects = hub.hello(
                p.Hello(protocol=1, name=name), now, f"10.0.{n // 250}.{n % 250}"
            )
            server.execute(effects)
            server.sessions[ident.id] = SimpleNamespace(identity=ident, link=Quiet())  # type: ignore[assignment]
            return ident

        n = 0
        for r in range(rooms):
            host = person(f"Host{r}", n := n + 1)
            server.execute(hub.handle(host, p.CreateRoom(game="gomoku"), now)[0])
            assert host.room is not None
            code = host.room.code
            server.execute(
                hub.handle(person(f"Guest{r}", n := n + 1), p.JoinRoom(room=code), now)[0]
            )
            for s in range(spectators):
                server.execute(
                    hub.handle(
                        person(f"Watcher{r}-{s}", n := n + 1),
                        p.JoinRoom(room=code, role="spectator"),
                        now,
                    )[0]
                )
        await asyncio.sleep(0.1)  # let the store write what the set-up did
        frame = p.encode_map(status(server, time.time()))
        admin = best(lambda: p.encode_map(status(server, time.time())), 20)
        lobby = best(lambda: p.encode(p.Rooms(rooms=hub.lobby.listing())), 20)
        entry = {"k": "msg", "p": "p1", "m": {"type": "move", "move": {"x": 1, "y": 2}}, "t": now}
        effects = [Log("ROOM01", i, entry) for i in range(10_000)]
        count = best(lambda: [server.activity.stored(e) for e in effects], 5) / len(effects)
        make = best(lambda: [Log("ROOM01", i, entry) for i in range(10_000)], 5) / 10_000
        print(f"{rooms} rooms, {n} connected players ({spectators} spectators a room)")
        print(
            f"admin-status: {admin * 1000:.2f} ms to build and encode, {len(frame):,} bytes"
            f"; lobby listing: {lobby * 1000:.2f} ms; ratio {admin / lobby:.1f}x"
        )
        print(
            f"room activity per stored input: {count * 1e9:.0f} ns; making the input's Log: "
            f"{make * 1e9:.0f} ns; ratio {count / make:.2f}x"
        )
        for sid in list(server.sessions):
            del server.sessions[sid]
        await server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.rooms, args.spectators))
