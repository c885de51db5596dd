"""A team league in a real browser: a director adds a round robin of fixtures of three
boards, enters three teams (one with a pair consulting on a board), draws each round,
enters every board's final score on the ordinary match page, and reads the fixture and
the team standings, then the public pages on a phone.

Worked by hand: teams are seeded Rooks 1, Knights 2, Bishops 3; in every fixture the
better seed's players win boards 1 and 2 (3-1) and lose board 3 (1-3), so each fixture
ends 2-1 with board points 3+3+1 = 7 to 1+1+3 = 5. Over the three rounds (each team has
one bye, which counts nothing in a round robin): Rooks 2 fixtures, 4 boards, 14 points;
Knights 1 fixture, 2+1 = 3 boards, 5+7 = 12 points; Bishops 0 fixtures, 1+1 = 2 boards,
5+5 = 10 points.

Screenshots go to ``test-artifacts/`` (``teams-list``, ``teams-fixture``,
``teams-standings``, ``teams-public-phone``, ``teams-public-fixture-phone``).
"""

from __future__ import annotations

from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import create_event, enter_final_score, flash, log_in, sides

TEAMS = {
    "Rooks": ["Rook Ann", "Rook Al & Rook Amy", "Rook Ada"],
    "Knights": ["Knight Ben", "Knight Bo", "Knight Bea"],
    "Bishops": ["Bishop Cy", "Bishop Cal", "Bishop Cat"],
}
SEED = {"Rooks": 1, "Knights": 2, "Bishops": 3}
PREFIX = {"Rooks": "Rook", "Knights": "Knight", "Bishops": "Bishop"}
PHONE = {"width": 390, "height": 844}


def _team_of(player: str) -> str:
    return next(team for team, prefix in PREFIX.items() if player.startswith(prefix + " "))


def _play_fixture(page: Any, fixture_url: str) -> None:
    """Enter the fixture's three boards: the better seed wins boards 1 and 2 by 3-1 and
    loses board 3 by 1-3."""
    for board in range(3):
        page.goto(fixture_url)
        page.locator("table.boards a").nth(board).click()
        page.wait_for_load_state()
        a, b = sides(page)
        better, worse = (a, b) if SEED[_team_of(a)] < SEED[_team_of(b)] else (b, a)
        enter_final_score(page, better if board < 2 else worse, 1, length=3)


def test_director_runs_a_team_league(page: Any, base_url: str) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Anchor Teams")
    page.get_by_role("link", name="Add flight").click()
    page.get_by_label("Name", exact=True).fill("League")
    page.get_by_label("Format").select_option(label="Round robin")
    page.get_by_label("Match length (points)").fill("3")
    page.get_by_label("Teams: boards per fixture").fill("3")
    page.get_by_role("button", name="Add flight").click()
    league_added = flash(page)

    page.goto(event_url)
    page.get_by_role("link", name="Teams", exact=True).click()
    teams_url = page.url
    form = page.locator("#add-team")
    form.get_by_label("Team name").fill("Solo")
    form.get_by_label("Players in board order").fill("Sam Single")
    form.get_by_role("button", name="Enter team").click()
    refused = page.locator("#add-team").inner_text()
    entered = []
    for name, members in TEAMS.items():
        page.goto(teams_url)
        form = page.locator("#add-team")
        form.get_by_label("Team name").fill(name)
        form.get_by_label("Seed").fill(str(SEED[name]))
        form.get_by_label("Players in board order").fill("\n".join(members))
        form.get_by_role("button", name="Enter team").click()
        entered.append(flash(page))
    page.screenshot(path=str(screenshot_path("teams-list")), full_page=True)
    rooks = page.locator("li.card", has=page.get_by_role("heading", name="Rooks")).inner_text()

    page.get_by_role("link", name="League: fixtures and standings").click()
    league_url = page.url
    drawn = []
    for number in (1, 2, 3):
        page.goto(league_url)
        page.get_by_role("button", name=f"Draw round {number}").click()
        drawn.append(flash(page))
        page.locator(f"#round-{number} a[href*='/director/fixtures/']").click()
        page.wait_for_load_state()
        fixture_url = page.url
        _play_fixture(page, fixture_url)
        if number == 1:
            page.goto(fixture_url)
            page.screenshot(path=str(screenshot_path("teams-fixture")), full_page=True)
            first_fixture = page.locator("main").inner_text()
            first_boards = page.locator("table.boards tbody tr").all_inner_texts()
    page.goto(league_url)
    page.screenshot(path=str(screenshot_path("teams-standings")), full_page=True)
    standings = page.locator("#standings tbody tr").all_inner_texts()
    over = page.locator("#next-round").inner_text()

    page.goto(event_url + "/sharing")
    page.get_by_role("button", name="Make public").click()
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}/events/anchor-teams")
    page.get_by_role("link", name="Fixtures and team standings").click()
    page.screenshot(path=str(screenshot_path("teams-public-phone")), full_page=True)
    public_standings = page.locator("table.team-standings tbody tr").all_inner_texts()
    page.locator("table.fixtures a").last.click()
    page.wait_for_load_state()
    page.screenshot(path=str(screenshot_path("teams-public-fixture-phone")), full_page=True)
    public_fixture = page.locator("main").inner_text()

    assert league_added == "Flight “League” added."
    assert "Team 'Solo' has 1 player(s); a team needs 2 to 7." in refused
    assert entered == [f"Team “{name}” entered." for name in TEAMS]
    assert [line.strip() for line in rooks.splitlines() if line.strip()] == [
        "Rooks seed 1",
        "Rook Ann",
        "Rook Al & Rook Amy",
        "Rook Ada",
    ]
    assert drawn == ["Round 1 drawn.", "Round 2 drawn.", "Round 3 drawn."]
    assert "2–1 Knights won on boards" in first_fixture
    assert [" ".join(row.split()) for row in first_boards] == [
        "1 Knight Ben Bishop Cy 3–1 3",
        "2 Knight Bo Bishop Cal 3–1 3",
        "3 Knight Bea Bishop Cat 1–3 3",
    ]
    assert [" ".join(row.split()) for row in standings] == [
        "1 Rooks 2 4 14",
        "2 Knights 1 3 12",
        "3 Bishops 0 2 10",
    ]
    assert over == "Every team has met every other: the round robin is over."
    assert [" ".join(row.split()) for row in public_standings] == [
        "1 Rooks 2 4 14",
        "2 Knights 1 3 12",
        "3 Bishops 0 2 10",
    ]
    assert "won on boards" in public_fixture
