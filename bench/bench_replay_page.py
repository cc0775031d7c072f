"""What stepping through a long replay costs the browser: the replay model
(``client/web/js/replay-model.js``, which keeps every 32nd frame) against folding every
frame from the start (the baseline), in the same run, in Debian's headless Chromium on
the page a real server serves. The game is a synthetic co-op Minesweeper on a big board
(one cell opened or flagged a step, in the server's delta form), so each frame also
says who changed every cell.

    .venv/bin/python bench/bench_replay_page.py [--size 100] [--steps 2000] [--jumps 50]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.harness import Browser, ServerThread, browser_missing, open_lobby  # noqa: E402

RUN = """
const done = arguments[arguments.length - 1];
const [size, count, jumps] = [arguments[0], arguments[1], arguments[2]];
(async () => {
  const m = await import('/js/replay-model.js');
  let seed = 7;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const start = {width: size, height: size, rows: Array.from({length: size}, () => '#'.repeat(size))};
  const steps = Array.from({length: count}, (_, i) => ({t: i, by: 'p' + (i % 4),
    view: {width: size, height: size},
    delta: {rows: {rows: [[rand(size), rand(size), '012345678F'[rand(10)]]]}}}));
  const msg = {game_id: 1, game: 'minesweeper', start, steps, next: null};
  const targets = Array.from({length: jumps}, () => rand(count + 1));
  const time = (fn) => { const t = performance.now(); fn(); return performance.now() - t; };
  const cached = new m.Replay(msg);
  const plain = new m.Replay(msg);
  const fresh = () => { for (const k of [...plain.cache.keys()]) if (k) plain.cache.delete(k); };
  const walk = (r, reset) => { for (let k = count; k >= count - 200; k -= 1) { reset(); r.frame(k); } };
  const jump = (r, reset) => { for (const k of targets) { reset(); r.frame(k); } };
  cached.frame(count); // the first visit to the end keeps its frames, as the page's does
  done({
    back: [time(() => walk(cached, () => {})), time(() => walk(plain, fresh))],
    jumps: [time(() => jump(cached, () => {})), time(() => jump(plain, fresh))],
    kept: cached.cache.size,
  });
})().catch((e) => done({error: String(e && e.stack || e)}));
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--jumps", type=int, default=50)
    args = parser.parse_args()
    missing = browser_missing()
    if missing:
        print(f"needs Chromium: {missing}")
        return 1
    server = ServerThread(Path(tempfile.mkdtemp(prefix="gridhall-bench-")) / "bench.db")
    browser = Browser()
    browser.driver.set_script_timeout(1200)
    try:
        open_lobby(browser, server, "Bench")
        got = browser.driver.execute_async_script(RUN, args.size, args.steps, args.jumps)
    finally:
        browser.quit()
        server.close()
    if "error" in got:
        print(got["error"])
        return 1
    print(f"Minesweeper {args.size}x{args.size}, {args.steps} steps; {got['kept']} frames kept")
    for key, what in (
        ("back", "201 steps back from the end"),
        ("jumps", f"{args.jumps} random jumps"),
    ):
        model, baseline = got[key]
        print(
            f"  {what}: fold from the start (baseline) {baseline:8.1f} ms, "
            f"the model {model:7.1f} ms ({model / baseline:.3f}x the baseline)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
