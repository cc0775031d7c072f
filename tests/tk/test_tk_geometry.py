"""Where the Tk client puts cells on a canvas of any size (clicks -> requests and the
bars are the views' and are tested with them in tests/client)."""

from __future__ import annotations

from gridhall.client.tk.geometry import Geometry


def test_geometry_fits_and_maps_pixels_back_to_cells() -> None:
    g = Geometry.fit(15, 15, 800, 600, margin=1.0)
    assert g.cell == 600 / 17
    for cell in ((0, 0), (7, 7), (14, 14)):
        assert g.cell_at(*g.center(*cell)) == cell
    assert g.cell_at(g.left - 1, g.top + 1) is None
    assert g.cell_at(g.left - 1, g.top + 1, ring=1) == (-1, 0)  # Link-match's ring


def test_geometry_scales_with_the_window() -> None:
    assert Geometry.fit(9, 9, 900, 900).cell > Geometry.fit(9, 9, 450, 450).cell
