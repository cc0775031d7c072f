"""``gridhall``: start the terminal client (or the Tk one with ``--tk``).

Without ``--server`` the client first shows its connect screen (servers found
on this network, or an address typed in); ``--find`` only prints the servers
found. The name is remembered at once, the server only once it has answered,
so a mistyped address is never offered again as the last server.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import sys
from collections.abc import Callable
from typing import Any

from gridhall.client import config
from gridhall.client.history import Opening
from gridhall.client.messages import Connection
from gridhall.client.plain import plain
from gridhall.client.views import titles
from gridhall.protocol import i18n
from gridhall.protocol.address import AddressError, server_url
from gridhall.protocol.i18n import _


def games() -> str:
    """The games this client plays, in words: "A, B and C"."""
    names = [_(title) for title in titles().values()]
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}", first=_(", ").join(names[:-1]), last=names[-1])


def language(text: str) -> str:
    """``--lang``: an offered language, by any usual tag (``vi``, ``zh``, ``zh-CN``,
    ``zh_Hans``); anything else is refused, naming the choices."""
    lang = i18n.negotiate([text])
    if lang == i18n.SOURCE and not text.lower().startswith(i18n.SOURCE):
        raise argparse.ArgumentTypeError(
            _(
                "unknown language {lang}; choose from {languages}",
                lang=repr(text),
                languages=", ".join(i18n.LANGUAGES),
            )
        )
    return lang


def choose_language(argv: list[str] | None = None) -> str:
    """Speak ``--lang`` (else the locale's language) from here on, before any text is
    made: the help below is already in it."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", default=None)
    known, _rest = early.parse_known_args(argv)
    return i18n.set_language(known.lang or i18n.from_environment())


def game_id(text: str) -> int:
    """``--replay``: a game id, a whole number from 1 (as ``gridhall-server history`` prints)."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            _("{value} is not a game id (a whole number such as 42)", value=repr(text))
        )
    return int(text)


def opening(args: argparse.Namespace) -> Opening:
    """The screen the command line asks to open first (shared by both clients)."""
    return Opening(history=bool(args.history), replay=args.replay)


def link_code(text: str) -> str:
    """``--link``: a link code as typed (``client/linking.py`` checks its shape)."""
    from gridhall.client.linking import parse_code

    try:
        return parse_code(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    choose_language(argv)
    saved = config.load()
    parser = argparse.ArgumentParser(
        prog="gridhall",
        description=_("Play {games} on a gridhall LAN server.", games=games()),
        epilog=_("The name and the last server you joined are remembered for next time."),
    )
    parser.add_argument(
        "--server",
        default=None,
        metavar="HOST[:PORT] | ws://…",
        help=_(
            "the server to join (default: choose on the connect screen, which lists the "
            "servers on this network; last joined: {server})",
            server=saved.server,
        ),
    )
    parser.add_argument(
        "--name",
        default=saved.name,
        help=_("your name in rooms, 1-32 chars (now: {name})", name=saved.name),
    )
    parser.add_argument("--tk", action="store_true", help=_("use the Tk window instead"))
    parser.add_argument(
        "--history", action="store_true", help=_("open the list of finished games once connected")
    )
    parser.add_argument(
        "--replay",
        type=game_id,
        default=None,
        metavar="GAME_ID",
        help=_("open the replay of finished game GAME_ID once connected"),
    )
    parser.add_argument(
        "--link",
        default=None,
        type=link_code,
        metavar="CODE",
        help=_(
            "play as yourself from another device: the link code it shows (valid 10 minutes, once)"
        ),
    )
    parser.add_argument(
        "--find", action="store_true", help=_("list the gridhall servers on this network and exit")
    )
    parser.add_argument(
        "--lang",
        default=None,
        type=language,
        metavar="LANG",
        help=_(
            "the language of the client: {languages} (default: the locale's)",
            languages=", ".join(i18n.LANGUAGES),
        ),
    )
    return parser.parse_args(argv)


def find_servers(wait: float | None = None) -> int:
    """``--find``: print the servers that answer within a few seconds."""
    from gridhall.client.discovery import FIND_SECONDS, find

    servers, error = find(FIND_SECONDS if wait is None else wait)
    if error:
        print(f"gridhall: {plain(error)}", file=sys.stderr)
        return 1
    if not servers:
        print(
            _(
                "No gridhall servers found on this network. Is one running? A firewall on "
                "either machine must let mDNS (UDP port 5353) through; or join with "
                "--server and the address the server printed."
            )
        )
        return 1
    for s in servers:
        print(plain(s.describe()))  # a LAN announcement is data, never terminal control
    first = servers[0]
    print("\n" + _("Join with:  gridhall --server {address}", address=plain(first.address)))
    return 0


def remember_when_connected(server: str) -> Callable[[Any], None]:
    """A session listener saving ``server`` as the last server once it has answered."""
    saved = False

    def listener(msg: Any) -> None:
        nonlocal saved
        if not saved and isinstance(msg, Connection) and msg.status == "connected":
            saved = True
            config.save(dataclasses.replace(config.load(), server=server))

    return listener


def main(argv: list[str] | None = None) -> int:
    """Parse, remember the choices, run the chosen UI; returns the exit status."""
    args = parse_args(argv)
    if args.find:
        return find_servers()
    name = " ".join(args.name.split())[:32]
    if not name:
        print("gridhall: " + _("--name must not be blank"), file=sys.stderr)
        return 2
    if args.server is not None:
        try:
            server_url(args.server)
        except AddressError as exc:
            print(f"gridhall: {exc}", file=sys.stderr)
            return 2
    config.save(dataclasses.replace(config.load(), name=name))
    default = config.load().server
    if args.tk:
        try:
            tk_client = importlib.import_module("gridhall.client.tk")
        except ModuleNotFoundError as exc:
            print(
                "gridhall: "
                + _("the Tk client is not available ({module} is missing).", module=exc.name),
                file=sys.stderr,
            )
            return 1
        first = {"opening": opening(args)} if opening(args) else {}
        return int(
            tk_client.main(
                args.server,
                name,
                default=default,
                remember=remember_when_connected,
                tokens=(config.saved_token, config.save_token),
                link=args.link,
                **first,
            )
            or 0
        )
    try:
        from gridhall.client.tui.app import GridhallApp
        from gridhall.client.tui.connect import ConnectApp
    except ModuleNotFoundError as exc:
        print(
            "gridhall: "
            + _(
                "the terminal client needs Textual ({module} is missing); "
                "install it with: {command}",
                module=exc.name,
                command="pip install 'gridhall[tui]'",
            ),
            file=sys.stderr,
        )
        return 1
    server = args.server
    if server is None:
        server = ConnectApp(default).run()
        if server is None:
            return 0
    url = server_url(server)
    # The token this server gave us last time takes us straight back to our seat.
    app = GridhallApp(
        url,
        name,
        token=config.saved_token(url),
        keep_token=lambda token: config.save_token(url, token),
        opening=opening(args),
        link=args.link,
    )
    app.session.add_listener(remember_when_connected(server))
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
