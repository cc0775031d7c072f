"""A Reversi replay in the Python clients: the server's replay page of a real game fed to
the client's replay player; each step's frame is the board of that step, captioned with
its disc counts, and the terminal board draws it."""

from __future__ import annotations

from typing import Any

from gridhall.client.replays import ReplayPlayer
from gridhall.client.views.reversi import ReversiBoard, ReversiView
from gridhall.server.games.reversi import SPEC, Position
from gridhall.server.io import replays

MOVES = [(5, 4), (3, 5), (2, 2)]  # F5 D6 C3


def answer() -> dict[str, Any]:
    game = SPEC.new_game(SPEC.parse_options({"size": 8}), ["a", "b"], 0, 0, 0.0)
    for n, (x, y) in enumerate(MOVES, start=1):
        game.apply(game.turn() or "", {"x": x, "y": y}, float(n))
    game.resign("b", 4.0)
    page = replays.page("reversi", game.record())
    return {
        "type": "replay",
        "game_id": 1,
        "game": "reversi",
        "options": {"size": 8},
        "players": [{"player": "a", "name": "Ann", "seat": 0}, {"player": "b", "name": "Bob"}],
        "result": game.result,
        "started_at": 0.0,
        "ended_at": 4.0,
        "rated": False,
        "start": page.start,
        "steps": page.steps,
    }


def test_each_step_shows_its_board_and_counts() -> None:
    player = ReplayPlayer(answer())
    view = ReversiView()
    assert [s.get("label") for s in player.data["steps"]] == ["F5", "D6", "C3"]
    pos = Position.start(8)
    for k in range(len(MOVES) + 1):
        player.go(k)
        [frame] = view.replay_frames(player)
        black, white = pos.counts()
        assert frame.title == f"black {black} · white {white}"
        assert ReversiBoard.from_view(frame.view).discs == {
            (x, y): ".bw"[pos.at(x, y)] for y in range(8) for x in range(8) if pos.at(x, y)
        }
        if k < len(MOVES):
            pos = pos.play(*MOVES[k])
