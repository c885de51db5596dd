"""A divisional event with a handicap start, end to end in a real browser.

The director creates an event with backgammon's five-checker limit, enters four players,
lists the divisions Open, Intermediate and Novice, puts two players in Open and two in
Novice, gives the mixed Swiss a handicap of 1 point per division, draws and publishes it,
and enters a game in an Open v Novice match (the Novice player starts 2 up in a 7-point
match). The public match page shows the handicap start and the house rule; the score
sheet PDF shows the start beside each name.

Screenshots go to ``test-artifacts/``: ``divisions-director``, ``divisions-match``,
``divisions-public-match`` and ``divisions-scoresheet`` (the PDF's first page, by
pdftoppm).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from browser_harness import screenshot_path
from test_e2e_director import add_flight, add_to_roster, enter_player, flash, log_in

OPEN = ["Olga Open", "Oscar Open"]
NOVICE = ["Nina Novice", "Ned Novice"]
DRAW_SEED = "1"
"""A stored seed whose random draw pairs each Open player with a Novice one."""


def test_divisional_event_with_a_handicap_start(page: Any, base_url: str,
                                                tmp_path: Path) -> None:
    log_in(page, base_url)
    page.goto(f"{base_url}/director/events/new")
    page.get_by_label("Name", exact=True).fill("Divisional Cup")
    page.locator("#standard_five_checker_limit").check()
    page.get_by_role("button", name="Create event").click()
    page.wait_for_load_state()
    event_url = str(page.url)
    event_id = int(re.search(r"/events/(\d+)", event_url).group(1))  # type: ignore[union-attr]
    for name in OPEN + NOVICE:
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name)
    add_flight(page, event_url, "Mixed", format="Swiss", length="7", rounds="1")

    # Divisions, the players' divisions and the flight's handicap rule.
    page.goto(event_url)
    page.get_by_role("link", name="Divisions and handicaps").click()
    page.get_by_label("Divisions, strongest first, one per line").fill(
        "Open\nIntermediate\nNovice")
    page.get_by_role("button", name="Save divisions").click()
    assert "Divisions saved." in flash(page)
    for name in OPEN:
        page.get_by_label(name, exact=True).select_option("Open")
    for name in NOVICE:
        page.get_by_label(name, exact=True).select_option("Novice")
    page.get_by_role("button", name="Save players’ divisions").click()
    assert "Players' divisions saved." in flash(page)
    page.get_by_label("Handicap of Mixed").fill("1")
    page.get_by_role("button", name="Save Mixed").click()
    assert "Flight's division rule saved." in flash(page)
    page.screenshot(path=str(screenshot_path("divisions-director")), full_page=True)

    # Draw and publish; the Open v Novice pairings start 2-0 to the Novice player.
    page.goto(event_url)
    page.locator("ul.flights").get_by_role("link", name="Mixed", exact=True).click()
    draw = page.locator("form", has=page.get_by_role("button", name="Make the draw"))
    draw.get_by_label("Draw", exact=True).select_option(label="Random")
    draw.get_by_label("Seed", exact=True).fill(DRAW_SEED)
    draw.get_by_role("button", name="Make the draw").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    rows = page.locator(".match-ready")
    mixed = [i for i in range(rows.count())
             if any(n in rows.nth(i).inner_text() for n in OPEN)
             and any(n in rows.nth(i).inner_text() for n in NOVICE)]
    if not mixed:
        pytest.skip("the random draw paired the divisions among themselves")
    rows.nth(mixed[0]).get_by_role("link").first.click()
    page.wait_for_load_state()
    a, b = (t.strip() for t in page.locator(".scoreboard .side .name").all_inner_texts())
    start_text = page.get_by_test_id("handicap-start").inner_text()
    expected = f"Handicap start: {a} {0 if a in OPEN else 2}, {b} {0 if b in OPEN else 2}"

    # A game: the Open player wins a gammon, 2 points, so the score is 2-2.
    opener = a if a in OPEN else b
    form = page.locator("form", has=page.get_by_role("button", name="Add game"))
    form.get_by_label("Winner").select_option(label=opener)
    form.get_by_label("Ended").select_option(label="Played out")
    form.get_by_label("Result").select_option(label="Gammon")
    form.get_by_role("button", name="Add game").click()
    page.wait_for_load_state()
    points = page.locator(".scoreboard .points").all_inner_texts()
    page.screenshot(path=str(screenshot_path("divisions-match")), full_page=True)
    match_path = re.search(r"/matches/(\d+)", page.url).group(1)  # type: ignore[union-attr]

    # Public pages: make the event public and open the match.
    page.goto(f"{base_url}/director/events/{event_id}/sharing")
    page.get_by_role("button", name="Make public").click()
    page.goto(event_url)
    slug = page.locator("a", has_text="Public page").first.get_attribute("href")
    page.goto(f"{base_url}{slug}/matches/{match_path}")
    public_start = page.get_by_test_id("handicap-start").inner_text()
    rules = page.locator("ul.tags").first.inner_text()
    page.screenshot(path=str(screenshot_path("divisions-public-match")), full_page=True)

    # The score sheets (PDF), first page as a picture.
    sheet = page.request.get(f"{base_url}/director/events/{event_id}/downloads/scoresheets.pdf")
    pdf = tmp_path / "scoresheets.pdf"
    pdf.write_bytes(sheet.body())
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile",
                        str(pdf), str(screenshot_path("divisions-scoresheet").with_suffix(""))],
                       check=True)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=False).stdout if shutil.which("pdftotext") else ""

    assert start_text.strip() == expected
    assert public_start.strip() == expected
    assert sorted(points) == ["2", "2"]
    assert "At most five checkers on a point" in rules
    assert "Divisions: Open, Intermediate, Novice" in rules
    assert sheet.status == 200
    if text:
        assert "starts at 2" in text
        assert "House rules: five-checker limit." in text
