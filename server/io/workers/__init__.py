"""Worker processes for heavy work: the pool, computer players, external engines, jobs."""
