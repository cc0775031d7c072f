"""Adapters for Gomoku AIs from other projects on the package index: bench opponents only.

None of these packages is a dependency of gridhall; install them for the bench with

    .venv/bin/pip install -e ".[bench]"        # gomoku, gomokubench, pygomoku, gobang
    .venv/bin/pip install torch                # only for the gobang policy network

Each adapter turns our move list ((x, y) points, black first, freestyle 15x15)
into the engine's own board, asks for a move and turns it back. An adapter is
stateless between moves (the board is rebuilt from the list), so the harness may
kill a worker that overruns its time and start a fresh one. `fallback` is the
engine's own cheap choice, played for it when it runs out of time: for the
gomoku package its forced moves, then its own threat-space line, then its shape
score; for gomokubench its depth-1 ranking; otherwise the point nearest the
last move. Only tss, mcts and policy usually answer within 1 s; negamax (about
15 s a move here) and minimax3 (5-12 s) mostly play their fallback at 1 s, and
the match table counts those overruns.

Small shims, all in this file: gomoku.player imports a web-socket player that
needs flask_socketio (stubbed, never used); gobang predates numpy 1.24 (the
`np.int` alias is restored) and its weights load on the CPU.

| name        | package         | method                                                       |
| ----------- | --------------- | ------------------------------------------------------------ |
| tss         | gomoku 0.1.0    | threat-space search (Allis) for both sides, shape ordering    |
| negamax     | gomoku 0.1.0    | depth-2 negamax with a threat-space search at the leaves      |
| minimax3    | gomokubench     | depth-3 alpha-beta minimax over line-pattern evaluation       |
| mcts        | pygomoku 1.0.0  | UCT Monte-Carlo tree search, random playouts, time-limited    |
| policy      | gobang 0.1.0    | CNN policy network (weights shipped in the package), greedy   |
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import os
import random
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Point = tuple[int, int]
SIZE = 15
CLOCK = "wall"
"""Set by the match harness before an engine is built: "cpu" makes engines that
keep their own time (pygomoku's MCTS) read this process's CPU time."""


@dataclass(frozen=True)
class EngineSpec:
    """An opponent: how to build it in a worker, and what it needs installed."""

    name: str
    package: str
    modules: tuple[str, ...]
    describe: str
    factory: Callable[[float], Engine]
    check: Callable[[], str | None] | None = None
    """A custom availability test (pbrain engines: is the executable there?)."""

    def missing(self) -> str | None:
        """Why the engine cannot run here (a pip line), or None when it can."""
        if self.check is not None:
            return self.check()
        for mod in self.modules:
            try:
                found = importlib.util.find_spec(mod) is not None
            except ModuleNotFoundError:  # a dotted name whose parent package is absent
                found = False
            if not found:
                return f"not installed: pip install {self.package}"
        return None


class Engine:
    """One engine instance inside a worker process."""

    def move(self, moves: list[Point]) -> Point:
        raise NotImplementedError

    def fallback(self, moves: list[Point]) -> Point:
        """A quick move: the engine's own cheap choice, or the nearest free point."""
        taken = set(moves)
        cx = cy = SIZE // 2
        if moves:
            cx, cy = moves[-1]
        free = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in taken]
        return min(free, key=lambda p: (max(abs(p[0] - cx), abs(p[1] - cy)), p))


@contextlib.contextmanager
def _quiet() -> Any:
    """Several of these engines print their thinking; keep the bench output readable."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


# gomoku 0.1.0 (Allen Zhang): threat-space search and negamax --------------------------------


class _GomokuPkg(Engine):
    def __init__(self, kind: str) -> None:
        if "flask_socketio" not in sys.modules and not importlib.util.find_spec("flask_socketio"):
            # gomoku.player imports its web-socket human player, which we never use
            stub = types.ModuleType("flask_socketio")
            stub.SocketIO = stub.emit = stub.join_room = None  # type: ignore[attr-defined]
            sys.modules["flask_socketio"] = stub
        board = importlib.import_module("gomoku.board")
        player_mod = importlib.import_module(f"gomoku.player.{kind}")
        player_mod.VERBOSE = 0  # type: ignore[attr-defined]
        importlib.import_module("gomoku.threat.threat_space").threat_space_cache.clear()
        self._board_cls = board.Board
        self._tss = importlib.import_module("gomoku.threat.threat_space").threat_space_search
        self._player = player_mod.ThreatSpace() if kind == "threat_space" else player_mod.Negamax()

    def _board(self, moves: list[Point]) -> Any:
        b = self._board_cls()
        for x, y in moves:
            b.move(y, x)  # the package's board is (row, col)
        return b

    @staticmethod
    def _point(m: Any) -> Point:
        if isinstance(m, tuple):
            r, c = int(m[0]), int(m[1])
        else:
            r, c = divmod(int(m), SIZE)
        return c, r

    def move(self, moves: list[Point]) -> Point:
        if hasattr(self._player, "winning_line"):
            self._player.winning_line = []  # stateless: no line kept from an earlier position
        with _quiet():
            return self._point(self._player.make_move(self._board(moves)))

    def fallback(self, moves: list[Point]) -> Point:
        b = self._board(moves)
        with _quiet():
            forced = self._player.forced_moves(b)
            if forced is not None:
                return self._point(forced)
            line = self._tss(b, VERBOSE=0)
            if line:
                return self._point(line[0][0].gain_square)
            scored = self._player.score_moves(b)
        return self._point(scored[0][1]) if scored else super().fallback(moves)


# gomokubench: depth-3 minimax ------------------------------------------------------------------


class _Minimax3(Engine):
    def __init__(self) -> None:
        self._ai = importlib.import_module("libs.ai")
        self._board = importlib.import_module("libs.board")
        self._piece = importlib.import_module("libs.piece")
        importlib.import_module("numpy").random.seed(7)

    def _state(self, moves: list[Point]) -> Any:
        state = self._board.BoardState(size=SIZE)
        for x, y in moves:
            state = state.next((y, x))
        return state

    def move(self, moves: list[Point]) -> Point:
        state = self._state(moves)
        is_max = -state.color == self._piece.BLACK
        s = self._ai.resolve_ai_settings("hard")
        mv, _ = self._ai.get_best_move(
            state, s["depth"], is_max, s["candidate_count"], s["random_top_n"]
        )
        r, c = (int(v) for v in mv)
        return c, r

    def fallback(self, moves: list[Point]) -> Point:
        if not moves:
            return SIZE // 2, SIZE // 2
        state = self._state(moves)
        top = self._ai.get_top_moves(state, 1, -state.color == self._piece.BLACK)
        r, c = (int(v) for v in top[0][0])
        return c, r


# pygomoku: Monte-Carlo tree search -------------------------------------------------------------


class _Mcts(Engine):
    def __init__(self, budget: float) -> None:
        board = importlib.import_module("pygomoku.board")
        mcts = importlib.import_module("pygomoku.board.mcts")
        score = importlib.import_module("pygomoku.score")
        mcts._Node.TIME_LIMIT_SECONDS = max(0.05, budget * 0.85)
        if CLOCK == "cpu":
            mcts.time = types.SimpleNamespace(time=time.process_time)
        self._cls = board.MCTS
        self._player = score.Player
        random.seed(7)

    def move(self, moves: list[Point]) -> Point:
        if not moves:
            return SIZE // 2, SIZE // 2
        b = self._cls(grid_size=SIZE, next_player=self._player.MIN)
        for x, y in moves:
            b.make_move(y, x)
        r, c = b.calculate_next_move()
        return int(c), int(r)


# gobang: CNN policy network --------------------------------------------------------------------


class _Policy(Engine):
    def __init__(self) -> None:
        np = importlib.import_module("numpy")
        if not hasattr(np, "int"):
            np.int = int  # the package predates numpy 1.24, which removed the alias
        os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
        torch = importlib.import_module("torch")
        torch.set_num_threads(1)
        self._game = importlib.import_module("gobang.game")
        policy_mod = importlib.import_module("gobang.algorithm.policy")
        ai = importlib.import_module("gobang.algorithm.ai")
        spec = importlib.util.find_spec("gobang")
        assert spec is not None and spec.origin is not None
        weights = os.path.join(os.path.dirname(spec.origin), "data", "model.pth")
        self._player = ai.GreedyPolicyPlayer(policy_mod.CNNPolicy.load_model(weights, "cpu"))

    def move(self, moves: list[Point]) -> Point:
        state = self._game.GameState(size=SIZE, black_banned=False, start_banned=False)
        for x, y in moves:
            state.do_move((y, x))
        m = self._player.get_move(state)
        if m is None:
            return super().fallback(moves)
        return int(m[1]), int(m[0])


ENGINES: dict[str, EngineSpec] = {
    s.name: s
    for s in (
        EngineSpec(
            "tss",
            "gomoku==0.1.0 gmpy2",
            ("gomoku.threat.threat_space", "gmpy2"),
            "gomoku 0.1.0: threat-space search",
            lambda b: _GomokuPkg("threat_space"),
        ),
        EngineSpec(
            "negamax",
            "gomoku==0.1.0 gmpy2",
            ("gomoku.threat.threat_space", "gmpy2"),
            "gomoku 0.1.0: negamax + threat search",
            lambda b: _GomokuPkg("negamax"),
        ),
        EngineSpec(
            "minimax3",
            "gomokubench numpy",
            ("libs.ai", "numpy"),
            "gomokubench: depth-3 minimax",
            lambda b: _Minimax3(),
        ),
        EngineSpec(
            "mcts",
            "pygomoku",
            ("pygomoku.board.mcts",),
            "pygomoku 1.0.0: MCTS",
            _Mcts,
        ),
        EngineSpec(
            "policy",
            "gobang torch",
            ("gobang.algorithm.policy", "torch"),
            "gobang 0.1.0: CNN policy net",
            lambda b: _Policy(),
        ),
    )
}


def engine_spec(name: str) -> EngineSpec:
    """The opponent called `name`: one of ENGINES, or `pbrain:COMMAND` (pbrain_engine.py)."""
    if name.startswith("pbrain:"):
        import pbrain_engine

        return pbrain_engine.spec(name)
    return ENGINES[name]


def file_label(name: str) -> str:
    """`name` made safe for record file names (a pbrain command becomes its base name)."""
    if name.startswith("pbrain:"):
        import pbrain_engine

        return pbrain_engine.label(name)
    return name
