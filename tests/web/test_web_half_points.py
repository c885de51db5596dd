"""Game points with ½-½ draws reach the JSON API and the spreadsheet as numbers of points
(3.5), not as the half points the standings keep inside (7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.exports.tables import flight_standings_table
from tourney.rules.variants import VariantOptions
from tourney.store import divisions, draws, results
from tourney.store.db import read_session, transaction
from tourney.store.event_documents import event_document
from tourney.store.results import GameFields
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

LAST_ROLL = VariantOptions(cube=True, crawford=True, koks=True, last_roll_draw=True)


def _played(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    """Ann beats Bob to 3 after a drawn game scored ½-½: Ann 3½, Bob ½ in game points
    (draw ½ each, then a gammon 2 and a single 1 to Ann)."""
    built = build_event(
        ["Ann", "Bob"],
        [{"name": "Main", "format": "swiss", "match_length": 3, "swiss_rounds": 1,
          "tiebreaks": ("game_points",)}],
        is_public=True, slug="nardy-night", variant="long-nardy", variant_options=LAST_ROLL,
    )
    actor, flight = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        divisions.set_draw_scoring(
            session, actor=actor, event_id=built.event_id, draw_scoring="half"
        )
        draws.draw_flight(session, actor=actor, flight_id=flight, seed=1)
        draws.publish_flight(session, actor=actor, flight_id=flight)
    with read_session(engine) as session:
        board = flight_board(session, actor, flight)
    (match,) = board.rounds[0].matches
    match_id = match.id
    swapped = match.a is not None and match.a.name == "Bob"
    ann = "b" if swapped else "a"
    for game in (GameFields("", "drawn", 1, None), GameFields(ann, "played", 1, "gammon"),
                 GameFields(ann, "played", 1, "single")):
        with transaction(engine) as session:
            results.record_game(session, actor=actor, match_id=match_id, game=game)
    return built


def test_the_api_gives_game_points_as_points(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _played(engine, build_event)

    answer: Any = client.get(f"/api/v1/events/{built.event_id}/standings").get_json()

    (flight,) = answer["flights"] if isinstance(answer, dict) else answer
    points = {
        row["player"]["name"]: [t["value"] for t in row["tiebreaks"]]
        for row in flight["standings"]
    }
    assert points == {"Ann": [3.5], "Bob": [0.5]}


def test_the_spreadsheet_gives_game_points_as_points(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _played(engine, build_event)

    with read_session(engine) as session:
        document = event_document(session, "nardy-night")
    table = flight_standings_table(document, "Main")

    # Place, rank, tied, name, wins, game points, note.
    assert {row[3]: row[5] for row in table.rows} == {"Ann": 3.5, "Bob": 0.5}
