"""Players that are programs: bridges that seat external engines in a room."""
