"""A room's requests: renames, moves, chat, resigning, offers and answers,
play-again, starting, and the host's actions. Spectators' roster and chat events are
paced by the room's budget (``fanout.py``). A mixin of
:class:`~gridhall.server.core.hub.Hub` (``hub_core.py`` says why).
"""

from __future__ import annotations

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from .effects import Outbox
from .hub_core import HubCore
from .identity import Identity
from .journal import Request
from .names import clean_color, clean_name, computer_name


class RoomRequests(HubCore):
    """The requests a member sends its room."""

    def _player_info(self, out: Outbox, ident: Identity, msg: p.PlayerInfo, now: float) -> None:
        if msg.name is None and msg.color is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "Send a name, a color, or both.")
        name = None if msg.name is None else clean_name(msg.name, msg.id)
        color = None if msg.color is None else clean_color(msg.color, msg.id)
        room = ident.room
        if room is None:  # nobody to tell: the sender gets its profile back
            if name is not None:
                ident.name = name
            if color is not None:
                ident.color = color
            out.send(
                [ident.id],
                p.Profile(player=ident.id, name=ident.name, color=ident.color, re=msg.id),
            )
            return
        spectator = ident.role == "spectator" and not self._replaying
        if spectator:
            self._afford(
                room,
                "roster",
                now,
                msg.id,
                "This room's spectators are changing names as fast as it allows",
            )
        room.update_info(out, ident, name, color)
        if spectator:
            self._budget(room, now).charge("roster", len(room.members), now)
        if not self._replaying:
            out.add(self._saved(ident))

    def _move(self, out: Outbox, ident: Identity, msg: p.Move, now: float) -> None:
        self._room(ident).move(out, ident, msg.move, now, re=msg.id)

    def _chat(self, out: Outbox, ident: Identity, msg: p.Chat, now: float) -> None:
        room = self._room(ident)
        room.mod.check_chat(ident, now, msg.id)
        if ident.role == "spectator" and not self._replaying:
            self._afford(
                room,
                "chat",
                now,
                msg.id,
                "This room's spectators are chatting as fast as it allows",
            )
            self._budget(room, now).charge("chat", len(room.members), now)
        room.say(out, ident, msg.text, now)

    def _resign(self, out: Outbox, ident: Identity, msg: p.Resign, now: float) -> None:
        self._room(ident).resign(out, ident, now)

    def _play_again(self, out: Outbox, ident: Identity, msg: p.PlayAgain, now: float) -> None:
        self._room(ident).play_again(out, ident, now)

    def _agree_again(self, out: Outbox, ident: Identity, msg: p.AgreeAgain, now: float) -> None:
        self._room(ident).agree_again(out, ident, now, re=msg.id)

    def _decline_again(self, out: Outbox, ident: Identity, msg: p.DeclineAgain, now: float) -> None:
        self._room(ident).decline_again(out, ident)

    def _offer(self, out: Outbox, ident: Identity, msg: p.Offer, now: float) -> None:
        self._room(ident).offer(out, ident, msg.kind, now)

    def _answer(self, out: Outbox, ident: Identity, msg: p.Answer, now: float) -> None:
        self._room(ident).answer(out, ident, msg.kind, msg.accept, now)

    def _start(self, out: Outbox, ident: Identity, msg: p.Start, now: float) -> None:
        self._room(ident).start(out, ident, now, re=msg.id)

    def _host(
        self,
        out: Outbox,
        ident: Identity,
        msg: p.Host,
        now: float,
        choices: dict[str, str] | None = None,
    ) -> None:
        """A host action. What it decides from outside the room, the address a kick
        keeps out and the id of a computer it seats, goes into ``choices`` for its
        journal entry (and comes from there on a replay: addresses are not known then)."""
        room = self._room(ident)
        got: dict[str, str] = {} if choices is None else choices

        def kick_address(target: Identity) -> str:
            if self._replaying:
                return str(got.get("addr", ""))
            addr = target.address
            if not addr or any(m.address == addr for m in room.members if m is not target):
                return ""  # shared (a classroom behind one NAT): only the identity is kept out
            got["addr"] = addr
            return addr

        def new_computer(level: str) -> Identity:
            if self._cast is not None:  # a replay: the id the journal kept
                return self._cast.computer(str(got["seat"]), level)
            bot, _ = self.identities.create(computer_name(level), bot=level)
            got["seat"] = bot.id
            return bot

        room.host_action(out, ident, msg, now, kick_address, new_computer)
        if msg.action == "computer" and not self._replaying:
            for bot in room.seated:
                if bot.bot:
                    out.add(self._saved(bot))


def choices(entry: Request) -> dict[str, str]:
    """What a journalled host action decided (see :meth:`RoomRequests._host`)."""
    found = {"addr": entry.address, "seat": entry.seat}
    return {k: v for k, v in found.items() if v is not None}
