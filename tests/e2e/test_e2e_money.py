"""Money play in a real browser: a money session of two players and a five-player chouette
run through the app, with the settlement sheets downloaded and read.

Every total is worked by hand (DESIGN section 7; per point, half a euro a unit):

* The money session (Jacoby rule on): Anna wins a gammon on a cube Boris took at 2
  (2 x 2 = 4 units), then Boris wins a gammon with the cube in the middle, which the
  Jacoby rule counts single (1 unit): Anna +3 units, EUR 1.50; Boris pays Anna EUR 1.50.
* The chouette (box Carl, captain Dora, then Emil, Fay, Gus): game 1 Carl beats all four
  singly (+4; the rest -1); the captain lost, so Dora goes to the end: Emil is captain.
  Game 2: Emil, Fay, Gus and Dora all beat the box, single, cubes in the middle: Carl -4,
  the rest +1; the captain won, so Emil is the box and Carl joins the end of the line.
  After two games everybody stands at 0: Carl won 4 and lost 4, each of the others lost 1
  and won 1.
  Game 3 (box Emil, captain Fay): Fay drops Emil's double (cube 1: Emil +1 from Fay), the
  others lose a gammon on cubes in the middle (2 each from Gus, Dora and Carl): Emil +7.

Screenshots go to ``test-artifacts/`` (``money-session``, ``money-settlement``,
``chouette``, ``chouette-phone``).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import add_to_roster, create_event, enter_player, flash, log_in

HOW = {
    "single": "Single game, played out",
    "gammon": "Gammon, played out",
    "dropped": "Double dropped",
}


def _start(page: Any, event_url: str, name: str, seats: list[str], **options: bool) -> None:
    page.goto(event_url)
    page.get_by_role("link", name="Money sessions").click()
    form = page.locator("form", has=page.get_by_role("button", name="Start"))
    form.get_by_label("Name", exact=True).fill(name)
    labels = ["Box (or first player)", "Captain (or second player)"] + [
        f"Team member {n}" for n in range(1, 7)
    ]
    for label, player in zip(labels, seats, strict=False):
        form.get_by_label(label).select_option(label=player)
    form.get_by_label("Worth of one unit").fill("0.50")
    if options.get("jacoby"):
        form.get_by_label(re.compile("^Jacoby rule")).check()
    form.get_by_role("button", name="Start").click()
    page.wait_for_load_state()


def _game(page: Any, results: dict[str, tuple[str, str, int, bool]]) -> str:
    """Enter the next game: for each opponent of the box, (winner, how, cube, centred)."""
    form = page.locator("form", has=page.get_by_role("button", name=re.compile("^Enter game")))
    for opponent, (winner, how, cube, centred) in results.items():
        form.get_by_label(f"Winner against {opponent}").select_option(label=winner)
        form.get_by_label(f"How the game against {opponent} ended").select_option(label=HOW[how])
        form.get_by_label(f"Cube against {opponent}").select_option(value=str(cube))
        box = form.get_by_label(f"Cube still in the middle against {opponent}")
        if centred:
            box.check()
        else:
            box.uncheck()
    form.get_by_role("button", name=re.compile("^Enter game")).click()
    page.wait_for_load_state()
    return flash(page)


def _totals(page: Any) -> dict[str, tuple[str, str]]:
    rows = page.locator("section", has_text="Totals after").locator("tbody tr")
    out = {}
    for row in rows.all_inner_texts():
        name, units, money = row.split("\t")
        out[name.strip()] = (units.strip(), money.strip())
    return out


def _settlement_text(page: Any, tmp_path: Path, stem: str) -> str:
    """Download the settlement PDF, keep a picture of its first page, return its text."""
    with page.expect_download() as download:
        page.get_by_role("link", name="Settlement (PDF)").click()
    pdf = tmp_path / f"{stem}.pdf"
    download.value.save_as(pdf)
    picture = screenshot_path(stem)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(picture.with_suffix(""))],
        check=True,
    )
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


def test_a_money_session_is_entered_game_by_game_and_settled(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Friday Money")
    for name in ("Anna Berg", "Boris Lind"):
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name)
    _start(page, event_url, "Anna v Boris", ["Anna Berg", "Boris Lind"], jacoby=True)
    started = flash(page)
    first = _game(page, {"Boris Lind": ("Anna Berg", "gammon", 2, False)})
    second = _game(page, {"Boris Lind": ("Boris Lind", "gammon", 1, True)})
    page.screenshot(path=str(screenshot_path("money-session")), full_page=True)
    totals = _totals(page)
    settle_now = page.locator("section", has_text="To settle now").locator("li").all_inner_texts()
    sheet = _settlement_text(page, tmp_path, "money-settlement")

    assert "Money session started." in started
    assert "Game 1 entered." in first and "Game 2 entered." in second
    assert totals == {"Anna Berg": ("3", "EUR 1.50"), "Boris Lind": ("-3", "-EUR 1.50")}
    assert settle_now == ["Boris Lind pays Anna Berg EUR 1.50"]
    assert "Anna v Boris" in sheet and "Jacoby rule" in sheet
    assert re.search(r"Boris Lind\s+Anna Berg\s+EUR 1\.50", sheet)


def test_a_five_player_chouette_rotates_and_the_phone_page_follows(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    players = ["Carl Moe", "Dora Ek", "Emil Sund", "Fay Holm", "Gus Vik"]
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Chouette Night")
    for name in players:
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name)
    page.goto(f"{event_url}/sharing")
    page.get_by_role("button", name="Make public").click()
    _start(page, event_url, "Back room", players)
    started = flash(page)
    carl, dora, emil, fay, gus = players
    _game(page, {m: (carl, "single", 1, True) for m in (dora, emil, fay, gus)})
    after_one = page.locator("dl.rotation").inner_text()
    # The captain is listed first: Emil, then the line Fay, Gus, Dora.
    _game(page, {m: (m, "single", 1, True) for m in (emil, fay, gus, dora)})
    after_two = page.locator("dl.rotation").inner_text()
    third = {fay: (emil, "dropped", 1, True)}
    third.update({m: (emil, "gammon", 1, True) for m in (gus, dora, carl)})
    _game(page, third)
    page.screenshot(path=str(screenshot_path("chouette")), full_page=True)
    totals = _totals(page)
    session_url = page.url
    phone_link = page.get_by_role("link", name="Phone page").get_attribute("href")
    sheet = _settlement_text(page, tmp_path, "chouette-settlement")

    # A player at the table finds the chouette from the event's public page.
    phone = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    try:
        tab = phone.new_page()
        tab.goto(f"{base_url}/events/chouette-night")
        tab.get_by_role("link", name="Back room").click()
        tab.wait_for_load_state()
        found_at = tab.url
        tab.screenshot(path=str(screenshot_path("chouette-phone")), full_page=True)
        phone_rotation = tab.locator("dl.rotation").inner_text()
    finally:
        phone.close()

    assert "Chouette started." in started and "/director/money/" in session_url
    assert found_at.endswith(str(phone_link))
    assert re.sub(r"\s+", " ", after_one) == f"Box {carl} Captain {emil} Then {fay}, {gus}, {dora}"
    assert re.sub(r"\s+", " ", after_two) == f"Box {emil} Captain {fay} Then {gus}, {dora}, {carl}"
    # Game 3: Emil +1 (Fay's drop) +2 +2 +2 (gammons) = +7 on top of 0.
    assert {name: units for name, (units, _) in totals.items()} == {
        carl: "-2", dora: "-2", emil: "7", fay: "-1", gus: "-2",
    }
    assert re.sub(r"\s+", " ", phone_rotation) == (
        f"Box {emil} Captain {gus} Then {dora}, {carl}, {fay}"
    )
    assert "Chouette at Chouette Night" in sheet and "Emil Sund" in sheet
