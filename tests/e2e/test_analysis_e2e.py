"""``analyse`` over real websockets: a finished Gomoku game analysed once, in the pool."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from gridhall.server.io.net.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient, gomoku_pair, play_moves

MISSED = [
    (6, 7),
    (5, 7),
    (7, 7),
    (9, 3),
    (8, 7),
    (0, 14),
    (9, 4),
    (14, 14),
    (9, 5),
    (14, 0),
    (9, 6),
    (0, 0),
    (1, 1),
    (9, 7),
    (2, 2),
]
"""Black's 13th stone (1, 1) misses the double four at (9, 7), which White then takes."""
BUDGET = 0.05


async def analysed(client: WsClient, game_id: int, total: int) -> dict[str, Any]:
    """The ``analysis`` pushed when the analysis of ``game_id`` (``total`` positions) ends.
    The failure guard is per position, not per game: while each position's answer comes
    within the client's guard the wait goes on, so a loaded machine, whose low-priority
    workers take minutes over a game, makes it longer, never red (issue 40)."""

    def pushed() -> dict[str, Any] | None:
        return next(
            (
                m
                for m in client.received
                if m["type"] == "analysis" and m["game_id"] == game_id and "re" not in m
            ),
            None,
        )

    seen = -1
    for ask in range(1000, 1000 + total + 2):  # each round sees a position more, or fails
        with contextlib.suppress(TimeoutError):
            await client.expect("analysis", game_id=game_id, re=None)
        if pushed() is None:  # quiet for a whole guard: how far has it got?
            await client.send("analyse", game_id=game_id, id=ask)
            progress = (await client.expect("analysis", re=ask)).get("progress", [total])[0]
            assert progress > seen, f"no position analysed within a guard ({progress}/{total})"
            seen = progress
        found = pushed()
        if found is not None:
            return found
    raise AssertionError("the analysis went on past its positions")


def stored_game(
    server: GameServer, game: str = "gomoku", moves: list[tuple[int, int]] | None = None
) -> int:
    """Store a finished game directly (as a room's end does) and return its id."""
    record: dict[str, Any] = {
        "moves": [list(m) for m in (moves or MISSED)],
        "colors": {"p1": "black", "p2": "white"},
        "log": [],
    }
    players = [
        {"player": "p1", "name": "Ann", "seat": 0},
        {"player": "p2", "name": "Bob", "seat": 1},
    ]
    server.store.save_game(
        "ROOM",
        game,
        {"size": 15, "rule": "freestyle"},
        players,
        {"winner": "p2", "reason": "resign"},
        record,
        time.time() - 60,
        time.time(),
    )
    return server.store.recent_games(1)[0].id


async def test_a_played_game_is_analysed_and_its_missed_vcf_marked_with_the_best_move(
    make_server: Callable[..., Any],
) -> None:
    server: GameServer = await make_server(analysis_budget=BUDGET)
    url = url_of(server)
    async with gomoku_pair(url) as (a, b, _room):
        await play_moves(a, b, MISSED)
        await b.send("resign")
        await a.expect("game-over")
        await b.expect("game-over")
    game_id = server.store.recent_games(1)[0].id
    async with WsClient.connect(url, "Cy") as c, WsClient.connect(url, "Di") as d:
        await c.send("analyse", game_id=game_id, id=7)
        first = await c.expect("analysis", re=7)
        assert first["status"] in ("queued", "running") and first["engine"] == "hard"
        assert first["progress"][1] == len(MISSED) + 1 and first["budget"] == BUDGET
        await d.send("analyse", game_id=game_id, id=3)  # joins the analysis under way
        assert (await d.expect("analysis", re=3))["status"] in ("queued", "running")
        for client in (c, d):
            done = await analysed(client, game_id, len(MISSED) + 1)
            assert done["status"] == "done" and "re" not in done
            notes = done["moves"]
            assert [n["n"] for n in notes] == list(range(1, len(MISSED) + 1))
            assert notes[12]["mark"] == "missed-vcf" and notes[12]["best"] == [9, 7]
            assert notes[12]["eval"] == 1000
            assert "mark" not in notes[13]  # White's block was right
            assert all(-1000 <= n["eval"] <= 1000 for n in notes)
        jobs = server.analyses.jobs
        await c.send("analyse", game_id=game_id, id=8)  # stored: answered at once, no job
        again = await c.expect("analysis", re=8)
        assert again["status"] == "done" and again["moves"] == notes
        assert server.analyses.jobs == jobs and not server.analyses.running


async def test_an_analysis_is_stored_once_and_served_after_a_restart(
    make_server: Callable[..., Any],
) -> None:
    server: GameServer = await make_server(analysis_budget=BUDGET)
    game_id = stored_game(server, moves=MISSED[:4])
    async with WsClient.connect(url_of(server), "Cy") as c:
        await c.send("analyse", game_id=game_id, id=1)
        assert (await analysed(c, game_id, 5))["status"] == "done"
    await server.close()
    again: GameServer = await make_server(analysis_budget=BUDGET)
    async with WsClient.connect(url_of(again), "Cy") as c:
        await c.send("analyse", game_id=game_id, id=2)
        answer = await c.expect("analysis", re=2)
        assert answer["status"] == "done" and len(answer["moves"]) == 4
    assert again.analyses.jobs == 0


async def test_only_gomoku_games_are_analysed_and_unknown_ids_are_no_game(
    make_server: Callable[..., Any],
) -> None:
    server: GameServer = await make_server(analysis_budget=BUDGET)
    mines = stored_game(server, game="minesweeper")
    async with WsClient.connect(url_of(server), "Cy") as c:
        await c.send("analyse", game_id=mines, id=4)
        err = await c.expect("error", re=4)
        assert err["code"] == "bad-message" and "only Gomoku" in err["message"]
        await c.send("analyse", game_id=mines + 1000, id=5)
        assert (await c.expect("error", re=5))["code"] == "no-such-game"
        await c.send("analyse", game_id="x", id=6)
        assert (await c.expect("error", re=6))["code"] == "bad-message"
        await c.send("analyse", game_id=0, id=9)
        assert (await c.expect("error", re=9))["code"] == "bad-message"
    assert server.analyses.jobs == 0


async def test_one_analysis_per_address_at_a_time(make_server: Callable[..., Any]) -> None:
    server: GameServer = await make_server(analysis_budget=BUDGET)
    first = stored_game(server, moves=MISSED[:4])
    second = stored_game(server, moves=MISSED[:4])
    async with WsClient.connect(url_of(server), "Cy") as c:
        await c.send("analyse", game_id=first, id=1)
        await c.expect("analysis", re=1)
        await c.send("analyse", game_id=second, id=2)
        err = await c.expect("error", re=2)
        assert err["code"] == "server-busy" and err["retry_after"] > 0
        assert (await analysed(c, first, 5))["status"] == "done"
        await c.send("analyse", game_id=second, id=3)
        assert (await c.expect("analysis", re=3))["status"] in ("queued", "running")
        assert (await analysed(c, second, 5))["status"] == "done"


OPEN_THREE = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (0, 14), (10, 7), (6, 7), (11, 7)]
"""White's third stone (0, 14) leaves Black's open three H8-K8 (row 7) unblocked; Black
makes an open four, then five. Before it White was not lost (its two stones are at the
three, not in the corners: with two tempi to spare Black would win anyway)."""


async def test_a_move_that_let_the_opponent_force_a_win_is_marked_with_the_defence(
    make_server: Callable[..., Any],
) -> None:
    server: GameServer = await make_server(analysis_budget=0.5)  # the default budget
    url = url_of(server)
    async with gomoku_pair(url) as (a, b, _room):
        await play_moves(a, b, OPEN_THREE)
        over = await b.expect("game-over")
        assert over["result"]["reason"] == "five"
    game_id = server.store.recent_games(1)[0].id
    async with WsClient.connect(url, "Cy") as c:
        await c.send("analyse", game_id=game_id, id=1)
        await c.expect("analysis", re=1)
        done = await analysed(c, game_id, len(OPEN_THREE))
        assert done["status"] == "done"
    notes = done["moves"]
    marked = {n["n"]: n for n in notes if n.get("mark")}
    assert 6 in marked, notes
    assert marked[6]["mark"] == "blunder" and marked[6]["best"] in ([6, 7], [10, 7])
    assert sorted(marked) == [6]  # White's block at 8 came too late: lost already, no blunder
