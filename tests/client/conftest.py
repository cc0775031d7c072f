"""What every client test shares: its own config directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def config_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's config file (name, token, language) lives in the test's own tmp dir:
    no test reads or writes the user's, and none sees another's."""
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path / "config"))
