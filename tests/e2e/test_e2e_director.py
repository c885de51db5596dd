"""The director's evening, end to end in a real browser.

Two scenarios from the director's side, each starting from the login page of a live app
over the sample events:

* an 8-player knockout with a consolation fed by the first-round losers: players added to
  the roster and entered by hand, a seeded draw reviewed and published, and every match
  entered — one game by game through its Crawford game, one from a gnubg ``.mat`` record,
  the rest as final scores — until the champion and the consolation winner are shown;
* a 7-player Swiss of three rounds with a bye each round, every result entered, and the
  final standings shown.

Screenshots of the main pages go to ``test-artifacts/`` (laptop and tablet widths).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_harness import DEMO_LOGIN, screenshot_path

RECORD = Path(__file__).resolve().parent.parent / "data" / "e2e" / "gnubg_L03_s1037.mat"
TABLET = {"width": 820, "height": 1180}

# Seeds 1..8; the seeded draw pairs 1-8, 4-5, 2-7, 3-6. The gnubg record's players are
# GnubgA and GnubgB, so seeds 1 and 8 meet in the first round and play it by the file.
KNOCKOUT_FIELD = [
    ("GnubgA", "NO"),
    ("Ann Lee", "IE"),
    ("Sigrún Ólafsdóttir", "IS"),
    ("Carla Diaz", "ES"),
    ("Dev Patel", "GB"),
    ("Eva Novak", "CZ"),
    ("Finn Walsh", "IE"),
    ("GnubgB", "DK"),
]
SWISS_FIELD = [
    "Hana Sato",
    "Ivo Petrov",
    "Jon Berg",
    "Kim Olsen",
    "Lea Roth",
    "Max Vogel",
    "Nia Hart",
]


# --- steps a director takes ----------------------------------------------------------


def log_in(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/login")
    page.get_by_label("E-mail address").fill(DEMO_LOGIN[0])
    page.get_by_label("Password").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def flash(page: Any) -> str:
    """The text of the page's flashed messages."""
    return str(page.locator(".flashes").inner_text())


def create_event(page: Any, base_url: str, name: str) -> str:
    """Create an event from "My events"; returns the dashboard's URL."""
    page.goto(f"{base_url}/director/")
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Venue").fill("The Anchor, upstairs")
    page.get_by_role("button", name="Create event").click()
    assert f"Event “{name}” created" in flash(page)
    return str(page.url)


def add_to_roster(page: Any, base_url: str, name: str, country: str = "") -> None:
    page.goto(f"{base_url}/director/players")
    form = page.locator("form", has=page.get_by_role("button", name="Add player"))
    form.get_by_label("Name", exact=True).fill(name)
    form.get_by_label("Country").fill(country)
    form.get_by_role("button", name="Add player").click()
    assert f"{name} added to the roster." in flash(page)


def enter_player(page: Any, event_url: str, name: str, seed: int | None = None) -> None:
    page.goto(f"{event_url}/entries")
    select = page.get_by_label("Player", exact=True)
    label = select.locator("option", has_text=re.compile(rf"^{re.escape(name)}( \(|$)"))
    select.select_option(label=label.first.inner_text())
    if seed is not None:
        page.get_by_label("Seed", exact=True).fill(str(seed))
    page.get_by_role("button", name="Enter player").click()
    assert f"{name} entered." in flash(page)


def add_flight(page: Any, event_url: str, name: str, **settings: str) -> None:
    page.goto(event_url)
    page.get_by_role("link", name="Add flight").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Format").select_option(label=settings.get("format", "Knockout"))
    page.get_by_label("Match length (points)").fill(settings.get("length", "3"))
    if "rounds" in settings:
        page.get_by_label("Swiss: rounds").fill(settings["rounds"])
    if "feeds_from" in settings:
        page.get_by_label("Losers come from").select_option(label=settings["feeds_from"])
        page.get_by_label("…of rounds").fill(settings.get("feed_rounds", "1"))
    page.get_by_role("button", name="Add flight").click()
    assert f"Flight “{name}” added." in flash(page)


def open_flight(page: Any, event_url: str, name: str) -> str:
    page.goto(event_url)
    page.locator("ul.flights").get_by_role("link", name=name, exact=True).click()
    page.wait_for_load_state()
    return str(page.url)


def draw_and_publish(page: Any, method: str) -> None:
    page.get_by_label("Draw", exact=True).select_option(label=method)
    page.get_by_role("button", name="Make the draw").click()
    assert "Review the draw, then publish it." in flash(page)
    page.get_by_role("button", name="Publish", exact=True).click()
    assert "Published" in flash(page)


def open_match(page: Any, flight_url: str, *names: str) -> None:
    """Open the match of these players (or the first one waiting) from the flight page."""
    page.goto(flight_url)
    rows = page.locator(".match-ready")
    for name in names:
        rows = rows.filter(has_text=name)
    rows.first.get_by_role("link").click()
    page.wait_for_load_state()


def sides(page: Any) -> tuple[str, str]:
    """The players of the open match, side A first."""
    a, b = page.locator(".scoreboard .side .name").all_inner_texts()
    return a.strip(), b.strip()


def enter_final_score(page: Any, winner: str, loser_points: int, length: int = 3) -> str:
    """Enter the open match as a final score won by ``winner`` (or side A when empty)."""
    a, _ = sides(page)
    winner = winner or a
    score = f"{length}-{loser_points}" if winner == a else f"{loser_points}-{length}"
    page.get_by_label("Final score").fill(score)
    page.get_by_role("button", name="Save final score").click()
    assert f"Saved. {winner} wins" in flash(page)
    return winner


def add_game(page: Any, winner: str, *, level: str = "Single", cube: str = "1") -> None:
    form = page.locator("form", has=page.get_by_role("button", name="Add game"))
    form.get_by_label("Winner").select_option(label=winner)
    form.get_by_label("Ended").select_option(label="Played out")
    form.get_by_label("Cube").select_option(value=cube)
    form.get_by_label("Result").select_option(label=level)
    form.get_by_role("button", name="Add game").click()
    page.wait_for_load_state()


def play_out_ready(page: Any, flight_url: str, loser_points: int = 1, length: int = 3) -> list[str]:
    """Enter every match waiting in a flight as won by side A; returns the winners."""
    winners = []
    while True:
        page.goto(flight_url)
        if page.locator(".match-ready").count() == 0:
            return winners
        open_match(page, flight_url)
        winners.append(enter_final_score(page, "", loser_points, length))


# --- the scenarios -------------------------------------------------------------------


def test_director_runs_a_knockout_with_consolation(page: Any, base_url: str) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Anchor Knockout")
    for name, country in KNOCKOUT_FIELD:
        add_to_roster(page, base_url, name, country)
    for seed, (name, _) in enumerate(KNOCKOUT_FIELD, start=1):
        enter_player(page, event_url, name, seed)
    page.screenshot(path=str(screenshot_path("director-entries")), full_page=True)
    add_flight(page, event_url, "Main")
    add_flight(page, event_url, "Consolation", feeds_from="Main", feed_rounds="1")
    main_url = open_flight(page, event_url, "Main")
    draw_and_publish(page, "Seeded (by seed, then rating)")
    page.screenshot(path=str(screenshot_path("director-knockout-drawn")), full_page=True)

    # Seeds 4 and 5 game by game: a gammon (2-0), the Crawford game (2-1), then post-Crawford.
    open_match(page, main_url, "Carla Diaz", "Dev Patel")
    add_game(page, "Carla Diaz", level="Gammon")
    crawford_badge = page.locator("form h2 .badge-crawford").inner_text()
    entry_form = page.locator("form", has=page.get_by_role("button", name="Add game"))
    cube_choices = entry_form.get_by_label("Cube").locator("option").all_text_contents()
    page.screenshot(path=str(screenshot_path("director-match-crawford-entry")), full_page=True)
    add_game(page, "Dev Patel")
    add_game(page, "Dev Patel", cube="2")  # post-Crawford the cube is free again: 2-3
    page.screenshot(path=str(screenshot_path("director-match-crawford")), full_page=True)
    games = page.locator("table.games tbody tr")
    kinds = [games.nth(i).get_attribute("class") for i in range(games.count())]
    assert crawford_badge.casefold() == "crawford game"
    assert cube_choices == ["1 (no doubling)"]
    assert kinds == ["game game-normal", "game game-crawford", "game game-post-crawford"]
    assert "Saved. Dev Patel wins" in flash(page)
    page.set_viewport_size(TABLET)
    page.screenshot(path=str(screenshot_path("director-match-crawford-tablet")), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    # Seeds 1 and 8 from the gnubg record: GnubgA wins 4-2 (a gammon in the Crawford game).
    open_match(page, main_url, "GnubgA", "GnubgB")
    page.get_by_label("Match file (.mat, or a .json match record)").set_input_files(str(RECORD))
    page.get_by_role("button", name="Upload and check").click()
    assert "Record read: 4 games entered. Saved. GnubgA wins" in flash(page)
    assert page.locator("table.games tbody tr.game-crawford").count() == 1

    # The other first-round matches, and the rest of the main draw, as final scores.
    open_match(page, main_url, "Ann Lee", "Finn Walsh")
    enter_final_score(page, "Ann Lee", 1)
    open_match(page, main_url, "Sigrún Ólafsdóttir", "Eva Novak")
    enter_final_score(page, "Sigrún Ólafsdóttir", 2)
    open_match(page, main_url, "GnubgA", "Dev Patel")
    enter_final_score(page, "GnubgA", 0)
    open_match(page, main_url, "Ann Lee", "Sigrún Ólafsdóttir")
    enter_final_score(page, "Ann Lee", 2)
    open_match(page, main_url, "GnubgA", "Ann Lee")
    enter_final_score(page, "Ann Lee", 1)
    consolation_url = open_flight(page, event_url, "Consolation")
    consolation_winners = play_out_ready(page, consolation_url)

    page.goto(main_url)
    main_champion = page.locator(".champion-banner strong").inner_text()
    page.screenshot(path=str(screenshot_path("director-knockout-bracket")), full_page=True)
    page.set_viewport_size(TABLET)
    page.screenshot(path=str(screenshot_path("director-knockout-bracket-tablet")), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(consolation_url)
    consolation_champion = page.locator(".champion-banner strong").inner_text()
    page.goto(event_url)
    page.screenshot(path=str(screenshot_path("director-event-dashboard")), full_page=True)
    winners = page.locator(".dashboard-flight .progress").all_inner_texts()

    assert main_champion == "Ann Lee"
    assert len(consolation_winners) == 3
    assert consolation_champion == consolation_winners[-1]
    assert consolation_champion in {"GnubgB", "Carla Diaz", "Finn Walsh", "Eva Novak"}
    assert [re.search(r"Winner: (.+)$", w).group(1) for w in winners] == [  # type: ignore[union-attr]
        "Ann Lee",
        consolation_champion,
    ]


def test_director_runs_a_seven_player_swiss(page: Any, base_url: str) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Anchor Swiss")
    for name in SWISS_FIELD:
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name)
    add_flight(page, event_url, "Swiss", format="Swiss", length="5", rounds="3")
    swiss_url = open_flight(page, event_url, "Swiss")
    draw_and_publish(page, "Random")

    byes = []
    for number in (1, 2, 3):
        page.goto(swiss_url)
        byes.append(page.locator(f"#round-{number} tr.match-bye").count())
        play_out_ready(page, swiss_url, loser_points=2, length=5)
        page.goto(swiss_url)
        if number < 3:
            page.get_by_role("button", name="Pair next round").click()
            assert "Next round paired." in flash(page)
            page.get_by_role("button", name="Publish", exact=True).click()
            assert "Published" in flash(page)

    page.goto(swiss_url)
    page.screenshot(path=str(screenshot_path("director-swiss-standings")), full_page=True)
    page.set_viewport_size(TABLET)
    page.screenshot(path=str(screenshot_path("director-swiss-standings-tablet")), full_page=True)
    rows = page.locator("table.standings tbody tr")
    wins = [int(rows.nth(i).locator("td.num").nth(1).inner_text()) for i in range(rows.count())]
    status = page.locator("h1 .badge").inner_text()

    assert byes == [1, 1, 1]
    assert rows.count() == 7
    assert sum(wins) == 3 * 3 + 3  # three played matches and one bye (a win) a round
    assert wins == sorted(wins, reverse=True)
    assert status.casefold() == "finished"
