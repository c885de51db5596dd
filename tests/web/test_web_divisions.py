"""The divisions page, a handicap start set by hand, a match of games and the API's view
of them, through the web app."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from test_web_variant_options import add_game, login, one_match, select_options

if TYPE_CHECKING:
    from conftest import BuiltEvent


def test_director_sets_divisions_and_a_start_the_pages_and_api_show(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(engine, build_event, 5)
    login(client, built)
    event_id = built.event_id

    saved = client.post(f"/director/events/{event_id}/divisions",
                        data={"divisions": "Open\nNovice", "draw_scoring": "nothing"},
                        follow_redirects=True).get_data(as_text=True)
    entry = built.entries["Bob"]
    client.post(f"/director/events/{event_id}/divisions/players",
                data={f"entry-{entry}": "Novice"})
    refused = client.post(f"/director/matches/{match_id}/starting-score",
                          data={"start_a": "5", "start_b": "0"},
                          follow_redirects=True).get_data(as_text=True)
    client.post(f"/director/matches/{match_id}/starting-score",
                data={"start_a": "0", "start_b": "2"})
    public = client.get(f"/events/the-event/matches/{match_id}").get_data(as_text=True)
    api = client.get(f"/api/v1/events/{event_id}").get_json()
    pairings = client.get(f"/api/v1/events/{event_id}/pairings").get_json()

    assert "Divisions saved." in saved
    assert "The starting score 5-0 must be below 5 for both players" in refused
    assert re.search(r"Handicap start: Ann 0, Bob 2", public)
    assert "<li>Divisions: Open, Novice</li>" in public
    assert api["divisions"] == ["Open", "Novice"]
    assert "Divisions: Open, Novice" in api["rules_summary"]
    starts = [m["start"] for f in pairings["flights"] for r in f["rounds"] for m in r["matches"]]
    assert starts == [[0, 2]]


def test_a_match_of_games_offers_a_plain_win_only_and_counts_each_game_one(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(engine, build_event, 3, match_form="games")
    login(client, built)

    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    after = add_game(client, match_id, winner="a", level="single")

    assert select_options(page, "level") == [("single", "Single")]
    assert select_options(page, "cube") == [("1", "1 (no doubling)")]
    assert "Saved. The score is 1-0." in after


def test_a_refused_start_is_flashed_in_the_directors_language(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """A start of 5-0 in a 5-point match would end it before it began; the director
    working in German is told so in German."""
    built, match_id = one_match(engine, build_event, 5)
    login(client, built)

    refused = client.post(f"/director/matches/{match_id}/starting-score?lang=de",
                          data={"start_a": "5", "start_b": "0"},
                          follow_redirects=True).get_data(as_text=True)

    assert ("Der Startstand 5-0 muss in einem Match auf 5 Punkte für beide Spieler unter 5 "
            "liegen, sonst wäre das Match schon vorbei.") in refused
    assert "must be below" not in refused
