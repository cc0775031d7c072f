"""The room's host in the Tk window: the member list marks the host and muted members,
and its menu (right click, or Shift+F10 on the member picked with the arrow keys)
mutes, removes and hands the role over; the Lock toggle locks the room."""

from __future__ import annotations

import time
import tkinter as tk
from collections.abc import Callable
from pathlib import Path
from tkinter import ttk

from gridhall.client.tk.app import TkApp
from gridhall.server.io.admin.admin_actions import AdminActions
from tests.tk.driver import FAST, Opponent, Pump, ServerThread, click, press, room_state, snap
from tests.tk.test_tk_gomoku import open_gomoku_room


def pane(app: TkApp) -> list[str]:
    assert app.room is not None
    return app.room.players.get("1.0", "end").splitlines()


def line_of(app: TkApp, name: str) -> int:
    """The 1-based line of ``name`` in the member list."""
    return next(i for i, ln in enumerate(pane(app), 1) if name in ln)


def choose(menu: tk.Menu | None, label: str) -> None:
    """Pick the entry ``label`` of a posted menu, as a click on it would."""
    assert menu is not None, "no menu was posted"
    end = menu.index("end")
    labels = [
        menu.entrycget(i, "label") if menu.type(i) == "command" else ""
        for i in range(int(end) + 1 if end is not None else 0)
    ]
    assert label in labels, labels
    menu.unpost()
    menu.invoke(labels.index(label))


def test_host_menu_mutes_removes_hands_over_and_locks(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    ann = make_app("Ann")
    bob, cy = make_opponent("Bob"), make_opponent("Cy")
    ann.lobby.choose("gomoku", 0)
    press(ann.lobby.create_button)
    pump.until(lambda: ann.room is not None, "Ann's room screen")
    code = snap(ann).room.room  # type: ignore[union-attr]
    bob.send("join-room", room=code)
    bob.expect("state", room=code)
    cy.send("join-room", room=code, role="spectator")
    cy.expect("state", room=code)
    cy.send("chat", text="hi all")  # now Ann's window knows the spectator by id
    pump.until(lambda: any("Cy" in ln for ln in pane(ann)), "Cy in the member list")
    assert "★ host" in pane(ann)[line_of(ann, "Ann") - 1]
    room = ann.room
    assert room is not None

    # Right click on Bob's line: Mute.
    room.players.update_idletasks()
    box = room.players.bbox(f"{line_of(ann, 'Bob')}.2")
    assert box is not None
    click(room.players, box[0] + 2, box[1] + box[3] // 2, button=3)
    choose(room.member_list.menu, "Mute")
    assert bob.expect("host", action="mute", player=bob.player)["by"] == snap(ann).player
    pump.until(lambda: "muted" in pane(ann)[line_of(ann, "Bob") - 1], "Bob marked muted")
    pump.until(lambda: any("You muted Bob." in ln for ln in room.chat.lines()), "the log line")

    # The keyboard: pick Bob with the arrow keys, Shift+F10, remove for 5 minutes.
    room.players.focus_force()
    pump.until(lambda: ann.root.focus_get() is room.players, "focus on the member list")
    room.member_list.picked = None
    for _ in range(line_of(ann, "Bob")):
        room.players.event_generate("<Down>")
    room.players.event_generate("<Shift-F10>")
    pump.until(
        lambda: room.member_list.menu is not None and room.member_list.menu.winfo_ismapped(),
        "the menu posted",
    )
    choose(room.member_list.menu, "Remove for 5 min")
    left = bob.expect("left", player=bob.player)
    assert left["reason"] == "kicked" and left["until"] > 0
    pump.until(lambda: all("Bob" not in ln for ln in pane(ann)), "Bob gone from the list")

    # The Lock toggle.
    press(room.host_bar.lock)
    cy.expect("host", action="lock")
    pump.until(lambda: room_state(ann).get("locked") is True, "the room locked")
    assert room.host_bar.locked.get()

    # Make Cy (a spectator) the host: Ann's menu and tools go.
    box = room.players.bbox(f"{line_of(ann, 'Cy')}.2")
    assert box is not None
    click(room.players, box[0] + 2, box[1] + box[3] // 2, button=3)
    choose(room.member_list.menu, "Make host")
    cy.expect("host", action="hand-over", player=cy.player)
    pump.until(lambda: "★ host" in pane(ann)[line_of(ann, "Cy") - 1], "Cy marked host")
    assert not room.member_list.host and not room.host_bar.lock.winfo_manager()


def test_removed_by_the_host_the_window_says_until_when_and_shows_announcements(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    bob = make_opponent("Bob")
    bob.send("create-room", game="gomoku", options={})
    code = bob.expect("state")["room"]
    ann = make_app("Ann")
    ann.lobby.code.set(code)
    press(ann.lobby.join_button)
    pump.until(lambda: ann.room is not None, "Ann's room screen")
    pump.until(lambda: any("★ host" in ln and "Bob" in ln for ln in pane(ann)), "Bob hosts")
    assert ann.room is not None and not ann.room.member_list.host
    assert ann.room.member_list.menu_for(ann.room.member_list.rows[1]) is None  # not the host

    server.inspect(
        lambda: AdminActions(server.server).run(
            {"action": "announce", "text": "lunch at noon"}, time.time()
        )
    )
    said = "Announcement from the server: lunch at noon"
    pump.until(lambda: said in ann.notices, "the announcement in the status bar")
    pump.until(
        lambda: any(said in ln for ln in ann.room.chat.lines()),  # type: ignore[union-attr]
        "the announcement in the room's log",
    )

    bob.send("host", action="kick", player=snap(ann).player, minutes=10)
    pump.until(lambda: ann.room is None, "Ann back in the lobby")
    told = ann.lobby.farewell.cget("text")
    assert code in told and "until" in told and "10 minutes" in told
    assert ann.lobby.farewell.winfo_manager()


def test_between_games_the_host_swaps_the_computer_player(
    make_app: Callable[[str], TkApp], pump: Pump
) -> None:
    ann = make_app("Ann")
    ann.lobby.choose("gomoku", 4)  # vs computer (easy)
    press(ann.lobby.create_button)
    pump.until(lambda: room_state(ann).get("status") == "playing", "the game against it")
    room = ann.room
    assert room is not None
    assert not room.host_bar.computer.winfo_manager()  # not during a game
    bot = next(pl for pl in room_state(ann)["players"] if pl.get("bot"))
    assert bot["bot"] == "easy"
    press(room.actions["resign"])
    press(room.confirm_yes)
    pump.until(lambda: room_state(ann).get("status") == "over", "the game over")
    pump.until(lambda: room.host_bar.computer.winfo_manager(), "the computer control")
    choose(room.host_bar.computer_menu, "Computer: hard")
    pump.until(
        lambda: any(pl.get("bot") == "hard" for pl in room_state(ann)["players"]),
        "the computer player now hard",
    )
    pump.until(
        lambda: any("set the computer player to hard" in ln for ln in room.chat.lines()),
        "the log line",
    )


def test_the_lobby_note_after_a_removal_follows_the_clock(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    """ "until 19:06 (5 minutes from now)" must not still say so at 19:07: the note is said
    again as time passes, and once the time is up it says Ann may come back."""
    ann = make_app("Ann")
    bob = make_opponent("Bob")
    bob.send("create-room", game="gomoku", options={})
    code = bob.expect("joined")["room"]
    ann.lobby.code.set(code)
    press(ann.lobby.join_button)
    pump.until(lambda: ann.room is not None, "Ann in Bob's room")
    bob.send("host", action="kick", player=snap(ann).player, minutes=5)
    until = float(bob.expect("left", player=snap(ann).player)["until"])
    pump.until(lambda: ann.room is None, "Ann back in the lobby")
    note = ann.lobby.farewell
    pump.until(lambda: "5 minutes from now" in str(note.cget("text")), "five minutes left")
    ann.session.clock = lambda: until - 61  # four minutes later
    pump.until(lambda: "2 minutes from now" in str(note.cget("text")), "two minutes left")
    ann.session.clock = lambda: until + 1
    pump.until(lambda: "you may join it again now" in str(note.cget("text")), "the time is up")
    assert "from now" not in str(note.cget("text")) and code in str(note.cget("text"))


def contrast(one: str, two: str, root: tk.Misc) -> float:
    """WCAG's contrast ratio of two Tk colours."""

    def luminance(colour: str) -> float:
        channels = [c / 65535 for c in root.winfo_rgb(colour)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_a_hovered_or_pressed_check_box_or_button_stays_readable(
    make_app: Callable[[str], TkApp],
) -> None:
    """The host's *Locked* box under the pointer was white on light grey."""
    ann = make_app("Ann")
    style = ttk.Style(ann.root)
    for widget in ("TCheckbutton", "TButton", "TMenubutton", "TRadiobutton"):
        for state in ([], ["active"], ["pressed"], ["active", "selected"], ["focus"]):
            fg = style.lookup(widget, "foreground", state) or style.lookup(".", "foreground")
            bg = style.lookup(widget, "background", state) or style.lookup(".", "background")
            assert contrast(fg, bg, ann.root) >= 4.5, (widget, state, fg, bg)


def say_in_chat(app: TkApp, pump: Pump, line: str) -> None:
    """Type ``line`` into the room's chat line and press Enter, as a player would."""
    assert app.room is not None
    entry = app.room.chat.entry
    entry.focus_force()
    pump.until(lambda: app.root.focus_get() is entry, "focus in the chat line")
    entry.delete(0, "end")
    entry.insert(0, line)
    entry.event_generate("<Return>")


def test_host_commands_typed_in_the_chat_are_requests_never_chat(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    ann = make_app("Ann")
    bob = make_opponent("Bob")
    open_gomoku_room(ann, bob, pump)
    pump.until(lambda: any("Bob" in ln for ln in pane(ann)), "Bob in the member list")
    room = ann.room
    assert room is not None

    say_in_chat(ann, pump, "/mute bob 5")
    muted = bob.expect("host", action="mute", player=bob.player)
    assert muted["minutes"] == 5 and muted["by"] == snap(ann).player
    pump.until(lambda: room.chat.entry.get() == "", "the command line cleared")
    say_in_chat(ann, pump, "/lock")
    bob.expect("host", action="lock")
    pump.until(lambda: room_state(ann).get("locked") is True, "the room locked")

    say_in_chat(ann, pump, "/mue bob")  # a typo: no such command
    pump.until(lambda: any("/mue is not a command" in n for n in ann.notices), "told why")
    assert room.chat.entry.get() == "/mue bob"  # kept, to be mended
    say_in_chat(ann, pump, "//shrug")  # a line that starts with / on purpose
    assert bob.expect("chat", **{"from": snap(ann).player})["text"] == "/shrug"
    said = [m["text"] for m in bob.client.received if m["type"] == "chat"]
    assert said == ["/shrug"]  # Bob never saw a command as chat


def test_a_room_lost_at_a_restart_is_said_in_the_lobby(
    xvfb: str, tmp_path: Path, pump: Pump
) -> None:
    """The server comes back without Ann's room (it could not be restored): her window
    goes back to the lobby, which says which room and why, once."""
    from tests.e2e.test_room_lost_e2e import unreadable

    db = tmp_path / "g.db"
    server = ServerThread(db)
    port = server.server.port
    app = TkApp(server.url, "Ann", root=tk.Tk(className="gridhall"), backoff=FAST)
    pump.apps.append(app)
    try:
        app.start()
        pump.until(lambda: app.bridge.latest.connected, "Ann to connect")
        app.lobby.choose("gomoku", 0)
        press(app.lobby.create_button)
        pump.until(lambda: app.room is not None, "Ann's room screen")
        code = snap(app).room.room  # type: ignore[union-attr]
        server.stop()
        unreadable(str(db), code)
        server = ServerThread(db, port=port)
        pump.until(
            lambda: app.room is None and code in app.lobby.farewell.cget("text"),
            "Ann back in the lobby, told her room was lost",
        )
        told = app.lobby.farewell.cget("text")
        assert "could not be restored" in told and "teleport" in told
        assert sum(code in n for n in app.notices) == 1  # one message, not two
    finally:
        app.close()
        server.stop()
