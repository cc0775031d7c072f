"""What every game's room says the same way: the common buttons, room events, offers,
results by reason, error hints. A :class:`Game` named ``common``, read like the others."""

from __future__ import annotations

from gridhall.protocol.i18n import N_
from gridhall.protocol.players import LEVELS

from .describe import Action, Game, Text

NAME = [
    "first",
    ["shown", "data.name", "data.bot"],
    ["name", ["first", "data.from", "data.player"], N_("Someone")],
]
"""The name of whoever caused an event (a computer's in the reader's language)."""
WINNER = ["name", "result.winner", N_("The opponent")]
REASON = ["word", "reasons", "result.reason"]
PENDING = ["name", "view.pending.from", N_("Your opponent")]

ERRORS = {
    "bad-message": N_("The server could not understand that request."),
    "unknown-type": N_("The server does not know that request (is it an older version?)."),
    "not-welcomed": N_("Still connecting; try again in a moment."),
    "version-mismatch": N_(
        "This client and the server speak different protocol versions; update one of them."
    ),
    "no-such-room": N_("There is no room with that code; check it and try again."),
    "room-full": N_("That room is full; join as a spectator instead."),
    "wrong-password": N_("Wrong password for that private room."),
    "not-in-room": N_("You are not in a room."),
    "already-in-room": N_("Leave your current room first."),
    "not-a-player": N_("Spectators cannot play; join a seat to play."),
    "not-your-turn": N_("It is not your turn yet."),
    "illegal-move": N_("That move is not allowed."),
    "not-playing": N_("The game is not running right now."),
    "no-pending-request": N_("There is nothing to answer."),
    "rate-limited": N_("Slow down a little; the server is limiting requests."),
    "server-busy": N_("The server is busy; try again shortly."),
    "offline": N_("Not connected; reconnecting."),
    "not-the-host": N_("Only the room's host can do that."),
    "kicked": N_("The host removed you from that room; you can rejoin it later."),
    "room-locked": N_("That room is locked: nobody new can join it now."),
    "muted": N_("The host has muted your chat in this room."),
    "game-in-progress": N_("Not while a game is under way; wait until it is over."),
    "banned": N_("The server's operator has banned you from this server for a while."),
    "bad-link": N_("That link code is wrong, used or expired; ask the other device for a new one."),
    "room-lost": N_(
        "Your room could not be restored after the server restarted; you are in the lobby."
    ),
    "internal-error": N_(
        "The server failed on that request. That is a fault in the server, "
        "not in what you did; nothing changed, so try again, and tell whoever "
        "runs the server if it repeats."
    ),
}

REQUEST_TITLES = {
    "hello": N_("Could not connect"),
    "list-rooms": N_("Room list not loaded"),
    "create-room": N_("Room not created"),
    "join-room": N_("Could not join"),
    "leave-room": N_("Could not leave"),
    "sync": N_("Could not catch up with the room"),
    "player-info": N_("Name or colour not changed"),
    "move": N_("Move not made"),
    "chat": N_("Chat line not sent"),
    "resign": N_("Could not resign"),
    "play-again": N_("No new game"),
    "agree-again": N_("No new game"),
    "decline-again": N_("No new game"),
    "offer": N_("Offer not made"),
    "answer": N_("Not answered"),
    "start": N_("Race not started"),
    "host": N_("Host action not done"),
    "list-games": N_("Game history not loaded"),
    "get-replay": N_("Replay not loaded"),
    "leaderboard": N_("Leaderboard not loaded"),
    "get-profile": N_("Profile not loaded"),
    "records": N_("Records not loaded"),
    "analyse": N_("Game not analysed"),
    "link-code": N_("No link code"),
    "link": N_("Not linked"),
    "list-devices": N_("No device list"),
    "sign-out-device": N_("Not signed out"),
}

REASONS = {
    "resign": N_("resignation"),
    "agreed-draw": N_("agreement"),
    "timeout": N_("time"),
    "disconnect": N_("disconnection"),
    "imported": N_("imported from a file"),
    "removed": N_("the host removed a player"),
}
"""How the common reasons (:class:`~gridhall.protocol.Termination`) read after "wins by" /
"Draw by"; a game words its own ways to end in its description's ``words["reasons"]``."""


def _answer(kind: str, accept: bool, msgid: str) -> Text:
    return Text(
        msgid,
        when=(f"data.kind={kind}", "data.accept" if accept else "!data.accept"),
        facts={"name": NAME},
    )


COMMON = Game(
    name="common",
    title="",
    actions=(
        Action(
            "resign", N_("Resign"), "R", N_("resign (or leave a co-op game)"), {"type": "resign"}
        ),
        Action(
            "leave",
            N_("Leave room"),
            "ctrl+l",
            N_("leave the room"),
            {"type": "leave-room"},
            shown=("always",),
            enabled=("always",),
        ),
    ),
    results=(
        Text(
            N_("No result: {reason}, so nobody wins it."),
            when=("result.reason=removed",),
            facts={"reason": REASON},
        ),
        Text(
            N_("No result: the game was {reason}."),
            when=("result.reason=imported",),
            facts={"reason": REASON},
        ),
        Text(
            N_("Draw by {reason}."), when=("$reason", "!?result.winner"), facts={"reason": REASON}
        ),
        Text(
            N_("You win by {reason}!"),
            when=("$reason", "result.winner=@me"),
            facts={"reason": REASON},
        ),
        Text(
            N_("{winner} wins by {reason}."),
            when=("$reason",),
            facts={"reason": REASON, "winner": WINNER},
        ),
    ),
    notices={
        "offer": (
            Text(
                N_("You asked for a draw; waiting for an answer."),
                when=("pending_mine", "view.pending.kind=draw"),
            ),
            Text(
                N_("You asked to take back your last move; waiting for an answer."),
                when=("pending_mine", "view.pending.kind=takeback"),
            ),
            Text(
                N_("{name} asks for a draw."),
                when=("view.pending.kind=draw",),
                facts={"name": PENDING},
            ),
            Text(
                N_("{name} asks to take back the last move."),
                when=("view.pending.kind=takeback",),
                facts={"name": PENDING},
            ),
            Text(N_("{name} made an offer."), when=("!pending_mine",), facts={"name": PENDING}),
        ),
        "answer": (
            _answer("draw", True, N_("{name} accepted the draw offer.")),
            _answer("draw", False, N_("{name} declined the draw offer.")),
            _answer("takeback", True, N_("{name} accepted the take-back request.")),
            _answer("takeback", False, N_("{name} declined the take-back request.")),
        ),
        "play-again": (
            Text(N_("{name} wants another game: Agree (y) or Decline (n)."), facts={"name": NAME}),
        ),
        "agree-again": (Text(N_("{name} agreed to another game."), facts={"name": NAME}),),
        "decline-again": (Text(N_("{name} declined another game."), facts={"name": NAME}),),
        "resigned": (Text(N_("{name} resigned."), facts={"name": NAME}),),
        "joined": (
            Text(
                N_("{name} joined as a spectator."),
                when=("data.role=spectator",),
                facts={"name": NAME},
            ),
            Text(N_("{name} joined as a player."), facts={"name": NAME}),
        ),
        "left": (Text(N_("{name} left the room."), facts={"name": NAME}),),
    },
    words={
        "reasons": REASONS,
        "errors": ERRORS,
        "requests": REQUEST_TITLES,
        "colors": {"black": N_("black"), "white": N_("white")},
        "status": {"waiting": N_("waiting"), "playing": N_("playing"), "over": N_("over")},
        "levels": LEVELS,
    },
)
"""The words every game shares."""
