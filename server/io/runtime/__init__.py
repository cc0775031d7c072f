"""The process around the server: event loop, log format, memory, GC, file limits, settings file."""
