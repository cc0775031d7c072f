"""Link-match races as a game plug-in: options, seats, new games, and how a finished
race is replayed, counted (links) and rated (its ranking)."""

from __future__ import annotations

from collections.abc import Mapping

from gridhall.protocol.games import options
from gridhall.protocol.games.linkmatch import LINKMATCH
from gridhall.protocol.i18n import ngettext

from ..base import JSON, Game, GameSpec, OptionError, StartPolicy
from ..jobs import Job
from .board import Rows
from .game import LinkMatchGame, from_state
from .jobs import board_job
from .rating import RaceRating, links
from .rerun import LinkMatchRun

MAX_RACERS = 8


class LinkMatchSpec(GameSpec):
    """Link-match: 1 to 8 racers, started by the room's creator."""

    description = LINKMATCH
    start: StartPolicy = "manual"
    min_players = 1
    saves_games = True
    rating = RaceRating()

    def parse_options(self, raw: JSON) -> JSON:
        """Names, kinds, defaults and bounds come from the description; here only what
        joins fields: an even cell count, and kinds (by default 36) that fit the board."""
        parsed = options.parse(self.description, raw, OptionError)
        if not parsed["rated"]:
            del parsed["rated"]  # casual rooms' options stay as they were
        width, height = parsed["width"], parsed["height"]
        cells = width * height
        if cells % 2:
            raise OptionError(
                f"A {width}x{height} board has an odd number of cells; "
                "make width or height even so every tile has a partner."
            )
        if raw.get("kinds") is None:
            parsed["kinds"] = min(int(parsed["kinds"]), cells // 2)
        elif parsed["kinds"] > cells // 2:
            raise OptionError(
                f"Option `kinds` must be a whole number from 1 to {cells // 2} "
                f"on a {width}x{height} board; got {parsed['kinds']!r:.40}."
            )
        return parsed

    def max_players(self, options: JSON) -> int:
        """Up to eight racers, whatever the options."""
        return MAX_RACERS

    def new_game_work(self, options: JSON, seed: int) -> Job:
        """Making the board is heavy: the room runs this job first and passes the
        answer to :meth:`new_game` as ``prepared``."""
        return board_job(options, seed)

    def new_game(
        self,
        options: JSON,
        players: list[str],
        round_no: int,
        seed: int,
        now: float,
        prepared: Rows | None = None,
    ) -> Game:
        """A race among the seated players on a board made from ``seed``."""
        return LinkMatchGame(options, players[:MAX_RACERS], seed, now, board=prepared)

    def restore_game(self, state: JSON) -> Game:
        """A race as :meth:`LinkMatchGame.state` saved it (a room's snapshot)."""
        return from_state(state)

    def replay(self, record: JSON, duration: float | None = None) -> LinkMatchRun:
        return LinkMatchRun(record, duration)

    def moves(self, record: JSON) -> int:
        """Right links, every racer's."""
        return sum(links(record).values())

    def moves_text(self, record: JSON, names: Mapping[str, str]) -> str:
        """The links, and each racer's when there were several racers."""
        per_racer = links(record)
        total = sum(per_racer.values())
        count = ngettext("{count} link", "{count} links", total, count=total)
        if len(per_racer) > 1:
            count += " (" + ", ".join(f"{names.get(p, p)} {n}" for p, n in per_racer.items()) + ")"
        return count


SPEC: GameSpec = LinkMatchSpec()
