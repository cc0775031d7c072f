"""``welcome.nodes``: a node given its peers tells clients every node's address (this
one first) and accepts browsers on the other nodes' pages; a lone server says nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from gridhall.server.cli import build_parser
from gridhall.server.core.cluster_nodes import NodeList, node_url, own_address, page_origin
from tests.conftest import url_of
from tests.wsclient import WsClient

PEER = "ws://127.0.0.2:9001/"


def test_a_lone_server_lists_no_nodes() -> None:
    nodes = NodeList()
    nodes.own = "ws://127.0.0.1:8765/"
    assert nodes.addresses() == []


def test_the_list_starts_with_this_node_and_names_each_peer_once() -> None:
    nodes = NodeList(["ws://B:9001", "ws://127.0.0.1:8765/", "ws://b:9001/", "http://c:1/"])
    nodes.own = "ws://127.0.0.1:8765/"
    assert nodes.addresses() == ["ws://127.0.0.1:8765/", "ws://b:9001/"]
    assert nodes.origins() == {"http://127.0.0.1:8765", "http://b:9001"}


@pytest.mark.parametrize(
    "text",
    [
        "http://a:1/",
        "ws://a/",
        "ws://a:99999/",
        "ws://:80/",
        "ws://a:1/?x=1",
        "ws://u:p@a:1/",
        "a:1",
        "",
    ],
)
def test_what_is_not_a_node_address_is_refused(text: str) -> None:
    assert node_url(text) is None


def test_addresses_and_origins_are_normalised() -> None:
    assert node_url(" WS://[::1]:8765 ") == "ws://[::1]:8765/"
    assert page_origin("wss://Games.Example:443/") == "https://games.example:443"
    assert own_address("127.0.0.1", 8765, list) == "ws://127.0.0.1:8765/"
    assert own_address("0.0.0.0", 8765, lambda: ["192.0.2.7"]) == "ws://192.0.2.7:8765/"
    assert own_address("::1", 1, list) == "ws://[::1]:1/"


def test_peer_flags_are_checked_and_kept_in_order() -> None:
    args = build_parser().parse_args(["--peer", "ws://b:9001", "--peer", "ws://c:9002/"])
    assert args.peer == ["ws://b:9001/", "ws://c:9002/"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--peer", "http://b:9001/"])


async def test_welcome_names_every_node_this_one_first(make_server: Callable[..., Any]) -> None:
    server = await make_server(peers=(PEER,))
    async with WsClient.connect(url_of(server), "ann") as ann:
        welcome = ann.received[-1]
        assert welcome["nodes"] == [url_of(server), PEER]
        assert "cluster" in welcome["features"]


async def test_a_lone_servers_welcome_has_no_nodes(make_server: Callable[..., Any]) -> None:
    server = await make_server()
    async with WsClient.connect(url_of(server), "ann") as ann:
        welcome = ann.received[-1]
        assert "nodes" not in welcome and "cluster" not in welcome["features"]


async def test_a_page_from_another_node_may_open_a_socket(make_server: Callable[..., Any]) -> None:
    lone = await make_server()
    node = await make_server(peers=(PEER,))
    async with connect(url_of(node), origin="http://127.0.0.2:9001") as ws:  # type: ignore[arg-type]
        assert ws.protocol.state.name == "OPEN"
    with pytest.raises(InvalidStatus) as refused:
        async with connect(url_of(lone), origin="http://127.0.0.2:9001"):  # type: ignore[arg-type]
            pass
    assert refused.value.response.status_code == 403


def test_a_nodes_pages_may_connect_to_the_other_nodes_and_nowhere_else() -> None:
    from gridhall.server.io.net.web import csp

    policy = csp(
        "127.0.0.1:8765",
        ["ws://b:9001/", "wss://c.example:443/", "ws://x;script-src *:1/", "http://d:1/"],
    )
    connect = policy.split("connect-src ", 1)[1].split(";", 1)[0]
    assert connect.split() == [
        "'self'",
        "ws://127.0.0.1:8765",
        "wss://127.0.0.1:8765",
        "ws://b:9001",
        "wss://c.example:443",
    ]
