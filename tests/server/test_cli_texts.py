"""What the server's and the engine's command lines print for a person."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gridhall.server import cli


def test_history_counts_one_move_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.db"
    db.touch()
    game = SimpleNamespace(
        id=1,
        started_at=0,
        ended_at=65,
        room="K7MQ2D",
        game="gomoku",
        options={},
        result={"winner": "a", "reason": "resign", "loser": "b"},
        record={"moves": [[7, 7]]},
        players=[{"player": "a", "name": "Ann"}, {"player": "b", "name": "Bob"}],
    )
    games = [game, SimpleNamespace(**{**vars(game), "record": {"moves": [[7, 7], [8, 8]]}})]

    class FakeStore:
        def __init__(self, path: str) -> None:
            pass

        def recent_games(self, limit: int) -> list[SimpleNamespace]:
            return games

        def close(self) -> None:
            pass

    monkeypatch.setattr(cli, "Store", FakeStore)
    cli.print_history(str(db), 20)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("Ann wins by resignation. · 1 move in 1:05")
    assert lines[2].endswith(" · 2 moves in 1:05")


def test_pbrain_help_prints_usage_instead_of_waiting_on_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gridhall.server.games.gomoku.piskvork.brain", "--help"],
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("usage: gridhall-pbrain") and "Gomocup" in done.stdout


def test_history_words_a_mine_hit_and_a_race_that_ran_out_of_time() -> None:
    from gridhall.server.io.history_lines import describe
    from gridhall.server.io.store import GameRow

    players = [{"player": "a", "name": "Ann"}, {"player": "b", "name": "Bob"}]
    mine = GameRow(
        1,
        "R1",
        "minesweeper",
        {},
        players,
        {"winner": None, "reason": "mine", "by": "b"},
        {
            "actions": [
                ["a", "reveal", 1, 1, None, 0.5],
                ["b", "join", None, None, None, 1.0],
                ["b", "reveal", 2, 2, None, 2.0],
            ]
        },
        0,
        65,
    )
    assert describe(mine) == "Boom! Bob hit a mine. · 2 clicks in 1:05"
    links = [{"action": "link", "ok": True}] * 6 + [{"action": "hint"}]
    race = GameRow(
        2,
        "R2",
        "linkmatch",
        {},
        players,
        {"winner": "a", "reason": "time", "remaining": {"a": 4, "b": 10}},
        {"actions": {"a": links, "b": [{"action": "link", "ok": False}]}},
        0,
        185,
    )
    assert (
        describe(race) == "Time is up: Ann wins with 4 tiles left. · 6 links (Ann 6, Bob 0) in 3:05"
    )
