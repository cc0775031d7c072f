"""The server's network side: the game server, its connections and handshake, the HTTP front door and the web files."""
