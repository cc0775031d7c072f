"""The "Games" menu of the Tk window and the windows it opens: finished games
(history), replays, the leaderboard and profiles. Each entry is offered only when
the server announces the feature behind it (``welcome.features``), and has a key
(Ctrl+H, Ctrl+B, Ctrl+P) as well as the menu's own Alt+G / F10 reach.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from gridhall.client.history import ANALYSIS, HISTORY, RATINGS
from gridhall.client.tk.history import HistoryWindow
from gridhall.client.tk.ratings import LeaderboardWindow, ProfileWindow
from gridhall.client.tk.replay import ReplayWindow
from gridhall.protocol.i18n import _

if TYPE_CHECKING:
    from gridhall.client.tk.app import TkApp

MAX_REPLAYS = 8
"""Replay windows open at once; opening another closes the oldest."""


class Windows:
    """Opens, remembers and closes the windows of this issue's screens."""

    def __init__(self, app: TkApp) -> None:
        self.app = app
        self.me: str | None = None
        self.history: HistoryWindow | None = None
        self.leaderboard: LeaderboardWindow | None = None
        self.profiles: list[ProfileWindow] = []
        self.replays: list[ReplayWindow] = []
        self._opened = False
        root = app.root
        self.bar = tk.Menu(root, tearoff=False)
        self.menu = tk.Menu(self.bar, tearoff=False)
        self.bar.add_cascade(label=_("Games"), menu=self.menu, underline=0)
        self.menu.add_command(
            label=_("Finished games…"), accelerator="Ctrl+H", command=self.open_history, underline=0
        )
        self.menu.add_command(
            label=_("Leaderboard…"),
            accelerator="Ctrl+B",
            command=self.open_leaderboard,
            underline=0,
        )
        self.menu.add_command(
            label=_("My profile…"), accelerator="Ctrl+P", command=self.open_my_profile, underline=3
        )
        root.configure(menu=self.bar)
        for sequence, run in (
            ("<Control-h>", self.open_history),
            ("<Control-b>", self.open_leaderboard),
            ("<Control-p>", self.open_my_profile),
        ):
            root.bind(sequence, partial(_key, run), add="+")
        self._enable()

    # ---- what the server offers --------------------------------------------------------
    def has(self, feature: str) -> bool:
        return feature in self.app.features

    def welcomed(self, me: str | None) -> None:
        self.me = me
        self._enable()

    def _enable(self) -> None:
        for index, feature in ((0, HISTORY), (1, RATINGS), (2, RATINGS)):
            self.menu.entryconfigure(index, state="normal" if self.has(feature) else "disabled")

    def opening(self) -> None:
        """Once, after the first welcome: what ``gridhall --history / --replay ID`` asked."""
        if self._opened or not self.app.opening:
            return
        self._opened = True
        if self.app.opening.replay is not None:
            self.open_replay(self.app.opening.replay)
        elif self.app.opening.history:
            self.open_history()

    def _unavailable(self, feature: str) -> bool:
        if self.has(feature):
            return False
        self.app.notify(_("This server keeps no history or ratings (an older version)."))
        return True

    # ---- opening -----------------------------------------------------------------------
    def open_history(self) -> HistoryWindow | None:
        if self._unavailable(HISTORY):
            return None
        if self.history is not None and _alive(self.history):
            self.history.lift()
            self.history.focus_set()
            return self.history
        self.history = HistoryWindow(self.app.root, self.app.answers, self.open_replay, me=self.me)
        return self.history

    def open_replay(self, game_id: int) -> ReplayWindow | None:
        if self._unavailable(HISTORY):
            return None
        self.replays = [w for w in self.replays if _alive(w)]
        while len(self.replays) >= MAX_REPLAYS:
            self.replays.pop(0).close()
        window = ReplayWindow(
            self.app.root,
            self.app.answers,
            self.app.session.url,
            game_id,
            me=self.me,
            analysis=self.has(ANALYSIS),
        )
        self.replays.append(window)
        return window

    def open_leaderboard(self) -> LeaderboardWindow | None:
        if self._unavailable(RATINGS):
            return None
        if self.leaderboard is not None and _alive(self.leaderboard):
            self.leaderboard.lift()
            self.leaderboard.focus_set()
            return self.leaderboard
        self.leaderboard = LeaderboardWindow(
            self.app.root, self.app.answers, self.open_profile, me=self.me
        )
        return self.leaderboard

    def open_profile(self, player: str) -> ProfileWindow | None:
        if self._unavailable(RATINGS):
            return None
        self.profiles = [w for w in self.profiles if _alive(w)]
        while len(self.profiles) >= MAX_REPLAYS:
            self.profiles.pop(0).destroy()
        window = ProfileWindow(
            self.app.root, self.app.answers, player, self.open_replay, me=self.me
        )
        self.profiles.append(window)
        return window

    def open_my_profile(self) -> ProfileWindow | None:
        return self.open_profile(self.me) if self.me is not None else None


def _key(run: Callable[[], object], _event: object) -> str:
    run()
    return "break"


def _alive(window: tk.Toplevel) -> bool:
    with contextlib.suppress(tk.TclError):
        return bool(window.winfo_exists())
    return False
