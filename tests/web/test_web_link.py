"""Link codes in real browsers: Ann's page shows a code, Bob's page (another device,
its own storage) types it at the start screen and plays as Ann from then on; the
page's device list, from which a device (this one too) is signed out."""

from __future__ import annotations

import asyncio

from selenium.webdriver.common.keys import Keys

from tests.web.harness import WAIT, Browser, ServerThread, open_lobby
from tests.wsclient import WsClient


def token(browser: Browser) -> str | None:
    value = browser.js("return localStorage.getItem('gridhall.token')")
    return None if value is None else str(value)


def test_a_code_shown_on_one_device_makes_another_the_same_player(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    ann.wait_css("[data-link=open]").click()
    ann.wait_css("[data-link-panel] [data-link=show]").click()
    code = ann.wait(lambda: ann.find("[data-link-code]").text, "a code on Ann's page")
    assert len(code) == 9 and code[4] == "-"
    assert "min" in ann.find("[data-link-expiry]").text
    ann_token = token(ann)

    bob.driver.get(web_server.url)  # a new device: no name, no token yet
    bob.wait_css("[data-link-start] summary").click()
    box = bob.wait_css("[data-link-start] [data-link-input]")
    box.send_keys("nope", Keys.ENTER)  # not a code: said on the page, nothing sent
    assert "8" in bob.wait_css("[data-link-start] [data-link-error]").text
    box.clear()
    box.send_keys(code.lower(), Keys.ENTER)
    bob.wait(
        lambda: bob.find("#connection").get_attribute("data-connection") == "connected",
        "Bob's page to connect as Ann",
    )
    bob.wait(lambda: bob.find("#rename").text.startswith("Ann"), "Ann's name on Bob's page")
    assert token(bob) not in (None, ann_token)
    ann.wait(
        lambda: ann.find("#connection").get_attribute("data-connection") == "replaced",
        "Ann's page to stand aside",
    )
    players = web_server.sync(lambda: len(web_server.server.hub.identities))
    assert players == 1  # one player on two devices

    bob.find("[data-link=open]").click()  # the code worked once only
    used = bob.wait_css("[data-link-panel] [data-link-input]")
    used.send_keys(code, Keys.ENTER)
    bob.wait(lambda: "link code" in bob.find("[data-notice]").text, "the refusal said")
    bob.wait(
        lambda: bob.find("#connection").get_attribute("data-connection") == "connected",
        "Bob's page back as before",
    )
    assert bob.find("#rename").text.startswith("Ann")


def test_the_devices_are_listed_and_one_is_signed_out_then_this_one(
    ann: Browser, web_server: ServerThread
) -> None:
    """Ann's phone (a plain client) gives her page a code: the panel lists both devices
    (this one marked), signs the phone out (its token stops working at once), then signs
    this page out: the page says so and offers to play as someone new."""
    url = web_server.url.replace("http://", "ws://")

    async def phone() -> tuple[str, str, str]:
        async with WsClient.connect(url) as client:
            await client.send("hello", protocol=1, name="Ann", device="Phone")
            welcome = await client.expect("welcome")
            code = (await client.request("link-code", "link-code"))["code"]
            return welcome["player"], welcome["token"], code

    player, phone_token, code = asyncio.run_coroutine_threadsafe(phone(), web_server.loop).result(
        WAIT
    )
    ann.driver.get(web_server.url)
    ann.wait_css("[data-link-start] summary").click()
    ann.wait_css("[data-link-start] [data-link-input]").send_keys(code, Keys.ENTER)
    ann.wait(lambda: ann.find("#rename").text.startswith("Ann"), "the page to become Ann")
    ann.wait_css("[data-link=open]").click()
    ann.wait(lambda: len(ann.find_all("[data-devices] li[data-device]")) == 2, "two devices")
    names = [e.text for e in ann.find_all("[data-devices] [data-device-name]")]
    assert names[0].startswith("Browser") and names[1] == "Phone"
    current = ann.find_all("[data-devices] li[aria-current]")
    assert len(current) == 1 and "Browser" in current[0].text
    phone_id = ann.find_all("[data-devices] li[data-device]")[1].get_attribute("data-device")
    ann.find(f"[data-sign-out='{phone_id}']").click()
    ann.wait(lambda: len(ann.find_all("[data-devices] li[data-device]")) == 1, "the phone gone")

    async def resumes(token: str) -> bool:
        async with WsClient.connect(url) as client:
            await client.send("hello", protocol=1, name="x", token=token)
            return bool((await client.expect("welcome"))["player"] == player)

    assert not asyncio.run_coroutine_threadsafe(resumes(phone_token), web_server.loop).result(WAIT)
    mine = ann.find("[data-devices] li[data-device]").get_attribute("data-device")
    page_token = token(ann)
    assert page_token is not None
    ann.find(f"[data-sign-out='{mine}']").click()
    ann.wait(
        lambda: ann.find("#connection").get_attribute("data-connection") == "signed-out",
        "the page to say it was signed out",
    )
    assert "signed out" in ann.find("#connection").text and token(ann) is None
    assert not ann.find("#reconnect").get_attribute("hidden")
    assert not asyncio.run_coroutine_threadsafe(resumes(page_token), web_server.loop).result(WAIT)
