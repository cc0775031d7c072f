"""The room screen: board, players, chat, status line, actions and banners."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Static

from gridhall.client.session import RoomCopy
from gridhall.client.tui.boards import BOARDS, Board, LinkWidget
from gridhall.client.views import gomoku, linkmatch, minesweeper
from gridhall.client.views.common import GAME_TITLES, Message, names, player_lines, result_text

ACTIONS: dict[str, list[tuple[str, str]]] = {
    "gomoku": [("btn-draw", "Offer draw"), ("btn-takeback", "Take back")],
    "minesweeper": [("btn-hint", "Hint")],
    "linkmatch": [("btn-start", "Start"), ("btn-hint", "Hint"), ("btn-shuffle", "Shuffle")],
}
COMMON_ACTIONS = [("btn-resign", "Resign"), ("btn-help", "Help"), ("btn-leave", "Leave room")]


class RoomScreen(Screen[None]):
    """Everything about the room we are in; redrawn from the session's copy."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "offer('draw')", "Draw?", show=False),
        Binding("t", "offer('takeback')", "Take back", show=False),
        Binding("R", "resign", "Resign"),
        Binding("p", "again", "Play again", show=False),
        Binding("y", "agree", "Agree", show=False),
        Binding("n", "decline", "Decline", show=False),
        Binding("h", "intent('hint')", "Hint", show=False),
        Binding("s", "intent('shuffle')", "Shuffle", show=False),
        Binding("g", "start", "Start", show=False),
        Binding("slash", "chat", "Chat"),
        Binding("escape", "board", "Board", show=False),
        Binding("ctrl+l", "leave", "Leave"),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game
        self._chat_count = -1

    # ---- layout ----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="room-main"):
            with VerticalScroll(id="board-pane"):
                yield BOARDS[self.game](id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield RichLog(id="chat", wrap=True, markup=False, auto_scroll=True)
                yield Input(placeholder="chat… (enter sends)", id="chat-input", max_length=500)
        yield Static(id="status")
        with Horizontal(id="offer", classes="bar"):
            yield Label(id="offer-text")
            yield Button("Accept", id="offer-accept", variant="success")
            yield Button("Decline", id="offer-decline", variant="error")
        with Horizontal(id="banner", classes="bar"):
            yield Label(id="banner-text")
            yield Button("Play again", id="again", variant="primary")
            yield Button("Agree", id="agree", variant="success")
            yield Button("Decline", id="decline", variant="error")
        with Horizontal(id="actions"):
            for button_id, label in ACTIONS[self.game] + COMMON_ACTIONS:
                yield Button(label, id=button_id, classes="action")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#offer").display = False
        self.query_one("#banner").display = False
        self.query_one(Board).focus()
        self.set_interval(1.0, self._tick)
        self.redraw()

    # ---- reading the session -----------------------------------------------------------
    @property
    def session(self) -> Any:
        return self.app.session  # type: ignore[attr-defined]

    @property
    def copy(self) -> RoomCopy | None:
        return self.session.room  # type: ignore[no-any-return]

    @property
    def me(self) -> str | None:
        return self.session.player  # type: ignore[no-any-return]

    def seated(self) -> bool:
        state = self.copy.state if self.copy else {}
        return any(p.get("player") == self.me for p in state.get("players") or [])

    # ---- server messages ---------------------------------------------------------------
    def handle(self, msg: Message) -> None:
        """React to one server message (already applied to the session's copy)."""
        kind = msg.get("type")
        state = self.copy.state if self.copy else {}
        who = names(state)
        sender = msg.get("from") or msg.get("player")
        sender_name = msg.get("name") or who.get(str(sender), "Someone")
        if kind == "chat":
            self._write_chat(msg)
            self._chat_count += 1
            return
        own_link = kind == "moved" and msg.get("by") == self.me and self.game == "linkmatch"
        if own_link and (msg.get("move") or {}).get("action") == "link":
            self.query_one(LinkWidget).flash_path()
        if kind == "game-over":
            self.notify(result_text(state, self.me), title="Game over", timeout=6)
        elif kind == "play-again" and sender != self.me:
            self.notify(f"{sender_name} wants another game: press Agree (y) or Decline (n).")
        elif kind == "decline-again" and sender != self.me:
            self.notify(f"{sender_name} declined another game.", severity="warning")
        elif kind == "offer" and sender != self.me:
            self.notify(gomoku.offer_text(state, self.me) or "An offer arrived.")
        elif kind == "answer" and sender != self.me:
            verdict = "accepted" if msg.get("accept") else "declined"
            self.notify(f"{sender_name} {verdict} the {msg.get('kind')} request.")
        elif kind == "resigned" and sender != self.me:
            self.notify(f"{sender_name} resigned.")
        elif kind == "notice":
            data = msg.get("data")
            self.notify(
                linkmatch.notice_text(
                    str(msg.get("event")), data if isinstance(data, dict) else {}, who
                )
            )
        elif kind == "joined" and sender and sender != self.me:
            self.notify(f"{sender_name} joined as {msg.get('role', 'player')}.")
        self.redraw()

    def redraw(self) -> None:
        """Repaint everything from the session's copy of the room."""
        copy = self.copy
        if copy is None or not copy.state:
            return
        state = copy.state
        board = self.query_one(Board)
        board.show(copy, self.me)
        title = GAME_TITLES.get(self.game, self.game)
        self.title = f"{title} · room {copy.room}"
        self.sub_title = f"round {state.get('round', 0) + 1} · {state.get('status')}"
        self.query_one("#players", Static).update(self._players_text(state))
        self.query_one("#status", Static).update(self._status_text(copy))
        self._reload_chat(state)
        self._update_offer(state)
        self._update_banner(copy)
        self._update_actions(state)

    def _tick(self) -> None:
        """Keep clocks moving between server events."""
        copy = self.copy
        if copy is not None and copy.state.get("status") == "playing":
            view = copy.state.get("view") or {}
            if "elapsed" in view:
                view["elapsed"] = float(view["elapsed"]) + 1.0
            if view.get("starts_in"):
                view["starts_in"] = max(0.0, float(view["starts_in"]) - 1.0)
            self.query_one("#status", Static).update(self._status_text(copy))

    def _players_text(self, state: Message) -> Text:
        view = state.get("view") or {}
        roles = dict(view.get("colors") or {}) if self.game == "gomoku" else {}
        if self.game == "linkmatch":
            roles = {p: f"{n} left" for p, n in (view.get("progress") or {}).items()}
        elif self.game == "minesweeper":
            roles = minesweeper.roles(state)
        text = Text()
        text.append("Players\n", style="bold underline")
        for line in player_lines(state, self.me, roles):
            text.append("● ", style=line.color)
            text.append(line.name + (" (you)" if line.me else ""), style="bold" if line.me else "")
            text.append(f"  {line.role}", style="dim")
            if not line.connected:
                text.append("  offline", style="bold red")
            if line.to_move:
                text.append("  ◀ to move", style="bold yellow")
            text.append("\n")
        spectators = state.get("spectators") or []
        if spectators:
            text.append(f"Watching: {', '.join(str(s) for s in spectators)}", style="dim")
        return text

    def _status_text(self, copy: RoomCopy) -> str:
        state = copy.state
        if self.game == "gomoku":
            line = gomoku.status_text(state, self.me)
        elif self.game == "minesweeper":
            line = minesweeper.status_text(state, self.me, copy.last_actions)
        else:
            line = linkmatch.status_text(state, self.me)
        if not self.seated():
            line = "Watching · " + line
        if not self.session.connected:
            line = "⚠ reconnecting… · " + line
        return line

    def _write_chat(self, entry: Message) -> None:
        ts = entry.get("ts")
        stamp = time.strftime("%H:%M", time.localtime(ts)) if isinstance(ts, int | float) else ""
        line = Text()
        line.append(f"{stamp} ", style="dim")
        line.append(f"{entry.get('name')}: ", style="bold cyan")
        line.append(str(entry.get("text")))
        self.query_one("#chat", RichLog).write(line)

    def _reload_chat(self, state: Message) -> None:
        chat = state.get("chat") or []
        if len(chat) == self._chat_count:
            return
        log = self.query_one("#chat", RichLog)
        log.clear()
        for entry in chat:
            self._write_chat(entry)
        self._chat_count = len(chat)

    def _update_offer(self, state: Message) -> None:
        bar = self.query_one("#offer")
        pending = (state.get("view") or {}).get("pending")
        text = gomoku.offer_text(state, self.me) if self.game == "gomoku" else None
        bar.display = bool(text) and state.get("status") == "playing"
        if text:
            self.query_one("#offer-text", Label).update(text)
            mine = isinstance(pending, dict) and pending.get("from") == self.me
            for button_id in ("#offer-accept", "#offer-decline"):
                self.query_one(button_id).display = not mine and self.seated()

    def _update_banner(self, copy: RoomCopy) -> None:
        state = copy.state
        banner = self.query_one("#banner")
        over = state.get("status") == "over"
        banner.display = over
        if not over:
            return
        who = names(state)
        headline = result_text(state, self.me)
        asked = [who.get(p, "?") for p in copy.again if p != self.me]
        if self.me in copy.again:
            headline += "  Waiting for the others to agree…"
        elif asked:
            headline += f"  {', '.join(asked)} want{'s' if len(asked) == 1 else ''} another game."
        if copy.declined:
            headline += f"  {', '.join(who.get(p, '?') for p in copy.declined)} declined."
        self.query_one("#banner-text", Label).update(headline)
        seated = self.seated()
        self.query_one("#again").display = seated and not asked and self.me not in copy.again
        self.query_one("#agree").display = seated and bool(asked) and self.me not in copy.again
        self.query_one("#decline").display = seated and bool(asked) and self.me not in copy.again

    def _update_actions(self, state: Message) -> None:
        playing = state.get("status") == "playing"
        seated = self.seated()
        for button in self.query("#actions Button"):
            if button.id in ("btn-help", "btn-leave"):
                continue
            if button.id == "btn-start":
                button.display = (
                    state.get("status") == "waiting" and state.get("creator") == self.me
                )
            else:
                button.display = seated
                button.disabled = not playing

    # ---- intents -----------------------------------------------------------------------
    @on(Board.Act)
    def _board_act(self, event: Board.Act) -> None:
        if not self.seated():
            self.notify("You are watching; spectators cannot play.", severity="warning")
            return
        self.session.submit(event.type, **event.fields)

    @on(Input.Submitted, "#chat-input")
    def _send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.session.submit("chat", text=text[:500])
        event.input.value = ""

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        handlers = {
            "btn-draw": lambda: self.action_offer("draw"),
            "btn-takeback": lambda: self.action_offer("takeback"),
            "btn-resign": self.action_resign,
            "btn-help": self.app.action_help,  # type: ignore[attr-defined]
            "btn-leave": self.action_leave,
            "btn-start": self.action_start,
            "btn-hint": lambda: self.action_intent("hint"),
            "btn-shuffle": lambda: self.action_intent("shuffle"),
            "again": self.action_again,
            "agree": self.action_agree,
            "decline": self.action_decline,
            "offer-accept": lambda: self._answer(True),
            "offer-decline": lambda: self._answer(False),
        }
        handler = handlers.get(event.button.id or "")
        if handler:
            event.stop()
            handler()

    def _answer(self, accept: bool) -> None:
        pending = ((self.copy.state if self.copy else {}).get("view") or {}).get("pending")
        if pending:
            self.session.submit("answer", kind=pending.get("kind"), accept=accept)

    def action_offer(self, kind: str) -> None:
        if self.game == "gomoku":
            self.session.submit("offer", kind=kind)

    def action_intent(self, action: str) -> None:
        if self.game == "linkmatch" or (self.game == "minesweeper" and action == "hint"):
            self.session.submit("move", move={"action": action})

    def action_start(self) -> None:
        if self.game == "linkmatch":
            self.session.submit("start")

    def action_resign(self) -> None:
        self.session.submit("resign")

    def action_again(self) -> None:
        self.session.submit("play-again")

    def action_agree(self) -> None:
        self.session.submit("agree-again")

    def action_decline(self) -> None:
        self.session.submit("decline-again")

    def action_leave(self) -> None:
        self.session.submit("leave-room")

    def action_chat(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def action_board(self) -> None:
        self.query_one(Board).focus()
