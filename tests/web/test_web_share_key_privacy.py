"""A share key leaves the address at once and never reaches the access log: the first
visit with ``?key=`` keeps it in a cookie of that event's pages and redirects without it;
the server's log lines have keys and API tokens redacted."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gunicorn import glogging
from gunicorn.config import Config

from tourney.web import log_redaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"


def share_key(client: FlaskClient, built: BuiltEvent) -> str:
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    client.post(f"/director/events/{built.event_id}/sharing/private")
    page = client.get(f"/director/events/{built.event_id}/sharing").get_data(as_text=True)
    found = re.search(r'id="share-url" class="share-url" value="[^"]*\?key=([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_a_share_link_ends_on_the_address_without_the_key_and_shows_the_event(
    app: Flask, client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [], name="Secret Night")
    key = share_key(client, built)
    visitor = app.test_client()

    first = visitor.get(f"/events/secret-night?key={key}&lang=en")
    landed = visitor.get(first.headers["Location"])
    stranger = app.test_client().get(first.headers["Location"])

    cookie = first.headers["Set-Cookie"]
    assert first.status_code == 302
    assert first.headers["Location"] == "/events/secret-night?lang=en"
    assert key not in first.headers["Location"]
    assert f"={key};" in cookie
    assert {"HttpOnly", "SameSite=Lax", "Path=/events/secret-night"} <= {
        part.strip() for part in cookie.split(";")
    }
    assert landed.status_code == 200
    assert "Secret Night" in landed.get_data(as_text=True)
    assert stranger.status_code == 404


@pytest.fixture
def access_log() -> Iterator[tuple[glogging.Logger, io.StringIO]]:
    """Gunicorn's access logger as ``tourney serve`` sets it up, writing into a buffer."""
    config = Config()
    config.set("accesslog", "-")
    server_log = glogging.Logger(config)
    log_redaction.install()
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    logger = logging.getLogger("gunicorn.access")
    logger.addHandler(handler)
    yield server_log, written
    logger.removeHandler(handler)


def test_the_access_log_line_of_a_share_link_has_no_key(
    access_log: tuple[glogging.Logger, io.StringIO],
) -> None:
    server_log, written = access_log
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/events/secret-night?key=Zx9-secret_Key&lang=de",
        "QUERY_STRING": "key=Zx9-secret_Key&lang=de",
        "PATH_INFO": "/events/secret-night",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": "https://club.example/e/secret-night?key=Zx9-secret_Key",
        "REMOTE_ADDR": "203.0.113.9",
    }
    response = SimpleNamespace(status="302 FOUND", sent=0, headers=[])
    request = SimpleNamespace(headers=[("AUTHORIZATION", "Bearer tny_abcdef")])

    server_log.access(response, request, environ, timedelta(milliseconds=3))

    line = written.getvalue()
    assert "GET /events/secret-night?key=[redacted]&lang=de HTTP/1.1" in line
    assert "/e/secret-night?key=[redacted]" in line
    assert "Zx9-secret_Key" not in line


def test_redact_hides_api_tokens_and_bearer_credentials() -> None:
    line = "GET /api/v1/events?token=tny_abc HTTP/1.1 Authorization: Bearer tny_def"

    assert log_redaction.redact(line) == (
        "GET /api/v1/events?token=[redacted] HTTP/1.1 Authorization: Bearer [redacted]"
    )
