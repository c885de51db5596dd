"""CSRF: every form post needs the token of the session that rendered the form."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tourney.store.queries import UserView

PASSWORD = "correct horse battery staple"


@pytest.fixture
def csrf_app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(CSRF_ENABLED=True)


def _token(client: FlaskClient, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page
    )
    assert found is not None, page
    return found.group(1)


def _logged_in(app: Flask, user: UserView) -> FlaskClient:
    client = app.test_client()
    token = _token(client, "/login")
    response = client.post(
        "/login", data={"email": user.email, "password": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 302
    return client


def test_login_without_token_is_refused(
    csrf_app: Flask, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")

    response = csrf_app.test_client().post(
        "/login", data={"email": user.email, "password": PASSWORD}
    )

    assert response.status_code == 400
    assert "The form expired" in response.get_data(as_text=True)


def test_form_post_without_token_changes_nothing(
    csrf_app: Flask, make_user: Callable[..., UserView]
) -> None:
    client = _logged_in(csrf_app, make_user("director"))

    refused = client.post("/director/events/new", data={"name": "Forged"})
    listing = client.get("/director/").get_data(as_text=True)

    assert refused.status_code == 400
    assert "Forged" not in listing


def test_form_post_with_token_works(csrf_app: Flask, make_user: Callable[..., UserView]) -> None:
    client = _logged_in(csrf_app, make_user("director"))
    token = _token(client, "/director/events/new")

    response = client.post(
        "/director/events/new", data={"name": "Genuine", "crawford": "y", "csrf_token": token}
    )

    assert response.status_code == 302
    assert "Genuine" in client.get("/director/").get_data(as_text=True)


def test_token_from_another_session_is_refused(
    csrf_app: Flask, make_user: Callable[..., UserView]
) -> None:
    victim = _logged_in(csrf_app, make_user("director"))
    attacker = csrf_app.test_client()
    foreign_token = _token(attacker, "/login")

    response = victim.post(
        "/director/events/new", data={"name": "Forged", "csrf_token": foreign_token}
    )

    assert response.status_code == 400


def test_logout_button_carries_a_token(csrf_app: Flask, make_user: Callable[..., UserView]) -> None:
    client = _logged_in(csrf_app, make_user("director"))
    token = _token(client, "/director/")

    assert client.post("/logout").status_code == 400
    assert client.post("/logout", data={"csrf_token": token}).status_code == 302
