"""The game registries: one view class per game, one board widget per game in each UI,
and keys that never clash."""

from __future__ import annotations

from textual.binding import Binding

from gridhall.client.tk.boards import BOARDS as TK_BOARDS
from gridhall.client.tui.boards import BOARDS as TUI_BOARDS
from gridhall.client.tui.boards import Board
from gridhall.client.tui.help import keys
from gridhall.client.tui.room import RoomScreen
from gridhall.client.views import VIEWS, view_for
from gridhall.client.views.base import AGAIN_KEYS, COMMON_ACTIONS


def binding_keys(bindings: object) -> set[str]:
    out: set[str] = set()
    for b in bindings:  # type: ignore[attr-defined]
        key = b.key if isinstance(b, Binding) else b[0]
        out.update(k.strip() for k in key.split(","))
    return out


def test_every_game_has_a_view_and_a_board_in_both_uis() -> None:
    assert list(VIEWS) == list(TUI_BOARDS) == list(TK_BOARDS)
    for name, cls in VIEWS.items():
        assert cls.name == name and cls.title and cls.presets and cls.form


def test_no_game_key_clashes_with_the_room_or_its_board() -> None:
    room = binding_keys(RoomScreen.BINDINGS) | {a.keys for a in COMMON_ACTIONS}
    room |= set(AGAIN_KEYS.values())
    for name, cls in VIEWS.items():
        game = [a.keys for a in cls.actions]
        board = binding_keys(Board.BINDINGS) | binding_keys(TUI_BOARDS[name].BINDINGS)
        assert len(game) == len(set(game)), name
        assert not set(game) & (room | board), name
        assert len({a.key for a in cls.actions}) == len(cls.actions)


def test_help_lists_every_games_keys_from_the_registries() -> None:
    rows = keys()
    for name, cls in VIEWS.items():
        where = view_for(name).heading  # the game's title, as the player reads it
        listed = {k for w, k, _ in rows if w == where}
        assert {a.keys for a in cls.actions} <= listed


def test_an_unknown_game_gets_a_plain_view() -> None:
    view = view_for("go-fish")
    assert view.heading == "Go fish" and view.actions == () and view.form == ()
