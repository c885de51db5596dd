"""A director uploads GNU Backgammon's .sgf of a match in the browser, and the match's
page offers it back as .mat and .sgf downloads.

The file is gnubg's .sgf of corpus match gnubg_L03_s1037 (GnubgA 4, GnubgB 2 by gnubg's
own scoring)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import (
    add_flight,
    add_to_roster,
    create_event,
    draw_and_publish,
    enter_player,
    flash,
    log_in,
    open_flight,
    open_match,
)

SGF = Path(__file__).resolve().parent.parent / "data" / "sgf" / "gnubg_L03_s1037.sgf"


def test_director_uploads_an_sgf_and_downloads_it_as_mat(page: Any, base_url: str,
                                                         tmp_path: Path) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Anchor Records")
    for seed, name in enumerate(("GnubgA", "GnubgB"), start=1):
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name, seed)
    add_flight(page, event_url, "Main")
    main_url = open_flight(page, event_url, "Main")
    draw_and_publish(page, "Seeded (by seed, then rating)")

    open_match(page, main_url, "GnubgA", "GnubgB")
    page.get_by_label("Match file (.mat, or a .json match record)").set_input_files(str(SGF))
    page.get_by_role("button", name="Upload and check").click()
    assert "Record read: 4 games entered. Saved. GnubgA wins" in flash(page)
    match_id = re.search(r"/matches/(\d+)", page.url)
    assert match_id is not None

    page.goto(event_url)
    page.get_by_role("link", name="Public page").first.click()
    page.wait_for_load_state()
    page.goto(f"{page.url.rstrip('/')}/matches/{match_id.group(1)}")
    links = page.locator(".record-downloads li").all_inner_texts()
    page.locator("h2", has_text="Match record").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path("public-match-record-downloads")), full_page=True)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download as Jellyfish / gnubg match (.mat)").click()
    saved = tmp_path / "download.mat"
    download_info.value.save_as(saved)

    assert links[0].startswith("gnubg_L03_s1037.sgf")
    assert [text.split(" (")[0] for text in links[1:]] == [
        "Download as Jellyfish / gnubg match", "Download as GNU Backgammon match"]
    text = saved.read_text()
    assert " 3 point match" in text
    assert text.count(" Game ") == 4
