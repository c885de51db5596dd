"""The language a page is served in: ``?lang=``, then the saved choice, then the
browser's ``Accept-Language``, then English; ``<html lang>`` names it (DESIGN section 9)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


def _html_lang(client: FlaskClient, path: str = "/", **kwargs: object) -> str:
    page = client.get(path, **kwargs).get_data(as_text=True)  # type: ignore[arg-type]
    start = page.index('<html lang="') + len('<html lang="')
    return page[start : page.index('"', start)]


def test_a_visitor_without_preferences_gets_english(client: FlaskClient) -> None:
    assert _html_lang(client) == "en"


@pytest.mark.parametrize("code", ["de", "ru", "el", "tr", "en"])
def test_lang_in_the_address_chooses_the_language(client: FlaskClient, code: str) -> None:
    assert _html_lang(client, f"/?lang={code}") == code


def test_the_browser_language_is_used_when_the_address_names_none(client: FlaskClient) -> None:
    assert _html_lang(client, headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}) == "ru"
    assert _html_lang(client, headers={"Accept-Language": "fr-FR, el;q=0.4"}) == "el"
    assert _html_lang(client, headers={"Accept-Language": "fr-FR, ja;q=0.4"}) == "en"


def test_the_address_beats_the_browser_and_the_choice_is_kept(client: FlaskClient) -> None:
    assert _html_lang(client, "/?lang=tr", headers={"Accept-Language": "de"}) == "tr"
    # The next page, without ?lang=, stays in the language chosen.
    assert _html_lang(client, "/", headers={"Accept-Language": "de"}) == "tr"


def test_an_unknown_language_in_the_address_is_ignored(client: FlaskClient) -> None:
    assert _html_lang(client, "/?lang=xx", headers={"Accept-Language": "de"}) == "de"


def test_every_page_offers_the_five_languages(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for code, name in [("en", "English"), ("de", "Deutsch"), ("ru", "Русский"),
                       ("el", "Ελληνικά"), ("tr", "Türkçe")]:
        assert f'hreflang="{code}"' in page and name in page
