"""The shared view fixtures (tests/fixtures/views/*.json) against the browser's
interpreter of the game descriptions (client/web/js/describe.js), in real Chromium,
on the descriptions the server serves. The Python views pass the same files
(tests/client/test_client_view_fixtures.py): the clients cannot drift apart."""

from __future__ import annotations

from typing import Any

from tests.fixtures.views.runner import fixtures
from tests.web.harness import Browser, ServerThread, open_lobby

RUN = """
const cases = arguments[0];
const done = arguments[arguments.length - 1];
(async () => {
  const d = await import('/js/describe.js');
  await d.loadDescriptions();
  return cases.map((c) => {
    const state = c.state;
    const live = d.liveView(state, c.me, c.now, c.now - c.view_at);
    const actions = d.actionStates(state, c.me);
    return {
      status: d.statusLine(state, c.me, live, c.connected),
      result: state.status === 'over' ? d.resultText(state, c.me) : null,
      outcome: d.outcomeFor(state, c.me),
      offer: d.offerText(state, c.me),
      shown: actions.filter((a) => a.shown).map((a) => a.action.key),
      enabled: actions.filter((a) => a.shown && a.enabled).map((a) => a.action.key),
      roles: d.playerRoles(state),
      summary: d.optionsText(state.game, state.options || {}),
      ranking: d.rankingLines(state, c.me),
      gesture: d.gestureText(state, c.me),
      events: (c.events || []).map((msg) => d.eventText(msg, state, c.me)),
      board: d.boardText(state, c.me, live) || null,
    };
  });
})().then(done, (err) => done({error: String(err && err.stack || err)}));
"""


def test_the_browser_says_what_every_fixture_says(ann: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    cases = [(game, case) for game, found in fixtures().items() for case in found]
    got: Any = ann.driver.execute_async_script(RUN, [case for _, case in cases])
    assert not (isinstance(got, dict) and "error" in got), got
    for (game, case), answer in zip(cases, got, strict=True):
        assert answer == case["expect"], f"{game}: {case['name']}"
