"""Sharing: a private event's share link and its renewal; API tokens made and revoked."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask
from flask.testing import FlaskClient

from tourney.store.queries import UserView

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"


def _share_key(client: FlaskClient, event_id: int) -> str:
    page = client.get(f"/director/events/{event_id}/sharing").get_data(as_text=True)
    found = re.search(r'id="share-url" class="share-url" value="[^"]*\?key=([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_renewed_share_link_closes_the_old_one(
    app: Flask, client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [], is_public=True)
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    client.post(f"/director/events/{built.event_id}/sharing/private")
    old = _share_key(client, built.event_id)

    renewed = client.post(f"/director/events/{built.event_id}/sharing/renew", follow_redirects=True)
    new = _share_key(client, built.event_id)
    old_holder, new_holder = app.test_client(), app.test_client()

    assert "New share link made; the old one no longer opens the event." in renewed.get_data(
        as_text=True
    )
    assert new != old
    assert old_holder.get(f"/events/club-night?key={old}").status_code == 404
    assert new_holder.get(f"/events/club-night?key={new}").status_code == 302
    assert new_holder.get("/events/club-night").status_code == 200


def test_revoked_token_no_longer_opens_the_api(
    client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")
    client.post("/login", data={"email": user.email, "password": PASSWORD})
    created = client.post("/account/tokens", data={"name": "scoreboard"}).get_data(as_text=True)
    secret = created.split('id="new-token" value="')[1].split('"')[0]
    token_id = re.search(r'action="/account/tokens/(\d+)/revoke"', created)
    assert token_id is not None

    revoked = client.post(f"/account/tokens/{token_id.group(1)}/revoke", follow_redirects=True)
    client.post("/logout")
    answer = client.post(
        "/api/v1/events/1/players/1/withdraw", headers={"Authorization": f"Bearer {secret}"}
    )

    text = revoked.get_data(as_text=True)
    assert "Token “scoreboard” revoked." in text
    assert "<td>Revoked</td>" in text
    assert answer.status_code == 401


def test_event_created_private_shows_its_share_link_at_once(
    app: Flask, client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [], is_public=False)
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})

    key = _share_key(client, built.event_id)
    holder = app.test_client()

    assert holder.get(f"/events/club-night?key={key}").status_code == 302
    assert holder.get("/events/club-night").status_code == 200


def test_share_link_uses_the_configured_public_address(
    make_app: Callable[..., Flask], build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [], is_public=False)
    client = make_app(PUBLIC_URL="http://192.168.1.20:5000/").test_client()
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})

    page = client.get(f"/director/events/{built.event_id}/sharing").get_data(as_text=True)

    assert 'value="http://192.168.1.20:5000/events/club-night?key=' in page
