"""Route protection: every route that changes anything needs a login and the right role.

The inventory walks ``app.url_map``, so a route added later without a guard fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from tourney.store.queries import UserView
from tourney.web.auth import PUBLIC_ENDPOINT_ATTR, ROLES_ATTR

MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
# Open on purpose: logging in, and the first-run page (which exists only while there is
# no account at all; see test_web_auth).
OPEN_MUTATING = {
    "auth.login",
    "auth.setup",
    # A player's own link is the key: these answer 404 without a valid one.
    "players.check_in",
    "players.report",
    "players.confirm",
    "players.dispute",
    "players.withdraw",
    # Online registration is open to anyone while the event has it open.
    "players.register",
    "players.confirm_registration",
}


def _mutating_rules(app: Flask) -> list[Rule]:
    return [r for r in app.url_map.iter_rules() if (r.methods or set()) & MUTATING]


def _url(rule: Rule) -> str:
    return re.sub(r"<(?:[^:>]+:)?[^>]+>", "1", rule.rule)


def _guard(app: Flask, rule: Rule) -> tuple[frozenset[str] | None, bool]:
    view = app.view_functions[rule.endpoint]
    return getattr(view, ROLES_ATTR, None), getattr(view, PUBLIC_ENDPOINT_ATTR, False)


def test_inventory_every_mutating_route_is_guarded_or_deliberately_open(app: Flask) -> None:
    unguarded = []
    for rule in _mutating_rules(app):
        roles, is_public = _guard(app, rule)
        if roles is None and not (is_public and rule.endpoint in OPEN_MUTATING):
            unguarded.append(rule.endpoint)

    assert unguarded == []
    assert len(_mutating_rules(app)) >= 10


def test_every_route_is_guarded_or_marked_public(app: Flask) -> None:
    unmarked = [
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static" and _guard(app, rule) == (None, False)
    ]

    assert unmarked == []


def test_anonymous_mutations_are_refused(
    app: Flask, client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    make_user("admin")  # the first-run page is closed once an account exists
    answers = {}
    for rule in _mutating_rules(app):
        if rule.endpoint in OPEN_MUTATING:
            continue
        for method in sorted((rule.methods or set()) & MUTATING):
            response = client.open(_url(rule), method=method, data={})
            answers[f"{method} {rule.rule}"] = (response.status_code, response.location or "")

    opened = {
        k: v
        for k, v in answers.items()
        if not (v[0] == 401 or (v[0] == 302 and v[1].startswith("/login")))
    }
    assert opened == {}
    assert answers != {}


def test_setup_is_closed_once_an_account_exists(
    client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    make_user("director")

    response = client.post(
        "/setup",
        data={
            "name": "Intruder",
            "email": "i@example.org",
            "password": "x" * 12,
            "confirm": "x" * 12,
        },
    )

    assert response.status_code == 404


def test_scorer_is_refused_every_director_mutation(
    app: Flask, client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("scorer")
    answers = {}
    for rule in _mutating_rules(app):
        roles, _ = _guard(app, rule)
        if roles is None or "scorer" in roles:
            continue
        response = client.open(_url(rule), method="POST", data={})
        answers[rule.rule] = response.status_code

    assert set(answers.values()) == {403}
    assert "/director/events/new" in answers


def test_director_is_refused_admin_pages(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    assert client.get("/director/users").status_code == 403
    assert client.post("/director/users", data={}).status_code == 403


def test_director_pages_need_login(client: FlaskClient) -> None:
    response = client.get("/director/")

    assert (response.status_code, response.location) == (302, "/login?next=/director/")
