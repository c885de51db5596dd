"""Hostile requests get a clear answer, never a 500: ids past any database integer,
NUL characters, JSON nested without end; director pages are never kept by a cache."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from tourney.store.queries import UserView

BEYOND = (2**31, 2**63, 2**64 + 1)


@pytest.mark.parametrize("value", BEYOND)
@pytest.mark.parametrize(
    "path",
    [
        "/director/events/{}",
        "/director/flights/{}",
        "/director/matches/{}",
        "/director/players/{}/edit",
        "/events/some-event/matches/{}",
        "/api/v1/events/{}",
    ],
)
def test_ids_past_any_database_integer_are_not_found(
    client: FlaskClient, login_as: Callable[..., UserView], path: str, value: int
) -> None:
    login_as("admin")

    response = client.get(path.format(value))

    assert response.status_code == 404


def test_nul_characters_are_refused_in_forms_queries_and_paths(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    form = client.post("/director/players", data={"name": "Ann\x00Berg", "club_id": ""})
    query = client.get("/director/players?q=a%00b")
    path = client.get("/events/club%00night")

    assert [r.status_code for r in (form, query, path)] == [400, 400, 400]
    assert "Text may not hold NUL characters (zero bytes)." in form.get_data(as_text=True)


def test_nul_characters_are_refused_at_login(client: FlaskClient) -> None:
    response = client.post("/login", data={"email": "a\x00@example.org", "password": "x" * 12})

    assert response.status_code == 400


def test_director_pages_are_kept_by_no_cache(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("admin")

    pages = [client.get(p) for p in ("/director/", "/director/users", "/account/password")]
    public = client.get("/")

    assert [p.headers.get("Cache-Control") for p in pages] == ["no-store"] * 3
    assert public.headers.get("Cache-Control") != "no-store"


def test_login_page_is_kept_by_no_cache(client: FlaskClient) -> None:
    assert client.get("/login").headers.get("Cache-Control") == "no-store"
