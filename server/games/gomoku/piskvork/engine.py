"""Seat any Piskvork (Gomocup) brain as a Gomoku player.

The engine runs as a child process speaking the pbrain protocol on its pipes.
Each move resends the whole position (RESTART, then BOARD ... DONE, or BEGIN on
an empty board), so takebacks and new games need no extra bookkeeping. Replies
are validated; a crash, a timeout, an ERROR or an impossible move raises
PbrainError so the room can end the game or replace the player.
"""

from __future__ import annotations

import asyncio
import contextlib
import re

RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4}
_MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


class PbrainError(Exception):
    """The engine misbehaved: crashed, timed out, refused, or answered nonsense."""


class PbrainEngine:
    """One running brain process; create it with `await PbrainEngine.start(...)`."""

    def __init__(
        self, proc: asyncio.subprocess.Process, size: int, rule: str, timeout_turn_ms: int
    ) -> None:
        self.proc = proc
        self.size = size
        self.rule = rule
        self.timeout_turn_ms = timeout_turn_ms
        self.messages: list[str] = []
        """MESSAGE lines the engine printed (for logs or spectators)."""

    @classmethod
    async def start(
        cls, cmd: list[str], size: int, rule: str, timeout_turn_ms: int
    ) -> PbrainEngine:
        """Launch `cmd`, START the board and send the rule and time limit."""
        if rule not in RULE_BITS:
            raise ValueError(f"unknown rule {rule!r}")
        try:
            proc = await asyncio.create_subprocess_exec(
                *cmd,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
            )
        except OSError as exc:
            raise PbrainError(f"cannot start engine {cmd!r}: {exc}") from exc
        engine = cls(proc, size, rule, timeout_turn_ms)
        try:
            await engine._send(f"START {size}")
            await engine._expect_ok("START", timeout=10.0)
            await engine._send(f"INFO timeout_turn {timeout_turn_ms}")
            await engine._send("INFO timeout_match 0")
            await engine._send(f"INFO rule {RULE_BITS[rule]}")
        except BaseException:
            await engine.close()
            raise
        return engine

    @property
    def reply_timeout(self) -> float:
        """How long to wait for a move: the engine's limit plus slack for startup."""
        return self.timeout_turn_ms / 1000 * 1.5 + 2.0

    async def about(self, timeout: float = 10.0) -> str:
        """The engine's ABOUT line (its name, version, author), as it sent it."""
        await self._send("ABOUT")
        return await self._reply(timeout)

    async def set_time(self, timeout_turn_ms: int, time_left_ms: int | None = None) -> None:
        """Tell the engine its time for the next move, and what is left of its clock."""
        self.timeout_turn_ms = timeout_turn_ms
        await self._send(f"INFO timeout_turn {timeout_turn_ms}")
        if time_left_ms is not None:
            await self._send(f"INFO time_left {time_left_ms}")

    async def move(self, moves: list[tuple[int, int]]) -> tuple[int, int]:
        """The engine's move for the side to move after `moves` (black first)."""
        await self._send("RESTART")
        await self._expect_ok("RESTART", timeout=self.reply_timeout)
        if moves:
            me = len(moves) % 2
            lines = ["BOARD"]
            for i, (x, y) in enumerate(moves):
                lines.append(f"{x},{y},{1 if i % 2 == me else 2}")
            lines.append("DONE")
            await self._send("\n".join(lines))
        else:
            await self._send("BEGIN")
        line = await self._reply(self.reply_timeout)
        m = _MOVE.match(line)
        if m is None:
            raise PbrainError(f"engine answered {line!r} instead of a move")
        x, y = int(m.group(1)), int(m.group(2))
        if not (0 <= x < self.size and 0 <= y < self.size) or (x, y) in set(moves):
            raise PbrainError(f"engine played an impossible move {x},{y}")
        return x, y

    async def close(self, grace: float = 1.0) -> None:
        """Send END, give the engine `grace` seconds to exit, then kill it."""
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                await self._send("END")
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()

    # pipe helpers -----------------------------------------------------------------
    async def _send(self, text: str) -> None:
        stdin = self.proc.stdin
        if stdin is None or self.proc.returncode is not None:
            raise PbrainError("engine is not running")
        try:
            stdin.write((text + "\n").encode())
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise PbrainError("engine closed its input") from exc

    async def _reply(self, timeout: float) -> str:
        """Next answer line, skipping MESSAGE / DEBUG / SUGGEST chatter."""
        stdout = self.proc.stdout
        assert stdout is not None
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise PbrainError(f"engine gave no answer within {timeout:.1f} s")
            try:
                raw = await asyncio.wait_for(stdout.readline(), left)
            except TimeoutError:
                raise PbrainError(f"engine gave no answer within {timeout:.1f} s") from None
            if not raw:
                raise PbrainError("engine exited")
            line = raw.decode(errors="replace").strip()
            if not line:
                continue
            word = line.split(" ", 1)[0].upper()
            if word == "MESSAGE":
                self.messages.append(line[8:])
                continue
            if word in ("DEBUG", "SUGGEST"):
                continue
            if word in ("ERROR", "UNKNOWN"):
                raise PbrainError(f"engine refused: {line}")
            return line

    async def _expect_ok(self, what: str, timeout: float) -> None:
        line = await self._reply(timeout)
        if line.upper() != "OK" and not line.upper().startswith("OK "):
            raise PbrainError(f"engine answered {line!r} to {what}")
