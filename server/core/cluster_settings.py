"""A cluster's settings: its Redis and PostgreSQL URLs and its secret, checked at start
and shown without their secrets.

Credentials and TLS go in the URLs, as redis-py and libpq read them (docs/cluster.md,
"Securing a cluster"):

- Redis: ``redis://[USER:]PASSWORD@HOST[:PORT][/DB]``; ``rediss://`` for TLS, with
  ``?ssl_ca_certs=/etc/gridhall/ca.pem`` (the server's certificate is checked by
  default) and, for client certificates, ``&ssl_certfile=...&ssl_keyfile=...``;
  ``unix:///run/redis/redis.sock?password=...`` for a local socket.
- PostgreSQL: ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DB``, with
  ``?sslmode=verify-full&sslrootcert=/etc/gridhall/ca.pem`` for TLS (libpq's
  parameters; a password may also come from ``~/.pgpass`` or ``PGPASSWORD``).

The cluster secret (``--cluster-secret``, else ``$GRIDHALL_CLUSTER_SECRET``) signs what
nodes write to Redis for each other (``server/cluster/signing.py``).

Pure: no I/O, no cluster libraries (the command line and the admin page use it).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

REDIS_SCHEMES = ("redis", "rediss", "unix")
POSTGRES_SCHEMES = ("postgresql", "postgres")
SECRET_PARAMS = frozenset({"password", "sslpassword"})
"""Query parameters whose value is a secret (redis-py's and libpq's)."""
HIDDEN = "***"
SECRET_ENV = "GRIDHALL_CLUSTER_SECRET"
"""The environment variable a node reads the cluster secret from (not in ``ps``)."""
MIN_SECRET = 16
"""Characters a cluster secret has at least."""


def secret_problem(secret: str) -> str | None:
    """What is wrong with ``secret`` as a cluster secret (None: nothing)."""
    if len(secret) < MIN_SECRET:
        return f"a cluster secret has at least {MIN_SECRET} characters"
    if not secret.isprintable() or any(c.isspace() for c in secret):
        return "a cluster secret has no spaces or control characters"
    return None


def problem(url: str, schemes: tuple[str, ...]) -> str | None:
    """What is wrong with ``url`` as one of ``schemes`` (None: nothing)."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError as exc:
        return str(exc)
    if parts.scheme.lower() not in schemes:
        return "it does not start with " + " or ".join(f"{s}://" for s in schemes)
    if parts.scheme.lower() != "unix" and not parts.hostname:
        return "it names no host"
    if parts.scheme.lower() == "unix" and not parts.path:
        return "it names no socket"
    return None


def redacted(url: str) -> str:
    """``url`` with its password (in the user part or the query) shown as ``***``."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return HIDDEN
    netloc = parts.netloc
    if password is not None:
        user, _, host = netloc.rpartition("@")
        name = user.partition(":")[0]
        netloc = f"{name}:{HIDDEN}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode(
            [(k, HIDDEN if k.lower() in SECRET_PARAMS else v) for k, v in pairs], safe="*/:"
        )
    text = f"{parts.scheme}://{netloc}{parts.path}"  # (urlunsplit drops unix:'s //)
    return text + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")
