"""Random co-op action sequences keep the game's invariants and never leak a mine."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from gridhall.server.games.base import GameError
from gridhall.server.games.minesweeper import SPEC, MinesweeperGame, replay
from gridhall.server.games.minesweeper.game import ACTIONS, MARKS

PLAYERS = ("a", "b", "c")
SIZE = 7
COORD = st.integers(-1, SIZE)


class CoopMinesweeper(RuleBasedStateMachine):
    game: MinesweeperGame
    lives: int

    @initialize(
        seed=st.integers(0, 2**32),
        lives=st.integers(1, 3),
        first_click=st.sampled_from(["opening", "safe"]),
        mines=st.integers(1, 12),
    )
    def start(self, seed: int, lives: int, first_click: str, mines: int) -> None:
        options = SPEC.parse_options(
            {
                "width": SIZE,
                "height": SIZE,
                "mines": mines,
                "lives": lives,
                "first_click": first_click,
                "max_players": 4,
            }
        )
        self.game = SPEC.new_game(options, list(PLAYERS[:2]), 0, seed, 0.0)
        self.lives = lives
        self.now = 0.0

    def _hidden_mines(self) -> set[tuple[int, int]]:
        board = self.game.board
        if board is None or self.game.result is not None:
            return set()
        return {(m % SIZE, m // SIZE) for m in board.mines if not self.game.revealed[m]}

    def _check_no_leak(self, data: Any) -> None:
        """No (x, y) pair of a hidden mine, and no loss symbols, while playing."""
        text = repr(data)
        for x, y in self._hidden_mines():
            assert f"({x}, {y})" not in text and f"[{x}, {y}]" not in text

    @rule(
        player=st.sampled_from(PLAYERS),
        action=st.sampled_from(ACTIONS),
        x=COORD,
        y=COORD,
        mark=st.sampled_from(MARKS),
    )
    def act(self, player: str, action: str, x: int, y: int, mark: str) -> None:
        self.now += 0.5
        before = self.game.view(None)
        move = {"action": action, "x": x, "y": y, "mark": mark}
        try:
            played = self.game.apply(player, move, self.now)
        except GameError as err:
            assert err.code in ("bad-message", "illegal-move", "not-a-player", "not-playing")
            assert self.game.view(None) == before
            self._check_no_leak(err.message)
            return
        self._check_no_leak(self.game.visible_move(player, played.move, None))

    @precondition(lambda self: self.game.result is None)
    @rule(player=st.sampled_from(PLAYERS))
    def join(self, player: str) -> None:
        seated = self.game.add_player(player, self.now)
        assert seated == (player in self.game.players)

    @rule(player=st.sampled_from(PLAYERS))
    def leave(self, player: str) -> None:
        self.game.resign(player, self.now)

    @invariant()
    def consistent(self) -> None:
        game = self.game
        view = game.view(None)
        rows = "".join(view["rows"])
        board = game.board
        digits = sum(ch.isdigit() for ch in rows)
        assert digits == view["revealed"] == SIZE * SIZE - game.mines - game.safe_left
        assert sum(s["revealed"] for s in game.stats.values()) == view["revealed"]
        hits = sum(s["mines_hit"] for s in game.stats.values())
        assert hits == len(view["exploded"]) == self.lives - view["lives_left"]
        result = game.result
        if result is None:
            self._check_no_leak(view)
            assert set(rows) <= set("#F?X012345678")
            assert rows.count("X") == hits < self.lives
            assert game.safe_left > 0
            if board is not None:
                for c, ch in enumerate(rows):
                    if ch.isdigit():
                        assert board.counts[c] == int(ch)
        elif result["reason"] == "cleared":
            assert game.safe_left == 0 and set(re.sub(r"[0-8]", "", rows)) <= {"F", "X"}
        elif result["reason"] == "mine":
            assert view["lives_left"] == 0 and result["by"] in game.players
            assert rows.count("X") == hits and board is not None
            for c, ch in enumerate(rows):
                assert (ch in "*XF") if board.is_mine(c) else (ch not in "*X")
        else:
            assert result["reason"] == "resign" and set(game.left) == set(game.players)

    def teardown(self) -> None:
        if hasattr(self, "game"):
            again = replay(self.game.record())
            assert again.result == self.game.result
            assert again.view(None) == self.game.view(None)


CoopMinesweeper.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestCoopMinesweeper = CoopMinesweeper.TestCase
