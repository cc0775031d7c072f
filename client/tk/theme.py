"""One dark ttk theme for every screen, sized in points so it follows the
display's DPI (Tk's ``scaling``), plus the default window size."""

from __future__ import annotations

import tkinter as tk
from tkinter import font as tkfont
from tkinter import ttk

BG = "#2b2d31"
PANEL = "#1e1f22"
FG = "#e6e6e6"
DIM = "#9aa0a6"
ACCENT = "#3d7bfd"
BAR = "#3a3f4b"


def size_window(window: tk.Toplevel, width: int, height: int) -> None:
    """``width`` x ``height`` pixels, or more where the window's contents ask for more
    (their words run longer in some languages: a table's headings, a row of buttons)."""
    window.update_idletasks()
    wide = max(width, window.winfo_reqwidth())
    tall = max(height, window.winfo_reqheight())
    window.geometry(f"{wide}x{tall}")


def scale(root: tk.Misc) -> float:
    """How much larger than a 96-dpi screen this one is (1.0 on ordinary screens)."""
    return max(1.0, float(root.winfo_fpixels("1i")) / 96.0)


def apply(root: tk.Tk) -> None:
    """Configure fonts and ttk styles; set a window size that fits the boards."""
    for name in ("TkDefaultFont", "TkTextFont", "TkHeadingFont", "TkMenuFont"):
        tkfont.nametofont(name).configure(family="DejaVu Sans", size=10)
    root.configure(background=BG)
    style = ttk.Style(root)
    style.theme_use("clam")
    style.configure(
        ".",
        background=BG,
        foreground=FG,
        fieldbackground=PANEL,
        bordercolor="#44474f",
        lightcolor=BG,
        darkcolor=BG,
        insertcolor=FG,
        troughcolor=PANEL,
    )
    style.configure("TButton", background="#3b3f47", padding=(10, 4))
    style.map(
        "TButton",
        background=[("disabled", "#30333a"), ("active", "#4a505a")],
        foreground=[("disabled", "#6b7078")],
    )
    style.configure("Title.TLabel", font=("DejaVu Sans", 13, "bold"))
    style.configure("Heading.TLabel", font=("DejaVu Sans", 10, "bold"), foreground=DIM)
    style.configure("Status.TLabel", background=PANEL, padding=(8, 4))
    style.configure("Bar.TFrame", background=BAR)
    style.configure("Bar.TLabel", background=BAR, font=("DejaVu Sans", 10, "bold"))
    style.configure("Notice.TLabel", foreground="#ffd866")
    style.configure(
        "Treeview",
        background=PANEL,
        fieldbackground=PANEL,
        foreground=FG,
        rowheight=int(22 * scale(root)),
    )
    style.map("Treeview", background=[("selected", ACCENT)])
    style.configure("Treeview.Heading", background="#3b3f47", foreground=FG)
    style.configure("TCombobox", foreground=FG, background="#3b3f47")
    style.map(
        "TCombobox",
        fieldbackground=[("readonly", PANEL)],
        foreground=[("readonly", FG)],
        selectforeground=[("readonly", FG)],
        selectbackground=[("readonly", PANEL)],
    )
    root.option_add("*TCombobox*Listbox.background", PANEL)
    root.option_add("*TCombobox*Listbox.foreground", FG)
    style.configure("TLabelframe", background=BG)
    style.configure("TLabelframe.Label", background=BG, foreground=DIM)
    style.configure("TCheckbutton", background=BG)
    # clam lights a hovered check box, radio button or menu button to a pale grey under
    # our pale text (the host's *Locked* box was unreadable): a darker grey instead
    for widget in ("TCheckbutton", "TRadiobutton", "TMenubutton"):
        style.map(
            widget,
            background=[("disabled", BG), ("pressed", "#4a505a"), ("active", "#3b3f47")],
            foreground=[("disabled", "#6b7078")],
        )
    s = scale(root)
    root.geometry(f"{int(1120 * s)}x{int(780 * s)}")
    root.minsize(int(640 * s), int(480 * s))
