"""Secrets kept out of the server's logs: share keys and API tokens are redacted.

A private event's share link carries its key in the query string (``?key=``) and API
clients send tokens (``tny_...``, in the ``Authorization`` header or a query). The access
log of the server that runs the app (gunicorn under ``tourney serve``, Werkzeug's
development server otherwise) writes request lines and the ``Referer`` as they came, so
every log record of those loggers goes through :class:`RedactSecrets` first.
"""

from __future__ import annotations

import logging
import re

from tourney.store.access import TOKEN_PREFIX

REDACTED = "[redacted]"
SERVER_LOGGERS = ("gunicorn.access", "gunicorn.error", "werkzeug")
"""The loggers that write request lines: the production and the development server's."""

_SECRETS = (
    # A query argument that holds a secret: ``key=...``, ``token=...``, ``access_token=...``.
    re.compile(r"(?i)(?<![a-z0-9_])((?:key|token|access_token|api_key)=)[^&\s\"']+"),
    re.compile(r"(?i)(\bbearer\s+)[^\s\"']+"),
    re.compile(rf"()\b{re.escape(TOKEN_PREFIX)}[A-Za-z0-9_-]+"),
)


def redact(text: str) -> str:
    """``text`` with every share key and API token replaced by ``[redacted]``.

    >>> redact('"GET /events/club?key=s3cr3t&lang=de HTTP/1.1" 302')
    '"GET /events/club?key=[redacted]&lang=de HTTP/1.1" 302'
    """
    for pattern in _SECRETS:
        text = pattern.sub(lambda found: found.group(1) + REDACTED, text)
    return text


class RedactSecrets(logging.Filter):
    """A logging filter that redacts secrets from each record's finished message."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message without secrets; never drops a record."""
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def install(names: tuple[str, ...] = SERVER_LOGGERS) -> None:
    """Put the redacting filter on the server loggers (once each)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
