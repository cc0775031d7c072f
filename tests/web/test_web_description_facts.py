"""Both interpreters of the game descriptions give every fact and condition the same
value: each text of each game (status, results, roles, summary, board, ranking, the
common results), inside an ``each`` once per entry, on every shared fixture state,
worked out by protocol/games/render.py here and by client/web/js/describe.js in real
Chromium (its ``evaluate``). The fixtures compare whole sentences; this compares the
parts, so two wrong halves cannot make a right sentence."""

from __future__ import annotations

import math
from typing import Any

from gridhall.protocol.games import COMMON, GAMES, render
from gridhall.protocol.games.describe import Game, Text
from tests.fixtures.views.runner import fixtures
from tests.web.harness import Browser, ServerThread, open_lobby

RUN = """
const [jobs] = arguments;
const done = arguments[arguments.length - 1];
(async () => {
  const d = await import('/js/describe.js');
  await d.loadDescriptions();
  return jobs.map((j) => d.evaluate(j.state, j.me, j.texts));
})().then(done, (err) => done({error: String(err && err.stack || err)}));
"""


def _texts(game: Game) -> list[Text]:
    """The game's texts, and its actions' and live clocks' conditions as texts of their own."""
    return [
        *game.status,
        *game.results,
        *COMMON.results,
        *game.roles,
        *game.summary,
        *game.board,
        *([game.ranking] if game.ranking else []),
        *(Text("", when=(*a.shown, *a.enabled)) for a in (*game.actions, *COMMON.actions)),
        *(Text("", when=live.when) for live in game.live),
    ]


def _same(value: Any) -> Any:
    """A value as it crosses from the browser: whole numbers are numbers, tuples lists."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, list | tuple):
        return [_same(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _same(v) for k, v in value.items()}
    return value


def _python(ctx: render.Ctx, texts: list[Text]) -> list[dict[str, Any]]:
    """What ``evaluate`` in describe.js does, with the Python interpreter."""
    out = []
    for text in texts:
        facts = {name: render.fact(ctx, spec) for name, spec in text.facts.items()}
        local = {**ctx, "$": {**ctx.get("$", {}), **facts}}
        items = []
        if text.each is not None:
            for key, value in render.entries(local, text.each):
                items.append(_python({**local, "@": {"key": key, "value": value}}, text.each.texts))
        out.append(
            {
                "facts": _same(facts),
                "when": [render.holds(local, c) for c in text.when],
                "items": items,
            }
        )
    return out


def test_both_interpreters_give_every_fact_and_condition_the_same_value(
    ann: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    jobs, expected = [], []
    for name, cases in fixtures().items():
        game = GAMES[name]
        texts = _texts(game)
        for case in cases:
            for me in {case.get("me"), None}:
                jobs.append(
                    {"state": case["state"], "me": me, "texts": [t.to_json() for t in texts]}
                )
                ctx = render.context(game, COMMON, case["state"], me)
                expected.append((f"{name}: {case['name']} as {me}", _python(ctx, texts)))
    got: Any = ann.driver.execute_async_script(RUN, jobs)
    assert not (isinstance(got, dict) and "error" in got), got
    assert len(got) == len(expected)
    for (where, python), browser in zip(expected, got, strict=True):
        assert browser == python, where
