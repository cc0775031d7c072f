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
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from gridhall import protocol as p
from gridhall.client.messages import Request, RoomEvent
from gridhall.client.room import RoomCopy
from gridhall.client.views.common import Message, ReplayFrame, names, seated
from gridhall.client.views.form import Form, Preset, localized, localized_preset
from gridhall.protocol import games, schema
from gridhall.protocol.games import render
from gridhall.protocol.games.common import COMMON
from gridhall.protocol.games.common import REASONS as REASONS
from gridhall.protocol.games.describe import Game
from gridhall.protocol.i18n import N_, ngettext
from gridhall.protocol.i18n import gettext as _

if TYPE_CHECKING:
    from gridhall.client.replays import ReplayPlayer

Button = Literal["primary", "secondary", "chord"]
"""A click on a board cell: left click (or enter), right click (or ``f``), middle or
left+right (or ``c``). Each game's board model says what they mean."""

Rule = Callable[[p.State, str | None], bool]
"""A condition on the room's state and our player id."""


def state_map(state: p.State) -> dict[str, Any]:
    """The fields of ``state`` the descriptions read, as the wire names them."""
    return {
        "game": state.game,
        "status": state.status,
        "turn": state.turn,
        "creator": state.creator,
        "host": state.host,
        "players": state.players,
        "view": state.view,
        "options": state.options,
        "result": state.result,
        "round": state.round,
    }


def _rule(conds: tuple[str, ...], game: Game) -> Rule:
    def rule(state: p.State, me: str | None) -> bool:
        ctx = render.context(game, COMMON, state_map(state), me)
        return all(render.holds(ctx, c) for c in conds)

    return rule


def _request(fields: Mapping[str, Any]) -> Callable[[p.State], Request | None]:
    """The described request (``{"type": "offer", "kind": "draw"}``) as a message."""
    data = {k: v for k, v in fields.items() if k != "type"}
    cls = p.CLIENT_MESSAGES[str(fields["type"])]

    def request(state: p.State) -> Request | None:
        made: Request = schema.from_map(cls, dict(data))
        return made

    return request


@dataclass(frozen=True)
class Action:
    """A described action (:class:`gridhall.protocol.games.describe.Action`) made ready to
    use: its named rules as functions of the state, its request as a message, its words
    in the player's language."""

    key: str
    """Stable name (the Tk button's key, the terminal button's id ``btn-<key>``)."""
    label_id: str
    """The button's English message id (:attr:`label` is what a player reads)."""
    keys: str
    """Keyboard key in Textual's names (``d``, ``R``, ``ctrl+l``)."""
    help_id: str
    """What it does, for the help screen, as an English message id."""
    request: Callable[[p.State], Request | None]
    shown: Rule
    enabled: Rule

    @property
    def label(self) -> str:
        """The button's label, translated when read (actions are made at import time)."""
        return _(self.label_id)

    @property
    def help(self) -> str:
        """What it does, translated when read."""
        return _(self.help_id)

    @classmethod
    def of(cls, game: Game, index: int) -> Action:
        """The description's action ``index`` (the game's, then the common ones)."""
        a = (*game.actions, *COMMON.actions)[index]
        return cls(
            a.key,
            a.label,
            a.keys,
            a.help,
            _request(a.request),
            _rule(a.shown, game),
            _rule(a.enabled, game),
        )


COMMON_ACTIONS = tuple(Action.of(COMMON, i) for i in range(len(COMMON.actions)))
"""Every game's room screen ends its action row with these (resign, leave)."""
RESIGN, LEAVE = COMMON_ACTIONS

AGAIN_KEYS = {"again": "p", "agree": "y", "decline": "n"}
"""Keys for the game-over bar's buttons. ``y`` and ``n`` answer whatever waits for our
answer (see :func:`yes_no_request`): an offer while a game runs, else another game."""
ANSWER_KEYS = {True: AGAIN_KEYS["agree"], False: AGAIN_KEYS["decline"]}
"""The yes / no keys."""

OFFER_KINDS = ("draw", "takeback")
"""The offers a game may make (``offer.kind``)."""


DEFAULT_PRESETS = (Preset(N_("server defaults"), {}),)
"""The one preset of a game this client does not know: the server's defaults."""


class GameView:
    """A game's view, read from its description (:mod:`gridhall.protocol.games`); the
    default one is enough to sit in a room of a game this client does not know (from
    a newer server). Subclasses add their board model."""

    name: ClassVar[str] = ""
    description: ClassVar[Game] = Game(name="", title="")
    title: ClassVar[str] = ""
    form: Form = ()
    """The create form's fields: on the class as described (English message ids), on a
    view (:func:`~gridhall.client.views.view_for`) in the player's language."""
    presets: tuple[Preset, ...] = DEFAULT_PRESETS
    """Named starting points for the form (class: described; view: translated)."""
    actions: tuple[Action, ...] = ()
    """The game's own buttons, shown before :data:`COMMON_ACTIONS`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        game = cls.description
        cls.name, cls.title = game.name, game.title
        cls.form = tuple(f for f in game.form if f.form)
        cls.presets = game.presets or DEFAULT_PRESETS
        cls.actions = tuple(Action.of(game, i) for i in range(len(game.actions)))

    def __init__(self, name: str = "") -> None:
        self.game = name or self.name
        self.desc = self.description if self.description.name else games.describe(self.game)
        self.heading = _(self.title) if self.title else self.desc.title
        # what the screens show, in the player's language, from the description as it is
        # now (a server's engines change a game's computer levels)
        self.form = tuple(localized(f) for f in self.desc.form if f.form)
        self.presets = tuple(
            localized_preset(preset) for preset in self.desc.presets or DEFAULT_PRESETS
        )
        self.actions = tuple(Action.of(self.desc, i) for i in range(len(self.desc.actions)))

    # ---- lobby ------------------------------------------------------------------------
    def options_text(self, options: Message) -> str:
        """A short human summary of a room's options (lobby table)."""
        if not self.desc.summary:
            return ", ".join(f"{k}={v}" for k, v in options.items() if v is not None)
        return render.summary(self.desc, COMMON, options)

    # ---- the room screen --------------------------------------------------------------
    def live_view(self, room: RoomCopy, me: str | None, now: float) -> Message:
        """The view with its clocks run on to ``now`` (the server sends them as of its
        latest event). Never changes the copy."""
        if room.state is None:
            return {}
        return render.live_view(
            self.desc, state_map(room.state), me, now - room.skew, now - room.view_at
        )

    def status(self, room: RoomCopy, me: str | None, now: float) -> str:
        """The game's part of the status line."""
        state = room.state
        if state is None:
            return ""
        if not self.desc.status:
            return {
                "waiting": _("Waiting for players…"),
                "playing": _("Playing"),
                "over": _("Game over"),
            }.get(state.status, "")
        return render.status(self.desc, COMMON, state_map(state), me, self.live_view(room, me, now))

    def board_text(self, room: RoomCopy, me: str | None, now: float) -> str | None:
        """The line a board shows over itself (waiting to start, a countdown ...)."""
        state = room.state
        if state is None:
            return None
        return render.board(self.desc, COMMON, state_map(state), me, self.live_view(room, me, now))

    def roles(self, state: p.State) -> dict[str, str]:
        """The note next to each player (colour, progress ...); seat numbers if none."""
        return render.roles(self.desc, COMMON, state_map(state))

    def result_text(self, state: p.State, me: str | None) -> str:
        """The game-over headline: who won and why, for the viewer."""
        return render.result(self.desc, COMMON, state_map(state), me)

    def outcome(self, state: p.State, me: str | None) -> str:
        """``win``, ``loss``, ``draw`` or ``none`` (spectator, not over) for the viewer."""
        return str(render.context(self.desc, COMMON, state_map(state), me)["outcome"])

    def ranking(self, state: p.State, me: str | None) -> list[str]:
        """A finished race's standings, one line per racer (empty for other games)."""
        return render.ranking(self.desc, COMMON, state_map(state), me)

    def gesture(self, state: p.State, me: str | None) -> str:
        """How to play with a pointer: told to players only."""
        return _(self.desc.gesture) if self.desc.gesture and seated(state, me) else ""

    def moved_text(self, msg: p.Moved, room: RoomCopy, me: str | None) -> str | None:
        """A line for a move, if the game announces moves (most do not: the board shows them)."""
        return None

    def offer_text(self, state: p.State, me: str | None) -> str | None:
        """A line about a pending draw / take-back offer (the view's ``pending``), or None."""
        return render.offer(self.desc, COMMON, state_map(state), me)

    def replay_frames(self, player: ReplayPlayer) -> list[ReplayFrame]:
        """The boards a replay shows at ``player``'s shown step, each drawn by the
        game's live board widget with the game's decoration: by default one board,
        the frame's view as a spectator sees it, nothing added."""
        return [ReplayFrame(player.view())]

    def event_text(self, msg: RoomEvent, room: RoomCopy, me: str | None) -> str | None:
        """The line to tell the player about one room event (already folded into
        ``room``), or None for events the screen shows by itself."""
        state = room.state
        if state is None:
            return None
        if isinstance(msg, p.Moved):
            return self.moved_text(msg, room, me)
        return render.event(self.desc, COMMON, schema.to_map(msg), state_map(state), me)


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
    return (
        state.view,
        state.options,
        state.status,
        state.turn,
        state.result,
        state.players,
        room.last_actions,
        me,
    )


def status_line(view: GameView, room: RoomCopy, me: str | None, connected: bool, now: float) -> str:
    """The line under the board: the game's status, plus watching / offline notes."""
    if room.state is None:
        return _("Joining…")
    line = view.status(room, me, now)
    if not seated(room.state, me):
        line = _("Watching · {line}", line=line)
    if not connected:
        line = _("Reconnecting… · {line}", line=line)
    return line


@dataclass(frozen=True)
class ActionState:
    """One action button as the screen should show it now."""

    action: Action
    shown: bool
    enabled: bool


def action_states(view: GameView, state: p.State, me: str | None) -> list[ActionState]:
    """The game's actions, then the common ones, each shown/enabled by its rules."""
    return [
        ActionState(a, a.shown(state, me), a.enabled(state, me))
        for a in (*view.actions, *COMMON_ACTIONS)
    ]


def find_action(view: GameView, key: str) -> Action | None:
    return next((a for a in (*view.actions, *COMMON_ACTIONS) if a.key == key), None)


def action_request(view: GameView, key: str, state: p.State, me: str | None) -> Request | None:
    """What pressing action ``key`` sends now (None if it does not apply)."""
    action = find_action(view, key)
    if action is None or not (action.shown(state, me) and action.enabled(state, me)):
        return None
    return action.request(state)


@dataclass(frozen=True)
class Confirm:
    """The question to ask before an action that gives up the game we play."""

    question: str
    yes: str
    """The confirming button's label (the other one cancels)."""


def in_live_game(state: p.State | None, me: str | None) -> bool:
    """We sit in a game under way (resigning or leaving the room gives it up)."""
    return state is not None and state.status == "playing" and seated(state, me)


def confirmation(key: str, state: p.State | None, me: str | None) -> Confirm | None:
    """Resigning, or leaving a room, while we sit in a game under way gives that game
    up, and one key or click must never do it: the question to ask first (the same as
    the browser's), or None when action ``key`` needs none now."""
    if not in_live_game(state, me):
        return None
    if key == RESIGN.key:
        return Confirm(_("Resign this game?"), _("Resign"))
    if key == LEAVE.key:
        return Confirm(_("Leave the room? You give up this game."), _("Leave room"))
    return None


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
        text += "  " + _("Waiting for the others to agree…")
    elif asked:
        text += "  " + ngettext(
            "{names} wants another game.",
            "{names} want another game.",
            len(asked),
            names=", ".join(asked),
        )
    if room.declined:
        text += "  " + _(
            "{names} declined.", names=", ".join(who.get(pl, "?") for pl in room.declined)
        )
    sit = seated(state, me)
    return Banner(
        text=text,
        again=sit and not asked and not mine,
        agree=sit and bool(asked) and not mine,
        decline=sit and bool(asked) and not mine,
    )


def again_request(key: str) -> Request | None:
    """The request of a game-over bar button (``again``, ``agree``, ``decline``)."""
    requests: dict[str, Request] = {
        "again": p.PlayAgain(),
        "agree": p.AgreeAgain(),
        "decline": p.DeclineAgain(),
    }
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
        text += "  " + _(
            "Accept ({yes}) or Decline ({no}).", yes=ANSWER_KEYS[True], no=ANSWER_KEYS[False]
        )
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
