"""The browser's replay model (client/web/js/replay-model.js), run in real Chromium on
the served module: frames folded from `start` with the `moved` delta rules, the same
frame whether reached forward, backward or by a jump past the cache, pages appended,
and who changed each Minesweeper cell (the tracker the game's board gives the model)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.harness import Browser, ServerThread, open_lobby

RUN = """
const done = arguments[arguments.length - 1];
(async () => {
  const m = await import('/js/replay-model.js');
  %s
})().then(done, (err) => done({error: String(err && err.stack || err)}));
"""

GOMOKU = """
// 100 stones, one a step, each step's delta appends to `moves`
const stones = Array.from({length: 100}, (_, i) => [i % 15, Math.floor(i / 15)]);
const steps = stones.map((s, i) => ({t: i, by: i % 2 ? 'w' : 'b', label: 'L' + i,
  view: {size: 15, next: i % 2 ? 'black' : 'white', last: s}, delta: {moves: {at: i, append: [s]}}}));
const msg = {game_id: 7, game: 'gomoku', options: {}, players: [], result: {}, rated: false,
  start: {size: 15, moves: [], next: 'black'}, steps: steps.slice(0, 60), next: 60};
"""


def run(browser: Browser, body: str) -> Any:
    result = browser.driver.execute_async_script(RUN % body)
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(result["error"])
    return result


@pytest.fixture
def page(ann: Browser, web_server: ServerThread) -> Browser:
    open_lobby(ann, web_server, "Ann")
    return ann


def test_frames_are_the_same_forward_backward_and_by_jumping(page: Browser) -> None:
    got = run(
        page,
        GOMOKU
        + """
      const r = new m.Replay(msg);
      const first = [r.length, r.complete, r.frame(0).view.moves.length];
      r.extend(steps.slice(60), null);
      const forward = [];
      for (let k = 0; k <= 100; k += 1) forward.push(JSON.stringify(r.frame(k).view));
      const fresh = new m.Replay({...msg, steps, next: null});
      const jumped = [100, 3, 99, 64, 0, 65, 31, 33].map((k) =>
        JSON.stringify(fresh.frame(k).view) === forward[k]);
      r.jump(50);
      const stepping = [r.back(), r.back(), r.forward(), r.jump(1000), r.forward(), r.jump(-4), r.back()];
      return {first, complete: r.complete, length: r.length, jumped, stepping,
              last: fresh.frame(100).view.moves.length, lastMove: fresh.frame(100).view.last,
              step: fresh.step(5).label, none: fresh.step(0)};
    """,
    )
    assert got["first"] == [60, False, 0]
    assert got["complete"] is True and got["length"] == 100
    assert all(got["jumped"])
    assert got["stepping"] == [49, 48, 49, 100, 100, 0, 0]
    assert got["last"] == 100 and got["lastMove"] == [9, 6]
    assert got["step"] == "L4" and got["none"] is None


def test_a_step_that_does_not_fit_its_frame_is_an_error(page: Browser) -> None:
    got = run(
        page,
        GOMOKU
        + """
      const bad = steps.slice(0, 3);
      bad[2] = {...bad[2], delta: {moves: {at: 7, append: [[1, 1]]}}};
      const r = new m.Replay({...msg, steps: bad, next: null});
      let refused = null;
      try { r.frame(3); } catch (err) { refused = err instanceof m.ReplayError; }
      let notReplay = null;
      try { new m.Replay({steps: []}); } catch (err) { notReplay = err instanceof m.ReplayError; }
      return {two: r.frame(2).view.moves.length, refused, notReplay};
    """,
    )
    assert got == {"two": 2, "refused": True, "notReplay": True}


def test_each_minesweeper_cell_belongs_to_the_player_who_changed_it(page: Browser) -> None:
    got = run(
        page,
        """
      const start = {width: 4, height: 2, rows: ['####', '####']};
      const steps = [
        {t: 1, by: 'ann', view: {width: 4, height: 2}, delta: {rows: {rows: [[0, 0, '01']]}}},
        {t: 2, by: 'bob', view: {width: 4, height: 2}, delta: {rows: {rows: [[1, 3, 'F']]}}},
        {t: 3, by: 'ann', view: {width: 4, height: 2}, delta: {rows: {rows: [[1, 3, '#']]}}},
        {t: 4, by: 'bob', view: {width: 4, height: 2, hit: [[2, 0, 'bob']]},
         delta: {rows: {rows: [[0, 2, 'X'], [1, 0, '*']]}}},
      ];
      const board = await import('/js/boards/minesweeper.js');
      const r = new m.Replay({game_id: 1, game: 'minesweeper', start, steps, next: null},
        board.Board.replayTracker());
      const owners = (k) => Object.fromEntries([...r.frame(k).tracked].sort());
      const all = [0, 1, 2, 3, 4].map(owners);
      const back = owners(2);
      return {all, back, rows: r.frame(4).view.rows, hit: r.frame(4).view.hit};
    """,
    )
    assert got["all"] == [
        {},
        {"0,0": "ann", "1,0": "ann"},
        {"0,0": "ann", "1,0": "ann", "3,1": "bob"},
        {"0,0": "ann", "1,0": "ann"},  # the flag taken off is nobody's
        {"0,0": "ann", "1,0": "ann"},  # mines shown are the game's, not a player's
    ]
    assert got["back"] == got["all"][2]
    assert got["rows"] == ["01X#", "*###"] and got["hit"] == [[2, 0, "bob"]]
