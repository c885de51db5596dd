"""TOURNEY_BEHIND_PROXY: forwarded HTTPS is trusted, cookies are Secure, HSTS is sent."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from werkzeug.test import TestResponse

from tourney.config import load_settings
from tourney.store.queries import UserView

PASSWORD = "correct horse battery staple"

HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}


def test_the_setting_is_read_from_the_environment() -> None:
    settings = load_settings(environ={"TOURNEY_BEHIND_PROXY": "yes"})

    assert settings.behind_proxy is True


def _log_in(app: Flask, user: UserView) -> TestResponse:
    return app.test_client().post(
        "/login", data={"email": user.email, "password": PASSWORD}, headers=HTTPS
    )


def test_behind_a_proxy_an_https_answer_has_hsts_and_a_secure_session_cookie(
    make_app: Callable[..., Flask], make_user: Callable[..., UserView]
) -> None:
    page = _log_in(make_app(BEHIND_PROXY=True), make_user())

    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookie = page.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "Secure" in cookie


def test_without_the_setting_forwarded_headers_are_not_trusted(
    make_app: Callable[..., Flask], make_user: Callable[..., UserView]
) -> None:
    page = _log_in(make_app(), make_user())

    assert "Strict-Transport-Security" not in page.headers
    assert "Secure" not in page.headers["Set-Cookie"]
