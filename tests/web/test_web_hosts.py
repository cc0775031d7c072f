"""Room hosts and the server operator's messages in the browser client: the host's
marker and tools, removal, mute, lock and hand-over against a real server; the
operator's announcement, room closing and removal as the page shows them."""

from __future__ import annotations

import time
from typing import Any

import pytest

from gridhall import protocol
from tests.web.harness import Browser, ServerThread, create_room, invite_link, join_by_link, open_lobby

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


def test_host_events_fold_into_the_room_and_read_as_log_lines(ann: Browser,
                                                               web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    got = run(ann, """
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
      ];
      out.removed = hosts.isOperatorRemoval("removed by the server's operator: spam");
      out.flood = hosts.isOperatorRemoval('message flood');
      return out;
    """)
    assert got["afterLock"] == [["p2"], True]
    assert got["watchers"] == [{"player": "p3", "name": "Dee"}], "a spectator's id, from joined"
    assert got["afterHandOver"] == [[], False, "p2", 0]
    assert got["synced"] == ["sync"], "a changed computer seat comes with a fresh state"
    assert got["lines"] == [
        "Bob removed Dee for 10 minutes.",
        "Bob removed Dee for 1 minute.",
        "You muted Bob.",
        "Bob locked the room: nobody new can join.",
        "Bob is the host now.",
        "You are the host now.",
        "The host unmuted Dee.",
    ]
    assert (got["removed"], got["flood"]) == (True, False)


def operator_frame(server: ServerThread, msg: dict[str, Any]) -> None:
    """Send ``msg`` to every connection as the server's operator tools do."""
    frame = protocol.encode_map(msg)
    server.sync(lambda: [c.send_frame(frame) for c in list(server.server.connections)])


def bulletin(browser: Browser, kind: str) -> str:
    return str(browser.wait(lambda: [b.text for b in browser.find_all(f"[data-bulletin='{kind}']")
                                     if b.is_displayed()], f"the {kind} bulletin")[0])


def test_the_operators_announcement_closing_and_removal_stay_on_the_page_as_text(
        ann: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    code = create_room(ann, "gomoku")
    operator_frame(web_server, {"type": "announce", "text": "<b>Pizza</b> at 6", "ts": time.time()})
    assert "<b>Pizza</b> at 6" in bulletin(ann, "announce")
    assert not ann.find_all("#bulletins b")
    assert ann.find("#bulletins").get_attribute("role") == "status"

    seq = web_server.sync(lambda: web_server.server.hub.lobby.rooms[code].seq) + 1
    player = ann.find("#players li.me").get_attribute("data-player")
    operator_frame(web_server, {"type": "room-closed", "room": code, "seq": seq, "reason": "closing time"})
    operator_frame(web_server, {"type": "left", "room": code, "seq": seq, "player": player, "reason": "closed"})
    ann.wait_css("#lobby")
    assert f"closed room {code}: closing time" in bulletin(ann, "closed")
    assert "Pizza" in bulletin(ann, "announce"), "an announcement stays until dismissed"
    ann.find("[data-bulletin='announce'] [data-dismiss]").click()
    ann.wait(lambda: not ann.find_all("[data-bulletin='announce']"), "the dismissed line to go")

    web_server.sync(lambda: [c.close(1008, "removed by the server's operator: spamming")
                             for c in list(web_server.server.connections)])
    assert "removed you from the server: spamming" in bulletin(ann, "removed")
    ann.wait(lambda: ann.find("#connection").get_attribute("data-connection") == "removed",
             "the page to say it was removed")
    assert ann.find("#reconnect").is_displayed(), "coming back is the player's choice"
    ann.find("#reconnect").click()
    ann.wait(lambda: ann.find("#connection").get_attribute("data-connection") == "connected",
             "the reconnect by hand")


@pytest.fixture
def room_of_two(ann: Browser, bob: Browser, web_server: ServerThread) -> str:
    open_lobby(ann, web_server, "Ann")
    code = create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "Bob", "gomoku")
    ann.wait(lambda: "Bob" in ann.find("#players").text, "Bob at Ann's")
    return code
