"""What a server supports beyond the base contract, sent in ``welcome.features``:
clients show a feature's screens only when its name is there."""

FEATURES: tuple[str, ...] = ("history", "ratings", "analysis", "link")
