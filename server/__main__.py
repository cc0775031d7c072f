"""``python -m gridhall.server`` runs the game server."""

from .cli import main

main()
