"""Finished games for the Python clients: the ``list-games`` pages, a summary as a row
of words, the shareable replay link, and the ``--history`` / ``--replay`` start.

Display-free (the terminal and Tk clients both use it); the wire shapes are in
PROTOCOL.md "History, replays, ratings". A page is asked with :meth:`GamePages.first`
or :meth:`GamePages.more`, sent with its ``id``, and only the answer that echoes the
latest ``id`` is taken, so a slow answer to an old filter never shows up under a new one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from gridhall import protocol as p
from gridhall.client.views import view_for
from gridhall.protocol import games
from gridhall.protocol.i18n import _
from gridhall.protocol.players import shown_name

Message = dict[str, Any]
PAGE = 20
"""Games asked for at a time (the server allows 1..50)."""

HISTORY = "history"
RATINGS = "ratings"
ANALYSIS = "analysis"
"""The ``welcome.features`` words that turn on the screens of this issue."""

ANSWERS = frozenset({"games", "replay", "analysis", "leaderboard", "player-profile", "records"})
"""The server messages the history, replay, leaderboard and profile screens wait for."""
REQUESTS = frozenset(
    {"list-games", "get-replay", "analyse", "leaderboard", "get-profile", "records"}
)
"""Their requests (a refusal names one of these)."""


def features(welcome: object) -> frozenset[str]:
    """The optional features a ``welcome`` announces (none from an older server)."""
    found = getattr(welcome, "features", None)
    return frozenset(str(f) for f in found) if isinstance(found, list | tuple) else frozenset()


@dataclass(frozen=True)
class Filters:
    """What the history list shows: one game kind (None: all) and a player's name."""

    game: str | None = None
    name: str = ""

    def fields(self) -> Message:
        out: Message = {}
        if self.game:
            out["game"] = self.game
        name = " ".join(self.name.split())
        if name:
            out["name"] = name[:32]
        return out


@dataclass
class GamePages:
    """The games listed so far under one filter, newest first, and the next cursor."""

    filters: Filters = field(default_factory=Filters)
    games: list[Message] = field(default_factory=list)
    next: int | None = None
    loading: bool = False
    asked: int | None = None
    """The ``id`` of the request whose answer we wait for."""

    @property
    def more_left(self) -> bool:
        """Another page exists (the last answer gave a cursor)."""
        return self.next is not None

    def first(self, filters: Filters) -> Message:
        """The request for the first page under ``filters`` (forgets what was listed)."""
        self.filters, self.games, self.next, self.loading = filters, [], None, True
        return {"type": "list-games", **filters.fields(), "limit": PAGE}

    def more(self) -> Message | None:
        """The request for the following page; None at the end or while one is asked."""
        if self.next is None or self.loading:
            return None
        self.loading = True
        return {"type": "list-games", **self.filters.fields(), "before": self.next, "limit": PAGE}

    def sent(self, req: int | None) -> None:
        """The request went out with id ``req`` (None: it was refused before leaving)."""
        self.asked = req
        if req is None:
            self.loading = False

    def take(self, answer: Message) -> list[Message] | None:
        """Fold in a ``games`` answer; returns its new games, or None if it answers
        another (older) request."""
        if answer.get("re") != self.asked or self.asked is None:
            return None
        self.loading, self.asked = False, None
        known = {g.get("game_id") for g in self.games}
        new = [
            g
            for g in answer.get("games") or []
            if isinstance(g, dict)
            and isinstance(g.get("game_id"), int)
            and g.get("game_id") not in known
        ]
        self.games += new
        cursor = answer.get("next")
        self.next = cursor if isinstance(cursor, int) and new else None
        return new

    def refused(self) -> None:
        """The server refused the page (e.g. rate-limited): asking again is allowed."""
        self.loading, self.asked = False, None


@dataclass(frozen=True)
class GameRow:
    """One finished game in words, for a list."""

    game_id: int
    game: str
    title: str
    players: str
    result: str
    when: str
    moves: str
    tags: str


def seat(player: Message) -> int:
    """A player's seat for sorting (0 when the data has none)."""
    value = player.get("seat")
    return value if isinstance(value, int) else 0


def players_text(players: list[Message], game: str = "") -> str:
    """The seated players by seat: "ann vs bob", a co-op team "ann, bob" (computers
    marked; ``game``'s description says whether it is co-op)."""
    seated = sorted((pl for pl in players if isinstance(pl, dict)), key=seat)
    names = [
        shown_name(pl.get("name") or "?", pl.get("bot"))
        + (" " + _("(computer)") if pl.get("bot") else "")
        for pl in seated
    ]
    return (_(", ") if games.describe(game).coop else _(" vs ")).join(names)


def finished_state(summary: Message, view: Message | None = None) -> p.State:
    """A finished game as a room ``state`` (status ``over``), so the game's own words
    for its result (the views' ``result_text``) apply to a stored game too."""
    players = summary.get("players")
    options, result = summary.get("options"), summary.get("result")
    return p.State(
        room="",
        seq=0,
        game=str(summary.get("game") or ""),
        options=options if isinstance(options, dict) else {},
        status="over",
        players=[pl for pl in players if isinstance(pl, dict)] if isinstance(players, list) else [],
        spectators=[],
        view=dict(view or {}),
        chat=[],
        result=result if isinstance(result, dict) and result else None,
    )


def result_text(summary: Message, me: str | None) -> str:
    """Who won and why, in the game's own words for the viewer."""
    if not summary.get("result"):
        return _("unfinished")
    try:
        return view_for(str(summary.get("game") or "")).result_text(finished_state(summary), me)
    except (AttributeError, KeyError, TypeError, ValueError):  # a shape this client does not know
        return _("Game over.")


def when_text(ts: object) -> str:
    """A game's end as local date and time."""
    if not isinstance(ts, int | float) or ts <= 0:
        return ""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def game_row(summary: Message, me: str | None) -> GameRow:
    """A summary from ``games`` as words (network text stays data: the UI shows it plain)."""
    game = str(summary.get("game") or "")
    players = summary.get("players")
    tags = []
    if summary.get("rated"):
        tags.append(_("rated"))
    if summary.get("source") == "import":
        tags.append(_("imported"))
    return GameRow(
        game_id=game_id if isinstance(game_id := summary.get("game_id"), int) else 0,
        game=game,
        title=view_for(game).heading,
        players=players_text(players if isinstance(players, list) else [], game),
        result=result_text(summary, me),
        when=when_text(summary.get("ended_at")),
        moves=str(summary.get("moves", "")),
        tags=", ".join(tags),
    )


def replay_link(url: str, game_id: int) -> str:
    """The browser link to a replay on the server ``url`` (``ws://host:port/``):
    ``http://host:port/#replay/ID``, which anyone on the LAN can open."""
    parts = urlsplit(url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}/#replay/{int(game_id)}"


@dataclass(frozen=True)
class Opening:
    """What the client shows first, from ``gridhall --history`` / ``--replay ID``."""

    history: bool = False
    replay: int | None = None

    def __bool__(self) -> bool:
        return self.history or self.replay is not None
