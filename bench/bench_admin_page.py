"""What the admin page costs the operator's browser: drawing the ``admin-status`` that
comes every second for a busy server (keyed rows: a room's changing line written in
place) against drawing the whole page again from the same status (the baseline), in
the same run, in Debian's headless Chromium against a real server's /admin page.

    .venv/bin/python bench/bench_admin_page.py [--rooms 200] [--players 1000] [--rounds 10]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.harness import Browser, ServerThread, browser_missing  # noqa: E402

DRAW = """
const done = arguments[arguments.length - 1];
const [rooms, players, rounds] = [arguments[0], arguments[1], arguments[2]];
(async () => {
  const m = await import('/js/admin-view.js');
  const noop = () => {};
  const actions = {closeRoom: noop, removePlayer: noop, banPlayer: noop, banAddress: noop,
                   unban: noop, announce: noop, retention: noop};
  const status = (tick) => ({type: 'admin-status',
    figures: {players, connections: players, spectators: rooms * 2, rooms,
      rooms_by_game: {gomoku: rooms}, messages_per_second: 12.5, refusals: {}, commit_p50_ms: 1,
      commit_p99_ms: 5, worker_queue: 0, worker_busy: 0, memory_bytes: 1e8, database_bytes: 1e7,
      uptime_s: 100 + tick},
    rooms: Array.from({length: rooms}, (_, i) => ({room: 'R' + i, game: 'gomoku',
      status: 'playing', private: false, locked: false, host: 'P' + i, age_s: 100 + tick,
      moves: tick, last_activity_s: tick % 3,
      members: Array.from({length: 4}, (_, j) => ({player: `p${i}-${j}`, name: 'Player ' + j,
        role: j < 2 ? 'player' : 'spectator', bot: null, connected: true,
        address: `10.0.${i % 250}.${j}`}))})),
    players: Array.from({length: players}, (_, i) => ({player: 'x' + i, name: 'Name ' + i,
      address: `10.1.${i % 250}.1`, room: 'R' + (i % rooms)})),
    bans: [], retention: {chat_days: 30, chat_rows: 200000},
    settings: Array.from({length: 60}, (_, i) => ({key: 'k' + i, value: i, source: 'default'})),
    audit: Array.from({length: 50}, (_, i) => ({ts: 1.7e9 + i, address: '127.0.0.1',
      action: 'ban', detail: {n: i}}))});
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const time = (fn) => { const t = performance.now(); fn(); document.body.offsetHeight;
                         return performance.now() - t; };
  const root = document.createElement('div');
  document.body.append(root);
  const view = new m.AdminView(root, actions);
  view.update(status(0));
  await frame();
  const keyed = [], whole = [];
  for (let k = 1; k <= rounds; k++) {
    keyed.push(time(() => view.update(status(k))));
    await frame();
    whole.push(time(() => new m.AdminView(root, actions).update(status(k))));
    await frame();
  }
  done({keyed: median(keyed), whole: median(whole)});
})().catch((e) => done({error: String(e)}));
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    missing = browser_missing()
    if missing:
        print(f"needs Chromium: {missing}")
        return 1
    server = ServerThread(Path(tempfile.mkdtemp(prefix="gridhall-bench-")) / "bench.db")
    browser = Browser()
    browser.driver.set_script_timeout(600)
    try:
        browser.driver.get(f"{server.url}admin")  # no token: only the page's own files
        browser.wait(lambda: browser.find("#gate").text, "the admin page")
        got = browser.driver.execute_async_script(DRAW, args.rooms, args.players, args.rounds)
    finally:
        browser.quit()
        server.close()
    if "error" in got:
        print(got["error"])
        return 1
    print(
        f"{args.rooms} rooms ({args.rooms * 4} members), {args.players} players; "
        f"median of {args.rounds} seconds' statuses"
    )
    print(f"  drawing the whole page again (baseline): {got['whole']:7.1f} ms")
    print(
        f"  the page's keyed redraw:                {got['keyed']:7.1f} ms"
        f"  ({got['keyed'] / got['whole']:.2f}x the baseline)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
