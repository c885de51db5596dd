"""Events in the tables family, in a real browser: a tavli match to 5 (Portes, Plakoto,
Fevga in turn) and a Russian-backgammon Swiss, each result coming from an uploaded JSON
match record that is replayed move by move.

Every game below ends when the loser resigns a single game after the winner's first
roll; the plays were worked by hand from each variant's start (VARIANTS.md):

* Portes starts as backgammon: 3-1 plays 8/5 6/5.
* Plakoto starts with fifteen checkers on the 24 point: 3-1 plays 24/21 24/23.
* Fevga starts the same, but one checker must pass the opponent's start before a second
  may leave: 3-1 plays 24/21/20 with one checker.
* Russian backgammon enters all fifteen from outside the board first: 3-1 enters one
  checker on the 22 point and one on the 24.

Screenshots go to ``test-artifacts/`` (``event-form-tavli``, ``tavli-match``,
``tavli-record-refused``, ``russian-swiss``).
"""

from __future__ import annotations

import json
from typing import Any

from browser_harness import screenshot_path
from test_e2e_director import (
    add_flight,
    add_to_roster,
    draw_and_publish,
    enter_player,
    flash,
    log_in,
    open_flight,
    open_match,
    sides,
)

UPLOAD_LABEL = "Match file (.mat, or a .json match record)"
OPENING = {
    "portes": ("8/5 6/5", [[8, 5, False], [6, 5, False]]),
    "plakoto": ("24/21 24/23", [[24, 21, False], [24, 23, False]]),
    "fevga": ("24/20", [[24, 21, False], [21, 20, False]]),
    "russian": ("bar/22 bar/24", [[25, 22, False], [25, 24, False]]),
}
TAVLI = ["portes", "plakoto", "fevga"]


def _record(players: tuple[str, str], games: list[str], **extra: Any) -> bytes:
    """A JSON record: in each game the first player rolls 3-1, plays the variant's
    opening above and the other resigns a single game."""
    written = []
    for number, variant in enumerate(games, start=1):
        text, play = OPENING[variant]
        line = 4 * number
        written.append({
            "number": number, "line": line, "score": None,
            "actions": [
                {"line": line + 1, "kind": "roll", "side": "X", "text": f"31: {text}",
                 "dice": [3, 1], "form": "moved", "play": play},
                {"line": line + 2, "kind": "resign", "side": "O", "text": "Resigns"},
                {"line": line + 3, "kind": "win", "side": "X", "text": "Wins 1 point",
                 "value": 1},
            ],
        })
    document = {"schema": "tourney.match-record", "version": 1,
                "match_length": extra.pop("length", len(games)), "players": list(players),
                "games": written, **extra}
    return json.dumps(document).encode()


def _upload(page: Any, name: str, data: bytes) -> None:
    page.get_by_label(UPLOAD_LABEL).set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": data}])
    page.get_by_role("button", name="Upload and check").click()
    page.wait_for_load_state()


def _new_event(page: Any, base_url: str, name: str, *, game: str = "", matches: str = "") -> str:
    page.goto(f"{base_url}/director/events/new")
    page.get_by_label("Name", exact=True).fill(name)
    if game:
        page.get_by_label("Game", exact=True).select_option(game)
    if matches:
        page.get_by_label("Matches", exact=True).select_option(matches)
    page.get_by_role("button", name="Create event").click()
    assert f"Event “{name}” created" in flash(page)
    return str(page.url)


def test_a_tavli_match_to_five_is_played_from_an_uploaded_record(
    page: Any, base_url: str
) -> None:
    log_in(page, base_url)
    page.goto(f"{base_url}/director/events/new")
    game_before = page.get_by_label("Game", exact=True).is_visible()
    page.get_by_label("Matches", exact=True).select_option("tavli")
    page.screenshot(path=str(screenshot_path("event-form-tavli")), full_page=True)
    game_after = page.get_by_label("Game", exact=True).is_visible()
    crawford_after = page.locator("#crawford").is_visible()
    event_url = _new_event(page, base_url, "Kafeneio Tavli", matches="tavli")
    for name in ("Nikos Pappas", "Eleni Georgiou"):
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name)
    add_flight(page, event_url, "Final", length="5")
    flight_url = open_flight(page, event_url, "Final")
    draw_and_publish(page, "Random")
    open_match(page, flight_url)
    players = sides(page)
    game_form = page.locator("form", has=page.get_by_role("button", name="Add game"))
    heading = game_form.locator("h2").inner_text()
    cube_help = game_form.inner_text()

    # Game 2 is Plakoto: the Portes opening 8/5 6/5 is refused there, at its line.
    _upload(page, "wrong.json", _record(players, ["portes", "portes", "fevga", "portes",
                                                  "plakoto"]))
    page.screenshot(path=str(screenshot_path("tavli-record-refused")), full_page=True)
    refused = page.locator("table", has_text="Problem").inner_text()

    _upload(page, "tavli.json", _record(players, TAVLI + TAVLI[:2]))
    page.screenshot(path=str(screenshot_path("tavli-match")), full_page=True)
    games = page.locator("table.games tbody tr").all_inner_texts()

    # The variant and its options do not apply to a match of several variants.
    assert (game_before, game_after, crawford_after) == (True, False, False)
    assert heading.startswith("Game 1: Portes")
    assert "the cube is not used in this tavli event" in cube_help
    assert "wrong.json" in refused and "8/5 6/5" in refused and "9" in refused
    assert f"Saved. {players[0]} wins 5-0" in flash(page)
    assert [row.split("\t")[1] for row in games] == ["Portes", "Plakoto", "Fevga", "Portes",
                                                     "Plakoto"]


def test_a_russian_backgammon_swiss_round_is_played_from_uploaded_records(
    page: Any, base_url: str
) -> None:
    field = ["Ivan Petrov", "Olga Smirnova", "Pavel Orlov", "Vera Lebedeva"]
    log_in(page, base_url)
    event_url = _new_event(page, base_url, "Russian Night", game="russian")
    for name in field:
        add_to_roster(page, base_url, name)
        enter_player(page, event_url, name)
    add_flight(page, event_url, "Swiss", format="Swiss", length="1", rounds="2")
    swiss_url = open_flight(page, event_url, "Swiss")
    draw_and_publish(page, "Random")

    winners = []
    for _ in range(2):
        open_match(page, swiss_url)
        players = sides(page)
        _upload(page, "russian.json", _record(players, ["russian"], length=1,
                                              variant="russian"))
        assert f"Saved. {players[0]} wins 1-0" in flash(page)
        winners.append(players[0])
    page.goto(swiss_url)
    page.screenshot(path=str(screenshot_path("russian-swiss")), full_page=True)
    rows = page.locator("table.standings tbody tr").all_inner_texts()
    page.goto(event_url)
    rules = page.locator(".variant-summary").inner_text()

    assert page.locator(".match-ready").count() == 0
    assert rules.startswith("Russian backgammon")
    assert sorted(row.split("\t")[1].strip() for row in rows[:2]) == sorted(winners)
