"""Two real clients play Gomoku on a real server: turns, refusals, rounds, chat."""

from __future__ import annotations

import itertools
from typing import Any

from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient, gomoku_pair


async def play_to_five(black: WsClient, white: WsClient, row: int = 0) -> dict[str, Any]:
    """Black plays a row of five at ``row`` while white plays the next row."""
    for i in range(4):
        await black.send("move", move={"x": i, "y": row})
        await white.expect("moved", by=black.player)
        await white.send("move", move={"x": i, "y": row + 1})
        await black.expect("moved", by=white.player)
    await black.send("move", move={"x": 4, "y": row})
    return await black.expect("game-over")


async def test_whole_game_to_five_sends_game_over_to_both(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, room):
        over_a = await play_to_five(a, b)
        over_b = await b.expect("game-over")
        assert over_a["result"]["winner"] == a.player
        assert over_a["result"]["reason"] == "five"
        assert over_a["seq"] == over_b["seq"] and over_a["room"] == room
        moved = [m for m in b.received if m["type"] == "moved"]
        assert moved[-1]["view"]["moves"][-1] == [4, 0]


async def test_every_recipient_gets_the_same_gapless_seq(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await play_to_five(a, b)
        await b.expect("game-over")

        def events(c: WsClient) -> list[tuple[int, str]]:
            return [(m["seq"], m["type"]) for m in c.received if "seq" in m]

        # b joined at seq 2: from there both saw the same events under the same numbers
        assert [e for e in events(a) if e[0] >= 2] == events(b)
        for c in (a, b):  # non-decreasing with no gap (a snapshot repeats the current seq)
            seqs = [s for s, _ in events(c)]
            assert all(n - m in (0, 1) for m, n in itertools.pairwise(seqs)), seqs


async def test_chat_is_relayed_with_the_senders_name_and_kept_in_state(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await a.send("chat", text="good luck!")
        line = await b.expect("chat")
        assert (line["from"], line["name"], line["text"]) == (a.player, "Ann", "good luck!")
        assert isinstance(line["ts"], float)
        await b.send("sync")
        state = await b.expect("state")
        assert state["chat"][-1]["text"] == "good luck!"


async def test_refused_moves_get_their_codes_and_change_nothing(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, room):
        async with WsClient.connect(server_url, "Cy") as spectator:
            await spectator.send("join-room", room=room, role="spectator")
            before = await spectator.expect("state")
            await a.send("move", move={"x": 7, "y": 7})
            await b.expect("moved")
            await a.send("move", move={"x": 8, "y": 8})
            assert (await a.expect("error"))["code"] == "not-your-turn"
            await b.send("move", move={"x": 7, "y": 7})
            assert (await b.expect("error"))["code"] == "illegal-move"
            await b.send("move", move={"x": 15, "y": 0})
            assert (await b.expect("error"))["code"] == "illegal-move"
            await b.send("move", move={"x": "7", "y": 0})
            assert (await b.expect("error"))["code"] == "bad-message"
            await spectator.send("move", move={"x": 3, "y": 3})
            assert (await spectator.expect("error"))["code"] == "not-a-player"
            await spectator.send("sync", id=5)
            after = await spectator.expect("state", re=5)
            assert after["view"]["moves"] == [[7, 7]]
            assert after["turn"] == b.player
            assert after["seq"] == before["seq"] + 1  # only the one accepted move


async def test_resign_ends_the_game_for_the_other_player(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await b.send("resign")
        resigned = await a.expect("resigned")
        assert resigned["player"] == b.player
        over = await a.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "resign"


async def test_play_again_and_agree_again_swap_colours(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await play_to_five(a, b)
        await b.expect("game-over")
        await a.send("move", move={"x": 9, "y": 9})
        assert (await a.expect("error"))["code"] == "not-playing"
        await b.send("agree-again")
        assert (await b.expect("error"))["code"] == "no-pending-request"
        await a.send("play-again")
        assert (await b.expect("play-again"))["from"] == a.player
        await b.send("agree-again")
        state = await a.expect("state", status="playing")
        assert state["round"] == 1
        assert state["view"]["colors"] == {a.player: "white", b.player: "black"}
        assert state["turn"] == b.player and state["view"]["moves"] == []
        await b.expect("state", status="playing")
        over = await play_to_five(b, a)
        assert over["result"]["winner"] == b.player


async def test_decline_again_tells_the_asker_and_clears_the_request(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await a.send("resign")
        await b.expect("game-over")
        await b.send("play-again")
        await a.expect("play-again")
        await a.send("decline-again")
        assert (await b.expect("decline-again"))["from"] == a.player
        await a.send("agree-again")
        assert (await a.expect("error"))["code"] == "no-pending-request"


async def test_draw_offer_and_takeback_round_trip(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await a.send("move", move={"x": 7, "y": 7})
        await b.expect("moved")
        await a.send("offer", kind="takeback")
        assert (await b.expect("offer"))["kind"] == "takeback"
        await b.send("answer", kind="takeback", accept=True)
        assert (await a.expect("answer"))["accept"] is True
        state = await a.expect("state")
        assert state["view"]["moves"] == [] and state["turn"] == a.player
        await b.send("answer", kind="draw", accept=True)
        assert (await b.expect("error"))["code"] == "no-pending-request"
        await b.send("offer", kind="draw")
        await a.expect("offer")
        await a.send("answer", kind="draw", accept=True)
        over = await b.expect("game-over")
        assert over["result"] == {"winner": None, "reason": "agreed-draw"}


async def test_a_finished_game_is_stored_and_survives_a_restart(make_server: Any) -> None:
    server: GameServer = await make_server()
    async with gomoku_pair(f"ws://127.0.0.1:{server.port}/") as (a, b, room):
        await play_to_five(a, b)
        await b.expect("game-over")
        await a.send("chat", text="well played")
        await b.expect("chat")
    await server.close()
    restarted: GameServer = await make_server()
    games = restarted.store.recent_games()
    assert [g.room for g in games] == [room]
    assert games[0].result["winner"] == games[0].players[0]["player"]
    assert games[0].record["moves"][-1] == [4, 0] and len(games[0].record["moves"]) == 9
    assert restarted.store.chat_lines(room)[-1][2] == "well played"


async def test_the_clock_runs_out_even_when_nobody_moves(server_url: str) -> None:
    async with gomoku_pair(server_url, {"clock": {"minutes": 0.01, "increment": 0}}) as (a, b, _r):
        await a.send("sync")
        clock = (await a.expect("state"))["view"]["clock"]
        assert clock["running"] == a.player and clock["remaining"][a.player] == 0.6
        over = await b.expect("game-over")
        assert over["result"]["reason"] == "timeout" and over["result"]["winner"] == b.player
