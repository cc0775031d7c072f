"""The Tk window against a real server: a Gomoku game is finished, then found in the
history window (opened from the Games menu's key) and replayed step by step; after a
rated game the leaderboard ranks the winner first and opens a profile."""

from __future__ import annotations

import gc
import tkinter as tk
from collections.abc import Callable
from typing import Any

from gridhall import protocol as p
from gridhall.client.history import Opening
from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.base import tk_color
from gridhall.client.tk.boards.gomoku import GomokuCanvas
from gridhall.client.tk.boards.linkmatch import LinkCanvas
from gridhall.client.tk.boards.minesweeper import MinesCanvas
from gridhall.client.tk.replay_boards import ReplayBoards
from gridhall.client.views.common import player_color
from gridhall.server.games.linkmatch.paths import first_pair
from tests.rated import establish
from tests.tk.driver import (
    FAST,
    Opponent,
    Pump,
    ServerThread,
    click,
    press,
    room_state,
    screenshot_root,
    snap,
)
from tests.tk.test_tk_gomoku import open_gomoku_room

LINK_OPTIONS = {"width": 4, "height": 4, "kinds": 2, "countdown": 0, "hint_penalty": 0}
MINES_OPTIONS = {
    "preset": None,
    "width": 5,
    "height": 5,
    "mines": 3,
    "lives": 1,
    "first_click": "safe",
}


def one_board(boards: ReplayBoards | None) -> Any:
    """The one canvas a replay of a game without several boards shows."""
    assert boards is not None
    (canvas,) = boards.canvases().values()
    return canvas


def play_five(app: TkApp, opp: Opponent, pump: Pump, spare: bool = False) -> None:
    """The window (black) makes five in a row by mouse; the opponent answers below.
    ``spare``: each side plays one stone elsewhere first (eleven stones: rated)."""
    assert app.room is not None
    board = app.room.board
    me = snap(app).player
    mine = [(5 + i, 7) for i in range(5)]
    theirs = [(5 + i, 8) for i in range(4)]
    if spare:
        mine.insert(4, (12, 12))
        theirs.append((12, 14))
    for i, (x, y) in enumerate(mine):
        click(board, *board.pixel_of(x, y))
        opp.expect("moved", by=me)
        if i < len(theirs):
            opp.send("move", move={"x": theirs[i][0], "y": theirs[i][1]})
            pump.until(
                lambda n=i: len(room_state(app)["view"]["moves"]) == 2 * n + 2,
                "the reply on the Tk board",
            )
    opp.expect("game-over")


def menu_key(app: TkApp, pump: Pump, sequence: str) -> None:
    """A Games menu key pressed in the main window."""
    app.root.focus_force()
    pump.until(lambda: app.root.focus_get() is not None, "focus on the window")
    app.root.event_generate(sequence)


def test_a_finished_game_is_listed_in_history_and_replayed_move_by_move(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    pump.until(lambda: "history" in app.features, "the server's features")
    assert app.windows.menu.entrycget(0, "state") == "normal"  # Finished games…
    open_gomoku_room(app, opp, pump)
    play_five(app, opp, pump)
    menu_key(app, pump, "<Control-h>")  # Games -> Finished games
    history = app.windows.history
    assert history is not None
    pump.until(lambda: len(history.rows()) == 1, "the finished game in the history")
    (game_id,) = history.rows()
    history.table.selection_set(str(game_id))
    history.open_selected()
    (replay,) = app.windows.replays
    pump.until(lambda: replay.player is not None, "the replay to load")
    assert replay.counter.cget("text") == "0 / 9"
    assert "Ann" in replay.players.cget("text") and "Bob" in replay.players.cget("text")
    replay.forward()
    replay.forward()
    assert replay.counter.cget("text") == "2 / 9"
    replay_board = one_board(replay.board)
    assert isinstance(replay_board, GomokuCanvas)  # the live room's board
    assert replay_board.find_withtag("number-2") and not replay_board.find_withtag("number-3")
    replay.to_end()
    assert replay.counter.cget("text") == "9 / 9" and replay_board.find_withtag("win")
    assert replay.link.endswith(f"/#replay/{game_id}")
    screenshot_root(replay, "replay-gomoku")  # type: ignore[arg-type]


def test_after_a_rated_game_the_leaderboard_ranks_the_winner_and_opens_a_profile(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    pump.until(lambda: "ratings" in app.features, "the server's features")
    app.lobby.choose("gomoku", 0)
    app.lobby.set_option("rated", True)
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    opp.send("join-room", room=snap(app).room.room)  # type: ignore[union-attr]
    opp.expect("state", status="playing")
    pump.until(lambda: room_state(app).get("status") == "playing", "the game to start")
    assert room_state(app)["options"]["rated"] is True
    players = [str(snap(app).player), opp.player]
    server.inspect(lambda: establish(server.server, players))  # on the board once they play
    play_five(app, opp, pump, spare=True)
    pump.until(lambda: any("Your rating" in n for n in app.notices), "my rating's change")

    menu_key(app, pump, "<Control-b>")  # Games -> Leaderboard
    board = app.windows.leaderboard
    assert board is not None
    pump.until(lambda: "Bob" in board.names(), "both players on the leaderboard")
    names = board.names()  # the computers' fixed ratings are ranked too
    assert names.index("Ann") < names.index("Bob")  # the winner above the loser
    assert "Your rank" in board.status.cget("text")
    bob = next(iid for iid, player in board.players.items() if player == opp.player)
    board.table.selection_set(bob)
    board.open_selected()
    (profile,) = app.windows.profiles
    pump.until(lambda: profile.profile, "Bob's profile")
    assert profile.heading.cget("text") == "Bob"
    assert profile.recent.get_children()  # the rated game, which opens its replay


def test_an_older_server_without_history_gets_no_history_window(
    make_app: Callable[[str], TkApp], pump: Pump
) -> None:
    app = make_app("Ann")
    pump.until(lambda: "history" in app.features, "the server's features")
    old = p.Welcome(protocol=1, player=str(snap(app).player), token="t", server="old")
    app.on_message(old, snap(app))  # a welcome from before features existed
    assert app.windows.menu.entrycget(0, "state") == "disabled"
    menu_key(app, pump, "<Control-h>")
    assert app.windows.history is None
    assert "older version" in app.notices[-1]


def test_history_flag_opens_the_history_window_once_connected(
    xvfb: str, server: ServerThread, pump: Pump
) -> None:
    app = TkApp(
        server.url,
        "Ann",
        root=tk.Tk(className="gridhall"),
        backoff=FAST,
        opening=Opening(history=True),
    )  # gridhall --tk --history
    pump.apps.append(app)
    try:
        app.start()
        pump.until(lambda: app.windows.history is not None, "the history window")
        history = app.windows.history
        assert history is not None
        pump.until(lambda: "No finished games" in history.status.cget("text"), "an empty list")
    finally:
        app.close()
        pump.apps.remove(app)
        gc.collect()  # Tk variables must die on this thread


def test_race_and_minesweeper_replays_draw_the_servers_frames(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    """A race and a co-op field played by a raw client, replayed in the Tk window from
    the server's own frames: the racer's board with each link's path, and the field
    with its opener's colour and, at the end, the mines."""
    app = make_app("Ann")
    dan = make_opponent("Dan")
    dan.send("create-room", game="linkmatch", options=LINK_OPTIONS)
    dan.expect("state", status="waiting")
    dan.send("start")
    rows = dan.expect("state", status="playing")["view"]["rows"]
    while True:
        pair = first_pair(rows)
        assert pair is not None
        dan.send("move", move={"action": "link", "a": list(pair[0]), "b": list(pair[1])})
        view = dan.expect("moved", by=dan.player)["view"]
        rows = view["rows"]
        if view["remaining"] == 0:
            break
    dan.expect("game-over")
    dan.send("leave-room")
    dan.expect("left")
    dan.send("create-room", game="minesweeper", options=MINES_OPTIONS)
    view = dan.expect("state", status="playing")["view"]
    while view["exploded"] == [] and view["revealed"] < 25 - 3:
        x, y = next((x, y) for y in range(5) for x in range(5) if view["rows"][y][x] == "#")
        dan.send("move", move={"action": "reveal", "x": x, "y": y})
        view = dan.expect("moved", by=dan.player)["view"]
    dan.expect("game-over")

    history = app.windows.open_history()
    assert history is not None
    pump.until(lambda: len(history.rows()) == 2, "both games in the history")
    mines_id, race_id = history.rows()  # newest first
    race = app.windows.open_replay(race_id)
    assert race is not None
    pump.until(lambda: race.player is not None, "the race's replay")
    assert race.board is not None
    (racer,) = race.board.canvases().values()
    assert isinstance(racer, LinkCanvas)
    assert racer.find_withtag("tile-0-0") and not racer.find_withtag("path")
    race.forward()
    assert racer.find_withtag("path")  # the first link's path on the racer's board
    screenshot_root(race, "replay-linkmatch")  # type: ignore[arg-type]
    race.to_end()
    assert not any(racer.find_withtag(f"tile-{x}-{y}") for x in range(4) for y in range(4))

    field = app.windows.open_replay(mines_id)
    assert field is not None
    pump.until(lambda: field.player is not None, "the field's replay")
    field.forward()
    board = one_board(field.board)
    assert isinstance(board, MinesCanvas)
    pump.until(lambda: board.find_withtag("owner"), "the first reveal, in Dan's colour")
    owners = board.find_withtag("owner")
    assert {board.itemcget(i, "outline") for i in owners} == {
        tk_color(player_color(field.player.players[0]))
    }
    field.to_end()
    assert board.frame is not None
    shown = "".join(board.board().rows)
    assert sum(shown.count(mark) for mark in "*XF") == 3  # every mine: hit, shown or flagged
    screenshot_root(field, "replay-minesweeper")  # type: ignore[arg-type]
