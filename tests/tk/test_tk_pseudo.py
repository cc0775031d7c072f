"""Every screen of the Tk client in the pseudo-locale: no word outside the catalogs.

The window runs in ``qps`` (``tests/pseudo.py``), where every translated text reads
``⟦Ŕéšíĝñ⟧``, against a real server under Xvfb; the test walks its screens (connect,
lobby, create form with each game's presets and options, each game's room while
playing and over, an offer, the host's member menu and bar, the link dialog, history,
replay with its analysis, leaderboard, profile) and reads the widget tree of every
window (``tests/tk/widget_text.py``): labels, buttons, titles, menus, table headings
and rows, list choices, text boxes, canvas texts. A word in plain letters the test did
not put there itself (a name, a chat line, a room code) is a text the catalogs lack;
a widget given less room than its words ask for, or a heading wider than its column,
cuts its text.
"""

from __future__ import annotations

import gc
import platform
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from tkinter import ttk

import pytest

from gridhall.client.tk.app import TkApp
from gridhall.client.tk.connect import ConnectFrame
from gridhall.client.tk.theme import apply
from gridhall.client.views import VIEWS, view_for
from gridhall.protocol.pseudo import pseudo
from tests.pseudo import (
    FOUND,
    SERVER_NAME,
    Findings,
    Heard,
    host_removes,
    pseudo_locale,
    rated_game,
    rooms_to_list,
)
from tests.tk.driver import Opponent, Pump, ServerThread, click, press, room_state, snap
from tests.tk.test_tk_hosts import choose, line_of
from tests.tk.widget_text import shown

pytestmark = pytest.mark.server_config(name=SERVER_NAME, analysis_budget=0.02)


@pytest.fixture(autouse=True)
def _pseudo() -> Iterator[None]:
    with pseudo_locale():
        yield


def look(found: Findings, screen: str, root: tk.Misc, pump: Pump) -> None:
    for _ in range(3):
        pump.once()
    texts, cut = shown(root)
    found.check(screen, texts, cut)


def findings(server: ServerThread, *data: str) -> Findings:
    found = Findings()
    found.allow(server.url, SERVER_NAME, *data)
    return found


def assert_no_holes(found: Findings) -> None:
    assert found.screens, "no screen was read"
    assert not found.holes, "texts outside the catalogs:\n" + found.report()


def test_connect_screen(xvfb: str, pump: Pump, server: ServerThread) -> None:
    found = findings(server, "localhost:8765", "Old hall")
    root = tk.Tk(className="gridhall")
    try:
        apply(root)
        heard = Heard()
        frame = ConnectFrame(root, "localhost:8765", lambda _s: None, heard)
        frame.pack(fill="both", expand=True)
        root.update()
        texts, cut = shown(root)
        found.check("connect", texts, cut)
        heard.heard = list(FOUND)
        end = time.monotonic() + 30
        while len(frame.table.get_children()) < 2 and time.monotonic() < end:
            root.update()  # the frame looks at what its browser heard every 300 ms
            time.sleep(0.02)
        assert len(frame.table.get_children()) == 2
        texts, cut = shown(root)
        found.check("connect, two found", texts, cut)
    finally:
        root.destroy()
    assert_no_holes(found)


def test_lobby_create_forms_and_link_dialog(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    found = findings(server, "Ann", "Bob", "Cy", "nope")
    bob, cy = make_opponent("Bob"), make_opponent("Cy")
    found.allow(*server.call(rooms_to_list(bob.client, cy.client)))
    ann = make_app("Ann")
    pump.until(lambda: len(ann.lobby.rooms()) >= 2, "the rooms listed")
    look(found, "lobby", ann.root, pump)
    for game in VIEWS:
        for index in range(len(view_for(game).presets)):
            ann.lobby.choose(game, index)
            look(found, f"create {game}, preset {index}", ann.root, pump)
    ann.lobby.code.set("")
    press(ann.lobby.join_button)  # no code: the status bar says so
    pump.until(lambda: ann.notices, "a notice")
    look(found, "lobby, a notice", ann.root, pump)
    dee = make_opponent("Dee")
    dee.send("create-room", game="gomoku", options={})
    room = dee.expect("joined")["room"]
    found.allow("Dee", room)
    ann.bridge.submit("join-room", room=room)
    pump.result(server.submit(host_removes(dee.client, snap(ann).player, room)), "Ann removed")
    pump.until(lambda: str(ann.lobby.farewell.cget("text")), "the lobby's note")
    look(found, "lobby, removed from a room", ann.root, pump)

    press(ann.linking)
    pump.until(lambda: ann.link_dialog is not None, "the link dialog")
    dialog = ann.link_dialog
    assert dialog is not None and dialog.show_button is not None
    pump.until(lambda: dialog.devices.table.get_children(), "this device listed")
    found.allow(platform.system())  # its platform is data (its kind is translated)
    press(dialog.show_button)
    pump.until(lambda: str(dialog.code.cget("text")), "a link code")
    found.allow(str(dialog.code.cget("text")))
    look(found, "link dialog, a code shown", ann.root, pump)
    dialog.entry.insert(0, "nope")
    press(dialog.use_button)
    pump.until(lambda: str(dialog.error.cget("text")), "the code refused")
    look(found, "link dialog, a bad code", ann.root, pump)
    assert_no_holes(found)


def test_gomoku_room_offer_host_tools_and_result(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    found = findings(server, "Ann", "Bob", "Cy", "good luck")
    ann = make_app("Ann")
    bob, cy = make_opponent("Bob"), make_opponent("Cy")
    ann.lobby.choose("gomoku", 0)
    ann.lobby.set_option("clock", "10+5")
    press(ann.lobby.create_button)
    pump.until(lambda: ann.room is not None and room_state(ann), "Ann's room")
    code = snap(ann).room.room  # type: ignore[union-attr]
    found.allow(code)
    look(found, "gomoku, waiting", ann.root, pump)
    bob.send("join-room", room=code)
    cy.send("join-room", room=code, role="spectator")
    bob.send("chat", text="good luck")
    pump.until(
        lambda: room_state(ann).get("status") == "playing" and room_state(ann)["chat"], "play"
    )
    look(found, "gomoku, playing", ann.root, pump)
    room = ann.room
    assert room is not None
    click(room.board, *room.board.pixel_of(7, 7))
    bob.expect("moved")
    bob.send("offer", kind="draw")
    pump.until(lambda: room.offer.winfo_ismapped(), "the offer bar")
    look(found, "gomoku, a draw offered", ann.root, pump)
    press(room.offer_buttons["refuse"])
    pump.until(lambda: not room.offer.winfo_ismapped(), "the offer answered")
    press(room.actions["resign"])  # a question first
    pump.until(lambda: room.confirm.winfo_ismapped(), "the confirm bar")
    look(found, "gomoku, resign asked", ann.root, pump)
    press(room.confirm_no)
    pump.until(lambda: not room.confirm.winfo_ismapped(), "the question put away")

    room.players.update_idletasks()
    box = room.players.bbox(f"{line_of(ann, 'Bob')}.2")
    assert box is not None
    click(room.players, box[0] + 2, box[1] + box[3] // 2, button=3)  # the host's menu
    pump.until(lambda: room.member_list.menu is not None, "the member menu")
    look(found, "gomoku, the member menu", ann.root, pump)
    room.member_list.menu.unpost()  # type: ignore[union-attr]

    bob.send("resign")
    pump.until(lambda: room_state(ann).get("status") == "over", "the game over")
    bob.send("play-again")
    pump.until(lambda: room.banner_buttons["agree"].winfo_ismapped(), "Bob asks again")
    look(found, "gomoku, over", ann.root, pump)
    press(room.banner_buttons["decline"])
    bob.send("leave-room")
    pump.until(lambda: len(room_state(ann)["players"]) == 1, "Bob gone")
    pump.until(lambda: room.host_bar.computer.winfo_ismapped(), "the computer's menu button")
    look(found, "gomoku, the host's bar", ann.root, pump)
    room.host_bar._computer_menu(ann.bridge.latest.room.state)  # type: ignore[union-attr]
    choose(room.host_bar.computer_menu, room.host_bar.computer_menu.entrycget(1, "label"))
    pump.until(lambda: any(p.get("bot") for p in room_state(ann)["players"]), "the computer seated")
    look(found, "gomoku, the computer seated", ann.root, pump)
    assert_no_holes(found)


def test_minesweeper_and_linkmatch_rooms(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    found = findings(server, "Ann", "Bob")
    ann = make_app("Ann")
    bob = make_opponent("Bob")
    for game in ("minesweeper", "linkmatch"):
        ann.lobby.choose(game, 0)
        press(ann.lobby.create_button)
        pump.until(lambda g=game: ann.room is not None and room_state(ann).get("game") == g, game)
        room = ann.room
        assert room is not None
        code = snap(ann).room.room  # type: ignore[union-attr]
        found.allow(code)
        bob.send("join-room", room=code)
        pump.until(lambda: len(room_state(ann)["players"]) == 2, "Bob seated")
        look(found, f"{game}, waiting", ann.root, pump)
        if game == "linkmatch":
            press(room.actions["start"])
        pump.until(lambda: room_state(ann).get("status") == "playing", f"{game} under way")
        look(found, f"{game}, playing", ann.root, pump)
        press(room.actions["hint"])
        look(found, f"{game}, a hint", ann.root, pump)
        bob.send("resign")
        ann.bridge.submit("resign")
        pump.until(lambda: room_state(ann).get("status") == "over", f"{game} over")
        look(found, f"{game}, over", ann.root, pump)
        ann.bridge.submit("leave-room")
        pump.until(lambda: ann.room is None, "back in the lobby")
        bob.send("leave-room")
        bob.expect("left")
    assert_no_holes(found)


def test_history_replay_leaderboard_and_profile(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    a, b = make_opponent("Ann"), make_opponent("Bob")
    room = server.call(rated_game(server.server, a.client, b.client))
    found = findings(server, "Ann", "Bob", "Cy", room)
    cy = make_app("Cy")
    pump.until(lambda: "history" in cy.features, "the server's features")
    history = cy.windows.open_history()
    assert history is not None
    pump.until(lambda: history.rows(), "the game listed")
    look(found, "history", cy.root, pump)
    replay = cy.windows.open_replay(history.rows()[0])
    assert replay is not None
    found.allow(replay.link)  # the address to share, as data
    pump.until(lambda: replay.player is not None, "the replay loaded")
    look(found, "replay", cy.root, pump)
    pump.until(lambda: replay.buttons["analyse"].winfo_ismapped(), "the analyse button")
    press(replay.buttons["analyse"])
    pump.until(lambda: replay.player.analysis_status == "done", "the analysis", timeout=120)  # type: ignore[union-attr]
    look(found, "replay, analysed", cy.root, pump)
    replay.toggle()  # autoplay
    look(found, "replay, playing", cy.root, pump)
    replay.toggle()
    board = cy.windows.open_leaderboard()
    assert board is not None
    pump.until(lambda: board.names(), "the leaderboard")
    look(found, "leaderboard", cy.root, pump)
    profile = cy.windows.open_profile(a.player)
    assert profile is not None
    pump.until(lambda: profile.history(), "the profile")
    look(found, "profile", cy.root, pump)
    assert_no_holes(found)


def planted() -> tuple[list[str], list[str]]:
    """What a window shows that has a planted English label, a heading wider than its
    column and a label squeezed in a frame too narrow (and the texts it cuts)."""
    root = tk.Tk(className="gridhall")
    try:
        apply(root)
        root.geometry("400x300")
        ttk.Label(root, text="Resign").pack()
        tree = ttk.Treeview(root, columns=("id",), show="headings", height=2)
        tree.heading("id", text=pseudo("Game no."))
        tree.column("id", width=40)
        tree.pack()
        box = ttk.Frame(root, width=60, height=30)
        box.pack_propagate(False)
        box.pack()
        ttk.Label(box, text=pseudo("Locked (nobody new joins)")).pack(side="left")
        root.update()
        return shown(root)
    finally:
        root.destroy()


def test_the_walk_finds_a_word_outside_the_catalogs_and_cut_texts(xvfb: str) -> None:
    """A planted English label, a heading wider than its column and a label squeezed in a
    frame too narrow: each is reported (the passing walks above mean something)."""
    gc.disable()  # its Tk objects die on this thread, not in a server's thread
    try:
        texts, cut = planted()
    finally:
        gc.collect()
        gc.enable()
    found = Findings()
    found.check("planted", texts, cut)
    holes = found.holes["planted"]
    assert any(words == {"Resign"} for words in holes.values())
    assert any("heading" in line for line in holes)
    locked = pseudo("Locked")[1:-1]  # the word as the pseudo-locale writes it
    assert any(locked in line for line in holes if "px of" in line)
