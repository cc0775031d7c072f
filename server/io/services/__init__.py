"""Requests answered off the event loop: history, replays, leaderboards, analysis, game files."""
