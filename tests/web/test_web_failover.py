"""The page's socket fails over to another node of the cluster: the page stays where
it was loaded from, the bar says which node it reconnects to, and that node (which
accepts a page of its cluster) welcomes the player."""

from __future__ import annotations

from pathlib import Path

from tests.web.harness import Browser, ServerThread, create_room, open_lobby

WATCH = """
window.seenBar = [];
const bar = document.getElementById('connection');
new MutationObserver(() => window.seenBar.push(bar.dataset.connection + '|' + bar.textContent))
  .observe(bar, {attributes: true, childList: true, characterData: true, subtree: true});
"""


def ws_url(server: ServerThread) -> str:
    return f"ws://127.0.0.1:{server.server.port}/"


def test_the_page_reconnects_to_the_next_node_when_its_node_is_gone(
    ann: Browser, tmp_path: Path
) -> None:
    b = ServerThread(tmp_path / "b.db")
    a = ServerThread(tmp_path / "a.db", peers=(ws_url(b),))
    url_a, url_b = ws_url(a), ws_url(b)
    b.sync(lambda: setattr(b.server.hub.nodes, "peers", (url_a,)))
    try:
        page = a.url
        open_lobby(ann, a, "Ann")
        create_room(ann, "gomoku")
        token = ann.js("return localStorage.getItem('gridhall.token')")
        ann.js(WATCH)
        a.close()
        ann.wait(
            lambda: ann.find("#connection").get_attribute("data-connection") == "connected",
            "the page to connect again",
        )
        seen = ann.js("return window.seenBar")
        assert any(s.startswith("connecting|") and f"Reconnecting to {url_b}" in s for s in seen), (
            seen
        )
        assert ann.driver.current_url.startswith(page)  # the page itself stayed
        # b never heard of the page's token: Ann is a new player there, in the lobby
        names = b.sync(
            lambda: [i.name for i in b.server.hub.identities.by_id.values() if i.connected]
        )
        assert names == ["Ann"]
        ann.wait_css("#lobby")
        # the token kept for the page's own node stays that node's
        assert ann.js("return localStorage.getItem('gridhall.token')") == token
    finally:
        ann.driver.get("about:blank")
        b.close()


LOGIC = """
const done = arguments[arguments.length - 1];
(async () => {
  const session = await import('/js/session.js');
  const failover = await import('/js/failover.js');
  const kept = failover.nodeAddresses(['ws://a:1/', 'wss://b.example:443/', 'ws://a:1/',
    'http://c:1/', 'javascript:alert(1)', 'ws://d/', 'ws://e:1/?x', 'ws://u:p@f:1/', 'ws://g:1/p', 7, null,
    'ws://' + 'h'.repeat(300) + ':1/']);
  const s = new session.Session('ws://127.0.0.1:9/', 'T');
  s.nodes = ['ws://127.0.0.1:10/', 'ws://127.0.0.1:9/'];
  s.rounds = 2;
  const tried = [];
  const seen = [];
  s.on((m) => seen.push(m));
  s.connect = function () { tried.push(this.url); }; // each try fails: lost() follows
  for (let i = 0; i < 5; i += 1) {
    s.lost({code: 1006});
    clearTimeout(s.retryTimer); // the backoff pause between rounds: skipped here
  }
  const last = seen[seen.length - 1];
  return {kept, tried, url: s.url, paused: s.paused, last: [last.status, last.count]};
})().then(done, (err) => done({error: String(err && err.stack || err)}));
"""


def test_the_page_tries_each_node_in_turn_and_gives_up_after_its_rounds(
    ann: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    got = ann.driver.execute_async_script(LOGIC)
    assert "error" not in got, got.get("error")
    assert got["kept"] == ["ws://a:1/", "wss://b.example:443/"]
    # dropped from :9: :9 again after the pause, then :10 at once; a second round; gave up
    assert got["tried"] == ["ws://127.0.0.1:10/", "ws://127.0.0.1:10/"]
    assert got["url"] == "ws://127.0.0.1:9/" and got["paused"] == "gave-up"
    assert got["last"] == ["gave-up", 2]
