"""Players that are programs, beside the core: they speak to a server as any client does.
A program that plays one game only is that game's (Gomoku's ``gridhall-bridge`` is in
its plug-in, ``server/games/gomoku/piskvork/``)."""
