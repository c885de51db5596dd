"""A gnubg record of a match, uploaded on the match page, as a director meets it: the
file names the players as gnubg did ("GnubgA", "GnubgB"), not as the roster does; the
director says who is who and the record is used. A file that cannot be used says why on
the match page, with its name, the game, the line and the problem.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import select
from test_web_tournament import drawn, login, seen_version

from tourney.store.db import read_session
from tourney.store.tables import Game

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records" / "gnubg"
# One game of a 3-point match: GnubgB wins 4 points (a gammon on a 2-cube).
RECORD = RECORDS / "gnubg_L03_s1001.mat"
ONE_POINT_RECORD = RECORDS / "gnubg_L01_s1000.mat"


def _upload(client: FlaskClient, match_id: int, filename: str, data: bytes) -> tuple[int, str]:
    response = client.post(
        f"/director/matches/{match_id}/upload",
        data={"version": seen_version(client, match_id), "record": (io.BytesIO(data), filename)},
        content_type="multipart/form-data",
    )
    return response.status_code, html.unescape(response.get_data(as_text=True))


def _players_form(page: str) -> tuple[dict[str, str], list[tuple[str, str]], str]:
    """The who-is-who form: its hidden fields, its choices and its label."""
    form = page.split('class="card record-players"')[1].split("</form>")[0]
    hidden = dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', form))
    choices = re.findall(r'<option value="([^"]*)">([^<]*)</option>', form)
    label = re.search(r'<label for="players-first_player_side">([^<]*)</label>', form)
    assert label is not None
    return hidden, choices, label.group(1)


def _games(engine: Engine, match_id: int) -> list[tuple[str | None, int]]:
    with read_session(engine) as session:
        rows = session.exec(select(Game).where(Game.match_id == match_id)).all()
        return [(g.winner, g.points) for g in rows]


def _started(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> int:
    built, match_id = drawn(engine, build_event, ["Anna Ek", "Ben Olsen"])
    login(client, built)
    return match_id


def test_record_with_other_names_asks_who_is_who(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)

    status, page = _upload(client, match_id, "anna-ben.mat", RECORD.read_bytes())
    _, choices, label = _players_form(page)

    assert status == 400
    assert "The record's players are GnubgA and GnubgB" in page
    assert label == "GnubgA is"
    assert choices == [("a", "Anna Ek"), ("b", "Ben Olsen")]
    assert "GnubgB is the other player." in page
    assert _games(engine, match_id) == []


def test_record_is_used_once_the_director_says_who_is_who(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)
    _, page = _upload(client, match_id, "anna-ben.mat", RECORD.read_bytes())
    hidden, _, _ = _players_form(page)

    # GnubgA is Anna Ek, so GnubgB, who won 4 points, is Ben Olsen.
    used = client.post(
        f"/director/matches/{match_id}/upload/players",
        data={**hidden, "first_player_side": "a"},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "Record read: 1 games entered. Saved. Ben Olsen wins 0-4." in html.unescape(used)
    assert _games(engine, match_id) == [("b", 4)]


def test_record_turned_round_when_the_first_player_is_the_other_side(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)
    _, page = _upload(client, match_id, "anna-ben.mat", RECORD.read_bytes())
    hidden, _, _ = _players_form(page)

    # GnubgA is Ben Olsen: GnubgB, the winner, is Anna Ek.
    client.post(
        f"/director/matches/{match_id}/upload/players", data={**hidden, "first_player_side": "b"}
    )

    assert _games(engine, match_id) == [("a", 4)]


def test_record_altered_in_the_browser_is_refused_on_the_match_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)
    _, page = _upload(client, match_id, "anna-ben.mat", RECORD.read_bytes())
    hidden, _, _ = _players_form(page)

    refused = client.post(
        f"/director/matches/{match_id}/upload/players",
        data={**hidden, "record": hidden["record"][:-3] + "xyz", "first_player_side": "a"},
    )

    assert refused.status_code == 400
    assert "upload the file again" in html.unescape(refused.get_data(as_text=True))
    assert _games(engine, match_id) == []


def test_record_with_an_illegal_move_says_where_on_the_match_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)
    # GnubgB's opening 3-2 played as 24/18: six pips with a three and a two.
    illegal = RECORD.read_text().replace("32: 24/21 13/11 ", "32: 24/18 13/11 ", 1)

    status, page = _upload(client, match_id, "illegal.mat", illegal.encode())
    rows = re.findall(r"<tr><td>([^<]*)</td><td class=\"num\">([^<]*)</td>"
                      r"<td class=\"num\">([^<]*)</td><td>([^<]*)</td></tr>", page)

    assert status == 400
    assert '<h1>' in page and "Anna Ek" in page.split("<h1>")[1].split("</h1>")[0]
    assert [r[:3] for r in rows] == [("illegal.mat", "1", "9")]
    assert rows[0][3].startswith("24/18 13/11 with 3-2: 24/18 moves 6 pips")
    assert "record-players" not in page


def test_record_of_another_length_says_so_on_the_match_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)

    status, page = _upload(client, match_id, "short.mat", ONE_POINT_RECORD.read_bytes())

    assert status == 400
    assert "The record is of a 1-point match, but this match is to 3 points." in page
    assert "record-players" not in page


def test_unreadable_file_says_so_on_the_match_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _started(client, engine, build_event)

    status, page = _upload(client, match_id, "photo.mat", bytes(range(256)) * 4)

    assert status == 400
    assert "<td>photo.mat</td>" in page
    assert "the file holds binary data, not a match record" in page
    assert _games(engine, match_id) == []
