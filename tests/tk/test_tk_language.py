"""The Tk client speaks the language ``gridhall --tk --lang`` chose: its lobby and its
connection bar in Chinese."""

from __future__ import annotations

import gc
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

import pytest

from gridhall.client import cli
from gridhall.client.tk.app import TkApp
from gridhall.client.tk.lobby import LobbyFrame
from gridhall.client.views import VIEWS, view_for
from gridhall.protocol import i18n
from tests.tk.driver import Pump
from tests.tk.widget_text import shown


def test_lang_zh_shows_the_lobby_in_chinese(xvfb: str) -> None:
    assert cli.parse_args(["--tk", "--lang", "zh"]).lang == "zh_Hans"
    root = tk.Tk(className="gridhall")
    try:
        lobby = LobbyFrame(root, lambda *_a, **_f: None, lambda _t: None)
        lobby.pack()
        root.update()
        labels = [str(w.cget("text")) for w in lobby.winfo_children() if isinstance(w, ttk.Label)]
        assert "本服务器上的房间" in labels
        assert lobby.join_button.cget("text") == "加入"
        assert lobby.watch_button.cget("text") == "观战"
        assert lobby.table.heading("room")["text"] == "房间号"
        assert lobby.create_button.cget("text") == "创建"
    finally:
        i18n.set_language("en")
        root.destroy()
        gc.collect()


@pytest.mark.parametrize("lang", ["en", "vi", "zh_Hans"])
def test_every_lobby_form_and_the_history_show_their_words_whole(
    make_app: Callable[[str], TkApp], pump: Pump, lang: str
) -> None:
    """No label, heading or button cut by a fixed width or the window's edge: the history
    table's "Game no." read "Game nc", and in Vietnamese the create form's privacy and
    Create ran past the window."""
    i18n.set_language(lang)
    try:
        app = make_app("Lan")
        cuts: dict[str, list[str]] = {}
        for game in VIEWS:
            for index in range(len(view_for(game).presets)):
                app.lobby.choose(game, index)
                pump.once()
                cuts[f"create {game} {index}"] = shown(app.root)[1]
        pump.until(lambda: "history" in app.features, "the server's features")
        assert app.windows.open_history() is not None
        pump.once()
        cuts["history"] = shown(app.root)[1]
    finally:
        i18n.set_language("en")
    assert {screen: found for screen, found in cuts.items() if found} == {}
