"""A club night in a real browser, section by section of what a director does.

* Setting up: a namesake is caught with the existing player named, and the roster
  search ignores accents, case and apostrophe forms; "Check in everyone"; a draw made
  from the players checked in, naming those left out.
* The draw and the results: the public page says "Not drawn yet" with no DRAWN badge
  before publishing; a table already in use is refused with the reason; withdrawing
  asks first and says what happens; a consolation fed by the first round of a
  12-player draw counts its 4 players; a record file that breaks the rules is refused
  on the match page with its file, game, line and reason, and one whose player names
  are not the match's asks who is who and is then used.
* Swiss pairing: the bye counts as a win only once its round is played (the pairing
  objective itself is checked against brute force and networkx in tests/formats).
* Printing: "Print this round" gives the round's pairings, and the standings PDF
  prints every heading apart.
* Private events: the share link shows as soon as the event is made private.

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from browser_harness import screenshot_path
from test_e2e_director import (
    add_flight,
    add_to_roster,
    create_event,
    enter_final_score,
    enter_player,
    flash,
    log_in,
    open_flight,
    open_match,
)

CLUB = [
    "Anna Ek",
    "Ben Olsen",
    "Cleo Hart",
    "Dan Moss",
    "Eli Shaw",
    "Fay Lund",
    "Gus Berg",
    "Hal Roth",
    "Ida Voss",
    "Jan Kerr",
    "Kai Nord",
    "Liv Dahl",
]


def _club_event(page: Any, base_url: str, name: str, players: list[str]) -> str:
    log_in(page, base_url)
    for player in players:
        add_to_roster(page, base_url, player)
    event_url = create_event(page, base_url, name)
    for player in players:
        enter_player(page, event_url, player)
    return event_url


def _check_in(page: Any, event_url: str, name: str) -> None:
    page.goto(f"{event_url}/entries")
    page.get_by_role("button", name=f"Check in: {name}").click()
    page.wait_for_load_state()


def _make_public(page: Any) -> str:
    """Make the open event public from its sharing page; returns its public address."""
    public = str(page.get_by_role("link", name="Public page").first.get_attribute("href"))
    page.get_by_role("link", name="Sharing and visibility").click()
    page.wait_for_load_state()
    if page.get_by_role("button", name="Make public").count():
        page.get_by_role("button", name="Make public").click()
        page.wait_for_load_state()
    return public if public.startswith("http") else page.url.split("/director")[0] + public


# --- setting up ----------------------------------------------------------------------


def test_setting_up_catches_namesakes_and_draws_the_players_present(
    page: Any, base_url: str
) -> None:
    log_in(page, base_url)
    add_to_roster(page, base_url, "Zoë O’Brien", "IE")

    # The same person typed another way is caught, and the warning names her.
    page.goto(f"{base_url}/director/players")
    form = page.locator("form", has=page.get_by_role("button", name="Add player"))
    form.get_by_label("Name", exact=True).fill("OBrien, zoe")
    form.get_by_role("button", name="Add player").click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("club-night-namesake"), full_page=False)
    assert "Already on the roster: Zoë O’Brien" in page.content()
    assert page.get_by_label(re.compile("Add as a new player")).is_visible()

    for typed in ("obrien", "zoe", "O'BRIEN"):
        page.goto(f"{base_url}/director/players")
        page.get_by_label("Search the roster").fill(typed)
        page.get_by_role("button", name="Search").click()
        page.wait_for_load_state()
        names = page.locator("table.list tbody th").all_inner_texts()
        assert "Zoë O’Brien" in names, typed

    players = CLUB[:6]
    for player in players:
        add_to_roster(page, base_url, player)
    event_url = create_event(page, base_url, "Tuesday Club Night")
    for player in players:
        enter_player(page, event_url, player)
    for player in players[:4]:
        _check_in(page, event_url, player)
    add_flight(page, event_url, "Main", length="3")
    open_flight(page, event_url, "Main")
    left_out = page.locator("#left-out").inner_text()
    page.screenshot(path=screenshot_path("club-night-left-out"), full_page=False)
    assert "Eli Shaw" in left_out and "Fay Lund" in left_out
    assert "Anna Ek" not in left_out
    page.get_by_label("Draw", exact=True).select_option(label="Random")
    page.get_by_role("button", name="Make the draw").click()
    page.wait_for_load_state()
    bracket = page.locator(".ko-board").inner_text()
    assert all(name in bracket for name in players[:4])
    assert "Eli Shaw" not in bracket and "Fay Lund" not in bracket
    assert "4 players" in page.locator("p.meta").first.inner_text()

    # Everyone arrives after all: one button checks in the rest.
    page.goto(f"{event_url}/entries")
    page.get_by_role("button", name="Check in everyone").click()
    page.wait_for_load_state()
    assert "6 checked in" in page.locator("p.meta").first.inner_text()
    assert page.locator("tr.present").count() == 6


# --- the draw and the results --------------------------------------------------------


def test_draw_counts_tables_and_withdrawal_read_right(page: Any, base_url: str) -> None:
    event_url = _club_event(page, base_url, "Anchor Twelve", CLUB)
    add_flight(page, event_url, "Main", length="3")
    add_flight(page, event_url, "Consolation", length="3", feeds_from="Main")
    main_url = open_flight(page, event_url, "Main")
    page.get_by_label("Draw", exact=True).select_option(label="Random")
    page.get_by_role("button", name="Make the draw").click()
    page.wait_for_load_state()

    # Before publishing, the public page says it is not drawn, with no badge saying drawn.
    page.goto(event_url)
    public_url = _make_public(page)
    slug_link = page.context.browser.new_context().new_page()
    slug_link.goto(public_url)
    card = slug_link.locator("li.card", has_text="Main")
    assert "Not drawn yet." in card.inner_text()
    assert "DRAWN" not in card.inner_text().upper().replace("NOT DRAWN", "")
    slug_link.context.close()

    page.goto(main_url)
    page.get_by_role("button", name="Publish", exact=True).click()
    assert "Published" in flash(page)

    # A table already given to another match is refused, with the reason.
    page.goto(main_url)
    boxes = page.locator("#tables input[name=table]")
    taken = boxes.nth(0).input_value()
    boxes.nth(1).fill(taken)
    page.locator("#tables button", has_text="Set table").nth(1).click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("club-night-table-clash"), full_page=False)
    assert re.search(rf"[Tt]able {re.escape(taken)} is (already )?(in use|taken)", page.content())

    # Withdrawing asks first and says what happens to the player's match.
    open_match(page, main_url)
    a_side = page.locator(".scoreboard .side .name").first.inner_text().strip()
    page.goto(f"{event_url}/entries")
    page.get_by_role("link", name=f"Withdraw: {a_side}").click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("club-night-withdraw-confirm"), full_page=False)
    text = page.locator("main").inner_text()
    assert a_side in text and "walkover" in text.lower()
    assert page.get_by_role("button", name=re.compile("Withdraw")).is_visible()

    # Twelve players in a bracket of 16: four byes, so four first-round matches and four
    # losers for the consolation.
    for _ in range(4):
        page.goto(main_url)
        page.locator("#round-1 .match-ready").first.get_by_role("link").click()
        page.wait_for_load_state()
        enter_final_score(page, "", 1)
    open_flight(page, event_url, "Consolation")
    page.screenshot(path=screenshot_path("club-night-consolation-count"), full_page=False)
    assert "4 players" in page.locator("p.meta").first.inner_text()


# --- Swiss ---------------------------------------------------------------------------


def test_swiss_bye_counts_only_once_its_round_is_played(page: Any, base_url: str) -> None:
    event_url = _club_event(page, base_url, "Swiss Five", CLUB[:5])
    add_flight(page, event_url, "Open", format="Swiss", length="3", rounds="3")
    flight_url = open_flight(page, event_url, "Open")
    page.get_by_label("Draw", exact=True).select_option(label="Random")
    page.get_by_role("button", name="Make the draw").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    page.wait_for_load_state()
    bye_row = page.locator("tr.match", has=page.locator("em", has_text="bye"))
    bye_player = bye_row.locator("td").nth(1).inner_text().strip()

    def wins_of(name: str) -> str:
        page.goto(flight_url)
        table = page.locator("table.standings")
        headings = [h.strip().lower() for h in table.locator("thead th").all_inner_texts()]
        column = next(i for i, h in enumerate(headings) if h.startswith("win"))
        row = table.locator("tbody tr", has_text=name)
        return str(row.locator("th, td").nth(column).inner_text()).strip()

    # The round is still being played: the bye is not yet a win in the standings.
    assert wins_of(bye_player) == "0"
    open_match(page, flight_url)
    enter_final_score(page, "", 1)
    open_match(page, flight_url)
    enter_final_score(page, "", 1)
    assert wins_of(bye_player) == "1"
    page.screenshot(path=screenshot_path("club-night-swiss-bye"), full_page=True)


# --- printing ------------------------------------------------------------------------


def _pdf_text(data: bytes, folder: Path) -> str:
    path = folder / "printed.pdf"
    path.write_bytes(data)
    done = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return done.stdout


def test_printing_one_round_and_standings(page: Any, base_url: str, tmp_path: Path) -> None:
    if subprocess.run(["which", "pdftotext"], capture_output=True).returncode:
        pytest.skip("poppler-utils (pdftotext) is not installed")
    event_url = _club_event(page, base_url, "Print Night", CLUB[:6])
    add_flight(page, event_url, "Open", format="Swiss", length="3", rounds="3")
    flight_url = open_flight(page, event_url, "Open")
    page.get_by_label("Draw", exact=True).select_option(label="Random")
    page.get_by_role("button", name="Make the draw").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    page.wait_for_load_state()
    for _ in range(3):
        open_match(page, flight_url)
        enter_final_score(page, "", 1)
    page.goto(flight_url)
    page.get_by_role("button", name="Pair next round").click()
    page.wait_for_load_state()

    round_two = page.locator("#round-2 .print-round a").first
    with page.expect_download() as download:
        round_two.click()
    text = _pdf_text(Path(download.value.path()).read_bytes(), tmp_path)
    assert "Round 2" in text and "Round 1" not in text

    page.goto(event_url)
    standings = page.locator("a", has_text=re.compile("Standings")).filter(
        has_text=re.compile("PDF|A4")
    )
    if standings.count() == 0:
        standings = page.locator("a[href*=standings][href*=pdf], a[href*='standings']")
    with page.expect_download() as download:
        standings.first.click()
    text = _pdf_text(Path(download.value.path()).read_bytes(), tmp_path)
    heading = next(line for line in text.splitlines() if "Player" in line)
    # Each heading stands apart: no two run into each other.
    assert re.search(r"Player\s{2,}", heading), heading


# --- private events ------------------------------------------------------------------


def test_private_event_shows_its_share_link_at_once(page: Any, base_url: str) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Members Only")
    page.goto(event_url)
    page.get_by_role("link", name="Sharing and visibility").click()
    page.wait_for_load_state()
    if page.get_by_role("button", name="Make private").count():
        page.get_by_role("button", name="Make private").click()
        page.wait_for_load_state()
    page.screenshot(path=screenshot_path("club-night-share-link"), full_page=False)
    link = page.get_by_label("Give this link (or its QR code) to the players").input_value()
    assert "key=" in link or "/s/" in link
    visitor = page.context.browser.new_context().new_page()
    visitor.goto(link)
    assert "Members Only" in visitor.content()
    visitor.close()


def test_a_record_with_other_names_asks_who_is_who(page: Any, base_url: str) -> None:
    record = Path(__file__).resolve().parent.parent / "data" / "e2e" / "gnubg_L03_s1037.mat"
    event_url = _club_event(page, base_url, "Record Night", CLUB[:2])
    add_flight(page, event_url, "Final", length="3")
    flight_url = open_flight(page, event_url, "Final")
    page.get_by_label("Draw", exact=True).select_option(label="Random")
    page.get_by_role("button", name="Make the draw").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    page.wait_for_load_state()
    open_match(page, flight_url)
    a_side, b_side = (n.strip() for n in page.locator(".scoreboard .side .name").all_inner_texts())

    # A file that breaks the rules is refused on the match page, saying where and why.
    broken = record.read_text(encoding="utf-8")
    broken = broken.replace("52: 13/8 24/22", "52: 13/7 24/22", 1)
    upload = page.get_by_label("Match file (.mat, or a .json match record)")
    upload.set_input_files(
        files=[{"name": "broken.mat", "mimeType": "text/plain", "buffer": broken.encode()}]
    )
    page.get_by_role("button", name="Upload and check").click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("club-night-record-refused"), full_page=True)
    problems = page.locator("table", has_text="Problem").inner_text()
    assert "broken.mat" in problems and "13/7" in problems

    # The raw gnubg names are not the players': the director says who is who.
    page.get_by_label("Match file (.mat, or a .json match record)").set_input_files(str(record))
    page.get_by_role("button", name="Upload and check").click()
    page.wait_for_load_state()
    page.screenshot(path=screenshot_path("club-night-who-is-who"), full_page=True)
    assert page.get_by_role("heading", name="Who is who in gnubg_L03_s1037.mat?").is_visible()
    page.get_by_label("GnubgA is").select_option(label=b_side)
    page.get_by_role("button", name="Use the record").click()
    page.wait_for_load_state()
    # GnubgA wins the file 4-2 (1, 1, then GnubgB 2, then GnubgA 2): here the B side wins.
    assert f"Saved. {b_side} wins" in flash(page)
    assert a_side in page.locator(".scoreboard").inner_text()
