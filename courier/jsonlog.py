"""Log records as JSON lines: one object a line, which a log collector (docker's, the
journal's) keeps whole even when the message or its traceback spans many lines.

courier/settings.py sends warnings and errors to standard error through this formatter
when DJANGO_DEBUG is not 1 (with configure as its LOGGING_CONFIG), so that a 500's
traceback is kept with the request it answered."""

from __future__ import annotations

import json
import logging
import logging.config
from datetime import UTC, datetime


def configure(config: dict) -> None:
    """Django's LOGGING_CONFIG: the settings' LOGGING, and Python's warnings (a library's
    UserWarning, a deprecation) routed through logging ("py.warnings"), so that they too
    come as JSON lines rather than as bare text among them."""
    logging.config.dictConfig(config)
    logging.captureWarnings(True)


# What a record may carry besides its message (courier/request_id.py): the id of the
# request or task run it was written in (RequestIdFilter), and the fields of the line
# written once per request and once per task run.
FIELDS = (
    "request_id",
    "method",
    "route",
    "duration_ms",
    "user_id",
    "task",
    "task_id",
    "status",
    "outcome",
)


class JSONFormatter(logging.Formatter):
    """A record as one line of JSON: time (UTC, ISO 8601), level, logger, message, and,
    when they are known, exc_info (the formatted traceback), stack_info, the request's
    method and path and the response's status_code (django.request and django.security
    give the request in the record's ``request``), and FIELDS."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc_info"] = record.exc_text
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        request = getattr(record, "request", None)
        for field in ("method", "path"):
            value = getattr(request, field, None)
            if isinstance(value, str):
                entry[field] = value
        status = getattr(record, "status_code", None)
        if isinstance(status, int):
            entry["status_code"] = status
        for field in FIELDS:
            value = getattr(record, field, None)
            if value is not None and value != "" and field not in entry:
                entry[field] = value
        return json.dumps(entry, default=str)
