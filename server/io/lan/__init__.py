"""Finding the server on the LAN: its addresses and its mDNS/DNS-SD announcement."""
