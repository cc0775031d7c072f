"""The shape of a game's description: what every client shows of a game, as data.

A :class:`Game` holds a game's title, its create-room options (:class:`Choice`,
:class:`Number`, :class:`Toggle`, with :class:`Preset` starting points), its action
buttons (:class:`Action`), and its sentences as :class:`Text` templates: status-line
parts, results, notices, the players pane's notes and the lobby's option summary.
The server derives its option parsing from the same fields; the terminal and Tk
clients read these objects; the browser reads :meth:`Game.to_json` from
``GET /games.json``. Both sides fill the templates with one small interpreter
(:mod:`gridhall.protocol.games.render` and ``client/web/js/describe.js``).

Every text is an English message id marked with ``N_`` and translated when shown.

The little languages, the same in Python and JavaScript:

* A *path* names a value: ``view.clock.remaining`` walks the context (``status``,
  ``turn``, ``creator``, ``host``, ``view``, ``options``, ``result``, ``data``, ``me``,
  ``outcome``, ``@key`` / ``@value`` inside an :class:`Each`, ``$fact`` for a fact
  computed for the same text). A path in quotes (``'black``) is a literal string.
* A *fact* is a path, a number, or a list ``[function, args...]`` with a function
  from the fixed set in ``render.FUNCTIONS`` (``count``, ``add``, ``sub``, ``mul``,
  ``ceil``, ``first``, ``last``, ``cell``, ``name``, ``you``, ``clock``, ``word``,
  ``has``, ``shown``: a name from the wire as a client shows it, a computer's translated).
  ``name`` and ``you`` take a player fact and a fallback *text* (``N_("Someone")``, not
  a path) shown, translated, when that player is not in the room.
* A *condition* is a named rule (``seated``, ``playing``, ``waiting``, ``over``,
  ``my_turn``, ``creator``, ``host`` (the viewer hosts the room), ``racing``, ``pending``, ``pending_mine``), a path (true
  when truthy) or ``path=value`` (``@me`` for our id), any of them negated by ``!``.
  A text applies when all its conditions hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

if TYPE_CHECKING:
    from .data import GameTypes

Value: TypeAlias = str | int | bool | None
"""A form field's value; None leaves the option out (the server's default applies)."""

Fact: TypeAlias = Any
"""A path string, a number, or ``[function, *facts]`` (see the module docstring)."""

Cond: TypeAlias = str

Ratings: TypeAlias = Literal["rated", "records"] | None
"""How a game's finished games count: ``rated`` (ratings and a leaderboard), ``records``
(a co-op team's records per board) or None (neither)."""


def _when(when: Mapping[str, Value]) -> dict[str, Value]:
    return dict(when)


@dataclass(frozen=True)
class Choice:
    """One of a few values, each with the label a player reads."""

    key: str
    label: str
    choices: tuple[tuple[Value, str], ...]
    default: Value
    when: Mapping[str, Value] = field(default_factory=dict)
    """Used (and shown) only while the other fields hold these values."""
    form: bool = True
    """False: an option the server takes but the create form does not offer."""

    def label_of(self, value: Value) -> str:
        return next((text for v, text in self.choices if v == value), self.choices[0][1])

    def value_of(self, label: str) -> Value:
        return next((v for v, text in self.choices if text == label), self.default)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "choice",
            "key": self.key,
            "label": self.label,
            "choices": [[v, t] for v, t in self.choices],
            "default": self.default,
            "when": _when(self.when),
            "form": self.form,
        }


@dataclass(frozen=True)
class Number:
    """A whole number from ``lo`` to ``hi``."""

    key: str
    label: str
    lo: int
    hi: int
    default: int | None
    when: Mapping[str, Value] = field(default_factory=dict)
    form: bool = True
    real: bool = False
    """Any finite number in range (seconds), not only whole ones."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "number",
            "key": self.key,
            "label": self.label,
            "lo": self.lo,
            "hi": self.hi,
            "default": self.default,
            "when": _when(self.when),
            "form": self.form,
            "real": self.real,
        }


@dataclass(frozen=True)
class Toggle:
    """On or off."""

    key: str
    label: str
    default: bool
    when: Mapping[str, Value] = field(default_factory=dict)
    form: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "toggle",
            "key": self.key,
            "label": self.label,
            "default": self.default,
            "when": _when(self.when),
            "form": self.form,
        }


Field: TypeAlias = Choice | Number | Toggle
Form: TypeAlias = tuple[Field, ...]


@dataclass(frozen=True)
class Preset:
    """A named starting point: values for some fields (the rest take their defaults)."""

    label: str
    values: Mapping[str, Value]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "values": dict(self.values)}


@dataclass(frozen=True)
class Action:
    """A button on the room screen, the key that does the same, and what it sends."""

    key: str
    """Stable name (the Tk button's key, the terminal button's id ``btn-<key>``)."""
    label: str
    keys: str
    """Keyboard key in Textual's names (``d``, ``R``, ``ctrl+l``)."""
    help: str
    request: Mapping[str, Any]
    """The request as it goes on the wire: ``{"type": "offer", "kind": "draw"}``."""
    shown: tuple[Cond, ...] = ("seated",)
    enabled: tuple[Cond, ...] = ("playing",)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "keys": self.keys,
            "help": self.help,
            "request": dict(self.request),
            "shown": list(self.shown),
            "enabled": list(self.enabled),
        }


@dataclass(frozen=True)
class Each:
    """A list inside a text: one item text per entry of the map or list at ``over``
    (``@key``, ``@value``), joined with ``sep``, filling the outer text's ``{items}``."""

    over: str
    texts: tuple[Text, ...]
    """The first whose conditions hold words an item; items none fits are left out."""
    sep: str = ", "
    skip_me: bool = False
    """Leave out the entry keyed by our own player id."""
    last: int = 0
    """Only the last ``last`` entries (0: all)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "texts": [t.to_json() for t in self.texts],
            "sep": self.sep,
            "skip_me": self.skip_me,
            "last": self.last,
        }


@dataclass(frozen=True)
class Text:
    """One sentence or status-line part: an English template with ``{fact}`` fields."""

    msgid: str
    when: tuple[Cond, ...] = ()
    facts: Mapping[str, Fact] = field(default_factory=dict)
    plural: str | None = None
    """The plural template; then the fact ``n`` picks the form."""
    each: Each | None = None

    @classmethod
    def counted(
        cls, forms: tuple[str, str], *, when: tuple[Cond, ...] = (), facts: Mapping[str, Fact]
    ) -> Text:
        """A text with plural forms, marked as one message (``Nn_(singular, plural)``) so
        the catalogs hold its forms together; the fact ``n`` picks the form."""
        singular, plural = forms
        return cls(singular, when=when, facts=facts, plural=plural)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"msgid": self.msgid}
        if self.when:
            out["when"] = list(self.when)
        if self.facts:
            out["facts"] = dict(self.facts)
        if self.plural is not None:
            out["plural"] = self.plural
        if self.each is not None:
            out["each"] = self.each.to_json()
        return out


@dataclass(frozen=True)
class Live:
    """A clock the client runs on between events (the server sends clocks as of its
    latest event): ``countdown`` and ``elapsed`` count from when the view arrived;
    ``chess`` runs the mover's ``remaining`` from the clock's own ``since``."""

    kind: str
    path: str
    when: tuple[Cond, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "when": list(self.when)}


@dataclass(frozen=True)
class Game:
    """Everything a client shows of one game except its board widget."""

    name: str
    title: str
    coop: bool = False
    """Everyone wins or loses together (the viewer's outcome follows the reason)."""
    ratings: Ratings = None
    """What the server keeps of its finished games beyond history (the leaderboards and
    records screens list the games by this)."""
    analysis: bool = False
    """The server's engine analyses its finished games (``analyse``): the replay offers it."""
    form: Form = ()
    presets: tuple[Preset, ...] = ()
    actions: tuple[Action, ...] = ()
    """The game's own buttons; the common ones (resign, leave) follow."""
    live: tuple[Live, ...] = ()
    status: tuple[Text, ...] = ()
    """Status-line parts, each shown when its conditions hold, joined by `` · ``."""
    results: tuple[Text, ...] = ()
    """The game-over headline: the first that applies (then the common ones)."""
    notices: Mapping[str, tuple[Text, ...]] = field(default_factory=dict)
    """The game's ``notice`` events by name (facts read ``data``)."""
    roles: tuple[Text, ...] = ()
    """Each an :class:`Each` keyed by player id: the note next to each player."""
    summary: tuple[Text, ...] = ()
    """The lobby's options summary parts (facts read ``options``), joined by ``, ``."""
    ranking: Text | None = None
    """Lines under a finished game's result, one per entry (a race's standings)."""
    board: tuple[Text, ...] = ()
    """The line a board shows over itself (the first that applies; none: a clear board),
    so every client's board says the same as its status line."""
    gesture: str = ""
    """How to play with a pointer, for players (not spectators)."""
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Per-value words: table -> value -> text (colours, reasons, standings)."""
    sides: tuple[tuple[str, int], ...] = ()
    """The board's sides as (option, value when absent); their largest values are the
    form's bounds. Clients refuse to draw a board beyond them (``client/bounds.py``)."""
    lists: tuple[tuple[str, str], ...] = ()
    """View lists bounded by the board: (key, ``cells`` | ``rows`` | ``path``)."""
    data: GameTypes | None = None
    """The game's declared options, view, move, result, record and notices (msgspec
    types, :mod:`.data`): what every path above reads. Not sent to the browser."""

    def field(self, key: str) -> Field | None:
        return next((f for f in self.form if f.key == key), None)

    def most(self, key: str) -> int:
        """The largest value option ``key`` may take (a board side's bound)."""
        f = self.field(key)
        if isinstance(f, Number):
            return f.hi
        if isinstance(f, Choice):
            return max(int(v) for v, _ in f.choices if isinstance(v, int))
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "coop": self.coop,
            "ratings": self.ratings,
            "analysis": self.analysis,
            "form": [f.to_json() for f in self.form],
            "presets": [p.to_json() for p in self.presets],
            "actions": [a.to_json() for a in self.actions],
            "live": [x.to_json() for x in self.live],
            "status": [t.to_json() for t in self.status],
            "results": [t.to_json() for t in self.results],
            "notices": {k: [t.to_json() for t in v] for k, v in self.notices.items()},
            "roles": [t.to_json() for t in self.roles],
            "summary": [t.to_json() for t in self.summary],
            "ranking": self.ranking.to_json() if self.ranking else None,
            "board": [t.to_json() for t in self.board],
            "gesture": self.gesture,
            "words": {k: dict(v) for k, v in self.words.items()},
            "sides": [list(x) for x in self.sides],
            "lists": [list(x) for x in self.lists],
        }
