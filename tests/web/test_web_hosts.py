"""Room hosts and the server operator's messages in the browser client: the host's
marker and tools, removal, mute, lock and hand-over against a real server; the
operator's announcement, room closing and removal as the page shows them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from tests.web.harness import (
    Browser,
    ServerThread,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)
from tests.web.test_web_a11y import audit
from tests.wsclient import WsClient

RUN = """
const done = arguments[arguments.length - 1];
(async () => {
  const session = await import('/js/session.js');
  const hosts = await import('/js/hosts.js');
  %s
})().then(done, (err) => done({error: String(err && err.stack || err)}));
"""
"""The page's own modules, run by WebDriver (the CSP forbids eval)."""

FAKE = """
const s = new session.Session('ws://127.0.0.1:9/', 'T');
s.player = 'p1';
s.sent = [];
s.send = (type, fields) => { s.sent.push(type); return 1; };
s.onMessage({type: 'state', room: 'R', seq: 1, game: 'gomoku', status: 'waiting',
  players: [{player: 'p1', name: 'Ann', seat: 0}, {player: 'p2', name: 'Bob', seat: 1}],
  spectators: ['Cy'], view: {}, chat: [], round: 0, host: 'p1', locked: false, muted: []});
const st = () => s.room.state;
const host = (seq, fields) => s.onMessage({type: 'host', room: 'R', seq, by: 'p1', ...fields});
"""


def run(browser: Browser, body: str) -> Any:
    result = browser.driver.execute_async_script(RUN % (FAKE + body))
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(result["error"])
    return result


def test_host_events_fold_into_the_room_and_read_as_log_lines(
    ann: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    got = run(
        ann,
        """
      const line = (msg) => hosts.hostEventText(msg, st(), 'p1', s.room.watchers);
      const out = {};
      host(2, {action: 'mute', player: 'p2', name: 'Bob'});
      host(3, {action: 'lock'});
      out.afterLock = [st().muted, st().locked];
      host(4, {action: 'unmute', player: 'p2', name: 'Bob'});
      host(5, {action: 'unlock'});
      s.onMessage({type: 'joined', room: 'R', seq: 6, player: 'p3', name: 'Dee', role: 'spectator'});
      out.watchers = hosts.knownWatchers(st(), s.room.watchers);
      host(7, {action: 'hand-over', by: null, player: 'p2', name: 'Bob'});
      out.afterHandOver = [st().muted, st().locked, st().host, s.sent.length];
      host(8, {action: 'computer', level: 'hard'});
      out.synced = s.sent;
      out.lines = [
        line({action: 'kick', by: 'p2', player: 'p3', name: 'Dee', minutes: 10}),
        line({action: 'kick', by: 'p2', player: 'p3', name: 'Dee', minutes: 1}),
        line({action: 'mute', by: 'p1', player: 'p2', name: 'Bob'}),
        line({action: 'lock', by: 'p2'}),
        line({action: 'hand-over', by: null, player: 'p2', name: 'Bob'}),
        line({action: 'hand-over', by: 'p2', player: 'p1', name: 'Ann'}),
        line({action: 'unmute', by: 'p9', player: 'p3'}),
        line({action: 'unmute', by: 'p2', player: 'p2', name: 'Bob'}),
        line({action: 'unmute', by: 'p1', player: 'p1', name: 'Ann'}),
      ];
      s.onMessage({type: 'state', room: 'R', seq: 9, game: 'gomoku', status: 'waiting',
        players: [{player: 'p1', name: 'Ann', seat: 0}], spectators: ['Cy'],
        spectator_ids: ['p4'], view: {}, chat: [], round: 0, host: 'p4', locked: false,
        muted: []});
      out.fromState = hosts.knownWatchers(st(), s.room.watchers);
      out.removed = hosts.isOperatorRemoval("removed by the server's operator: spam");
      out.flood = hosts.isOperatorRemoval('message flood');
      return out;
    """,
    )
    assert got["afterLock"] == [["p2"], True]
    assert got["watchers"] == [{"player": "p3", "name": "Dee"}], "a spectator's id, from joined"
    assert got["afterHandOver"] == [[], False, "p2", 0]
    assert got["fromState"] == [{"player": "p4", "name": "Cy"}], "ids a state names"
    assert got["synced"] == ["sync"], "a changed computer seat comes with a fresh state"
    assert got["lines"] == [
        "Bob removed Dee for 10 minutes.",
        "Bob removed Dee for 1 minute.",
        "You muted Bob.",
        "Bob locked the room: nobody new can join.",
        "Bob is the host now.",
        "You are the host now.",
        "The host unmuted Dee.",
        "Bob hosts the room now, so they may chat again.",
        "You host the room now, so you may chat again.",
    ]
    assert (got["removed"], got["flood"]) == (True, False)


def operator(server: ServerThread, **action: Any) -> Any:
    """Do what the admin page's operator does (the admin channel's own actions)."""
    return server.sync(lambda: server.server.admin_channel.actions.run(action, time.time()))


def bulletin(browser: Browser, kind: str) -> str:
    return str(
        browser.wait(
            lambda: [
                b.text for b in browser.find_all(f"[data-bulletin='{kind}']") if b.is_displayed()
            ],
            f"the {kind} bulletin",
        )[0]
    )


def connection(browser: Browser, status: str) -> None:
    browser.wait(
        lambda: browser.find("#connection").get_attribute("data-connection") == status,
        f"the connection to be {status}",
    )


def test_the_operators_announcement_closing_removal_and_ban_stay_on_the_page_as_text(
    ann: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    code = create_room(ann, "gomoku")
    me = ann.find("#players li.me").get_attribute("data-player")
    operator(web_server, action="announce", text="<b>Pizza</b> at 6")
    assert "<b>Pizza</b> at 6" in bulletin(ann, "announce")
    assert not ann.find_all("#bulletins b")
    assert ann.find("#bulletins").get_attribute("role") == "status"

    operator(web_server, action="close-room", room=code, reason="closing time")
    ann.wait_css("#lobby")
    assert f"closed room {code}: closing time" in bulletin(ann, "closed")
    assert "Pizza" in bulletin(ann, "announce"), "an announcement stays until dismissed"
    ann.find("[data-bulletin='announce'] [data-dismiss]").click()
    ann.wait(lambda: not ann.find_all("[data-bulletin='announce']"), "the dismissed line to go")
    assert (
        not ann.find("[data-notice]").is_displayed()
        or "not in a room" not in ann.find("[data-notice]").text
    )

    operator(web_server, action="remove-player", player=me, reason="spamming")
    assert "removed you from the server: spamming" in bulletin(ann, "removed")
    connection(ann, "removed")
    assert ann.find("#reconnect").is_displayed(), "coming back is the player's choice"
    ann.find("#reconnect").click()
    connection(ann, "connected")

    operator(web_server, action="ban", player=me, minutes=30, reason="flooding")
    connection(ann, "removed")
    ann.find("#reconnect").click()
    connection(ann, "banned")
    assert "banned from this server until" in bulletin(ann, "banned")
    assert "flooding" in bulletin(ann, "banned")
    assert ann.find("#reconnect").is_displayed()


@pytest.fixture
def room_of_two(ann: Browser, bob: Browser, web_server: ServerThread) -> str:
    open_lobby(ann, web_server, "Ann")
    code = create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "Bob", "gomoku")
    ann.wait(lambda: "Bob" in ann.find("#players").text, "Bob at Ann's")
    return code


def row(browser: Browser, name: str) -> Any:
    return next(
        li
        for li in browser.find_all("#players li")
        if li.find_element("css selector", ".name").text == name
    )


def has_crown(browser: Browser, name: str) -> bool:
    return bool(row(browser, name).find_elements("css selector", "[data-host-mark]"))


def log_lines(browser: Browser) -> list[str]:
    return [li.text for li in browser.find_all("[data-chat-log] li.event")]


def tools_for(browser: Browser, name: str) -> Any:
    """Open the host's tools on ``name``'s row."""
    box = row(browser, name).find_element("css selector", "details.host-tools")
    if box.get_attribute("open") is None:
        box.find_element("css selector", "summary").click()
    return box


def test_the_host_mutes_locks_and_removes_and_the_removed_player_is_kept_out(
    ann: Browser, bob: Browser, web_server: ServerThread, room_of_two: str
) -> None:
    code = room_of_two
    for browser in (ann, bob):
        browser.wait(
            lambda b=browser: has_crown(b, "Ann") and not has_crown(b, "Bob"),
            "the crown on Ann's row",
        )
    assert (
        row(ann, "Ann").find_element("css selector", ".host-mark").get_attribute("title") == "host"
    )
    assert not bob.find_all("details.host-tools") and not bob.find("#host-bar").is_displayed()
    assert not row(ann, "Ann").find_elements("css selector", "details.host-tools")

    tools_for(ann, "Bob").find_element("css selector", "[data-host=mute]").click()
    for browser in (ann, bob):
        browser.wait(
            lambda b=browser: row(b, "Bob").find_elements("css selector", "[data-muted]"),
            "Bob marked muted",
        )
    assert "You muted Bob." in log_lines(ann) and "Ann muted you." in log_lines(bob)
    box = bob.find("#chat-form input[name=chat]")
    assert box.get_attribute("placeholder") == "The host has muted your chat in this room."
    box.send_keys("let me talk\n")
    bob.wait(lambda: "muted your chat" in bob.find("[data-notice]").text, "the muted refusal")
    assert box.get_attribute("value") == "let me talk"

    ann.find("#lock-room").click()
    bob.wait(lambda: bob.find("#room-lock").is_displayed(), "the lock note at Bob's")
    ann.wait(lambda: ann.find("#lock-room").text == "Unlock the room", "the toggle to turn")
    assert "Ann locked the room: nobody new can join." in log_lines(bob)

    tools = tools_for(ann, "Bob")
    Select(tools.find_element("css selector", "[data-minutes]")).select_by_value("5")
    tools.find_element("css selector", "[data-host=kick]").click()
    bob.wait_css("#lobby")
    note = bulletin(bob, "kicked")
    assert f"The host removed you from room {code}. You can join it again after" in note
    ann.wait(lambda: "You removed Bob for 5 minutes." in log_lines(ann), "the kick in Ann's log")
    ann.wait(lambda: len(ann.find_all("#players li")) == 1, "Bob gone from Ann's list")
    locked = bob.wait(
        lambda: bob.find_all(f"#room-list tr[data-room='{code}'][data-locked]"),
        "the room listed as locked",
    )[0]
    assert locked.find_element("css selector", ".lock").text == "locked"

    ann.find("#lock-room").click()
    ann.wait(lambda: ann.find("#lock-room").text == "Lock the room", "the room unlocked")
    bob.find("#refresh").click()
    bob.wait(
        lambda: bob.find_all(f"#room-list tr[data-room='{code}']:not([data-locked])"),
        "the room listed unlocked",
    )[0].find_element("css selector", "button.primary").click()
    bob.wait(lambda: "can join it again in" in bob.find("[data-notice]").text, "the kicked refusal")
    assert bob.find("#lobby").is_displayed()


def test_the_host_hands_the_role_over_and_the_crown_and_tools_follow(
    ann: Browser, bob: Browser, web_server: ServerThread, room_of_two: str
) -> None:
    ann.wait(lambda: has_crown(ann, "Ann"), "Ann's crown")
    tools_for(ann, "Bob").find_element("css selector", "[data-host=hand-over]").click()
    for browser in (ann, bob):
        browser.wait(
            lambda b=browser: has_crown(b, "Bob") and not has_crown(b, "Ann"),
            "the crown on Bob's row",
        )
    bob.wait(lambda: "You are the host now." in log_lines(bob), "the line at Bob's")
    assert "Bob is the host now." in log_lines(ann)
    assert not ann.find_all("details.host-tools") and not ann.find("#host-bar").is_displayed()
    assert bob.find("#host-bar").is_displayed()
    # a spectator (a plain websocket client) gets the host's tools too
    watcher = WsClient.connect(web_server.url.replace("http", "ws", 1), "Cy")
    cy = web_server.call(watcher.__aenter__())
    try:
        web_server.call(cy.send("join-room", room=room_of_two, role="spectator"))
        spectator = bob.wait(lambda: bob.find_all("#watchers li[data-player]"), "Cy's row")[0]
        assert spectator.find_element("css selector", ".name").text == "Cy"
        spectator.find_element("css selector", "summary").click()
        spectator.find_element("css selector", "[data-host=mute]").click()
        bob.wait(lambda: bob.find_all("#watchers li [data-muted]"), "Cy marked muted")
        assert not ann.find("#watchers").is_displayed(), "only the host has the spectators' tools"
        # the keyboard reaches the new host's tools: the summary opens with Enter
        summary = row(bob, "Ann").find_element("css selector", "details.host-tools summary")
        bob.js("arguments[0].focus()", summary)
        summary.send_keys(Keys.ENTER)
        bob.wait(
            lambda: row(bob, "Ann").find_element("css selector", "[data-host=kick]").is_displayed(),
            "the tools open from the keyboard",
        )
        audit(bob, "the host's tools")
    finally:
        web_server.call(watcher.__aexit__(None, None, None))


def test_the_host_seats_and_removes_a_computer_between_games(
    ann: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "gomoku")
    ann.wait(lambda: ann.find("#computer-tools").is_displayed(), "the computer control")
    ann.find("#computer-tools [data-level=easy]").click()
    ann.wait(lambda: len(ann.find_all("#players li")) == 2, "the computer seated")
    ann.wait(lambda: ann.status_state() == "playing", "the game")
    assert not ann.find("#computer-tools").is_displayed(), "not while a game is under way"
    ann.find("#actions [data-action=resign]").click()
    ann.find("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: ann.find("#computer-tools").is_displayed(), "the control back between games")
    ann.find("#computer-tools [data-level=hard]").click()
    ann.wait(
        lambda: (
            ann.find("#computer-tools [data-level=hard]").get_attribute("aria-pressed") == "true"
        ),
        "the hard level chosen",
    )
    assert "computer hard" in ann.find("#players").text
    ann.find("#computer-tools [data-host=kick]").click()
    ann.wait(lambda: len(ann.find_all("#players li")) == 1, "the computer gone")


def test_a_room_lost_at_a_restart_stays_on_the_page_as_text(ann: Browser, tmp_path: Path) -> None:
    """The server comes back without Ann's room (it could not be restored): the page
    goes back to the lobby and says which room and why, as text, until dismissed."""
    from tests.e2e.test_room_lost_e2e import unreadable

    db = tmp_path / "g.db"
    server = ServerThread(db)
    port = server.server.port
    try:
        open_lobby(ann, server, "Ann")
        code = create_room(ann, "gomoku")
        server.close()
        unreadable(str(db), code)
        server = ServerThread(db, port=port)
        ann.wait_css("#lobby")
        said = bulletin(ann, "room-lost")
        assert f"Your room {code} could not be restored" in said and "teleport" in said
        assert not ann.find_all("[data-bulletin='room-lost'] b")
    finally:
        ann.driver.get("about:blank")
        server.close()
