"""Club money in a real browser: a director sets a knockout's entry fee, retention,
payout table and a side pool, takes the fees in the ledger, plays the knockout out and
prints the payout sheet; the public prizes page shows the payouts once the event is
finished.

Worked by hand: five players seeded Ann 1 … Eve 5, the better seed always winning (side A
of every match). Main: 5 × €20.00 = €100.00, the house keeps 10% = €10.00, the fund is
€90.00 on 70/30: Ann €63.00, Ben €27.00. Side pool "Pool" (€5.00, pays 100%): Cid and Dee
buy in (€10.00); both lose a semifinal (=3), so they share the pool's 1st and 2nd places
(€10.00 + nothing): €5.00 each.

Screenshots go to ``test-artifacts/`` (``club-money-form``, ``club-money-ledger``,
``club-money-undo``, ``club-money-payouts``, ``club-money-sheet``, ``club-money-public``).
Eve's payment is taken back once (marked by mistake) and paid again, which leaves the
totals as they were.
"""

from __future__ import annotations

import re
import subprocess
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
    play_out_ready,
)

PLAYERS = ["Ann Aas", "Ben Berg", "Cid Cole", "Dee Dahl", "Eve Eng"]


def _sheet_text(page: Any, tmp_path: Path) -> str:
    """Download the payout sheet, keep a picture of its first page, return its text."""
    with page.expect_download() as download:
        page.get_by_role("link", name="Payout sheet (PDF)").click()
    pdf = tmp_path / "payouts.pdf"
    download.value.save_as(pdf)
    picture = screenshot_path("club-money-sheet")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(picture.with_suffix(""))],
        check=True,
    )
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


def test_fees_to_the_printed_payout_sheet(page: Any, base_url: str, tmp_path: Path) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Prize Night")
    for seed, name in enumerate(PLAYERS, start=1):
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name, seed)
    add_flight(page, event_url, "Main")
    page.goto(f"{event_url}/sharing")
    page.get_by_role("button", name="Make public").click()

    # The money of Main: a wrong payout table first, then the right one.
    page.goto(event_url)
    page.get_by_role("link", name="Fees and prizes").click()
    page.get_by_role("link", name="Money of Main").click()
    page.get_by_label("Entry fee", exact=True).fill("20")
    page.get_by_label("House retention (%)").fill("10")
    page.get_by_label(re.compile("^Payout table")).fill("70/20")
    page.get_by_label(re.compile("^Side pools")).fill("Pool, 5, 100")
    page.get_by_role("button", name="Save").click()
    refused = page.locator(".field", has=page.get_by_label(re.compile("^Payout table")))
    refusal = refused.inner_text()
    page.screenshot(path=str(screenshot_path("club-money-form")), full_page=True)
    page.get_by_label(re.compile("^Payout table")).fill("70/30")
    page.get_by_role("button", name="Save").click()
    saved = flash(page)

    # The ledger: everyone pays the entry fee in cash, Cid and Dee buy into the pool.
    for name in PLAYERS:
        page.get_by_role("button", name=f"{name}: Entry fee paid by Cash").click()
        page.wait_for_load_state()
    # Eve's payment was marked by mistake: taken back (kept in the ledger), then paid again.
    page.get_by_role("button", name="Eve Eng: undo the payment of Entry fee").click()
    page.wait_for_load_state()
    taken_back = flash(page)
    eve_row = page.locator("tr", has_text="Eve Eng").inner_text()
    page.screenshot(path=str(screenshot_path("club-money-undo")), full_page=True)
    page.get_by_role("button", name="Eve Eng: Entry fee paid by Cash").click()
    page.wait_for_load_state()
    for name in ("Cid Cole", "Dee Dahl"):
        form = page.locator("form", has=page.get_by_role("button", name="Take"))
        form.get_by_label("Player").select_option(label=name)
        form.get_by_label("Fee", exact=True).select_option(label="Main: side pool Pool (€5.00)")
        form.get_by_label("Paid").select_option(label="Cash")
        form.get_by_role("button", name="Take").click()
        page.wait_for_load_state()
    pool_taken = flash(page)
    totals = page.locator("section", has_text="Fees by flight").locator("tbody tr").inner_text()
    page.screenshot(path=str(screenshot_path("club-money-ledger")), full_page=True)

    main_url = open_flight(page, event_url, "Main")
    draw_and_publish(page, "Seeded (by seed, then rating)")
    play_out_ready(page, main_url)

    page.goto(event_url)
    page.get_by_role("link", name="Fees and prizes").click()
    page.get_by_role("link", name="Payouts", exact=True).click()
    page.screenshot(path=str(screenshot_path("club-money-payouts")), full_page=True)
    prize_rows = page.locator("table.data").first.locator("tbody tr").all_inner_texts()
    pool_rows = page.locator("table.data").nth(1).locator("tbody tr").all_inner_texts()
    sheet = _sheet_text(page, tmp_path)

    page.goto(event_url)
    page.get_by_role("button", name="Mark finished").click()
    page.goto(f"{base_url}/events/prize-night")
    page.get_by_role("link", name="Prizes").click()
    page.wait_for_load_state()
    page.screenshot(path=str(screenshot_path("club-money-public")), full_page=True)
    public_rows = page.locator("table.data").first.locator("tbody tr").all_inner_texts()

    assert "Payout table: the percentages add up to 90, not 100." in refusal
    assert "Money of Main saved." in saved
    assert "Payment taken back: the fee is owed again." in taken_back
    assert re.search(r"€20\.00 \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)\t€20\.00", eve_row)
    assert "Side pool paid." in pool_taken
    assert totals.split("\t") == ["Main", "€110.00", "€110.00", "€0.00", "€0.00"]
    assert [r.split("\t") for r in prize_rows] == [
        ["1", "Ann Aas", "€63.00"],
        ["2", "Ben Berg", "€27.00"],
    ]
    assert sorted(r.split("\t")[1:] for r in pool_rows) == [
        ["Cid Cole", "€5.00"],
        ["Dee Dahl", "€5.00"],
    ]
    assert "Main prizes: taken €100.00, house €10.00, prize fund €90.00, paid 70%/30%." in sheet
    assert re.search(r"1\s+Ann Aas\s+€63\.00", sheet)
    assert re.search(r"2\s+Ben Berg\s+€27\.00", sheet)
    assert "odd cent" in sheet
    assert [r.split("\t") for r in public_rows] == [
        ["1", "Ann Aas", "€63.00"],
        ["2", "Ben Berg", "€27.00"],
    ]
