"""Hints within a work budget, as plain picklable calls for a process pool.

:func:`hint` answers one of four things, and says which:

- ``safe``: a hidden cell proven safe from the view (risk 0);
- ``coin-flip``: nothing is provable, every component was enumerated, and the
  cell is a true 50/50: a pair that no reveal can ever tell apart (``other`` is
  the pair's other cell), or a 50% cell when no hidden cell is safer. Calling it
  "the best guess" would promise more than there is;
- ``guess``: nothing is provable, every frontier component was enumerated, and
  this is the lowest-risk cell with its risk;
- ``unsure``: the budget ran out before every component was enumerated, no
  certain cell was found in what was, and this cell is the best estimate (its
  risk is an estimate too).

``budget`` counts search nodes of the exact enumeration (each trial reveal of
the guess look-ahead gets ``budget // 50``), so the same view and budget always
give the same answer and the same amount of work; the cheap rules (linear in
the frontier) always run in full.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .probability import analyse
from .solver import DEFAULT_BUDGET, MINE, NO_NUMBER, UNKNOWN, Knowledge, knowledge_from_rows
from .strategy import choose_guess, forced_pair

HintKind = Literal["safe", "coin-flip", "guess", "unsure"]
EVEN = 1e-9
"""A risk this close to 1/2 is a coin flip (exact enumeration gives 0.5 itself)."""
LOOKAHEAD_CELLS = 2500
"""Boards up to this many cells get the strategy's look-ahead for guesses."""
LOOKAHEAD_SHARE = 50
"""Each trial reveal of the look-ahead may spend budget / this many nodes (a
guess compares at most a dozen cells of at most nine numbers each)."""


@dataclass(frozen=True)
class Hint:
    """A hint: the cell, what is known about it, and its risk of being a mine."""

    kind: HintKind
    x: int
    y: int
    risk: float
    other: tuple[int, int] | None = None
    """A coin flip's other cell, when it is one of a pair no reveal can settle."""

    @property
    def safe(self) -> bool:
        return self.kind == "safe"


def hint(
    rows: list[str], mines: int, budget: int = DEFAULT_BUDGET, avoid: Iterable[tuple[int, int]] = ()
) -> Hint | None:
    """The hint for a view's ``rows`` and total ``mines`` (None when every
    hidden cell is a mine, so nothing is left to reveal). Cells in ``avoid`` (e.g. flagged ones) are suggested only
    when nothing else is safe or possible."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise ValueError("budget must be a whole number >= 0")
    k = knowledge_from_rows(rows, mines)
    w = k.width
    avoided = {y * w + x for x, y in avoid}
    if k.unknown == 0:
        return None
    shown = set(_pending_safe(k.state, k.number))  # wrong flags: safe, not hidden
    k.rules()
    safe = [c for c in _pending_safe(k.state, k.number) if c not in shown]
    analysis = None
    if not safe:
        analysis = analyse(k, budget)
        safe = sorted(analysis.safe - shown)
    if safe:
        cell = min(safe, key=lambda c: (c in avoided, c))
        return Hint("safe", cell % w, cell // w, 0.0)
    assert analysis is not None
    if not analysis.prob:  # every hidden cell is a known mine
        return None
    prob = {c: p for c, p in analysis.prob.items() if c not in avoided} or analysis.prob
    if analysis.complete and len(k.state) <= LOOKAHEAD_CELLS:
        analysis.prob = prob
        cell, risk = choose_guess(k, analysis, budget, lookahead=budget // LOOKAHEAD_SHARE)
    else:
        cell = min(prob, key=lambda c: (prob[c], c))
        risk = prob[cell]
    if not analysis.complete:
        return Hint("unsure", cell % w, cell // w, round(risk, 4))
    return _guess(k, prob, cell, risk)


def _guess(k: Knowledge, prob: dict[int, float], cell: int, risk: float) -> Hint:
    """A guess on a fully enumerated view: a coin flip when it is one (see the module
    docstring), else the best guess."""
    w = k.width
    if abs(risk - 0.5) <= EVEN:
        pair = forced_pair(k, {c: p for c, p in prob.items() if p < 1})
        if pair is not None and cell in pair:
            partner = pair[1] if pair[0] == cell else pair[0]
            other = (partner % w, partner // w)
            return Hint("coin-flip", cell % w, cell // w, 0.5, other)
        if min(prob.values()) >= 0.5 - EVEN:  # nothing anywhere is safer
            return Hint("coin-flip", cell % w, cell // w, 0.5)
    return Hint("guess", cell % w, cell // w, round(risk, 4))


def _pending_safe(state: bytearray, number: bytearray) -> list[int]:
    return [
        c
        for c in range(len(state))
        if state[c] != UNKNOWN and state[c] != MINE and number[c] == NO_NUMBER
    ]
