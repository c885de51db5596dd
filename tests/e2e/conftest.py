"""Fixtures for browser tests: a live app and a Chromium page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import CHROMIUM_FLAGS, live_app, require_chromium


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    with live_app(tmp_path) as url:
        yield url


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    executable = require_chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_FLAGS
        )
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        try:
            yield tab
        finally:
            context.close()
            browser.close()
