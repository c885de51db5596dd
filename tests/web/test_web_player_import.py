"""The roster's player import: upload, a preview of every row's problems, then the save."""

from __future__ import annotations

import html
import io
import re
import time
import zipfile
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient
from openpyxl import Workbook
from sqlalchemy.engine import Engine
from werkzeug.test import TestResponse

from tourney.store import queries, roster
from tourney.store.audit import Actor
from tourney.store.db import read_session, transaction
from tourney.store.queries import UserView

CSV = (
    "name,country,rating,email\n"
    "Ingrid Solheim,no,1655,ingrid@example.org\n"
    ",SE,1500,\n"
    "Jürgen Weiß,Germany,1688,\n"
    "Mette Kjær,DK,lots,\n"
    "<script>alert(1)</script>,FR,,\n"
    "Ingrid Solheim,NO,1600,\n"
    "Emre Yılmaz,TR,1744.8,\n"
)
SAVED = [
    ("<script>alert(1)</script>", "FR", None),
    ("Emre Yılmaz", "TR", 1744.8),
    ("Ingrid Solheim", "NO", 1655.0),
]


def _roster(engine: Engine) -> list[tuple[str, str, float | None]]:
    with read_session(engine) as session:
        return [(p.name, p.country, p.rating) for p in queries.list_players(session, search="")]


def _upload(
    client: FlaskClient, data: bytes, filename: str = "players.csv", **extra: str
) -> TestResponse:
    return client.post(
        "/director/players/import",
        data={"file": (io.BytesIO(data), filename), "club_id": "", **extra},
        content_type="multipart/form-data",
    )


def _signed(page: str) -> str:
    found = re.search(r'name="upload" type="hidden" value="([^"]+)"', page)
    assert found, "no signed upload on the preview page"
    return html.unescape(found.group(1))


def test_preview_lists_every_problem_and_saves_nothing(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    response = _upload(client, CSV.encode("utf-8"))

    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert _roster(engine) == []
    assert "<strong>3</strong> ready to add" in page
    assert "<strong>4</strong> with problems" in page
    assert "the name is missing" in page
    assert "country &#39;GERMANY&#39; is not a two-letter code (NO, DE, US)" in page
    assert "rating &#39;lots&#39; is not a number" in page
    assert "duplicate of row 2" in page
    assert "Add 3 players" in page


def test_confirm_saves_the_good_rows_from_the_file(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    preview = _upload(client, CSV.encode("utf-8")).get_data(as_text=True)

    response = client.post(
        "/director/players/import/confirm",
        data={"upload": _signed(preview)},
        follow_redirects=True,
    )

    assert response.status_code == 200
    assert "Added 3 player(s); skipped 4 row(s)." in response.get_data(as_text=True)
    assert _roster(engine) == SAVED


def test_confirm_rechecks_against_the_roster(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    preview = _upload(client, CSV.encode("utf-8")).get_data(as_text=True)
    with transaction(engine) as session:
        roster.register_player(
            session,
            actor=Actor.cli(),
            fields=roster.PlayerFields(name="Emre Yılmaz", country="TR"),
        )

    response = client.post(
        "/director/players/import/confirm",
        data={"upload": _signed(preview)},
        follow_redirects=True,
    )

    assert "Added 2 player(s); skipped 5 row(s)." in response.get_data(as_text=True)
    assert _roster(engine) == [
        ("<script>alert(1)</script>", "FR", None),
        ("Emre Yılmaz", "TR", None),
        ("Ingrid Solheim", "NO", 1655.0),
    ]


def test_confirm_refuses_an_altered_upload(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    signed = _signed(_upload(client, CSV.encode("utf-8")).get_data(as_text=True))
    forged = signed[:-3] + ("AAA" if not signed.endswith("AAA") else "BBB")

    response = client.post(
        "/director/players/import/confirm", data={"upload": forged}, follow_redirects=True
    )

    assert "The preview expired or was altered; upload the file again." in response.get_data(
        as_text=True
    )
    assert _roster(engine) == []


def test_names_are_escaped_in_the_preview_and_the_roster(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    preview = _upload(client, CSV.encode("utf-8")).get_data(as_text=True)

    client.post("/director/players/import/confirm", data={"upload": _signed(preview)})
    roster = client.get("/director/players").get_data(as_text=True)

    for page in (preview, roster):
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_xlsx_file_is_read_like_csv(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Name", "Country", "Rating"])
    sheet.append(["Åsa Lindqvist", "SE", 1540.7])
    sheet.append(["Zoë Martin", "FRA", 1575])
    buffer = io.BytesIO()
    workbook.save(buffer)

    preview = _upload(client, buffer.getvalue(), "players.xlsx").get_data(as_text=True)
    client.post("/director/players/import/confirm", data={"upload": _signed(preview)})

    assert "country &#39;FRA&#39; is not a two-letter code" in preview
    assert _roster(engine) == [("Åsa Lindqvist", "SE", 1540.7)]


def _empty_rows_bomb(rows: int) -> bytes:
    """A real workbook whose sheet is rewritten as a header and ``rows`` empty rows."""
    workbook = Workbook()
    workbook.active.append(["Name"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = zipfile.ZipFile(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb:
        for entry in source.infolist():
            if entry.filename != "xl/worksheets/sheet1.xml":
                bomb.writestr(entry, source.read(entry))
                continue
            head, _, tail = source.read(entry).partition(b"</row>")
            with bomb.open(entry.filename, "w", force_zip64=True) as stream:
                stream.write(head + b"</row>")
                for _ in range(rows // 100_000):
                    stream.write(b"<row/>" * 100_000)
                stream.write(tail)
    return out.getvalue()


def test_workbook_bomb_is_refused_at_once(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    bomb = _empty_rows_bomb(40_000_000)

    started = time.perf_counter()
    response = _upload(client, bomb, "players.xlsx")
    seconds = time.perf_counter() - started

    assert response.status_code == 400
    assert "The file is not a readable workbook: xl/worksheets/sheet1.xml unpacks to " in (
        response.get_data(as_text=True)
    )
    assert seconds < 1
    assert _roster(engine) == []


def test_file_without_a_name_column_is_refused_on_the_roster_page(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    response = _upload(client, b"country,rating\nNO,1500\n")

    assert response.status_code == 400
    assert "the first row must name the columns" in response.get_data(as_text=True)
    assert _roster(engine) == []


def test_upload_of_another_kind_of_file_is_refused(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    response = _upload(client, b"%PDF-1.4", "players.pdf")

    assert response.status_code == 400
    assert "Use a .csv or .xlsx file." in response.get_data(as_text=True)


def test_roster_page_offers_the_import(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    page = client.get("/director/players").get_data(as_text=True)

    assert 'action="/director/players/import"' in page
    assert 'enctype="multipart/form-data"' in page


def test_scorer_may_not_import(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    login_as("scorer")

    preview = _upload(client, CSV.encode("utf-8"))
    confirm = client.post("/director/players/import/confirm", data={"upload": "x"})

    assert (preview.status_code, confirm.status_code) == (403, 403)
    assert _roster(engine) == []


def test_import_needs_the_csrf_token(
    make_app: Callable[..., Flask], engine: Engine, make_user: Callable[..., UserView]
) -> None:
    client = make_app(CSRF_ENABLED=True).test_client()
    user = make_user("director")
    login_page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login_page)
    assert token
    client.post(
        "/login",
        data={
            "email": user.email,
            "password": "correct horse battery staple",
            "csrf_token": token.group(1),
        },
    )
    roster = client.get("/director/players").get_data(as_text=True)
    csrf = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', roster)[-1]

    refused = _upload(client, CSV.encode("utf-8"))
    preview = _upload(client, CSV.encode("utf-8"), csrf_token=csrf).get_data(as_text=True)
    confirm_csrf = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', preview)[-1]
    without = client.post("/director/players/import/confirm", data={"upload": _signed(preview)})
    saved = client.post(
        "/director/players/import/confirm",
        data={"upload": _signed(preview), "csrf_token": confirm_csrf},
    )

    assert (refused.status_code, without.status_code, saved.status_code) == (400, 400, 302)
    assert _roster(engine) == SAVED
