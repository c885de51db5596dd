"""A real SMTP server for tests: aiosmtpd on 127.0.0.1 at a free port, keeping what it gets."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes, policy
from typing import Any

import pytest


@dataclass
class ReceivedMail:
    """A mail the test SMTP server received: the envelope's recipients and the message."""

    recipients: list[str]
    subject: str
    body: str


@dataclass
class MailServer:
    """A running test SMTP server and what it received so far."""

    port: int
    received: list[ReceivedMail]


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on (bound and released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_smtp_server() -> Iterator[MailServer]:
    """Serve SMTP on 127.0.0.1 until the block ends."""
    controller_module = pytest.importorskip("aiosmtpd.controller")
    server = MailServer(free_port(), [])

    class Keep:
        async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
            message = message_from_bytes(envelope.content, policy=policy.default)
            body = message.get_body(("plain",))
            server.received.append(
                ReceivedMail(
                    list(envelope.rcpt_tos),
                    str(message["Subject"]),
                    body.get_content() if body is not None else "",
                )
            )
            return "250 Message accepted for delivery"

    controller = controller_module.Controller(Keep(), hostname="127.0.0.1", port=server.port)
    controller.start()
    try:
        yield server
    finally:
        controller.stop()
