"""``--metrics`` on the command line and in the settings file, and its clear refusal
when ``prometheus-client`` is not installed."""

from __future__ import annotations

import builtins
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gridhall.server import cli
from tests.server.test_config_file import start as config_of


def test_metrics_are_off_unless_asked_for_on_the_command_line_or_in_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = str(tmp_path / "g.db")
    assert not config_of(monkeypatch, ["--db", db]).metrics
    assert config_of(monkeypatch, ["--db", db, "--metrics"]).metrics
    settings = tmp_path / "gridhall.toml"
    settings.write_text("metrics = true\n", "utf-8")
    assert config_of(monkeypatch, ["--db", db, "--config", str(settings)]).metrics


@pytest.mark.timeout(60)  # (were the module found, a real server would run on)
def test_metrics_without_prometheus_client_stop_the_server_with_a_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def no_prometheus(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("prometheus_client") or name.rsplit(".", 1)[-1] == "metrics":
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_prometheus)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--db", str(tmp_path / "g.db"), "--metrics"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "prometheus-client" in err and "gridhall[metrics]" in err


def test_the_start_up_output_says_where_the_metrics_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.0.2.7"])
    server = SimpleNamespace(
        port=8765,
        config=SimpleNamespace(name="hall", db="/tmp/g.db", host="0.0.0.0"),
        hub=SimpleNamespace(lobby=SimpleNamespace(rooms={})),
        metrics=object(),
        admin=SimpleNamespace(token="t" * 32),
    )
    cli.announce(server)  # type: ignore[arg-type]
    assert "metrics: http://localhost:8765/metrics" in capsys.readouterr().out
    server.metrics = None
    cli.announce(server)  # type: ignore[arg-type]
    assert "/metrics" not in capsys.readouterr().out
