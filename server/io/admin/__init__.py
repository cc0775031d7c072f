"""The operator's side: the admin page, its channel, status and actions, and /metrics."""
