"""Gomoku and the Piskvork (Gomocup) brains: the programs that speak the ``pbrain``
protocol on their pipes, as the Gomoku world's engines do.

- :mod:`.engine`: one running brain, driven over its pipes (:class:`~.engine.PbrainEngine`);
- :mod:`.levels`: brains as the server's computer levels (``--engine NAME=COMMAND``);
- :mod:`.bridge`: ``gridhall-bridge``, a brain seated in a room as a client would;
- :mod:`.brain`: ``gridhall-pbrain``, gridhall's hard engine as a brain for Piskvork.

Unlike the rules beside them these talk to processes (asyncio, pipes); nothing in the
server's core imports them.
"""
