"""A club's rating list options in a real browser: the demo club's director marks
provisional players and opens the players' pages; a visitor follows a name from a public
event page to the player's page at the club; closed again, that page is gone.

Screenshots go to ``test-artifacts/`` (``club-ratings-options``, ``club-player-public``).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import flash, log_in

THRESHOLD = 20


def _event_id(base_url: str, slug: str) -> int:
    with urllib.request.urlopen(f"{base_url}/api/v1/events", timeout=10) as response:
        found: int = next(e["id"] for e in json.load(response) if e["slug"] == slug)
    return found


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def _save_options(page: Any, *, provisional_below: int, public: bool) -> str:
    form = page.locator("form", has=page.get_by_role("button", name="Save the options"))
    form.get_by_label(re.compile("^Provisional below")).fill(str(provisional_below))
    box = form.get_by_label(re.compile("^Anyone may see the players"))
    if public:
        box.check()
    else:
        box.uncheck()
    form.get_by_role("button", name="Save the options").click()
    page.wait_for_load_state()
    return flash(page)


def test_director_opens_the_players_pages_and_a_visitor_follows_a_name(
    page: Any, base_url: str
) -> None:
    log_in(page, base_url)
    event_id = _event_id(base_url, "thursday-club-night")
    page.goto(f"{base_url}/director/events/{event_id}")
    page.get_by_role("link", name="rating list").click()
    page.wait_for_load_state()
    list_url = page.url

    saved = _save_options(page, provisional_below=THRESHOLD, public=True)
    rows = page.locator("table.data tbody tr").all_inner_texts()
    page.screenshot(path=screenshot_path("club-ratings-options"), full_page=True)

    assert "The rating list's options are saved." in saved
    assert rows, "the demo club has a rating list"
    for row in rows:
        cells = row.split("\t")
        experience = int(cells[4])
        assert cells[1].strip().endswith(" P") == (experience < THRESHOLD), row

    visitor_context = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    visitor = visitor_context.new_page()
    try:
        visitor.goto(f"{base_url}/events/thursday-club-night/players")
        visitor.locator("ul.found a").first.click()
        visitor.wait_for_load_state()
        name = visitor.locator("h1 a").inner_text()
        visitor.locator("h1 a").click()
        visitor.wait_for_load_state()
        profile_url = visitor.url
        heading = visitor.locator("h1").inner_text()
        meta = visitor.locator("p.meta").inner_text()
        chart_width = visitor.locator("figure.rating-chart img").evaluate("i => i.naturalWidth")
        events = visitor.locator("#events-heading + table tbody tr").all_inner_texts()
        visitor.screenshot(path=screenshot_path("club-player-public"), full_page=True)
    finally:
        visitor_context.close()

    assert re.search(r"/clubs/fjordside/players/\d+$", profile_url)
    assert heading.startswith(name)
    assert re.search(r"Rating \d+\.\d\d", meta)
    assert chart_width > 0
    assert any(row.startswith("Thursday Club Night") for row in events)

    page.goto(list_url)
    closed = _save_options(page, provisional_below=0, public=False)
    assert "The rating list's options are saved." in closed
    assert _status(profile_url) == 404
