"""The terminal client speaks ``--lang`` (else the locale's language), from its help
text on: a player who runs ``gridhall --lang vi`` sees Vietnamese in the lobby, the
dialogs, the key bar and the room."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Button, Footer, Label, Select

from gridhall.client import cli
from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.linking import LinkScreen
from gridhall.client.views import VIEWS, view_for
from gridhall.protocol import i18n
from tests.client.screen_text import shown
from tests.client.test_client_tui import FAST, SIZE, press
from tests.waiting import ui_until


@pytest.fixture(autouse=True)
def _english_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test picks its language; the process speaks English again afterwards."""
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.set_language("en")


def texts(app: GridhallApp, selector: str) -> list[str]:
    return [str(w.render()) for w in app.screen.query(selector)]


async def test_lang_vi_shows_the_lobby_and_the_create_dialog_in_vietnamese(server_url: str) -> None:
    args = cli.parse_args(["--lang", "vi", "--server", server_url, "--name", "An"])
    assert args.lang == "vi" and i18n.language() == "vi"
    app = GridhallApp(server_url, "An", backoff=FAST)
    async with app.run_test(size=SIZE) as pilot:
        await ui_until(pilot, lambda: app.session.connected)
        lobby = app.lobby
        assert str(lobby.query_one(".title", Label).render()) == "Các phòng trên máy chủ này"
        assert [str(b.label) for b in lobby.query(Button)][:2] == ["Vào", "Xem"]
        bindings = {
            b.key: b.description for _, b, *_ in pilot.app.screen.active_bindings.values()
        }  # what the key bar shows
        assert bindings["r"] == "Làm mới" and bindings["n"] == "Phòng mới"
        assert pilot.app.screen.query_one(Footer) is not None
        await pilot.press("n")
        await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
        assert "Tạo phòng" in texts(app, ".title")
        await press(pilot, "#ok")
        await ui_until(pilot, lambda: app.room_screen is not None and app.session.state)
        await ui_until(pilot, lambda: "Người chơi" in "".join(texts(app, "#players")))
        assert app.screen.query_one("#btn-help", Button).label.plain == "Trợ giúp"


def test_help_text_follows_lang_and_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit):
        cli.parse_args(["--lang", "zh_Hans", "--help"])
    assert "在 gridhall 局域网服务器上玩" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    with pytest.raises(SystemExit):
        cli.parse_args(["--help"])
    assert "máy chủ LAN gridhall" in capsys.readouterr().out
    assert i18n.language() == "vi"


def test_lang_takes_the_usual_tags_and_refuses_an_unknown_one_naming_the_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.parse_args(["--lang", "zh-CN"]).lang == "zh_Hans"
    assert cli.parse_args(["--lang", "zh"]).lang == "zh_Hans"
    assert cli.parse_args(["--lang", "en"]).lang == "en"
    with pytest.raises(SystemExit) as exit_:
        cli.parse_args(["--lang", "xx"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--lang" in err and "vi" in err and "zh_Hans" in err


@pytest.mark.parametrize("lang", ["vi", "zh_Hans"])
async def test_the_lobby_create_and_link_dialogs_show_their_words_whole(
    server_url: str, lang: str
) -> None:
    """Vietnamese runs longer than English: no label, placeholder or sentence is cut by a
    fixed width (the private-room label, the link dialog's sentence, the password field)."""
    i18n.set_language(lang)
    app = GridhallApp(server_url, "An", backoff=FAST)
    cuts: dict[str, list[str]] = {}
    async with app.run_test(size=SIZE) as pilot:
        await ui_until(pilot, lambda: app.session.connected and "link" in app.session.features)
        await pilot.pause()
        cuts["lobby"] = shown(app)[1]
        await pilot.press("n")
        await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
        for game in VIEWS:
            app.screen.query_one("#game", Select).value = game
            await ui_until(
                pilot, lambda g=game: app.screen.query(f"#row-{view_for(g).form[0].key}")
            )
            await pilot.pause()
            cuts[f"create {game}"] = shown(app)[1]
        await pilot.press("escape")
        await ui_until(pilot, lambda: app.screen is app.lobby)
        await pilot.press("ctrl+o")
        await ui_until(pilot, lambda: isinstance(app.screen, LinkScreen))
        await press(pilot, "#link-show")
        await ui_until(pilot, lambda: str(app.screen.query_one("#link-info", Label).render()))
        await pilot.pause()
        cuts["link"] = shown(app)[1]
    assert {screen: found for screen, found in cuts.items() if found} == {}
