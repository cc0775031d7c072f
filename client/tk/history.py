"""The history window: finished games, newest first, filtered by game and player
name, a page at a time ("More"); double-click or Enter opens a game's replay.

The pages and the rows' words come from :mod:`client.history` (shared with the
terminal client); this window lays them out.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

from gridhall.client.history import Filters, GamePages, game_row
from gridhall.client.tk.answers import Answers, Message
from gridhall.client.tk.tables import table
from gridhall.client.tk.theme import size_window
from gridhall.client.views import titles
from gridhall.protocol.i18n import N_, _, ngettext

OpenReplay = Callable[[int], object]
COLUMNS = (
    ("id", N_("Game no."), 70),
    ("game", N_("Game"), 110),
    ("players", N_("Players"), 230),
    ("result", N_("Result"), 220),
    ("when", N_("Ended"), 130),
    ("moves", N_("Moves"), 60),
    ("tags", N_("Notes"), 90),
)


class HistoryWindow(tk.Toplevel):
    """Lists finished games (``list-games``) and opens their replays."""

    def __init__(
        self,
        master: tk.Misc,
        answers: Answers,
        open_replay: OpenReplay,
        *,
        me: str | None = None,
        name: str = "",
    ) -> None:
        super().__init__(master)
        self.answers = answers
        self.open_replay = open_replay
        self.me = me
        self.pages = GamePages()
        self.title(_("Finished games"))
        self.configure(background="#2b2d31")
        body = ttk.Frame(self, padding=10)
        body.pack(fill="both", expand=True)

        filters = ttk.Frame(body)
        filters.pack(fill="x")
        self.games = {_("All games"): None, **{t: k for k, t in titles().items()}}
        self.game = tk.StringVar(self, value=_("All games"))
        self.name = tk.StringVar(self, value=name)
        ttk.Label(filters, text=_("Game")).pack(side="left")
        self.game_box = ttk.Combobox(
            filters, textvariable=self.game, state="readonly", values=list(self.games), width=16
        )
        self.game_box.pack(side="left", padx=(4, 12))
        self.game_box.bind("<<ComboboxSelected>>", lambda _e: self.search())
        ttk.Label(filters, text=_("Player")).pack(side="left")
        self.name_entry = ttk.Entry(filters, textvariable=self.name, width=20)
        self.name_entry.pack(side="left", padx=4)
        self.name_entry.bind("<Return>", lambda _e: self.search())
        self.search_button = ttk.Button(filters, text=_("Search"), command=self.search)
        self.search_button.pack(side="left", padx=4)

        self.table = table(body, COLUMNS, 16)
        self.table.pack(fill="both", expand=True, pady=6)
        self.table.bind("<Double-1>", lambda _e: self.open_selected())
        self.table.bind("<Return>", lambda _e: self.open_selected())

        bottom = ttk.Frame(body)
        bottom.pack(fill="x")
        self.more_button = ttk.Button(bottom, text=_("More"), command=self.more)
        self.more_button.pack(side="left")
        self.open_button = ttk.Button(bottom, text=_("Open replay"), command=self.open_selected)
        self.open_button.pack(side="left", padx=6)
        self.status = ttk.Label(bottom)
        self.status.pack(side="left", padx=10)
        self.bind("<Escape>", lambda _e: self.destroy())
        size_window(self, 960, 560)
        self.search()
        self.table.focus_set()

    # ---- asking -----------------------------------------------------------------------
    def filters(self) -> Filters:
        return Filters(game=self.games.get(self.game.get()), name=self.name.get())

    def search(self) -> None:
        """The first page under the filters now set (what was listed goes)."""
        self.table.delete(*self.table.get_children())
        self._send(self.pages.first(self.filters()))

    def more(self) -> None:
        """The next page, below the games listed."""
        request = self.pages.more()
        if request is not None:
            self._send(request)

    def _send(self, request: Message) -> None:
        self.status.configure(text=_("Loading…"))
        self.more_button.state(["disabled"])
        self.answers.ask(request, self._answer, sent=self.pages.sent)

    def _answer(self, answer: Message | None) -> None:
        if not self.winfo_exists():
            return
        if answer is None:
            self.pages.refused()
            self.status.configure(text=_("The server did not answer; try again."))
            self._buttons()
            return
        new = self.pages.take(answer)
        if new is None:
            return  # an answer to an older search
        for summary in new:
            row = game_row(summary, self.me)
            self.table.insert(
                "",
                "end",
                iid=str(row.game_id),
                values=(
                    row.game_id,
                    row.title,
                    row.players,
                    row.result,
                    row.when,
                    row.moves,
                    row.tags,
                ),
            )
        if not self.pages.games:
            self.status.configure(text=_("No finished games yet."))
        else:
            count = len(self.pages.games)
            self.status.configure(
                text=ngettext("{count} game listed", "{count} games listed", count, count=count)
            )
        self._buttons()

    def _buttons(self) -> None:
        more = self.pages.more_left and not self.pages.loading
        self.more_button.state(["!disabled"] if more else ["disabled"])
        if self.table.get_children() and not self.table.selection():
            first = self.table.get_children()[0]
            self.table.selection_set(first)
            self.table.focus(first)

    # ---- opening ----------------------------------------------------------------------
    def rows(self) -> list[int]:
        """The game ids listed, top to bottom (newest first)."""
        return [int(iid) for iid in self.table.get_children()]

    def open_selected(self) -> None:
        for iid in self.table.selection():
            self.open_replay(int(iid))
