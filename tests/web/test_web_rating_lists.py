"""A club's rating list as its page, CSV and spreadsheet: one 7-point match at the club,
Ann beating Ben from 1500 each as newcomers (K = 5), is worth 4 * 5 * sqrt(7) / 2 =
26.46 to each side."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from xml.etree import ElementTree

from flask.testing import FlaskClient
from openpyxl import load_workbook
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.tables import Flight
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"


def _club_with_one_match(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> tuple[int, str]:
    """The club's id and its director's e-mail."""
    built = build_event(["Ann", "Ben"], [{"name": "Main", "format": "knockout",
                                          "match_length": 7}])
    actor = built.director.actor
    club_id = into_club(built)
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    with Session(engine) as session:
        (match,) = flight_board(session, actor, built.flights["Main"]).rounds[0].matches
    assert match.a is not None
    a_is_ann = match.a.name == "Ann"
    with transaction(engine) as session:
        results.record_final_score(session, actor=actor, match_id=match.id,
                                   score_a=7 if a_is_ann else 0, score_b=0 if a_is_ann else 7)
    return club_id, built.director.email


def test_the_list_downloads_as_csv_and_xlsx_with_numbers_as_numbers(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club_id, director = _club_with_one_match(engine, build_event, into_club)
    client.post("/login", data={"email": director, "password": PASSWORD})
    page = client.get(f"/director/clubs/{club_id}/ratings")
    csv_file = client.get(f"/director/clubs/{club_id}/ratings.csv")
    xlsx_file = client.get(f"/director/clubs/{club_id}/ratings.xlsx")

    assert page.status_code == 200 and "1526.46" in page.text and "+26.46" in page.text
    lines = csv_file.data.decode("utf-8-sig").splitlines()
    assert lines == [
        "Rank,Player,Rating,Change,Experience,Matches",
        "1,Ann,1526.46,26.46,7,1",
        "2,Ben,1473.54,-26.46,7,1",
    ]
    sheet = load_workbook(io.BytesIO(xlsx_file.data)).active
    assert [c.value for c in sheet[3]] == [2, "Ben", 1473.54, -26.46, 7, 1]
    assert client.get(f"/director/clubs/{club_id}/ratings.pdf").status_code == 404


def test_a_players_history_page_shows_their_rating_chart(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club_id, director = _club_with_one_match(engine, build_event, into_club)
    client.post("/login", data={"email": director, "password": PASSWORD})
    listing = client.get(f"/director/clubs/{club_id}/ratings").text
    found = re.search(rf'href="(/director/clubs/{club_id}/players/\d+)">Ann<', listing)
    assert found is not None
    page = client.get(found.group(1))
    chart = client.get(found.group(1) + "/rating.svg")
    again = client.get(found.group(1) + "/rating.svg")

    assert page.status_code == 200
    assert "rating after each of 1 rated matches: from 1500 to 1526.46" in page.text
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(chart.data)
    assert root.tag.endswith("svg")
    assert "Rated matches played" in chart.text
    assert chart.data == again.data


def test_a_flight_marked_unrated_leaves_the_clubs_list(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    # Ann beat Ben 7-0 in the club's only match; the director then marks its flight
    # unrated (a side event the club leaves out): the list has nobody left on it.
    club_id, director = _club_with_one_match(engine, build_event, into_club)
    client.post("/login", data={"email": director, "password": PASSWORD})
    with Session(engine) as session:
        flight_id = session.exec(select(Flight.id).where(Flight.name == "Main")).one()
    before = client.get(f"/director/clubs/{club_id}/ratings").get_data(as_text=True)

    saved = client.post(
        f"/director/flights/{flight_id}/edit",
        data={"name": "Main", "format": "knockout", "match_length": "7",
              "draw_method": "seeded", "unrated": "y"},
        follow_redirects=True,
    ).get_data(as_text=True)
    after = client.get(f"/director/clubs/{club_id}/ratings").get_data(as_text=True)
    lines = client.get(f"/director/clubs/{club_id}/ratings.csv").data.decode(
        "utf-8-sig").splitlines()

    assert "1526.46" in before
    assert "Flight saved." in saved and "unrated" in saved
    assert "1526.46" not in after
    assert lines == ["Rank,Player,Rating,Change,Experience,Matches"]
