"""A replay's boards in the Tk client: at each step, the game's own live canvases
(``client/tk/boards/<game>.py``) draw the frames the game's view gives
(:meth:`~gridhall.client.views.base.GameView.replay_frames`), read-only, with what the
game's replay adds. One board fills the window; several (a race's racers) stand side
by side; a board that is someone's (a racer's) stands under its player's name."""

from __future__ import annotations

import tkinter as tk
from tkinter import ttk
from typing import Any

from gridhall.client.messages import Request
from gridhall.client.replays import ReplayPlayer, frame_room
from gridhall.client.tk.boards import board_for
from gridhall.client.tk.boards.base import BoardCanvas, tk_color
from gridhall.client.views import view_for
from gridhall.client.views.common import ReplayFrame

ONE_BOARD = (640, 520)
"""A lone board's first size (it grows with the window)."""
SIDE_BY_SIDE = (320, 260)


def _nothing(_request: Request) -> None:
    """Replays send nothing: a click on a replayed board is not a move."""


class ReplayBoards(ttk.Frame):
    """The boards of one replay (see the module docstring)."""

    def __init__(self, master: tk.Misc, game: str, **kw: Any) -> None:
        super().__init__(master, **kw)
        self.view = view_for(game)
        self.board_class = board_for(game)
        self.boards: dict[str | None, tuple[ttk.Label | None, BoardCanvas]] = {}
        """Each board by whose it is (None: the one everybody sees), under its label."""

    def show_frame(self, player: ReplayPlayer) -> None:
        """Draw ``player``'s shown step."""
        frames = self.view.replay_frames(player)
        if [f.me for f in frames] != list(self.boards):
            self._build(frames)
        for frame in frames:
            label, canvas = self.boards[frame.me]
            if label is not None:
                label.configure(text=f"● {frame.title}", foreground=tk_color(frame.color))
            canvas.show_replay(frame_room(player, frame), frame)

    def _build(self, frames: list[ReplayFrame]) -> None:
        for label, canvas in self.boards.values():
            if label is not None:
                label.destroy()
            canvas.destroy()
        self.boards = {}
        several = len(frames) > 1
        width, height = SIDE_BY_SIDE if several else ONE_BOARD
        for col, frame in enumerate(frames):
            label = ttk.Label(self, style="Heading.TLabel") if frame.title else None
            if label is not None:
                label.grid(row=0, column=col, sticky="w", padx=4)
            canvas = self.board_class(self, _nothing, width=width, height=height)
            canvas.grid(row=1, column=col, sticky="nsew", padx=4 if several else 0)
            self.columnconfigure(col, weight=1)
            self.boards[frame.me] = (label, canvas)
        self.rowconfigure(1, weight=1)

    def canvases(self) -> dict[str | None, BoardCanvas]:
        """Each board's canvas, by whose board it is (what tests look at)."""
        return {owner: canvas for owner, (_label, canvas) in self.boards.items()}
