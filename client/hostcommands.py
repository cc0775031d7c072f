"""The host's slash commands typed in a room's chat line (``/kick bob 30``,
``/lock`` ...), read into ``host`` requests. Pure: the terminal and Tk clients call
:func:`parse` on each line before sending it as chat.

A line that starts with ``/`` is never sent as chat as it is: a slash command is a
request, and an unknown one (a typo like ``/mue``) is refused here with the list of
commands, so it cannot reach the whole room by mistake. A line that really should
start with ``/`` is typed with two (``//shrug`` says ``/shrug``). Names match
members case-insensitively; a name that ends in digits is tried whole first
(``/kick bob 2`` removes "bob 2" if there is one, else "bob" for 2 minutes).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridhall import protocol as p
from gridhall.client.chatdraft import MAX_CHAT, ChatDraft
from gridhall.client.hosting import LEVELS, Member, computer, is_host, members, request
from gridhall.protocol.i18n import N_, _

MAX_MINUTES = 1440
"""The longest removal or mute the protocol allows (a day)."""

COMMANDS: dict[str, tuple[str, str]] = {
    "kick": (
        N_("NAME [minutes]"),
        N_("remove a member from the room for a while (default 10 minutes)"),
    ),
    "mute": (N_("NAME [minutes]"), N_("mute a member's chat (no minutes: until unmuted)")),
    "unmute": (N_("NAME"), N_("let a muted member chat again")),
    "lock": ("", N_("lock the room: nobody new may join")),
    "unlock": ("", N_("unlock the room")),
    "host": (N_("NAME"), N_("hand the host role to another member")),
    "computer": (
        "easy|hard|off",
        N_("between games: seat or swap the computer player, or remove it"),
    ),
}
"""Each command: (its arguments, what it does); the command words and levels are typed
as they are, the rest is marked for the catalogs and translated when shown."""


def usage(word: str) -> str:
    """How to type command ``word``, e.g. ``/kick NAME [minutes]`` (translated)."""
    args = COMMANDS[word][0]
    return f"/{word} {_(args)}" if args else f"/{word}"


@dataclass(frozen=True)
class Command:
    """A line that starts with ``/``: the request to send, why not (``error``), or
    the chat line it stands for (``chat``: ``//shrug`` says ``/shrug``)."""

    request: p.Host | None = None
    error: str | None = None
    chat: str | None = None
    unknown: bool = False
    """The word is no command (the line was neither sent nor done)."""


def parse(
    line: str, state: p.State | None, known: dict[str, str], me: str | None
) -> Command | None:
    """The command ``line`` holds, or None when it is ordinary chat."""
    text = line.strip()
    if not text.startswith("/"):
        return None
    if text.startswith("//"):
        return Command(chat=text[1:])
    word, _sep, rest = text[1:].partition(" ")
    word = word.casefold()
    if word not in COMMANDS:
        return Command(error=unknown_text(text[1:].split(" ", 1)[0]), unknown=True)
    if state is None or not is_host(state, me):
        return Command(error=_("Only the room's host can do that."))
    rest = rest.strip()
    if word in ("lock", "unlock"):
        return Command(request(word))
    if word == "computer":
        return _computer(rest.casefold(), state)
    if not rest:
        return Command(error=_("Usage: {usage}", usage=usage(word)))
    found = _member(rest, state, known, minutes_allowed=word in ("kick", "mute"))
    if isinstance(found, str):
        return Command(error=found)
    member, minutes = found
    assert member.player is not None
    if member.player == me and word != "unmute":  # a host may always speak again
        return Command(error=_("You cannot do that to yourself."))
    action = "hand-over" if word == "host" else word
    if action == "hand-over" and member.bot:
        return Command(error=_("A computer player cannot host."))
    return Command(request(action, member.player, minutes))


@dataclass(frozen=True)
class Typed:
    """What enter on a room's chat line does: send ``request`` (a chat line, or a host
    request: then ``clear`` the input at once), or tell ``error`` under ``title``."""

    request: p.Host | p.Chat | None = None
    error: str | None = None
    title: str = ""
    clear: bool = False


def typed(
    line: str, state: p.State | None, known: dict[str, str], me: str | None, draft: ChatDraft
) -> Typed:
    """Read a line typed into a room's chat (both Python clients do it this way): a
    host command, a refused or unknown ``/`` line, or chat (``draft`` keeps it until
    the server relays it back)."""
    command = parse(line, state, known, me)
    if command is not None and command.chat is None:
        if command.error is not None:
            title = _("Chat line not sent") if command.unknown else _("Host action not done")
            return Typed(error=command.error, title=title)
        return Typed(request=command.request, clear=True)
    text = draft.send(line)
    if command is not None and command.chat is not None:
        text = command.chat[:MAX_CHAT]
    return Typed(request=p.Chat(text=text)) if text else Typed()


def unknown_text(word: str) -> str:
    """Why a ``/word`` line was not sent, and what would be (translated)."""
    return _(
        "/{word} is not a command, so the line was not sent. Commands: {commands}. "
        "To say a line that starts with /, begin it with //.",
        word=word[:40],
        commands=", ".join(f"/{w}" for w in COMMANDS),
    )


def _computer(level: str, state: p.State) -> Command:
    if level in LEVELS:
        return Command(request("computer", level=level))
    if level == "off":
        bot = computer(state)
        if bot is None:
            return Command(error=_("This room has no computer player."))
        return Command(request("kick", bot.player))
    return Command(error=_("Usage: {usage}", usage=usage("computer")))


def _member(
    rest: str, state: p.State, known: dict[str, str], minutes_allowed: bool
) -> tuple[Member, int | None] | str:
    """The member ``rest`` names (and the minutes after the name), or why not."""
    everyone = members(state, known)
    whole = _named(rest, everyone)
    if whole is not None or not minutes_allowed:
        return (whole, None) if whole is not None else _unknown(rest, everyone)
    head, _sep, tail = rest.rpartition(" ")
    if not head or not tail.isdigit():
        return _unknown(rest, everyone)
    minutes = int(tail)
    if not 1 <= minutes <= MAX_MINUTES:
        return _("Minutes go from 1 to {most}.", most=MAX_MINUTES)
    found = _named(head.strip(), everyone)
    return (found, minutes) if found is not None else _unknown(head.strip(), everyone)


def _named(name: str, everyone: list[Member]) -> Member | None:
    want = name.casefold()
    for m in everyone:
        if m.name.casefold() == want and m.player is not None:
            return m
    return None


def _unknown(name: str, everyone: list[Member]) -> str:
    want = name.casefold()
    if any(m.name.casefold() == want for m in everyone):  # a spectator known by name only
        return _(
            "This client does not know who {name} is yet: they have not spoken or "
            "joined since you came in.",
            name=name,
        )
    return _("Nobody called {name} is in this room.", name=name)
