"""Every screen of the terminal client in the pseudo-locale: no word outside the catalogs.

The client runs in ``qps`` (``tests/pseudo.py``), where every translated text reads
``⟦Ŕéšíĝñ⟧``, against a real server; the test walks its screens (connect, lobby,
create form with each game's presets and options, each game's room while playing and
over, offers, host tools, help, the link dialog, history, replay, leaderboard,
profile) and reads what each shows: the rendered screen, plus the texts a widget holds
until it is opened (a select's choices, a tooltip). A word in plain letters that the
test did not put there itself (a name, a chat line, a room code) is a text the
catalogs lack.
"""

from __future__ import annotations

import platform
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, Select

from gridhall.client.history import Opening
from gridhall.client.hostcommands import COMMANDS
from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.confirm import ConfirmScreen
from gridhall.client.tui.connect import ConnectApp
from gridhall.client.tui.help import HelpScreen
from gridhall.client.tui.history import HistoryScreen
from gridhall.client.tui.hosttools import HostToolsScreen
from gridhall.client.tui.leaderboard import LeaderboardScreen
from gridhall.client.tui.linking import LinkScreen
from gridhall.client.tui.profile import ProfileScreen
from gridhall.client.tui.replay import ReplayScreen
from gridhall.client.views import VIEWS, view_for
from gridhall.protocol import pseudo
from gridhall.server.io.net.app import GameServer
from tests.client.screen_text import shown
from tests.client.test_client_tui import FAST, SIZE, clickable, press, state
from tests.conftest import url_of
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
from tests.waiting import ui_until
from tests.wsclient import WsClient

HOST_COMMANDS = (*(f"/{word}" for word in COMMANDS), "easy|hard|off")
"""The host's slash commands as typed (the help lists them): commands, not words."""


@pytest.fixture(autouse=True)
def _pseudo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path / "config"))
    with pseudo_locale():
        yield


@pytest.fixture
async def hall(make_server: Any) -> GameServer:
    server: GameServer = await make_server(name=SERVER_NAME, analysis_budget=0.02)
    return server


def look(found: Findings, screen: str, app: App[Any]) -> None:
    """Check what the app's current screen shows (see :func:`shown`)."""
    texts, cut = shown(app)
    found.check(screen, texts, cut)


def findings(url: str, *data: str) -> Findings:
    found = Findings()
    found.allow(url, SERVER_NAME, *data)
    return found


@asynccontextmanager
async def client(
    url: str, name: str, **kwargs: Any
) -> AsyncIterator[tuple[GridhallApp, Pilot[Any]]]:
    app = GridhallApp(url, name, backoff=FAST, **kwargs)
    async with app.run_test(size=SIZE) as pilot:
        await ui_until(pilot, lambda: app.session.connected)
        yield app, pilot


async def settle(pilot: Pilot[Any]) -> None:
    """Let the screens finish what they were asked to draw."""
    await pilot.pause()
    await pilot.pause(0.1)


def assert_no_holes(found: Findings) -> None:
    assert found.screens, "no screen was read"
    assert not found.holes, "texts outside the catalogs:\n" + found.report()


# ---- the tests ---------------------------------------------------------------------------


async def test_connect_screen_in_the_pseudo_locale(hall: GameServer) -> None:
    found = findings(url_of(hall), "localhost:8765", "kitchen:99999", "Old hall")
    heard = Heard(FOUND)
    app = ConnectApp("localhost:8765", heard)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        look(found, "connect", app)
        app.show_servers([])
        await settle(pilot)
        look(found, "connect, none found", app)
        app.show_servers(heard.servers())
        await settle(pilot)
        look(found, "connect, two found", app)
        address = app.query_one("#address")
        address.value = "kitchen:99999"  # type: ignore[attr-defined]
        await pilot.click("#address")
        await pilot.press("enter")
        await ui_until(pilot, lambda: app._notifications)
        await settle(pilot)
        look(found, "connect, a bad address", app)
    assert_no_holes(found)


async def test_lobby_create_forms_help_and_link_in_the_pseudo_locale(hall: GameServer) -> None:
    url = url_of(hall)
    found = findings(url, "Ann", "Bob", "Cy", "NOSUCH", "nope", *HOST_COMMANDS)
    async with AsyncExitStack() as stack:
        bob = await stack.enter_async_context(WsClient.connect(url, "Bob"))
        cy = await stack.enter_async_context(WsClient.connect(url, "Cy"))
        found.allow(*await rooms_to_list(bob, cy))
        async with client(url, "Ann") as (app, pilot):
            await ui_until(pilot, lambda: app.lobby.query_one("#rooms").row_count >= 2)  # type: ignore[attr-defined]
            await settle(pilot)
            look(found, "lobby", app)

            await pilot.press("n")
            await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
            dialog = app.screen
            for game in VIEWS:
                view = view_for(game)
                dialog.query_one("#game", Select).value = game
                await ui_until(
                    pilot,
                    lambda v=view: (
                        len(dialog.query_one("#preset", Select)._options) == len(v.presets)
                    ),
                )
                for index in range(len(view.presets)):
                    dialog.query_one("#preset", Select).value = index
                    await settle(pilot)
                    look(found, f"create {game}, preset {index}", app)
            await press(pilot, "#cancel")
            await ui_until(pilot, lambda: app.screen is app.lobby)

            await pilot.click("#code")
            app.lobby.query_one("#code", Input).value = ""
            await pilot.press(*"NOSUCH", "enter")  # a refusal, as a toast
            await ui_until(pilot, lambda: app._notifications)
            await settle(pilot)
            look(found, "lobby, a refusal", app)

            dee = await stack.enter_async_context(WsClient.connect(url, "Dee"))
            await dee.send("create-room", game="gomoku", options={})
            room = (await dee.expect("joined"))["room"]
            found.allow("Dee", room)
            app.session.submit("join-room", room=room)
            await host_removes(dee, str(app.session.player), room)
            await ui_until(pilot, lambda: app.lobby.query_one("#lobby-note").display)
            await settle(pilot)
            look(found, "lobby, removed from a room", app)

            await pilot.press("f1")
            await ui_until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await settle(pilot)
            help_screen = app.screen
            look(found, "help", app)
            for _ in range(12):  # page through it all
                await pilot.press("pagedown")
                await settle(pilot)
                look(found, "help", app)
            await pilot.press("escape")
            await ui_until(pilot, lambda: app.screen is not help_screen)

            await pilot.press("ctrl+o")
            await ui_until(pilot, lambda: isinstance(app.screen, LinkScreen))
            devices = app.screen.query_one("#devices", DataTable)
            await ui_until(pilot, lambda: devices.row_count == 1)  # this device
            found.allow(platform.system())  # its platform is data (its kind is translated)
            await settle(pilot)
            look(found, "link", app)
            await press(pilot, "#link-show")
            await ui_until(pilot, lambda: str(app.screen.query_one("#link-code").render()))
            code = str(app.screen.query_one("#link-code").render())
            found.allow(code)
            await settle(pilot)
            look(found, "link, a code shown", app)
            app.screen.query_one("#link-input").value = "nope"  # type: ignore[attr-defined]
            await press(pilot, "#link-use")
            await settle(pilot)
            look(found, "link, a bad code", app)
    assert_no_holes(found)


async def test_gomoku_room_offer_host_tools_and_result_in_the_pseudo_locale(
    hall: GameServer,
) -> None:
    url = url_of(hall)
    found = findings(url, "Ann", "Bob", "Cy", "good luck")
    async with client(url, "Ann") as (app, pilot), WsClient.connect(url, "Bob") as bob:
        async with WsClient.connect(url, "Cy") as cy:
            app.session.submit("create-room", game="gomoku", options={"clock": "10+5"})
            await ui_until(pilot, lambda: app.room_screen is not None and state(app))
            code = app.session.room.room  # type: ignore[union-attr]
            found.allow(code)
            await settle(pilot)
            look(found, "gomoku, waiting", app)
            await bob.send("join-room", room=code)
            await cy.send("join-room", room=code, role="spectator")
            await bob.send("chat", text="good luck")
            await ui_until(
                pilot, lambda: state(app).get("status") == "playing" and state(app)["chat"]
            )
            await settle(pilot)
            look(found, "gomoku, playing", app)
            app.session.submit("move", move={"x": 7, "y": 7})
            await bob.expect("moved")
            await bob.send("offer", kind="draw")
            await ui_until(pilot, lambda: app.screen.query_one("#offer").display)
            await settle(pilot)
            look(found, "gomoku, a draw offered", app)
            await press(pilot, "#offer-decline")
            await ui_until(pilot, lambda: not app.screen.query_one("#offer").display)

            await press(pilot, "#btn-resign")  # a question first
            await ui_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await settle(pilot)
            look(found, "gomoku, resign asked", app)
            await pilot.press("escape")
            await ui_until(pilot, lambda: app.screen is app.room_screen)

            await pilot.press("H")
            await ui_until(pilot, lambda: isinstance(app.screen, HostToolsScreen))
            await settle(pilot)
            look(found, "host tools", app)
            await press(pilot, "#host-close")
            await ui_until(pilot, lambda: app.screen is app.room_screen)

            await bob.send("resign")
            await ui_until(pilot, lambda: state(app).get("status") == "over")
            await bob.send("play-again")
            await ui_until(pilot, lambda: clickable(app.screen.query_one("#agree")))
            await settle(pilot)
            look(found, "gomoku, over", app)
            await press(pilot, "#decline")
            await settle(pilot)
            look(found, "gomoku, another game declined", app)

            await bob.send("leave-room")  # a free seat for the computer
            await ui_until(pilot, lambda: len(state(app)["players"]) == 1)
            await pilot.press("H")  # between games: the computer's buttons too
            await ui_until(pilot, lambda: isinstance(app.screen, HostToolsScreen))
            await press(pilot, "#computer-hard")
            await ui_until(pilot, lambda: any(p.get("bot") for p in state(app)["players"]))
            await settle(pilot)
            look(found, "gomoku, the computer seated", app)
            await pilot.press("H")
            await ui_until(pilot, lambda: isinstance(app.screen, HostToolsScreen))
            await settle(pilot)
            look(found, "host tools, with the computer", app)
            await press(pilot, "#host-close")
    assert_no_holes(found)


async def test_minesweeper_and_linkmatch_rooms_in_the_pseudo_locale(hall: GameServer) -> None:
    url = url_of(hall)
    found = findings(url, "Ann", "Bob")
    async with client(url, "Ann") as (app, pilot), WsClient.connect(url, "Bob") as bob:
        for game in ("minesweeper", "linkmatch"):
            app.session.submit("create-room", game=game, options={})
            await ui_until(
                pilot, lambda g=game: app.room_screen is not None and state(app).get("game") == g
            )
            code = app.session.room.room  # type: ignore[union-attr]
            found.allow(code)
            await bob.send("join-room", room=code)
            await ui_until(pilot, lambda: len(state(app)["players"]) == 2)
            await settle(pilot)
            look(found, f"{game}, waiting", app)
            if game == "linkmatch":
                await pilot.press("g")
            await ui_until(pilot, lambda: state(app).get("status") == "playing")
            await settle(pilot)
            look(found, f"{game}, playing", app)
            await pilot.press("h")  # a hint
            await settle(pilot)
            look(found, f"{game}, a hint", app)
            await bob.send("resign")
            app.session.submit("resign")  # co-op: the game ends when the last one goes
            await ui_until(pilot, lambda: state(app).get("status") == "over")
            await settle(pilot)
            look(found, f"{game}, over", app)
            await pilot.press("ctrl+l")
            await ui_until(pilot, lambda: app.room_screen is None)
            await bob.send("leave-room")
    assert_no_holes(found)


async def test_history_replay_leaderboard_and_profile_in_the_pseudo_locale(
    hall: GameServer,
) -> None:
    url = url_of(hall)
    async with WsClient.connect(url, "Ann") as ann, WsClient.connect(url, "Bob") as bob:
        room = await rated_game(hall, ann, bob)
        await ann.send("leave-room")
        await ann.expect("left")
        token = ann.token
    found = findings(url, "Ann", "Bob", room)
    async with client(url, "Ann", token=token, opening=Opening(history=True)) as (app, pilot):
        await ui_until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.query("#games")
        )
        table = app.screen.query_one("#games")
        await ui_until(pilot, lambda: table.row_count == 1)  # type: ignore[attr-defined]
        await settle(pilot)
        look(found, "history", app)
        table.focus()
        await pilot.press("enter")
        await ui_until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.player is not None
        )
        replay = app.screen
        await settle(pilot)
        look(found, "replay", app)
        await pilot.press("a")  # analyse
        await ui_until(pilot, lambda: replay.player.analysis_status == "done", timeout=120)  # type: ignore[attr-defined]
        await pilot.press("home", "right")
        await settle(pilot)
        look(found, "replay, analysed", app)
        await pilot.press("space")  # autoplay
        await settle(pilot)
        look(found, "replay, playing", app)
        await pilot.press("escape")
        await ui_until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        await pilot.press("escape")
        await ui_until(pilot, lambda: app.screen is app.lobby)
        await pilot.press("l")
        await ui_until(
            pilot,
            lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.query("#leaderboard"),
        )
        board = app.screen.query_one("#leaderboard")
        await ui_until(pilot, lambda: board.row_count >= 2)  # type: ignore[attr-defined]
        await settle(pilot)
        look(found, "leaderboard", app)
        await pilot.press("escape")
        await ui_until(pilot, lambda: app.screen is app.lobby)
        await pilot.press("p")
        await ui_until(
            pilot,
            lambda: isinstance(app.screen, ProfileScreen) and app.screen.query("#profile-ratings"),
        )
        ratings = app.screen.query_one("#profile-ratings")
        await ui_until(pilot, lambda: ratings.row_count == 1)  # type: ignore[attr-defined]
        await settle(pilot)
        look(found, "profile", app)
    assert_no_holes(found)


class Planted(App[None]):
    """A screen with what the walk must find: a word outside the catalogs, and a
    sentence in a box too narrow for it."""

    CSS = "#narrow { width: 12; } #narrow Label { width: auto; }"

    def compose(self) -> ComposeResult:
        yield Label("Resign", id="english")
        with Horizontal(id="narrow"):
            yield Label(pseudo.pseudo("On your other device, choose a code"), id="long")
        yield Select([(pseudo.pseudo("a person"), 0), ("computer (hard)", 1)], value=0)


async def test_the_walk_finds_a_word_outside_the_catalogs_and_a_cut_text() -> None:
    app = Planted()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        texts, cut = shown(app)
    found = Findings()
    found.check("planted", texts, cut)
    words = {word for lines in found.holes["planted"].values() for word in lines}
    assert {"Resign", "computer", "hard", "shown cut short"} <= words
    assert any(line.startswith("Label#long") for line in found.holes["planted"])
