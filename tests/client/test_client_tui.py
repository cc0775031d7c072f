"""Two terminal clients (Textual Pilot, headless) against a real server: Gomoku,
rematch, chat, reconnect."""

from __future__ import annotations

import os
import re
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.errors import NoWidget
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, RichLog, Select

from gridhall import protocol as p
from gridhall.client.session import Backoff
from gridhall.client.tui import room as tui_room
from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.boards import Board
from gridhall.client.tui.confirm import ConfirmScreen
from gridhall.client.tui.events import ServerEvent
from gridhall.client.tui.help import HelpScreen
from gridhall.protocol.schema import to_map
from tests.client.pilots import run_app
from tests.conftest import url_of
from tests.waiting import ui_until
from tests.wsclient import WsClient

SIZE = (120, 40)
FAST = Backoff(first=0.05, cap=0.2)
SNAPSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screens"


@asynccontextmanager
async def apps(url: str, *names: str) -> AsyncIterator[list[tuple[GridhallApp, Pilot[Any]]]]:
    """Several connected client apps, each with its pilot."""
    async with AsyncExitStack() as stack:
        pairs: list[tuple[GridhallApp, Pilot[Any]]] = []
        for name in names:
            app = GridhallApp(url, name, backoff=FAST)
            pairs.append((app, await run_app(stack, app, SIZE)))
        for app, pilot in pairs:
            await ui_until(pilot, lambda app=app: app.session.connected)
        yield pairs


def snapshot(app: GridhallApp, name: str) -> None:
    """Save an SVG of the screen to docs/screens when GRIDHALL_SNAPSHOTS=1 (to refresh
    the committed pictures), and a text capture next to the test's tmp files never."""
    if os.environ.get("GRIDHALL_SNAPSHOTS") == "1":
        app.save_screenshot(str(SNAPSHOTS / f"{name}.svg"))
        text = "\n".join(s.text.rstrip() for s in app.screen._compositor.render_strips())
        (SNAPSHOTS / f"{name}.txt").write_text(text + "\n", "utf-8")


def state(app: GridhallApp) -> dict[str, Any]:
    """The client's copy of the room as the wire map (``{}`` in the lobby)."""
    current = app.session.state
    return to_map(current) if current is not None else {}


def clickable(widget: Widget) -> bool:
    """On screen, enabled and ready, as a player sees it: a widget just shown is laid out
    on the next refresh, and a button still showing its last press (class ``-active``,
    0.2 s, longer on a busy machine) ignores clicks: a second click too soon is lost.
    Wait on this, not on a button's own ``display``: a bar's buttons are displayed from
    the start inside their hidden bar, so that holds before the bar is ever shown."""
    return bool(
        widget.display
        and not widget.disabled
        and widget.region.area
        and not widget.has_class("-active")
    )


async def press(pilot: Pilot[Any], selector: str) -> None:
    """Click a button (or checkbox) once it is :func:`clickable`, as a player would."""

    def ready() -> bool:
        found = pilot.app.screen.query(selector)
        return bool(found) and all(clickable(w) for w in found)

    try:
        await ui_until(pilot, ready)
    except AssertionError as exc:  # say why it never became clickable
        found = [
            (w, w.display, w.disabled, w.region, sorted(w.classes))
            for w in pilot.app.screen.query(selector)
        ]
        raise AssertionError(f"{exc}: {selector} on {pilot.app.screen}: {found}") from None
    await pilot.pause()
    assert await pilot.click(selector), f"the click did not reach {selector}"


def status_text(app: GridhallApp) -> str:
    """The room screen's status line ("" until the screen is up)."""
    return "".join(str(w.render()) for w in app.screen.query("#status"))


async def shown(pilot: Pilot[Any]) -> None:
    """Wait until the board shows the session's latest copy of the room, as a player
    looks at the board before clicking (the copy changes before the screen redraws)."""
    app = pilot.app
    assert isinstance(app, GridhallApp)

    def current() -> bool:
        boards = app.screen.query(Board)
        return bool(boards) and boards.first().room is app.session.room

    await ui_until(pilot, current)


async def click_point(pilot: Pilot[Any], x: int, y: int) -> None:
    """Click Gomoku point (x, y): border, row labels, two columns per point; once the
    board is laid out where the click goes (a board just given its room is placed on
    the next refresh, later on a busy machine: a click before lands on what was there)."""
    await shown(pilot)
    offset = (1 + 3 + 2 * x, 1 + 1 + y)

    def under_click() -> bool:
        board = pilot.app.screen.query_one("#board")
        if not board.region.area:
            return False
        try:
            return pilot.app.get_widget_at(*(board.region.offset + offset))[0] is board
        except NoWidget:
            return False

    await ui_until(pilot, under_click)
    assert await pilot.click("#board", offset=offset)


async def type_code(pilot: Pilot[Any], app: GridhallApp, code: str) -> None:
    """Type a room code into the lobby and press enter. The field is cleared first:
    a row highlighted while the table had focus fills it in."""
    await pilot.click("#code")
    app.lobby.query_one("#code", Input).value = ""
    await pilot.press(*code, "enter")


async def start_gomoku(
    a: tuple[GridhallApp, Pilot[Any]], b: tuple[GridhallApp, Pilot[Any]]
) -> None:
    """A creates a room through the lobby dialog; B joins it by typing the code."""
    (app_a, pa), (app_b, pb) = a, b
    await pa.press("n")
    await ui_until(pa, lambda: app_a.screen.query("#create-dialog"))
    await press(pa, "#ok")
    await ui_until(pa, lambda: app_a.room_screen is not None and state(app_a))
    code = app_a.session.room.room  # type: ignore[union-attr]
    await type_code(pb, app_b, code)
    await ui_until(pb, lambda: state(app_b).get("status") == "playing")
    await ui_until(pa, lambda: state(app_a).get("status") == "playing")


async def play_to_five(
    first: tuple[GridhallApp, Pilot[Any]], second: tuple[GridhallApp, Pilot[Any]]
) -> None:
    """``first`` (black) builds a row on y=0 while ``second`` plays y=2."""
    for i in range(5):
        for (app, pilot), y in ((first, 0), (second, 2)):
            if i == 4 and y == 2:
                break
            await ui_until(pilot, lambda app=app: state(app).get("turn") == app.session.player)
            await click_point(pilot, i, y)
            await ui_until(pilot, lambda app=app, i=i, y=y: [i, y] in state(app)["view"]["moves"])


async def test_two_clients_play_gomoku_to_five_and_rematch(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        await play_to_five(a, b)
        for app, pilot in (a, b):
            await ui_until(pilot, lambda app=app: state(app).get("status") == "over")
            assert state(app)["result"]["winner"] == app_a.session.player
            assert app.screen.query_one("#banner").display
        app_a.session.submit("chat", text="gg! rematch?")
        await ui_until(
            pb, lambda: state(app_b)["chat"] and state(app_b)["chat"][-1]["name"] == "ann"
        )
        snapshot(app_b, "gomoku")

        first_round = state(app_a).get("round", 0)
        await press(pa, "#again")
        await ui_until(pb, lambda: clickable(app_b.screen.query_one("#agree")))
        await press(pb, "#agree")
        for app, pilot in (a, b):
            await ui_until(
                pilot,
                lambda app=app: (
                    state(app).get("status") == "playing"
                    and state(app).get("round", 0) > first_round
                ),
            )
            assert not app.screen.query_one("#banner").display
        colors = state(app_a)["view"]["colors"]
        assert colors[app_b.session.player] == "black"  # colours swap on a new game
        await play_to_five(b, a)
        await ui_until(pa, lambda: state(app_a)["result"].get("winner") == app_b.session.player)


async def test_chat_typed_in_one_client_shows_in_the_other(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        await pa.press("slash")
        await pa.press(*"good luck", "enter")

        def shown() -> bool:
            log = app_b.screen.query_one("#chat", RichLog)
            return any("ann: good luck" in line.text for line in log.lines)

        await ui_until(pb, shown)
        assert state(app_b)["chat"][-1]["text"] == "good luck"
        box = app_a.screen.query_one("#chat-input", Input)
        await ui_until(pa, lambda: box.value == "")  # cleared once the server relayed it back


async def test_a_refused_chat_line_stays_in_the_input(make_server: Any) -> None:
    server = await make_server(chat_lines=1, chat_window=3600.0)  # one line an hour
    async with apps(url_of(server), "ann", "bob") as (a, b):
        (app_a, pa), _ = a, b
        await start_gomoku(a, b)
        box = app_a.screen.query_one("#chat-input", Input)
        await pa.press("slash")
        await pa.press(*"hello", "enter")
        await ui_until(pa, lambda: state(app_a)["chat"] and box.value == "")  # accepted
        await pa.press(*"too fast", "enter")

        def refused() -> bool:
            return any("wait" in str(n.message).lower() for n in app_a._notifications)

        await ui_until(pa, refused)  # the server said why
        assert box.value == "too fast"  # and the line is still there to send again
        assert [line["text"] for line in state(app_a)["chat"]] == ["hello"]


async def test_client_reconnects_after_a_drop_and_keeps_its_seat(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        me = app_a.session.player
        app_a.session.drop_connection()
        await ui_until(pa, lambda: not app_a.session.connected)
        await ui_until(pa, lambda: app_a.session.connected)
        await ui_until(pa, lambda: not app_a.session.room.syncing)  # type: ignore[union-attr]
        assert app_a.session.player == me and app_a.room_screen is not None
        await click_point(pa, 7, 7)  # still black, still to move
        await ui_until(pb, lambda: [7, 7] in state(app_b)["view"]["moves"])
        players = {p["player"]: p for p in state(app_b)["players"]}
        assert players[me]["connected"] and players[me]["seat"] == 0


async def test_lobby_lists_rooms_and_joins_as_spectator(server_url: str) -> None:
    async with apps(server_url, "ann", "bob", "cy") as (a, b, c):
        (app_a, pa), (app_c, pc) = a, c
        await start_gomoku(a, b)
        code = app_a.session.room.room  # type: ignore[union-attr]
        table = app_c.lobby.query_one("#rooms", DataTable)
        await pc.press("r")
        await ui_until(pc, lambda: table.row_count >= 1)
        snapshot(app_c, "lobby")
        assert code in str(table.get_row(code)[0])
        assert "ann" in str(table.get_row(code)[3]) and "bob" in str(table.get_row(code)[3])
        await pc.click("#code")
        app_c.lobby.query_one("#code", Input).value = ""  # the highlighted row filled it
        await pc.press(*code.lower())  # codes are read aloud; case must not matter
        await press(pc, "#watch")
        await ui_until(pc, lambda: app_c.room_screen is not None and state(app_c))
        await ui_until(pa, lambda: "cy" in state(app_a).get("spectators", []))
        await ui_until(pc, lambda: "Watching" in status_text(app_c))
        await click_point(pc, 7, 7)  # a spectator's click is not sent as a move
        app_c.session.submit("chat", text="just watching")  # after anything the click sent
        await ui_until(
            pa, lambda: state(app_a)["chat"] and state(app_a)["chat"][-1]["text"] == "just watching"
        )
        assert state(app_a)["view"]["moves"] == []


async def test_a_typed_code_survives_refreshes_and_enter_in_password_joins_it(
    server_url: str,
) -> None:
    async with WsClient.connect(server_url, "Xia") as x, WsClient.connect(server_url, "Yan") as y:
        for owner in (x, y):
            await owner.send("create-room", game="gomoku", options={})
            await owner.expect("state")
        async with apps(server_url, "ann") as [(app, pilot)]:
            table = app.lobby.query_one("#rooms", DataTable)
            await ui_until(pilot, lambda: table.row_count == 2)
            codes = [str(table.get_row_at(i)[0]) for i in range(2)]
            shown: list[int] = []
            show_rooms = app.lobby.show_rooms
            app.lobby.show_rooms = lambda rooms: (show_rooms(rooms), shown.append(1))  # type: ignore[method-assign]
            await pilot.click("#code")
            code = app.lobby.query_one("#code", Input)
            code.value = ""
            await pilot.press(*codes[1])  # the second room, not the highlighted first
            await pilot.click("#password")
            for refreshes in (1, 2):  # the list refreshes (every few seconds) while typing
                app.lobby.action_refresh()
                await ui_until(pilot, lambda n=refreshes: len(shown) >= n)
                await pilot.pause()  # the table's highlight messages are handled
                assert code.value == codes[1]
            await pilot.press("enter")
            await ui_until(pilot, lambda: app.session.room is not None)
            assert app.session.room.room == codes[1]  # type: ignore[union-attr]


async def test_server_errors_are_shown_as_sentences(server_url: str) -> None:
    async with apps(server_url, "ann") as [(app, pilot)]:
        await pilot.click("#code")
        await pilot.press(*"NOSUCH", "enter")

        def shown() -> list[str]:
            return [str(n.message) for n in app._notifications]

        await ui_until(pilot, shown)
        assert any(len(m.split()) > 3 for m in shown())  # a sentence, not a bare code
        assert app.room_screen is None


async def test_create_dialog_and_help_screen(server_url: str) -> None:
    async with apps(server_url, "ann") as [(app, pilot)]:
        await pilot.press("n")
        await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
        snapshot(app, "create")
        app.screen.query_one("#preset", Select).value = 3  # 19×19 freestyle
        await pilot.pause()
        await press(pilot, "#private")
        await press(pilot, "#ok")
        await ui_until(pilot, lambda: state(app).get("game") == "gomoku")
        assert state(app)["options"]["size"] == 19
        assert state(app).get("private") is True
        await pilot.press("f1")
        await ui_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        snapshot(app, "help")
        await pilot.press("escape")
        await ui_until(pilot, lambda: app.screen is app.room_screen)
        await pilot.press("ctrl+l")
        await ui_until(pilot, lambda: app.room_screen is None and app.screen is app.lobby)


async def test_draw_offer_is_answered_from_the_offer_bar(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (_, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        await click_point(pa, 7, 7)
        await ui_until(pb, lambda: state(app_b).get("turn") == app_b.session.player)
        await press(pa, "#btn-draw")
        await ui_until(pb, lambda: clickable(app_b.screen.query_one("#offer-accept")))
        assert app_b.screen.query_one("#offer").display
        await press(pb, "#offer-accept")
        for app, pilot in (a, b):
            await ui_until(pilot, lambda app=app: state(app).get("status") == "over")
            assert state(app)["result"]["reason"] == "agreed-draw"
            assert state(app)["result"].get("winner") is None


async def test_y_and_n_keys_answer_a_take_back_then_another_game(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        await click_point(pa, 7, 7)
        await ui_until(pb, lambda: state(app_b).get("turn") == app_b.session.player)
        await press(pa, "#btn-takeback")
        await ui_until(pb, lambda: clickable(app_b.screen.query_one("#offer-accept")))
        assert "Accept (y) or Decline (n)" in str(app_b.screen.query_one("#offer-text").render())
        await pb.press("y")  # y answers the take-back, not the play-again question
        await ui_until(pa, lambda: state(app_a)["view"]["moves"] == [])
        refusals = [str(n.message) for n in app_b._notifications if "again" in str(n.message)]
        assert refusals == []
        await press(pa, "#btn-resign")
        await press(pa, "#confirm-yes")
        await ui_until(pb, lambda: state(app_b).get("status") == "over")
        await press(pa, "#again")
        await ui_until(pb, lambda: clickable(app_b.screen.query_one("#agree")))
        await pb.press("y")  # now y agrees to another game
        await ui_until(
            pa, lambda: state(app_a).get("status") == "playing" and state(app_a).get("round") == 1
        )


async def test_resigning_or_leaving_a_game_under_way_asks_first(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        await pa.press("R")  # one key never resigns: the question comes first
        await ui_until(pa, lambda: isinstance(app_a.screen, ConfirmScreen))
        question = app_a.screen.query_one("#confirm-question", Label)
        assert str(question.render()) == "Resign this game?"
        assert app_a.screen.focused is app_a.screen.query_one("#confirm-no")  # enter cancels
        await pa.press("escape")
        await ui_until(pa, lambda: app_a.screen is app_a.room_screen)
        await click_point(pa, 7, 7)  # the game goes on
        await ui_until(pb, lambda: [7, 7] in state(app_b)["view"]["moves"])
        await ui_until(pb, lambda: state(app_b).get("turn") == app_b.session.player)
        await pb.press("ctrl+l")  # leaving mid-game gives it up: asked too
        await ui_until(pb, lambda: isinstance(app_b.screen, ConfirmScreen))
        said = str(app_b.screen.query_one("#confirm-question", Label).render())
        assert said == "Leave the room? You give up this game."
        await press(pb, "#confirm-no")
        await ui_until(pb, lambda: app_b.screen is app_b.room_screen)
        assert state(app_b).get("status") == "playing"
        await press(pa, "#btn-resign")  # the button asks as the key does
        await ui_until(pa, lambda: isinstance(app_a.screen, ConfirmScreen))
        await press(pa, "#confirm-yes")
        await ui_until(pb, lambda: state(app_b).get("status") == "over")
        assert state(app_b)["result"]["reason"] == "resign"
        assert state(app_b)["result"]["winner"] == app_b.session.player


async def test_the_question_goes_when_the_game_ends_meanwhile(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (_, pb) = a, b
        await start_gomoku(a, b)
        await pa.press("R")
        await ui_until(pa, lambda: isinstance(app_a.screen, ConfirmScreen))
        await press(pb, "#btn-resign")
        await press(pb, "#confirm-yes")
        await ui_until(pa, lambda: state(app_a).get("status") == "over")
        await ui_until(pa, lambda: app_a.screen is app_a.room_screen)  # nothing left to give up


async def test_create_dialog_renders_the_games_options_form(server_url: str) -> None:
    async with apps(server_url, "ann") as [(app, pilot)]:
        await pilot.press("n")
        await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
        dialog = app.screen
        dialog.query_one("#game", Select).value = "minesweeper"
        await ui_until(pilot, lambda: dialog.query("#opt-preset"))
        await pilot.pause()  # the new fields finish mounting
        assert not dialog.query_one("#row-width").display  # only for a custom board
        preset_label = dialog.query_one("#preset").query_one("SelectCurrent #label")
        assert str(preset_label.render()).startswith("beginner")  # the new game's presets
        dialog.query_one("#opt-preset", Select).value = 3  # "custom size…"
        await ui_until(pilot, lambda: dialog.query_one("#row-width").display)
        snapshot(app, "create-custom")
        for key, text in (("width", "12"), ("height", "10"), ("mines", "0")):
            dialog.query_one(f"#opt-{key}", Input).value = text
        # the dialog learns typed values from Input.Changed messages: wait for them, as a
        # player sees the text before pressing Create
        await ui_until(
            pilot,
            lambda: (
                (dialog.values["width"], dialog.values["height"], dialog.values["mines"])
                == ("12", "10", "0")
            ),
        )
        await press(pilot, "#opt-no_guess")
        await ui_until(pilot, lambda: dialog.values["no_guess"] is True)
        await press(pilot, "#ok")  # 0 mines: the dialog says so and stays open
        error = dialog.query_one("#form-error", Label)
        await ui_until(
            pilot,
            lambda: error.display and "Mines must be a whole number from 1" in str(error.render()),
        )
        assert app.screen is dialog and app.session.room is None
        dialog.query_one("#opt-mines", Input).value = "15"
        await ui_until(pilot, lambda: dialog.values["mines"] == "15")
        await press(pilot, "#ok")
        await ui_until(pilot, lambda: app.screen is not dialog)  # the dialog accepted it
        await ui_until(pilot, lambda: state(app).get("game") == "minesweeper")
        options = state(app)["options"]
        assert (options["width"], options["height"], options["mines"]) == (12, 10, 15)
        assert options["no_guess"] is True and options["preset"] is None
        await ui_until(pilot, lambda: "15 mines left" in status_text(app))  # the room is up


async def test_gomoku_clocks_show_in_the_status_line(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await pa.press("n")
        await ui_until(pa, lambda: app_a.screen.query("#opt-clock"))
        app_a.screen.query_one("#opt-clock", Select).value = 2  # 10 min + 5 s a move
        await pa.pause()
        await press(pa, "#ok")
        await ui_until(pa, lambda: state(app_a).get("game") == "gomoku")
        assert state(app_a)["options"]["clock"] == {"minutes": 10, "increment": 5}
        await type_code(pb, app_b, app_a.session.room.room)  # type: ignore[union-attr]
        await ui_until(pa, lambda: state(app_a).get("status") == "playing")
        clocks = re.compile(r"ann \d+:\d\d, bob \d+:\d\d$")
        await ui_until(pa, lambda: clocks.search(status_text(app_a)))
        await ui_until(pb, lambda: clocks.search(status_text(app_b)))


async def test_chat_lines_wrap_to_the_chat_pane(server_url: str) -> None:
    async with apps(server_url, "ann") as [(app, pilot)]:
        app.session.submit("create-room", game="gomoku", options={})
        # the room screen pushed is not yet the room screen composed: wait for its chat
        await ui_until(
            pilot,
            lambda: app.room_screen is not None and state(app) and bool(app.screen.query("#chat")),
        )
        words = " ".join(f"word{i:02d}" for i in range(30))  # 209 characters
        app.session.submit("chat", text=words)
        log = app.screen.query_one("#chat", RichLog)
        await ui_until(pilot, lambda: any("word29" in line.text for line in log.lines))
        pane = log.scrollable_content_region.width
        assert 20 < pane < 60  # the side pane, not the screen
        assert all(line.cell_length <= pane for line in log.lines)
        assert " ".join(line.text.strip() for line in log.lines).endswith(words)


async def test_clocks_stand_still_while_the_server_is_down(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server()
    now = [time.time()]
    fake = SimpleNamespace(time=lambda: now[0], strftime=time.strftime, localtime=time.localtime)
    monkeypatch.setattr(tui_room, "time", fake)  # whatever clock the screen reads
    async with apps(url_of(server), "ann", "bob") as (a, b):
        (app_a, pa), (app_b, _) = a, b
        app_a.session.clock = lambda: now[0]
        app_a.session.submit("create-room", game="gomoku", options={"clock": "10+5"})
        await ui_until(pa, lambda: app_a.room_screen is not None and state(app_a))
        app_b.session.submit("join-room", room=app_a.session.room.room)  # type: ignore[union-attr]
        await ui_until(pa, lambda: "ann 10:00, bob 10:00" in status_text(app_a))
        await server.close()
        await ui_until(pa, lambda: "Reconnecting" in status_text(app_a))
        now[0] += 300  # five minutes offline
        with app_a._context():  # as the screen's own timer would, in its app
            app_a.room_screen._tick()  # type: ignore[union-attr]
        assert "ann 10:00, bob 10:00" in status_text(app_a)


async def test_server_messages_arriving_while_the_app_closes_are_ignored(
    server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[bool] = []
    async with apps(server_url, "ann") as [(app, _)]:
        close_screens = app._close_all

        async def close_then_hear_from_the_server() -> None:
            await close_screens()
            taken.append(app.post_message(ServerEvent(p.Rooms(rooms=[]))))  # just too late

        monkeypatch.setattr(app, "_close_all", close_then_hear_from_the_server)
    # Leaving the block closed the app, screens first, and raised nothing: run_test
    # re-raises what a handler raised, and showing the late rooms would have looked up
    # the pruned lobby's table (NoMatches). The app did take the message in, so it was
    # handled, as nothing, not lost on the way:
    assert taken == [True]


async def test_a_button_showing_its_last_press_ignores_clicks_until_it_is_clickable(
    server_url: str,
) -> None:
    async with apps(server_url, "ann") as [(app, pilot)]:
        await pilot.press("n")
        await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
        dialog = app.screen
        ok = dialog.query_one("#ok")
        ok.add_class("-active")  # as right after a first press
        assert not clickable(ok)
        assert await pilot.click("#ok")  # it lands on the button...
        await pilot.pause()
        assert app.screen is dialog  # ...and Textual ignores it: why press() waits
        ok.remove_class("-active")
        assert clickable(ok)
        await press(pilot, "#ok")
        await ui_until(pilot, lambda: app.screen is not dialog)
