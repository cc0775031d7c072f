"""The server's pure core: rooms, hub, lobby, identities, effects and limits, without I/O.

Nothing here imports asyncio, websockets, a database or threads
(``tests/server/test_core_is_pure.py`` checks): the I/O layer in ``server/io/`` feeds
it inputs with the time and carries out the effects it returns.
"""
