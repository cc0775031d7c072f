"""The retention options (``--chat-days``, ``--games-rows`` ...), defined once.

The command line adds them to its parser (``server/cli.py``) and the admin page's
retention form checks a change against the very same options (``admin_actions.py``),
so a value is taken or refused alike both ways, with the same words. They live in the
I/O layer, below the command line, so the admin page never imports the command line.
"""

from __future__ import annotations

import argparse

from ...core.config import ServerConfig


def rows(text: str) -> int:
    """A retention limit in rows: a whole number, 0 or more (0: no limit)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rows (0 or more)")
    return value


def days(text: str) -> float:
    """A retention limit in days: 0 or more (0: no limit)."""
    return _amount(text, "days")


def megabytes(text: str) -> float:
    """A retention limit in megabytes: 0 or more (0: no limit)."""
    return _amount(text, "megabytes")


def _amount(text: str, unit: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit} (0 or more)")
    return value


def add_to(parser: argparse.ArgumentParser, d: ServerConfig) -> None:
    """Add the retention group to ``parser``, with ``d``'s values as the defaults."""
    keep = parser.add_argument_group(
        "retention",
        "what the database keeps (0: no limit "
        "of that kind); older rows are deleted a few at a time",
    )
    keep.add_argument(
        "--chat-days",
        type=days,
        default=d.chat_days,
        metavar="DAYS",
        help=f"days chat lines are kept (default {d.chat_days:g})",
    )
    keep.add_argument(
        "--chat-rows-per-room",
        type=rows,
        default=d.chat_rows_per_room,
        metavar="ROWS",
        help=f"chat lines kept per room, the latest (default {d.chat_rows_per_room})",
    )
    keep.add_argument(
        "--chat-rows",
        type=rows,
        default=d.chat_rows,
        metavar="ROWS",
        help=f"chat lines kept in all (default {d.chat_rows})",
    )
    keep.add_argument(
        "--games-days",
        type=days,
        default=d.games_days,
        metavar="DAYS",
        help=f"days finished games are kept (default {d.games_days:g})",
    )
    keep.add_argument(
        "--games-rows",
        type=rows,
        default=d.games_rows,
        metavar="ROWS",
        help=f"finished games kept in all, the latest (default {d.games_rows})",
    )
    keep.add_argument(
        "--games-mb",
        type=megabytes,
        default=d.games_mb,
        metavar="MB",
        help="megabytes of finished games' records kept in all, the latest "
        f"(default {d.games_mb:g})",
    )
    keep.add_argument(
        "--rated-identity-days",
        type=days,
        default=d.rated_identity_days,
        metavar="DAYS",
        help="days an offline player with a rating can still "
        f"resume their identity (default {d.rated_identity_days:g}; 0: for good)",
    )
    keep.add_argument(
        "--journal-rows",
        type=rows,
        default=d.journal_rows,
        metavar="ROWS",
        help="journal entries a live room keeps before it is snapshotted "
        f"again, mid-game too (default {d.journal_rows})",
    )


def parser() -> argparse.ArgumentParser:
    """A parser of the retention options alone (the admin page checks a change with it)."""
    found = argparse.ArgumentParser(add_help=False)
    add_to(found, ServerConfig())
    return found
