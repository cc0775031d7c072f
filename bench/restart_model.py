"""The restart model (``tests/server/restart_model.py``) over many more examples than
the test suite runs: random conversations in all three games, restarted at random
points, each checked to bring every room and identity back.

    python bench/restart_model.py --examples 5000 [--seed 1] [--max-steps 120]
    python bench/restart_model.py --processes 40    # real server processes instead

``--processes N`` runs the model's steps against a real ``gridhall-server`` process
(``tests/e2e/test_restart_model_e2e.py``), N examples stopped with ``kill -9`` and N
with SIGTERM, each compared by what every person sees after ``sync``.

Prints how many examples ran, how many restarts they checked (rooms, identities, by
game and status), which steps did something and which the server refused, and the
first failure found (shrunk by Hypothesis to a short list of steps, kept then as an
``@example`` in ``tests/server/test_restart_model.py``). Exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.server.restart_model import GAMES, WEIGHTED, Found, run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=1000, help="examples to run")
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis's seed")
    parser.add_argument("--max-steps", type=int, default=120, help="steps per example at most")
    parser.add_argument(
        "--processes", type=int, default=0, help="examples per stop kind on a real process"
    )
    args = parser.parse_args(argv)
    if args.processes:
        return processes(args.processes, args.seed)
    logging.getLogger("gridhall").setLevel(logging.CRITICAL)  # the rooms' own lines: noise here
    total = Found()
    examples = 0
    step = st.tuples(
        st.integers(0, 3), st.sampled_from(WEIGHTED), st.integers(0, 40), st.integers(0, 40)
    )

    @settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        game=st.integers(0, len(GAMES) - 1),
        journal_rows=st.sampled_from([1000, 3, 1]),
        steps=st.lists(step, min_size=10, max_size=args.max_steps),
        sweep_rows=st.sampled_from([1000, 2, 1]),
    )
    def explore(
        game: int, journal_rows: int, steps: list[tuple[int, str, int, int]], sweep_rows: int
    ) -> None:
        nonlocal examples
        found = run(steps, journal_rows, game, sweep_rows=sweep_rows)
        examples += 1
        total.steps += found.steps
        total.restarts += found.restarts
        total.rooms_checked += found.rooms_checked
        total.identities_checked += found.identities_checked
        total.kinds.update(found.kinds)
        total.refused.update(found.refused)
        total.why.update(found.why)
        total.games.update(found.games)
        total.statuses.update(found.statuses)

    if args.seed is not None:  # the same examples again
        explore = seed(args.seed)(explore)
    began = time.perf_counter()
    failure: BaseException | None = None
    try:
        explore()
    except Exception as exc:  # Hypothesis re-raises the shrunk failure
        failure = exc
    took = time.perf_counter() - began
    print(f"examples run: {examples} in {took:.1f} s ({examples / max(took, 1e-9):.1f}/s)")
    print(
        f"steps: {total.steps}; restarts checked: {total.restarts}; rooms compared: "
        f"{total.rooms_checked}; identities compared: {total.identities_checked}"
    )
    print("rooms compared by game:", dict(sorted(total.games.items())))
    print("rooms compared by status:", dict(sorted(total.statuses.items())))
    print("steps that did something:", dict(sorted(total.kinds.items())))
    print("steps refused:", dict(sorted(total.refused.items())))
    print("refusals:", dict(total.why.most_common(25)))
    if failure is not None:
        print(f"FOUND: {type(failure).__name__}: {failure}")
        for note in getattr(failure, "__notes__", []):
            print(note)
        return 1
    print("found: nothing (every restart brought every room and identity back)")
    return 0


def processes(n: int, chosen: int | None) -> int:
    """``n`` examples against a real server process for each way it is stopped."""
    for how in ("kill-9", "sigterm"):
        began = time.perf_counter()
        ran, failure = process_examples(n, how, chosen)
        if failure is not None:
            print(f"{how}: {ran} examples passed, then {type(failure).__name__}: {failure}")
            return 1
        took = time.perf_counter() - began
        print(f"{how}: {ran} examples, every person back as they were, in {took:.0f} s")
    return 0


def process_examples(n: int, how: str, chosen: int | None) -> tuple[int, BaseException | None]:
    """Run ``n`` real-process examples stopped as ``how`` says: how many passed, and the
    failure if one did not."""
    from tests.e2e.test_restart_model_e2e import (  # noqa: PLC0415 (the e2e harness)
        NO_SHRINK,
        SYNCHRONOUS,
        process_restart,
    )
    from tests.e2e.test_restart_model_e2e import step as e2e_step  # noqa: PLC0415

    ran = 0

    @settings(
        max_examples=n,
        deadline=None,
        database=None,
        phases=NO_SHRINK,
        suppress_health_check=list(HealthCheck),
    )
    @given(game=st.sampled_from(SYNCHRONOUS), steps=st.lists(e2e_step, min_size=5, max_size=25))
    def explore(game: int, steps: list[tuple[int, str, int, int]]) -> None:
        nonlocal ran
        with tempfile.TemporaryDirectory() as folder:
            try:
                asyncio.run(process_restart(Path(folder), how, game, steps))
            except BaseException:
                print(f"FOUND ({how}): game {game}, steps {steps}")
                raise
        ran += 1

    if chosen is not None:
        explore = seed(chosen)(explore)
    try:
        explore()
    except Exception as exc:
        return ran, exc
    return ran, None


if __name__ == "__main__":
    sys.exit(main())
