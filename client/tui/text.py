"""Network text in the terminal client: always a Rich ``Text``, never markup.

Textual parses a plain string given to a label, a table cell, an option or a
toast as markup, so a player named ``[/]x`` would crash the screen showing it
(``MarkupError``) and ``[link=...]`` would style or link it. Every place that
shows text a server, a player or the LAN chose goes through :func:`text` (or, for
toasts, :class:`PlainNotify`), which also makes the text :func:`~client.plain.plain`.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from rich.text import Text
from textual.app import App
from textual.dom import DOMNode
from textual.notifications import SeverityLevel

from gridhall.client.plain import plain
from gridhall.protocol.i18n import _

ReturnT = TypeVar("ReturnT")


def text(value: object, style: str = "") -> Text:
    """``value`` as inert text: no markup parsed, no control characters."""
    return Text(plain(value), style=style)


def translate_bindings(node: DOMNode) -> None:
    """Show ``node``'s key descriptions in the player's language: ``BINDINGS`` are
    declared at import time (marked with ``N_``), so each instance translates its copy."""
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [
            dataclasses.replace(b, description=_(b.description)) if b.description else b
            for b in bindings
        ]


class PlainNotify(App[ReturnT]):
    """An app whose toasts show their text as written (never markup, never control).

    Without Textual's command palette: its commands and their help are Textual's own
    English, which no catalog holds; the help screen (F1) lists every key instead."""

    ENABLE_COMMAND_PALETTE = False

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        super().notify(
            plain(message), title=plain(title), severity=severity, timeout=timeout, markup=False
        )
