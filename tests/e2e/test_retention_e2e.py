"""A real server keeps a never-ending room's journal under its cap, and the room comes
back exactly after a restart; its chat is capped per room as it is written."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from gridhall.server.core.effects import SaveChat
from gridhall.server.io.net.app import GameServer
from gridhall.server.io.store import journal_table
from gridhall.server.io.store.store import Store
from tests.e2e.test_admin_e2e import player_from
from tests.wsclient import WsClient

CAP = 20


def live_entries(db: str, room: str) -> int:
    """The room's live journal entries: what its restore replays."""
    with sqlite3.connect(db) as conn:
        return journal_table.room_entries(conn, room)


def rows(db: str, sql: str, *args: Any) -> int:
    with sqlite3.connect(db) as conn:
        n: int = conn.execute(sql, args).fetchone()[0]
        return n


async def test_a_flag_toggling_room_stays_under_the_cap_and_restores_exactly(
    make_server: Any,
) -> None:
    server: GameServer = await make_server(journal_rows=CAP)
    db = server.config.db
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        await ann.send(
            "create-room", game="minesweeper", options={"width": 16, "height": 16, "mines": 40}
        )
        room = (await ann.expect("joined"))["room"]
        await ann.expect("state")
        await ann.send("move", move={"action": "reveal", "x": 8, "y": 8})
        view = (await ann.expect("moved"))["view"]
        x, y = next(
            (x, y) for y, row in enumerate(view["rows"]) for x, ch in enumerate(row) if ch == "#"
        )
        most = 0
        for n in range(50):  # within the burst of the message rate limit
            await ann.send(
                "move",
                id=n,
                move={
                    "action": "mark",
                    "x": x,
                    "y": y,
                    "mark": "flag" if n % 2 == 0 else "question",
                },
            )
            last = await ann.expect("moved")
            most = max(most, live_entries(db, room))
        token = ann.token
    assert most <= CAP
    await server.close()

    restarted: GameServer = await make_server(journal_rows=CAP)
    async with WsClient.connect(f"ws://127.0.0.1:{restarted.port}/", "Ann", token) as again:
        state = await again.expect("state")
        assert state["room"] == room and state["view"]["rows"] == last["view"]["rows"]
        assert state["view"]["rows"][y][x] == "?" and state["seq"] > last["seq"]
        await again.send("move", move={"action": "mark", "x": x, "y": y, "mark": "flag"})
        assert (await again.expect("moved"))["view"]["rows"][y][x] == "F"


async def test_a_rooms_chat_is_capped_as_it_is_written(make_server: Any, tmp_path: Path) -> None:
    server: GameServer = await make_server(chat_rows_per_room=4)
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        for n in range(8):  # the chat rate limit's eight lines
            await ann.send("chat", text=f"line {n}")
            await ann.expect("chat", text=f"line {n}")
    lines = [text for _, _, text, _ in server.store.chat_lines(room, 50)]
    assert len(lines) <= 4 + 1 and lines[-1] == "line 7"
    assert rows(server.config.db, "SELECT COUNT(*) FROM chat WHERE room = ?", room) <= 5


async def test_the_server_prunes_what_is_past_its_limits_from_the_start(
    make_server: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "gridhall.db")
    old = time.time() - 40 * 86400
    store = Store(db)
    store.write(
        [SaveChat("OLD", "p1", "Ann", f"line {n}", old + n) for n in range(10)]
        + [SaveChat("NEW", "p1", "Ann", "fresh", time.time())]
    )
    store.close()
    server: GameServer = await make_server(db=db, chat_days=30)
    assert [text for _, _, text, _ in server.store.chat_lines("OLD")] == []
    assert [text for _, _, text, _ in server.store.chat_lines("NEW")] == ["fresh"]


async def resign_games(client: WsClient, games: int) -> None:
    """Finish ``games`` Gomoku games against the computer by resigning each at once
    (the flood of issue 41: every one is a stored game)."""
    await client.send("create-room", game="gomoku", options={"ai": "easy"})
    await client.expect("state")
    for n in range(games):
        await client.send("resign")
        await client.expect("game-over")
        if n + 1 < games:
            await client.send("play-again")
            await client.expect("state", status="playing")
    await client.send("leave-room")
    await client.expect("left", player=client.player)


async def test_one_address_flooding_finished_games_cannot_push_out_anothers(
    make_server: Any,
) -> None:
    """Ann finishes three games; then a client from another address finishes 25 as
    fast as it may (within the message rate's burst). The store keeps 12: the flooder's
    oldest go, Ann's history and replays stay whole."""
    server: GameServer = await make_server(games_rows=12)
    async with player_from(server, "127.0.0.2", "Ann") as ann:
        await resign_games(ann, 3)
    async with player_from(server, "127.0.0.3", "Flood") as flood:
        await resign_games(flood, 25)
    while server.store.prune(time.time()):  # what the server's pruning timer does
        pass
    async with player_from(server, "127.0.0.2", "Ann", ann.token) as again:
        await again.send("list-games", player=ann.player, id=1)
        mine = (await again.expect("games", re=1))["games"]
        assert len(mine) == 3
        await again.send("get-replay", game_id=mine[-1]["game_id"], id=2)
        assert (await again.expect("replay", re=2))["game_id"] == mine[-1]["game_id"]
        await again.send("list-games", player=flood.player, limit=50, id=3)
        assert len((await again.expect("games", re=3))["games"]) == 9
