"""Team events through the web: the team form, the fixtures page with its draw button and
standings, a fixture's boards, its score sheet, the public pages and the API."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import results, teams
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
TEAM_FLIGHT = {"name": "League", "format": "roundrobin", "match_length": 3, "boards": 3}


def login(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def two_teams(client: FlaskClient, built: BuiltEvent) -> None:
    for name, members in (
        ("Rooks", "Ann\nAl & Amy\nAda"),
        ("Knights", "Ben\nBo\nBea"),
    ):
        response = client.post(
            f"/director/events/{built.event_id}/teams", data={"name": name, "members": members}
        )
        assert response.status_code == 302


def play_first_fixture(engine: Engine, built: BuiltEvent, scores: list[tuple[int, int]]) -> int:
    with Session(engine) as session:
        fixture = teams.team_flight_view(session, built.flights["League"]).rounds[0].fixtures[0]
    for board, (a, b) in zip(fixture.boards, scores, strict=True):
        with transaction(engine) as session:
            results.record_final_score(
                session, actor=built.director.actor, match_id=board.match_id, score_a=a, score_b=b
            )
    return fixture.id


def test_team_form_lists_the_team_in_board_order(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT])
    login(client, built)

    two_teams(client, built)

    page = text_of(client.get(f"/director/events/{built.event_id}/teams").get_data(as_text=True))
    assert "Rooks Ann Al & Amy Ada" in page
    assert "Knights Ben Bo Bea" in page


def test_team_form_refuses_a_team_of_one_with_a_message(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT])
    login(client, built)

    response = client.post(
        f"/director/events/{built.event_id}/teams", data={"name": "Solo", "members": "Sam"}
    )

    assert response.status_code == 400
    assert "Team 'Solo' has 1 player(s); a team needs 2 to 7." in text_of(
        response.get_data(as_text=True)
    )


def test_flight_form_refuses_eight_boards(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [])
    login(client, built)

    response = client.post(
        f"/director/events/{built.event_id}/flights/new",
        data={
            "name": "League",
            "format": "roundrobin",
            "match_length": "3",
            "draw_method": "random",
            "pool_seeding": "snake",
            "cut_ties": "tiebreaks",
            "boards": "8",
        },
    )

    assert response.status_code == 400
    assert "Number must be between 1 and 7." in text_of(response.get_data(as_text=True))


def test_draw_button_draws_round_one_and_the_fixture_page_lists_its_boards(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT])
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]

    drawn = client.post(f"/director/flights/{flight_id}/fixtures/draw", data={"seed": "4"})
    page = client.get(f"/director/flights/{flight_id}/fixtures").get_data(as_text=True)
    fixture_id = int(re.findall(r"/director/fixtures/(\d+)", page)[0])
    fixture = text_of(client.get(f"/director/fixtures/{fixture_id}").get_data(as_text=True))

    assert drawn.status_code == 302
    assert "Round 1" in text_of(page)
    assert "Every team has met every other: the round robin is over." not in text_of(page)
    assert re.search(r"1 (Ann|Ben) (Ben|Ann) 0–0 3 2 (Al & Amy|Bo) (Bo|Al & Amy) 0–0 3", fixture)


def test_second_draw_before_the_first_round_is_played_is_refused(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT])
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]
    client.post(f"/director/flights/{flight_id}/fixtures/draw", data={})

    response = client.post(f"/director/flights/{flight_id}/fixtures/draw", data={})

    assert response.status_code == 400
    assert "Round 1 is still being played: finish its fixtures first." in text_of(
        response.get_data(as_text=True)
    )


def test_finished_fixture_shows_on_the_standings_and_the_public_pages(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT], is_public=True)
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]
    client.post(f"/director/flights/{flight_id}/fixtures/draw", data={"seed": "4"})
    # Team a wins boards 1 and 2, loses board 3: 2-1; board points 3+3+1 = 7 to 1+2+3 = 6.
    fixture_id = play_first_fixture(engine, built, [(3, 1), (3, 2), (1, 3)])
    with Session(engine) as session:
        winner = teams.fixture_view(session, fixture_id).a

    director = text_of(client.get(f"/director/flights/{flight_id}/fixtures").get_data(as_text=True))
    public = text_of(
        client.get(f"/events/club-night/flights/{flight_id}/fixtures").get_data(as_text=True)
    )
    fixture = text_of(
        client.get(f"/events/club-night/fixtures/{fixture_id}").get_data(as_text=True)
    )

    loser = "Knights" if winner == "Rooks" else "Rooks"
    standings = f"1 {winner} 1 2 7 2 {loser} 0 1 6"
    assert standings in director
    assert standings in public
    assert f"2–1 {winner} won on boards" in fixture


def test_score_sheet_is_a_pdf_of_one_page_a_fixture(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT])
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]
    client.post(f"/director/flights/{flight_id}/fixtures/draw", data={"seed": "4"})

    response = client.get(f"/director/flights/{flight_id}/fixtures/scoresheets.pdf")

    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="club-night-round-1-team-scoresheets.pdf"'
    )
    # Two teams: one fixture, one page.
    assert len(re.findall(rb"/Type\s*/Page[^s]", response.get_data())) == 1


def test_api_lists_teams_fixtures_and_boards(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT], is_public=True)
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]
    client.post(f"/director/flights/{flight_id}/fixtures/draw", data={"seed": "4"})
    fixture_id = play_first_fixture(engine, built, [(3, 1), (3, 2), (1, 3)])
    anonymous = client.application.test_client()

    listed = anonymous.get(f"/api/v1/events/{built.event_id}/teams").get_json()
    league = anonymous.get(f"/api/v1/flights/{flight_id}/fixtures").get_json()
    fixture = anonymous.get(f"/api/v1/fixtures/{fixture_id}").get_json()
    flight = anonymous.get(f"/api/v1/flights/{flight_id}").get_json()

    assert [(t["name"], [m["name"] for m in t["members"]]) for t in listed] == [
        ("Knights", ["Ben", "Bo", "Bea"]),
        ("Rooks", ["Ann", "Al & Amy", "Ada"]),
    ]
    assert len(listed[1]["members"][1]["players"]) == 2
    assert [(r["rank"], r["fixture_wins"], r["board_wins"]) for r in league["standings"]] == [
        (1, 1, 2),
        (2, 0, 1),
    ]
    assert fixture["score"] == "2–1"
    assert fixture["decided_by"] == "on boards"
    assert [(b["board"], b["score"], b["winner"]) for b in fixture["boards"]] == [
        (1, "3–1", "a"),
        (2, "3–2", "a"),
        (3, "1–3", "b"),
    ]
    assert flight["boards"] == 3


def test_line_up_named_for_a_fixture_puts_players_on_the_boards(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT], board_order="per_fixture")
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]
    client.post(f"/director/flights/{flight_id}/fixtures/draw", data={"seed": "4"})
    with Session(engine) as session:
        fixture = teams.team_flight_view(session, flight_id).rounds[0].fixtures[0]
    side = "a" if fixture.a == "Rooks" else "b"

    unknown = client.post(
        f"/director/fixtures/{fixture.id}", data={"side": side, "players": "Ada\nZed\nAnn"}
    )
    saved = client.post(
        f"/director/fixtures/{fixture.id}",
        data={"side": side, "players": "Ada\nAnn\nAl & Amy"},
        follow_redirects=True,
    )

    assert unknown.status_code == 400
    assert "Not in Rooks: Zed." in text_of(unknown.get_data(as_text=True))
    page = text_of(saved.get_data(as_text=True))
    assert "Line-up saved." in page
    with Session(engine) as session:
        boards = teams.fixture_view(session, fixture.id).boards
    assert [b.a if side == "a" else b.b for b in boards] == ["Ada", "Ann", "Al & Amy"]


def test_team_flight_page_offers_no_single_player_draw(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [TEAM_FLIGHT])
    login(client, built)

    page = text_of(
        client.get(f"/director/flights/{built.flights['League']}").get_data(as_text=True)
    )

    assert "A team flight: teams meet in fixtures of 3 boards." in page
    assert "Make the draw" not in page


def test_team_knockout_pages_open_for_the_director_and_the_public(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [{**TEAM_FLIGHT, "format": "knockout"}], is_public=True)
    login(client, built)
    two_teams(client, built)
    flight_id = built.flights["League"]
    client.post(f"/director/flights/{flight_id}/fixtures/draw", data={"seed": "4"})

    answers = [
        client.get(url).status_code
        for url in (
            f"/director/flights/{flight_id}",
            f"/director/flights/{flight_id}/fixtures",
            f"/events/club-night/flights/{flight_id}",
            f"/events/club-night/flights/{flight_id}/fixtures",
            f"/events/club-night/flights/{flight_id}/standings",
            "/events/club-night",
        )
    ]
    fixtures = text_of(client.get(f"/director/flights/{flight_id}/fixtures").get_data(as_text=True))

    assert answers == [200, 200, 200, 200, 200, 200]
    assert "Final" in fixtures
