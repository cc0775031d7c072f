"""Several server nodes sharing rooms over Redis and PostgreSQL (docs/cluster.md).

The I/O side only: the store on PostgreSQL, the leases, the node registry, the relay.
Imported only with ``--cluster`` or ``--store`` (the ``cluster`` extra)."""
