"""The I/O around the pure core: sockets, the store, worker processes, the web files,
discovery, metrics and the admin channel.
"""
