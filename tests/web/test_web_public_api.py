"""Public pages, the JSON API contract, health check and error pages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

from tourney.store import events
from tourney.store.db import transaction
from tourney.store.events import EventFields
from tourney.store.queries import UserView


def _event(engine: Engine, user: UserView, name: str, *, public: bool) -> int:
    with transaction(engine) as session:
        return events.create_event(
            session,
            actor=user.actor,
            fields=EventFields(name=name, is_public=public, starts_on=date(2025, 3, 6)),
        ).id


def test_api_events_lists_public_events_only(
    client: FlaskClient, engine: Engine, make_user: Callable[..., UserView]
) -> None:
    director = make_user("director")
    shown = _event(engine, director, "Open Night", public=True)
    _event(engine, director, "Private Practice", public=False)

    response = client.get("/api/v1/events")

    body = response.get_json()
    assert response.status_code == 200
    assert [(e["id"], e["slug"], e["name"]) for e in body] == [(shown, "open-night", "Open Night")]
    assert body[0]["starts_on"] == "2025-03-06"


def test_api_event_detail_and_404(
    client: FlaskClient, engine: Engine, make_user: Callable[..., UserView]
) -> None:
    director = make_user("director")
    shown = _event(engine, director, "Open Night", public=True)
    hidden = _event(engine, director, "Private", public=False)

    detail = client.get(f"/api/v1/events/{shown}")
    missing = client.get(f"/api/v1/events/{hidden}")

    assert (detail.status_code, detail.get_json()["rules"]["crawford"]) == (200, True)
    assert (missing.status_code, missing.get_json()) == (
        404,
        {"error": {"status": 404, "message": "No such event."}},
    )


def test_api_errors_are_json(client: FlaskClient) -> None:
    unknown = client.get("/api/v1/nothing-here")
    wrong_method = client.post("/api/v1/events")

    assert (unknown.status_code, unknown.get_json()["error"]["status"]) == (404, 404)
    assert (wrong_method.status_code, wrong_method.get_json()["error"]["status"]) == (405, 405)


def test_openapi_document_lists_events(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()

    assert document["openapi"].startswith("3.")
    assert "/api/v1/events" in document["paths"]


def test_public_pages_show_public_events_and_hide_private(
    client: FlaskClient, engine: Engine, make_user: Callable[..., UserView]
) -> None:
    director = make_user("director")
    _event(engine, director, "Open Night", public=True)
    _event(engine, director, "Private Practice", public=False)

    index = client.get("/").get_data(as_text=True)
    page = client.get("/events/open-night")
    hidden = client.get("/events/private-practice")

    assert "Open Night" in index and "Private Practice" not in index
    assert (page.status_code, hidden.status_code) == (200, 404)


def test_healthz_ok(client: FlaskClient) -> None:
    response = client.get("/healthz")

    assert (response.status_code, response.get_json()) == (200, {"status": "ok"})


def test_healthz_reports_unreachable_database() -> None:
    from tourney.web import create_app

    dead = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "CHECK_SCHEMA": False}, engine=dead)

    response = app.test_client().get("/healthz")

    assert (response.status_code, response.get_json()["status"]) == (503, "unavailable")


def test_not_found_page_is_html_without_traceback(client: FlaskClient) -> None:
    response = client.get("/no/such/page")

    text = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "There is nothing at this address." in text and "Traceback" not in text


def test_server_error_page_hides_the_exception(make_app: Callable[..., Flask]) -> None:
    app = make_app(TESTING=False)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")

    text = response.get_data(as_text=True)
    assert response.status_code == 500
    assert "Something went wrong" in text and "secret internals" not in text


def test_pages_carry_security_headers(client: FlaskClient) -> None:
    response = client.get("/")

    assert response.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
