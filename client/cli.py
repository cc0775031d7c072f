"""``gridhall``: start the terminal client (or the Tk one with ``--tk``)."""

from __future__ import annotations

import argparse
import importlib
import sys

from gridhall.client import config
from gridhall.client.address import AddressError, server_url
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
        epilog="The name and server you use are remembered for next time.",
    )
    parser.add_argument(
        "--server",
        default=saved.server,
        metavar="HOST[:PORT] | ws://…",
        help=f"the server to join (now: {saved.server})",
    )
    parser.add_argument(
        "--name", default=saved.name, help=f"your name in rooms, 1-32 chars (now: {saved.name})"
    )
    parser.add_argument("--tk", action="store_true", help="use the Tk window instead")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Parse, remember the choices, run the chosen UI; returns the exit status."""
    args = parse_args(argv)
    name = " ".join(args.name.split())[:32]
    if not name:
        print("gridhall: --name must not be blank", file=sys.stderr)
        return 2
    try:
        url = server_url(args.server)
    except AddressError as exc:
        print(f"gridhall: {exc}", file=sys.stderr)
        return 2
    saved = config.load()
    config.save(config.Config(name=name, server=args.server, tokens=saved.tokens))
    token = config.saved_token(url)  # back to our seat if we had one there

    def keep_token(new: str) -> None:
        config.save_token(url, new)

    if args.tk:
        try:
            tk_client = importlib.import_module("gridhall.client.tk")
        except ModuleNotFoundError as exc:
            print(f"gridhall: the Tk client is not available ({exc.name} is missing).",
                  file=sys.stderr)  # fmt: skip
            return 1
        result = tk_client.main(url=url, name=name, token=token, keep_token=keep_token)
        return int(result or 0)
    try:
        from gridhall.client.tui.app import GridhallApp
    except ModuleNotFoundError as exc:
        print(f"gridhall: the terminal client needs Textual ({exc.name} is missing); "
              "install it with: pip install 'gridhall[tui]'", file=sys.stderr)  # fmt: skip
        return 1
    GridhallApp(url, name, token=token, keep_token=keep_token).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
