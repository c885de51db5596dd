"""Downloads: every document answers with its bytes, type and name, to whom it is meant."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from openpyxl import load_workbook
from sqlalchemy.engine import Engine
from sqlmodel import select
from werkzeug.test import TestResponse

from tourney.store import access, draws
from tourney.store.audit import Actor
from tourney.store.db import read_session, transaction
from tourney.store.demo import load_demo
from tourney.store.passwords import make_hasher
from tourney.store.queries import UserView
from tourney.store.tables import Event, User

if TYPE_CHECKING:
    from conftest import BuiltEvent

SAMPLE_EVENTS = Path(__file__).resolve().parents[2] / "sample_events"
KNOCKOUT = "fjordside-spring-open"
SWISS = "monday-swiss"
PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
KNOCKOUT_SHEETS = [
    "Event",
    "Players",
    "Pairings",
    "Matches",
    "Games",
    "Standings Main",
    "Standings Consolation",
    "Bracket Main",
    "Bracket Consolation",
]


@pytest.fixture
def events(engine: Engine) -> dict[str, int]:
    """The sample events' ids by slug."""
    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=make_hasher("fast"))
    with read_session(engine) as session:
        return {e.slug: e.id or 0 for e in session.exec(select(Event))}


def _demo_director(engine: Engine) -> Actor:
    with read_session(engine) as session:
        user = session.exec(select(User).where(User.email == "director@example.org")).one()
        return Actor(user_id=user.id, label=user.email, role=user.role)


def _log_in_demo_director(client: FlaskClient) -> None:
    response = client.post(
        "/login", data={"email": "director@example.org", "password": "demo-director"}
    )
    assert response.status_code == 302


def _make_private(engine: Engine, event_id: int) -> str:
    with transaction(engine) as session:
        view = access.set_visibility(
            session, actor=_demo_director(engine), event_id=event_id, public=False
        )
    assert view.share_token is not None
    return view.share_token


def _sheets(body: bytes) -> list[str]:
    return list(load_workbook(io.BytesIO(body), read_only=True).sheetnames)


def _disposition(response: TestResponse) -> str:
    return response.headers["Content-Disposition"]


# --- staff ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["drawsheets", "pairings", "scoresheets", "standings"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_staff_pdf_is_a_pdf_download(
    client: FlaskClient, events: dict[str, int], kind: str, paper: str
) -> None:
    _log_in_demo_director(client)

    response = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/{kind}.pdf?paper={paper}")

    assert response.status_code == 200
    assert response.mimetype == PDF
    assert response.data[:4] == b"%PDF"
    assert _disposition(response) == f"attachment; filename={KNOCKOUT}-{kind}.pdf"
    assert response.headers["Cache-Control"] == "private, no-cache"


def test_staff_pdf_refuses_an_unknown_paper(client: FlaskClient, events: dict[str, int]) -> None:
    _log_in_demo_director(client)

    response = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/pairings.pdf?paper=a5")

    assert response.status_code == 400


def test_staff_xlsx_holds_every_sheet_with_ratings(
    client: FlaskClient, events: dict[str, int]
) -> None:
    _log_in_demo_director(client)

    response = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/workbook.xlsx")

    assert response.status_code == 200
    assert response.mimetype == XLSX
    assert _sheets(response.data) == KNOCKOUT_SHEETS
    players = load_workbook(io.BytesIO(response.data))["Players"]
    ratings = {row[1]: row[3] for row in players.iter_rows(min_row=2, values_only=True)}
    assert ratings["Emre Yılmaz"] == 1744.8


def test_staff_csv_is_a_zip_of_the_tables(client: FlaskClient, events: dict[str, int]) -> None:
    _log_in_demo_director(client)

    response = client.get(f"/director/events/{events[SWISS]}/downloads/tables.zip")

    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert _disposition(response) == f"attachment; filename={SWISS}-csv.zip"
    archive = zipfile.ZipFile(io.BytesIO(response.data))
    assert archive.namelist() == [
        f"{SWISS}-players.csv",
        f"{SWISS}-pairings.csv",
        f"{SWISS}-matches.csv",
        f"{SWISS}-games.csv",
        f"{SWISS}-standings.csv",
    ]
    header = archive.read(f"{SWISS}-players.csv").decode("utf-8-sig").splitlines()[0]
    assert header == "Id,Name,Country,Rating,Seed,Club"


def test_director_downloads_the_event_json(client: FlaskClient, events: dict[str, int]) -> None:
    _log_in_demo_director(client)

    response = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/event.json")

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert _disposition(response) == f"attachment; filename={KNOCKOUT}.json"
    document = json.loads(response.data)
    assert [e["slug"] for e in document["tables"]["events"]] == [KNOCKOUT]


def test_event_json_needs_a_login(client: FlaskClient, events: dict[str, int]) -> None:
    response = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/event.json")

    assert (response.status_code, response.location.split("?")[0]) == (302, "/login")


def test_event_json_is_refused_to_a_director_of_other_events(
    client: FlaskClient, events: dict[str, int], login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    json_answer = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/event.json")
    pdf_answer = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/pairings.pdf")

    assert (json_answer.status_code, pdf_answer.status_code) == (403, 403)


def test_event_json_is_refused_to_a_scorer(
    client: FlaskClient, events: dict[str, int], login_as: Callable[..., UserView]
) -> None:
    login_as("scorer")

    response = client.get(f"/director/events/{events[KNOCKOUT]}/downloads/event.json")

    assert response.status_code == 403


def test_staff_download_of_a_missing_event_is_404(
    client: FlaskClient, events: dict[str, int]
) -> None:
    _log_in_demo_director(client)

    answers = [
        client.get(f"/director/events/999999/downloads/{name}").status_code
        for name in ("pairings.pdf", "workbook.xlsx", "tables.zip", "event.json")
    ]

    assert answers == [404, 404, 404, 404]


def test_director_event_page_links_the_downloads(
    client: FlaskClient, events: dict[str, int]
) -> None:
    _log_in_demo_director(client)
    event_id = events[KNOCKOUT]

    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)

    base = f"/director/events/{event_id}/downloads"
    for href in (
        f"{base}/drawsheets.pdf?paper=a4",
        f"{base}/scoresheets.pdf?paper=letter",
        f"{base}/workbook.xlsx",
        f"{base}/tables.zip",
        f"{base}/event.json",
    ):
        assert f'href="{href}"' in page


# --- public --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["drawsheets", "pairings", "standings"])
def test_public_pdf_is_open_to_anyone(
    client: FlaskClient, events: dict[str, int], kind: str
) -> None:
    response = client.get(f"/events/{KNOCKOUT}/downloads/{kind}.pdf?paper=letter")

    assert response.status_code == 200
    assert response.mimetype == PDF
    assert response.data[:4] == b"%PDF"


def test_public_has_no_score_sheets_or_event_json(
    client: FlaskClient, events: dict[str, int]
) -> None:
    answers = [
        client.get(f"/events/{KNOCKOUT}/downloads/scoresheets.pdf").status_code,
        client.get(f"/events/{KNOCKOUT}/downloads/event.json").status_code,
        client.get(f"/events/{KNOCKOUT}/downloads/tables.zip").status_code,
    ]

    assert answers == [404, 404, 404]


def test_public_xlsx_leaves_out_ratings_and_clubs(
    client: FlaskClient, events: dict[str, int]
) -> None:
    response = client.get(f"/events/{KNOCKOUT}/downloads/workbook.xlsx")

    assert response.status_code == 200
    assert response.mimetype == XLSX
    assert _sheets(response.data) == KNOCKOUT_SHEETS
    players = load_workbook(io.BytesIO(response.data))["Players"]
    rows = list(players.iter_rows(min_row=2, values_only=True))
    assert len(rows) == 12
    assert {(row[3], row[5]) for row in rows} == {(None, None)}
    archive = zipfile.ZipFile(io.BytesIO(response.data))
    assert [n for n in archive.namelist() if b"@example.org" in archive.read(n)] == []


def test_public_download_of_a_missing_event_is_404(client: FlaskClient) -> None:
    answers = [
        client.get("/events/no-such-event/downloads/pairings.pdf").status_code,
        client.get("/events/no-such-event/downloads/workbook.xlsx").status_code,
    ]

    assert answers == [404, 404]


def test_private_event_downloads_need_the_key(
    client: FlaskClient, events: dict[str, int], engine: Engine
) -> None:
    token = _make_private(engine, events[SWISS])
    url = f"/events/{SWISS}/downloads/pairings.pdf?paper=letter"

    without = client.get(url)
    wrong = client.get(f"{url}&key=nope")
    accepted = client.get(f"{url}&key={token}")
    after = client.get(accepted.location)
    workbook = client.get(f"/events/{SWISS}/downloads/workbook.xlsx")

    assert (without.status_code, wrong.status_code) == (404, 404)
    assert (accepted.status_code, accepted.location) == (302, url)
    assert after.status_code == 200 and after.data[:4] == b"%PDF"
    assert workbook.status_code == 200


def test_private_event_downloads_open_to_its_staff(
    client: FlaskClient, events: dict[str, int], engine: Engine
) -> None:
    _make_private(engine, events[SWISS])
    _log_in_demo_director(client)

    response = client.get(f"/events/{SWISS}/downloads/standings.pdf")

    assert response.status_code == 200


def test_public_documents_leave_out_unpublished_rounds(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid", "Dee"],
        [{"name": "Main", "format": "knockout", "match_length": 5}],
        is_public=True,
        slug="quiet-draw",
    )
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"], method="seeded"
        )
    client.post(
        "/login", data={"email": built.director.email, "password": "correct horse battery staple"}
    )

    public = client.get("/events/quiet-draw/downloads/workbook.xlsx")
    staff = client.get(f"/director/events/{built.event_id}/downloads/workbook.xlsx")

    def pairings(body: bytes) -> int:
        return load_workbook(io.BytesIO(body))["Pairings"].max_row - 1

    assert (public.status_code, staff.status_code) == (200, 200)
    assert (pairings(public.data), pairings(staff.data)) == (0, 2)


def test_public_event_page_links_the_downloads(client: FlaskClient, events: dict[str, int]) -> None:
    page = client.get(f"/events/{KNOCKOUT}").get_data(as_text=True)

    for href in (
        f"/events/{KNOCKOUT}/downloads/drawsheets.pdf?paper=a4",
        f"/events/{KNOCKOUT}/downloads/pairings.pdf?paper=letter",
        f"/events/{KNOCKOUT}/downloads/standings.pdf?paper=a4",
        f"/events/{KNOCKOUT}/downloads/workbook.xlsx",
    ):
        assert f'href="{href}"' in page
    assert "scoresheets" not in page


def test_printed_short_address_leads_to_the_public_page(client: FlaskClient) -> None:
    event = client.get(f"/e/{KNOCKOUT}")
    match = client.get(f"/e/{KNOCKOUT}/matches/7?key=abc")

    assert (event.status_code, event.location) == (302, f"/events/{KNOCKOUT}")
    assert (match.status_code, match.location) == (302, f"/events/{KNOCKOUT}/matches/7?key=abc")


def test_event_pages_list_the_downloads_each_reader_may_have(
    client: FlaskClient, events: dict[str, int]
) -> None:
    public_page = client.get(f"/events/{KNOCKOUT}").get_data(as_text=True)
    _log_in_demo_director(client)
    staff_page = client.get(f"/director/events/{events[KNOCKOUT]}").get_data(as_text=True)

    public_links = re.findall(r'href="/events/[^/]+/downloads/([^"]+)"', public_page)
    staff_links = re.findall(r'href="/director/events/\d+/downloads/([^"]+)"', staff_page)

    assert public_links == [
        "drawsheets.pdf?paper=a4",
        "drawsheets.pdf?paper=letter",
        "pairings.pdf?paper=a4",
        "pairings.pdf?paper=letter",
        "standings.pdf?paper=a4",
        "standings.pdf?paper=letter",
        "workbook.xlsx",
    ]
    # The demo director directs the event: every export, the event file last.
    assert staff_links == [
        "drawsheets.pdf?paper=a4",
        "drawsheets.pdf?paper=letter",
        "pairings.pdf?paper=a4",
        "pairings.pdf?paper=letter",
        "scoresheets.pdf?paper=a4",
        "scoresheets.pdf?paper=letter",
        "standings.pdf?paper=a4",
        "standings.pdf?paper=letter",
        "workbook.xlsx",
        "tables.zip",
        "event.json",
        # ... and the matches ready to play, to print.
        "pairings.pdf?ready=1",
        "scoresheets.pdf?ready=1",
    ]
