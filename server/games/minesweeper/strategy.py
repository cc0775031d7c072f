"""Which cell a solo player should reveal next.

Order of play, after what the strongest published solvers do:

1. The first click goes near a corner, at (3, 3): with the opening rule it is
   always an opening, and there it opens more of the board per risk taken later
   than at the centre or in the corner itself.
2. Any proven-safe cell (rules, then exact enumeration).
3. A 50/50 that no future reveal can settle is guessed at once: it must be
   guessed sometime, and its number may help later decisions.
4. When few layouts remain (at most ``ENDGAME_LAYOUTS``), an exhaustive search
   of the game tree: the move that wins most often with perfect play after it.
5. Otherwise a guess. Candidates are the safest cells (within ``CUTOFF`` of the
   safest), the representatives of the unconstrained interior with the fewest
   hidden neighbours, and each is scored by *two-step survival*: the chance it
   is safe times, over every number it can show (weighted exactly), the chance
   the following move is safe too (1 when the number leads to a proven-safe
   cell). That prefers guesses that open progress, and among equally safe
   ones the one whose reveal tells the most.
"""

from __future__ import annotations

from .endgame import best_endgame_move
from .probability import Analysis, analyse
from .solver import DEFAULT_BUDGET, MINE, NO_NUMBER, UNKNOWN, Knowledge, knowledge_from_rows

FIRST = (3, 3)
CUTOFF = 0.9
"""Guess candidates are safe at least this fraction as often as the safest cell."""
MAX_FRONTIER_CANDIDATES = 8
MAX_INTERIOR_CANDIDATES = 4
ENDGAME_LAYOUTS = 300
ENDGAME_NODES = 30_000
LOOKAHEAD_BUDGET = 20_000


def first_cell(width: int, height: int) -> int:
    """Where to click first on an untouched board."""
    x = min(FIRST[0], (width - 1) // 2)
    y = min(FIRST[1], (height - 1) // 2)
    return y * width + x


def best_move(rows: list[str], mines: int) -> tuple[int, int]:
    """The cell (x, y) a solo player should reveal next, from a view's ``rows``
    (flags are not trusted) and the board's total mine count."""
    k = knowledge_from_rows(rows, mines)
    if k.unknown == 0:
        raise ValueError("no hidden cell is left to reveal")
    cell, _ = choose(k)
    return cell % k.width, cell // k.width


def choose(k: Knowledge, budget: int = DEFAULT_BUDGET) -> tuple[int, float]:
    """The next cell to reveal and its risk of being a mine. Updates ``k``
    with what it proves on the way (cells it proves safe stay unrevealed)."""
    if not any(n != NO_NUMBER for n in k.number):
        cell = first_cell(k.width, k.height)
        if k.state[cell] == UNKNOWN:
            return cell, 0.0
    safe = proven_safe(k, budget)
    if safe:
        return safe[0], 0.0
    analysis = analyse(k, budget)
    return choose_guess(k, analysis, budget)


def proven_safe(k: Knowledge, budget: int = DEFAULT_BUDGET) -> list[int]:
    """Hidden cells proven safe (not yet revealed), running rules and analysis."""
    state, number = k.state, k.number
    pending = [
        c
        for c in range(len(state))
        if state[c] != MINE and number[c] == NO_NUMBER and state[c] != UNKNOWN
    ]
    if pending:
        return pending
    k.settle(budget=budget)
    return [
        c
        for c in range(len(state))
        if state[c] != MINE and number[c] == NO_NUMBER and state[c] != UNKNOWN
    ]


def choose_guess(
    k: Knowledge,
    analysis: Analysis,
    budget: int = DEFAULT_BUDGET,
    lookahead: int = LOOKAHEAD_BUDGET,
) -> tuple[int, float]:
    """The best guess when nothing is proven safe; ``lookahead`` caps the
    enumeration nodes of each trial reveal (0: no look-ahead)."""
    prob = {c: p for c, p in analysis.prob.items() if c not in analysis.mines}
    if not prob:
        prob = dict(analysis.prob)
    if not prob:
        raise ValueError("every hidden cell is a mine: nothing is left to reveal")
    forced = forced_guess(k, prob)
    if forced is not None:
        return forced, prob[forced]
    if analysis.exact and analysis.weight <= ENDGAME_LAYOUTS:
        found = best_endgame_move(k, ENDGAME_LAYOUTS, ENDGAME_NODES)
        if found is not None:
            return found, prob.get(found, 0.0)
    candidates = guess_candidates(k, prob)
    if len(candidates) == 1 or not analysis.exact or lookahead <= 0:
        cell = candidates[0]
        return cell, prob[cell]
    best_cell, best_score = candidates[0], -1.0
    for c in candidates:
        score = two_step_survival(k, c, prob[c], lookahead)
        if score > best_score + 1e-12:
            best_cell, best_score = c, score
    return best_cell, prob[best_cell]


def forced_guess(k: Knowledge, prob: dict[int, float]) -> int | None:
    """A cell of a 50/50 that no future reveal can settle, if any (see
    :func:`forced_pair`)."""
    pair = forced_pair(k, prob)
    return None if pair is None else pair[0]


def forced_pair(k: Knowledge, prob: dict[int, float]) -> tuple[int, int] | None:
    """A 50/50 that no future reveal can settle, if any: (the cell to guess, the
    other cell of the pair).

    Two hidden cells that are the only hidden neighbours of some number needing
    exactly one mine, with the same numbers around them and the same other
    hidden neighbours, always receive the same information: one of them must
    be guessed sooner or later at 50%, so guessing now loses nothing and its
    number may help every later decision (JSMinesweeper's 50/50 rule)."""
    state, number, around, nb = k.state, k.number, k.mines_around, k.nb
    best: tuple[float, int, int] | None = None
    for c in k.active:
        if k.hidden_around[c] != 2 or number[c] - around[c] != 1:
            continue
        a, b = (n for n in nb[c] if state[n] == UNKNOWN)
        # Symmetric now (same numbers around both) and for ever (same hidden
        # neighbours, so any later number sees both or neither).
        if {n for n in nb[a] if number[n] != NO_NUMBER} != {
            n for n in nb[b] if number[n] != NO_NUMBER
        }:
            continue
        rest_a = {n for n in nb[a] if state[n] == UNKNOWN and n != b}
        rest_b = {n for n in nb[b] if state[n] == UNKNOWN and n != a}
        if rest_a != rest_b:
            continue
        for cell, other in ((a, b), (b, a)):
            if cell in prob and (best is None or (prob[cell], cell) < best[:2]):
                best = (prob[cell], cell, other)
    return None if best is None else (best[1], best[2])


def guess_candidates(k: Knowledge, prob: dict[int, float]) -> list[int]:
    """The safest frontier cells and a few interior representatives."""
    state, nb, number = k.state, k.nb, k.number

    def hidden_nb(c: int) -> int:
        return sum(1 for n in nb[c] if state[n] == UNKNOWN)

    best = min(prob.values())
    cutoff = 1 - (1 - best) * CUTOFF
    frontier: list[int] = []
    interior: list[int] = []
    for c, p in prob.items():
        if p > cutoff + 1e-12:
            continue
        if any(number[n] != NO_NUMBER for n in nb[c]):
            frontier.append(c)
        else:
            interior.append(c)
    frontier.sort(key=lambda c: (prob[c], hidden_nb(c), c))
    interior.sort(
        key=lambda c: (prob[c], hidden_nb(c), -sum(1 for n in nb[c] if state[n] != UNKNOWN), c)
    )
    chosen = frontier[:MAX_FRONTIER_CANDIDATES] + interior[:MAX_INTERIOR_CANDIDATES]
    chosen.sort(key=lambda c: (prob[c], hidden_nb(c), c))
    return chosen or [min(prob, key=lambda c: (prob[c], c))]


def two_step_survival(
    k: Knowledge, cell: int, risk: float, budget: int = LOOKAHEAD_BUDGET
) -> float:
    """P(cell is safe) x P(the move after it is safe too), where every number
    ``cell`` can show is weighted by its exact share of the layouts and a number
    that leads to a proven-safe cell counts as a sure next move."""
    state, nb = k.state, k.nb
    known = sum(1 for n in nb[cell] if state[n] == MINE)
    hidden = sum(1 for n in nb[cell] if state[n] == UNKNOWN)
    outcomes: list[tuple[int, float]] = []
    for value in range(known, known + hidden + 1):
        trial = k.copy()
        try:
            trial.reveal(cell, value)
            trial.rules()
            progress = bool(trial.found_safe)
            result = analyse(trial, budget)
        except ValueError:
            continue
        if not result.exact or result.weight == 0:
            return 1 - risk
        if progress or result.safe or trial.solved():
            outcomes.append((result.weight, 1.0))
        else:
            rest = [p for c, p in result.prob.items() if c not in result.mines]
            outcomes.append((result.weight, 1 - min(rest) if rest else 1.0))
    total = sum(w for w, _ in outcomes)
    if not total:
        return 0.0
    return (1 - risk) * sum(w / total * f for w, f in outcomes)
