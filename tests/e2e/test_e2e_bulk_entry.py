"""A director enters several roster players at once and changes seeds, in a real browser.

From a new event's entries page: roster players found with the search and ticked, entered
with "Enter selected"; one more entered from a pasted name; a seed set in the list, and a
seed another player holds refused with the reason. A screenshot of the entries page goes
to ``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import add_to_roster, create_event, flash, log_in

PLAYERS = ["Bulk Alder", "Bulk Birch", "Bulk Cedar"]


def entry_names(page: Any) -> list[str]:
    """The players of the entries list, top to bottom."""
    rows = page.locator("table.entries tbody th[scope=row]")
    return [str(text).strip() for text in rows.all_inner_texts()]


def test_director_enters_several_roster_players_at_once_and_changes_a_seed(
    page: Any, base_url: str
) -> None:
    log_in(page, base_url)
    for name in [*PLAYERS, "Zoë Paste"]:
        add_to_roster(page, base_url, name)
    event_url = create_event(page, base_url, "Bulk Night")
    page.goto(f"{event_url}/entries")

    page.get_by_label("Find roster players not entered").fill("bulk")
    page.get_by_role("button", name="Find").first.click()
    for name in PLAYERS:
        page.get_by_label(name).check()
    page.get_by_role("button", name="Enter selected").click()

    assert "3 players entered: Bulk Alder, Bulk Birch, Bulk Cedar." in flash(page)
    assert entry_names(page) == PLAYERS

    page.get_by_label("Names, one per line").fill("paste, zoe")
    page.get_by_role("button", name="Enter these names").click()

    assert "1 player entered: Zoë Paste." in flash(page)
    assert entry_names(page) == [*PLAYERS, "Zoë Paste"]

    page.get_by_role("spinbutton", name="Seed: Bulk Cedar").fill("1")
    page.get_by_role("button", name="Set seed: Bulk Cedar").click()

    assert "Bulk Cedar now has seed 1." in flash(page)
    assert entry_names(page) == ["Bulk Cedar", "Bulk Alder", "Bulk Birch", "Zoë Paste"]

    page.get_by_role("spinbutton", name="Seed: Zoë Paste").fill("1")
    page.get_by_role("button", name="Set seed: Zoë Paste").click()

    alert = page.get_by_role("alert").first.inner_text()
    refused = "Zoë Paste was not given seed 1: seed 1 is Bulk Cedar’s. Change or clear that seed"
    assert refused in alert
    page.screenshot(path=str(screenshot_path("bulk-entry")), full_page=True)
