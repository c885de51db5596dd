"""A director uploads a gnubg match record, queues its analysis, the worker runs it, and
the match page shows each player's error rate, PR, luck and biggest errors with the
positions drawn; a match in play shows each player's chance to win it.

Expected: the record's error rates by gnubg 1.07 itself are 56.3 and 50.0 mEMG per
decision (tests/data/analysis/expected.json); after one single game of a 3-point match
the leader (2-away against 3-away) has 59.9% by gnubg's match equity table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import (
    add_flight,
    add_game,
    add_to_roster,
    create_event,
    draw_and_publish,
    enter_player,
    flash,
    log_in,
    open_flight,
    open_match,
)

from tourney.config import load_settings
from tourney.store.analyses import run_next_job
from tourney.store.db import engine_from_settings

RECORD = Path(__file__).resolve().parent.parent / "data" / "analysis" / "gnubg_L03_s1043.mat"
FIELD = [("GnubgA", "NO"), ("Ann Lee", "IE"), ("Bob Hart", "GB"), ("GnubgB", "DK")]


def _run_worker(folder: Path) -> int | None:
    """What ``tourney worker --once`` does, in this process, on the live app's database."""
    url = f"sqlite:///{folder / 'tourney.db'}"
    engine = engine_from_settings(load_settings({"DATABASE_URL": url}))
    try:
        return run_next_job(engine)
    finally:
        engine.dispose()


def test_an_uploaded_record_is_analysed_and_chances_follow_the_score(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Analysis night")
    for name, country in FIELD:
        add_to_roster(page, base_url, name, country)
    for seed, (name, _) in enumerate(FIELD, start=1):
        enter_player(page, event_url, name, seed)
    add_flight(page, event_url, "Main", length="3")
    main_url = open_flight(page, event_url, "Main")
    draw_and_publish(page, "Seeded (by seed, then rating)")

    # Seeds 2 and 3 play game by game: Ann Lee wins the first game, 1-0.
    open_match(page, main_url, "Ann Lee", "Bob Hart")
    add_game(page, "Ann Lee")
    chances = page.locator("section.chances li").all_text_contents()
    page.screenshot(path=str(screenshot_path("analysis-winning-chances")), full_page=True)

    # Seeds 1 and 4 play by the gnubg record; its analysis is queued, then run.
    open_match(page, main_url, "GnubgA", "GnubgB")
    page.get_by_label("Match file (.mat, or a .json match record)").set_input_files(str(RECORD))
    page.get_by_role("button", name="Upload and check").click()
    assert "Record read" in flash(page)
    waiting = page.locator("section.analysis").inner_text()
    page.get_by_role("button", name="Analyse the record").click()
    queued = flash(page)
    job = _run_worker(tmp_path)
    page.reload()
    rows = page.locator("table.analysis-figures tbody tr")
    figures = [rows.nth(i).locator("td").all_text_contents() for i in range(rows.count())]
    diagrams = page.locator("section.analysis pre.diagram").count()
    page.screenshot(path=str(screenshot_path("analysis-match-page")), full_page=True)

    # The public match page and the event's performance page show the same figures.
    match_id = page.url.rstrip("/").split("/")[-1]
    page.goto(event_url)
    page.get_by_role("link", name="Public page").first.click()
    public_url = page.url.split("?")[0].rstrip("/")
    page.goto(f"{public_url}/matches/{match_id}")
    rates_cells = "table.analysis-figures tbody tr td:nth-child(2)"
    public_rates = page.locator(rates_cells).all_text_contents()
    page.screenshot(path=str(screenshot_path("analysis-public-match-page")), full_page=True)
    page.goto(f"{public_url}/performance")
    performance = page.locator("table.performance tbody th").all_text_contents()
    page.screenshot(path=str(screenshot_path("analysis-performance")), full_page=True)

    assert chances == ["Ann Lee 59.9%", "Bob Hart 40.1%"]
    assert "The record has not been analysed." in waiting
    assert queued == "The record is queued for analysis."
    assert job is not None
    error_rates = [float(row[0]) for row in figures]
    assert [abs(ours - theirs) <= max(1.0, 0.05 * theirs)
            for ours, theirs in zip(error_rates, [56.3, 50.0], strict=True)] == [True, True]
    # PR is half the error rate.
    assert [abs(float(row[1]) - rate / 2) <= 0.1
            for row, rate in zip(figures, error_rates, strict=True)] == [True, True]
    assert diagrams == 8
    assert public_rates == [row[0] for row in figures]
    assert sorted(performance) == ["GnubgA", "GnubgB"]
