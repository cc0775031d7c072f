"""Devices over real websockets (issue 41, item 6): a server on port 0, real clients.
Link codes redeemed one after another leave at most MAX_DEVICES working tokens (the
first device's among those dropped); a device is signed out from another (its token
stops at once) or from itself (answered, then closed with 4001); an older client that
names no device still works."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from gridhall.server.core.devices import MAX_DEVICES, SIGNED_OUT
from tests.e2e.test_handshake_e2e import closed_with
from tests.wsclient import WsClient


async def hello(client: WsClient, **fields: Any) -> dict[str, Any]:
    await client.send("hello", protocol=1, name="Ann", **fields)
    welcome = await client.expect("welcome")
    client.player, client.token = welcome["player"], welcome["token"]
    return welcome


async def player_of(url: str, token: str) -> str:
    """Whom ``token`` resumes now (a new player when it no longer works)."""
    async with WsClient.connect(url) as client:
        return str((await hello(client, token=token))["player"])


async def test_successive_link_codes_leave_at_most_max_devices_tokens(server_url: str) -> None:
    """Issue 41's attack, scaled down: each new device asks for the next code."""
    async with AsyncExitStack() as stack:
        holder = await stack.enter_async_context(WsClient.connect(server_url))
        owner = (await hello(holder, device="Tk · Linux"))["player"]
        tokens = [holder.token]
        for n in range(MAX_DEVICES + 4):
            code = (await holder.request("link-code", "link-code"))["code"]
            holder = await stack.enter_async_context(WsClient.connect(server_url))
            assert (await hello(holder, link=code, device=f"Device {n}"))["player"] == owner
            tokens.append(holder.token)
        listed = (await holder.request("list-devices", "devices"))["devices"]
        assert len(listed) == MAX_DEVICES and listed[0]["current"] is True
    working = [await player_of(server_url, token) == owner for token in tokens]
    assert working == [False] * 5 + [True] * MAX_DEVICES  # the first device's is gone too


async def test_a_device_signed_out_from_another_stops_working_at_once(server_url: str) -> None:
    async with WsClient.connect(server_url) as laptop:
        owner = (await hello(laptop, device={"kind": "tk", "platform": "Linux"}))["player"]
        code = (await laptop.request("link-code", "link-code"))["code"]
        async with WsClient.connect(server_url) as phone:
            await hello(phone, link=code, device={"kind": "browser", "platform": "Android"})
            assert (await closed_with(laptop.ws))[0] == 4000  # one connection an identity
            listed = (await phone.request("list-devices", "devices"))["devices"]
            assert [(d["kind"], d["platform"], d["current"]) for d in listed] == [
                ("browser", "Android", True),
                ("tk", "Linux", False),
            ]
            assert [d["name"] for d in listed] == ["Browser · Android", "Tk · Linux"]
            await phone.send("sign-out-device", device=listed[1]["device"], id=7)
            answer = await phone.expect("devices", re=7)
            assert [d["name"] for d in answer["devices"]] == ["Browser · Android"]
            assert await player_of(server_url, laptop.token) != owner
            await phone.send("sign-out-device", device=listed[1]["device"], id=8)
            again = await phone.expect("error", re=8)  # already gone: nothing changes
            assert again["code"] == "bad-message"
            assert await player_of(server_url, phone.token) == owner


async def test_signing_out_this_device_answers_then_closes_with_a_reason(
    server_url: str,
) -> None:
    async with WsClient.connect(server_url) as ann:
        owner = (await hello(ann))["player"]  # an older client: no device name
        [mine] = (await ann.request("list-devices", "devices"))["devices"]
        assert mine["name"] is None and mine["current"] is True
        await ann.send("sign-out-device", device=mine["device"], id=3)
        assert (await ann.expect("devices", re=3))["devices"] == []
        code, reason = await closed_with(ann.ws)
        assert code == SIGNED_OUT and "signed out" in reason
    assert await player_of(server_url, ann.token) != owner
