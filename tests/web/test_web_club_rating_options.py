"""A club's rating list options on its rating list page: the provisional threshold
(marked on the page, the CSV, the spreadsheet and the player's page) and who may change
them. The club's Club Night is worked by hand in ``club_ratings_builders``: Ann and Ben
have 14 experience, Cid and Dee 7."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from club_ratings_builders import PASSWORD, club_night
from flask.testing import FlaskClient
from openpyxl import load_workbook
from sqlalchemy.engine import Engine

from tourney.store.queries import UserView

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _provisional_names(page: str) -> list[str]:
    return re.findall(r'>([A-Z][a-z]+)</a> <abbr class="provisional"', page)


def test_provisional_below_10_marks_the_players_with_7_experience(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club)
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})
    before = client.get(f"/director/clubs/{club.club_id}/ratings")

    saved = client.post(f"/director/clubs/{club.club_id}/ratings/options",
                        data={"provisional_below": "10"})
    page = client.get(f"/director/clubs/{club.club_id}/ratings")
    csv_lines = client.get(f"/director/clubs/{club.club_id}/ratings.csv").data.decode(
        "utf-8-sig").splitlines()
    sheet = load_workbook(io.BytesIO(
        client.get(f"/director/clubs/{club.club_id}/ratings.xlsx").data)).active

    assert _provisional_names(before.text) == []
    assert saved.status_code == 302
    assert sorted(_provisional_names(page.text)) == ["Cid", "Dee"]
    assert "Provisional (P): below 10 experience" in page.text
    assert csv_lines[0] == ("Rank,Player,Rating,Change,Experience,Matches,"
                            "Provisional (below 10 experience)")
    assert csv_lines[1:3] == ["1,Ann,1552.54,52.54,14,2,", "2,Ben,1500.37,0.37,14,2,"]
    assert sorted(csv_lines[3:]) == ["3,Cid,1473.54,-26.46,7,1,provisional",
                                     "4,Dee,1473.54,-26.46,7,1,provisional"]
    assert [c.value for c in sheet[2]] == [1, "Ann", 1552.54, 52.54, 14, 2, None]
    assert sheet[4][6].value == "provisional" and sheet[5][6].value == "provisional"


def test_the_players_page_says_provisional_until_the_threshold_is_reached(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club)
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})
    client.post(f"/director/clubs/{club.club_id}/ratings/options",
                data={"provisional_below": "14"})
    listing = client.get(f"/director/clubs/{club.club_id}/ratings").text
    pages = {
        name: client.get(f"/director/clubs/{club.club_id}/players/{pid}").text
        for pid, name in re.findall(r'/players/(\d+)">([A-Z][a-z]+)<', listing)
    }

    assert "Provisional: below 14 experience" in pages["Cid"]
    assert "Provisional" not in pages["Ann"]  # 14 is not below 14


def test_zero_turns_the_mark_off_and_the_csv_keeps_its_six_columns(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club)
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})
    client.post(f"/director/clubs/{club.club_id}/ratings/options",
                data={"provisional_below": "400"})
    client.post(f"/director/clubs/{club.club_id}/ratings/options",
                data={"provisional_below": "0"})

    page = client.get(f"/director/clubs/{club.club_id}/ratings").text
    header = client.get(f"/director/clubs/{club.club_id}/ratings.csv").data.decode(
        "utf-8-sig").splitlines()[0]

    assert _provisional_names(page) == []
    assert header == "Rank,Player,Rating,Change,Experience,Matches"


def test_a_negative_threshold_is_refused_on_the_form(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club)
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})

    refused = client.post(f"/director/clubs/{club.club_id}/ratings/options",
                          data={"provisional_below": "-5"})

    assert refused.status_code == 400
    assert "Number must be between 0 and 100000." in refused.text


def test_a_director_of_none_of_the_clubs_events_cannot_change_its_options(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
    login_as: Callable[..., UserView],
) -> None:
    club = club_night(engine, build_event, into_club)
    login_as("director")

    page = client.get(f"/director/clubs/{club.club_id}/ratings")
    refused = client.post(f"/director/clubs/{club.club_id}/ratings/options",
                          data={"provisional_below": "10", "public_profiles": "y"})
    client.post("/logout")
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})
    unchanged = client.get(f"/director/clubs/{club.club_id}/ratings").text

    assert page.status_code == 200 and "Save the options" not in page.text
    assert refused.status_code == 403
    assert _provisional_names(unchanged) == []
    assert "Players' pages are public" not in unchanged
