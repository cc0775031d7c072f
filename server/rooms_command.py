"""``gridhall-server rooms``: the live rooms a store holds, and those set aside.

A room that could not be restored at a start is set aside with its rows and the
reason (``server/core/restoring.py``): never replayed again, never deleted without
the operator. This command lists them (``--quarantined``) and does the operator's two
actions on one: ``--release CODE`` puts it back among the live rooms (the server tries
it again at its next start: after an upgrade, say) and ``--delete CODE`` deletes it
with its journal. It works on the store's files, with the server running or not; the
admin page does the same on a running server at once.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridhall.protocol.i18n import gettext as _

from .cluster.wiring import open_store
from .core.config import ServerConfig
from .io.store.store_api import RoomStore


def add_parser(sub: Any) -> None:
    """The ``rooms`` subcommand's options."""
    rooms = sub.add_parser(
        "rooms",
        help=_("list the live rooms in the database (or those set aside) and exit"),
    )
    rooms.add_argument(
        "--quarantined",
        action="store_true",
        help=_("list the rooms set aside because they could not be restored"),
    )
    act = rooms.add_mutually_exclusive_group()
    act.add_argument(
        "--release",
        metavar="CODE",
        default=None,
        help=_("put a room set aside back: the server tries it again at its next start"),
    )
    act.add_argument(
        "--delete",
        metavar="CODE",
        default=None,
        help=_("delete a room set aside, with its journal"),
    )
    rooms.add_argument(
        "--db",
        dest="rooms_db",
        default=None,
        metavar="FILE",
        help=_("{sqlite} file (default: the server's --db)", sqlite="SQLite"),
    )


def run(args: argparse.Namespace) -> int:
    """Do what ``gridhall-server rooms`` was asked; 0, or 2 (no database there, or a
    code not set aside)."""
    config = ServerConfig(db=args.rooms_db or args.db, store=args.store)
    if not config.store and not Path(config.db).exists():
        print(
            _("gridhall-server: no database at {db} (--db chooses another file)", db=config.db),
            file=sys.stderr,
        )
        return 2
    store = open_store(config)
    try:
        code = (args.release or args.delete or "").strip().upper()
        if args.release is not None:
            return _done(store.release_quarantined(code), code, _released)
        if args.delete is not None:
            return _done(store.delete_quarantined(code), code, _deleted)
        if args.quarantined:
            print_quarantined(store)
        else:
            print_live(store)
        return 0
    finally:
        store.close()


def _released(code: str) -> str:
    return _("Room {code} is back among the live rooms: the next start tries it again.", code=code)


def _deleted(code: str) -> str:
    return _("Room {code} is deleted, with its journal.", code=code)


def _done(ok: bool, code: str, said: Callable[[str], str]) -> int:
    if ok:
        print(said(code))
        return 0
    print(
        _(
            "gridhall-server: no room {code} is set aside ({command} lists them)",
            code=code,
            command="rooms --quarantined",
        ),
        file=sys.stderr,
    )
    return 2


def _when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M")


def print_quarantined(store: RoomStore) -> None:
    """One paragraph per room set aside: code, game, when, members, the reason."""
    found = store.quarantined()
    if not found:
        print(_("No room is set aside: every room came back at the last start."))
        return
    identities, _rooms = store.load_live()
    names = {row["id"]: row["name"] for row in identities}
    for q in found:
        members = ", ".join(f"{names.get(pid, '?')} ({pid})" for pid in q.members) or "-"
        print(f"{q.code}  {q.game:<11} {_when(q.at)}  {members}")
        print(f"        {q.reason}")


def print_live(store: RoomStore) -> None:
    """One line per live room: code, game, and how much journal it would replay."""
    _identities, rooms = store.load_live()
    aside = len(store.quarantined())
    for saved in rooms:
        row = saved.row
        created = float(row.get("created_at") or 0.0)
        print(
            f"{row['code']}  {row['game']:<11} {_when(created) if created else '-':<16}  "
            + _("{n} journal entries after its snapshot", n=len(saved.entries))
        )
    if not rooms:
        print(_("No live rooms in the database."))
    if aside:
        print(_("{n} set aside: {command}", n=aside, command="gridhall-server rooms --quarantined"))
