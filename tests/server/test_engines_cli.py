"""``--engine NAME=COMMAND`` and ``--analysis-budget`` on the command line and in the
settings file: what reaches the server's config, and what is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall.server.io.workers.engines import EngineSpec, parse_spec
from tests.server.test_config_file import start, write


def test_engines_reach_the_config_from_the_command_line_and_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = start(
        monkeypatch,
        [
            "--engine",
            "rapfi=/opt/rapfi/pbrain-rapfi --threads 1",
            "--engine",
            "fake='my engine' -q",
            "--analysis-budget",
            "0.2",
        ],
    )
    assert config.engines == (
        ("rapfi", ("/opt/rapfi/pbrain-rapfi", "--threads", "1")),
        ("fake", ("my engine", "-q")),
    )
    assert config.analysis_budget == 0.2
    path = write(tmp_path, 'engines = ["embryo=/usr/bin/pbrain-embryo"]\nanalysis_budget = 1.5\n')
    config = start(monkeypatch, ["--config", path])
    assert config.engines == (("embryo", ("/usr/bin/pbrain-embryo",)),)
    assert config.analysis_budget == 1.5


@pytest.mark.parametrize(
    "argv",
    [
        ["--engine", "no-command="],
        ["--engine", "bad name=x"],
        ["--engine", "just-a-command"],
        ["--engine", "q=a 'b"],
        ["--analysis-budget", "0"],
        ["--analysis-budget", "x"],
    ],
)
def test_a_bad_engine_or_budget_is_refused_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridhall.server import cli

    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("gridhall-server: error: argument")


def test_a_bad_engine_in_the_file_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridhall.server import cli

    path = write(tmp_path, 'engines = ["nothing"]\n')
    with pytest.raises(SystemExit):
        cli.main(["--config", path])
    err = capsys.readouterr().err.strip()
    assert "engines" in err and "NAME=COMMAND" in err and len(err.splitlines()) == 1


def test_an_engine_command_is_split_as_a_shell_would_but_never_run_by_one() -> None:
    assert parse_spec("x=a 'b c' $HOME;rm") == EngineSpec("x", ("a", "b c", "$HOME;rm"))
