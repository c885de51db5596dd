"""A refusal from the store reaches the page in the language it is served in: a failed
login, a clock button pressed twice, a division setting that cannot be, a player's
impossible report.

The German sentences of the first three are a small stand-in catalogue written here by
hand: what is tested is that these pages pass the store's sentence through the reader's
catalogue instead of showing the English text. The report's sentence is the German core
catalogue's own.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from gettext import NullTranslations
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from test_web_clocks import log_in, published_knockout
from test_web_selfservice import link, published, the_match

from tourney import i18n
from tourney.store.queries import UserView

if TYPE_CHECKING:
    from conftest import BuiltEvent

GERMAN = {
    "Wrong e-mail address or password.": "E-Mail-Adresse oder Passwort ist falsch.",
    "This match was started already.": "Dieses Match wurde schon gestartet.",
    "Choose 0-0, ½-½ or 1-1 for a drawn game.":
        "Wählen Sie 0-0, ½-½ oder 1-1 für ein unentschiedenes Spiel.",
}


class _German(NullTranslations):
    """The stand-in catalogue: the sentences above, English for anything else."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = i18n.core_catalogue
    monkeypatch.setattr(
        i18n, "core_catalogue", lambda code: _German() if code == "de" else real(code)
    )
    yield


def test_a_failed_login_is_told_in_the_pages_language(
    client: FlaskClient, make_user: Callable[..., UserView], german: None
) -> None:
    user = make_user("director")

    german_page = client.post(
        "/login?lang=de", data={"email": user.email, "password": "not the password"}
    ).get_data(as_text=True)
    english_page = client.post(
        "/login?lang=en", data={"email": user.email, "password": "not the password"}
    ).get_data(as_text=True)

    assert "E-Mail-Adresse oder Passwort ist falsch." in german_page
    assert "Wrong e-mail address or password." not in german_page
    assert "Wrong e-mail address or password." in english_page


def test_a_clock_button_pressed_twice_is_refused_in_the_pages_language(
    app: Flask, engine: Engine, build_event: Callable[..., BuiltEvent], german: None
) -> None:
    built, match_id = published_knockout(engine, build_event)
    client = app.test_client()
    log_in(client, built.director.email)
    client.post(f"/director/matches/{match_id}/start?lang=de")

    again = client.post(f"/director/matches/{match_id}/start?lang=de", follow_redirects=True)

    assert "Dieses Match wurde schon gestartet." in html.unescape(again.get_data(as_text=True))


def test_a_refused_division_setting_is_flashed_in_the_pages_language(
    app: Flask, engine: Engine, build_event: Callable[..., BuiltEvent], german: None
) -> None:
    built, _ = published_knockout(engine, build_event)
    client = app.test_client()
    log_in(client, built.director.email)

    refused = client.post(
        f"/director/events/{built.event_id}/divisions?lang=de",
        data={"divisions": "", "draw_scoring": "two"},
        follow_redirects=True,
    )

    page = html.unescape(refused.get_data(as_text=True))
    assert "Wählen Sie 0-0, ½-½ oder 1-1 für ein unentschiedenes Spiel." in page


def test_a_players_impossible_report_is_refused_in_the_pages_language(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """2-2 does not finish a 3-point match; the German catalogue says so as "Ein Endstand
    von 2-2 beendet kein Match auf 3 Punkte: ein Spieler muss 3 erreichen."."""
    built = published(engine, build_event, "Club Night")
    dan = link(app, engine, built, "Dan Dunn")
    match = the_match(engine, built)

    refused = client.post(f"{dan}/matches/{match.id}/report?lang=de",
                          data={"my_score": "2", "their_score": "2"})

    page = html.unescape(refused.get_data(as_text=True))
    assert refused.status_code == 400
    assert (
        "Ein Endstand von 2-2 beendet kein Match auf 3 Punkte: ein Spieler muss 3 erreichen."
        in page
    )
