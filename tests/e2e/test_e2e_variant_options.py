"""A long-nardy event in a real browser: the event form offers the chosen variant's options,
and the sample long-nardy evening shows them on its public pages.

Screenshots go to ``test-artifacts/`` (``event-form-long-nardy``, ``public-long-nardy``,
``public-long-nardy-final``).
"""

from __future__ import annotations

from typing import Any

from browser_harness import DEMO_LOGIN, screenshot_path

NARDY = "tuesday-long-nardy"


def log_in(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/login")
    page.get_by_label("E-mail address").fill(DEMO_LOGIN[0])
    page.get_by_label("Password").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def test_event_form_shows_only_the_chosen_variants_options(page: Any, base_url: str) -> None:
    log_in(page, base_url)
    page.goto(f"{base_url}/director/events/new")
    standard = (
        page.locator("#crawford").is_visible(),
        page.get_by_label("A koks scores 3").is_visible(),
        page.get_by_label("Gammons and backgammons count").is_visible(),
    )

    page.get_by_label("Game", exact=True).select_option("long-nardy")
    page.get_by_label("Name", exact=True).fill("Nardy Friday")
    page.locator("#nardy_cube").check()
    page.locator("#nardy_crawford").check()
    page.get_by_label("A koks scores 3").check()
    page.locator("#nardy_last_roll_draw").check()
    page.screenshot(path=str(screenshot_path("event-form-long-nardy")), full_page=True)
    nardy = (
        page.locator("#crawford").is_visible(),
        page.get_by_label("A koks scores 3").is_visible(),
        page.get_by_label("Gammons and backgammons count").is_visible(),
    )
    page.get_by_role("button", name="Create event").click()
    page.wait_for_load_state()

    assert standard == (True, False, False)
    assert nardy == (False, True, False)
    assert page.locator(".variant-summary").inner_text() == (
        "Long nardy · cube on, Crawford · koks scores 3 · last-roll draw")


def test_public_long_nardy_pages_show_the_options_and_drawn_games(
    page: Any, base_url: str
) -> None:
    page.goto(f"{base_url}/events/{NARDY}")
    page.screenshot(path=str(screenshot_path("public-long-nardy")), full_page=True)
    summary = page.locator(".variant-summary").inner_text()
    page.get_by_role("link", name="Bracket").click()
    page.wait_for_load_state()
    final = page.locator("a[href*='/matches/']").last
    final.click()
    page.wait_for_load_state()
    page.screenshot(path=str(screenshot_path("public-long-nardy-final")), full_page=True)

    assert summary == "Long nardy · no cube · koks scores 3 · last-roll draw"
    assert page.get_by_role("cell", name="Drawn (last roll)").count() >= 1
