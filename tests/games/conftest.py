"""Fixtures for the games' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gridhall.server.games.gomoku.ai import clock


@pytest.fixture
def cpu_clock() -> Iterator[None]:
    """The engine's budgets and deadlines in CPU seconds: the work done, whatever the
    machine's load (on the wall clock a loaded machine leaves a search a few
    milliseconds of thinking, and a test of what it finds fails now and then)."""
    with clock.using("cpu"):
        yield
