"""Everything kept on disk: the SQLite store, its tables, its interface and retention."""
