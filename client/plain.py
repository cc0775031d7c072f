"""Text from the network, made safe to show: data, never terminal control.

A server (or anything answering on the LAN) chooses player names, chat, room
codes, error messages and its own name. Shown raw, an ESC or C1 control byte
lets that text set the terminal's title, clear the screen or write to the
clipboard (OSC 52), and a bidi override makes one name read as another.
:func:`plain` replaces every such character with U+FFFD (visible, and one code
point for one, so columns and run offsets stay put); tabs and line breaks
become spaces, as every place that shows network text shows one line.

Markup is the other half: Rich and Textual parse ``[...]`` in plain strings,
so the terminal client shows network text only as ``rich.text.Text`` (see
``client/tui/text.py``), never as a markup string.
"""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"

_SPACES = "\t\n\r\x0b\x0c\u2028\u2029\x85"
"""Line and column breaks: shown as a space (NEL, U+0085, is also a C1 control)."""
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Bidi marks, embeddings, overrides and isolates ("Trojan Source", CVE-2021-42574)."""


def _table() -> dict[int, str]:
    table = {code: REPLACEMENT for code in (*range(0x20), *range(0x7F, 0xA0))}
    table.update({ord(ch): REPLACEMENT for ch in _BIDI})
    table.update({code: REPLACEMENT for code in range(0xD800, 0xE000)})  # lone surrogates
    table.update({ord(ch): " " for ch in _SPACES})
    return table


_TABLE = _table()


def plain(text: object) -> str:
    """``text`` as a string with no control, bidi or line-break characters."""
    return (text if isinstance(text, str) else str(text)).translate(_TABLE)


def plain_tree(value: Any) -> Any:
    """``value`` (a decoded frame: maps, lists, strings, numbers) with every string,
    keys included, made :func:`plain`; other values as they are."""
    if isinstance(value, str):
        return value.translate(_TABLE)
    if isinstance(value, dict):
        return {plain_tree(k): plain_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_tree(v) for v in value]
    return value
