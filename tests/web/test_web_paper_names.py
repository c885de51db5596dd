"""Paper sizes on the download links read in the page's language; the files keep their
names in every language.

The paper names are core labels. A page served in German takes them from the core
catalogue, here a stand-in that shows every label it translates in «» so that the test
sees which words went through it. The download names are the event's slug and the
document's kind (``fjordside-spring-open-pairings.pdf``) for every format and language,
so a file saved from a German page is found under the same name as from an English one.
"""

from __future__ import annotations

import io
import zipfile
from gettext import NullTranslations
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney import i18n
from tourney.store.db import transaction
from tourney.store.demo import load_demo
from tourney.store.passwords import make_hasher

SAMPLE_EVENTS = Path(__file__).resolve().parents[2] / "sample_events"
KNOCKOUT = "fjordside-spring-open"


class _Marking(NullTranslations):
    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{msgid1 if n == 1 else msgid2}»"


@pytest.fixture
def demo(engine: Engine) -> None:
    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=make_hasher("fast"))


def test_the_paper_links_name_the_paper_in_the_pages_language(
    client: FlaskClient, demo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n, "core_catalogue", lambda code: _Marking())

    page = client.get(f"/events/{KNOCKOUT}?lang=de").get_data(as_text=True)

    assert ">«A4»</a>" in page and ">«Letter»</a>" in page
    assert "«US Letter» PDF" in page
    assert ">Letter</a>" not in page


def test_download_names_are_the_same_in_every_language(
    client: FlaskClient, demo: None
) -> None:
    names = {}
    for language in ("en", "de", "ru"):
        pdf = client.get(f"/events/{KNOCKOUT}/downloads/pairings.pdf?paper=letter&lang={language}")
        xlsx = client.get(f"/events/{KNOCKOUT}/downloads/workbook.xlsx?lang={language}")
        names[language] = (pdf.headers["Content-Disposition"], xlsx.headers["Content-Disposition"])

    assert names["de"] == names["ru"] == names["en"] == (
        f"attachment; filename={KNOCKOUT}-pairings.pdf",
        f"attachment; filename={KNOCKOUT}.xlsx",
    )


def test_csv_files_keep_their_names_in_german(client: FlaskClient, demo: None) -> None:
    client.post("/login", data={"email": "director@example.org", "password": "demo-director"})
    events = client.get("/api/v1/events").get_json()
    event_id = next(e["id"] for e in events if e["slug"] == KNOCKOUT)

    response = client.get(f"/director/events/{event_id}/downloads/tables.zip?lang=de")

    assert response.headers["Content-Disposition"] == f"attachment; filename={KNOCKOUT}-csv.zip"
    with zipfile.ZipFile(io.BytesIO(response.data)) as archive:
        assert f"{KNOCKOUT}-players.csv" in archive.namelist()
