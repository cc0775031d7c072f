"""Room features in real browsers: chat, a reload that keeps the seat, private rooms,
watching, and the lobby list."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.keys import Keys

from tests.web.harness import (
    Browser,
    ServerThread,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)


def say(browser: Browser, text: str) -> None:
    box = browser.find("#chat-form input[name=chat]")
    box.send_keys(text)
    box.send_keys(Keys.ENTER)


def chat_lines(browser: Browser) -> list[str]:
    return [li.text for li in browser.find_all("[data-chat-log] li")]


def test_chat_goes_both_ways_and_names_are_text_not_markup(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "<b>Bob</b>", "gomoku")
    say(ann, "hi Bob, gl hf")
    bob.wait(lambda: any("hi Bob, gl hf" in t for t in chat_lines(bob)), "Ann's line at Bob's")
    say(bob, "<img src=x onerror=alert(1)> thanks!")
    ann.wait(lambda: any("thanks!" in t for t in chat_lines(ann)), "Bob's line at Ann's")
    line = ann.find_all("[data-chat-log] li")[-1]
    assert line.find_element("css selector", ".name").text == "<b>Bob</b>"
    assert line.find_element("css selector", ".text").text == "<img src=x onerror=alert(1)> thanks!"
    assert not ann.find_all("[data-chat-log] img, [data-chat-log] b, #players b")
    assert ann.find_all("[data-chat-log] li")[0].find_element("css selector", ".name").text == "Ann"


def test_reload_keeps_the_seat(ann: Browser, bob: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "Bob", "gomoku")
    ann.wait(lambda: ann.find("[data-status]").get_attribute("data-turn") == "me", "Ann's turn")
    ann.cell(7, 7).click()
    bob.wait(lambda: bob.cell(7, 7).get_attribute("data-stone") == "black", "Ann's stone")
    token = bob.js("return localStorage.getItem('gridhall.token')")
    assert token

    bob.driver.refresh()
    bob.wait_css("[data-board='gomoku']")
    bob.wait(lambda: bob.cell(7, 7).get_attribute("data-stone") == "black", "the board back")
    bob.wait(lambda: bob.find("[data-status]").get_attribute("data-turn") == "me", "Bob's turn")
    assert bob.js("return localStorage.getItem('gridhall.token')") == token
    ann.wait(lambda: "offline" not in ann.find("#players").text, "Bob back online at Ann's")
    assert [li.get_attribute("data-player") for li in ann.find_all("#players li")] == [
        li.get_attribute("data-player") for li in bob.find_all("#players li")
    ]
    bob.cell(8, 8).click()
    ann.wait(lambda: ann.cell(8, 8).get_attribute("data-stone") == "white", "Bob's stone")


def test_private_room_asks_for_its_password_and_spectators_watch(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    ann.find("#create-form [name=private]").click()
    ann.find("#create-form [name=password]").send_keys("sesame")
    code = create_room(ann, "minesweeper", opt_preset="beginner")
    open_lobby(bob, web_server, "Bob")
    assert code not in bob.find("#room-list").text  # private rooms are not listed

    bob.driver.get(f"{web_server.url}?name=Bob#{code}")
    bob.wait(
        lambda: bob.find("#join-form [name=code]").get_attribute("value") == code,
        "the join form to ask for the password",
    )
    bob.wait(lambda: "private" in bob.find("[data-notice]").text, "the password notice")
    bob.find("#join-form [name=password]").send_keys("sesame")
    bob.find("#join-form button[value=spectator]").click()
    bob.wait_css("[data-board='minesweeper']")
    assert "Watching" in bob.status()
    ann.wait(lambda: "Watching: Bob" in ann.find("#spectators").text, "Bob among the watchers")
    bob.cell(0, 0).click()
    bob.wait(
        lambda: "spectators cannot play" in bob.find("[data-notice]").text, "the spectator notice"
    )


def test_lobby_lists_public_rooms_and_joins_from_the_list(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    open_lobby(ann, web_server, "Ann")
    code = create_room(ann, "linkmatch", preset="2")  # the 8×6 preset
    open_lobby(bob, web_server, "Bob")
    row = bob.wait(lambda: bob.find_all(f"#room-list tr[data-room='{code}']"), "the room row")[0]
    assert "Link-match" in row.text and "Ann" in row.text
    if shots:
        bob.js("document.getElementById('notice').hidden = true")
        bob.screenshot(shots / "web-lobby.png")
    row.find_element("css selector", "button.primary").click()
    bob.wait_css("[data-board='linkmatch']")
    ann.wait(lambda: "Bob" in ann.find("#players").text, "Bob in Ann's player list")


WATCH_CONNECTION = """
window.seenConnection = [];
new MutationObserver(() => window.seenConnection.push(
    document.getElementById('connection').dataset.connection))
  .observe(document.getElementById('connection'), {attributes: true});
"""


def test_a_restart_close_says_so_and_the_page_reconnects_to_its_seat(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "Bob", "gomoku")
    ann.wait(lambda: ann.status_state() == "playing", "the game")
    bob.js(WATCH_CONNECTION)

    web_server.sync(
        lambda: [c.close(1012, "service restart") for c in list(web_server.server.connections)]
    )
    bob.wait(lambda: "restarting" in bob.js("return window.seenConnection"), "the restart to show")
    for browser in (ann, bob):
        browser.wait(
            lambda b=browser: b.find("#connection").get_attribute("data-connection") == "connected",
            "the reconnect",
        )
    ann.wait(lambda: ann.find("[data-status]").get_attribute("data-turn") == "me", "Ann's turn")
    ann.cell(7, 7).click()
    bob.wait(lambda: bob.cell(7, 7).get_attribute("data-stone") == "black", "play going on")


def test_a_second_tab_takes_over_and_the_first_one_says_so(
    ann: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "minesweeper", opt_preset="beginner")
    first = ann.driver.current_window_handle
    ann.driver.switch_to.new_window("tab")
    try:
        ann.driver.get(web_server.url)  # the same profile: the same token
        ann.wait_css("[data-board='minesweeper']")
        ann.driver.switch_to.window(first)
        ann.wait(
            lambda: ann.find("#connection").get_attribute("data-connection") == "replaced",
            "the first tab to step back",
        )
        assert "another tab" in ann.find("#connection").text
        assert ann.find("#reconnect").text == "Play here"
    finally:
        for handle in ann.driver.window_handles:
            if handle != first:
                ann.driver.switch_to.window(handle)
                ann.driver.close()
        ann.driver.switch_to.window(first)


def test_an_invite_link_without_a_name_asks_for_one_then_joins(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    code = create_room(ann, "linkmatch", preset="2")  # the 8×6 preset
    bob.driver.get(invite_link(ann))  # a fresh origin: no saved name yet
    form = bob.wait_css("#name-form")
    assert f"invited to room {code}" in bob.find("#welcome-room").text
    form.find_element("css selector", "[name=name]").send_keys("  Bob   the  Builder ")
    form.find_element("css selector", "button[type=submit]").click()
    bob.wait_css("[data-board='linkmatch']")
    ann.wait(lambda: "Bob the Builder" in ann.find("#players").text, "Bob's tidied name")
    assert bob.js("return localStorage.getItem('gridhall.name')") == "Bob the Builder"


def test_a_refused_chat_line_stays_in_the_input(ann: Browser, tmp_path: Path) -> None:
    server = ServerThread(tmp_path / "chat.db", chat_lines=1, chat_window=3600.0)
    try:
        open_lobby(ann, server, "Ann")
        create_room(ann, "gomoku")
        say(ann, "first")
        ann.wait(lambda: any("first" in t for t in chat_lines(ann)), "the first line")
        box = ann.find("#chat-form input[name=chat]")
        ann.wait(lambda: box.get_attribute("value") == "", "the sent line cleared")
        say(ann, "second")  # past the chat limit: refused
        ann.wait(lambda: ann.find("[data-notice]").is_displayed(), "the refusal")
        assert box.get_attribute("value") == "second", "the refused line is kept to send again"
        assert not any("second" in t for t in chat_lines(ann))
    finally:
        ann.driver.get("about:blank")
        server.close()
