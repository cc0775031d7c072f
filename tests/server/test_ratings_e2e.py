"""Ratings over real websockets: rated Gomoku between two people and against the
computer, a Link-match race of three, Minesweeper team records, leaderboards with
paging and ``around``, profiles, bad requests and the shared query rate limit; the
farming attack of issue 41 (throw-away opponents) and the one-stone game."""

from __future__ import annotations

from typing import Any

from gridhall.server.core.ratings import display
from gridhall.server.games.gomoku.computer import REFERENCE
from gridhall.server.games.linkmatch.paths import first_pair
from gridhall.server.io.app import GameServer
from tests import rated
from tests.conftest import url_of
from tests.rated import five
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


def establish(server: GameServer, *clients: WsClient, game: str = "gomoku") -> None:
    """Give each client's identity an established rating (``tests/rated.py``)."""
    rated.establish(server, (c.player for c in clients), game)


async def test_a_rated_gomoku_game_moves_both_ratings_onto_the_leaderboard(
    server: GameServer,
) -> None:
    url = url_of(server)
    async with gomoku_pair(url, {"rated": True}) as (ann, bob, _room):
        establish(server, ann, bob)
        over = await five(ann, bob)
        ratings = over["ratings"]
        assert set(ratings) == {ann.player, bob.player}
        assert ratings[ann.player]["before"] == ratings[bob.player]["before"] == 1640
        assert ratings[ann.player]["after"] > 1640 > ratings[bob.player]["after"]
        assert "ratings" in ann.received[0]["features"]

        board = await ask(bob, "leaderboard", 1, game="gomoku")
        assert board["type"] == "leaderboard" and board["total"] == 4  # 2 people + 2 computers
        people = [r for r in board["rows"] if "bot" not in r]
        assert [r["name"] for r in people] == ["Ann", "Bob"]
        assert [r["rating"] for r in people] == [
            ratings[ann.player]["after"],
            ratings[bob.player]["after"],
        ]
        assert all(not r["provisional"] and r["games"] == 11 for r in people)
        assert [r["rank"] for r in board["rows"]] == [1, 2, 3, 4]

        await ann.send("leave-room")
        await ann.send("player-info", name="Annie")  # the board shows the current name
        await ann.expect("profile")
        mine = await ask(ann, "leaderboard", 2, game="gomoku", around=ann.player)
        assert "Annie" in [r["name"] for r in mine["rows"]]

        profile = await ask(bob, "get-profile", 3, player=ann.player)
        assert profile["type"] == "player-profile" and profile["name"] == "Annie"
        gomoku = profile["ratings"]["gomoku"]
        assert (gomoku["games"], gomoku["wins"], gomoku["provisional"]) == (11, 6, False)
        [[ended_at, rating, game_id]] = gomoku["history"]
        assert rating == ratings[ann.player]["after"]
        [recent] = profile["recent"]
        assert recent["game_id"] == game_id and recent["rated"] is True
        assert recent["ended_at"] == ended_at
        assert profile["records"] == {"minesweeper": []}
        assert (await ask(bob, "leaderboard", 4, game="linkmatch"))["rows"] == []


async def test_newcomers_rated_game_counts_but_moves_neither_and_lists_neither(
    server: GameServer,
) -> None:
    """Two brand-new identities: each counts for nothing to the other, so nothing
    moves; the game counts toward being established; the board does not list them,
    and asking for one's place there says why."""
    async with gomoku_pair(url_of(server), {"rated": True}) as (ann, bob, _room):
        ratings = (await five(ann, bob))["ratings"]
        assert ratings == {p: {"before": 1000, "after": 1000} for p in (ann.player, bob.player)}
        board = await ask(bob, "leaderboard", 1, game="gomoku")
        assert board["total"] == 2 and all("bot" in r for r in board["rows"])
        refused = await ask(ann, "leaderboard", 2, game="gomoku", around=ann.player)
        assert refused["code"] == "bad-message"
        assert "10 or more rated games (1 so far)" in refused["message"]
        gomoku = (await ask(ann, "get-profile", 3, player=ann.player))["ratings"]["gomoku"]
        assert (gomoku["games"], gomoku["provisional"], gomoku["rating"]) == (1, True, 1000)


async def test_farming_throwaway_identities_moves_no_rating(server: GameServer) -> None:
    """Issue 41's attack: a player beats one fresh identity after another. One stone
    and resign is not rated at all; a full game against a throw-away moves nothing."""
    url = url_of(server)
    async with WsClient.connect(url, "Farmer") as farmer:
        establish(server, farmer)
        start = server.hub.ratings.get(farmer.player, "gomoku")
        for n in range(4):  # (a room is a whole-room request: 5 in a burst)
            async with WsClient.connect(url, f"Throwaway {n}") as fresh:
                await farmer.send("create-room", game="gomoku", options={"rated": True})
                room = (await farmer.expect("joined"))["room"]
                await fresh.send("join-room", room=room)
                state = await fresh.expect("state", status="playing")
                black, white = (
                    (farmer, fresh) if state["turn"] == farmer.player else (fresh, farmer)
                )
                if n % 2 == 0:  # one stone, then the throw-away resigns
                    await black.send("move", move={"x": 7, "y": 7})
                    await white.expect("moved", by=black.player)
                    await fresh.send("resign")
                    over = await farmer.expect("game-over")
                    assert over["result"]["winner"] == farmer.player and "ratings" not in over
                else:  # a full game the farmer wins (the throw-away playing along)
                    if black is fresh:
                        await fresh.send("resign")
                        over = await farmer.expect("game-over")
                        assert "ratings" not in over  # no stone at all: not rated
                    else:
                        over = await five(farmer, fresh)
                        after = over["ratings"][farmer.player]
                        assert after["before"] == after["after"] == start.shown
                await farmer.send("leave-room")
                await farmer.expect("left", player=farmer.player)
        now = server.hub.ratings.get(farmer.player, "gomoku")
        assert (now.mu, now.sigma) == (start.mu, start.sigma)


async def test_one_stone_and_resign_against_the_computer_is_not_rated(server: GameServer) -> None:
    async with WsClient.connect(url_of(server), "Ann") as ann:
        await ann.send("create-room", game="gomoku", options={"rated": True, "ai": "easy"})
        state = await ann.expect("state", status="playing")
        bot = next(pid for pid in state["view"]["colors"] if pid != ann.player)
        if state["turn"] == ann.player:
            await ann.send("move", move={"x": 7, "y": 7})
            await ann.expect("moved", by=ann.player)
        await ann.expect("moved", by=bot)
        await ann.send("resign")
        over = await ann.expect("game-over")
        assert over["result"]["winner"] == bot and "ratings" not in over
        board = await ask(ann, "leaderboard", 1, game="gomoku")
        easy = next(r for r in board["rows"] if r.get("bot") == "easy")
        assert (easy["rating"], easy["games"], easy["provisional"]) == (EASY, 0, False)
        assert easy["name"] == "Computer (easy)" and board["total"] == 2
        assert bot not in [r["player"] for r in board["rows"]]
        assert (await ask(ann, "get-profile", 2, player=ann.player))["ratings"] == {}


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
        establish(server, a, b, c, game="linkmatch")
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

        await link(c)  # everyone races (a racer who never linked is not rated)
        for _ in range(2):  # Bob is one pair ahead of Cat when Ann clears
            await link(b)
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
        establish(server, ann, bob)
        first = (await five(ann, bob))["ratings"]
        token = ann.token
    await server.close()
    again = await make_server(db=db)
    async with WsClient.connect(url_of(again), "Ann", token=token) as ann:
        assert ann.player in first
        board = await ask(ann, "leaderboard", 1, game="gomoku", around=ann.player)
        mine = next(r for r in board["rows"] if r["player"] == ann.player)
        assert mine["rating"] == first[ann.player]["after"] and mine["games"] == 11
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


FAR_APART = [(0, 0), (14, 0), (0, 14), (14, 14), (7, 0), (0, 7), (14, 7), (7, 14)]
"""Stones of ours that never make a line."""


async def lose_to_the_computer(client: WsClient, level: str) -> None:
    """A rated game against the computer: five stones each, far apart (a game of ten is
    rated), then resign, unless the computer's fifth stone won it first."""
    await client.send("create-room", game="gomoku", options={"ai": level, "rated": True})
    state = await client.expect("state", status="playing")
    taken = {tuple(m) for m in state["view"]["moves"]}
    mine = state["turn"] == client.player
    over = None
    while over is None and (len(taken) < 10 or not mine):
        if mine:
            x, y = next(pt for pt in FAR_APART if pt not in taken)
            await client.send("move", move={"x": x, "y": y})
        msg = await client.recv()
        if msg["type"] == "game-over":
            over = msg
        elif msg["type"] == "moved":
            taken = {tuple(m) for m in msg["view"]["moves"]}
            mine = msg["by"] != client.player
    if over is None:
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
    wins = dict(
        again.store.db.execute(
            "SELECT bot, wins FROM ratings WHERE bot IS NOT NULL AND game = 'gomoku'"
        )
    )
    assert wins == {"easy": 1, "hard": 2}
