"""The Textual terminal client (``gridhall``)."""
