"""History over real websockets: finished games of every kind are listed and replayed
(the replay's last frame is the finished game's view), pages and filters, the rate
limit, bad requests, and no answer ever carrying a live game."""

from __future__ import annotations

from typing import Any

from gridhall.protocol.delta import apply
from gridhall.server.games.linkmatch.paths import first_pair
from gridhall.server.io.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient, gomoku_pair

LINK_OPTIONS = {"width": 4, "height": 4, "kinds": 2, "countdown": 0, "hint_penalty": 0}
MINES_OPTIONS = {
    "preset": None,
    "width": 5,
    "height": 5,
    "mines": 3,
    "lives": 1,
    "first_click": "safe",
}


def frames(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame of a replay answer, folded as a client folds ``moved`` deltas."""
    views = [replay["start"]]
    for step in replay["steps"]:
        views.append(apply(views[-1], step["view"], step["delta"]))
    return views


def last_view(client: WsClient) -> dict[str, Any]:
    return dict(next(m["view"] for m in reversed(client.received) if "view" in m))


async def play_gomoku(url: str) -> tuple[WsClient, dict[str, Any]]:
    """A Gomoku game black wins with five; returns black's client (closed) and the
    final view."""
    async with gomoku_pair(url) as (a, b, _room):
        for i in range(5):
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved", by=a.player)
            if i < 4:
                await b.send("move", move={"x": i, "y": 1})
                await a.expect("moved", by=b.player)
        await a.expect("game-over")
        return a, last_view(a)


async def play_minesweeper(url: str) -> tuple[WsClient, dict[str, Any]]:
    """A co-op game (one life) played cell by cell until it ends: a mine or cleared."""
    async with WsClient.connect(url, "Cat") as c:
        await c.send("create-room", game="minesweeper", options=MINES_OPTIONS)
        view = (await c.expect("state", status="playing"))["view"]
        cells = [(x, y) for y in range(5) for x in range(5)]
        while view["exploded"] == [] and view["revealed"] < 25 - 3:
            x, y = next((x, y) for x, y in cells if view["rows"][y][x] == "#")
            await c.send("move", move={"action": "reveal", "x": x, "y": y})
            view = (await c.expect("moved", by=c.player))["view"]
        await c.expect("game-over")
        return c, last_view(c)


async def play_linkmatch(url: str) -> tuple[WsClient, dict[str, Any]]:
    """One racer clears a tiny board."""
    async with WsClient.connect(url, "Dan") as d:
        await d.send("create-room", game="linkmatch", options=LINK_OPTIONS)
        await d.expect("state", status="waiting")
        await d.send("start")
        rows = (await d.expect("state", status="playing"))["view"]["rows"]
        while True:
            pair = first_pair(rows)
            assert pair is not None
            await d.send("move", move={"action": "link", "a": list(pair[0]), "b": list(pair[1])})
            view = (await d.expect("moved", by=d.player))["view"]
            rows = view["rows"]
            if view["remaining"] == 0:
                break
        await d.expect("game-over")
        return d, last_view(d)


async def ask(client: WsClient, type_: str, rid: int, **fields: Any) -> dict[str, Any]:
    """Send a query and wait for the answer that echoes ``rid``."""
    await client.send(type_, id=rid, **fields)
    while True:
        msg = await client.recv()
        if msg.get("re") == rid:
            return msg


async def test_every_kind_of_finished_game_is_listed_and_replayed_to_its_final_view(
    server: GameServer,
) -> None:
    url = url_of(server)
    black, gomoku_final = await play_gomoku(url)
    sweeper, mines_final = await play_minesweeper(url)
    racer, race_final = await play_linkmatch(url)
    async with WsClient.connect(url, "Eve") as e:
        welcome = e.received[0]
        assert "history" in welcome["features"]
        listed = await ask(e, "list-games", 1)
        assert listed["type"] == "games" and listed["next"] is None
        games = listed["games"]
        assert [g["game"] for g in games] == ["linkmatch", "minesweeper", "gomoku"]
        assert [g["game_id"] for g in games] == sorted((g["game_id"] for g in games), reverse=True)
        assert games[2]["moves"] == 9 and games[2]["rated"] is False
        assert games[0]["moves"] == 8
        assert "source" not in games[0]

        by_game = {g["game"]: g["game_id"] for g in games}
        replay = await ask(e, "get-replay", 2, game_id=by_game["gomoku"])
        assert replay["type"] == "replay" and replay["total"] == 9 and replay["next"] is None
        views = frames(replay)
        assert views[0]["moves"] == []
        assert [s["label"] for s in replay["steps"][:2]] == ["A1", "A2"]
        assert replay["steps"][0]["by"] == black.player
        final = {k: v for k, v in gomoku_final.items() if k != "clock"}
        assert views[-1] == final and len(views[-1]["line"]) == 5

        replay = await ask(e, "get-replay", 3, game_id=by_game["minesweeper"])
        views = frames(replay)
        assert all(set(row) == {"#"} for row in views[0]["rows"])
        last = views[-1]
        assert last["rows"] == mines_final["rows"]  # every mine shown, as at the end
        assert last["exploded"] == mines_final["exploded"]
        assert abs(last["elapsed"] - mines_final["elapsed"]) < 0.01
        assert {k: v for k, v in last.items() if k not in ("elapsed", "hit")} == {
            k: v for k, v in mines_final.items() if k != "elapsed"
        }
        if mines_final["exploded"]:
            assert last["hit"] == [[*mines_final["exploded"][0], sweeper.player]]

        replay = await ask(e, "get-replay", 4, game_id=by_game["linkmatch"])
        views = frames(replay)
        assert replay["total"] == 8 and len(replay["steps"]) == 8
        assert views[-1]["boards"] == {racer.player: race_final["rows"]}
        assert views[-1]["progress"] == race_final["progress"]
        assert views[-1]["standing"] == race_final["standing"]
        assert all(len(s["view"]["path"]) >= 2 for s in replay["steps"])


async def test_pages_and_filters(server: GameServer) -> None:
    url = url_of(server)
    for _ in range(3):
        await play_gomoku(url)
    await play_linkmatch(url)
    async with WsClient.connect(url, "Eve") as e:
        first = await ask(e, "list-games", 1, limit=2)
        assert len(first["games"]) == 2 and first["next"] == first["games"][-1]["game_id"]
        second = await ask(e, "list-games", 2, limit=2, before=first["next"])
        assert len(second["games"]) == 2 and second["next"] is None
        ids = [g["game_id"] for g in first["games"] + second["games"]]
        assert ids == sorted(ids, reverse=True) and len(set(ids)) == 4

        only = await ask(e, "list-games", 3, game="gomoku")
        assert [g["game"] for g in only["games"]] == ["gomoku"] * 3
        named = await ask(e, "list-games", 4, name="dAN")
        assert [g["game"] for g in named["games"]] == ["linkmatch"]
        player = named["games"][0]["players"][0]["player"]
        by_id = await ask(e, "list-games", 5, player=player)
        assert by_id["games"] == named["games"]
        none = await ask(e, "list-games", 6, name="Nobody")
        assert none["games"] == [] and none["next"] is None


CROWDED = {**MINES_OPTIONS, "width": 10, "height": 10, "mines": 91}
"""The most mines a 10x10 board takes: the first reveal (in the middle) ends the game only
if all nine safe cells are its neighbours, about once in 10^11 boards."""


async def test_a_live_minesweeper_board_is_in_no_history_answer(server: GameServer) -> None:
    url = url_of(server)
    async with WsClient.connect(url, "Cat") as c, WsClient.connect(url, "Eve") as e:
        await c.send("create-room", game="minesweeper", options=CROWDED)
        await c.expect("state", status="playing")
        await c.send("move", move={"action": "reveal", "x": 5, "y": 5})
        await c.expect("moved", by=c.player)
        room = next(iter(server.hub.lobby.rooms.values()))
        assert room.game is not None and room.game.result is None  # live, mines placed
        listed = await ask(e, "list-games", 1)
        assert listed["games"] == [] and listed["next"] is None
        for n, gid in enumerate((1, 2, 3, 2**40), start=2):
            refused = await ask(e, "get-replay", n, game_id=gid)
            assert refused["type"] == "error" and refused["code"] == "no-such-game"
        assert all("mines" not in str(m.get("games")) for m in e.received)


async def test_bad_queries_are_refused_and_change_nothing(server: GameServer) -> None:
    url = url_of(server)
    await play_gomoku(url)
    async with WsClient.connect(url, "Eve") as e:
        before = await ask(e, "list-games", 1)
        bad: list[tuple[str, dict[str, Any]]] = [
            ("list-games", {"limit": 0}),
            ("list-games", {"limit": 51}),
            ("list-games", {"game": "chess"}),
            ("list-games", {"before": "x"}),
            ("list-games", {"name": ""}),
            ("get-replay", {}),
            ("get-replay", {"game_id": 0}),
            ("get-replay", {"game_id": "1"}),
            ("get-replay", {"game_id": before["games"][0]["game_id"], "from": 10}),
            ("get-replay", {"game_id": 1, "from": -1}),
        ]
        for n, (type_, fields) in enumerate(bad, start=2):
            answer = await ask(e, type_, n, **fields)
            assert answer["type"] == "error" and answer["code"] == "bad-message", (type_, fields)
        after = await ask(e, "list-games", 99)
        assert after["games"] == before["games"]


async def test_history_queries_past_the_rate_get_rate_limited(make_server: Any) -> None:
    server = await make_server(history_per_second=0.001, history_burst=2)
    async with WsClient.connect(url_of(server), "Eve") as e:
        assert (await ask(e, "list-games", 1))["type"] == "games"
        assert (await ask(e, "get-replay", 2, game_id=5))["code"] == "no-such-game"
        refused = await ask(e, "list-games", 3)
        assert refused["type"] == "error" and refused["code"] == "rate-limited"
        assert refused["retry_after"] > 0
        rooms = await ask(e, "list-rooms", 4)  # other requests are not held back
        assert rooms["type"] == "rooms"
