"""A live app over the sample events and a headless Debian Chromium to drive it.

The app runs in a thread on a free loopback port against a SQLite file prepared the way
``make run`` prepares it (migrations, then the demo data). Chromium is Debian's
(``apt-get install chromium``), launched with the flags a root, offline, headless run
needs; where it is missing the tests skip with the reason, unless
TOURNEY_REQUIRE_ORACLES is set (as in CI), which makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tourney.config import load_settings
from tourney.store import schema
from tourney.store.db import engine_from_settings, transaction
from tourney.store.demo import load_demo
from tourney.store.passwords import make_hasher
from tourney.web import create_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
SAMPLE_EVENTS = Path(__file__).resolve().parent.parent.parent / "sample_events"
DEMO_LOGIN = ("director@example.org", "demo-director")


def require_chromium() -> str:
    """The Chromium binary, or a skip (a failure when oracles are required)."""
    if CHROMIUM:
        return CHROMIUM
    reason = "Debian's chromium is not installed (apt-get install chromium)"
    if os.environ.get("TOURNEY_REQUIRE_ORACLES"):
        pytest.fail(f"{reason}, and TOURNEY_REQUIRE_ORACLES is set")
    pytest.skip(reason)


@contextmanager
def live_app(folder: Path, **overrides: object) -> Iterator[str]:
    """Serve the app on the sample events from ``folder``; yields its base URL.

    ``overrides`` are more settings (``SMTP_PORT=...``)."""
    config = {
        "DATABASE_URL": f"sqlite:///{folder / 'tourney.db'}",
        "INSTANCE_PATH": str(folder),
        "SECRET_KEY": "browser-tests",
        "PASSWORD_HASH_PROFILE": "fast",
        **overrides,
    }
    settings = load_settings(config)
    engine = engine_from_settings(settings)
    schema.upgrade(engine)
    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=make_hasher("fast"))
    engine.dispose()
    app = create_app(config)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def screenshot_path(name: str) -> Path:
    """Where a test saves its screenshot (``test-artifacts/``, kept out of git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"
