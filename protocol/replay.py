"""A replay as a client steps through it: frames by index, no rules, no I/O.

A ``replay`` answer holds ``start`` (frame ``first``) and ``steps``, each the next
frame in the ``moved`` delta form (:func:`gridhall.protocol.delta.apply`). Frame k
is the view after k actions. :class:`Replay` keeps a whole view every
:attr:`Replay.every` frames, so going back or jumping costs at most that many
folds, and stepping forward one. Pages (``next``) are added with :meth:`extend`.

>>> r = Replay({"moves": []}, [{"t": 1.0, "by": "p1", "view": {"moves": [[7, 7]]},
...                             "delta": {}}])
>>> r.end()["moves"], r.position, r.back()["moves"]
([[7, 7]], 1, [])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .delta import apply

JSON = dict[str, Any]


class Replay:
    """Frames 0..:attr:`loaded` of one game; :attr:`position` is the one shown."""

    def __init__(
        self,
        start: JSON,
        steps: Iterable[JSON] = (),
        total: int | None = None,
        first: int = 0,
        every: int = 50,
    ) -> None:
        if every < 1:
            raise ValueError("every must be at least 1")
        self.first = first
        """The index of ``start`` (a replay may begin at a later page)."""
        self.every = every
        self.steps: list[JSON] = []
        self._marks: dict[int, JSON] = {first: start}
        self._at: tuple[int, JSON] = (first, start)
        self.position = first
        self.total = total
        """Steps in the whole game (None: as many as are loaded)."""
        self.extend(steps)

    @classmethod
    def from_answer(cls, answer: Mapping[str, Any], every: int = 50) -> Replay:
        """The replay a ``replay`` answer (a decoded map) starts."""
        return cls(
            dict(answer["start"]),
            answer.get("steps") or (),
            answer.get("total"),
            int(answer.get("first") or 0),
            every,
        )

    def extend(self, steps: Iterable[JSON]) -> None:
        """Add the steps that follow the loaded ones (the next page's)."""
        self.steps.extend(steps)

    @property
    def loaded(self) -> int:
        """The last frame that can be shown."""
        return self.first + len(self.steps)

    @property
    def complete(self) -> bool:
        """Every step of the game is loaded."""
        return self.total is None or self.loaded >= self.total

    def step(self, k: int | None = None) -> JSON | None:
        """The step that made frame ``k`` (default: the shown one): ``t``, ``by``,
        ``label``; None for the first frame."""
        k = self.position if k is None else k
        if not self.first < k <= self.loaded:
            return None
        return self.steps[k - self.first - 1]

    def view(self, k: int | None = None) -> JSON:
        """Frame ``k`` (default: the shown one), clamped to the loaded frames."""
        k = self._clamp(self.position if k is None else k)
        at, view = self._at
        if at > k or k - at > self.every:
            base = max(m for m in self._marks if m <= k)
            at, view = base, self._marks[base]
        while at < k:
            step = self.steps[at - self.first]
            view = apply(view, step.get("view") or {}, step.get("delta") or {})
            at += 1
            if (at - self.first) % self.every == 0:
                self._marks[at] = view
        self._at = (at, view)
        return view

    def jump(self, k: int) -> JSON:
        """Show frame ``k`` (clamped)."""
        self.position = self._clamp(k)
        return self.view()

    def forward(self) -> JSON:
        return self.jump(self.position + 1)

    def back(self) -> JSON:
        return self.jump(self.position - 1)

    def start(self) -> JSON:
        return self.jump(self.first)

    def end(self) -> JSON:
        return self.jump(self.loaded)

    def _clamp(self, k: int) -> int:
        return max(self.first, min(self.loaded, k))
