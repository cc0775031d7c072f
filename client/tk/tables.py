"""Tables (``ttk.Treeview`` with headings) whose columns fit their headings in any
language: a column is given at least the width its translated heading needs, so no
heading is cut ("Game nc" for "Game no.", longer words in Vietnamese)."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Sequence
from tkinter import font as tkfont
from tkinter import ttk

from gridhall.protocol.i18n import gettext as _

HEADING_PAD = 16
"""Pixels a heading keeps around its words (the heading's padding and separator)."""

Column = tuple[str, str, int]
"""(key, heading as an English message id, width in pixels)."""


def heading_font(widget: tk.Misc) -> tkfont.Font:
    """The font the theme draws table headings in."""
    name = ttk.Style(widget).lookup("Treeview.Heading", "font") or "TkHeadingFont"
    try:
        return tkfont.nametofont(str(name), root=widget)
    except tk.TclError:
        return tkfont.Font(root=widget, font=name)


def table(
    master: tk.Misc, columns: Sequence[Column], height: int, selectmode: str = "browse"
) -> ttk.Treeview:
    """A table of ``columns`` (headings translated), each at least as wide as its heading."""
    tree = ttk.Treeview(
        master,
        columns=[key for key, _label, _width in columns],
        show="headings",
        selectmode=selectmode,  # type: ignore[arg-type]
        height=height,
    )
    font = heading_font(tree)
    for key, label, width in columns:
        text = _(label)
        need = font.measure(text) + HEADING_PAD
        tree.heading(key, text=text)
        tree.column(key, width=max(width, need), minwidth=need, anchor="w")
    return tree
