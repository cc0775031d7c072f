"""What a server supports beyond the base contract, sent in ``welcome.features``:
clients show a feature's screens only when its name is there."""

FEATURES: tuple[str, ...] = ("history", "ratings", "analysis", "link", "devices")

CLUSTER = "cluster"
"""Sent (besides the above) only by a node that knows other nodes: ``welcome.nodes``
then lists their addresses, for clients to fail over to."""
