"""What the Tk windows show, read from the widget tree for the language checks.

:func:`shown` walks every window (the main one and each open Toplevel) and returns two
things: every text a widget holds (labels, buttons, window titles, menu entries, table
headings and rows, list choices, text boxes, the texts drawn on canvases), and the
widgets that show their text cut short: a widget given less width than its text asks
for, one that runs past its window's edge, a table heading wider than its column.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Iterator
from tkinter import font as tkfont
from tkinter import ttk

HEADING_PAD = 12
"""Pixels a Treeview heading keeps around its words (its padding and the separator)."""


def widgets(root: tk.Misc) -> Iterator[tk.Misc]:
    """``root`` and every widget under it, windows and menus included."""
    yield root
    for child in root.winfo_children():
        yield from widgets(child)


def _menu(menu: tk.Menu) -> list[str]:
    end = menu.index("end")
    out = []
    for i in range(int(end) + 1 if end is not None else 0):
        if menu.type(i) in ("command", "cascade", "checkbutton", "radiobutton"):
            out += [str(menu.entrycget(i, "label")), str(menu.entrycget(i, "accelerator"))]
    return out


def _tree(tree: ttk.Treeview) -> list[str]:
    out = [str(tree.heading(c, "text")) for c in tree["columns"]]

    def rows(parent: str) -> Iterator[str]:
        for iid in tree.get_children(parent):
            yield str(tree.item(iid, "text"))
            yield from (str(v) for v in tree.item(iid, "values"))
            yield from rows(iid)

    return out + list(rows(""))


def holds(w: tk.Misc) -> list[str]:
    """Everything widget ``w`` would show, in full."""
    out: list[str] = []
    if isinstance(w, tk.Tk | tk.Toplevel):
        out.append(str(w.title()))
    if isinstance(w, tk.Menu):
        return out + _menu(w)
    if isinstance(w, ttk.Treeview):
        return out + _tree(w)
    if isinstance(w, ttk.Combobox):
        return [*out, str(w.get()), *(str(v) for v in w.cget("values"))]
    if isinstance(w, tk.Text):
        return [*out, str(w.get("1.0", "end"))]
    if isinstance(w, tk.Listbox):
        return out + [str(v) for v in w.get(0, "end")]
    if isinstance(w, tk.Canvas):
        return out + [
            str(w.itemcget(item, "text")) for item in w.find_all() if w.type(item) == "text"
        ]
    if isinstance(w, ttk.Entry | tk.Entry):  # ttk.Spinbox too: what was typed or set
        return [*out, str(w.get())]
    text = own_text(w)
    return [*out, text] if text else out


def own_text(w: tk.Misc) -> str:
    """The ``-text`` of a widget that has one (Tk would read ``text`` as an abbreviation
    of ``textvariable`` where there is none)."""
    with contextlib.suppress(tk.TclError):
        if "text" in w.keys():
            return str(w.cget("text"))
    return ""


def _heading_cuts(tree: ttk.Treeview) -> list[str]:
    style = ttk.Style(tree)
    name = style.lookup("Treeview.Heading", "font") or "TkHeadingFont"
    font = (
        tkfont.nametofont(name)
        if isinstance(name, str) and " " not in name
        else tkfont.Font(font=name)
    )
    cut = []
    for column in tree["columns"]:
        text = str(tree.heading(column, "text"))
        width = int(tree.column(column, "width"))
        if font.measure(text) + HEADING_PAD > width:
            cut.append(f"heading {text!r}: {font.measure(text) + HEADING_PAD} px > {width} px")
    return cut


def cut_short(w: tk.Misc) -> list[str]:
    """How ``w`` (shown) cuts its text, if it does."""
    if isinstance(w, ttk.Treeview):
        return _heading_cuts(w)
    text = own_text(w) or str(w)
    if isinstance(w, tk.Tk | tk.Toplevel | tk.Menu):
        return []
    found = []
    if w.winfo_width() + 1 < w.winfo_reqwidth():
        found.append(f"{text!r}: {w.winfo_width()} px of {w.winfo_reqwidth()}")
    top = w.winfo_toplevel()
    right = w.winfo_rootx() + w.winfo_width()
    if right > top.winfo_rootx() + top.winfo_width() + 1:
        found.append(f"{text!r}: past its window's right edge")
    return found


def shown(root: tk.Misc) -> tuple[list[str], list[str]]:
    """Every text of every window under ``root``, and the widgets that cut theirs."""
    root.update_idletasks()
    texts: list[str] = []
    cut: list[str] = []
    for w in widgets(root):
        texts += holds(w)
        if w.winfo_ismapped() and not isinstance(w, tk.Menu):
            cut += [f"{type(w).__name__} {w}: {c}" for c in cut_short(w)]
    return texts, cut
