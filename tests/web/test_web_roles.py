"""Pages show what a role may do: navigation, the accounts list and the account form."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from tourney.store.queries import UserView


def _nav(html: str) -> list[str]:
    # The first list of the main navigation: its pages (the language menu follows it).
    nav = re.search(r'<nav aria-label="Main">.*?<ul>(.*?)</ul>', html, re.S)
    assert nav is not None
    return re.findall(r"<li><a [^>]*>([^<]+)</a></li>", nav.group(1))


@pytest.mark.parametrize(
    ("role", "links"),
    [
        ("scorer", ["Events", "My events", "API tokens", "Password"]),
        ("director", ["Events", "My events", "Players", "API tokens", "Password"]),
        ("admin", ["Events", "My events", "Players", "Accounts", "API tokens", "Password"]),
    ],
)
def test_navigation_offers_what_the_role_may_do(
    client: FlaskClient, login_as: Callable[..., UserView], role: str, links: list[str]
) -> None:
    login_as(role)

    page = client.get("/director/").get_data(as_text=True)

    assert _nav(page) == links


@pytest.mark.parametrize(("role", "offered"), [("scorer", False), ("director", True)])
def test_new_event_button_only_for_accounts_that_direct_events(
    client: FlaskClient, login_as: Callable[..., UserView], role: str, offered: bool
) -> None:
    login_as(role)

    page = client.get("/director/").get_data(as_text=True)

    assert ("New event" in page) is offered


def test_accounts_page_names_the_roles_by_their_labels(
    client: FlaskClient, login_as: Callable[..., UserView], make_user: Callable[..., UserView]
) -> None:
    login_as("admin", email="admin@example.org")
    make_user("scorer", email="scorer@example.org")

    page = client.get("/director/users").get_data(as_text=True)

    roles = dict(re.findall(r"<td>([^<]+@example\.org)</td><td>([^<]+)</td>", page))
    choices = re.findall(r'<option[^>]*value="(\w+)"[^>]*>([^<]+)</option>', page)
    assert roles == {"admin@example.org": "Admin", "scorer@example.org": "Scorer"}
    assert choices == [
        ("director", "Director — runs their own events"),
        ("scorer", "Scorer — enters results"),
        ("admin", "Admin — everything"),
    ]
