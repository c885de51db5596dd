"""Pages in other languages in a real browser: the longer words of Russian and German fit a
phone as the English do, and the language chosen stays for the next page."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from browser_harness import DEMO_LOGIN, screenshot_path

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}
SLUG = "fjordside-spring-open"


def _event_id(base_url: str) -> int:
    with urllib.request.urlopen(f"{base_url}/api/v1/events", timeout=10) as response:
        events: list[dict[str, Any]] = json.load(response)
    return next(e["id"] for e in events if e["slug"] == SLUG)


def _page_width(page: Any) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_public_event_page_in_russian_fits(page: Any, base_url: str, size: str) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    page.set_viewport_size(viewport)

    page.goto(f"{base_url}/events/{SLUG}?lang=ru")
    shot = screenshot_path(f"languages-public-event-ru-{size}")
    page.screenshot(path=str(shot), full_page=True)

    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.get_by_role("heading", name="Турниры").is_visible()
    assert page.get_by_label("Найдите своё имя").is_visible()
    # The time the page was updated is written as Russian writes times: 24 hours.
    updated = page.inner_text("p.updated time")
    assert re.fullmatch(r"\d{2}:\d{2}:\d{2}", updated), updated
    assert _page_width(page) <= viewport["width"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_director_event_page_in_german_fits(page: Any, base_url: str, size: str) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    page.set_viewport_size(viewport)
    page.goto(f"{base_url}/login?lang=de")
    page.get_by_label("E-Mail-Adresse").fill(DEMO_LOGIN[0])
    page.get_by_label("Passwort").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Anmelden").click()

    # The choice made on the login page is kept: no ?lang= from here on.
    page.goto(f"{base_url}/director/events/{_event_id(base_url)}")
    shot = screenshot_path(f"languages-director-event-de-{size}")
    page.screenshot(path=str(shot), full_page=True)

    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("link", name="Änderungsprotokoll").is_visible()
    assert page.get_by_role("heading", name="Drucken und exportieren").is_visible()
    assert _page_width(page) <= viewport["width"]
