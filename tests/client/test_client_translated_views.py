"""The view models hand the terminal and Tk clients their words translated: a game's
create form (labels, choices, presets), its buttons, a room's status in the lobby and a
computer player's name; and a described count ("96 tiles left") reads in every language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gridhall.client.views import view_for
from gridhall.client.views.base import COMMON_ACTIONS, status_line
from gridhall.client.views.common import player_lines
from gridhall.client.views.form import Choice
from gridhall.client.views.lobby import room_rows
from gridhall.protocol import catalogs, i18n
from gridhall.protocol.games import COMMON, GAMES
from gridhall.protocol.games.describe import Game, Text
from gridhall.protocol.players import shown_name
from tests.client.helpers import make_state, room_of


@pytest.fixture
def vi() -> Iterator[None]:
    i18n.set_language("vi")
    yield
    i18n.set_language("en")


@pytest.fixture
def zh() -> Iterator[None]:
    i18n.set_language("zh_Hans")
    yield
    i18n.set_language("en")


@pytest.mark.usefixtures("vi")
def test_a_games_create_form_and_buttons_read_in_the_players_language() -> None:
    view = view_for("gomoku")
    fields = {f.key: f for f in view.form}
    assert fields["size"].label == "Bàn cờ"
    ai = fields["ai"]
    assert isinstance(ai, Choice)
    assert ai.label_of("hard") == i18n.gettext("computer (hard)") != "computer (hard)"
    assert view.presets[0].label == i18n.gettext("15×15 freestyle") != "15×15 freestyle"
    assert COMMON_ACTIONS[0].label == i18n.gettext("Resign") != "Resign"
    assert view.actions[0].label == i18n.gettext("Offer draw") != "Offer draw"


@pytest.mark.usefixtures("zh")
def test_the_lobby_says_a_rooms_status_and_its_computer_in_the_players_language() -> None:
    rooms = [
        {
            "room": "AB12CD",
            "game": "gomoku",
            "status": "playing",
            "players": ["Lan", "Computer (hard)"],
        },
        {"room": "EF34GH", "game": "linkmatch", "status": "over", "players": ["Lan"]},
    ]
    rows = room_rows(rooms)
    assert [r.status for r in rows] == ["进行中", "已结束"]
    assert rows[0].players == "Lan, 电脑（困难）"


@pytest.mark.usefixtures("zh")
def test_a_computer_player_is_named_in_the_players_language_in_the_room() -> None:
    bot = {"player": "c", "name": "Computer (hard)", "seat": 1, "connected": True, "bot": "hard"}
    state = make_state("gomoku", players=[make_state().players[0], bot])
    assert [line.name for line in player_lines(state, "a", {})] == ["ann", "电脑（困难）"]
    assert shown_name("Computer (rapfi)") == "电脑（rapfi）"  # an engine: its name as given
    assert shown_name("Computerfan") == "Computerfan"  # only the server's own names


@pytest.mark.parametrize(("lang", "said"), [("zh_Hans", "剩余 96 块"), ("vi", "còn 96 ô")])
def test_a_described_count_reads_in_every_language(lang: str, said: str) -> None:
    """Link-match's "96 tiles left": a text with plural forms in the descriptions."""
    state = make_state("linkmatch", view={"remaining": 96, "elapsed": 3})
    i18n.set_language(lang)
    try:
        line = status_line(view_for("linkmatch"), room_of(state, view_at=0.0), "a", True, 0.0)
    finally:
        i18n.set_language("en")
    assert said in line


def texts(game: Game) -> Iterator[Text]:
    """Every text of a description, those inside lists too."""
    notices = [text for said in game.notices.values() for text in said]
    ranking = [game.ranking] if game.ranking is not None else []
    for text in (*game.status, *game.results, *game.roles, *game.summary, *notices, *ranking):
        yield text
        if text.each is not None:
            yield from text.each.texts


def test_every_described_plural_is_one_catalog_entry_with_its_forms() -> None:
    """``Text.counted(Nn_(...))``: two ``N_`` would make two unrelated entries, and the
    clients' ngettext would find neither (the count stayed English everywhere)."""
    template = {
        m.id[0]: m.id for m in catalogs.read(catalogs.TEMPLATE) if isinstance(m.id, tuple | list)
    }
    counted = [t for game in (*GAMES.values(), COMMON) for t in texts(game) if t.plural]
    assert len(counted) >= 2
    for text in counted:
        assert tuple(template.get(text.msgid, ())) == (text.msgid, text.plural)


def test_gettext_of_a_message_held_with_plural_forms_gives_its_first() -> None:
    """As GNU gettext does: one English sentence asked for both ways reads translated."""
    zh = i18n.catalog("zh_Hans")
    assert zh.gettext("{n} room open", n=3) == "3 个房间开放中"
