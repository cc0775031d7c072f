"""The replay screen: a finished game step by step, with autoplay and a shareable link.

The boards are the game's own live widgets (``client/tui/boards/<game>.py``), drawing
the frames the game's view gives (:meth:`~gridhall.client.views.base.GameView.replay_frames`)
read-only, with what the game's replay adds; several (a race's racers) stand side by
side, a board that is someone's (a racer's) framed and titled with its player's name."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widgets import Button, Footer, Input, Static

from gridhall.client.history import ANALYSIS, game_row, replay_link
from gridhall.client.messages import Refused
from gridhall.client.plain import plain
from gridhall.client.replays import SPEEDS, ReplayError, ReplayPlayer, frame_room
from gridhall.client.tui.asking import AskingScreen
from gridhall.client.tui.boards import Board, board_for
from gridhall.client.tui.text import text, translate_bindings
from gridhall.client.views import view_for
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader

Message = dict[str, Any]


class ReplayScreen(AskingScreen):
    """Asks for game ``game_id``'s replay, then shows it frame by frame."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", N_("Back")),
        Binding("right", "step(1)", N_("Forward")),
        Binding("home", "jump('start')", N_("Start")),
        Binding("end", "jump('end')", N_("End")),
        Binding("g", "goto", N_("Go to move")),
        Binding("space", "play", N_("Autoplay")),
        Binding("plus,equals_sign", "speed(True)", N_("Faster"), show=False),
        Binding("minus", "speed(False)", N_("Slower"), show=False),
        Binding("a", "analyse", N_("Analyse"), show=False),
        Binding("m", "next_marked", N_("Next marked move"), show=False),
        Binding("c", "copy_link", N_("Copy link"), show=False),
        Binding("escape", "close", N_("Close")),
    ]

    def __init__(self, game_id: int) -> None:
        super().__init__()
        translate_bindings(self)
        self.game_id = int(game_id)
        self.player: ReplayPlayer | None = None
        self._asked: int | None = None
        self._analysis_asked: int | None = None
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        yield Static(id="replay-info")
        yield Static(id="replay-link")
        with VerticalScroll(id="replay-pane"):
            yield Static(id="replay-message")
            yield Horizontal(id="replay-board")
        yield Static(id="replay-note")
        with Horizontal(id="replay-bar"):
            yield Static(id="replay-step")
            yield Button("|◀", id="replay-start")
            yield Button("◀", id="replay-prev")
            yield Button("▶", id="replay-next")
            yield Button("▶|", id="replay-end")
            yield Button(_("Play"), id="replay-play")
            yield Button(_("Analyse"), id="replay-analyse")
            yield Input(placeholder=_("move number, enter"), id="replay-goto", type="integer")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = _("Replay of game {id}", id=self.game_id)
        self.query_one("#replay-goto", Input).display = False
        self.query_one("#replay-analyse", Button).display = False
        self.query_one("#replay-message", Static).update(_("Loading…"))
        self._asked = await self.ask({"type": "get-replay", "game_id": self.game_id})

    # ---- answers -----------------------------------------------------------------------
    def answer(self, kind: str, data: Message) -> None:
        if kind == "replay" and data.get("game_id") == self.game_id:
            if self.player is None and data.get("re") == self._asked:
                self._start(data)
            elif self.player is not None and data.get("re") == self._asked:
                self._more_steps(data)
        elif kind == "analysis" and self.player is not None and self.player.take_analysis(data):
            self.redraw()

    def refused(self, refusal: Refused) -> None:
        if refusal.request == "get-replay" and self.player is None:
            self.query_one("#replay-message", Static).update(text(refusal.message))

    def _start(self, data: Message) -> None:
        try:
            self.player = ReplayPlayer(data)
        except (ReplayError, TypeError, ValueError) as exc:
            self.query_one("#replay-message", Static).update(text(str(exc)))
            return
        me = self.session.player
        row = game_row(data, me)
        info = f"{row.title} · {row.players} · {row.result} · {row.when}"
        self.query_one("#replay-info", Static).update(text(info))
        link = replay_link(self.session.url, self.game_id)
        self.query_one("#replay-link", Static).update(
            Text(_("Share: {link}", link=link), style="dim")
        )
        self.query_one("#replay-analyse", Button).display = (
            view_for(self.player.game).desc.analysis and ANALYSIS in self.session.features
        )
        self.player.go(self.player.count)  # open on the finished board, as it ended
        self._ask_more(data)
        self.redraw()

    def _ask_more(self, data: Message) -> None:
        nxt = data.get("next")
        if isinstance(nxt, int):
            self.run_worker(self._fetch(nxt), exclusive=False)

    async def _fetch(self, start: int) -> None:
        self._asked = await self.ask({"type": "get-replay", "game_id": self.game_id, "from": start})

    def _more_steps(self, data: Message) -> None:
        """A later page of a long game's steps."""
        assert self.player is not None
        at_end = self.player.index == self.player.count
        self.player.extend(data)
        if at_end:
            self.player.go(self.player.count)
        self._ask_more(data)
        self.redraw()

    # ---- drawing -----------------------------------------------------------------------
    def redraw(self) -> None:
        player = self.player
        if player is None:
            return
        message = self.query_one("#replay-message", Static)
        try:
            self.draw_boards(player)
            message.display = False
        except ReplayError as exc:
            message.update(text(str(exc)))
            message.display = True
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
            message.update(
                text(_("This replay cannot be shown: {problem}", problem=repr(exc)[:200]))
            )
            message.display = True
        step = player.counter()
        by = player.by_name()
        line = step + (f" · {by}" if by else "")
        label = player.step().get("label")
        if isinstance(label, str) and label:
            line += f" · {label}"
        if player.playing:
            line += " · " + _("autoplay {speed}/s", speed=f"{SPEEDS[player.speed]:g}")
        self.query_one("#replay-step", Static).update(text(line))
        note = player.note_text()
        if not note and player.analysis_status in ("queued", "running"):
            note = _("Analysing…")
        elif not note and player.analysis_status == "failed":
            note = _("The analysis failed.")
        if player.analysis_status == "done":
            marked = ", ".join(str(n) for n in player.marked()) or _("none")
            note = (note + "  " if note else "") + _("Marked moves: {moves}", moves=marked)
        self.query_one("#replay-note", Static).update(text(note))
        play = self.query_one("#replay-play", Button)
        label = _("Pause") if player.playing else _("Play")
        if str(play.label) != label:
            play.label = label
            play.refresh(layout=True)  # its width follows the new word (Play, Pause)

    def draw_boards(self, player: ReplayPlayer) -> None:
        """The game's boards at the shown step (mounted anew when whose they are
        changes)."""
        frames = view_for(player.game).replay_frames(player)
        pane = self.query_one("#replay-board", Horizontal)
        boards = list(pane.query(Board))
        if [b.frame.me if b.frame else None for b in boards] != [f.me for f in frames]:
            pane.remove_children()
            boards = [board_for(player.game)() for _ in frames]
            for board, frame in zip(boards, frames, strict=True):
                board.frame = frame  # whose board it is, before it mounts
            pane.mount_all(boards)
        for board, frame in zip(boards, frames, strict=True):
            board.show_replay(frame_room(player, frame), frame)
            if frame.title:
                board.border_title = Text(plain(frame.title), style=frame.color)
                board.styles.border = ("round", frame.color if frame.active else "#555555")

    # ---- actions -----------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        if self.player is not None and self.player.go(self.player.index + delta):
            self.redraw()

    def action_jump(self, where: str) -> None:
        if self.player is not None:
            self.player.go(0 if where == "start" else self.player.count)
            self.redraw()

    def action_next_marked(self) -> None:
        if self.player is not None and self.player.next_marked():
            self.redraw()
        else:
            self.app.bell()

    def action_goto(self) -> None:
        box = self.query_one("#replay-goto", Input)
        box.display = True
        box.value = ""
        box.focus()

    @on(Input.Submitted, "#replay-goto")
    def _goto(self, event: Input.Submitted) -> None:
        event.input.display = False
        if self.player is not None and event.value.strip().lstrip("-").isdigit():
            self.player.go(int(event.value))
            self.redraw()

    def action_play(self) -> None:
        if self.player is None:
            return
        self.player.toggle()
        self._schedule()
        self.redraw()

    def action_speed(self, up: bool) -> None:
        if self.player is not None:
            self.player.faster(up)
            self._schedule()
            self.redraw()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.player is not None and self.player.playing:
            self._timer = self.set_interval(self.player.interval, self._tick)

    def _tick(self) -> None:
        if self.player is None:
            return
        self.player.forward()
        if not self.player.playing:
            self._schedule()
        self.redraw()

    async def action_analyse(self) -> None:
        player = self.player
        if (
            player is None
            or not view_for(player.game).desc.analysis
            or ANALYSIS not in self.session.features
        ):
            self.app.bell()
            return
        player.analysis_status = "queued"
        self.redraw()
        self._analysis_asked = await self.ask({"type": "analyse", "game_id": self.game_id})

    def action_copy_link(self) -> None:
        link = replay_link(self.session.url, self.game_id)
        self.app.copy_to_clipboard(link)
        self.notify(_("Copied: {link}", link=link), timeout=4)

    def action_close(self) -> None:
        self.dismiss()

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        event.stop()
        match event.button.id:
            case "replay-start":
                self.action_jump("start")
            case "replay-end":
                self.action_jump("end")
            case "replay-prev":
                self.action_step(-1)
            case "replay-next":
                self.action_step(1)
            case "replay-play":
                self.action_play()
            case "replay-analyse":
                await self.action_analyse()
