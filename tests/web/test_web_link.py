"""Link codes in real browsers: Ann's page shows a code, Bob's page (another device,
its own storage) types it at the start screen and plays as Ann from then on."""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from tests.web.harness import Browser, ServerThread, open_lobby


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
