"""Players' pages in a real browser: phone screenshots, live updates, accessibility (axe)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_harness import DEMO_LOGIN, screenshot_path

from tourney.store import access
from tourney.store.audit import Actor
from tourney.store.db import make_engine, read_session, transaction
from tourney.store.tables import User

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
PHONE = {"width": 375, "height": 812}


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def _event_id(base_url: str, slug: str) -> int:
    return next(e["id"] for e in _get(f"{base_url}/api/v1/events") if e["slug"] == slug)


def _flight(base_url: str, event_id: int) -> dict[str, Any]:
    flights: list[dict[str, Any]] = _get(f"{base_url}/api/v1/events/{event_id}")["flights"]
    return flights[0]


def _director_token(folder: Path) -> str:
    engine = make_engine(f"sqlite:///{folder / 'tourney.db'}")
    with read_session(engine) as session:
        from sqlmodel import select

        user = session.exec(select(User).where(User.email == DEMO_LOGIN[0])).one()
        actor = Actor(user_id=user.id, label=user.email, role=user.role)
    with transaction(engine) as session:
        _, secret = access.create_api_token(session, actor=actor, name="e2e")
    engine.dispose()
    return secret


def _axe_violations(page: Any) -> list[dict[str, Any]]:
    # evaluate() runs outside the page's Content-Security-Policy, so axe can be injected.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    return found


def test_bracket_on_a_phone_scrolls_only_inside_the_bracket(page: Any, base_url: str) -> None:
    event_id = _event_id(base_url, "fjordside-spring-open")
    flight = _flight(base_url, event_id)
    page.set_viewport_size(PHONE)

    page.goto(f"{base_url}/events/fjordside-spring-open/flights/{flight['id']}")
    page.screenshot(path=str(screenshot_path("public-bracket-phone")), full_page=True)
    page_width = page.evaluate("document.documentElement.scrollWidth")
    bracket = page.evaluate(
        "(() => { const b = document.querySelector('.bracket');"
        " return [b.scrollWidth, b.clientWidth]; })()"
    )

    assert page_width <= PHONE["width"]
    assert bracket[0] > bracket[1]
    assert "Åsa Lindqvist" in page.inner_text(".bracket-champion")


def test_bracket_on_a_venue_screen(page: Any, base_url: str) -> None:
    event_id = _event_id(base_url, "fjordside-spring-open")
    flight = _flight(base_url, event_id)
    page.set_viewport_size({"width": 1920, "height": 1080})

    page.goto(f"{base_url}/events/fjordside-spring-open/flights/{flight['id']}")
    page.screenshot(path=str(screenshot_path("public-bracket-wide")), full_page=True)

    assert page.locator(".bracket-round").count() == 5


def test_pairings_and_standings_on_a_phone(page: Any, base_url: str) -> None:
    event_id = _event_id(base_url, "monday-swiss")
    flight = _flight(base_url, event_id)
    page.set_viewport_size(PHONE)

    page.goto(f"{base_url}/events/monday-swiss/flights/{flight['id']}")
    page.screenshot(path=str(screenshot_path("public-pairings-phone")), full_page=True)
    rows = page.locator("table.pairings tbody tr").count()
    page.goto(f"{base_url}/events/monday-swiss/flights/{flight['id']}/standings")
    page.screenshot(path=str(screenshot_path("public-standings-phone")), full_page=True)

    assert rows >= 4
    # On a phone the headings are short (the full name in the title) and every column fits
    # the screen: nothing to scroll sideways.
    assert page.locator("table.standings thead abbr[title='Buchholz']").text_content() == "Buch."
    wrap = page.locator(".table-wrap")
    assert wrap.evaluate("element => element.scrollWidth <= element.clientWidth")


def _post(url: str, token: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_match_page_on_a_phone_shows_every_games_column(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    # A 5-point match with the widest game rows there are: a gammon on a 2-cube takes
    # side a to 4-0 (N-1), so game 2 is the Crawford game, which b wins by a resigned
    # backgammon (4-3); in game 3, post-Crawford, a drops b's double: b wins 5-4.
    flight = _flight(base_url, _event_id(base_url, "monday-swiss"))
    rounds = _get(f"{base_url}/api/v1/flights/{flight['id']}/rounds")["rounds"]
    match = next(m for r in rounds for m in r["matches"] if m["status"] == "ready")
    url = f"{base_url}/api/v1/matches/{match['id']}/games"
    token = _director_token(tmp_path)
    version = match["version"]
    for game in (
        {"winner": "a", "end": "played", "cube": 2, "level": "gammon"},
        {"winner": "b", "end": "resigned", "cube": 1, "level": "backgammon"},
        {"winner": "b", "end": "dropped", "cube": 2, "level": None},
    ):
        # Each change names the version it saw, so it can never overwrite a newer result.
        version = _post(url, token, {**game, "expected_version": version})["match"]["version"]
    page.set_viewport_size(PHONE)

    page.goto(f"{base_url}/events/monday-swiss/matches/{match['id']}")
    page.screenshot(path=str(screenshot_path("public-match-phone")), full_page=True)
    wrap = page.locator(".table-wrap")
    scores = page.locator("table.games td.score")

    assert scores.all_inner_texts() == ["4-0", "4-3", "4-5"]
    assert wrap.evaluate("element => element.scrollWidth <= element.clientWidth")
    assert max(box["x"] + box["width"] for box in map(_box, scores.all())) <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _box(locator: Any) -> dict[str, float]:
    box: dict[str, float] = locator.bounding_box()
    return box


def test_standings_update_without_reload_after_a_result(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    event_id = _event_id(base_url, "monday-swiss")
    flight = _flight(base_url, event_id)
    pairings = _get(f"{base_url}/api/v1/flights/{flight['id']}/rounds")
    ready = next(m for r in pairings["rounds"] for m in r["matches"] if m["status"] == "ready")
    winner = ready["a"]["name"]
    standings = _get(f"{base_url}/api/v1/flights/{flight['id']}/standings")["standings"]
    wins_before = next(s["wins"] for s in standings if s["player"]["name"] == winner)
    token = _director_token(tmp_path)
    page.goto(f"{base_url}/events/monday-swiss/flights/{flight['id']}/standings")
    page.evaluate("window.__notReloaded = true")
    # The winner's own row: another row's tiebreak note may name the winner too.
    row = page.locator("table.standings tbody tr").filter(
        has=page.get_by_role("link", name=winner, exact=True)
    )
    before = row.inner_text()

    request = urllib.request.Request(
        f"{base_url}/api/v1/matches/{ready['id']}/score",
        data=json.dumps({"score_a": ready["length"], "score_b": 0}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    page.wait_for_function(
        "([name, wins]) => [...document.querySelectorAll('table.standings tbody tr')]"
        ".some(r => r.querySelector('th a')?.innerText === name"
        " && r.innerText.includes(wins + '–'))",
        arg=[winner, wins_before + 1],
        timeout=12_000,
    )

    assert page.evaluate("window.__notReloaded") is True
    assert row.inner_text() != before


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/events/fjordside-spring-open",
        "/events/fjordside-spring-open/flights/{knockout}",
        "/events/monday-swiss/flights/{swiss}",
        "/events/monday-swiss/flights/{swiss}/standings",
        "/events/monday-swiss/players?q=a",
        "/events/monday-swiss/players/{player}",
        "/events/monday-swiss/matches/{match}",
    ],
)
def test_public_pages_have_no_serious_accessibility_violations(
    page: Any, base_url: str, path: str
) -> None:
    swiss_event = _event_id(base_url, "monday-swiss")
    swiss = _flight(base_url, swiss_event)["id"]
    knockout = _flight(base_url, _event_id(base_url, "fjordside-spring-open"))["id"]
    rounds = _get(f"{base_url}/api/v1/flights/{swiss}/rounds")["rounds"]
    first = rounds[0]["matches"][0]
    url = base_url + path.format(
        knockout=knockout, swiss=swiss, player=first["a"]["entry_id"], match=first["id"]
    )
    page.set_viewport_size(PHONE)
    page.goto(url)

    violations = _axe_violations(page)

    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert serious == []
