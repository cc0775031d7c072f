"""The Minesweeper solver and no-guess generator as they were before issue 16,
kept only so bench_minesweeper.py can measure the new ones against them in
the same run. Nothing in the server imports this."""
