"""The floor: what a Gomoku move costs the stack gridhall stands on, with no server of ours.

``bench/peers/run.py``'s ``floor`` peers. CPython's asyncio, WebSocket framing, MessagePack
and the kernel, on the very workload and driver gridhall's server gets (``driver.cjs`` in
its gridhall mode, or ``bench/load.py``'s clients): this server speaks just enough of
gridhall's protocol for them (``hello``/``welcome``, ``create-room``/``join-room`` with
``joined`` and ``state``, ``move``/``moved`` to both players, ``game-over`` after 225
moves, ``play-again``/``agree-again`` and the new game's ``state``) and keeps per room
only its two players and a move counter. It checks no rules (any move from either player
is taken), keeps no sessions, tokens, limits, views or history, and logs nothing. A
``moved`` frame has the shape and size of gridhall's (with ``hello.deltas``): the bytes on
the wire stay the workload's. What it does cost is what any server on this stack pays.

Two transports, both with gridhall's settings (no compression, 64 KiB frames, its ping):

- ``gridhall`` (default): gridhall's own cheapest path, its pieces used as they are: its
  ``GuardedConnection`` hands a read that is one whole binary frame (a move) straight from
  ``data_received`` to the server (``on_frame``; ``server/io/net/handshake.py``), and its
  ``Connection.send_frame`` writes each frame to the transport at once (``connection.py``);
  and its garbage-collection policy (``server/io/runtime/collector.py``);
- ``websockets``: websockets' asyncio API alone: ``async for`` over each connection's
  frames and ``broadcast`` to send them (CPython's collector as it comes).

``--sqlite DB`` keeps gridhall's promise too: every event-loop turn's moves are appended to
a journal table (one ``executemany``, or one ``INSERT`` for a lone move, in one
transaction; WAL, ``synchronous=NORMAL`` and the WAL checkpointed by gridhall's own
``Checkpointer`` thread, as gridhall's store) and committed before any of that turn's
frames goes out. Without it, frames are written as soon as they are made.

    .venv/bin/python bench/peers/floor_server.py [--transport websockets] [--sqlite DB]

It prints its port, then serves until killed. A bench, not a server: see the README.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import msgspec
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.connection import Connection
from gridhall.server.io.net.handshake import GuardedConnection, HandshakeGuard, forget_handshake
from gridhall.server.io.runtime import collector
from gridhall.server.io.store.store import Checkpointer

PLIES = 225
"""A game's moves: the driver's board is full, a draw, after these."""
LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ENCODE = msgspec.msgpack.Encoder().encode
DECODE = msgspec.msgpack.Decoder().decode
log = logging.getLogger("floor")


class Player:
    __slots__ = ("id", "name", "room", "send")

    def __init__(self, send: Callable[[bytes], Any]) -> None:
        self.send = send
        self.id = ""
        self.name = ""
        self.room: Room | None = None


class Room:
    """Two players and a move counter; ``first``: who opens the current game."""

    __slots__ = ("code", "first", "moves", "players", "seq")

    def __init__(self, code: str, creator: Player) -> None:
        self.code = code
        self.players = [creator]
        self.moves = 0
        self.seq = 1
        self.first = 0

    def event(self, frame: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        frame["room"], frame["seq"] = self.code, self.seq
        return frame

    def state(self) -> bytes:
        seats = len(self.players)
        black = self.players[self.first % seats].id
        colors = {p.id: ("black" if p.id == black else "white") for p in self.players}
        view = {"size": 15, "rule": "freestyle", "moves": [], "next": "black", "colors": colors}
        return ENCODE(
            {
                "type": "state",
                "room": self.code,
                "seq": self.seq,
                "game": "gomoku",
                "status": "playing" if seats == 2 else "waiting",
                "players": [
                    {"player": p.id, "name": p.name, "seat": n, "connected": True}
                    for n, p in enumerate(self.players)
                ],
                "view": view if seats == 2 else {},
                "turn": black,
            }
        )


class Journal:
    """Each turn's moves, committed in one transaction before the turn's frames go out."""

    INSERT = "INSERT INTO journal (room, n, entry) VALUES (?, ?, ?)"

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.execute("PRAGMA wal_autocheckpoint=0")  # gridhall's thread checkpoints
        self.checkpointer = Checkpointer(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY,"
            " room TEXT NOT NULL, n INTEGER NOT NULL, entry BLOB NOT NULL)"
        )
        self.rows: list[tuple[str, int, bytes]] = []

    def commit(self) -> None:
        rows, db = self.rows, self.db
        if len(rows) == 1:  # autocommit: the statement is its own transaction
            db.execute(self.INSERT, rows[0])
        elif rows:
            db.execute("BEGIN")
            db.executemany(self.INSERT, rows)
            db.execute("COMMIT")
        rows.clear()
        self.checkpointer.poke()


class Floor:
    """The rooms, and what each frame a client sends does (see the module docstring)."""

    def __init__(self, journal: Journal | None) -> None:
        self.journal = journal
        self.config = ServerConfig()
        """gridhall's defaults (its connections' send queue bound)."""
        self.rooms: dict[str, Room] = {}
        self.made = 0
        self.pending: list[tuple[bytes, list[Player]]] = []
        """With a journal: this turn's frames, sent once its moves are committed."""

    async def handle(self, ws: ServerConnection) -> None:
        forget_handshake(ws)
        if isinstance(ws, GuardedConnection):
            player = Player(Connection(ws, self.config).send_frame)
            ws.on_frame = functools.partial(self.direct, player)
        else:
            player = Player(functools.partial(broadcast, (ws,)))
        try:
            async for frame in ws:  # what on_frame did not take (or everything)
                if isinstance(frame, bytes):
                    self.direct(player, frame)
        except ConnectionClosed:
            pass
        finally:
            if isinstance(ws, GuardedConnection):
                ws.on_frame = None
            self.leave(player)

    def direct(self, player: Player, frame: bytes) -> bool:
        """A frame, from ``on_frame`` or the handler: a bad one is logged, never raised."""
        try:
            self.take(player, frame)
        except Exception:  # never into the transport's callback
            log.exception("could not handle a frame")
        return True

    def out(self, frame: bytes, players: list[Player]) -> None:
        if self.journal is None:
            for player in players:
                player.send(frame)
            return
        if not self.pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self.pending.append((frame, players))

    def flush(self) -> None:
        assert self.journal is not None
        self.journal.commit()
        pending, self.pending = self.pending, []
        for frame, players in pending:
            for player in players:
                player.send(frame)

    def take(self, player: Player, data: bytes) -> None:
        msg = DECODE(data)
        kind = msg.get("type") if isinstance(msg, dict) else None
        room = player.room
        if kind == "move" and room is not None and len(room.players) == 2:
            self.move(player, room, msg["move"], data)
        elif kind == "hello":
            self.made += 1
            player.id, player.name = f"p{self.made:08x}", str(msg.get("name"))
            welcome = {"type": "welcome", "protocol": 1, "player": player.id, "server": "floor"}
            self.out(ENCODE(welcome), [player])
        elif kind == "create-room" and room is None:
            self.made += 1
            code = "".join(LETTERS[self.made // 31**n % 31] for n in range(6))
            room = self.rooms[code] = player.room = Room(code, player)
            self.out(ENCODE(self.joined(room, player, 0)), [player])
            self.out(room.state(), [player])
        elif kind == "join-room" and room is None and msg.get("room") in self.rooms:
            room = player.room = self.rooms[msg["room"]]
            room.players.append(player)
            self.out(ENCODE(room.event(self.joined(room, player, 1))), room.players)
            self.out(room.state(), room.players)
        elif kind in ("play-again", "agree-again") and room is not None:
            self.out(ENCODE(room.event({"type": kind, "from": player.id})), room.players)
            if kind == "agree-again":  # a new game, the other player opening
                room.first += 1
                room.seq += 1
                self.out(room.state(), room.players)
        else:
            self.out(ENCODE({"type": "error", "code": "bad-message", "message": "floor"}), [player])

    @staticmethod
    def joined(room: Room, player: Player, seat: int) -> dict[str, Any]:
        return {
            "type": "joined",
            "room": room.code,
            "seq": room.seq,
            "role": "player",
            "seat": seat,
            "player": player.id,
            "name": player.name,
        }

    def move(self, player: Player, room: Room, move: Any, data: bytes) -> None:
        """Counted and sent to both players, as gridhall's ``moved`` (no rules checked)."""
        ply = room.moves % PLIES
        room.moves += 1
        room.seq += 1
        players = room.players
        black, white = players[room.first % 2], players[(room.first + 1) % 2]
        other = white if player is black else black
        at = [move["x"], move["y"]]
        moved = {
            "type": "moved",
            "room": room.code,
            "seq": room.seq,
            "by": player.id,
            "move": move,
            "view": {
                "size": 15,
                "rule": "freestyle",
                "next": "white" if player is black else "black",
                "colors": {black.id: "black", white.id: "white"},
                "last": at,
            },
            "turn": other.id,
            "delta": {"moves": {"at": ply, "append": [at]}},
        }
        if self.journal is not None:
            self.journal.rows.append((room.code, room.moves, data))
        self.out(ENCODE(moved), players)
        if ply + 1 == PLIES:  # the board is full: a draw
            over = {"type": "game-over", "result": {"winner": None, "reason": "draw"}}
            self.out(ENCODE(room.event(over)), players)

    def leave(self, player: Player) -> None:
        room, player.room = player.room, None
        if room is not None:
            room.players.remove(player)
            if not room.players:
                del self.rooms[room.code]


async def serve_floor(transport: str, db: str | None) -> None:
    floor = Floor(Journal(db) if db else None)
    options: dict[str, Any] = {}
    if transport == "gridhall":
        guard = HandshakeGuard(20_000, 20_000, 32 * 1024)
        options["create_connection"] = guard.connection_class()
        collector.install()  # as gridhall-server does
    async with serve(
        floor.handle,
        "127.0.0.1",
        0,
        compression=None,
        max_size=64 * 1024,
        max_queue=16,
        ping_interval=10,
        ping_timeout=10,
        close_timeout=5,
        **options,
    ) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()  # until killed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transport", choices=("gridhall", "websockets"), default="gridhall")
    parser.add_argument("--sqlite", metavar="DB", help="commit each turn's moves to this file")
    args = parser.parse_args()
    asyncio.run(serve_floor(args.transport, args.sqlite))


if __name__ == "__main__":
    main()
