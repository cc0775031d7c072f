"""Gomoku's analysis as a plug-in (``GameSpec.analysis``): a stored game's stones, one
job per position with the hard engine (:mod:`.analysis`), and the notes a replay
shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis import Analyser, AnalysisPlan
from ..base import JSON
from ..jobs import Job
from . import analysis
from .ai import RULES
from .analysis import Point

NO_MOVES = "That game's record holds no Gomoku moves."


class GomokuPlan(AnalysisPlan):
    """Every position of one game, from the empty board (the last one only when no
    five ended the game)."""

    def __init__(self, moves: list[Point], size: int, rule: str, five: bool) -> None:
        self.moves, self.size, self.rule = moves, size, rule
        self.total = analysis.positions(moves, five)

    def job(self, done: Sequence[Any], budget: float) -> Job:
        k = len(done)
        before = done[k - 1][1] if k else None  # tried first for a defence
        return Job(
            analysis.analyse_ply,
            (self.moves[:k], self.size, self.rule, budget, before),
            kind="analysis",
            budget=budget * 4 + 2,
            clock="cpu",  # as the engine's own deadlines (``analysis.analyse_ply``)
        )

    def notes(self, done: Sequence[Any]) -> list[JSON]:
        value: list[analysis.PlyResult] = [
            (v, best, line, defence) for v, best, line, defence in done
        ]
        return analysis.notes(self.moves, value)


class GomokuAnalyser(Analyser):
    """The hard engine, one position at a time."""

    engine = analysis.ENGINE

    def plan(self, record: JSON, options: JSON, result: JSON) -> GomokuPlan:
        """The stones, board size, rule and whether a five ended it; ValueError for a
        record that holds no Gomoku game (an old or odd row)."""
        options = {**(record.get("options") or {}), **options}
        size, rule = options.get("size", 15), options.get("rule", "freestyle")
        raw = record.get("moves")
        if not (
            isinstance(size, int)
            and 5 <= size <= 30
            and rule in RULES
            and isinstance(raw, list)
            and len(raw) <= size * size
        ):
            raise ValueError(NO_MOVES)
        moves: list[Point] = []
        seen: set[Point] = set()
        for m in raw:
            if (
                not (
                    isinstance(m, list)
                    and len(m) == 2
                    and all(isinstance(v, int) and 0 <= v < size for v in m)
                )
                or tuple(m) in seen
            ):
                raise ValueError(NO_MOVES)
            moves.append((m[0], m[1]))
            seen.add(moves[-1])
        return GomokuPlan(moves, size, str(rule), result.get("reason") == "five")
