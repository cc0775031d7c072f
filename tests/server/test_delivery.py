"""The I/O layer delivers what the core sends: one turn's frames all go out, in order,
even when one connection fails or is replaced while they wait for the commit."""

from __future__ import annotations

from pathlib import Path

from gridhall import protocol as p
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.session import Session
from gridhall.server.io.app import GameServer
from tests.server.helpers import T0, FakeLink


class BrokenLink(FakeLink):
    """A connection whose socket fails as the frame is written."""

    def send_frame(self, frame: bytes) -> None:
        raise RuntimeError("unable to perform operation: the handler is closed")


def make_server(tmp_path: Path) -> GameServer:
    return GameServer(ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "g.db")))


def hello(server: GameServer, link: FakeLink, token: str | None = None) -> Session:
    session = Session(server, link, T0)
    fields = {"protocol": 1, "name": "Ann", "id": 1, **({"token": token} if token else {})}
    server.execute(session.receive(p.encode_map({"type": "hello", **fields}), T0), session)
    return session


async def test_a_connection_that_fails_while_written_does_not_cost_the_others_their_frames(
    tmp_path: Path,
) -> None:
    server = make_server(tmp_path)
    broken, ann = BrokenLink("10.0.0.1"), FakeLink("10.0.0.2")
    server.reply(broken, p.encode(p.Rooms(rooms=[], re=1)))
    server.reply(ann, p.encode(p.Rooms(rooms=[], re=2)))
    server._flush()
    assert [m.re for m in ann.received()] == [2]
    assert broken.closed  # what failed is closed, not written to again
    server.store.close()


async def test_a_replaced_connection_gets_what_was_sent_to_it_before_it_is_closed(
    tmp_path: Path,
) -> None:
    server = make_server(tmp_path)
    old = FakeLink("10.0.0.1")
    first = hello(server, old)
    server._flush()
    token = old.last(p.Welcome).token
    server.execute(first.receive(p.encode_map({"type": "list-rooms", "id": 7}), T0), first)
    hello(server, FakeLink("10.0.0.1"), token)  # in the same turn, before the commit
    server._flush()
    assert old.last(p.Rooms).re == 7
    assert old.close_code == 4000
    server.store.close()
