"""The room screen: board, players, chat, status line, actions and banners.

Game-agnostic: everything a game adds comes from its view class (title, status,
roles, action buttons and keys, event texts) and its board widget.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, RichLog, Static

from gridhall import protocol as p
from gridhall.client.chatdraft import ChatDraft
from gridhall.client.hostcommands import typed
from gridhall.client.hosting import is_host, members
from gridhall.client.messages import Request, RoomEvent
from gridhall.client.plain import plain
from gridhall.client.ratings import rating_change
from gridhall.client.room import RoomCopy
from gridhall.client.tui.boards import Board, board_for
from gridhall.client.tui.confirm import ConfirmScreen
from gridhall.client.tui.hosttools import HostToolsScreen
from gridhall.client.tui.text import text as plain_text
from gridhall.client.tui.text import translate_bindings
from gridhall.client.views import view_for
from gridhall.client.views.base import (
    AGAIN_KEYS,
    ANSWER_KEYS,
    COMMON_ACTIONS,
    action_request,
    action_states,
    again_request,
    answer_request,
    banner,
    confirmation,
    in_live_game,
    offer_bar,
    status_line,
    yes_no_request,
)
from gridhall.client.views.common import Message, player_lines, seated
from gridhall.client.views.hosts import (
    LOG_KEY,
    computer_game,
    event_text,
    roster_note,
)
from gridhall.protocol.games import render
from gridhall.protocol.games.common import COMMON
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader


class RoomScreen(Screen[None]):
    """Everything about the room we are in; redrawn from the session's copy."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(AGAIN_KEYS["again"], "again('again')", N_("Play again"), show=False),
        Binding(ANSWER_KEYS[True], "answer(True)", N_("Yes"), show=False),
        Binding(ANSWER_KEYS[False], "answer(False)", N_("No"), show=False),
        Binding("slash", "chat", N_("Chat")),
        Binding("H", "host_tools", N_("Host tools"), show=False),
        Binding("escape", "board", N_("Board"), show=False),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game
        self.view = view_for(game)
        self._chat_count = -1
        self._ready = False
        self._draft = ChatDraft()
        self._asking: ConfirmScreen | None = None
        """The open question before resigning or leaving, if any."""
        for action in (*self.view.actions, *COMMON_ACTIONS):  # each game's keys
            self._bindings.bind(
                action.keys, f"act('{action.key}')", action.label, show=action in COMMON_ACTIONS
            )

    # ---- layout ----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Horizontal(id="room-main"):
            with VerticalScroll(id="board-pane"):
                yield board_for(self.game)(id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield RichLog(
                    id="chat", wrap=True, markup=False, auto_scroll=True, min_width=1
                )  # wrap to the pane, not to 78 columns
                yield Input(placeholder=_("chat… (enter sends)"), id="chat-input", max_length=500)
        yield Static(id="status")
        with Horizontal(id="offer", classes="bar"):
            yield Label(id="offer-text")
            yield Button(_("Accept"), id="offer-accept", variant="success")
            yield Button(_("Decline"), id="offer-decline", variant="error")
        with Horizontal(id="banner", classes="bar"):
            yield Label(id="banner-text")
            yield Button(_("Play again"), id="again", variant="primary")
            yield Button(_("Agree"), id="agree", variant="success")
            yield Button(_("Decline"), id="decline", variant="error")
        with Horizontal(id="actions"):
            for action in self.view.actions:
                yield Button(action.label, id=f"btn-{action.key}", classes="action")
            *last, leave = COMMON_ACTIONS
            for action in last:
                yield Button(action.label, id=f"btn-{action.key}", classes="action")
            yield Button(_("Host tools"), id="btn-host-tools", classes="action")
            yield Button(_("Help"), id="btn-help", classes="action")
            yield Button(leave.label, id=f"btn-{leave.key}", classes="action")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#offer").display = False
        self.query_one("#banner").display = False
        board = self.query_one(Board)
        board.clock = self.session.clock_time  # its countdown stands still offline too
        board.focus()
        self.set_interval(1.0, self._tick)
        self._ready = True
        self.redraw()

    @property
    def ready(self) -> bool:
        """Composed and on screen: events before that (or after leaving) are covered
        by the redraw on mount, or no longer matter."""
        return self._ready and self.is_attached

    # ---- reading the session -----------------------------------------------------------
    @property
    def session(self) -> Any:
        return self.app.session  # type: ignore[attr-defined]

    @property
    def room(self) -> RoomCopy | None:
        return self.session.room  # type: ignore[no-any-return]

    @property
    def me(self) -> str | None:
        return self.session.player  # type: ignore[no-any-return]

    def seated(self) -> bool:
        room = self.room
        return room is not None and room.state is not None and seated(room.state, self.me)

    # ---- server messages ---------------------------------------------------------------
    def handle(self, msg: RoomEvent) -> None:
        """React to one room event (already folded into the session's copy)."""
        if not self.ready:
            return
        room = self.room
        if isinstance(msg, p.ChatEvent):
            self._write_chat({"name": msg.name, "text": msg.text, "ts": msg.ts})
            self._chat_count += 1
            box = self.query_one("#chat-input", Input)
            if msg.sender == self.me and self._draft.accepted(box.value):
                box.value = ""  # accepted: a refused line stays to be sent again
            return
        if room is not None:
            text = self.view.event_text(msg, room, self.me)
            if text:
                self.notify(
                    text, title=_("Game over") if isinstance(msg, p.GameOver) else "", timeout=6
                )
            change = rating_change(getattr(msg, "ratings", None), self.me)
            if isinstance(msg, p.GameOver) and change:
                self.notify(change, title=_("Rated game"), timeout=10)
        self.query_one(Board).room_event(msg)
        self.redraw()

    def redraw(self) -> None:
        """Repaint everything from the session's copy of the room."""
        room = self.room
        if room is None or room.state is None or not self.ready:
            return
        state = room.state
        self.query_one(Board).show(room, self.me)
        title = plain(f"{self.view.heading} · " + _("room {code}", code=room.room))
        sub_title = plain(
            _("round {round}", round=state.round + 1)
            + " · "
            + render.room_status(COMMON, state.status)
        )
        if (self.title, self.sub_title) != (title, sub_title):  # the header redraws on a change
            self.title, self.sub_title = title, sub_title
        self.query_one("#players", Static).update(self._players_text(state))
        self._tick()
        self._reload_chat(state)
        self._update_offer(state)
        self._update_banner(room)
        self._update_actions(state)
        if self._asking is not None and not in_live_game(state, self.me):
            asking, self._asking = self._asking, None
            asking.dismiss(False)  # the game ended meanwhile: nothing is left to give up

    def _tick(self) -> None:
        """The status line, with clocks run on to now (they move between events)."""
        room = self.room
        if room is not None and room.state is not None and self.ready:
            line = status_line(
                self.view, room, self.me, self.session.connected, self.session.clock_time()
            )
            self.query_one("#status", Static).update(plain_text(line))

    def _players_text(self, state: p.State) -> Text:
        text = Text()
        text.append(_("Players") + "\n", style="bold underline")
        room = self.room
        known = room.known if room is not None else {}
        note = roster_note(state, known)
        if note:
            text.append(plain(note) + "\n", style="italic")
        muted = {str(m) for m in state.muted}
        ids = [
            str(pl.get("player"))  # the order player_lines keeps
            for pl in sorted(state.players, key=lambda pl: pl.get("seat") or 0)
        ]
        for line, pid in zip(player_lines(state, self.me, self.view.roles(state)), ids):
            text.append("● ", style=line.color)
            text.append(
                plain(line.name) + (" " + _("(you)") if line.me else ""),
                style="bold" if line.me else "",
            )
            text.append(f"  {plain(line.role)}", style="dim")
            if pid == state.host:
                text.append("  ★ " + _("host"), style="bold magenta")
            if pid in muted:
                text.append("  " + _("muted"), style="dim red")
            if not line.connected:
                text.append("  " + _("offline"), style="bold red")
            if line.to_move:
                text.append("  ◀ " + _("to move"), style="bold yellow")
            text.append("\n")
        if state.spectators:
            watching = ", ".join(
                m.name
                + ("  ★ " + _("host") if m.host else "")
                + ("  " + _("muted") if m.muted else "")
                for m in members(state, known)
                if not m.seated
            )
            text.append(plain(_("Watching: {names}", names=watching)), style="dim")
        return text

    def _write_chat(self, entry: Message) -> None:
        ts = entry.get("ts")
        stamp = time.strftime("%H:%M", time.localtime(ts)) if isinstance(ts, int | float) else ""
        line = Text()
        line.append(f"{stamp} ", style="dim")
        event = entry.get(LOG_KEY)
        if isinstance(event, dict):  # a host event or an announcement, not chat
            room = self.room
            said = event_text(
                event, room.state if room else None, room.known if room else {}, self.me
            )
            style = "bold yellow" if event.get("type") == "announce" else "italic magenta"
            line.append(plain(said), style=style)
            self.query_one("#chat", RichLog).write(line)
            return
        line.append(plain(f"{entry.get('name')}: "), style="bold cyan")
        line.append(plain(entry.get("text")))
        self.query_one("#chat", RichLog).write(line)

    def _reload_chat(self, state: p.State) -> None:
        if len(state.chat) == self._chat_count:
            return
        log = self.query_one("#chat", RichLog)
        log.clear()
        for entry in state.chat:
            self._write_chat(entry)
        self._chat_count = len(state.chat)

    def _update_offer(self, state: p.State) -> None:
        bar = offer_bar(self.view, state, self.me)
        self.query_one("#offer").display = bar is not None
        if bar is not None:
            self.query_one("#offer-text", Label).update(plain_text(bar.text))
            for button_id in ("#offer-accept", "#offer-decline"):
                self.query_one(button_id).display = bar.can_answer

    def _update_banner(self, room: RoomCopy) -> None:
        bar = banner(self.view, room, self.me)
        self.query_one("#banner").display = bar is not None
        if bar is not None:
            self.query_one("#banner-text", Label).update(plain_text(bar.text))
            for key in AGAIN_KEYS:
                self.query_one(f"#{key}").display = bool(getattr(bar, key))

    def _update_actions(self, state: p.State) -> None:
        self.query_one("#btn-host-tools", Button).display = is_host(state, self.me)
        for a in action_states(self.view, state, self.me):
            button = self.query_one(f"#btn-{a.action.key}", Button)
            button.display = a.shown
            button.disabled = not a.enabled

    # ---- intents -----------------------------------------------------------------------
    def submit(self, request: Request | None) -> None:
        if request is not None:
            self.session.submit(request)

    @on(Board.Act)
    def _board_act(self, event: Board.Act) -> None:
        if not self.seated():
            self.notify(_("You are watching; spectators cannot play."), severity="warning")
            return
        self.submit(event.request)

    @on(Input.Submitted, "#chat-input")
    def _send_chat(self, event: Input.Submitted) -> None:
        room = self.room
        state, known = (room.state, room.known) if room else (None, {})
        line = typed(event.value, state, known, self.me, self._draft)
        if line.error is not None:
            self.notify(line.error, title=line.title, severity="warning")
        self.submit(line.request)
        if line.clear:
            event.input.value = ""

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        if button_id == "btn-help":
            event.stop()
            self.app.action_help()  # type: ignore[attr-defined]
        elif button_id == "btn-host-tools":
            event.stop()
            self.action_host_tools()
        elif button_id.startswith("btn-"):
            event.stop()
            self.action_act(button_id.removeprefix("btn-"))
        elif button_id in AGAIN_KEYS:
            event.stop()
            self.action_again(button_id)
        elif button_id in ("offer-accept", "offer-decline"):
            event.stop()
            state = self.room.state if self.room else None
            bar = offer_bar(self.view, state, self.me) if state else None
            self.submit(answer_request(bar, accept=button_id == "offer-accept"))

    def action_act(self, key: str) -> None:
        """An action's button or key: send its request if it applies now; resigning
        or leaving a game we play asks first."""
        state = self.room.state if self.room else None
        request = action_request(self.view, key, state, self.me) if state else None
        if request is None:
            self.app.bell()
            return
        ask = confirmation(key, state, self.me)
        if ask is None:
            self.submit(request)
        elif self._asking is None:
            self._asking = ConfirmScreen(ask)
            self.app.push_screen(self._asking, partial(self._confirmed, key))

    def _confirmed(self, key: str, yes: bool | None) -> None:
        """The question's answer: act only if it still applies."""
        self._asking = None
        state = self.room.state if self.room else None
        if yes and state is not None:
            self.submit(action_request(self.view, key, state, self.me))

    def action_again(self, key: str) -> None:
        self.submit(again_request(key))

    def action_answer(self, yes: bool) -> None:
        """``y`` / ``n``: answer the pending offer, else the question of another game."""
        room = self.room
        request = yes_no_request(self.view, room, self.me, yes) if room is not None else None
        if request is None:
            self.app.bell()
        self.submit(request)

    def action_host_tools(self) -> None:
        """``H``: the host's tools for this room (for the host only)."""
        room = self.room
        state = room.state if room else None
        if room is None or state is None or not is_host(state, self.me):
            self.notify(_("Only the room's host can do that."), severity="warning")
            return
        others = [m for m in members(state, room.known) if m.player != self.me]
        computers = computer_game(self.view) and state.status != "playing"
        self.app.push_screen(HostToolsScreen(state, others, computers), self.submit)

    def action_chat(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def action_board(self) -> None:
        self.query_one(Board).focus()
