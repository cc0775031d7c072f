"""The leaderboard and profile windows: ratings per game (best first, "my rank"),
a co-op game's team records, and one player's ratings with their history drawn as a
line, recent games (-> replay) and records.

Everything shown is the server's data (names are text, never markup); rows are
matched to what was asked by the request's id (:mod:`client.tk.answers`).
"""

from __future__ import annotations

import math
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Any

from gridhall.client.ratings import (
    BOARD_GAMES,
    PAGE,
    RECORD_GAMES,
    RecordRow,
    board_request,
    my_rank,
    profile_records,
    rank_rows,
    rating_lines,
    recent_rows,
    record_rows,
)
from gridhall.client.tk.answers import Answers, Message
from gridhall.client.tk.tables import table
from gridhall.client.tk.theme import size_window
from gridhall.client.views import titles, view_for
from gridhall.protocol.i18n import N_, _

OpenProfile = Callable[[str], object]
OpenReplay = Callable[[int], object]
LINE = "#4aa3ff"


def record_values(row: RecordRow) -> tuple[str, ...]:
    """A team record as the cells of :data:`RECORD_COLUMNS`."""
    return (
        row.preset,
        row.no_guess,
        row.best,
        row.team,
        str(row.game_id or ""),
        row.games,
        row.wins,
        row.win_rate,
    )


RECORD_COLUMNS = (
    ("preset", N_("Board"), 110),
    ("no_guess", N_("No guessing"), 90),
    ("best", N_("Best time"), 80),
    ("team", N_("Team"), 220),
    ("game_id", N_("Game no."), 70),
    ("games", N_("Games"), 60),
    ("wins", N_("Wins"), 60),
    ("rate", N_("Win rate"), 70),
)
BOARD_COLUMNS = (
    ("rank", N_("Rank"), 60),
    ("name", N_("Player"), 260),
    ("rating", N_("Rating"), 80),
    ("games", N_("Games"), 70),
)
"""A provisional rating ends in "?" (:func:`client.ratings.rank_rows`)."""


def rating_text(value: float) -> str:
    return str(round(value))


def _table(master: tk.Misc, columns: tuple[tuple[str, str, int], ...], height: int) -> ttk.Treeview:
    made = table(master, columns, height)
    made.tag_configure("me", foreground="#ffd866")
    return made


class LeaderboardWindow(tk.Toplevel):
    """One game's ratings, best first, a page at a time; or a co-op game's team records."""

    def __init__(
        self,
        master: tk.Misc,
        answers: Answers,
        open_profile: OpenProfile,
        *,
        me: str | None = None,
        game: str = "",
    ) -> None:
        super().__init__(master)
        self.answers = answers
        self.open_profile = open_profile
        self.me = me
        self.offset = 0
        self.total = 0
        self._asked = 0
        self.players: dict[str, str] = {}
        """Row id -> the player's id (ids are the server's data, never Tk names)."""
        self.title(_("Leaderboard"))
        self.configure(background="#2b2d31")
        body = ttk.Frame(self, padding=10)
        body.pack(fill="both", expand=True)
        top = ttk.Frame(body)
        top.pack(fill="x")
        names = titles()
        self.games = {names[g]: g for g in BOARD_GAMES if g in names}
        self.game = tk.StringVar(self, value=names.get(game, next(iter(self.games))))
        ttk.Label(top, text=_("Game")).pack(side="left")
        box = ttk.Combobox(
            top, textvariable=self.game, state="readonly", width=16, values=list(self.games)
        )
        box.pack(side="left", padx=(4, 12))
        box.bind("<<ComboboxSelected>>", lambda _e: self.show_page(0))
        self.mine_button = ttk.Button(top, text=_("My rank"), command=self.my_rank)
        self.mine_button.pack(side="left", padx=2)
        self.prev_button = ttk.Button(
            top, text="◀ " + _("Previous page"), command=lambda: self.show_page(self.offset - PAGE)
        )
        self.prev_button.pack(side="left", padx=2)
        self.next_button = ttk.Button(
            top, text=_("Next page") + " ▶", command=lambda: self.show_page(self.offset + PAGE)
        )
        self.next_button.pack(side="left", padx=2)
        self.table = _table(body, BOARD_COLUMNS, 16)
        self.table.pack(fill="both", expand=True, pady=6)
        self.table.bind("<Double-1>", lambda _e: self.open_selected())
        self.table.bind("<Return>", lambda _e: self.open_selected())
        self.records = _table(body, RECORD_COLUMNS, 16)
        self.status = ttk.Label(body)
        self.status.pack(fill="x")
        self.bind("<Escape>", lambda _e: self.destroy())
        size_window(self, 760, 560)
        self.show_page(0)
        self.table.focus_set()

    def game_key(self) -> str:
        return self.games.get(self.game.get(), BOARD_GAMES[0] if BOARD_GAMES else "")

    def show_page(self, offset: int, around: str | None = None) -> None:
        """Ask for the rows from ``offset`` (or those around a player)."""
        game = self.game_key()
        self.offset = max(0, offset)
        request = board_request(game, around=around, offset=self.offset)
        self._asked += 1
        asked = self._asked
        self.status.configure(text=_("Loading…"))
        self.answers.ask(request, lambda answer: self._answer(asked, game, answer))

    def my_rank(self) -> None:
        if self.me is not None:
            self.show_page(0, around=self.me)

    def _answer(self, asked: int, game: str, answer: Message | None) -> None:
        if not self.winfo_exists() or asked != self._asked:
            return  # closed, or an answer to an earlier question
        if answer is None:
            self.status.configure(text=_("The server did not answer; try again."))
            return
        if game in RECORD_GAMES:
            self._show_records(answer)
        else:
            self._show_rows(answer)

    def _show_rows(self, answer: Message) -> None:
        self.records.pack_forget()
        if not self.table.winfo_manager():
            self.table.pack(fill="both", expand=True, pady=6, before=self.status)
        self.table.delete(*self.table.get_children())
        self.players = {}
        rows = rank_rows(answer, self.me)
        offset = answer.get("offset")
        self.offset = offset if isinstance(offset, int) else self.offset
        total = answer.get("total")
        self.total = total if isinstance(total, int) else len(rows)
        for n, row in enumerate(rows):
            iid = f"row{n}"
            if not row.bot:  # a computer's fixed rating has no profile
                self.players[iid] = row.player
            self.table.insert(
                "",
                "end",
                iid=iid,
                tags=("me",) if row.me else (),
                values=(row.rank, row.name, row.rating, row.games),
            )
            if row.me:
                self.table.selection_set(iid)
                self.table.see(iid)
        if not rows:
            self.status.configure(text=_("No rated games yet."))
        else:
            self.status.configure(text=my_rank(answer, self.me))
        self.prev_button.state(["!disabled"] if self.offset > 0 else ["disabled"])
        further = self.offset + len(rows) < self.total
        self.next_button.state(["!disabled"] if further else ["disabled"])

    def _show_records(self, answer: Message) -> None:
        self.table.pack_forget()
        if not self.records.winfo_manager():
            self.records.pack(fill="both", expand=True, pady=6, before=self.status)
        self.records.delete(*self.records.get_children())
        records = record_rows(list(answer.get("records") or []))
        for record in records:
            self.records.insert("", "end", values=record_values(record))
        self.status.configure(text="" if records else _("No finished games yet."))
        for button in (self.prev_button, self.next_button):
            button.state(["disabled"])

    def names(self) -> list[str]:
        """The names listed, top to bottom (what tests read)."""
        return [str(self.table.item(iid, "values")[1]) for iid in self.table.get_children()]

    def open_selected(self) -> None:
        for iid in self.table.selection():
            if self.players.get(iid):
                self.open_profile(self.players[iid])


class ProfileWindow(tk.Toplevel):
    """One player: ratings (with their history), recent games and records."""

    def __init__(
        self,
        master: tk.Misc,
        answers: Answers,
        player: str,
        open_replay: OpenReplay,
        *,
        me: str | None = None,
    ) -> None:
        super().__init__(master)
        self.answers = answers
        self.player = player
        self.open_replay = open_replay
        self.me = me
        self.profile: Message = {}
        self.games: dict[str, str] = {}
        """Row id of the ratings table -> the game it rates."""
        self.title(_("Player profile"))
        self.configure(background="#2b2d31")
        body = ttk.Frame(self, padding=10)
        body.pack(fill="both", expand=True)
        self.heading = ttk.Label(body, text=_("Loading…"), style="Title.TLabel")
        self.heading.pack(anchor="w")
        ttk.Label(body, text=_("Ratings"), style="Heading.TLabel").pack(anchor="w", pady=(8, 0))
        self.ratings = _table(
            body,
            (
                ("game", N_("Game"), 140),
                ("rating", N_("Rating"), 80),
                ("games", N_("Games"), 70),
                ("wins", N_("Wins"), 70),
                ("change", N_("Last change"), 100),
            ),
            3,
        )
        self.ratings.pack(fill="x")
        self.ratings.bind("<<TreeviewSelect>>", lambda _e: self.draw_history())
        self.chart = tk.Canvas(body, height=140, background="#1e1f22", highlightthickness=0)
        self.chart.pack(fill="x", pady=6)
        self.chart.bind("<Configure>", lambda _e: self.draw_history())
        ttk.Label(body, text=_("Recent games"), style="Heading.TLabel").pack(anchor="w")
        self.recent = _table(
            body,
            (
                ("id", N_("Game no."), 70),
                ("game", N_("Game"), 110),
                ("players", N_("Players"), 220),
                ("result", N_("Result"), 200),
                ("when", N_("Ended"), 130),
            ),
            6,
        )
        self.recent.pack(fill="both", expand=True)
        self.recent.bind("<Double-1>", lambda _e: self.open_selected())
        self.recent.bind("<Return>", lambda _e: self.open_selected())
        teams = ", ".join(view_for(g).heading for g in RECORD_GAMES)
        ttk.Label(body, text=_("{game} records", game=teams), style="Heading.TLabel").pack(
            anchor="w", pady=(8, 0)
        )
        self.records = _table(body, RECORD_COLUMNS, 3)
        self.records.pack(fill="x")
        self.bind("<Escape>", lambda _e: self.destroy())
        size_window(self, 820, 720)
        self.answers.ask({"type": "get-profile", "player": player}, self._answer)
        self.recent.focus_set()

    def _answer(self, answer: Message | None) -> None:
        if not self.winfo_exists():
            return
        if answer is None:
            self.heading.configure(text=_("This profile could not be loaded."))
            return
        self.profile = answer
        name = str(answer.get("name") or "?")
        self.heading.configure(text=name + (" " + _("(you)") if self.player == self.me else ""))
        names = titles()
        for line in rating_lines(answer):
            iid = f"game{len(self.games)}"
            self.games[iid] = line.game
            self.ratings.insert(
                "",
                "end",
                iid=iid,
                values=(
                    names.get(line.game, line.game),
                    line.rating,
                    line.games,
                    line.wins,
                    line.last_change,
                ),
            )
        if self.ratings.get_children():
            self.ratings.selection_set(self.ratings.get_children()[0])
        for row in recent_rows(answer, self.player):
            self.recent.insert(
                "",
                "end",
                iid=str(row.game_id),
                values=(row.game_id, row.title, row.players, row.result, row.when),
            )
        for record in profile_records(answer):
            self.records.insert("", "end", values=record_values(record))
        self.draw_history()

    def history(self) -> list[float]:
        """The selected game's ratings over time, oldest first."""
        ratings = self.profile.get("ratings")
        chosen = self.ratings.selection()
        if not isinstance(ratings, dict) or not chosen:
            return []
        entry = ratings.get(self.games.get(chosen[0], ""))
        points = entry.get("history") if isinstance(entry, dict) else None
        out: list[tuple[float, float]] = []
        for point in points or []:
            if (
                isinstance(point, list)
                and len(point) >= 2
                and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                    for v in point[:2]
                )
            ):
                out.append((float(point[0]), float(point[1])))
        return [rating for _when, rating in sorted(out)]

    def draw_history(self) -> None:
        """The rating history as a line, lowest and highest labelled."""
        c = self.chart
        c.delete("all")
        values = self.history()
        w, h = max(c.winfo_width(), 40), max(c.winfo_height(), 40)
        if len(values) < 2:
            c.create_text(
                w / 2,
                h / 2,
                fill="#9aa0a6",
                tags="empty",
                text=_("Not enough rated games for a history yet."),
            )
            return
        lo, hi = min(values), max(values)
        span = (hi - lo) or 1.0
        pad = 18
        step = (w - 2 * pad - 40) / (len(values) - 1)
        pts: list[Any] = []
        for i, v in enumerate(values):
            pts += [pad + 40 + i * step, h - pad - (v - lo) / span * (h - 2 * pad)]
        c.create_line(*pts, fill=LINE, width=2, tags="line")
        c.create_text(pad, pad, text=rating_text(hi), fill="#9aa0a6", anchor="w")
        c.create_text(pad, h - pad, text=rating_text(lo), fill="#9aa0a6", anchor="w")

    def open_selected(self) -> None:
        for iid in self.recent.selection():
            self.open_replay(int(iid))
