"""The race: every racer clears a private copy of one board against the clock.

Time only enters through ``now`` arguments. The race starts ``countdown``
seconds after the game is created. A racer's clock is the time since the
start plus their hint penalties; each racer's own time runs out when that
clock reaches ``time_limit``. The lowest clock among racers who clear wins, so
the race is over as soon as nobody still racing can beat the best finish (at
once when the winner took no hints), or when nobody is racing any more.

Hidden state (the tiles of a board) leaves only through :meth:`view` (made in
``showing.py``), to the board's owner; everyone else sees counts.

A racer's log keeps its first :data:`MAX_LOG` entries (wrong links are logged too,
at the message rate), counting the rest; :meth:`LinkMatchGame.state` /
:func:`from_state` let the room snapshot a race mid-way (a bounded journal).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.games.linkmatch import RaceEnd

from ..base import JSON, Game, GameError, Played
from ..jobs import Job
from .board import Gravity, Pair, Rows, copy_rows, count_tiles, remove_pair
from .jobs import make_board, shuffle_job, shuffle_rows
from .moves import Move, parse_move, why_no_link
from .paths import find_path, first_pair, has_pair
from .showing import view_of

Status = Literal["racing", "cleared", "time", "resigned", "removed"]
MAX_LOG = 10_000
"""Entries a racer's log keeps; later ones are only counted (``omitted``)."""


@dataclass
class Racer:
    """One racer's private board, clock adjustments and stats."""

    rows: Rows
    remaining: int
    status: Status = "racing"
    penalty: float = 0.0
    reached: float = 0.0
    """Clock when ``remaining`` reached its current value (time tie-break)."""
    final: float | None = None
    """Clock when the racer left the race (cleared, out of time, resigned)."""
    left_no: int = 0
    wrong: int = 0
    hints: int = 0
    shuffles: int = 0
    path: list[list[int]] | None = None
    hint: list[list[int]] | None = None
    shuffled: bool = False
    log: list[JSON] = field(default_factory=list)
    omitted: int = 0
    """Log entries past :data:`MAX_LOG`, not kept."""

    def note(self, entry: JSON) -> None:
        """Append to the log, within :data:`MAX_LOG`."""
        if len(self.log) >= MAX_LOG:
            self.omitted += 1
        else:
            self.log.append(entry)


def _pts(points: list[tuple[int, int]] | Pair) -> list[list[int]]:
    return [[x, y] for x, y in points]


class LinkMatchGame(Game):
    """One race. Mutable, single-threaded, pure (satisfies ``Game``)."""

    def __init__(
        self, options: JSON, players: list[str], seed: int, now: float, board: Rows | None = None
    ) -> None:
        if not players:
            raise GameError("not-playing", "A race needs at least one seated player.")
        self.options = dict(options)
        self.players = list(players)
        self.result: JSON | None = None
        self.seed = seed
        self.gravity: Gravity = options["gravity"]
        self.time_limit = float(options["time_limit"])
        self.start_at = now + float(options["countdown"])
        self._now = now
        self._announced = self.start_at <= now
        self._left = 0
        if board is None:  # ``board``: the same board made in a worker (jobs.board_job)
            board = make_board(
                options["width"], options["height"], options["kinds"], self.gravity, seed
            )
        self.board = board
        tiles = count_tiles(self.board)
        self.racers = {p: Racer(copy_rows(self.board), tiles) for p in self.players}

    def _note(self, racer: Racer, entry: JSON) -> None:
        """Log a racer's action with ``n``, its place among every racer's actions:
        the times are each racer's own clock to the millisecond, so two racers'
        actions can tie or cross by a fraction of one, and a replay orders by ``n``."""
        entry["n"] = sum(len(r.log) + r.omitted for r in self.racers.values())
        racer.note(entry)

    # -- clocks ---------------------------------------------------------------

    def _clock(self, racer: Racer, now: float) -> float:
        if racer.final is not None:
            return racer.final
        return max(0.0, now - self.start_at) + racer.penalty

    def _best(self) -> float | None:
        finishes = [
            r.final for r in self.racers.values() if r.status == "cleared" and r.final is not None
        ]
        return min(finishes) if finishes else None

    def turn(self) -> str | None:
        """Everyone races at once."""
        return None

    # -- moves ----------------------------------------------------------------

    def work_for(self, player: str, move: JSON, now: float) -> Job | None:
        """The heavy step ``move`` needs first, if any: a shuffle (asked for, or
        automatic after a link that leaves no pair). Moves that will be refused
        need nothing; :meth:`apply` refuses them."""
        try:
            parsed = parse_move(move)
            racer = self._racing(player, now)
        except GameError:
            return None
        if parsed.action == "shuffle":
            return shuffle_job(racer.rows, self.gravity, self._shuffle_seed(player, racer))
        if parsed.action != "link" or racer.remaining <= 2:
            return None
        assert parsed.a is not None and parsed.b is not None
        if find_path(racer.rows, parsed.a, parsed.b) is None:
            return None
        after = copy_rows(racer.rows)
        remove_pair(after, parsed.a, parsed.b, self.gravity)
        if has_pair(after):
            return None
        return shuffle_job(after, self.gravity, self._shuffle_seed(player, racer))

    def _shuffle_seed(self, player: str, racer: Racer) -> str:
        return f"{self.seed}/{player}/{racer.shuffles}"

    def apply(self, player: str, move: JSON, now: float, prepared: JSON | None = None) -> Played:
        """Link, hint or shuffle on the player's own board. ``prepared`` is the
        answer to the job :meth:`work_for` asked for (a shuffle)."""
        parsed = parse_move(move)
        racer = self._racing(player, now)
        path = None
        if parsed.action == "link":
            assert parsed.a is not None and parsed.b is not None
            path = find_path(racer.rows, parsed.a, parsed.b)
            if path is None:
                raise GameError("illegal-move", why_no_link(racer.rows, parsed.a, parsed.b))
        if prepared is not None:
            expected = copy_rows(racer.rows)
            if path is not None:
                assert parsed.a is not None and parsed.b is not None
                remove_pair(expected, parsed.a, parsed.b, self.gravity)
            if prepared.get("from") != expected:
                raise GameError(
                    "illegal-move", "Your board changed while it was being shuffled; try again."
                )
        # Accepted: only now does anything change.
        self._now = max(self._now, now)
        racer.shuffled = False
        clock = self._clock(racer, now)
        notices: list[JSON] = []
        if path is not None:
            notices += self._link(player, racer, parsed, path, clock, prepared)
        elif parsed.action == "hint":
            self._hint(racer, clock)
        else:
            self._shuffle(player, racer, clock, auto=False, prepared=prepared)
        notices += self._settle(now)
        return Played(parsed.wire(), notices)

    def _racing(self, player: str, now: float) -> Racer:
        """The racer who may move now; refuses (changing nothing) otherwise."""
        if self.result is not None:
            raise GameError("not-playing", "The race is over.")
        racer = self.racers.get(player)
        if racer is None:
            raise GameError("not-a-player", "You are watching this race, not racing in it.")
        if now < self.start_at:
            raise GameError("not-playing", f"The race starts in {self.start_at - now:.1f} seconds.")
        if racer.status != "racing":
            raise GameError("not-playing", "You are no longer in this race.")
        clock = self._clock(racer, now)
        if clock >= self.time_limit:
            raise GameError("not-playing", "Your time is up.")
        best = self._best()
        if best is not None and clock >= best:
            raise GameError("not-playing", "The race is decided: someone cleared faster.")
        return racer

    def _link(
        self,
        player: str,
        racer: Racer,
        move: Move,
        path: list[tuple[int, int]],
        clock: float,
        prepared: JSON | None,
    ) -> list[JSON]:
        assert move.a is not None and move.b is not None
        self._note(racer, {"t": round(clock, 3), **move.wire(), "ok": True})
        remove_pair(racer.rows, move.a, move.b, self.gravity)
        racer.remaining -= 2
        racer.reached = clock
        racer.path = _pts(path)
        racer.hint = None
        if racer.remaining == 0:
            self._leave(racer, "cleared", clock)
            return [{"type": "cleared", "player": player, "time": round(clock, 3)}]
        if not has_pair(racer.rows):
            self._shuffle(player, racer, clock, auto=True, prepared=prepared)
            return [{"type": "shuffled", "player": player}]
        return []

    def _hint(self, racer: Racer, clock: float) -> None:
        pair = first_pair(racer.rows)
        racer.path = None
        racer.hint = _pts(pair) if pair else None
        if pair:
            racer.hints += 1
            racer.penalty += float(self.options["hint_penalty"])
        self._note(racer, {"t": round(clock, 3), "action": "hint", "pair": racer.hint})

    def _shuffle(
        self, player: str, racer: Racer, clock: float, auto: bool, prepared: JSON | None = None
    ) -> None:
        if prepared is None:
            prepared = shuffle_rows(racer.rows, self.gravity, self._shuffle_seed(player, racer))
        racer.rows = copy_rows(prepared["rows"])
        racer.shuffles += 1
        racer.hint = None
        racer.shuffled = auto
        if not auto:
            racer.path = None
        self._note(racer, {"t": round(clock, 3), "action": "shuffle", "auto": auto})

    # -- leaving, time, the end -----------------------------------------------

    def refused(self, player: str, move: JSON, now: float) -> None:
        """A link the rules refused counts in the racer's ``wrong`` (a race stat);
        refusals of any other kind (bad shape, not racing) count nothing."""
        try:
            parsed = parse_move(move)
            racer = self._racing(player, now)
        except GameError:
            return
        if parsed.action != "link":
            return
        assert parsed.a is not None and parsed.b is not None
        if find_path(racer.rows, parsed.a, parsed.b) is not None:
            return
        racer.wrong += 1
        self._note(racer, {"t": round(self._clock(racer, now), 3), **parsed.wire(), "ok": False})

    def resign(self, player: str, now: float, reason: Termination = Termination.RESIGN) -> None:
        """The player leaves the race (ranked below everyone still in it); a racer the
        host removed (``REMOVED``) ends the race for everyone with no winner, since a
        kick must never decide a race.

        Changes nothing for someone not racing (already cleared, out of time,
        resigned, or a watcher): the room calls this whenever a seated player
        leaves, and leaving must always work."""
        racer = self.racers.get(player)
        if self.result is not None or racer is None or racer.status != "racing":
            return
        self._now = max(self._now, now)
        removed = reason == Termination.REMOVED
        self._leave(racer, "removed" if removed else "resigned", self._clock(racer, now))
        self._note(racer, {"t": racer.final, "action": "resign", "reason": reason.value})
        if removed:
            self._finish(now, removed=player)
        else:
            self._settle(now)

    def _leave(self, racer: Racer, status: Status, clock: float) -> None:
        self._left += 1
        racer.status, racer.final, racer.left_no = status, round(clock, 3), self._left

    def shift(self, seconds: float) -> None:
        self.start_at += seconds
        self._now += seconds

    def deadline(self) -> float | None:
        """The countdown end, then the next moment a racer's clock runs out."""
        if self.result is not None:
            return None
        if not self._announced:
            return self.start_at
        best = self._best()
        cap = self.time_limit if best is None else min(self.time_limit, best)
        ends = [
            self.start_at + cap - r.penalty for r in self.racers.values() if r.status == "racing"
        ]
        return min(ends) if ends else None

    def tick(self, now: float) -> list[JSON]:
        """Start the race after the countdown; stop clocks that ran out."""
        if self.result is not None or now < self.start_at:
            return []
        self._now = max(self._now, now)
        events: list[JSON] = []
        if not self._announced:
            self._announced = True
            events.append({"type": "race-start"})
        return events + self._settle(now)

    def _settle(self, now: float) -> list[JSON]:
        """Mark racers out of time; end the race when nobody can still win it."""
        if now < self.start_at:
            if not any(r.status == "racing" for r in self.racers.values()):
                self._finish(now)
            return []
        notices: list[JSON] = []
        for player, racer in self.racers.items():
            if racer.status == "racing" and self._clock(racer, now) >= self.time_limit:
                self._leave(racer, "time", self.time_limit)
                notices.append({"type": "time-up", "player": player})
        best = self._best()
        if not any(
            r.status == "racing" and (best is None or self._clock(r, now) < best)
            for r in self.racers.values()
        ):
            self._finish(now)
        return notices

    def _finish(self, now: float, removed: str | None = None) -> None:
        """The result; ``removed``: the host removed that racer, so nobody is placed."""
        racers = self.racers
        seat = {p: i for i, p in enumerate(self.players)}
        times = {p: round(self._clock(r, now), 3) for p, r in racers.items()}

        def status_of(p: str) -> Status:
            return racers[p].status

        cleared = sorted(
            (p for p in racers if status_of(p) == "cleared"),
            key=lambda p: (times[p], racers[p].left_no),
        )
        standing = sorted(
            (p for p in racers if status_of(p) in ("racing", "time")),
            key=lambda p: (racers[p].remaining, racers[p].reached, seat[p]),
        )
        resigned = sorted(
            (p for p in racers if status_of(p) == "resigned"), key=lambda p: -racers[p].left_no
        )
        ranking = cleared + standing + resigned
        reason = RaceEnd.CLEARED if cleared else RaceEnd.TIME if standing else Termination.RESIGN
        winner = ranking[0] if reason != Termination.RESIGN else None
        details: JSON = {
            "ranking": ranking,
            "times": times,
            "remaining": {p: r.remaining for p, r in racers.items()},
            "stats": {
                p: {
                    "hints": r.hints,
                    "wrong": r.wrong,
                    "shuffles": r.shuffles,
                    "penalty": r.penalty,
                }
                for p, r in racers.items()
            },
        }
        if removed is not None:  # times and stats stay; no ranking, so nobody is rated
            del details["ranking"]
            details["removed"] = removed
            self.result = Outcome(Termination.REMOVED, None, details).to_map()
            return
        if reason == RaceEnd.TIME and len(standing) > 1:
            first, second = racers[standing[0]], racers[standing[1]]
            details["decided_by"] = (
                "tiles"
                if first.remaining != second.remaining
                else "first"
                if first.reached != second.reached
                else "seat"
            )
        self.result = Outcome(reason, winner, details).to_map()

    # -- what others may see --------------------------------------------------

    def view(self, recipient: str | None) -> JSON:
        """The only place a board leaves the game: to its owner, nobody else
        (``showing.py``)."""
        return view_of(self, recipient)

    def visible_move(self, by: str, move: JSON, recipient: str | None) -> JSON:
        """Coordinates go to the mover only: on the shared layout they reveal pairs."""
        if recipient == by:
            return dict(move)
        return {"action": move.get("action")}

    # -- what Link-match does not have ----------------------------------------

    def request(self, player: str, kind: str, now: float) -> JSON:
        """No consent requests in a race."""
        raise GameError("illegal-move", "Link-match has no draw or take-back requests.")

    def respond(self, player: str, kind: str, accept: bool, now: float) -> JSON:
        """No consent requests in a race."""
        raise GameError("illegal-move", "Link-match has no draw or take-back requests.")

    def add_player(self, player: str, now: float) -> bool:
        """Late joiners watch: every racer must start from the same board together."""
        return False

    def record(self) -> JSON:
        """Options, seed, the starting board, every racer's actions, the result."""
        return {
            "game": "linkmatch",
            "options": dict(self.options),
            "seed": self.seed,
            "players": list(self.players),
            "board": copy_rows(self.board),
            "actions": {p: list(r.log) for p, r in self.racers.items()},
            "actions_omitted": {p: r.omitted for p, r in self.racers.items() if r.omitted},
            "result": self.result,
        }

    def state(self) -> JSON:
        """Everything this race is, as plain data (:func:`from_state` makes it again)."""
        return {
            "options": dict(self.options),
            "players": list(self.players),
            "result": self.result,
            "seed": self.seed,
            "start_at": self.start_at,
            "now": self._now,
            "announced": self._announced,
            "left": self._left,
            "board": copy_rows(self.board),
            "racers": {p: asdict(r) for p, r in self.racers.items()},
        }


def from_state(state: JSON) -> LinkMatchGame:
    """The race :meth:`LinkMatchGame.state` described."""
    game = LinkMatchGame(
        state["options"],
        state["players"],
        int(state["seed"]),
        float(state["now"]),
        board=copy_rows(state["board"]),
    )
    game.result = state["result"]
    game.start_at = float(state["start_at"])
    game._announced = bool(state["announced"])
    game._left = int(state["left"])
    game.racers = {p: Racer(**r) for p, r in state["racers"].items()}
    return game
