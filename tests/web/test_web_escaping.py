"""Every text a user typed is escaped wherever it is shown, and non-ASCII names survive."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask.testing import FlaskClient

from tourney.store.queries import UserView

SCRIPT = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
NORDIC = "Bjørn Ødegård"


def _pages(client: FlaskClient) -> dict[str, str]:
    created = client.post(
        "/director/events/new",
        data={
            "name": f"Cup {SCRIPT}",
            "crawford": "y",
            "is_public": "y",
            "venue_name": SCRIPT,
            "notes": SCRIPT,
        },
    )
    assert created.status_code == 302
    event_path = created.location
    event_id = int(re.findall(r"\d+", event_path)[0])
    for name in (SCRIPT, NORDIC):
        assert client.post("/director/players", data={"name": name}).status_code == 302
    entries = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    for value in re.findall(r'<option value="(\d+)">', entries):
        client.post(f"/director/events/{event_id}/entries", data={"player_id": value})
    client.post(
        f"/director/events/{event_id}/flights/new",
        data={"name": SCRIPT, "format": "swiss", "match_length": "5", "draw_method": "random"},
    )
    slug = re.findall(r'href="/events/([^"]+)"', client.get(event_path).get_data(as_text=True))[0]
    paths = {
        "events": "/director/",
        "event": event_path,
        "entries": f"/director/events/{event_id}/entries",
        "players": "/director/players",
        "search": "/director/players?q=%3Cscript%3E",
        "audit": f"/director/events/{event_id}/audit",
        "public index": "/",
        "public event": f"/events/{slug}",
    }
    return {key: client.get(path).get_data(as_text=True) for key, path in paths.items()}


def test_script_names_are_escaped_everywhere(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    pages = _pages(client)

    raw = [name for name, html in pages.items() if SCRIPT in html]
    escaped = [name for name, html in pages.items() if ESCAPED in html]
    assert raw == []
    assert escaped == list(pages)


def test_nordic_names_are_shown_as_typed(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    pages = _pages(client)

    assert [n for n in ("entries", "players", "public event") if NORDIC in pages[n]] == [
        "entries",
        "players",
        "public event",
    ]


def test_api_returns_names_as_json_text(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    _pages(client)

    events = client.get("/api/v1/events").get_json()

    assert [e["name"] for e in events] == [f"Cup {SCRIPT}"]
    assert client.get("/api/v1/events").content_type == "application/json"
