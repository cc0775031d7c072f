"""Where cells sit on a canvas of any size: the one display-free decision only a
pixel UI needs (board looks and click -> request come from :mod:`client.views`)."""

from __future__ import annotations

from dataclasses import dataclass

MIN_CELL = 12
MAX_CELL = 96


@dataclass(frozen=True)
class Geometry:
    """Square cells laid out in a canvas, centred, with ``margin`` cells of frame
    around the grid (for labels, or a ring of empty cells a board may use)."""

    cols: int
    rows: int
    cell: float
    left: float
    top: float

    @classmethod
    def fit(cls, cols: int, rows: int, width: int, height: int, margin: float = 0.0) -> Geometry:
        """The largest cells that fit ``width`` x ``height`` pixels."""
        cols, rows = max(cols, 1), max(rows, 1)
        span_x, span_y = cols + 2 * margin, rows + 2 * margin
        cell = min(width / span_x, height / span_y)
        cell = max(MIN_CELL, min(MAX_CELL, cell))
        left = (width - cols * cell) / 2
        top = (height - rows * cell) / 2
        return cls(cols, rows, cell, left, top)

    def cell_at(self, px: float, py: float, ring: int = 0) -> tuple[int, int] | None:
        """The cell under a pixel (cells up to ``ring`` outside the grid count)."""
        x = int((px - self.left) // self.cell)
        y = int((py - self.top) // self.cell)
        if -ring <= x < self.cols + ring and -ring <= y < self.rows + ring:
            return x, y
        return None

    def box(self, x: float, y: float) -> tuple[float, float, float, float]:
        """Pixel rectangle of a cell (x0, y0, x1, y1)."""
        x0 = self.left + x * self.cell
        y0 = self.top + y * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell

    def center(self, x: float, y: float) -> tuple[float, float]:
        return self.left + (x + 0.5) * self.cell, self.top + (y + 0.5) * self.cell
