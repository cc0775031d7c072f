"""``gridhall-bridge``: seat an external Gomocup (``pbrain-*``) engine in a gridhall room.

The bridge is an ordinary protocol client: it says hello, creates or joins a
Gomoku room, and whenever the room says it is its turn it asks the engine
(through :class:`.engine.PbrainEngine`) for a move. So any
engine that speaks the Piskvork protocol can play people, or our own computer
(``--vs easy``), on any gridhall server.

    gridhall-bridge --server 192.168.1.20:8765 --engine "./pbrain-rapfi" --vs hard
    gridhall-bridge --room K7MQ2D --engine gridhall-pbrain --name Rapfi
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shlex
import shutil
import sys
from typing import Any, NoReturn

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, InvalidURI

from gridhall import protocol as p
from gridhall.protocol.address import AddressError, server_url
from gridhall.protocol.computer_policy import ComputerPolicy
from gridhall.protocol.games.common import REASONS as COMMON_REASONS
from gridhall.protocol.games.gomoku import GOMOKU

from .engine import PbrainEngine, PbrainError

REASONS = {**COMMON_REASONS, **GOMOKU.words["reasons"]}

log = logging.getLogger("gridhall.bridge")


class EngineSeat:
    """Plays one seat of one room with an engine, for ``games`` games."""

    def __init__(
        self, ws: ClientConnection, engine_cmd: list[str], games: int, timeout_turn_ms: int
    ) -> None:
        self.ws = ws
        self.engine_cmd = engine_cmd
        self.games_left = games
        self.timeout_turn_ms = timeout_turn_ms
        self.player = ""
        self.engine: PbrainEngine | None = None
        self.results: list[dict[str, Any]] = []
        self.names: dict[str, str] = {}
        """Player id -> name, from the room's states (to say who won)."""
        self.colors: dict[str, str] = {}
        self._thinking_on: int | None = None

    async def send(self, type_: str, **fields: Any) -> None:
        await self.ws.send(p.encode_map({"type": type_, **fields}))

    async def run(
        self, name: str, room: str | None, options: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Play until ``games`` games have ended; returns their results."""
        await self.send("hello", protocol=p.PROTOCOL_VERSION, name=name)
        if room:
            await self.send("join-room", room=room)
        else:
            await self.send("create-room", game="gomoku", options=options)
        try:
            async for frame in self.ws:
                msg = p.decode_map(frame)
                if await self.handle(msg):
                    break
        finally:
            if self.engine is not None:
                await self.engine.close()
        return self.results

    async def handle(self, msg: dict[str, Any]) -> bool:
        """React to one server message; True when the bridge is done."""
        kind = msg["type"]
        if kind == "welcome":
            self.player = msg["player"]
        elif kind == "error":
            log.warning("server refused: %s (%s)", msg["message"], msg["code"])
            if msg["code"] in ("no-such-room", "room-full", "wrong-password", "server-busy"):
                return True
        elif kind == "joined" and msg.get("player") in (None, self.player):
            log.info("seated in room %s", msg["room"])
        elif kind in ("state", "moved"):
            for player in msg.get("players") or []:
                self.names[str(player.get("player"))] = str(player.get("name"))
            colors = (msg.get("view") or {}).get("colors")
            if isinstance(colors, dict):
                self.colors = {str(k): str(v) for k, v in colors.items()}
            await self.maybe_move(msg)
        elif kind == "game-over":
            self.results.append(msg["result"])
            self.games_left -= 1
            log.info("%s", self.describe(len(self.results), msg["result"]))
            if self.games_left <= 0:
                return True
            await self.send("play-again")
        elif kind == "play-again" and msg["from"] != self.player and ComputerPolicy.agrees_again:
            await self.send("agree-again")
        elif kind == "offer" and msg["from"] != self.player:
            await self.send("answer", kind=msg["kind"], accept=ComputerPolicy.accepts(msg["kind"]))
        return False

    def describe(self, number: int, result: dict[str, Any]) -> str:
        """One finished game in words: ``Game 1: Rapfi (black, this engine) won by five
        in a row.``"""
        try:
            outcome = p.Outcome.from_map(result)
        except ValueError:
            return f"Game {number}: over ({result.get('reason')})."
        why = REASONS.get(outcome.termination, outcome.termination)
        if outcome.winner is None:
            return f"Game {number}: draw by {why}."
        who = self.names.get(outcome.winner, "the opponent")
        notes = [c for c in (self.colors.get(outcome.winner),) if c]
        if outcome.winner == self.player:
            notes.append("this engine")
        note = f" ({', '.join(notes)})" if notes else ""
        return f"Game {number}: {who}{note} won by {why}."

    async def maybe_move(self, msg: dict[str, Any]) -> None:
        view = msg.get("view") or {}
        turn = msg.get("turn")
        if turn != self.player or "moves" not in view:
            return
        moves = [(int(x), int(y)) for x, y in view["moves"]]
        if self._thinking_on == len(moves):
            return
        self._thinking_on = len(moves)
        if self.engine is None or self.engine.size != view["size"] or len(moves) <= 1:
            if self.engine is not None:
                await self.engine.close()
            self.engine = await PbrainEngine.start(
                self.engine_cmd, view["size"], view["rule"], self.timeout_turn_ms
            )
        x, y = await self.engine.move(moves)
        await self.send("move", move={"x": x, "y": y})


async def run_bridge(
    url: str,
    engine_cmd: list[str],
    name: str,
    room: str | None,
    options: dict[str, Any],
    games: int,
    timeout_turn_ms: int,
) -> list[dict[str, Any]]:
    async with connect(url, compression=None) as ws:
        seat = EngineSeat(ws, engine_cmd, games, timeout_turn_ms)
        results = await seat.run(name, room, options)
        return [{**r, "text": seat.describe(i, r)} for i, r in enumerate(results, 1)]


def engine_problem(cmd: list[str]) -> str | None:
    """Why ``cmd`` cannot start, in words (None if its program is there)."""
    if not cmd:
        return "--engine is empty; give the engine's command line"
    program = cmd[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.isfile(program):
            return f"there is no engine at {program!r}"
        if not os.access(program, os.X_OK):
            return f"{program!r} is not executable (chmod +x it)"
        return None
    if shutil.which(program) is None:
        return (
            f"cannot find the engine {program!r} on PATH; give its full path (or ./"
            f"{program} in this folder), or activate the virtual environment that "
            "installed it (e.g. .venv/bin/gridhall-pbrain)"
        )
    return None


async def check_engine(cmd: list[str], size: int, rule: str, timeout_turn_ms: int) -> None:
    """Start the engine once and stop it: a broken engine is reported before any room
    is made. Raises :class:`PbrainError`."""
    engine = await PbrainEngine.start(cmd, size, rule, timeout_turn_ms)
    await engine.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="gridhall-bridge", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server", default=f"localhost:{p.DEFAULT_PORT}", help="HOST[:PORT] or ws:// URL"
    )
    parser.add_argument("--engine", required=True, help="the engine's command line")
    parser.add_argument("--name", default="Engine", help="the seat's name in the room")
    parser.add_argument("--room", help="join this room code instead of creating a room")
    parser.add_argument("--vs", choices=["easy", "hard"], help="create a room against our AI")
    parser.add_argument("--rule", default="freestyle", choices=["freestyle", "standard", "renju"])
    parser.add_argument("--size", type=int, default=15, choices=[15, 19])
    parser.add_argument("--games", type=int, default=1, help="games to play, then leave")
    parser.add_argument("--timeout-turn", type=int, default=2000, help="ms per move")
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(name)s: %(message)s")
    options: dict[str, Any] = {"size": args.size, "rule": args.rule}
    if args.vs:
        options["ai"] = args.vs
    try:
        url = server_url(args.server)
        cmd = shlex.split(args.engine)
    except (AddressError, ValueError) as exc:
        fail(str(exc), 2)
    problem = engine_problem(cmd)
    if problem is not None:
        fail(problem, 2)
    try:
        asyncio.run(check_engine(cmd, args.size, args.rule, args.timeout_turn))
    except PbrainError as exc:
        fail(f"the engine did not start as a Gomocup brain: {exc}", 2)
    try:
        results = asyncio.run(
            run_bridge(url, cmd, args.name, args.room, options, args.games, args.timeout_turn)
        )
    except PbrainError as exc:
        fail(f"the engine failed during the game: {exc}", 1)
    except (OSError, InvalidHandshake, InvalidURI) as exc:
        fail(f"cannot reach the server at {url}: {exc}", 1)
    for result in results:
        print(result["text"])


def fail(message: str, status: int) -> NoReturn:
    """Say what went wrong in one line and exit (no traceback for a person to read)."""
    print(f"gridhall-bridge: {message}", file=sys.stderr)
    raise SystemExit(status)


if __name__ == "__main__":
    main()
