"""What a Textual screen shows, read for the language checks.

:func:`shown` returns two things for the app's current screen: every text its widgets
hold, in full (a label's whole content, a table's cells, a select's choices, a
tooltip), and the widgets that show their text cut short. A text is cut when the part
of the widget on screen does not hold it whole (its end is past the widget's or its
container's edge, a word lost to a fixed width), and, in the pseudo-locale, when a
marked text's ``⟦`` or ``⟧`` is not on screen. A widget whose container scrolls is
not cut (the rest is a scroll away), nor is a scrolling widget (a table, a log).
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.text import Text as RichText
from textual.app import App
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button, DataTable, Input, OptionList, RichLog, Select, Static
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle
from textual.widgets._toast import Toast
from textual.widgets._toggle_button import ToggleButton

from tests.pseudo import unmarked

SCROLLERS = (DataTable, RichLog, OptionList)
"""Widgets whose text may run on past what they show (scrolled, not cut)."""


def plain(content: object) -> str:
    """A widget's content as text, laid out wide enough that nothing wraps."""
    if isinstance(content, str | Content | RichText):
        return str(content)
    console = Console(width=1000, file=io.StringIO(), color_system=None)
    console.print(content)
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def own_text(widget: Widget) -> str | None:
    """The one text a simple widget shows whole when nothing cuts it (a label, a button's
    word, an empty input's placeholder); None for the rest."""
    if isinstance(widget, Button | ToggleButton):
        return str(widget.label)
    if isinstance(widget, Input):
        return None if widget.value else widget.placeholder
    if isinstance(widget, Static) and isinstance(widget.content, str | Content | RichText):
        return str(widget.content)
    return None


def holds(widget: Widget) -> list[str]:
    """Everything ``widget`` would show, in full: the texts of its content (not what fits
    on screen), and what it shows only once opened or hovered (choices, a tooltip)."""
    out = [t for t in (widget.tooltip, widget.border_title) if isinstance(t, str)]
    if isinstance(widget, Toast):
        note = widget._notification
        return [*out, note.title, note.message]
    if isinstance(widget, FooterKey):
        return [*out, widget.description]
    if isinstance(widget, HeaderTitle):
        return [*out, widget.screen.title or widget.app.title, widget.screen.sub_title or ""]
    if isinstance(widget, Button | ToggleButton):
        return [*out, str(widget.label)]
    if isinstance(widget, Input):
        return [*out, widget.placeholder, widget.value]
    if isinstance(widget, Select):
        return [*out, *(str(prompt) for prompt, _ in widget._options)]
    if isinstance(widget, OptionList):
        return [*out, *(plain(o.prompt) for o in widget.options)]
    if isinstance(widget, DataTable):
        out += [str(c.label) for c in widget.columns.values()]
        return out + [str(cell) for i in range(widget.row_count) for cell in widget.get_row_at(i)]
    if isinstance(widget, RichLog):  # its lines wrapped to the pane: one text
        return [*out, "\n".join(strip.text for strip in widget.lines)]
    if isinstance(widget, Static):
        return [*out, plain(widget.content)]
    return out


def scrolled(widget: Widget, region: Region, clip: Region) -> bool:
    """Whether ``widget`` runs past what shows of it inside a container that scrolls (the
    rest is a scroll away, not cut off)."""
    if clip.contains_region(region):
        return False
    return any(
        isinstance(a, Widget) and (a.allow_vertical_scroll or a.allow_horizontal_scroll)
        for a in widget.ancestors
    )


def squash(text: str) -> str:
    return "".join(text.split())


def cut_short(widget: Widget, seen: str) -> bool:
    """Whether what shows of ``widget`` (``seen``) cuts its text."""
    whole = own_text(widget)
    if whole is not None and squash(whole) not in squash(seen):
        return True
    return any(word == "cut text" for word, _ in unmarked(seen))


def shown(app: App[Any]) -> tuple[list[str], list[str]]:
    """What the current screen holds (every widget's texts, :func:`holds`), and the
    widgets that show their text cut short (each named, with what shows of it)."""
    strips = app.screen._compositor.render_strips()
    texts: list[str] = []
    cut: list[str] = []
    for widget, (region, clip) in app.screen._compositor.visible_widgets.items():
        texts += holds(widget)
        leaf = not any(child.display for child in widget.children)
        if not leaf or isinstance(widget, SCROLLERS) or scrolled(widget, region, clip):
            continue  # drawn by its children, or scrolled rather than cut
        if isinstance(widget, Input) and widget.value:
            continue  # a long value scrolls; the placeholder does not
        visible = region.intersection(clip)
        seen = "\n".join(
            strips[y].crop(visible.x, visible.right).text for y in range(visible.y, visible.bottom)
        )
        if cut_short(widget, seen):
            cut.append(f"{type(widget).__name__}#{widget.id}: {seen.strip()[:100]!r}")
    return texts, cut
