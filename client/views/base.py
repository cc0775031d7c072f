"""What a game's view class provides, and the room-screen decisions every game shares.

A game is one :class:`GameView` subclass in ``client/views/<game>.py``: its
title, presets and create-room form, status line, player roles, action buttons
(with their keys and when they apply), the sentence for each room event, and
its board model (cell looks, click -> request), which only that game's board
widgets use. Both UIs read these and hold no game-specific code outside their
board widgets.

Everything here is display-free and pure: functions of a :class:`RoomCopy`,
our player id and, for clocks, the current time ``now`` (seconds since the
epoch), which the UIs pass and tests inject.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from gridhall import protocol as p
from gridhall.client.messages import Request, RoomEvent
from gridhall.client.room import RoomCopy
from gridhall.client.views.common import Message, names, seated
from gridhall.client.views.form import Form, Preset
from gridhall.protocol import Outcome, Termination

Button = Literal["primary", "secondary", "chord"]
"""A click on a board cell: left click (or enter), right click (or ``f``), middle or
left+right (or ``c``). Each game's board model says what they mean."""

Rule = Callable[[p.State, str | None], bool]
"""A condition on the room's state and our player id."""


def when_seated(state: p.State, me: str | None) -> bool:
    return seated(state, me)


def when_playing(state: p.State, me: str | None) -> bool:
    return state.status == "playing"


def always(state: p.State, me: str | None) -> bool:
    return True


@dataclass(frozen=True)
class Action:
    """A button on the room screen and the key that does the same."""

    key: str
    """Stable name (the Tk button's key, the terminal button's id ``btn-<key>``)."""
    label: str
    keys: str
    """Keyboard key in Textual's names (``d``, ``R``, ``ctrl+l``)."""
    help: str
    """What it does, for the help screen."""
    request: Callable[[p.State], Request | None]
    shown: Rule = when_seated
    enabled: Rule = when_playing


RESIGN = Action("resign", "Resign", "R", "resign (or leave a co-op game)", lambda s: p.Resign())
LEAVE = Action("leave", "Leave room", "ctrl+l", "leave the room", lambda s: p.LeaveRoom(),
               shown=always, enabled=always)  # fmt: skip
COMMON_ACTIONS = (RESIGN, LEAVE)
"""Every game's room screen ends its action row with these."""

AGAIN_KEYS = {"again": "p", "agree": "y", "decline": "n"}
"""Keys for the game-over bar's buttons. ``y`` and ``n`` answer whatever waits for our
answer (see :func:`yes_no_request`): an offer while a game runs, else another game."""
ANSWER_KEYS = {True: AGAIN_KEYS["agree"], False: AGAIN_KEYS["decline"]}
"""The yes / no keys."""

REASONS: dict[Termination, str] = {
    Termination.FIVE: "five in a row",
    Termination.RESIGN: "resignation",
    Termination.DRAW: "the board is full",
    Termination.AGREED_DRAW: "agreement",
    Termination.TIMEOUT: "time",
    Termination.TIME: "time",
    Termination.FORBIDDEN: "a forbidden move",
    Termination.DISCONNECT: "disconnection",
    Termination.CLEARED: "board cleared",
    Termination.MINE: "a mine",
}
"""How a result's reason reads after "wins by" / "Draw by"."""

OFFER_KINDS = {"draw": "a draw", "takeback": "to take back the last move"}
"""What each kind of offer asks for, as in "Bob asks for a draw"."""
OFFER_NAMES = {"draw": "draw", "takeback": "take-back"}


class GameView:
    """The default view: enough to sit in a room of a game this client does not
    know (from a newer server). Games override what they show differently."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    presets: ClassVar[tuple[Preset, ...]] = (Preset("server defaults", {}),)
    form: ClassVar[Form] = ()
    actions: ClassVar[tuple[Action, ...]] = ()
    """The game's own buttons, shown before :data:`COMMON_ACTIONS`."""

    def __init__(self, name: str = "") -> None:
        self.game = name or self.name
        self.heading = self.title or self.game.replace("-", " ").capitalize()

    # ---- lobby ------------------------------------------------------------------------
    def options_text(self, options: Message) -> str:
        """A short human summary of a room's options (lobby table)."""
        return ", ".join(f"{k}={v}" for k, v in options.items() if v is not None)

    # ---- the room screen --------------------------------------------------------------
    def live_view(self, room: RoomCopy, me: str | None, now: float) -> Message:
        """The view with its clocks run on to ``now`` (the server sends them as of its
        latest event). Never changes the copy."""
        return room.state.view if room.state is not None else {}

    def status(self, room: RoomCopy, me: str | None, now: float) -> str:
        """The game's part of the status line."""
        state = room.state
        return {"waiting": "Waiting for players…", "playing": "Playing",
                "over": "Game over"}.get(state.status, "") if state else ""  # fmt: skip

    def roles(self, state: p.State) -> dict[str, str]:
        """The note next to each player (colour, progress ...); seat numbers if none."""
        return {}

    def result_text(self, state: p.State, me: str | None) -> str:
        """The game-over headline: who won and why."""
        try:
            outcome = Outcome.from_map(state.result or {})
        except ValueError:
            return "Game over."
        why = REASONS.get(outcome.termination, outcome.termination.value)
        if outcome.winner is None:
            return f"Draw by {why}."
        if outcome.winner == me:
            return f"You win by {why}!"
        return f"{names(state).get(outcome.winner, 'The opponent')} wins by {why}."

    def notice_text(self, event: str, data: Message, who: dict[str, str]) -> str:
        """A sentence for the game's own ``notice`` events."""
        return event.replace("-", " ").capitalize() + "."

    def moved_text(self, msg: p.Moved, room: RoomCopy, me: str | None) -> str | None:
        """A line for a move, if the game announces moves (most do not: the board shows them)."""
        return None

    def offer_text(self, state: p.State, me: str | None) -> str | None:
        """A line about a pending draw / take-back offer (the view's ``pending``), or None."""
        pending = state.view.get("pending")
        if not isinstance(pending, dict):
            return None
        what = OFFER_KINDS.get(str(pending.get("kind")), str(pending.get("kind")))
        if pending.get("from") == me:
            return f"You asked for {what}; waiting for an answer."
        return f"{names(state).get(str(pending.get('from')), 'Your opponent')} asks for {what}."

    def event_text(self, msg: RoomEvent, room: RoomCopy, me: str | None) -> str | None:
        """The line to tell the player about one room event (already folded into
        ``room``), or None for events the screen shows by itself."""
        state = room.state
        if state is None:
            return None
        who = names(state)
        sender = getattr(msg, "sender", None) or getattr(msg, "player", None)
        if sender is not None and sender == me and not isinstance(msg, p.GameOver | p.Notice):
            return None  # we know what we did
        name = getattr(msg, "name", None) or who.get(str(sender), "Someone")
        if isinstance(msg, p.GameOver):
            return self.result_text(state, me)
        if isinstance(msg, p.Moved):
            return self.moved_text(msg, room, me)
        if isinstance(msg, p.Notice):
            return self.notice_text(msg.event, msg.data, who)
        if isinstance(msg, p.PlayAgainEvent):
            return f"{name} wants another game: Agree (y) or Decline (n)."
        if isinstance(msg, p.AgreeAgainEvent):
            return f"{name} agreed to another game."
        if isinstance(msg, p.DeclineAgainEvent):
            return f"{name} declined another game."
        if isinstance(msg, p.OfferEvent):
            return self.offer_text(state, me) or f"{name} made an offer."
        if isinstance(msg, p.AnswerEvent):
            verdict = "accepted" if msg.accept else "declined"
            return f"{name} {verdict} the {OFFER_NAMES.get(msg.kind, msg.kind)} request."
        if isinstance(msg, p.Resigned):
            return f"{name} resigned."
        if isinstance(msg, p.Joined) and sender is not None:
            return f"{name} joined as {msg.role}."
        if isinstance(msg, p.Left) and sender is not None:
            return f"{name} left the room."
        return None  # state, chat (its own pane), player-info (the players pane)


# ---- decisions every room screen makes the same way -----------------------------------


BoardInputs = tuple[object, ...]
"""Everything a board widget draws from: equal inputs, the same picture (tuples compare
items by identity first, so an unchanged view costs nothing). A board redraws only when
they change, so a chat line or a roster change never redraws a 200 x 200 field (about a
second of Tk's time, half a second of the terminal's)."""


def board_inputs(room: RoomCopy, me: str | None) -> BoardInputs:
    """What a board shows depends on: the view, options, status, turn, result, players
    (their colours), the others' last moves, and who we are."""
    state = room.state
    if state is None:
        return (None, me)
    return (state.view, state.options, state.status, state.turn, state.result, state.players,
            room.last_actions, me)


def status_line(view: GameView, room: RoomCopy, me: str | None, connected: bool,
                now: float) -> str:  # fmt: skip
    """The line under the board: the game's status, plus watching / offline notes."""
    if room.state is None:
        return "Joining…"
    line = view.status(room, me, now)
    if not seated(room.state, me):
        line = "Watching · " + line
    if not connected:
        line = "Reconnecting… · " + line
    return line


@dataclass(frozen=True)
class ActionState:
    """One action button as the screen should show it now."""

    action: Action
    shown: bool
    enabled: bool


def action_states(view: GameView, state: p.State, me: str | None) -> list[ActionState]:
    """The game's actions, then the common ones, each shown/enabled by its rules."""
    return [ActionState(a, a.shown(state, me), a.enabled(state, me))
            for a in (*view.actions, *COMMON_ACTIONS)]  # fmt: skip


def find_action(view: GameView, key: str) -> Action | None:
    return next((a for a in (*view.actions, *COMMON_ACTIONS) if a.key == key), None)


def action_request(view: GameView, key: str, state: p.State, me: str | None) -> Request | None:
    """What pressing action ``key`` sends now (None if it does not apply)."""
    action = find_action(view, key)
    if action is None or not (action.shown(state, me) and action.enabled(state, me)):
        return None
    return action.request(state)


@dataclass(frozen=True)
class Banner:
    """The game-over bar: headline and which consent buttons to show."""

    text: str
    again: bool
    agree: bool
    decline: bool


def banner(view: GameView, room: RoomCopy, me: str | None) -> Banner | None:
    """None while no game has ended; else the result and the play-again handshake."""
    state = room.state
    if state is None or state.status != "over":
        return None
    who = names(state)
    text = view.result_text(state, me)
    asked = [who.get(pl, "?") for pl in room.again if pl != me]
    mine = me in room.again
    if mine:
        text += "  Waiting for the others to agree…"
    elif asked:
        text += f"  {', '.join(asked)} want{'s' if len(asked) == 1 else ''} another game."
    if room.declined:
        text += f"  {', '.join(who.get(pl, '?') for pl in room.declined)} declined."
    sit = seated(state, me)
    return Banner(text=text, again=sit and not asked and not mine,
                  agree=sit and bool(asked) and not mine,
                  decline=sit and bool(asked) and not mine)  # fmt: skip


def again_request(key: str) -> Request | None:
    """The request of a game-over bar button (``again``, ``agree``, ``decline``)."""
    requests: dict[str, Request] = {"again": p.PlayAgain(), "agree": p.AgreeAgain(),
                                    "decline": p.DeclineAgain()}  # fmt: skip
    return requests.get(key)


@dataclass(frozen=True)
class OfferBar:
    text: str
    can_answer: bool
    kind: str


def offer_bar(view: GameView, state: p.State, me: str | None) -> OfferBar | None:
    """A pending offer while the game runs, and whether we may answer it."""
    if state.status != "playing":
        return None
    text = view.offer_text(state, me)
    pending = state.view.get("pending")
    if not text or not isinstance(pending, Mapping):
        return None
    can_answer = pending.get("from") != me and seated(state, me)
    if can_answer:
        text += f"  Accept ({ANSWER_KEYS[True]}) or Decline ({ANSWER_KEYS[False]})."
    return OfferBar(text, can_answer=can_answer, kind=str(pending.get("kind")))


def answer_request(bar: OfferBar | None, accept: bool) -> Request | None:
    """The ``answer`` to the pending offer (None if there is none to answer)."""
    if bar is None or not bar.can_answer or bar.kind not in OFFER_KINDS:
        return None
    kind: Any = bar.kind
    return p.Answer(kind=kind, accept=accept)


def yes_no_request(view: GameView, room: RoomCopy, me: str | None, yes: bool) -> Request | None:
    """What ``y`` (``yes``) or ``n`` sends: the answer to the opponent's pending offer
    (a draw, a take-back) while a game runs, else the answer to another game after
    one; None when nothing waits for our answer (so nothing is sent)."""
    state = room.state
    if state is None:
        return None
    bar = offer_bar(view, state, me)
    if bar is not None and bar.can_answer:
        return answer_request(bar, yes)
    over = banner(view, room, me)
    if over is not None and over.agree:
        return p.AgreeAgain() if yes else p.DeclineAgain()
    return None
