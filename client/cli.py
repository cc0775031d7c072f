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
from gridhall.client.address import AddressError, server_url
from gridhall.client.messages import Connection
from gridhall.client.plain import plain
from gridhall.client.views import titles


def games() -> str:
    """The games this client plays, in words: "A, B and C"."""
    names = list(titles().values())
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    saved = config.load()
    parser = argparse.ArgumentParser(
        prog="gridhall",
        description=f"Play {games()} on a gridhall LAN server.",
        epilog="The name and the last server you joined are remembered for next time.",
    )
    parser.add_argument(
        "--server",
        default=None,
        metavar="HOST[:PORT] | ws://…",
        help="the server to join (default: choose on the connect screen, which lists the "
        f"servers on this network; last joined: {saved.server})",
    )
    parser.add_argument(
        "--name", default=saved.name, help=f"your name in rooms, 1-32 chars (now: {saved.name})"
    )
    parser.add_argument("--tk", action="store_true", help="use the Tk window instead")
    parser.add_argument("--find", action="store_true",
                        help="list the gridhall servers on this network and exit")  # fmt: skip
    return parser.parse_args(argv)


def find_servers(wait: float | None = None) -> int:
    """``--find``: print the servers that answer within a few seconds."""
    from gridhall.client.discovery import FIND_SECONDS, find

    servers, error = find(FIND_SECONDS if wait is None else wait)
    if error:
        print(f"gridhall: {plain(error)}", file=sys.stderr)
        return 1
    if not servers:
        print("No gridhall servers found on this network. Is one running? A firewall on "
              "either machine must let mDNS (UDP port 5353) through; or join with "
              "--server and the address the server printed.")  # fmt: skip
        return 1
    for s in servers:
        print(plain(s.describe()))  # a LAN announcement is data, never terminal control
    first = servers[0]
    print(f"\nJoin with:  gridhall --server {plain(first.address)}")
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
        print("gridhall: --name must not be blank", file=sys.stderr)
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
            print(f"gridhall: the Tk client is not available ({exc.name} is missing).",
                  file=sys.stderr)  # fmt: skip
            return 1
        return int(tk_client.main(args.server, name, default=default,
                                  remember=remember_when_connected,
                                  tokens=(config.saved_token, config.save_token)) or 0)
    try:
        from gridhall.client.tui.app import GridhallApp
        from gridhall.client.tui.connect import ConnectApp
    except ModuleNotFoundError as exc:
        print(f"gridhall: the terminal client needs Textual ({exc.name} is missing); "
              "install it with: pip install 'gridhall[tui]'", file=sys.stderr)  # fmt: skip
        return 1
    server = args.server
    if server is None:
        server = ConnectApp(default).run()
        if server is None:
            return 0
    url = server_url(server)
    # The token this server gave us last time takes us straight back to our seat.
    app = GridhallApp(url, name, token=config.saved_token(url),
                      keep_token=lambda token: config.save_token(url, token))
    app.session.add_listener(remember_when_connected(server))
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
