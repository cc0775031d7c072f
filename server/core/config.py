"""Server settings, with defaults chosen for a LAN game server."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from gridhall.protocol import DEFAULT_PORT

from .history_limits import Limits


def default_db_path() -> Path:
    """Where the server keeps its database unless told otherwise: the user's data
    folder by the platform's convention (e.g. ~/.local/share/gridhall on Linux)."""
    return platformdirs.user_data_path("gridhall", appauthor=False) / "gridhall.db"


@dataclass
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    name: str = "gridhall"
    db: str = field(default_factory=lambda: str(default_db_path()))
    grace_seconds: float = 60.0
    """How long a dropped player's seat is kept for a reconnect."""
    rated_identity_days: float = 365.0
    """Days an offline identity with a rating stays resumable (others: the grace
    period; 0: for good); its ratings rows are kept by player id even after
    (docs/ratings.md)."""
    max_rooms: int = 200
    max_rooms_per_address: int = 10
    """Open rooms created from one address (a dropped creator's room counts until
    its grace ends); past it ``create-room`` gets ``server-busy``."""
    room_creations_per_minute: float = 30.0
    room_creation_burst: int = 10
    """Rooms one address may create: a burst, then this many a minute
    (``rate-limited`` with ``retry_after`` past it)."""
    max_connections: int = 500
    max_connections_per_ip: int = 50
    connects_per_second: float = 10.0
    connect_burst: int = 30
    """New connections one address may open: a burst, then this many a second
    (past it the upgrade is refused with HTTP 429 and Retry-After)."""
    rate_per_second: float = 20.0
    """Sustained messages per second per connection; normal play is far below."""
    rate_burst: int = 60
    snapshots_per_second: float = 1.0
    snapshot_burst: int = 5
    """``sync``, ``join-room`` and ``create-room`` (each answered with a whole room)
    per connection: a burst, then this many a second."""
    history_per_second: float = 2.0
    history_burst: int = 10
    """History queries (``list-games``, ``get-replay``, leaderboards, profiles) per
    connection: a burst, then this many a second (``rate-limited`` past it)."""
    history_threads: int = 2
    history_waiting: int = 32
    """Threads reading the database for history queries (each with its own read-only
    connection; replays are then built in the worker processes), and queries waiting
    or running at once (``server-busy`` past it)."""
    chat_lines: int = 8
    chat_window: float = 10.0
    """At most ``chat_lines`` chat messages per ``chat_window`` seconds."""
    max_spectators: int = 200
    """Spectators one room admits; past it joining to watch gets ``room-full``."""
    spectator_chat_frames_per_second: float = 500.0
    spectator_chat_frames_burst: int = 2000
    """Frames a room's spectators together may make it send with chat (a line costs
    one frame per member; see ``server/core/fanout.py``): a burst, then this many a second
    (``rate-limited`` with ``retry_after`` past it). Seated players keep their own."""
    spectator_roster_frames_per_second: float = 2000.0
    spectator_roster_frames_burst: int = 8000
    """The same for spectators' arrivals, departures and renames (a crowd arriving at
    once fills a room of 200 in a few seconds)."""
    max_bad_messages: int = 50
    """Bad frames tolerated on one connection before it is closed with 1008."""
    max_rate_strikes: int = 100
    """Frames over the rate limit within ``strike_window`` seconds before closing (1008)."""
    strike_window: float = 10.0
    abuse_cooldown: float = 5.0
    abuse_cooldown_cap: float = 60.0
    """An address one of whose connections was closed for abuse (a message flood, too
    many bad messages) opens no new one for ``abuse_cooldown`` seconds (HTTP 429 and
    Retry-After), doubled each time again up to ``abuse_cooldown_cap``, forgotten after
    ten quiet minutes: a swarm cannot buy a fresh burst and a fresh count of bad frames
    by reconnecting at once. Its other connections are left alone."""
    ping_interval: float = 10.0
    ping_timeout: float = 10.0
    """A dead peer is noticed within ping_interval + ping_timeout (about 20 s)."""
    send_queue_bytes: int = 4 * 2**20
    """Bytes queued for one slow client before it is dropped (1008): a slow reader
    never stalls a room, and holds at most this much memory."""
    socket_send_buffer: int = 256 * 2**10
    """The kernel's send buffer per connection (0: the system's own, which grows to
    several MB for a peer that does not read)."""
    durable_commits: bool = False
    """Sync the store on every commit (survives power loss; slower). See server/io/store.py."""
    ai_workers: int = 2
    """Worker processes for heavy work: computer players, hints, boards, passwords."""
    quick_workers: int = 1
    """Worker processes more, kept for quick jobs (hints, boards, passwords): they
    never wait behind computer players (see server/core/scheduler.py)."""
    max_jobs: int = 32
    """Quick jobs queued or running at once over all rooms; past it a request that
    needs one gets ``server-busy`` with ``retry_after`` unless its address holds
    fewer than another (whose newest queued job then gets it instead)."""
    max_jobs_per_address: int = 4
    """Quick jobs queued or running at once for one address; past it ``server-busy``."""
    ai_budget: float = 2.0
    """Seconds the hard computer opponent may think per move."""
    analysis_budget: float = 0.5
    """Seconds the engine thinks about each position of a game it analyses."""
    max_analyses: int = 4
    """Games analysed at once over all addresses (one per address); past it
    ``analyse`` gets ``server-busy`` with ``retry_after``."""
    chat_days: float = 30.0
    chat_rows_per_room: int = 500
    chat_rows: int = 200_000
    """Chat lines kept: the latest ``chat_rows_per_room`` of each room, none older
    than ``chat_days``, at most ``chat_rows`` in all (0: no limit of that kind)."""
    games_days: float = 365.0
    games_rows: int = 10_000
    games_mb: float = 256.0
    """Finished games kept: none older than ``games_days``, at most ``games_rows``,
    at most ``games_mb`` megabytes of records in all."""
    journal_rows: int = 1000
    """Journal entries a live room keeps after its snapshot: past them the room is
    snapshotted again (mid-game too), so a game that never ends stays bounded."""

    handshake_timeout: float = 5.0
    """Seconds a socket may take from connecting to the end of the WebSocket handshake."""
    max_handshakes: int = 256
    max_handshakes_per_address: int = 16
    """Sockets before the handshake is read, in total and from one address: past the
    address's bound the newcomer is cut, past the total the oldest one that has waited
    ``handshake_grace`` (see ``server/io/handshake.py``). The total is lowered to fit the
    open-files limit, and never goes past what that limit leaves beside connections."""
    handshake_grace: float = 1.0
    """Seconds a socket before its handshake is never cut to make room for another: an
    honest client's request arrives within it even when a crowd arrives at once."""
    max_request_head: int = 32 * 2**10
    """Bytes a socket may send before its HTTP request head is complete."""
    hello_timeout: float = 5.0
    """Seconds a connection may take to say ``hello``; then it is closed (1008)."""
    max_unwelcomed: int = 64
    max_unwelcomed_per_address: int = 8
    """Connections that have not said ``hello`` yet, in total and from one address:
    past the address's bound the newcomer is closed (1013), past the total the oldest
    idle one (see ``unwelcomed_idle``; none idle: the newcomer is let in)."""
    unwelcomed_idle: float = 2.0
    """Seconds a connection must have sent nothing at all before it may be closed to
    make room for a newcomer: one whose ``hello`` has arrived (read or not) never is
    (``server/core/gate.py``)."""
    listen_backlog: int = 1024
    """Connections the kernel queues for the server to accept (asyncio's 100 is filled by
    a burst of attackers' connects; new players' SYNs then wait for retries). asyncio
    still accepts at most 100 per turn of the loop (``server/io/handshake.py``)."""
    fd_reserve: int = 64
    """Open files kept for the server itself (database, workers, listeners) when the
    socket caps are fitted to the open-files limit (``server/io/fdlimit.py``)."""
    allow_origins: tuple[str, ...] = ()
    """Web origins (``http://host:port``) allowed to open a WebSocket besides the
    server's own pages (see ``server/core/origin.py``)."""
    server_names: tuple[str, ...] = ()
    """DNS names this server is reached by besides its addresses, ``localhost`` and this
    machine's own and mDNS names (``--server-name``): a request naming any other host
    gets HTTP 421 (``server/core/origin.py``, DNS rebinding)."""
    peers: tuple[str, ...] = ()
    """Other nodes' addresses (``ws://host:port/``, ``--peer``): sent to clients in
    ``welcome.nodes`` so they can fail over (``server/core/cluster_nodes.py``)."""
    admin_token: str | None = None
    """The admin page's token (None: a new random one each start; see
    ``server/core/admin_access.py``)."""
    admin_from: tuple[str, ...] = ()
    """Networks (CIDR) besides loopback allowed to reach the admin page."""
    metrics: bool = False
    """Serve ``GET /metrics`` in the Prometheus text format (``server/io/metrics.py``)."""
    engines: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """External Gomoku engines, (name, command words) each: probed at start, and
    those that answer are offered as the computer levels ``engine:NAME``
    (``server/io/engines.py``)."""
    cluster: str | None = field(default=None, repr=False)
    """Redis URL (``redis://HOST:PORT/DB``): run as one node of a cluster sharing
    rooms (``docs/cluster.md``); needs ``store``. (Not in the repr, nor ``store``: they
    may hold passwords.)"""
    cluster_secret: str | None = field(default=None, repr=False)
    """The secret every node of a cluster shares: what a node writes to Redis for the
    others is signed with it, and what is not is ignored (``server/cluster/signing.py``;
    a cluster node does not start without one)."""
    store: str | None = field(default=None, repr=False)
    """PostgreSQL URL: live rooms, journals and identities go there (SQLite keeps history)."""
    node_address: str | None = None
    """The ws:// URL this node advertises to clients (None: built from host and port)."""
    node_id: str | None = None
    """This node's name in the cluster (None: a new random one each start)."""
    lease_ms: int = 3000
    """A room owner's lease in Redis: another node takes its rooms over this long after
    it stops renewing (renewed every third of it)."""

    def retention(self) -> Limits:
        """The store's history limits (see ``server/io/retention.py``)."""
        return Limits(
            chat_days=self.chat_days,
            chat_rows_per_room=self.chat_rows_per_room,
            chat_rows=self.chat_rows,
            games_days=self.games_days,
            games_rows=self.games_rows,
            games_mb=self.games_mb,
        )
