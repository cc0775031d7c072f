"""What the server's operator can do from the admin page: close a room, remove a
player, ban and unban, announce, change the retention settings, release or delete a
room set aside because it could not be restored.

Each action checks every field first and refuses (``ProtocolError``: ``bad-message``
with a sentence, ``no-such-room``, ``no-such-player``) before anything changes.
Changes to rooms go through the hub as inputs (a closed room is dropped from the
store, a removed player leaves as with ``leave-room``, journaled), so a restart
replays them right; bans and settings are written to the store before they take
effect. Each action returns the detail the audit log keeps.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ...core.bans import Ban, normal_address, refusal
from ...core.identity import Identity
from ..runtime import settings_file
from ..store import retention_options
from .admin_status import RETENTION_KEYS

if TYPE_CHECKING:
    from ..net.app import GameServer

log = logging.getLogger("gridhall.admin")

REMOVED = "removed by the server's operator"
"""The close reason a removed player's connection ends with (code 1008)."""
REMOVED_CLOSE = 1008
MAX_CLOSE_REASON = 123
"""Bytes a WebSocket close reason may hold."""
MAX_REASON = 200
MAX_ANNOUNCE = 500
MAX_BAN_MINUTES = 525_600
"""A year."""
MAX_RETENTION = 10**12
"""The largest retention value taken from the page (the database's integers are 64-bit)."""

Detail = dict[str, Any]


def _bad(message: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, message)


def text(msg: dict[str, Any], key: str, max_len: int, required: bool = False) -> str:
    """A text field: a string of at most ``max_len`` characters after trimming, no
    control characters; "" when absent and not ``required``."""
    value = msg.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise _bad(f"Field {key!r} must be a string.")
    value = value.strip()
    if required and not value:
        raise _bad(f"Field {key!r} must not be empty.")
    if len(value) > max_len:
        raise _bad(f"Field {key!r} must be at most {max_len} characters.")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in value):
        raise _bad(f"Field {key!r} must not contain control characters.")
    return value


def whole(msg: dict[str, Any], key: str, low: int, high: int) -> int:
    value = msg.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"Field {key!r} must be a whole number from {low} to {high}.")
    return value


def close_reason(reason: str) -> str:
    """``removed by the server's operator[: reason]``, cut to fit a close frame."""
    full = f"{REMOVED}: {reason}" if reason else REMOVED
    while len(full.encode()) > MAX_CLOSE_REASON:
        full = full[:-1]
    return full


class AdminActions:
    """The operator's actions on one server."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.actions: dict[str, Callable[[dict[str, Any], float], Detail]] = {
            "close-room": self.close_room,
            "remove-player": self.remove_player,
            "ban": self.ban,
            "unban": self.unban,
            "announce": self.announce,
            "retention": self.retention,
            "release-room": self.release_room,
            "delete-room": self.delete_room,
        }

    def run(self, msg: dict[str, Any], now: float) -> tuple[str, Detail]:
        """Do ``msg`` (an ``admin`` request): its action's name and audit detail."""
        action = msg.get("action")
        handler = self.actions.get(action) if isinstance(action, str) else None
        if handler is None:
            raise _bad("Field 'action' must be one of " + ", ".join(self.actions) + ".")
        assert isinstance(action, str)
        return action, handler(msg, now)

    # -- rooms and players --------------------------------------------------------
    def close_room(self, msg: dict[str, Any], now: float) -> Detail:
        code = text(msg, "room", 16, required=True)
        reason = text(msg, "reason", MAX_REASON)
        self.server.execute(self.server.hub.close_room(code, reason, now))
        return {"room": code.upper(), "reason": reason}

    def _player(self, msg: dict[str, Any]) -> Identity:
        pid = text(msg, "player", 32, required=True)
        ident = self.server.hub.identities.by_id.get(pid)
        if ident is None or ident.bot is not None:
            raise ProtocolError(
                ErrorCode.NO_SUCH_PLAYER,
                f"There is no player {pid!r} on "
                "this server (computer players are removed with their room).",
            )
        return ident

    def remove_player(self, msg: dict[str, Any], now: float) -> Detail:
        ident = self._player(msg)
        reason = text(msg, "reason", MAX_REASON)
        room = ident.room.code if ident.room is not None else None
        self.remove(ident, reason, now)
        return {"player": ident.id, "name": ident.name, "room": room, "reason": reason}

    def remove(self, ident: Identity, reason: str, now: float) -> None:
        """``ident`` leaves its room (as with ``leave-room``) and its connection is
        closed with 1008."""
        server = self.server
        if ident.room is not None:
            effects, error = server.hub.handle(ident, p.LeaveRoom(), now)
            server.execute(effects)
            if error is not None:
                log.warning("removing %s: %s", ident.id, error.message)
        session = server.sessions.get(ident.id)
        if session is not None:
            server.close_link(session.link, REMOVED_CLOSE, close_reason(reason))

    # -- rooms set aside (server/core/restoring.py) --------------------------------
    def _set_aside(self, msg: dict[str, Any]) -> str:
        code = text(msg, "room", 16, required=True).upper()
        if code not in self.server.hub.quarantine:
            raise ProtocolError(
                ErrorCode.NO_SUCH_ROOM, f"No room {code!r} is set aside on this server."
            )
        return code

    def release_room(self, msg: dict[str, Any], now: float) -> Detail:
        """Put a room set aside back among the live rooms: tried at the next start."""
        return self._let_go(msg, now, self.server.store.release_quarantined)

    def delete_room(self, msg: dict[str, Any], now: float) -> Detail:
        """Delete a room set aside, with its journal."""
        return self._let_go(msg, now, self.server.store.delete_quarantined)

    def _let_go(self, msg: dict[str, Any], now: float, act: Callable[[str], bool]) -> Detail:
        """The room ``msg`` names is no longer set aside here (``act`` says what the
        store does with it); its members are no longer kept for a ``room-lost``."""
        code = self._set_aside(msg)
        reason = text(msg, "reason", MAX_REASON)
        act(code)
        self.server.execute(self.server.hub.release(code, now))
        return {"room": code, "reason": reason}

    # -- bans -------------------------------------------------------------------
    def ban(self, msg: dict[str, Any], now: float) -> Detail:
        has_address, has_player = msg.get("address") is not None, msg.get("player") is not None
        if has_address == has_player:
            raise _bad("Send exactly one of 'address' and 'player'.")
        minutes = whole(msg, "minutes", 1, MAX_BAN_MINUTES)
        reason = text(msg, "reason", MAX_REASON)
        until = now + minutes * 60.0
        server = self.server
        address: str | None = None
        ident: Identity | None = None
        if has_address:
            given = text(msg, "address", 64, required=True)
            address = normal_address(given)
            if address is None:
                raise _bad(f"{given!r} is not an IP address.")
        else:
            ident = self._player(msg)
        ban = server.store.admin.add_ban(
            address,
            ident.id if ident else None,
            ident.ban_key() if ident else None,
            ident.name if ident else None,
            until,
            reason,
            now,
        )
        server.hub.bans.add(ban)
        self._enforce(ban, ident, now)
        return {
            "ban": ban.ban,
            "address": address,
            "player": ban.player,
            "name": ban.name,
            "minutes": minutes,
            "until": until,
            "reason": reason,
        }

    def _enforce(self, ban: Ban, ident: Identity | None, now: float) -> None:
        """Remove whoever the new ban covers that is connected now."""
        server = self.server
        why = refusal(ban)
        if ident is not None:
            self.remove(ident, why, now)
            return
        for session in list(server.sessions.values()):
            if session.identity is not None and normal_address(session.link.peer) == ban.address:
                self.remove(session.identity, why, now)
        for conn in list(server.connections):  # those that have not said hello yet
            if normal_address(conn.peer) == ban.address and not conn.closed:
                conn.close(REMOVED_CLOSE, close_reason(why))

    def unban(self, msg: dict[str, Any], now: float) -> Detail:
        ban_id = whole(msg, "ban", 1, 2**62)
        ban = self.server.hub.bans.remove(ban_id)
        stored = self.server.store.admin.remove_ban(ban_id)
        if ban is None and not stored:
            raise _bad(f"There is no ban {ban_id} in force.")
        return {
            "ban": ban_id,
            "address": ban.address if ban else None,
            "player": ban.player if ban else None,
        }

    # -- everyone ---------------------------------------------------------------
    def announce(self, msg: dict[str, Any], now: float) -> Detail:
        said = text(msg, "text", MAX_ANNOUNCE, required=True)
        frame = p.encode(p.Announce(text=said, ts=now))
        server = self.server
        sessions = [s for s in server.sessions.values() if s.identity is not None]
        for session in sessions:
            server.reply(session.link, frame)
        return {"text": said, "to": len(sessions)}

    def retention(self, msg: dict[str, Any], now: float) -> Detail:
        given = msg.get("settings")
        if not isinstance(given, dict) or not given:
            raise _bad("Field 'settings' must be a map of retention keys to values.")
        values = check_retention(given)
        self.server.store.admin.save_settings(values)
        self.server.apply_admin_settings(values)
        return {"settings": values}


def check_retention(given: dict[str, Any]) -> dict[str, Any]:
    """Retention settings as the command line (and the settings file) would take
    them; ProtocolError(``bad-message``) naming the first key refused."""
    actions = settings_file.options(retention_options.parser())
    values: dict[str, Any] = {}
    for key, value in given.items():
        if key not in RETENTION_KEYS:
            raise _bad(
                f"{str(key)[:40]!r} is not a retention setting; they are: "
                + ", ".join(RETENTION_KEYS)
                + "."
            )
        action = actions[key]
        try:
            checked = settings_file.check(action, value)
            if not isinstance(checked, (int, float)) or checked > MAX_RETENTION:
                raise ValueError(f"at most {MAX_RETENTION}")
        except (ValueError, argparse.ArgumentTypeError) as exc:
            why = f" ({exc})" if str(exc) else ""
            raise _bad(
                f"{key} = {str(value)[:40]!r} is refused{why}; allowed: "
                f"{settings_file._allowed(action)}."
            ) from None
        values[key] = checked
    return values
