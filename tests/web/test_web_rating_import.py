"""A club's existing rating list imported with the roster: each player's rating,
experience and rated matches are where the club's own list continues from.

Worked by hand with the FIBS formula (DESIGN §8): Ann Avery comes in at 1600 with 450
experience and 30 matches, Ben Berg at 1500 with none. Ann, the favourite by D = 100,
wins a 7-point match: D * sqrt(7) / 2000 = 0.132288, 10^0.132288 = 1.356087, P_upset =
1 / 2.356087 = 0.424433, and the favourite's P = P_upset. Ann's K = max(1, 5 - 450/100)
= 1: she gains 4 * 1 * sqrt(7) * 0.424433 = 4.4918 (1604.49); Ben's K = 5: he loses
4 * 5 * sqrt(7) * 0.424433 = 22.4589 (1477.54). Had Ann's experience not come in, her K
would have been 5 and she would have gained 22.46 too.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from club_ratings_builders import play_round
from flask.testing import FlaskClient
from openpyxl import Workbook
from sqlalchemy.engine import Engine
from sqlmodel import select
from werkzeug.test import TestResponse

from tourney.cli import cli
from tourney.store import draws, events, roster
from tourney.store.db import read_session, transaction
from tourney.store.queries import UserView
from tourney.store.tables import Club, Player

LIST = (
    "name,rating,experience,matches\n"
    "Ann Avery,1600,450,30\n"
    "Ben Berg,1500,0,0\n"
)


def _upload(client: FlaskClient, data: bytes, filename: str, club_id: int | str) -> TestResponse:
    return client.post(
        "/director/players/import",
        data={"file": (io.BytesIO(data), filename), "club_id": str(club_id)},
        content_type="multipart/form-data",
    )


def _signed(page: str) -> str:
    found = re.search(r'name="upload" type="hidden" value="([^"]+)"', page)
    assert found, "no signed upload on the preview page"
    return html.unescape(found.group(1))


def test_an_imported_lists_experience_sets_the_k_factor_of_the_next_match(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    director = login_as("director")
    client.post("/director/clubs", data={"club_name": "Fjordside BG"})
    with read_session(engine) as session:
        club_id = session.exec(select(Club.id)).one()
    preview = _upload(client, LIST.encode(), "fjordside.csv", club_id)
    client.post("/director/players/import/confirm", data={"upload": _signed(preview.text)})
    actor = director.actor
    with transaction(engine) as session:
        event = events.create_event(session, actor=actor, fields=events.EventFields(
            name="Club Night", club_id=club_id))
        flight = events.add_flight(session, actor=actor, event_id=event.id,
                                   fields=events.FlightFields(name="Main", format="knockout",
                                                              match_length=7)).id or 0
        for seed, name in enumerate(("Ann Avery", "Ben Berg"), start=1):
            player = session.exec(select(Player.id).where(Player.name == name)).one()
            roster.enter_player(session, actor=actor, event_id=event.id, player_id=player or 0,
                                seed=seed)
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=flight)
    play_round(engine, actor, flight, 1, {"Ann Avery"})

    lines = client.get(f"/director/clubs/{club_id}/ratings.csv").data.decode(
        "utf-8-sig").splitlines()
    listing = client.get(f"/director/clubs/{club_id}/ratings").text
    ann = re.search(r'href="(/director/clubs/\d+/players/\d+)">Ann Avery<', listing)
    assert ann is not None
    page = client.get(ann.group(1)).text

    assert preview.status_code == 200
    assert lines[1:] == ["1,Ann Avery,1604.49,4.49,457,31", "2,Ben Berg,1477.54,-22.46,7,1"]
    assert "Experience 457" in page
    assert "rating after each of 1 rated matches: from 1600 to 1604.49" in page


def test_bad_experience_and_matches_are_named_by_row_and_field_in_the_preview(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    data = (
        b"name,rating,experience,matches\n"
        b"Cid Cole,1500,lots,2\n"
        b"Dee Dunn,1500,12,-3\n"
        b"Eve Eng,1500,12.5,\n"
        b"Fay Fox,1500,120,9\n"
    )

    page = _upload(client, data, "old-list.csv", "")
    text = html.unescape(page.text)

    assert page.status_code == 200
    assert "Import players from old-list.csv" in text
    rows = re.findall(r'<td class="num">(\d+)</td>\s*<th scope="row">([^<]+)</th>', text)
    assert rows == [("2", "Cid Cole"), ("3", "Dee Dunn"), ("4", "Eve Eng"), ("5", "Fay Fox")]
    assert re.findall(r'<p class="error">([^<]+)</p>', text) == [
        "experience 'lots' is not a whole number",
        "matches '-3' is not a whole number",
        "experience '12.5' is not a whole number",
    ]


def test_an_xlsx_list_with_a_fractional_experience_cell_is_a_row_problem_not_an_error(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    book = Workbook()
    sheet = book.active
    sheet.append(["Name", "Rating", "Experience", "Matches played"])
    sheet.append(["Gus Gray", 1550, 820, 41])
    sheet.append(["Hal Hart", 1490, 12.5, 3])
    sheet.append(["Ida Ives", 1490, 20_000_000, 3])
    buffer = io.BytesIO()
    book.save(buffer)

    page = _upload(client, buffer.getvalue(), "list.xlsx", "")
    text = html.unescape(page.text)

    assert page.status_code == 200
    assert re.findall(r'<p class="error">([^<]+)</p>', text) == [
        "experience 12.5 is not a whole number",
        "experience 20000000 is not between 0 and 10000000",
    ]
    assert '<td class="num">820</td>' in text and '<td class="num">41</td>' in text


def test_the_command_line_names_file_row_and_field(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = {
        "TOURNEY_DATABASE_URL": empty_database_url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
    }
    runner.invoke(cli, ["db", "upgrade"], env=env)
    path = tmp_path / "old-list.csv"
    path.write_text("name,rating,experience\nCid Cole,1500,lots\nDee Dunn,1500,80\n",
                    encoding="utf-8")

    result = runner.invoke(cli, ["players", "import", str(path), "--apply"], env=env)

    assert result.exit_code == 1
    assert result.stderr == f"{path}: row 2: experience 'lots' is not a whole number\n"
    assert result.stdout == "Added 1 player(s); skipped 1 row(s) with problems.\n"
