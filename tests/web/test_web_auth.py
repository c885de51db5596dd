"""First run, login, logout and the login rate limit."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from tourney.store.queries import UserView

PASSWORD = "correct horse battery staple"


def test_first_run_redirects_login_to_setup(client: FlaskClient) -> None:
    response = client.get("/login")

    assert (response.status_code, response.location) == (302, "/setup")


def test_first_run_creates_admin_and_logs_in(client: FlaskClient) -> None:
    response = client.post(
        "/setup",
        data={"name": "Åse", "email": "ase@example.org", "password": PASSWORD, "confirm": PASSWORD},
    )
    page = client.get("/director/users")

    assert (response.status_code, response.location) == (302, "/director/")
    assert page.status_code == 200
    assert "ase@example.org" in page.get_data(as_text=True)
    assert client.get("/setup").status_code == 404


def test_setup_shows_mismatched_passwords(client: FlaskClient) -> None:
    response = client.post(
        "/setup",
        data={"name": "A", "email": "a@example.org", "password": PASSWORD, "confirm": "other"},
    )

    assert response.status_code == 200
    assert "The passwords differ." in response.get_data(as_text=True)


def test_login_wrong_password_then_right(
    client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")

    wrong = client.post("/login", data={"email": user.email, "password": "nope nope"})
    right = client.post("/login", data={"email": user.email, "password": PASSWORD})

    assert wrong.status_code == 200
    assert "Wrong e-mail address or password." in wrong.get_data(as_text=True)
    assert (right.status_code, right.location) == (302, "/director/")


def test_login_rate_limit_refuses_even_the_right_password(
    make_app: Callable[..., Flask], make_user: Callable[..., UserView]
) -> None:
    app = make_app(LOGIN_MAX_FAILURES=3)
    user = make_user("director")
    client = app.test_client()
    for _ in range(3):
        client.post("/login", data={"email": user.email, "password": "guess guess"})

    locked = client.post("/login", data={"email": user.email, "password": PASSWORD})

    assert locked.status_code == 429
    assert "Too many failed logins" in locked.get_data(as_text=True)


def test_rate_limit_is_shared_by_every_app_on_the_database(
    make_app: Callable[..., Flask], make_user: Callable[..., UserView]
) -> None:
    # Two apps on one database stand for two workers: the attempts live in the database.
    first, second = make_app(LOGIN_MAX_FAILURES=2), make_app(LOGIN_MAX_FAILURES=2)
    user = make_user("director")
    first.test_client().post("/login", data={"email": user.email, "password": "guess guess"})
    second.test_client().post("/login", data={"email": user.email, "password": "guess guess"})

    locked = first.test_client().post("/login", data={"email": user.email, "password": PASSWORD})

    assert locked.status_code == 429


def test_login_never_redirects_to_another_site(
    client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")

    response = client.post(
        "/login?next=https://evil.example/x", data={"email": user.email, "password": PASSWORD}
    )

    assert response.location == "/director/"


def test_login_returns_to_the_page_asked_for(
    client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")

    response = client.post(
        "/login?next=/director/players", data={"email": user.email, "password": PASSWORD}
    )

    assert response.location == "/director/players"


def test_logout_is_a_post_and_ends_the_session(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    assert client.get("/logout").status_code == 405
    assert client.post("/logout").status_code == 302
    assert client.get("/director/").status_code == 302
