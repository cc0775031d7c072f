"""The pseudo-locale check: every word a screen shows came through the catalogs.

Each client renders its screens in the pseudo-locale ``qps``
(:mod:`gridhall.protocol.pseudo`), where every translated text reads ``⟦Ŕéšíĝñ⟧``.
:func:`unmarked` takes what a screen shows and returns what is left once the marked
texts and the data the test itself put there (names, chat, room codes, addresses) are
taken out: a word in plain letters is a text the catalogs lack, a lone ``⟦`` or ``⟧``
a text cut short. :class:`Findings` collects them screen by screen, so one run names
every hole of a client at once.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from gridhall.client.discovery import Browser, FoundServer
from gridhall.protocol import i18n, pseudo
from gridhall.server.io.net.app import GameServer
from tests.rated import establish, five
from tests.wsclient import WsClient

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
"""One marked text with none inside it (marked texts nest: the outer one is taken next)."""
WORD = re.compile(r"[^\W\d_\u3040-\u30ff\u3400-\u9fff]+")
"""A run of letters, in any script but Chinese and Japanese: the pseudo-locale writes
dates as Chinese does (CLDR's words, not the catalogs'), and no client holds Chinese of
its own (a date left in the browser's English reads "Nov", and is caught)."""
SINGLE = re.compile(r"[A-Za-z]")
"""A lone Latin letter is a key (``^q``, ``g``), a board's column or a check mark's ``X``,
never a word to translate."""

PRODUCT = ("gridhall",)
"""Names that are never translated."""
KEY_NAMES = ("ctrl", "Ctrl", "Shift", "Alt", "Esc", "Enter", "Home", "End", "PgUp", "PgDn", "F1")
"""Keys as their caps read, in every language (single letters pass anyway)."""
NOTATION = ("HOST[:PORT]", "K7MQ-2D9X")
"""Notations the catalogs keep as written: an address's shape, a link code's example."""
LANGUAGE_NAMES = tuple(name for lang, name in i18n.LANGUAGES.items() if lang != pseudo.PSEUDO)
"""The language switchers name each language in itself, as written."""


@contextlib.contextmanager
def pseudo_locale() -> Iterator[str]:
    """Offer the pseudo-locale in this process while the block runs (and speak it: the
    Python clients speak one language per process); English again afterwards."""
    lang = pseudo.install()
    try:
        i18n.set_language(lang)
        yield lang
    finally:
        i18n.set_language(i18n.SOURCE)
        i18n.uninstall(lang)


def strip_marked(text: str) -> str:
    """``text`` with every marked text (and what it holds) blanked out, line breaks kept
    (a text wrapped over several lines is one marked text)."""

    def blank(match: re.Match[str]) -> str:
        return " " + "\n" * match.group().count("\n")

    while True:
        less = MARKED.sub(blank, text)
        if less == text:
            return text
        text = less


def unmarked(text: str, data: Collection[str] = ()) -> list[tuple[str, str]]:
    """The words of ``text`` outside the markers that are not ``data``, each with its
    line; a marker left alone is a text cut short (its accented rest is not a word)."""
    rest = strip_marked(text)
    for item in sorted((d for d in data if d), key=len, reverse=True):
        rest = re.sub(rf"(?<!\w){re.escape(item)}(?!\w)", " ", rest)
    found: list[tuple[str, str]] = []
    for line, original in zip(rest.split("\n"), text.split("\n"), strict=True):
        if "⟦" in line or "⟧" in line:
            found.append(("cut text", original))
            line = re.sub(r"⟦.*|.*⟧", " ", line)
        found += [(word, original) for word in WORD.findall(line) if not SINGLE.fullmatch(word)]
    return found


SERVER_NAME = "Hall 7"
"""The name the tests' servers go by (data on every screen)."""
FOUND = (
    FoundServer("a", SERVER_NAME, "127.0.0.1", 4567, 1, 2),
    FoundServer("b", "Old hall", "127.0.0.1", 4568, 99, None),  # too new for this client
)
"""What the connect screens are given to list: a server, and one they cannot join."""


class Heard(Browser):
    """A LAN browser that hears only the servers a test gives it: the connect screens'
    words are under test here (discovery itself is, in ``tests/discovery``), and no
    other server announcing on this machine may show up among them."""

    def __init__(self, servers: Collection[FoundServer] = ()) -> None:
        super().__init__(interfaces=["127.0.0.1"])
        self.heard = list(servers)

    def start(self) -> Browser:
        self._ready.set()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        return None

    def servers(self) -> list[FoundServer]:
        return sorted(self.heard, key=lambda s: (s.name.lower(), s.address))


async def rooms_to_list(bob: WsClient, cy: WsClient) -> tuple[str, str]:
    """Rooms in the states a lobby shows: Bob's Minesweeper waiting and locked, Cy's
    Gomoku under way against the computer (hard); their codes."""
    await bob.send("create-room", game="minesweeper", options={})
    waiting = str((await bob.expect("joined"))["room"])
    await bob.send("host", action="lock")
    await bob.expect("host", action="lock")
    await cy.send("create-room", game="gomoku", options={"ai": "hard"})
    playing = str((await cy.expect("joined"))["room"])
    return waiting, playing


async def host_removes(host: WsClient, player: str, room: str) -> None:
    """``host`` (in ``room``, just made) removes ``player`` once they joined, for 5 minutes."""
    await host.expect("joined", room=room, player=player)
    await host.send("host", action="kick", player=player, minutes=5)
    await host.expect("left", player=player)


async def rated_game(server: GameServer, ann: WsClient, bob: WsClient) -> str:
    """A rated Gomoku game Ann wins with five in a row, long enough to be rated, between
    established players (so both are on the leaderboard, with a rating on their
    profiles; ``tests/rated.py``); its room's code. Run on ``server``'s loop."""
    establish(server, [ann.player, bob.player])
    await ann.send("create-room", game="gomoku", options={"rated": True})
    room = str((await ann.expect("joined"))["room"])
    await bob.send("join-room", room=room)
    await ann.expect("state", status="playing")
    over = await five(ann, bob)
    assert over["ratings"], "the game was not rated"
    return room


@dataclass
class Findings:
    """The holes found, by screen; data every screen may show besides the marked texts."""

    data: set[str] = field(
        default_factory=lambda: set(PRODUCT + KEY_NAMES + NOTATION + LANGUAGE_NAMES)
    )
    holes: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    screens: list[str] = field(default_factory=list)

    def allow(self, *items: str) -> None:
        """Data the test put on the screens (a player's name, a chat line, a room code)."""
        self.data.update(items)

    def check(self, screen: str, texts: Collection[str], cut: Collection[str] = ()) -> None:
        """Note the unmarked words of what ``screen`` shows, and the texts a client found
        shown cut short (each with the widget that cuts it)."""
        self.screens.append(screen)
        found = self.holes.setdefault(screen, {})
        for text in texts:
            for word, line in unmarked(text, self.data):
                found.setdefault(line.strip()[:160], set()).add(word)
        for where in cut:
            found.setdefault(where, set()).add("shown cut short")
        if not found:
            del self.holes[screen]

    def report(self) -> str:
        """Each screen's lines with unmarked words, the words first."""
        out = []
        for screen, lines in self.holes.items():
            out.append(f"{screen}:")
            out += [f"    {sorted(words)}  in  {line!r}" for line, words in sorted(lines.items())]
        return "\n".join(out)
