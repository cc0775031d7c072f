"""Ratings over real websockets: rated Gomoku between two people and against the
computer, a Link-match race of three, Minesweeper team records, leaderboards with
paging and ``around``, profiles, bad requests and the shared query rate limit."""

from __future__ import annotations

from typing import Any

from gridhall.server.core.ratings import REFERENCE, display
from gridhall.server.games.linkmatch.paths import first_pair
from gridhall.server.io.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient, gomoku_pair

LINK_OPTIONS = {
    "width": 4,
    "height": 4,
    "kinds": 2,
    "countdown": 0,
    "hint_penalty": 0,
    "rated": True,
}
EASY = display(REFERENCE["easy"][0] - 3 * REFERENCE["easy"][1])


async def ask(client: WsClient, type_: str, rid: int, **fields: Any) -> dict[str, Any]:
    """Send a query and wait for the answer that echoes ``rid``."""
    await client.send(type_, id=rid, **fields)
    while True:
        msg = await client.recv()
        if msg.get("re") == rid:
            return msg


async def five(black: WsClient, white: WsClient) -> dict[str, Any]:
    """Black plays five in a row; both get game-over (black's is returned)."""
    for i in range(5):
        await black.send("move", move={"x": i, "y": 0})
        await white.expect("moved", by=black.player)
        if i < 4:
            await white.send("move", move={"x": i, "y": 1})
            await black.expect("moved", by=white.player)
    over = await black.expect("game-over")
    assert (await white.expect("game-over"))["ratings"] == over["ratings"]
    return over


async def test_a_rated_gomoku_game_moves_both_ratings_onto_the_leaderboard(
    server: GameServer,
) -> None:
    url = url_of(server)
    async with gomoku_pair(url, {"rated": True}) as (ann, bob, _room):
        over = await five(ann, bob)
        ratings = over["ratings"]
        assert set(ratings) == {ann.player, bob.player}
        assert ratings[ann.player]["before"] == ratings[bob.player]["before"] == 1000
        assert ratings[ann.player]["after"] > ratings[bob.player]["after"]
        assert "ratings" in ann.received[0]["features"]

        board = await ask(bob, "leaderboard", 1, game="gomoku")
        assert board["type"] == "leaderboard" and board["total"] == 4  # 2 people + 2 computers
        people = [r for r in board["rows"] if "bot" not in r]
        assert [r["name"] for r in people] == ["Ann", "Bob"]
        assert [r["rating"] for r in people] == [
            ratings[ann.player]["after"],
            ratings[bob.player]["after"],
        ]
        assert all(r["provisional"] and r["games"] == 1 for r in people)
        assert [r["rank"] for r in board["rows"]] == [1, 2, 3, 4]

        await ann.send("leave-room")
        await ann.send("player-info", name="Annie")  # the board shows the current name
        await ann.expect("profile")
        mine = await ask(ann, "leaderboard", 2, game="gomoku", around=ann.player)
        assert "Annie" in [r["name"] for r in mine["rows"]]

        profile = await ask(bob, "get-profile", 3, player=ann.player)
        assert profile["type"] == "player-profile" and profile["name"] == "Annie"
        gomoku = profile["ratings"]["gomoku"]
        assert (gomoku["games"], gomoku["wins"], gomoku["provisional"]) == (1, 1, True)
        [[ended_at, rating, game_id]] = gomoku["history"]
        assert rating == ratings[ann.player]["after"]
        [recent] = profile["recent"]
        assert recent["game_id"] == game_id and recent["rated"] is True
        assert recent["ended_at"] == ended_at
        assert profile["records"] == {"minesweeper": []}
        assert (await ask(bob, "leaderboard", 4, game="linkmatch"))["rows"] == []


async def test_against_the_computer_only_the_person_moves(server: GameServer) -> None:
    async with WsClient.connect(url_of(server), "Ann") as ann:
        await ann.send("create-room", game="gomoku", options={"rated": True, "ai": "easy"})
        state = await ann.expect("state", status="playing")
        bot = next(pid for pid in state["view"]["colors"] if pid != ann.player)
        if state["turn"] == ann.player:
            await ann.send("move", move={"x": 7, "y": 7})
            await ann.expect("moved", by=ann.player)
        await ann.expect("moved", by=bot)
        if len((await ann.request("sync", "state"))["view"]["moves"]) < 2:
            await ann.send("move", move={"x": 3, "y": 3})
            await ann.expect("moved", by=ann.player)
        await ann.send("resign")
        over = await ann.expect("game-over")
        assert list(over["ratings"]) == [ann.player]
        board = await ask(ann, "leaderboard", 1, game="gomoku")
        easy = next(r for r in board["rows"] if r.get("bot") == "easy")
        assert (easy["rating"], easy["games"], easy["provisional"]) == (EASY, 1, False)
        assert easy["name"] == "Computer (easy)" and board["total"] == 3
        assert bot not in [r["player"] for r in board["rows"]]


async def test_a_rated_race_of_three_ranks_winner_then_tiles_left(server: GameServer) -> None:
    url = url_of(server)
    async with (
        WsClient.connect(url, "Ann") as a,
        WsClient.connect(url, "Bob") as b,
        WsClient.connect(url, "Cat") as c,
    ):
        await a.send("create-room", game="linkmatch", options=LINK_OPTIONS)
        room = (await a.expect("joined"))["room"]
        for racer in (b, c):
            await racer.send("join-room", room=room)
            await racer.expect("state", status="waiting")
        await a.send("start")
        rows = {}
        for racer in (a, b, c):
            rows[racer.player] = (await racer.expect("state", status="playing"))["view"]["rows"]

        async def link(racer: WsClient) -> dict[str, Any]:
            pair = first_pair(rows[racer.player])
            assert pair is not None
            await racer.send(
                "move", move={"action": "link", "a": list(pair[0]), "b": list(pair[1])}
            )
            view: dict[str, Any] = (await racer.expect("moved", by=racer.player))["view"]
            rows[racer.player] = view["rows"]
            return view

        await link(b)  # Bob is one pair ahead of Cat when Ann clears
        while (await link(a))["remaining"] > 0:
            pass
        over = await c.expect("game-over")
        assert over["result"]["ranking"] == [a.player, b.player, c.player]
        after = {pid: r["after"] for pid, r in over["ratings"].items()}
        assert after[a.player] > after[b.player] > after[c.player]
        board = await ask(c, "leaderboard", 1, game="linkmatch")
        assert [r["player"] for r in board["rows"]] == [a.player, b.player, c.player]
        assert board["total"] == 3


async def test_minesweeper_team_records(server: GameServer) -> None:
    async with WsClient.connect(url_of(server), "Cat") as cat:
        await cat.send("create-room", game="minesweeper", options={"preset": "beginner"})
        view = (await cat.expect("state", status="playing"))["view"]
        cells = [(x, y) for y in range(9) for x in range(9)]
        while not view["exploded"] and view["revealed"] < 81 - 10:
            x, y = next((x, y) for x, y in cells if view["rows"][y][x] == "#")
            await cat.send("move", move={"action": "reveal", "x": x, "y": y})
            view = (await cat.expect("moved", by=cat.player))["view"]
        over = await cat.expect("game-over")
        won = over["result"]["reason"] == "cleared"
        assert over["result"]["time"] >= 0 and "ratings" not in over
        answer = await ask(cat, "records", 1, game="minesweeper")
        [record] = answer["records"]
        assert (record["board"], record["no_guess"], record["lives"]) == ("beginner", False, 1)
        assert (record["games"], record["wins"], record["win_rate"]) == (1, int(won), float(won))
        assert [b["names"] for b in record["best"]] == ([["Cat"]] if won else [])
        profile = await ask(cat, "get-profile", 2, player=cat.player)
        [mine] = profile["records"]["minesweeper"]
        assert (mine["games"], mine["wins"]) == (1, int(won))
        assert profile["ratings"] == {}


async def test_bad_rating_requests_are_refused_and_change_nothing(server: GameServer) -> None:
    async with WsClient.connect(url_of(server), "Eve") as e:
        bad: list[tuple[str, dict[str, Any]]] = [
            ("leaderboard", {}),
            ("leaderboard", {"game": "minesweeper"}),
            ("leaderboard", {"game": "gomoku", "limit": 0}),
            ("leaderboard", {"game": "gomoku", "limit": 51}),
            ("leaderboard", {"game": "gomoku", "offset": -1}),
            ("leaderboard", {"game": "gomoku", "around": e.player}),  # no rating yet
            ("leaderboard", {"game": "gomoku", "around": 7}),
            ("get-profile", {}),
            ("get-profile", {"player": "p-nobody"}),
            ("records", {"game": "gomoku"}),
            ("create-room", {"game": "gomoku", "options": {"rated": 1}}),
        ]
        for n, (type_, fields) in enumerate(bad, start=1):
            answer = await ask(e, type_, n, **fields)
            assert answer["type"] == "error" and answer["code"] == "bad-message", (type_, fields)
        board = await ask(e, "leaderboard", 99, game="gomoku")
        assert [r["player"] for r in board["rows"]] == ["computer:hard", "computer:easy"]


async def test_rating_queries_share_the_history_rate_limit(make_server: Any) -> None:
    server = await make_server(history_per_second=0.001, history_burst=2)
    async with WsClient.connect(url_of(server), "Eve") as e:
        assert (await ask(e, "leaderboard", 1, game="gomoku"))["type"] == "leaderboard"
        assert (await ask(e, "records", 2, game="minesweeper"))["type"] == "records"
        refused = await ask(e, "get-profile", 3, player=e.player)
        assert refused["code"] == "rate-limited" and refused["retry_after"] > 0
        assert (await ask(e, "list-rooms", 4))["type"] == "rooms"


async def test_ratings_come_back_after_a_restart(make_server: Any, tmp_path: Any) -> None:
    db = str(tmp_path / "restart.db")
    server = await make_server(db=db)
    async with gomoku_pair(url_of(server), {"rated": True}) as (ann, bob, _room):
        first = (await five(ann, bob))["ratings"]
        token = ann.token
    await server.close()
    again = await make_server(db=db)
    async with WsClient.connect(url_of(again), "Ann", token=token) as ann:
        assert ann.player in first
        board = await ask(ann, "leaderboard", 1, game="gomoku", around=ann.player)
        mine = next(r for r in board["rows"] if r["player"] == ann.player)
        assert mine["rating"] == first[ann.player]["after"] and mine["games"] == 1
        await ann.send("leave-room")  # the finished game's room came back too
        await ann.expect("left", player=ann.player)
        async with WsClient.connect(url_of(again), "Bob") as cy:  # a newcomer this time
            await ann.send("create-room", game="gomoku", options={"rated": True})
            room = (await ann.expect("joined"))["room"]
            await cy.send("join-room", room=room)
            await ann.expect("state", status="playing")
            await cy.expect("state", status="playing")
            black, white = (
                (ann, cy)
                if (await ann.request("sync", "state"))["turn"] == ann.player
                else (cy, ann)
            )
            second = (await five(black, white))["ratings"]
        assert second[ann.player]["before"] == first[ann.player]["after"]


async def lose_to_the_computer(client: WsClient, level: str) -> None:
    """A rated game against the computer: two stones each, then resign."""
    await client.send("create-room", game="gomoku", options={"ai": level, "rated": True})
    await client.expect("state", status="playing")
    for x in (0, 14):
        await client.send("move", move={"x": x, "y": 0})
        await client.expect("moved", by=client.player)
        await client.expect("moved")  # the computer's answer
    await client.send("resign")
    over = await client.expect("game-over")
    assert set(over["ratings"]) == {client.player}  # rated: only the person moves
    await client.send("leave-room")
    await client.expect("left")


async def test_the_computers_rows_count_their_rated_games_across_a_restart(
    make_server: Any,
) -> None:
    server: GameServer = await make_server()
    async with WsClient.connect(url_of(server), "Ann") as ann:
        await lose_to_the_computer(ann, "easy")
        await lose_to_the_computer(ann, "hard")
        await lose_to_the_computer(ann, "hard")
        board = await ask(ann, "leaderboard", 1, game="gomoku")
    games = {r["bot"]: r["games"] for r in board["rows"] if "bot" in r}
    assert games == {"easy": 1, "hard": 2}  # was 0 for both: never a false 0
    await server.close()
    again: GameServer = await make_server()  # the fixed rows are written again at start
    async with WsClient.connect(url_of(again), "Bob") as bob:
        board = await ask(bob, "leaderboard", 2, game="gomoku")
    assert {r["bot"]: r["games"] for r in board["rows"] if "bot" in r} == games
    wins = dict(again.store.db.execute("SELECT bot, wins FROM ratings WHERE bot IS NOT NULL"))
    assert wins == {"easy": 1, "hard": 2}
