"""Sessions end for real: a cookie copied before logout, a password change or a
deactivation opens nothing afterwards, on any device."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from tourney.store.queries import UserView

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a longer and newer passphrase"


def _log_in(app: Flask, user: UserView, password: str = PASSWORD) -> FlaskClient:
    device = app.test_client()
    response = device.post("/login", data={"email": user.email, "password": password})
    assert response.status_code == 302
    return device


def _is_logged_in(device: FlaskClient) -> bool:
    response = device.get("/director/")
    assert response.status_code in (200, 302)
    return response.status_code == 200


def test_logout_ends_a_copied_session_cookie(
    app: Flask, client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    cookie = client.get_cookie("session")
    assert cookie is not None

    client.post("/logout")
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)

    assert _is_logged_in(copy) is False


def test_logout_ends_the_session_on_every_device(
    app: Flask, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")
    laptop, phone = _log_in(app, user), _log_in(app, user)

    laptop.post("/logout")

    assert (_is_logged_in(laptop), _is_logged_in(phone)) == (False, False)


def test_password_change_keeps_this_device_and_ends_the_others(
    app: Flask, make_user: Callable[..., UserView]
) -> None:
    user = make_user("scorer")
    laptop, phone = _log_in(app, user), _log_in(app, user)

    response = laptop.post(
        "/account/password",
        data={"current_password": PASSWORD, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD},
    )

    assert (response.status_code, response.location) == (302, "/account/password")
    assert (_is_logged_in(laptop), _is_logged_in(phone)) == (True, False)
    assert _is_logged_in(_log_in(app, user, NEW_PASSWORD)) is True


def test_password_change_with_a_wrong_current_password_is_refused(
    app: Flask, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")
    laptop = _log_in(app, user)

    page = laptop.get("/account/password")
    refused = laptop.post(
        "/account/password",
        data={"current_password": "not it at all", "password": NEW_PASSWORD,
              "confirm": NEW_PASSWORD},
    )

    assert page.status_code == 200
    assert refused.status_code == 400
    assert "Your current password is wrong." in refused.get_data(as_text=True)
    assert _is_logged_in(laptop) is True


def test_admin_deactivates_an_account_and_its_sessions_end(
    app: Flask, client: FlaskClient, login_as: Callable[..., UserView],
    make_user: Callable[..., UserView],
) -> None:
    login_as("admin")
    director = make_user("director")
    desk = _log_in(app, director)

    response = client.post(f"/director/users/{director.id}/deactivate")
    again = app.test_client().post(
        "/login", data={"email": director.email, "password": PASSWORD}
    )

    assert (response.status_code, response.location) == (302, "/director/users")
    assert _is_logged_in(desk) is False
    assert "Wrong e-mail address or password." in again.get_data(as_text=True)
    assert f"{director.name}</th><td>{director.email}</td><td>Director (inactive)" in (
        client.get("/director/users").get_data(as_text=True)
    )


def test_deactivation_is_for_admins_and_never_of_oneself(
    app: Flask, client: FlaskClient, login_as: Callable[..., UserView],
    make_user: Callable[..., UserView],
) -> None:
    admin = login_as("admin")
    director = make_user("director")

    own = client.post(f"/director/users/{admin.id}/deactivate")
    by_director = _log_in(app, director).post(f"/director/users/{admin.id}/deactivate")

    assert own.status_code == 400
    assert "You cannot deactivate your own account." in own.get_data(as_text=True)
    assert by_director.status_code == 403
    assert _is_logged_in(client) is True
