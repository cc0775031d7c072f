"""``gridhall-server``: run the server, or print recent games (or rooms) from its database."""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import ipaddress
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from gridhall.protocol.i18n import gettext as _

from . import rooms_command
from .cluster.wiring import ClusterUnreachable, ClusterWiring
from .core import admin_access, cluster_settings, origin
from .core.cluster_nodes import node_url
from .core.config import ServerConfig
from .games.records import SOURCE, RecordError
from .io.lan.discovery import WILDCARD_HOSTS, Advertiser, default_addresses
from .io.lan.netinfo import lan_addresses
from .io.net.app import GameServer, MetricsUnavailable
from .io.runtime import collector, logformat, loops, settings_file
from .io.services import game_files, history_lines
from .io.store import retention_options
from .io.store.store import SCHEMA_VERSION, NewerStore, Store
from .io.workers import engines

log = logging.getLogger("gridhall.server")


def ipv4(text: str) -> str:
    """An ``--advertise`` value: one IPv4 address of this machine."""
    try:
        return str(ipaddress.IPv4Address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IPv4 address (e.g. 192.168.1.20)"
        ) from None


def tcp_port(text: str) -> int:
    """A ``--port`` value: 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a TCP port (0 to 65535)")
    return value


def peer_address(text: str) -> str:
    """A ``--peer`` value: another node's address, ws://host:port/."""
    found = node_url(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            _("{value} is not a node address (e.g. ws://192.168.1.20:8765/)", value=repr(text))
        )
    return found


def web_origin(text: str) -> str:
    """An ``--allow-origin`` value: a web page's origin, http(s)://host[:port]."""
    found = origin.normalize(text)
    if found is None or text.strip().rstrip("/").count("/") > 2:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a web origin (e.g. http://games.example:8080)"
        )
    return found


def server_name(text: str) -> str:
    """A ``--server-name`` value: a DNS name the server is reached by."""
    found = origin.server_name(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a host name (e.g. games.example.org, without a port)"
        )
    return found


def admin_network(text: str) -> str:
    """An ``--admin-from`` value: an address or network in CIDR form."""
    try:
        return str(admin_access.network(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an address or network (e.g. 192.168.1.0/24)"
        ) from None


def admin_token(text: str) -> str:
    """An ``--admin-token`` value: 16 to 256 URL-safe characters (it goes in a link)."""
    if not 16 <= len(text) <= 256 or not all(
        c.isascii() and (c.isalnum() or c in "-_.~") for c in text
    ):
        raise argparse.ArgumentTypeError(
            "an admin token is 16 to 256 characters from A-Z, a-z, 0-9 and - _ . ~"
        )
    return text


def _service_url(text: str, schemes: tuple[str, ...], what: str, example: str) -> str:
    problem = cluster_settings.problem(text, schemes)
    if problem is not None:
        raise argparse.ArgumentTypeError(
            f"{cluster_settings.redacted(text)!r} is not a {what} URL ({problem}); e.g. {example}"
        )
    return text.strip()


def redis_url(text: str) -> str:
    """A ``--cluster`` value: a Redis URL (credentials and TLS in it: docs/cluster.md)."""
    example = "redis://:PASSWORD@10.0.0.5:6379/0, or rediss://... for TLS"
    return _service_url(text, cluster_settings.REDIS_SCHEMES, "Redis", example)


def postgres_url(text: str) -> str:
    """A ``--store`` value: a PostgreSQL URL (credentials and TLS in it)."""
    example = "postgresql://gridhall:PASSWORD@10.0.0.5:5432/gridhall?sslmode=verify-full"
    return _service_url(text, cluster_settings.POSTGRES_SCHEMES, "PostgreSQL", example)


def cluster_secret(text: str) -> str:
    """A ``--cluster-secret`` value (never echoed in an error)."""
    problem = cluster_settings.secret_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def per_minute(text: str) -> float:
    """A rate a minute: more than 0 (a bucket that never refills is not a rate)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number a minute (more than 0)")
    return value


def seconds(text: str) -> float:
    """A time budget in seconds: more than 0, at most an hour."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(
            _("{text} is not a number of seconds (more than 0, at most 3600)", text=repr(text))
        )
    return value


def build_parser() -> argparse.ArgumentParser:
    d = ServerConfig()
    parser = argparse.ArgumentParser(
        prog="gridhall-server",
        description="Host gridhall games on your network.",
        allow_abbrev=False,  # else `import --game` reads as an abbreviated --games-days
    )
    parser.add_argument("--host", default=d.host, help="address to listen on (default all)")
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="a TOML settings file: keys named as these options with "
        "underscores (max_rooms = 50); options given here win over it",
    )
    parser.add_argument(
        "--port", type=tcp_port, default=d.port, help=f"TCP port (default {d.port})"
    )
    parser.add_argument("--name", default=d.name, help="server name shown to players")
    parser.add_argument(
        "--db", default=d.db, help=f"SQLite file for live rooms, games and chat (default {d.db})"
    )
    parser.add_argument(
        "--durable-commits",
        action="store_true",
        help="sync every commit to disk (survives power loss; slower)",
    )
    node = parser.add_argument_group(
        "cluster", 'several nodes sharing rooms (docs/cluster.md; pip install "gridhall[cluster]")'
    )
    node.add_argument(
        "--cluster",
        metavar="REDIS_URL",
        default=None,
        type=redis_url,
        help="run as one node of a cluster: redis://[USER:PASSWORD@]HOST:PORT[/DB] "
        "(rediss:// for TLS)",
    )
    node.add_argument(
        "--cluster-secret",
        metavar="SECRET",
        default=None,
        type=cluster_secret,
        help="the secret every node of the cluster is started with (at least "
        f"{cluster_settings.MIN_SECRET} characters; default: ${cluster_settings.SECRET_ENV}, "
        "which ps does not show)",
    )
    node.add_argument(
        "--store",
        metavar="POSTGRES_URL",
        default=None,
        type=postgres_url,
        help="keep live rooms and identities in PostgreSQL: "
        "postgresql://USER[:PASSWORD]@HOST:PORT/DB[?sslmode=verify-full]",
    )
    node.add_argument(
        "--node-address",
        metavar="URL",
        default=None,
        help="the ws:// address this node gives clients (default: built from --host and --port)",
    )
    node.add_argument(
        "--node-id",
        metavar="NAME",
        default=None,
        help="this node's name in the cluster (default: a new one each start)",
    )
    node.add_argument(
        "--lease-ms",
        type=int,
        default=d.lease_ms,
        metavar="MS",
        help="room lease: another node takes a dead node's rooms over this "
        f"long after it stops (default {d.lease_ms})",
    )
    parser.add_argument(
        "--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"]
    )
    parser.add_argument(
        "--log-format",
        default="text",
        choices=logformat.FORMATS,
        help="text: readable lines (default); json: one JSON object per "
        "line, with the room's and the player's id where they apply",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=d.grace_seconds,
        help="seconds a dropped player's seat is kept (default 60)",
    )
    parser.add_argument("--max-rooms", type=int, default=d.max_rooms)
    parser.add_argument("--max-connections", type=int, default=d.max_connections)
    parser.add_argument(
        "--max-connections-per-address",
        type=int,
        metavar="N",
        default=d.max_connections_per_ip,
        help="connections from one address (over the whole cluster with "
        f"--cluster; default {d.max_connections_per_ip})",
    )
    parser.add_argument(
        "--room-creations-per-minute",
        type=per_minute,
        metavar="N",
        default=d.room_creations_per_minute,
        help=f"rooms one address may create a minute after a burst of {d.room_creation_burst} "
        f"(over the whole cluster with --cluster; default {d.room_creations_per_minute:g})",
    )
    parser.add_argument(
        "--ai-budget",
        type=float,
        default=d.ai_budget,
        help="seconds the hard computer opponent thinks per move (default 2)",
    )
    parser.add_argument(
        "--analysis-budget",
        type=seconds,
        default=d.analysis_budget,
        metavar="SECONDS",
        help=_(
            "seconds the engine thinks about each position of a game it "
            "analyses (default {default:g})",
            default=d.analysis_budget,
        ),
    )
    parser.add_argument(
        "--engine",
        "--engines",
        dest="engines",
        action="append",
        type=engines.engine_option,
        default=None,
        metavar="NAME=COMMAND",
        help=_(
            "offer a {gomocup} engine installed here as the computer "
            "level {level} (repeatable; e.g. {example}); one that does "
            "not answer at start is not offered",
            gomocup="Gomocup",
            level="engine:NAME",
            example="rapfi=/opt/rapfi/pbrain-rapfi",
        ),
    )
    retention_options.add_to(parser, d)
    parser.add_argument(
        "--no-discovery", action="store_true", help="do not advertise the server on the LAN (mDNS)"
    )
    parser.add_argument(
        "--advertise",
        action="append",
        metavar="ADDR",
        default=None,
        type=ipv4,
        help="an IPv4 address to advertise the server on (repeatable; default: "
        "this machine's LAN addresses, or --host when it is one address)",
    )
    parser.add_argument(
        "--loop",
        choices=loops.LOOPS,
        default="auto",
        help='event loop: uvloop if installed (pip install "gridhall[fast]"; '
        "less CPU per move), else asyncio's (default auto)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        metavar="URL",
        default=None,
        type=web_origin,
        help="also accept browsers on pages from this origin, e.g. "
        "http://games.example:8080 (repeatable; default: only the "
        "server's own pages, and clients that send no Origin)",
    )
    parser.add_argument(
        "--server-name",
        action="append",
        metavar="NAME",
        default=None,
        type=server_name,
        help="a DNS name players reach this server by (repeatable); requests naming "
        "any other host get 421 (default: its addresses, localhost, this machine's "
        "name and its mDNS name only)",
    )
    parser.add_argument(
        "--peer",
        action="append",
        metavar="URL",
        default=None,
        type=peer_address,
        help=_(
            "another node of this cluster, ws://HOST:PORT/ (repeatable): "
            "clients are told of it and go there when this server is gone"
        ),
    )
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="serve /metrics in the Prometheus text format, to this machine "
        'or with the admin token (needs pip install "gridhall[metrics]")',
    )
    parser.add_argument(
        "--admin-from",
        action="append",
        metavar="CIDR",
        default=None,
        type=admin_network,
        help="also allow the admin page from this network, e.g. "
        "192.168.1.0/24 (repeatable; default: this machine only)",
    )
    parser.add_argument(
        "--admin-token",
        type=admin_token,
        default=None,
        metavar="TOKEN",
        help="the admin page's secret (default: a new random one each start, "
        "printed in the admin link)",
    )
    sub = parser.add_subparsers(dest="command")
    hist = sub.add_parser("history", help="print recent finished games and exit")
    hist.add_argument(
        "--db", dest="history_db", default=None, help="SQLite file (default: the server's --db)"
    )
    hist.add_argument("--limit", type=int, default=20)
    formats = game_files.formats()
    described = "; ".join(f"{name}: {about}" for name, about in formats.items())
    export = sub.add_parser("export", help=_("print one finished game as a file and exit"))
    export.add_argument(
        "game_id",
        type=int,
        metavar="GAME_ID",
        help=_("the game's number, the first column of {command}", command="history"),
    )
    export.add_argument(
        "--format",
        dest="export_format",
        choices=list(formats),
        default=None,
        help=_("{formats} (default: the game's first)", formats=described),
    )
    export.add_argument(
        "--db",
        dest="export_db",
        default=None,
        metavar="FILE",
        help=_("{sqlite} file (default: the server's --db)", sqlite="SQLite"),
    )
    imp = sub.add_parser(
        "import",
        help=_("store a game from a file as a finished game, print its number and exit"),
    )
    imp.add_argument("import_file", metavar="FILE", help=_("the game's file"))
    importers = list(game_files.games())
    imp.add_argument(
        "--game",
        dest="import_game",
        choices=importers,
        default=None,
        help=_("the file's game (default: {game})", game=importers[0] if importers else "-"),
    )
    imp.add_argument(
        "--format",
        dest="import_format",
        choices=list(formats),
        default=None,
        help=_("{formats} (default: the game's first)", formats=described),
    )
    imp.add_argument(
        "--size",
        dest="import_size",
        type=int,
        default=None,
        metavar="N",
        help=_("the board's size for a file that does not say (default: the game's)"),
    )
    imp.add_argument(
        "--db",
        dest="import_db",
        default=None,
        metavar="FILE",
        help=_("{sqlite} file (default: the server's --db)", sqlite="SQLite"),
    )
    rooms_command.add_parser(sub)
    return parser


def run_import(db: str, path: str, game: str | None, fmt: str | None, size: int | None) -> int:
    """Store the game in file ``path`` and print its id; 2 (after one line on stderr,
    nothing stored) if the file cannot be read or is not a game."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        print(
            _(
                "gridhall-server: cannot read {file}: {reason}",
                file=path,
                reason=exc.strerror or exc,
            ),
            file=sys.stderr,
        )
        return 2
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # Piskvork writes engine names in the ANSI code page
    try:
        name, found = game_files.read(text, game, fmt, size, time.time())
    except (RecordError, game_files.NotImportable) as exc:
        print(f"gridhall-server: {path}: {exc}", file=sys.stderr)
        return 2
    store = Store(db)
    try:
        gid = store.save_game(
            "-",
            name,
            found.options,
            found.players,
            found.result,
            found.record,
            found.started_at,
            found.ended_at,
            source=SOURCE,
        )
    finally:
        store.close()
    print(gid)
    return 0


def print_history(db: str, limit: int) -> None:
    print(f"database: {db}")
    if not Path(db).exists():
        print(
            "No games yet: there is no database there (the server creates it when it "
            "first runs; --db chooses another file)."
        )
        return
    store = Store(db)
    try:
        games = store.recent_games(limit)
    finally:
        store.close()
    if not games:
        print("No finished games yet.")
        return
    for g in games:
        when = datetime.datetime.fromtimestamp(g.ended_at).strftime("%Y-%m-%d %H:%M")
        names = {pl["player"]: pl["name"] for pl in g.players}
        print(
            f"{g.id:>5}  {when}  room {g.room}  {g.game:<11} {' vs '.join(names.values()):<30} "
            f"{history_lines.describe(g)}"
        )


def print_export(db: str, game_id: int, fmt: str | None) -> int:
    """Print game ``game_id`` in ``fmt`` (None: its game's first) to stdout; 2 (after
    one line on stderr) if there is no such game or it has no files."""
    if not Path(db).exists():
        print(
            _("gridhall-server: no database at {db} (--db chooses another file)", db=db),
            file=sys.stderr,
        )
        return 2
    store = Store(db)
    try:
        game = store.game(game_id)
    finally:
        store.close()
    if game is None:
        print(
            _(
                "gridhall-server: no finished game {id} in {db} ({command} lists them)",
                id=game_id,
                db=db,
                command="history",
            ),
            file=sys.stderr,
        )
        return 2
    try:
        text = game_files.export(game, fmt)
    except game_files.NotExportable as exc:
        print(f"gridhall-server: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def newer_store(exc: NewerStore) -> str:
    """What the server and its commands say of a file a newer version has upgraded."""
    return _(
        "gridhall-server: {db} was written by a newer gridhall (its store schema is {found}, "
        "this version reads up to {known}): run that version, or choose another file with --db",
        db=exc.path,
        found=exc.schema,
        known=SCHEMA_VERSION,
    )


def main(argv: list[str] | None = None) -> None:
    try:
        run_command(argv)
    except NewerStore as exc:  # the server's own start says it with --log-format json
        print(newer_store(exc), file=sys.stderr)
        sys.exit(2)


def run_command(argv: list[str] | None = None) -> None:
    """``gridhall-server`` with ``argv``: a command, or the server."""
    settings = settings_file.parse(build_parser(), argv)
    args = settings.args
    if args.command == "history":
        print_history(args.history_db or args.db, args.limit)
        return
    if args.command == "export":
        sys.exit(print_export(args.export_db or args.db, args.game_id, args.export_format))
    if args.command == "import":
        sys.exit(
            run_import(
                args.import_db or args.db,
                args.import_file,
                args.import_game,
                args.import_format,
                args.import_size,
            )
        )
    if args.command == "rooms":
        sys.exit(rooms_command.run(args))
    logformat.configure(args.log_level, args.log_format)
    # websockets logs every HTTP request at INFO; a page load is dozens of files.
    logging.getLogger("websockets.server").setLevel(
        max(logging.WARNING, logging.getLevelName(args.log_level))
    )
    config = ServerConfig(
        host=args.host,
        port=args.port,
        name=args.name,
        db=args.db,
        durable_commits=args.durable_commits,
        grace_seconds=args.grace,
        max_rooms=args.max_rooms,
        max_connections=args.max_connections,
        ai_budget=args.ai_budget,
        max_connections_per_ip=args.max_connections_per_address,
        room_creations_per_minute=args.room_creations_per_minute,
        analysis_budget=args.analysis_budget,
        engines=tuple((e.name, e.argv) for e in map(engines.parse_spec, args.engines or ())),
        chat_days=args.chat_days,
        chat_rows_per_room=args.chat_rows_per_room,
        chat_rows=args.chat_rows,
        games_days=args.games_days,
        games_rows=args.games_rows,
        games_mb=args.games_mb,
        journal_rows=args.journal_rows,
        rated_identity_days=args.rated_identity_days,
        allow_origins=tuple(args.allow_origin or ()),
        server_names=tuple(args.server_name or ()),
        peers=tuple(args.peer or ()),
        metrics=args.metrics,
        admin_token=args.admin_token,
        admin_from=tuple(args.admin_from or ()),
        cluster=args.cluster,
        cluster_secret=args.cluster_secret,
        store=args.store,
        node_address=args.node_address,
        node_id=args.node_id,
        lease_ms=args.lease_ms,
    )
    wanted = (["redis"] if args.cluster else []) + (["psycopg"] if args.store else [])
    lacking = [name for name in wanted if importlib.util.find_spec(name) is None]
    json_logs = args.log_format == "json"
    if lacking:
        fail(
            _(
                "gridhall-server: --cluster and --store need the {package} package: {command}",
                package=" and ".join(lacking),
                command='pip install "gridhall[cluster]"',
            ),
            2,
            json_logs,
        )
    if args.cluster and not args.store:
        fail(
            _(
                "gridhall-server: --cluster needs --store postgresql://... (the rooms' "
                "shared store)"
            ),
            2,
            json_logs,
        )
    if args.cluster:
        config.cluster_secret = secret_or_exit(args.cluster_secret)
    try:
        factory = loops.choose(args.loop)
    except loops.LoopUnavailable as exc:
        fail(f"gridhall-server: --loop uvloop: {exc}", 2, json_logs)
    try:
        server = GameServer(config, ClusterWiring())
    except ClusterUnreachable as exc:
        fail(f"gridhall-server: {exc}", 1, json_logs)
    except NewerStore as exc:
        fail(newer_store(exc), 2, json_logs)
    except MetricsUnavailable:
        fail(
            _(
                "gridhall-server: --metrics needs the {package} package: {command} (or "
                "leave --metrics out)",
                package="prometheus-client",
                command='pip install "gridhall[metrics]"',
            ),
            2,
            json_logs,
        )
    server.settings = settings
    addresses = None if args.no_discovery else (args.advertise or default_addresses(args.host))
    collector.install()  # this process is the server: pace the garbage collector for it
    say = log_line if json_logs else print_line
    try:
        loops.run(serve(server, addresses, settings.source(), say=say), factory)
    except ClusterUnreachable as exc:
        fail(f"gridhall-server: {exc}", 1, json_logs)
    except OSError as exc:
        fail(f"gridhall-server: cannot listen on {config.host}:{config.port}: {exc}", 1, json_logs)


def fail(message: str, status: int, json_logs: bool) -> NoReturn:
    """Stop the server before it serves: ``message`` on stderr, as a log record (one
    JSON object) with ``--log-format json``, so a log collector reads it too."""
    if json_logs:
        log.error("%s", message)
    else:
        print(message, file=sys.stderr)
    sys.exit(status)


def print_line(line: str) -> None:
    """A start-up line as it is: the readable format's, on stdout."""
    print(line, flush=True)


def log_line(line: str) -> None:
    """A start-up line as a log record: with ``--log-format json`` every line the
    server writes is a JSON object (``docker logs`` included)."""
    log.info("%s", line)


def secret_or_exit(given: str | None) -> str:
    """The cluster secret (``--cluster-secret`` or the settings file, else the
    environment); without one a node does not start: nodes with secrets of their own
    would each ignore the others, so none is made up here (docs/cluster.md)."""
    env = cluster_settings.SECRET_ENV
    secret = given if given is not None else os.environ.get(env)
    problem = None if secret is None else cluster_settings.secret_problem(secret)
    if secret is not None and problem is None:
        return secret
    if secret is None:
        print(
            _(
                "gridhall-server: a cluster node needs the cluster's secret, the same on "
                "every node: set {env} (or {option}, or {key} in the settings file). Make "
                "one once with: {command}",
                env=env,
                option="--cluster-secret",
                key="cluster_secret",
                command='python3 -c "import secrets; print(secrets.token_urlsafe(32))"',
            ),
            file=sys.stderr,
        )
    else:
        print(f"gridhall-server: ${env}: {problem}", file=sys.stderr)
    sys.exit(2)


def public_rooms(server: GameServer) -> int:
    """The rooms a player would see listed (what the LAN announcement counts)."""
    return sum(1 for r in server.hub.lobby.rooms.values() if not r.private and not r.closed)


async def serve(
    server: GameServer,
    advertise: list[str] | None,
    settings: str | None = None,
    say: Callable[[str], None] = print_line,
) -> None:
    """Run until signalled; while listening, advertise on ``advertise`` (None: not at all).
    ``settings`` says where the settings came from, for the start-up output, which
    ``say`` writes a line at a time."""
    advertiser: Advertiser | None = None

    def ready(srv: GameServer) -> None:
        nonlocal advertiser
        announce(srv, advertised=advertise, settings=settings, say=say)
        if advertise is not None:
            advertiser = Advertiser(srv.config.name, srv.port, advertise)
            advertiser.start()
            advertiser.watch(lambda: public_rooms(srv))

    try:
        await server.run_until_signalled(ready)
    finally:
        if advertiser is not None:
            await advertiser.close()


def announce(
    server: GameServer,
    advertised: list[str] | None = None,
    settings: str | None = None,
    say: Callable[[str], None] = print_line,
) -> None:
    """Tell the operator the port and how a player on another machine joins, a line
    at a time through ``say`` (printed, or logged with ``--log-format json``)."""
    port = server.port
    say(f"gridhall server '{server.config.name}' listening on port {port}")
    if settings is not None:
        say(_("settings: {source}", source=settings))
    say(f"database: {server.config.db}")
    loop = loops.running()
    if loop is not None:
        say(f"event loop: {loop}")
    rooms = len(server.hub.lobby.rooms)
    if rooms:
        say(
            f"restored {rooms} live room{'s' if rooms != 1 else ''}; players rejoin by "
            "reconnecting",
        )
    aside = len(getattr(server.hub, "quarantine", ()))
    if aside:
        say(
            _(
                "{n} rooms could not be restored and are set aside (see {command})",
                n=aside,
                command="gridhall-server rooms --quarantined",
            )
        )
    host = server.config.host
    addresses = lan_addresses() if host in WILDCARD_HOSTS else [host]
    where = "  or  ".join(f"{a}:{port}" for a in addresses) or f"<this machine's address>:{port}"
    say(f"Players on other machines join with:  gridhall --server {where}")
    if advertised:
        say(
            f"Advertised on the network ({', '.join(advertised)}): `gridhall` lists it on "
            "its connect screen and `gridhall --find` prints it.",
        )
    links = "  or  ".join(f"http://{a}:{port}/" for a in addresses) or f"http://localhost:{port}/"
    say(f"Or in a browser, phones too (nothing to install):  {links}")
    if getattr(server, "metrics", None) is not None:  # (tests pass stand-ins)
        say(
            _(
                "metrics: http://{address}:{port}/metrics (from this machine, or with "
                "the admin token)",
                address="localhost"
                if host in WILDCARD_HOSTS
                else f"[{host}]"
                if ":" in host
                else host,
                port=port,
            ),
        )
    if getattr(server, "admin", None) is not None:  # (stand-ins in tests may have none)
        say(_("admin: {link}", link=admin_link(server)))


def admin_link(server: GameServer) -> str:
    """The admin page's address with the token in its fragment (never sent to a server).
    On a wildcard listen address it names this machine, where the page is allowed."""
    host = server.config.host
    if host in WILDCARD_HOSTS:
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{server.port}/admin#{server.admin.token}"
