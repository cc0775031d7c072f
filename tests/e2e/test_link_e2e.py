"""Link codes end to end: a real server on port 0, real websocket clients, a restart."""

from __future__ import annotations

from typing import Any

from gridhall.server.io.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient


async def link_hello(client: WsClient, code: str, name: str = "Phone") -> dict[str, Any]:
    """``hello`` with a link code: the ``welcome`` or the ``error`` it gets."""
    await client.send("hello", protocol=1, name=name, link=code, id=9)
    while True:
        msg = await client.recv()
        if msg["type"] in ("welcome", "error"):
            return msg


async def test_device_b_becomes_device_a_and_both_tokens_work_after_a_restart(
    make_server: Any,
) -> None:
    server: GameServer = await make_server()
    url = url_of(server)
    async with WsClient.connect(url, "Ann") as laptop:
        assert "link" in laptop.received[-1]["features"]
        issued = await laptop.request("link-code", "link-code", id=4)
        assert issued["re"] == 4 and issued["expires_at"] > 0
        code, first = issued["code"], (laptop.player, laptop.token)
    await server.close()

    server = await make_server()  # the code outlives a restart
    url = url_of(server)
    async with WsClient.connect(url) as phone:
        welcome = await link_hello(phone, code)
        assert welcome["type"] == "welcome" and welcome["re"] == 9
        assert welcome["player"] == first[0] and welcome["token"] != first[1]
        assert welcome["name"] == "Ann"
        profile = await phone.request("player-info", "profile", color="#00aa00")
        assert profile["name"] == "Ann"
        second = welcome["token"]
        await phone.send("create-room", game="gomoku")  # a seat keeps it over the restart
        room = (await phone.expect("joined"))["room"]
        async with WsClient.connect(url) as thief:  # one time only
            refused = await link_hello(thief, code)
            assert refused["code"] == "bad-link" and refused["re"] == 9
            again = await thief.hello("Thief")  # a refused hello leaves it open for another
            assert again["player"] != first[0]
    await server.close()

    server = await make_server()
    url = url_of(server)
    for token in (first[1], second):
        async with WsClient.connect(url, "x", token=token) as device:
            assert device.player == first[0]
            assert (await device.expect("state"))["room"] == room


async def test_wrong_codes_back_off_with_retry_after(make_server: Any) -> None:
    server: GameServer = await make_server()
    guesses = server.hub.links.guesses
    guesses.base = 30.0  # (the first wait is 1 s: a loaded machine may take that long
    url = url_of(server)  # between two guesses, and then the sixth is rightly free)
    async with WsClient.connect(url, "Ann") as laptop:
        code = (await laptop.request("link-code", "link-code"))["code"]
        async with WsClient.connect(url) as guesser:
            answers = [await link_hello(guesser, "ZZZZ-ZZZZ") for _ in range(6)]
            assert [a["code"] for a in answers] == ["bad-link"] * 5 + ["rate-limited"]
            assert 0 < answers[-1]["retry_after"] <= guesses.base
            held = await link_hello(guesser, code.lower())  # held back, the right one too
            assert held["code"] == "rate-limited"
