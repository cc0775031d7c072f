"""The browser client's own logic, run in the real browser engine on the served modules:
folding room events, seq gaps answered with sync, close codes, invite-link parsing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.harness import Browser, ServerThread, open_lobby

RUN = """
const done = arguments[arguments.length - 1];
(async () => {
  const session = await import('/js/session.js');
  const main = await import('/js/main.js');
  %s
})().then(done, (err) => done({error: String(err && err.stack || err)}));
"""
"""WebDriver runs this script itself (the page's CSP forbids eval: a test body cannot be
handed to ``new Function``), with the page's own modules imported."""

FAKE = """
const s = new session.Session('ws://127.0.0.1:9/', 'T');
s.player = 'p1';
s.sent = [];
s.send = (type, fields) => { s.sent.push(type); return 1; };
const state = (seq, extra = {}) => ({type: 'state', room: 'R', seq, game: 'gomoku', status: 'playing',
  players: [{player: 'p1', name: 'Ann', seat: 0}, {player: 'p2', name: 'Bob', seat: 1}],
  view: {moves: []}, chat: [], turn: 'p1', round: 0, ...extra});
"""


def run(browser: Browser, body: str) -> Any:
    result = browser.driver.execute_async_script(RUN % (FAKE + body))
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(result["error"])
    return result


@pytest.fixture
def page(ann: Browser, web_server: ServerThread) -> Browser:
    open_lobby(ann, web_server, "Ann")
    return ann


def test_a_seq_gap_asks_for_sync_and_the_snapshot_replaces_the_copy(page: Browser) -> None:
    got = run(
        page,
        """
      s.onMessage(state(1));
      s.onMessage({type: 'moved', room: 'R', seq: 2, by: 'p1', move: {x: 1, y: 1},
                   view: {moves: [[1, 1]]}, turn: 'p2'});
      const afterMove = [s.room.state.turn, s.sent.length];
      s.onMessage({type: 'chat', room: 'R', seq: 4, from: 'p2', name: 'Bob', text: 'hi', ts: 1});
      const afterGap = [s.sent.slice(), s.room.syncing, s.room.state.chat.length];
      s.onMessage(state(4, {turn: 'p2', view: {moves: [[1, 1]]}}));
      return {afterMove, afterGap, synced: s.room.syncing, seq: s.room.seq};
    """,
    )
    assert got["afterMove"] == ["p2", 0]
    assert got["afterGap"] == [["sync"], True, 0]  # not folded: the snapshot will carry it
    assert (got["synced"], got["seq"]) == (False, 4)


def test_turn_comes_only_from_the_server(page: Browser) -> None:
    got = run(
        page,
        """
      s.onMessage(state(1, {game: 'minesweeper', turn: null}));
      s.onMessage({type: 'moved', room: 'R', seq: 2, by: 'p2', move: {action: 'reveal', x: 0, y: 0},
                   view: {rows: ['0']}});
      const coop = 'turn' in s.room.state;
      s.onMessage({type: 'moved', room: 'R', seq: 3, by: 'p1', move: {}, view: {next: 'white',
                   colors: {p1: 'white'}}});
      return {coop, derived: 'turn' in s.room.state, last: s.room.lastActions.p2};
    """,
    )
    assert got == {"coop": False, "derived": False, "last": {"action": "reveal", "x": 0, "y": 0}}


def test_old_events_are_ignored_and_offers_fold_into_the_view(page: Browser) -> None:
    got = run(
        page,
        """
      s.onMessage(state(5));
      s.onMessage({type: 'chat', room: 'R', seq: 5, from: 'p2', name: 'Bob', text: 'old', ts: 1});
      const old = s.room.state.chat.length;
      s.onMessage({type: 'offer', room: 'R', seq: 6, from: 'p2', kind: 'draw'});
      const pending = s.room.state.view.pending;
      s.onMessage({type: 'answer', room: 'R', seq: 7, from: 'p1', kind: 'draw', accept: false});
      s.onMessage({type: 'game-over', room: 'R', seq: 8, result: {winner: 'p1', reason: 'resign'}});
      s.onMessage({type: 'play-again', room: 'R', seq: 9, from: 'p2'});
      return {old, pending, after: 'pending' in s.room.state.view, status: s.room.state.status,
              turn: 'turn' in s.room.state, again: s.room.again, sent: s.sent};
    """,
    )
    assert got == {
        "old": 0,
        "pending": {"kind": "draw", "from": "p2"},
        "after": False,
        "status": "over",
        "turn": False,
        "again": ["p2"],
        "sent": [],
    }


def test_close_codes_decide_whether_to_retry(page: Browser) -> None:
    got = run(
        page,
        """
      const seen = [];
      s.on((m) => { if (m.type === 'connection') seen.push(m.status); });
      s.lost({code: 1012});
      const retrying = s.retryTimer !== null;
      clearTimeout(s.retryTimer); s.retryTimer = null;
      s.lost({code: 4000});
      const replaced = [s.paused, s.retryTimer];
      s.paused = null;
      s.onMessage({type: 'error', code: 'version-mismatch', message: 'old'});
      s.lost({code: 1002});
      return {seen, retrying, replaced, fatal: [s.paused, s.retryTimer]};
    """,
    )
    assert got == {
        "seen": ["restarting", "replaced", "fatal"],
        "retrying": True,
        "replaced": ["replaced", None],
        "fatal": ["fatal", None],
    }


def test_a_planned_restart_reads_restarting_until_the_server_is_back(page: Browser) -> None:
    got = run(
        page,
        """
      const seen = [];
      s.on((m) => { if (m.type === 'connection') seen.push(m.status); });
      s.lost({code: 1012});               // the server said it is restarting
      clearTimeout(s.retryTimer); s.retryTimer = null;
      s.lost({code: 1006});               // the first retries fail while it starts again
      clearTimeout(s.retryTimer); s.retryTimer = null;
      s.lost({code: 1006});
      clearTimeout(s.retryTimer); s.retryTimer = null;
      s.onMessage({type: 'welcome', player: 'p1', server: 'x'});  // back
      s.lost({code: 1006});               // a later drop is a plain loss again
      clearTimeout(s.retryTimer); s.retryTimer = null;
      return seen;
    """,
    )
    assert got == ["restarting", "restarting", "restarting", "connected", "lost"]


def test_not_in_room_drops_the_copy_and_backoff_grows_to_its_cap(page: Browser) -> None:
    got = run(
        page,
        """
      s.onMessage(state(1));
      s.onMessage({type: 'error', code: 'not-in-room', message: 'gone', re: 3});
      const delays = [0, 3, 10, 40].map((a) => session.backoffDelay(a));
      return {room: s.room, delays};
    """,
    )
    assert got["room"] is None
    first, fourth, tenth, fortieth = got["delays"]
    assert 0.25 <= first <= 0.5 and 2 <= fourth <= 4 and 5 <= tenth <= 10 and 5 <= fortieth <= 10


INVITES = [
    ("#k7mq2d", "", "K7MQ2D", ""),
    ("#K7MQ2D", "?name=Ann", "K7MQ2D", "Ann"),
    ("#K7MQ2D?name=Bob%20B", "", "K7MQ2D", "Bob B"),
    ("#/K7MQ2D", "?name=" + "x" * 40, "K7MQ2D", "x" * 32),
    ("#%3Cimg%20src%3Dx%3E", "", None, ""),
    ("", "?name=%20%20Cy%20%20", None, "Cy"),
]


def test_invite_links_are_parsed_strictly(page: Browser) -> None:
    got = run(
        page,
        "return arguments_.map(([hash, search]) => main.parseInvite({hash, search}));".replace(
            "arguments_", json.dumps([[h, q] for h, q, _, _ in INVITES])
        ),
    )
    for (hash_, _, code, name), parsed in zip(INVITES, got, strict=True):
        assert (parsed["code"], parsed["name"]) == (code, name), hash_
        assert parsed["bad"] == (bool(hash_) and code is None), hash_


def test_texts_name_cells_and_requests_in_words(page: Browser) -> None:
    got = run(
        page,
        """
      const text = await import('/js/describe.js');
      const race = (me) => text.statusLine({game: 'linkmatch', status: 'waiting',
        creator: 'p1', players: [{player: 'p1', name: 'Ann'}, {player: 'p2', name: 'Bob'}],
        view: {}}, me, {}, true);
      return {
        cells: [text.cellName(7, 7), text.columnName(8), text.columnName(25)],
        titles: ['agree-again', 'sync', 'move'].map((request) =>
          text.errorTitle({code: 'illegal-move', request})),
        creator: race('p1'), other: race('p2'),
        onTime: text.resultText({game: 'linkmatch', status: 'over', players: [{player: 'p1', name: 'Ann'},
          {player: 'p2', name: 'Bob'}], result: {winner: 'p2', reason: 'time',
          ranking: ['p2', 'p1'], remaining: {p1: 12, p2: 8}, decided_by: 'tiles'}}, 'p1'),
      };
    """,
    )
    assert got["cells"] == ["H8", "J", "AA"]  # as protocol/cells.py names them
    assert got["titles"] == ["No new game", "Could not catch up with the room", "Move not made"]
    assert got["creator"].startswith("Press Start (g) when everyone is in")
    assert got["other"].startswith("Waiting for Ann to start the race")
    assert got["onTime"] == "Time is up: Bob wins with the fewest tiles left (8; you 12)."


def test_moved_deltas_fold_into_the_view_and_a_misfit_asks_for_sync(page: Browser) -> None:
    got = run(
        page,
        """
      const moves = Array.from({length: 20}, (_, i) => [i % 15, Math.floor(i / 15)]);
      s.onMessage(state(1, {view: {moves, next: 'black', rows: Array(16).fill('####')}}));
      s.onMessage({type: 'moved', room: 'R', seq: 2, by: 'p1', move: {x: 9, y: 9},
                   view: {next: 'white'}, turn: 'p2',
                   delta: {moves: {at: 20, append: [[9, 9]]}, rows: {rows: [[3, 1, 'F2']]}}});
      const view = s.room.state.view;
      const folded = [view.moves.length, view.moves[20], view.next, view.rows[3], view.rows[4],
                      s.sent.length];
      s.onMessage({type: 'moved', room: 'R', seq: 3, by: 'p2', move: {x: 8, y: 8},
                   view: {next: 'black'}, turn: 'p1', delta: {moves: {at: 5, append: [[8, 8]]}}});
      return {folded, misfit: [s.sent.slice(), s.room.syncing, s.room.state.view.moves.length]};
    """,
    )
    assert got["folded"] == [21, [9, 9], "white", "#F2#", "####", 0]
    assert got["misfit"] == [["sync"], True, 21]  # the stale copy is not patched


def test_others_coming_and_going_fold_into_the_roster_without_a_sync(page: Browser) -> None:
    got = run(
        page,
        """
      s.onMessage(state(1, {spectators: ['Sy']}));
      s.onMessage({type: 'joined', room: 'R', seq: 2, role: 'spectator', player: 'p3',
                   name: 'Cy', connected: true});
      s.onMessage({type: 'joined', room: 'R', seq: 3, role: 'player', seat: 2, player: 'p4',
                   name: 'Di', connected: true, color: 'teal'});
      s.onMessage({type: 'player-info', room: 'R', seq: 4, player: 'p3', name: 'Cyd',
                   connected: true, previous: 'Cy'});
      s.onMessage({type: 'left', room: 'R', seq: 5, player: 'p9', name: 'Sy'});
      s.room.again = ['p2'];  // Bob had asked for another game
      s.onMessage({type: 'left', room: 'R', seq: 6, player: 'p2', name: 'Bob'});
      const folded = {sent: s.sent.slice(), spectators: s.room.state.spectators, again: s.room.again,
                      players: s.room.state.players.map((p) => [p.player, p.seat, p.color || null])};
      s.onMessage({type: 'left', room: 'R', seq: 7, player: 'p8'});  // an older server's
      return {...folded, old: s.sent.slice()};
    """,
    )
    assert got["sent"] == []
    assert got["spectators"] == ["Cyd"] and got["again"] == []
    assert got["players"] == [["p1", 0, None], ["p4", 2, "teal"]]
    assert got["old"] == ["sync"]


def test_a_loss_on_time_shows_0_00_and_an_ended_clock_stops(page: Browser) -> None:
    got = run(
        page,
        """
      const room = await import('/js/room.js');
      const text = await import('/js/describe.js');
      await text.loadDescriptions();
      const over = (reason) => ({game: 'gomoku', status: 'over', players: state(1).players,
        result: {winner: 'p2', reason},
        view: {moves: [], clock: {remaining: {p1: 600, p2: 600}, increment: 5, running: 'p1', since: 1000}}});
      const timeout = over('timeout');
      room.freezeClock(timeout, 0, 1700);
      const resign = over('resign');
      room.freezeClock(resign, 0, 1005);
      const later = room.liveState(resign, 'p1', 60, 0);  // nothing runs after the end
      const line = text.statusLine(timeout, 'p1', timeout.view, true);
      return {timeout: timeout.view.clock.remaining, resign: resign.view.clock.remaining,
              later: later.view.clock.remaining, line};
    """,
    )
    assert got["timeout"] == {"p1": 0, "p2": 600}
    assert got["resign"] == {"p1": 595, "p2": 600} == got["later"]
    assert "Ann 0:00" in got["line"] and "Bob 10:00" in got["line"]
