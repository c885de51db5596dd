"""A director at the end of a club night, in a real browser: the audit log in sentences,
a round printed on its own, and the event marked finished.

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from typing import Any

from browser_harness import DEMO_LOGIN, screenshot_path


def _open_demo_event(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/login")
    page.get_by_label("E-mail address").fill(DEMO_LOGIN[0])
    page.get_by_label("Password").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Thursday Club Night").first.click()
    page.wait_for_load_state()


def test_audit_log_reads_as_sentences_and_pages(page: Any, base_url: str) -> None:
    _open_demo_event(page, base_url)
    page.get_by_role("link", name="Audit log").click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("audit-log-sentences"), full_page=False)

    sentences = page.locator("ol.audit > li > p").all_inner_texts()
    assert sentences and all(s.split(" · ", 1)[1].startswith("Demo Director ") for s in sentences)
    # Every line is words: no dotted action name ("entry.check_in") outside its details.
    assert not [s for s in sentences if re.search(r"\b[a-z]+\.[a-z_]+\b", s)]
    assert page.locator("ol.audit > li").count() <= 50
    assert page.get_by_label("What").is_visible() and page.get_by_label("Player").is_visible()


def test_flight_page_prints_one_round_and_the_event_can_be_finished(
    page: Any, base_url: str
) -> None:
    _open_demo_event(page, base_url)
    event_url = page.url
    # The demo's first flights are still to be drawn: find one with rounds.
    for flight_id in range(1, 20):
        page.goto(f"{base_url}/director/flights/{flight_id}")
        if page.locator(".print-round").count():
            break
    page.locator(".print-round").first.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path("flight-print-this-round"), full_page=False)
    links = page.locator(".print-round a")
    assert links.count() >= 2
    assert "round=" in (links.first.get_attribute("href") or "")

    page.goto(event_url)
    page.get_by_role("button", name="Mark finished").click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("event-finished"), full_page=False)

    assert page.locator("p.meta .badge").first.inner_text().lower() == "finished"
    assert page.get_by_role("button", name="Reopen event").is_visible()
