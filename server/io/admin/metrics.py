"""``GET /metrics``: the server's figures in the Prometheus text format.

Off unless the server runs with ``--metrics`` (``prometheus-client``, the
``metrics`` extra, is imported only then). Each server has its own
``CollectorRegistry`` and one collector that reads :class:`~.stats.Stats` and the
live lobby when scraped, so nothing is global (several servers share a test
process) and nothing is counted twice. Who may read it: :func:`refusal` (the
admin page's rule: this machine or an ``--admin-from`` network, or anyone with
``Authorization: Bearer <admin token>``; a wrong token is refused from anywhere and
costs like a wrong admin hello). A request naming a host this server is not known by
never gets this far (421: ``GameServer._misdirected``), so a page from another site
that points its name at this machine (DNS rebinding) cannot read it through the
player's browser.
The names, types and labels are in ``docs/metrics.md``.
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Iterator
from http import HTTPStatus
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import CollectorRegistry
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ...core.admin_access import AdminAccess
from ...core.stats import Histogram
from ...games import registry as games
from ..net import web

if TYPE_CHECKING:
    from ..net.app import GameServer

REFUSAL = "metrics are served to this machine or with the admin token only\n"
TEXT = "text/plain; charset=utf-8"


class Exporter:
    """One server's ``/metrics``: its own registry, read fresh at every scrape."""

    def __init__(self, server: GameServer) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(ServerCollector(server))
        self.server = server

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def respond(self, request: Request, peer: str) -> Response:
        """The answer to ``GET /metrics`` from ``peer`` (403 if it may not read it)."""
        method = getattr(request, "method", "GET")
        if method not in web.ALLOWED_METHODS:
            not_allowed = _answer(HTTPStatus.METHOD_NOT_ALLOWED, b"method not allowed\n", TEXT)
            not_allowed.headers["Allow"] = ", ".join(web.ALLOWED_METHODS)
            return not_allowed
        refused = refusal(
            self.server.admin, peer, request.headers.get("Authorization"), time.time()
        )
        if refused is not None:
            status, wait = refused
            if status is HTTPStatus.FORBIDDEN:
                return _answer(status, REFUSAL.encode(), TEXT)
            answer = _answer(
                status, f"too many wrong tokens; retry after {wait:.0f} s\n".encode(), TEXT
            )
            answer.headers["Retry-After"] = str(math.ceil(wait))
            return answer
        answer = _answer(HTTPStatus.OK, self.render(), CONTENT_TYPE_LATEST)
        return web.headers_only(answer) if method == "HEAD" else answer


def refusal(
    access: AdminAccess, peer: str, authorization: str | None, now: float
) -> tuple[HTTPStatus, float] | None:
    """None if a request from ``peer`` with this ``Authorization`` header may read the
    figures; else (403, 0) or, while wrong tokens are held back, (429, their wait).
    A token given is always checked (the right one is never refused; a wrong one
    always is, a peer the admin page allows too); without one only such a peer may."""
    token = bearer(authorization)
    if token is None:
        return None if access.peer_allowed(peer) else (HTTPStatus.FORBIDDEN, 0.0)
    held = access.check(peer, token, now)
    if held is None:
        return None
    return (HTTPStatus.TOO_MANY_REQUESTS, held) if held > 0 else (HTTPStatus.FORBIDDEN, 0.0)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None otherwise)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _answer(status: HTTPStatus, body: bytes, content_type: str) -> Response:
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Cache-Control", "no-store"),
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Content-Security-Policy", web.csp(None)),
            *web.SECURITY_HEADERS,
        ]
    )
    return Response(status.value, status.phrase, headers, body)


class ServerCollector:
    """Reads one server's :class:`~.stats.Stats` and lobby at scrape time."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

    def collect(self) -> Iterator[Metric]:
        stats = self.server.stats
        opened = CounterMetricFamily("gridhall_connections", "WebSocket connections admitted.")
        opened.add_metric([], stats.connections_opened)
        yield opened
        yield GaugeMetricFamily(
            "gridhall_connections",
            "WebSocket connections open now.",
            value=len(self.server.connections),
        )
        yield _counter(
            "gridhall_messages_received",
            "Frames received from clients, by message type (other: not a client message type).",
            "type",
            stats.messages_in,
        )
        yield _counter(
            "gridhall_messages_sent",
            "Frames handed to client sockets, by message type.",
            "type",
            stats.frames_out,
        )
        yield _counter(
            "gridhall_refusals", "Errors sent to clients, by error code.", "code", stats.refusals
        )
        yield _histogram(
            "gridhall_move_round_trip_seconds",
            "From receiving a move to handing its moved event to the sockets.",
            stats.move_round_trip,
        )
        yield _histogram(
            "gridhall_journal_commit_seconds",
            "Time of one store transaction (a turn's journal entries and other writes).",
            stats.commit_time,
        )
        yield _counter(
            "gridhall_worker_jobs",
            "Worker jobs run (answered or failed), by kind.",
            "kind",
            stats.jobs,
        )
        waits = HistogramMetricFamily(
            "gridhall_worker_wait_seconds",
            "Time a worker job waited in the queue, by kind.",
            labels=["kind"],
        )
        for kind, hist in sorted(stats.job_wait.items()):
            waits.add_metric([kind], hist.cumulative(), hist.sum)
        yield waits
        yield from self._rooms()

    def _rooms(self) -> Iterator[Metric]:
        names = sorted(games())
        rooms = dict.fromkeys(names, 0)
        players = dict.fromkeys(names, 0)
        spectators = dict.fromkeys(names, 0)
        for room in self.server.hub.lobby.rooms.values():
            game = room.spec.name
            if room.closed or game not in rooms:
                continue
            rooms[game] += 1
            players[game] += sum(1 for s in room.seated if not s.bot)
            spectators[game] += len(room.spectators)
        for name, doc, values in (
            ("gridhall_rooms", "Live rooms, by game.", rooms),
            (
                "gridhall_players",
                "Human players seated in live rooms (dropped ones "
                "within their grace included), by game.",
                players,
            ),
            ("gridhall_spectators", "Spectators in live rooms, by game.", spectators),
        ):
            family = GaugeMetricFamily(name, doc, labels=["game"])
            for game, n in values.items():
                family.add_metric([game], n)
            yield family


def _counter(name: str, doc: str, label: str, counts: dict[str, int]) -> Metric:
    family = CounterMetricFamily(name, doc, labels=[label])
    for value, n in sorted(counts.items()):
        family.add_metric([value], n)
    return family


def _histogram(name: str, doc: str, hist: Histogram) -> Metric:
    family = HistogramMetricFamily(name, doc)
    family.add_metric([], hist.cumulative(), hist.sum)
    return family
