"""Gomoku analysis: the hard engine's judgement of every position of a finished game.

Pure and synchronous (no asyncio, no store): the server runs :func:`analyse_ply`
in its worker pool, one ply per job, and :func:`notes` turns the per-ply answers
into the notes a replay shows. Everything the engine is asked goes through
:func:`analyse_ply`, so a stronger search (a dedicated VCF solver) plugs in there.

Scores are from the side to move: -1000..1000, where +-1000 is a forced win
(a VCF, a proven VCT, or a won search) and the rest a squashed search score.

Marks: ``missed-vcf`` and ``lost-win`` for a win the mover let go, ``blunder`` for a
move after which the opponent had a forced win that another move would have stopped
(:mod:`.blunders`; that move is the note's ``best``).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

from gridhall.server.games.gomoku.ai import clock, hard
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.search import WIN, Searcher
from gridhall.server.games.gomoku.ai.threats import ThreatSearch, Timeout
from gridhall.server.games.gomoku.blunders import find_defence

ENGINE = "hard"
"""The engine named in every ``analysis`` answer (stored with it)."""
WIN_EVAL = 1000
"""An evaluation this high (from the mover's side) is a forced win."""
SCALE = 3000.0
"""Search scores are squashed by ``tanh(score / SCALE)`` into -999..999."""
VCF_SHARE = 0.4
"""Part of a ply's budget spent looking for a VCF before the full engine runs."""
PROVEN = ("five", "open-four", "vcf", "vct")
"""The hard engine's reasons that mean a forced win for the side to move."""
DEFENCE_SHARE = 0.5
"""A position whose side to move has a forced win may take this share of a budget more,
to find the defence the move before it missed (:func:`.blunders.find_defence`)."""

Point = tuple[int, int]
PlyResult = tuple[int, Point | None, list[Point] | None, Point | None]
"""(eval from the mover's side, the engine's best move, a VCF line or None, and when
the mover has a forced win, the move before's defence against it or None)."""


def _squash(score: int) -> int:
    if abs(score) >= WIN - 100:
        return WIN_EVAL if score > 0 else -WIN_EVAL
    return max(-999, min(999, round(999 * math.tanh(score / SCALE))))


VcfFinder = Callable[[list[Point], int, str, float], "list[Point] | None"]


def _vcf_finder() -> VcfFinder:
    """The engine's ``ai/vcf.find_vcf`` (shortest lines first, shared memo) where the
    engine has it, else :func:`_find_vcf`: the same question and answer."""
    try:
        module = importlib.import_module("gridhall.server.games.gomoku.ai.vcf")
    except ImportError:
        return _find_vcf
    found: VcfFinder = module.find_vcf
    return found


def _find_vcf(moves: list[Point], size: int, rule: str, deadline: float) -> list[Point] | None:
    """A VCF for the side to move (its stones and the forced replies, alternating)."""
    pos = Position(size, rule, moves)
    try:
        line = ThreatSearch(pos, deadline).vcf()
    except Timeout:
        return None
    return [pos.xy(p) for p in line] if line else None


def analyse_ply(
    moves: list[Point], size: int, rule: str, budget: float, before: Point | None = None
) -> PlyResult:
    """The position after ``moves`` (black first), seen by the side to move: its
    evaluation, the engine's best move (None on a full board) and a VCF line when one
    was found, within about ``budget`` seconds; when the side to move has a forced
    win, also the move that would have stopped it instead of the last ply (``before``:
    the engine's best move there, tried first), within :data:`DEFENCE_SHARE` more.
    The seconds are this process's CPU time: an analysis is kept for good, so a busy
    machine must not make it shallower (issue 40)."""
    with clock.using("cpu"):
        return _analyse_ply(moves, size, rule, budget, before)


def _analyse_ply(
    moves: list[Point], size: int, rule: str, budget: float, before: Point | None
) -> PlyResult:
    start = clock.now()
    moves = [(int(x), int(y)) for x, y in moves]
    value, best, line = _judge(moves, size, rule, budget, start)
    defence = None
    if value >= WIN_EVAL and moves:
        deadline = start + budget * (1 + DEFENCE_SHARE)
        defence = find_defence(moves[:-1], moves[-1], size, rule, deadline, before)
    return value, best, line, defence


def _judge(
    moves: list[Point], size: int, rule: str, budget: float, start: float
) -> tuple[int, Point | None, list[Point] | None]:
    if len(moves) >= size * size:
        return 0, None, None
    line = _vcf_finder()(moves, size, rule, start + budget * VCF_SHARE)
    if line:
        return WIN_EVAL, line[0], line
    pos = Position(size, rule, moves)
    stats = hard.Stats()
    try:
        best = hard.choose_in(pos, max(0.01, budget - (clock.now() - start)), clock.now(), stats)
    except ValueError:  # no legal move (a renju board black cannot play on)
        return 0, None, None
    if stats.reason in PROVEN:
        return WIN_EVAL, best, None
    if stats.reason in ("search", "defence"):
        return _squash(stats.score), best, None
    return _squash(Searcher(pos, clock.now() + 1.0).evaluate()), best, None


def positions(moves: list[Point], five_at_end: bool) -> int:
    """How many positions an analysis of ``moves`` asks about: the one before each
    ply, and the final one unless the game ended with a five."""
    return len(moves) + (0 if five_at_end else 1)


def notes(moves: list[Point], results: list[PlyResult]) -> list[dict[str, Any]]:
    """One MOVE_NOTE per ply (PROTOCOL.md, "Analysis"), from ``results[k]``, the
    analysis of the position before ply k + 1 (and, if present, of the final one).

    A mover "still wins" after its ply when the ply made five (no position follows
    it), when it holds a forced win again at its next turn (after a VCF: a VCF again,
    see :func:`_still_wins`), or, when the game ended
    before that turn, when the opponent's position after the ply is lost. Marks:
    ``missed-vcf`` when a VCF existed and the ply was none of its attacking stones
    and did not win otherwise; ``lost-win`` when the mover had a forced win and no
    longer has one; ``blunder`` when the mover was not lost, the opponent has a forced
    win after the ply, and another move would have stopped it (then ``best`` is that
    move)."""
    out: list[dict[str, Any]] = []
    for k, played in enumerate(moves):
        if k >= len(results):
            break
        value, best, line, _defence = results[k]
        note: dict[str, Any] = {
            "n": k + 1,
            "eval": value,
            "best": list(best) if best is not None else None,
        }
        defence = results[k + 1][3] if k + 1 < len(results) else None
        if value >= WIN_EVAL and not _still_wins(k, results, by_fours=bool(line)):
            attacks = line[0::2] if line else []
            note["mark"] = "missed-vcf" if line and played not in attacks else "lost-win"
        elif defence is not None and value > -WIN_EVAL and results[k + 1][0] >= WIN_EVAL:
            note["mark"], note["best"] = "blunder", list(defence)
        out.append(note)
    return out


def _still_wins(k: int, results: list[PlyResult], by_fours: bool = False) -> bool:
    """Does the mover of ply k + 1 still hold its forced win after it? ``by_fours``
    (it had a VCF): only a VCF again at its next turn counts (a line of fours is
    checked to the end), not the engine's view of slower wins, which depends on
    how far it got within the budget: a missed VCF is marked on every machine."""
    if k + 1 >= len(results):
        return True  # nothing after this ply: it made five
    if k + 2 < len(results):
        if by_fours:
            return bool(results[k + 2][2])
        return results[k + 2][0] >= WIN_EVAL
    return -results[k + 1][0] >= WIN_EVAL
