"""A director logs in through a real browser and reaches the event pages."""

from __future__ import annotations

from typing import Any

from browser_harness import DEMO_LOGIN, screenshot_path


def test_director_logs_in_and_sees_the_demo_event(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/login")
    page.get_by_label("E-mail address").fill(DEMO_LOGIN[0])
    page.get_by_label("Password").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    page.screenshot(path=str(screenshot_path("director-home")), full_page=True)
    assert "Thursday Club Night" in page.content()


def test_public_home_lists_the_demo_event_on_a_phone(page: Any, base_url: str) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(base_url + "/")
    page.screenshot(path=str(screenshot_path("public-home-phone")), full_page=True)
    assert "Thursday Club Night" in page.content()
