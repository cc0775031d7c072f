"""The replay window: a finished game step by step on the game's own board, with
start / back / forward / end, a slider, autoplay at a chosen speed, the "k / N"
counter, the shareable browser link, and the engine's analysis for a game the server
analyses.

The frames and their meaning come from :mod:`client.replays` and the game's view
(shared with the terminal client), the boards are the game's live canvases
(:mod:`client.tk.replay_boards`); this window only lays them out and reacts to keys.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from functools import partial
from tkinter import ttk

from gridhall.client.history import players_text, replay_link, result_text
from gridhall.client.replays import SPEEDS, ReplayError, ReplayPlayer
from gridhall.client.tk.answers import Answers, Message
from gridhall.client.tk.replay_boards import ReplayBoards
from gridhall.client.tk.theme import size_window
from gridhall.client.views import view_for
from gridhall.protocol.i18n import _

MAX_STEPS = 200_000
"""Steps this window loads at most (a longer game is shown up to there)."""


class ReplayWindow(tk.Toplevel):
    """One finished game, loaded with ``get-replay`` (page by page) and replayed."""

    def __init__(
        self,
        master: tk.Misc,
        answers: Answers,
        url: str,
        game_id: int,
        *,
        me: str | None = None,
        analysis: bool = False,
    ) -> None:
        super().__init__(master)
        self.answers = answers
        self.game_id = game_id
        self.me = me
        self.link = replay_link(url, game_id)
        self.analysis = analysis
        self.player: ReplayPlayer | None = None
        self.progress: tuple[int, int] | None = None
        """How far the server's analysis is: positions done, of all."""
        self.board: ReplayBoards | None = None
        self._auto: str | None = None
        self.title(_("Replay of game {id}", id=game_id))
        self.configure(background="#2b2d31")

        self.heading = ttk.Label(self, style="Title.TLabel", padding=(8, 6))
        self.heading.pack(fill="x")
        self.players = ttk.Label(self, padding=(8, 0))
        self.players.pack(fill="x")
        self.body = ttk.Frame(self, padding=6)
        self.body.pack(fill="both", expand=True)
        self.status = ttk.Label(self.body, text=_("Loading the replay…"))
        self.status.pack(expand=True)
        self.note = ttk.Label(self, style="Status.TLabel", anchor="w")
        self.note.pack(fill="x", padx=6)

        self.slider = ttk.Scale(
            self, from_=0, to=0, orient="horizontal", command=self._slid, takefocus=False
        )
        self.slider.pack(fill="x", padx=8, pady=(6, 0))
        bar = ttk.Frame(self, padding=6)
        bar.pack(fill="x")
        self.buttons: dict[str, ttk.Button] = {}
        for key, text, run in (
            ("start", "⇤ " + _("Start"), partial(self.go, 0)),
            ("prev", "◀ " + _("Back"), self.back),
            ("next", _("Forward") + " ▶", self.forward),
            ("end", _("End") + " ⇥", self.to_end),
            ("play", _("Play"), self.toggle),
            ("slower", "−", partial(self.faster, False)),
        ):
            self.buttons[key] = ttk.Button(
                bar, text=text, command=run, width=0, takefocus=False
            )  # the window's keys do it
            self.buttons[key].pack(side="left", padx=2)
        self.speed = ttk.Label(bar, width=6, anchor="center")
        self.speed.pack(side="left")
        self.buttons["faster"] = ttk.Button(
            bar, text="+", width=0, takefocus=False, command=partial(self.faster, True)
        )
        self.buttons["faster"].pack(side="left", padx=2)
        self.counter = ttk.Label(bar, style="Title.TLabel", padding=(12, 0))
        self.counter.pack(side="left")
        # the analysis and the link on the row below: beside the steps and the speed
        # they did not fit the window in longer languages
        link_row = ttk.Frame(self, padding=(6, 0, 6, 6))
        link_row.pack(fill="x")
        self.buttons["copy"] = ttk.Button(link_row, text=_("Copy link"), command=self.copy_link)
        self.buttons["copy"].pack(side="right", padx=2)
        self.buttons["analyse"] = ttk.Button(link_row, text=_("Analyse"), command=self.analyse)
        self.buttons["marked"] = ttk.Button(
            link_row, text=_("Next marked move"), takefocus=False, command=self.next_marked
        )
        ttk.Label(link_row, text=_("Link to share:")).pack(side="left")
        self.link_text = tk.StringVar(self, value=self.link)
        ttk.Entry(link_row, textvariable=self.link_text, state="readonly").pack(
            side="left", fill="x", expand=True, padx=4
        )
        for sequence, run in (
            ("<Left>", self.back),
            ("<Right>", self.forward),
            ("<Home>", partial(self.go, 0)),
            ("<End>", self.to_end),
            ("<space>", self.toggle),
            ("<plus>", partial(self.faster, True)),
            ("<minus>", partial(self.faster, False)),
            ("<KeyPress-m>", self.next_marked),
        ):
            self.bind(sequence, partial(self._key, run))
        self.protocol("WM_DELETE_WINDOW", self.close)
        size_window(self, 900, 760)
        self.answers.pushed.append(self._pushed)
        self._ask(0)
        self.focus_set()

    # ---- loading ----------------------------------------------------------------------
    def _ask(self, start: int) -> None:
        request: Message = {"type": "get-replay", "game_id": self.game_id}
        if start:
            request["from"] = start
        self.answers.ask(request, self._page)

    def _page(self, answer: Message | None) -> None:
        """One page of steps arrived: show the game from the first page on, and ask
        for the next page while there is one (a long game grows as they come)."""
        if not self.winfo_exists():
            return
        if answer is None or answer.get("type") != "replay":
            if self.player is None:
                self.status.configure(text=_("This replay could not be loaded."))
            else:
                self.note.configure(text=_("The rest of this replay could not be loaded."))
            return
        if self.player is None:
            self.load(answer)
        else:
            self.player.extend(answer)
            self.slider.configure(to=self.player.count)
            self.show()
        more = answer.get("next")
        if (
            self.player is not None
            and isinstance(more, int)
            and more > 0
            and self.player.count < MAX_STEPS
        ):
            self._ask(more)

    def load(self, answer: Message) -> None:
        """Show a complete ``replay`` answer."""
        try:
            player = ReplayPlayer(answer)
            player.view()
        except ReplayError as exc:
            self.status.configure(text=_("This replay cannot be shown: {why}", why=str(exc)))
            return
        self.player = player
        self.status.destroy()
        view = view_for(player.game)
        self.heading.configure(text=_("{game} · game {id}", game=view.heading, id=self.game_id))
        self.players.configure(
            text=players_text(player.players) + " · " + result_text(answer, self.me)
        )
        self.board = ReplayBoards(self.body, player.game)
        self.board.pack(fill="both", expand=True)
        self.slider.configure(to=max(player.count, 0))
        if self.analysis and view.desc.analysis:
            self.buttons["analyse"].pack(side="right", padx=2)
        self.show()

    def close(self) -> None:
        if self._pushed in self.answers.pushed:
            self.answers.pushed.remove(self._pushed)
        self.destroy()

    # ---- moving -----------------------------------------------------------------------
    def _key(self, run: Callable[[], object], event: tk.Event) -> str | None:
        focus = self.focus_get()
        if isinstance(focus, tk.Entry | ttk.Entry):
            return None  # the link's text: keys move its cursor
        if event.keysym == "space" and isinstance(focus, tk.Button | ttk.Button):
            return None  # Space pressed the focused button (Copy link, Analyse)
        run()
        return "break"

    def go(self, index: int) -> None:
        if self.player is not None and self.player.go(index):
            self.show()

    def back(self) -> None:
        if self.player is not None:
            self.go(self.player.index - 1)

    def forward(self) -> None:
        if self.player is not None:
            self.go(self.player.index + 1)

    def to_end(self) -> None:
        if self.player is not None:
            self.go(self.player.count)

    def next_marked(self) -> None:
        """The next move the analysis marked (round to the first after the last)."""
        if self.player is not None and self.player.next_marked():
            self.show()

    def _slid(self, value: str) -> None:
        self.go(round(float(value)))

    def toggle(self) -> None:
        """Autoplay on or off (from the start again when at the end)."""
        if self.player is None:
            return
        self.player.toggle()
        self.show()
        self._schedule()

    def faster(self, up: bool) -> None:
        if self.player is not None:
            self.player.faster(up)
            self.show()

    def _schedule(self) -> None:
        if self._auto is not None:
            self.after_cancel(self._auto)
            self._auto = None
        if self.player is not None and self.player.playing:
            self._auto = self.after(int(self.player.interval * 1000), self._tick)

    def _tick(self) -> None:
        self._auto = None
        if self.player is not None and self.player.playing:
            self.player.forward()
            self.show()
            self._schedule()

    # ---- drawing ----------------------------------------------------------------------
    def show(self) -> None:
        """Draw the shown frame and update the counter, slider and texts."""
        player = self.player
        if player is None or self.board is None:
            return
        self.board.show_frame(player)
        self.counter.configure(text=player.counter())
        if round(float(self.slider.get())) != player.index:
            self.slider.set(player.index)
        self.buttons["play"].configure(text=_("Pause") if player.playing else _("Play"))
        self.speed.configure(text=_("{speed}×", speed=f"{SPEEDS[player.speed]:g}"))
        for key, enabled in (
            ("start", player.index > 0),
            ("prev", player.index > 0),
            ("next", player.index < player.count),
            ("end", player.index < player.count),
        ):
            self.buttons[key].state(["!disabled"] if enabled else ["disabled"])
        self.note.configure(text=self._note())

    def _note(self) -> str:
        player = self.player
        assert player is not None
        if player.index == 0:
            return _("The start: before the first move.")
        step = player.step()
        said = _("Move {n} by {name}", n=player.index, name=player.by_name())
        label = step.get("label")
        if isinstance(label, str) and label:
            said += f" · {label}"
        analysed = player.note_text()
        if analysed:
            said += " · " + analysed
        elif player.analysis_status in ("queued", "running"):
            done, total = self.progress or (None, None)
            said += " · " + (
                _("analysing… {done} / {total}", done=done, total=total)
                if total
                else _("analysing…")
            )
        marked = player.marked()
        if marked:
            said += " · " + _("Marked moves: {moves}", moves=", ".join(map(str, marked)))
        return said

    # ---- link, analysis ---------------------------------------------------------------
    def copy_link(self) -> None:
        """Put the browser link on the clipboard (anyone on the LAN can open it)."""
        self.clipboard_clear()
        self.clipboard_append(self.link)
        self.note.configure(text=_("Link copied: {link}", link=self.link))

    def analyse(self) -> None:
        """Ask the server's engine to go over this game."""
        self.buttons["analyse"].state(["disabled"])
        self.answers.ask({"type": "analyse", "game_id": self.game_id}, self._analysed)

    def _analysed(self, answer: Message | None) -> None:
        if not self.winfo_exists() or self.player is None:
            return
        if answer is None:
            self.buttons["analyse"].state(["!disabled"])
            self.note.configure(text=_("The analysis was refused."))
            return
        self._pushed(answer)

    def _pushed(self, answer: Message) -> None:
        """An ``analysis`` (asked, or pushed when the job finished)."""
        if answer.get("type") != "analysis" or self.player is None:
            return
        progress = answer.get("progress")
        if (
            answer.get("game_id") == self.game_id
            and isinstance(progress, list)
            and len(progress) == 2
            and all(isinstance(v, int) for v in progress)
        ):
            self.progress = (int(progress[0]), int(progress[1]))
        if self.player.take_analysis(answer):
            if self.player.analysis_status == "failed":
                self.buttons["analyse"].state(["!disabled"])
            if self.player.marked() and not self.buttons["marked"].winfo_manager():
                self.buttons["marked"].pack(side="right", padx=2)
            self.show()
