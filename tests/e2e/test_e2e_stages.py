"""Pools into a knockout in a real browser: a director creates the event, enters eight
players, adds a round robin of two pools and a knockout taking the top two of each pool,
enters every pool result and draws the knockout from the qualifiers.

Worked by hand: snake seeding puts seeds 1, 4, 5, 8 in pool A and 2, 3, 6, 7 in pool B.
The better seed wins every pool match, so pool A finishes Ada (3 wins), Dee, Eli, Ida
and pool B Ben (3 wins), Cy, Fay, Gus. The knockout crosses the pools: A1 Ada meets B2
Cy, and B1 Ben meets A2 Dee.

Screenshots go to ``test-artifacts/`` (``stages-feed-refused``, ``stages-pools``,
``stages-knockout-before-draw``, ``stages-knockout``, ``stages-public-pools``,
``stages-public-knockout``, ``stages-cut-tie``).
"""

from __future__ import annotations

from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import (
    add_to_roster,
    create_event,
    enter_final_score,
    enter_player,
    flash,
    log_in,
    open_flight,
    sides,
)

FIELD = [
    "Ada Berg",
    "Ben Cole",
    "Cy Dahl",
    "Dee Egan",
    "Eli Falk",
    "Fay Gill",
    "Gus Hale",
    "Ida Jung",
]
SEED = {name: n for n, name in enumerate(FIELD, start=1)}


def _new_flight(page: Any, event_url: str, name: str, fmt: str, length: str) -> Any:
    page.goto(event_url)
    page.get_by_role("link", name="Add flight").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Format").select_option(label=fmt)
    page.get_by_label("Match length (points)").fill(length)
    return page


def _play_pools(page: Any, flight_url: str, upsets: frozenset[frozenset[str]] = frozenset()) -> int:
    """Enter every pool match as won by the better seed (the other one in ``upsets``);
    returns how many were entered."""
    entered = 0
    while True:
        page.goto(flight_url)
        ready = page.locator(".match-ready")
        if ready.count() == 0:
            return entered
        ready.first.get_by_role("link").click()
        page.wait_for_load_state()
        a, b = sides(page)
        better, worse = (a, b) if SEED[a] < SEED[b] else (b, a)
        enter_final_score(page, worse if frozenset((a, b)) in upsets else better, 0, length=1)
        entered += 1


def test_director_runs_pools_into_a_knockout(page: Any, base_url: str) -> None:
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Anchor Pools")
    for name in FIELD:
        add_to_roster(page, base_url, name)
    for name in FIELD:
        enter_player(page, event_url, name, SEED[name])
    _new_flight(page, event_url, "Pools", "Round robin", "1")
    page.get_by_label("Round robin: pools").fill("2")
    page.get_by_role("button", name="Add flight").click()
    pools_added = flash(page)

    # The bug this replaces: a knockout "fed" with the losers of a round robin.
    _new_flight(page, event_url, "Cup", "Knockout", "3")
    page.get_by_label("Losers come from").select_option(label="Pools")
    page.get_by_role("button", name="Add flight").click()
    refusal = page.locator(".field.has-error").all_inner_texts()
    page.screenshot(path=str(screenshot_path("stages-feed-refused")), full_page=True)
    page.get_by_label("Losers come from").select_option(index=0)
    page.get_by_label("Qualifiers come from").select_option(label="Pools")
    page.get_by_label("…how many qualify").fill("2")
    page.get_by_role("button", name="Add flight").click()
    cup_added = flash(page)
    event_page = page.locator("main").inner_text()

    pools_url = open_flight(page, event_url, "Pools")
    page.get_by_role("button", name="Make the draw").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    cup_url = open_flight(page, event_url, "Cup")
    page.get_by_role("button", name="Draw from qualifiers").click()
    too_early = page.locator("main").inner_text()
    entered = _play_pools(page, pools_url)
    page.goto(pools_url)
    page.screenshot(path=str(screenshot_path("stages-pools")), full_page=True)
    pool_tables = [
        table.locator("tbody tr").all_inner_texts()
        for table in page.locator("#standings table.standings").all()
    ]

    page.goto(cup_url)
    page.screenshot(path=str(screenshot_path("stages-knockout-before-draw")), full_page=True)
    through = page.locator("#qualified li").all_inner_texts()
    page.get_by_role("button", name="Draw from qualifiers").click()
    drawn = flash(page)
    page.get_by_role("button", name="Publish", exact=True).click()
    page.screenshot(path=str(screenshot_path("stages-knockout")), full_page=True)
    first_round = [
        " v ".join(" ".join(side.split()) for side in match.locator(".ko-name").all_inner_texts())
        for match in page.locator(".ko-round").first.locator("li.ko-match").all()
    ]
    page.goto(event_url + "/sharing")
    page.get_by_role("button", name="Make public").click()
    page.goto(pools_url.replace("/director/flights/", "/events/anchor-pools/flights/"))
    page.screenshot(path=str(screenshot_path("stages-public-pools")), full_page=True)
    public_pools = page.locator("section.pools").inner_text()
    page.goto(cup_url.replace("/director/flights/", "/events/anchor-pools/flights/"))
    page.screenshot(path=str(screenshot_path("stages-public-knockout")), full_page=True)
    public_first_round = [
        " ".join(side.split())
        for side in page.locator(".bracket-round").first.locator("ol.sides > li").all_inner_texts()
    ]

    assert pools_added == "Flight “Pools” added."
    assert any("Losers are fed on only from a knockout" in text for text in refusal), refusal
    assert cup_added == "Flight “Cup” added."
    assert "Qualifiers: top 2 of each of 2 pools of Pools" in event_page
    assert "“Pools” is not finished" in too_early
    assert entered == 12
    assert [[" ".join(row.split()) for row in table] for table in pool_tables] == [
        [
            "1 Ada Berg QUALIFIES 3 0 ACTIVE",
            "2 Dee Egan QUALIFIES 2 1 ACTIVE",
            "3 Eli Falk 1 2 ACTIVE",
            "4 Ida Jung 0 3 ACTIVE",
        ],
        [
            "1 Ben Cole QUALIFIES 3 0 ACTIVE",
            "2 Cy Dahl QUALIFIES 2 1 ACTIVE",
            "3 Fay Gill 1 2 ACTIVE",
            "4 Gus Hale 0 3 ACTIVE",
        ],
    ]
    assert through == ["A1 Ada Berg", "A2 Dee Egan", "B1 Ben Cole", "B2 Cy Dahl"]
    assert "Drawn with seed" in drawn
    assert first_round == ["A1 Ada Berg v B2 Cy Dahl", "B1 Ben Cole v A2 Dee Egan"]
    assert public_first_round == ["A1 Ada Berg", "B2 Cy Dahl", "B1 Ben Cole", "A2 Dee Egan"]
    assert "The top 2 of each pool go through to Cup." in public_pools
    assert [line for line in public_pools.splitlines() if line.endswith("QUALIFIES")] == [
        "1\tAda Berg\t3–0\tQUALIFIES",
        "2\tDee Egan\t2–1\tQUALIFIES",
        "1\tBen Cole\t3–0\tQUALIFIES",
        "2\tCy Dahl\t2–1\tQUALIFIES",
    ]


def test_director_decides_a_three_way_tie_at_the_cut(page: Any, base_url: str) -> None:
    # Dee beats Ada and Eli beats Dee: Ada, Dee and Eli each win two in pool A, and the
    # pools have no tiebreaks. The director sends Dee and Eli through (a playoff).
    log_in(page, base_url)
    event_url = create_event(page, base_url, "Anchor Playoff")
    for name in FIELD:
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name, SEED[name])
    _new_flight(page, event_url, "Pools", "Round robin", "1")
    page.get_by_label("Round robin: pools").fill("2")
    page.get_by_role("button", name="Add flight").click()
    _new_flight(page, event_url, "Cup", "Knockout", "3")
    page.get_by_label("Qualifiers come from").select_option(label="Pools")
    page.get_by_label("…how many qualify").fill("2")
    page.get_by_label("Ties at the cut").select_option(label="The director decides (a playoff)")
    page.get_by_role("button", name="Add flight").click()
    pools_url = open_flight(page, event_url, "Pools")
    page.get_by_role("button", name="Make the draw").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    upsets = frozenset({frozenset({"Ada Berg", "Dee Egan"}), frozenset({"Dee Egan", "Eli Falk"})})
    _play_pools(page, pools_url, upsets)
    page.goto(pools_url)
    tied_rows = page.locator("tr", has=page.locator(".badge-tied-cut")).all_inner_texts()

    open_flight(page, event_url, "Cup")
    page.get_by_role("button", name="Draw from qualifiers").click()
    refused = page.locator("#draw-qualifiers").inner_text()
    page.screenshot(path=str(screenshot_path("stages-cut-tie")), full_page=True)
    ties = page.locator("#cut-ties")
    ties.get_by_label("Dee Egan").check()
    ties.get_by_label("Eli Falk").check()
    ties.get_by_role("button", name="Send them through").click()
    decided = flash(page)
    page.get_by_role("button", name="Draw from qualifiers").click()
    first_round = [
        " v ".join(" ".join(side.split()) for side in match.locator(".ko-name").all_inner_texts())
        for match in page.locator(".ko-round").first.locator("li.ko-match").all()
    ]

    assert [" ".join(row.split())[:10] for row in tied_rows] == [
        "=1 Ada Ber",
        "=1 Dee Ega",
        "=1 Eli Fal",
    ]
    assert (
        "Pool A: Ada Berg, Dee Egan and Eli Falk are tied at the cut; choose 2 of them" in refused
    )
    assert decided == "The tie at the cut is decided. Draw from the qualifiers."
    assert first_round == ["A1 Dee Egan v B2 Cy Dahl", "B1 Ben Cole v A2 Eli Falk"]
