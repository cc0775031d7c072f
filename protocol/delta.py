"""Deltas: a view as the changes from the previous one, for clients that ask.

A client that says ``hello`` with ``deltas: true`` gets each ``moved`` as a
``view`` holding only the fields that are not patched, plus ``delta``: for each
patched field, how its previous value (in the client's copy of the view)
becomes the new one. Only lists are patched, in one of two ways:

- ``{"at": n, "append": [items]}``: the list had ``n`` items and grows by these
  (Gomoku's ``moves``, Minesweeper's ``exploded``); ``{}`` leaves it as it was;
- ``{"rows": [[row, column, text], ...]}``: a list of strings of the same count,
  where ``text`` replaces as many characters of string ``row`` from ``column``
  (Minesweeper's ``rows``: the cells that changed, in runs).

Lists of fewer than 16 items, and every other field, are sent whole, so small
fields (whose turn it is, clocks, offers, a link's path) are always exact; a field
absent from both ``view`` and ``delta`` is gone. So the bytes a move costs each recipient follow what changed, not the
board. Pure and game-agnostic: clients fold a delta with the same few rules
(:func:`apply`), knowing no game.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

MIN_ITEMS = 16
"""Lists shorter than this (in the previous view) are sent whole: too small to gain."""
GAP = 8
"""Unchanged characters between two changed ones that still go in one run (a run
costs a few bytes of its own)."""


def diff(old: JSON, new: JSON) -> tuple[JSON, JSON] | None:
    """``new`` as (fields sent whole, patches of the others) against ``old``; None
    when nothing can be patched (send ``new`` whole)."""
    whole: JSON = {}
    patches: JSON = {}
    for key, value in new.items():
        before = old.get(key)
        patch = (
            _patch(before, value)
            if type(value) is list and type(before) is list and len(before) >= MIN_ITEMS
            else None
        )
        if patch is None:
            whole[key] = value
        else:
            patches[key] = patch
    return (whole, patches) if patches else None


def _patch(old: list[Any], new: list[Any]) -> JSON | None:
    n = len(old)
    if n < MIN_ITEMS:
        return None
    if len(new) >= n and new[:n] == old:
        return {"at": n, "append": new[n:]} if len(new) > n else {}
    if len(new) == n and n and type(new[0]) is str:
        return _rows(old, new)
    return None


def _rows(old: list[Any], new: list[Any]) -> JSON | None:
    """Runs of changed characters, or None when sending the list whole is as small."""
    runs: list[list[Any]] = []
    size = 0
    budget = sum(map(len, new)) // 2
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a == b:
            continue
        if type(a) is not str or type(b) is not str or len(a) != len(b):
            return None
        for start, end in _changed(a, b):
            runs.append([i, start, b[start:end]])
            size += end - start + 6
        if size > budget:
            return None
    return {"rows": runs}


def _changed(a: str, b: str) -> list[tuple[int, int]]:
    """[start, end) spans where ``b`` differs from ``a`` (same length), close ones merged."""
    spans: list[tuple[int, int]] = []
    start = end = -1
    for j, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        if start >= 0 and j - end <= GAP:
            end = j + 1
            continue
        if start >= 0:
            spans.append((start, end))
        start, end = j, j + 1
    if start >= 0:
        spans.append((start, end))
    return spans


class DeltaError(ValueError):
    """A delta that does not fit the view it is applied to (ask for a fresh state)."""


def apply(view: JSON, whole: JSON, patches: JSON) -> JSON:
    """The new view: ``whole`` plus each patched field of ``view`` changed as
    ``patches`` say (the client's side; raises DeltaError when they do not fit)."""
    out = dict(whole)
    for key, patch in patches.items():
        value = view.get(key)
        if not isinstance(value, list) or not isinstance(patch, dict):
            raise DeltaError(f"no list {key!r} to patch")
        if "append" in patch:
            if patch.get("at") != len(value) or not isinstance(patch["append"], list):
                raise DeltaError(f"{key!r} has {len(value)} items, not {patch.get('at')}")
            value = value + patch["append"]
        if "rows" in patch:
            value = list(value)
            for run in patch["rows"]:
                if not (isinstance(run, list) and len(run) == 3):
                    raise DeltaError("a run is [row, column, text]")
                i, j, text = run
                if not (
                    isinstance(i, int)
                    and isinstance(j, int)
                    and isinstance(text, str)
                    and 0 <= i < len(value)
                    and isinstance(value[i], str)
                    and 0 <= j
                    and j + len(text) <= len(value[i])
                ):
                    raise DeltaError(f"run {run!r} is off {key!r}")
                row = value[i]
                value[i] = row[:j] + text + row[j + len(text) :]
        out[key] = value
    return out
