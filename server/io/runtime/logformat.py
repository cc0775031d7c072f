"""How the server's log lines look: readable text (the default) or JSON.

``--log-format json`` writes one JSON object per line, for a log collector: time,
level, logger, message, and the room's and the player's id when the call that logged
gave them (``log.info(..., extra={"room": code, "player": ident.id})``). Every
character outside ASCII is escaped, so a player's name can neither break a line nor
reach a terminal as a control sequence.
"""

from __future__ import annotations

import datetime
import json
import logging

FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
IDS = ("room", "player")
"""Record attributes copied into a JSON line when a log call passed them in ``extra``."""


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        line: dict[str, object] = {
            "time": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in IDS:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=True)


def configure(level: str, fmt: str) -> None:
    """Set up the root logger for the server in the chosen format. In JSON, Python's
    warnings become records too, so no line on stderr is anything but JSON (the
    start-up lines are records as well: ``cli.log_line``)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT))
    logging.basicConfig(level=level, handlers=[handler])
    if fmt == "json":
        logging.captureWarnings(True)
