"""The Tk client's display-free decisions: geometry, clicks -> intents, bars."""

from __future__ import annotations

from gridhall.client.session import RoomCopy
from gridhall.client.tk import model
from gridhall.client.tk.model import Geometry, LinkSelection


def test_geometry_fits_and_maps_pixels_back_to_cells() -> None:
    g = Geometry.fit(15, 15, 800, 600, margin=1.0)
    assert g.cell == 600 / 17
    for cell in ((0, 0), (7, 7), (14, 14)):
        assert g.cell_at(*g.center(*cell)) == cell
    assert g.cell_at(g.left - 1, g.top + 1) is None
    assert g.cell_at(g.left - 1, g.top + 1, ring=1) == (-1, 0)  # Link-match's ring


def test_geometry_scales_with_the_window() -> None:
    assert Geometry.fit(9, 9, 900, 900).cell > Geometry.fit(9, 9, 450, 450).cell


def test_gomoku_click_only_on_our_turn_and_empty_points() -> None:
    state = {"status": "playing", "turn": "me",
             "view": {"size": 15, "moves": [[7, 7]], "colors": {}}}  # fmt: skip
    assert model.gomoku_click(state, "me", 8, 8) == ("move", {"move": {"x": 8, "y": 8}})
    assert model.gomoku_click(state, "me", 7, 7) is None
    assert model.gomoku_click({**state, "turn": "you"}, "me", 8, 8) is None


def test_mines_buttons_reveal_mark_and_chord() -> None:
    view = {"width": 3, "height": 3, "mines": 1, "rows": ["#F#", "?1#", "###"]}
    assert model.mines_click(view, 0, 0, "left") == (
        "move", {"move": {"action": "reveal", "x": 0, "y": 0}})  # fmt: skip
    assert model.mines_click(view, 0, 0, "right")[1]["move"]["mark"] == "flag"  # type: ignore[index]
    assert model.mines_click(view, 1, 0, "right")[1]["move"]["mark"] == "question"  # type: ignore[index]
    assert model.mines_click(view, 0, 1, "right")[1]["move"]["mark"] == "none"  # type: ignore[index]
    assert model.mines_click(view, 1, 1, "left")[1]["move"]["action"] == "chord"  # type: ignore[index]
    assert model.mines_click(view, 1, 1, "right")[1]["move"]["action"] == "flag-around"  # type: ignore[index]
    assert model.mines_click(view, 1, 0, "left") is None  # a flagged cell does not open


def test_link_selection_needs_two_tiles() -> None:
    view = {"width": 2, "height": 2, "rows": [[1, 0], [0, 1]]}
    sel = LinkSelection()
    assert sel.click(view, 0, 0) is None and sel.selected == (0, 0)
    assert sel.click(view, 0, 0) is None and sel.selected is None  # a second click deselects
    sel.click(view, 0, 0)
    assert sel.click(view, 1, 1) == ("move", {"move": {"action": "link", "a": [0, 0], "b": [1, 1]}})
    assert sel.click(view, 1, 0) is None and sel.selected is None  # empty cell


def test_banner_offers_play_again_then_agree() -> None:
    state = {"status": "over", "game": "gomoku", "result": {"winner": "me", "reason": "five"},
             "players": [{"player": "me", "name": "Ann"}, {"player": "you", "name": "Bob"}]}  # fmt: skip
    copy = RoomCopy(room="R", seq=1, state=state)
    b = model.banner(copy, "me")
    assert b is not None and b.again and not b.agree and "You win" in b.text
    copy.again.append("you")
    b = model.banner(copy, "me")
    assert b is not None and b.agree and b.decline and not b.again and "Bob wants" in b.text
    assert model.banner(RoomCopy(room="R", seq=1, state={"status": "playing"}), "me") is None


def test_offer_bar_lets_only_the_other_player_answer() -> None:
    state = {"status": "playing", "game": "gomoku", "players": [{"player": "me"}, {"player": "you"}],
             "view": {"pending": {"kind": "takeback", "from": "you"}}}  # fmt: skip
    bar = model.offer_bar(state, "me")
    assert bar is not None and bar.can_answer
    theirs = model.offer_bar(state, "you")
    assert theirs is not None and not theirs.can_answer and "You asked" in theirs.text
    assert model.action_intent("accept", state) == ("answer", {"kind": "takeback", "accept": True})


def test_clocks_run_on_between_events() -> None:
    state = {"status": "playing", "game": "linkmatch", "view": {"elapsed": 10.0}}
    assert model.live_state(state, 2.5)["view"]["elapsed"] == 12.5
    waiting = {"status": "playing", "game": "linkmatch", "view": {"elapsed": 0.0, "starts_in": 3.0}}
    assert model.live_state(waiting, 1.0)["view"]["starts_in"] == 2.0
    unopened = {"status": "playing", "game": "minesweeper", "view": {"elapsed": 0.0, "revealed": 0}}
    assert model.live_state(unopened, 5.0)["view"]["elapsed"] == 0.0
