"""The lobby: public rooms, join or watch by code, and the create-room form (a game,
a preset to start from, and the game's own options, rendered from its view class)."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Any

from gridhall import protocol as p
from gridhall.client.tk.tables import table
from gridhall.client.views import titles, view_for
from gridhall.client.views.common import Message
from gridhall.client.views.form import (
    Choice,
    Field,
    FormError,
    Number,
    Value,
    is_active,
    options,
    with_preset,
)
from gridhall.client.views.hosts import Note
from gridhall.client.views.lobby import room_rows
from gridhall.protocol.i18n import N_, _

Submit = Callable[..., None]
Notify = Callable[[str], None]
COLUMNS = (
    ("room", N_("Code"), 90),
    ("game", N_("Game"), 120),
    ("options", N_("Options"), 220),
    ("players", N_("Players"), 220),
    ("spectators", N_("Watching"), 80),
    ("status", N_("Status"), 90),
)
FIELDS_PER_ROW = 3
"""Option fields side by side in the create form: four ran past the window in longer
languages (a label and a 22-character choice each)."""


class LobbyFrame(ttk.Frame):
    """Lists rooms (the app refreshes it) and sends create / join requests."""

    def __init__(self, master: tk.Misc, submit: Submit, notify: Notify) -> None:
        super().__init__(master, padding=10)
        self.submit = submit
        self.notify = notify
        ttk.Label(self, text=_("Rooms on this server"), style="Title.TLabel").grid(
            row=0, column=0, sticky="w"
        )
        self.farewell = ttk.Label(self, style="Notice.TLabel")
        """Why we are back in the lobby (removed by a room's host, a room closed)."""
        self.said: Note | None = None
        self.table = table(self, COLUMNS, 12)
        self.table.grid(row=1, column=0, sticky="nsew", pady=6)
        self.table.bind("<<TreeviewSelect>>", self._selected)
        self.table.bind("<Double-1>", lambda _e: self.join("player"))

        join = ttk.Frame(self)
        join.grid(row=2, column=0, sticky="ew")
        self.code = tk.StringVar(self)
        self.password = tk.StringVar(self)
        ttk.Label(join, text=_("Room code")).pack(side="left")
        self.code_entry = ttk.Entry(join, textvariable=self.code, width=10)
        self.code_entry.pack(side="left", padx=4)
        self.code_entry.bind("<Return>", lambda _e: self.join("player"))
        ttk.Label(join, text=_("Password")).pack(side="left", padx=(8, 0))
        self.password_entry = ttk.Entry(join, textvariable=self.password, show="•", width=14)
        self.password_entry.pack(side="left", padx=4)
        self.password_entry.bind("<Return>", lambda _e: self.join("player"))
        self.join_button = ttk.Button(join, text=_("Join"), command=lambda: self.join("player"))
        self.join_button.pack(side="left", padx=2)
        self.watch_button = ttk.Button(
            join, text=_("Watch"), command=lambda: self.join("spectator")
        )
        self.watch_button.pack(side="left", padx=2)
        ttk.Button(join, text=_("Refresh"), command=self.refresh).pack(side="left", padx=2)

        create = ttk.LabelFrame(self, text=_("New room"), padding=8)
        create.grid(row=3, column=0, sticky="ew", pady=(10, 0))
        first = ttk.Frame(create)
        first.pack(fill="x")
        self.games = titles()
        self.game = tk.StringVar(self, value=next(iter(self.games.values())))
        self.preset = tk.StringVar(self)
        self.private = tk.BooleanVar(self, value=False)
        self.new_password = tk.StringVar(self)
        ttk.Label(first, text=_("Game")).pack(side="left")
        self.game_box = ttk.Combobox(
            first,
            textvariable=self.game,
            state="readonly",
            width=14,
            values=list(self.games.values()),
        )
        self.game_box.pack(side="left", padx=(4, 10))
        self.game_box.bind("<<ComboboxSelected>>", lambda _e: self._game_changed())
        ttk.Label(first, text=_("Preset")).pack(side="left")
        self.preset_box = ttk.Combobox(first, textvariable=self.preset, state="readonly", width=32)
        self.preset_box.pack(side="left", padx=(4, 10))
        self.preset_box.bind("<<ComboboxSelected>>", lambda _e: self._preset_changed())
        self.fields_frame = ttk.Frame(create, padding=(0, 8, 0, 0))
        self.fields_frame.pack(fill="x")
        # privacy and Create on a row of their own, under the options: beside the game and
        # the preset they ran past the window in longer languages
        last = ttk.Frame(create, padding=(0, 8, 0, 0))
        last.pack(fill="x")
        ttk.Checkbutton(last, text=_("Private"), variable=self.private).pack(side="left")
        ttk.Label(last, text=_("Password")).pack(side="left", padx=(10, 0))
        ttk.Entry(last, textvariable=self.new_password, show="•", width=12).pack(
            side="left", padx=4
        )
        self.create_button = ttk.Button(last, text=_("Create"), command=self.create)
        self.create_button.pack(side="left", padx=4)
        self.fields: dict[str, tuple[Field, tk.Variable, list[tk.Widget]]] = {}
        """The options form: key -> (field, its variable, its label and widget)."""
        self._game_changed()
        self.rowconfigure(1, weight=1)
        self.columnconfigure(0, weight=1)

    def note(self, said: Note | None, now: float = 0.0) -> None:
        """Say why we came back to the lobby, above the rooms, until we join a room (None:
        nothing to say); :meth:`tick` says it again as time passes."""
        self.said = said
        if said is not None:
            self.farewell.configure(text=said(now))
            self.farewell.grid(row=4, column=0, sticky="w", pady=(8, 0))
        else:
            self.farewell.configure(text="")
            self.farewell.grid_remove()

    def tick(self, now: float) -> None:
        """The note as of ``now`` ("until 19:06 (1 minute from now)", then "you may join
        it again now"), never what it said when it came."""
        if self.said is not None:
            text = self.said(now)
            if text != str(self.farewell.cget("text")):
                self.farewell.configure(text=text)

    # ---- rooms --------------------------------------------------------------------------
    def refresh(self) -> None:
        self.submit(p.ListRooms())

    def show_rooms(self, rooms: list[Message]) -> None:
        """Update the rows in place: a kept room keeps its row and selection, so a
        refresh never selects anything again (which would overwrite a typed code)."""
        rows = room_rows(rooms)
        wanted = [row.room for row in rows]
        gone = [iid for iid in self.table.get_children() if iid not in set(wanted)]
        if gone:
            self.table.delete(*gone)
        for index, row in enumerate(rows):
            values = (row.room, row.game, row.options, row.players, row.spectators, row.status)
            if self.table.exists(row.room):
                self.table.item(row.room, values=values)
                self.table.move(row.room, "", index)
            else:
                self.table.insert("", index, iid=row.room, values=values)

    def rooms(self) -> list[str]:
        """Codes listed now, top to bottom."""
        return list(self.table.get_children())

    def _selected(self, _event: object = None) -> None:
        """A row picked by the player fills in the code (refreshes never select)."""
        for iid in self.table.selection():
            self.code.set(iid)

    def join(self, role: str) -> None:
        code = self.code.get().strip()
        if not code:
            self.notify(_("Type a room code or pick a room first."))
            return
        fields: dict[str, Any] = {"room": code, "role": role}
        if password := self.password.get():
            fields["password"] = password
        self.submit("join-room", **fields)

    # ---- creating -----------------------------------------------------------------------
    def game_key(self) -> str:
        by_title = {title: key for key, title in self.games.items()}
        return by_title.get(self.game.get(), next(iter(self.games)))

    def _game_changed(self) -> None:
        """Another game: its presets, and its options form from the first preset."""
        view = view_for(self.game_key())
        self.preset_box.configure(values=[preset.label for preset in view.presets])
        self.preset.set(view.presets[0].label)
        for _field, _var, widgets in self.fields.values():
            for widget in widgets:
                widget.destroy()
        self.fields = {}
        for f in view.form:
            self.fields[f.key] = self._field_widgets(f)
        self._preset_changed()

    def _field_widgets(self, f: Field) -> tuple[Field, tk.Variable, list[tk.Widget]]:
        box = self.fields_frame
        if isinstance(f, Choice):
            var: tk.Variable = tk.StringVar(self, value=f.label_of(f.default))
            widget: tk.Widget = ttk.Combobox(
                box,
                textvariable=var,
                state="readonly",
                width=22,
                values=[text for _, text in f.choices],
            )
            var.trace_add("write", lambda *_: self._layout_fields())
            return f, var, [ttk.Label(box, text=f.label), widget]
        if isinstance(f, Number):
            var = tk.StringVar(self, value=str(f.default))
            widget = ttk.Spinbox(box, textvariable=var, from_=f.lo, to=f.hi, increment=1, width=7)
            return f, var, [ttk.Label(box, text=f.label), widget]
        var = tk.BooleanVar(self, value=f.default)
        return f, var, [ttk.Checkbutton(box, text=f.label, variable=var)]

    def _set(self, f: Field, var: tk.Variable, value: Value) -> None:
        if isinstance(f, Choice):
            var.set(f.label_of(value))
        elif isinstance(f, Number):
            var.set(str(value))
        else:
            var.set(bool(value))

    def _preset_changed(self) -> None:
        """Fill the form from the chosen preset."""
        view = view_for(self.game_key())
        chosen = next((pr for pr in view.presets if pr.label == self.preset.get()), view.presets[0])
        values = with_preset(view.form, chosen)
        for key, (f, var, _widgets) in self.fields.items():
            self._set(f, var, values.get(key))
        self._layout_fields()

    def values(self) -> dict[str, Any]:
        """What the form holds (numbers as typed)."""
        out: dict[str, Any] = {}
        for key, (f, var, _widgets) in self.fields.items():
            raw: Any = var.get()  # type: ignore[no-untyped-call]
            out[key] = f.value_of(str(raw)) if isinstance(f, Choice) else raw
        return out

    def _layout_fields(self) -> None:
        """Grid the fields that apply (a custom size only for a custom board ...)."""
        values = self.values()
        slot = 0
        for f, _var, widgets in self.fields.values():
            for widget in widgets:
                widget.grid_forget()
            if not is_active(f, values):
                continue
            row, col = divmod(slot, FIELDS_PER_ROW)
            if len(widgets) == 2:
                widgets[0].grid(row=row, column=2 * col, sticky="e", padx=(8, 4), pady=2)
                widgets[1].grid(row=row, column=2 * col + 1, sticky="w", pady=2)
            else:
                widgets[0].grid(row=row, column=2 * col, columnspan=2, sticky="w", padx=(8, 0))
            slot += 1

    def choose(self, game: str, preset: int = 0) -> None:
        """Pick a game and preset (what the combo boxes do)."""
        self.game.set(self.games[game])
        self._game_changed()
        self.preset.set(view_for(game).presets[preset].label)
        self._preset_changed()

    def set_option(self, key: str, value: Value) -> None:
        """Set one option as a player would in the form."""
        f, var, _widgets = self.fields[key]
        self._set(f, var, value)

    def create(self) -> None:
        """Ask for a room with the chosen game and options."""
        game = self.game_key()
        try:
            opts = options(view_for(game).form, self.values())
        except FormError as exc:
            self.notify(str(exc))
            return
        fields: dict[str, Any] = {"game": game, "options": opts}
        password = self.new_password.get()
        if self.private.get() or password:
            fields["private"] = True
        if password:
            fields["password"] = password
        self.submit(p.CreateRoom(**fields))
