"""The Tk client speaks the language ``gridhall --tk --lang`` chose: its lobby and its
connection bar in Chinese."""

from __future__ import annotations

import gc
import tkinter as tk
from tkinter import ttk

from gridhall.client import cli
from gridhall.client.tk.lobby import LobbyFrame
from gridhall.protocol import i18n


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
