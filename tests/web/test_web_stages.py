"""Stages through the web: the flight form makes and refuses stage links, the pools page
marks who qualifies, the knockout is drawn from the qualifiers and shows where each came
from; the public pages and the API show the same."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.tables import Flight
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
EIGHT = [f"P{n}" for n in range(1, 9)]
POOLS = {"name": "Pools", "format": "roundrobin", "match_length": 1, "pools": 2}
KNOCKOUT = {
    "name": "Knockout",
    "format": "knockout",
    "match_length": 3,
    "qualifies_from": "Pools",
    "qualifiers": 2,
}


def login(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def flight_form(**values: str) -> dict[str, str]:
    data = {
        "name": "Cup",
        "format": "knockout",
        "match_length": "5",
        "draw_method": "random",
        "pool_seeding": "snake",
        "cut_ties": "tiebreaks",
        "feeds_from_id": "",
        "qualifies_from_id": "",
    }
    data.update(values)
    return data


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def play_pools(engine: Engine, built: BuiltEvent) -> None:
    actor = built.director.actor
    flight_id = built.flights["Pools"]
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=flight_id, seed=5)
        draws.publish_flight(session, actor=actor, flight_id=flight_id)
    with Session(engine) as session:
        rounds = flight_board(session, actor, flight_id).rounds
    for rnd in rounds:
        for m in rnd.matches:
            assert m.a is not None and m.b is not None
            a_wins = int(m.a.name[1:]) < int(m.b.name[1:])
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id,
                    score_a=int(a_wins),
                    score_b=int(not a_wins),
                )


def test_flight_form_refuses_a_knockout_fed_from_a_round_robin(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS])
    login(client, built)

    response = client.post(
        f"/director/events/{built.event_id}/flights/new",
        data=flight_form(feeds_from_id=str(built.flights["Pools"])),
    )

    assert response.status_code == 400
    assert (
        "“Pools” cannot feed this flight. Losers are fed on only from a knockout; a round "
        "robin has none. To take its top finishers, choose it under “Qualifiers come from”."
    ) in text_of(response.get_data(as_text=True))


def test_flight_form_refuses_fewer_than_two_qualifiers(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [{**POOLS, "pools": 1}])
    login(client, built)

    response = client.post(
        f"/director/events/{built.event_id}/flights/new",
        data=flight_form(qualifies_from_id=str(built.flights["Pools"]), qualifiers="1"),
    )

    assert response.status_code == 400
    assert "1 qualifier cannot make a knockout: at least 2 must qualify." in text_of(
        response.get_data(as_text=True)
    )


def test_flight_form_links_a_knockout_to_the_pools_and_the_event_page_says_so(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS])
    login(client, built)

    response = client.post(
        f"/director/events/{built.event_id}/flights/new",
        data=flight_form(qualifies_from_id=str(built.flights["Pools"]), qualifiers="2"),
        follow_redirects=True,
    )

    page = text_of(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "Qualifiers: top 2 of each of 2 pools of Pools" in page
    assert "2 pools, snake-seeded" in page


def test_draw_from_qualifiers_refused_while_the_pools_play(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    login(client, built)
    with transaction(engine) as session:
        draws.draw_flight(
            session, actor=built.director.actor, flight_id=built.flights["Pools"], seed=5
        )

    response = client.post(
        f"/director/flights/{built.flights['Knockout']}/draw", data={"method": "seeded"}
    )

    assert response.status_code == 400
    assert (
        "“Pools” is not finished: the knockout is drawn from its qualifiers once every match "
        "there is decided."
    ) in text_of(response.get_data(as_text=True))


def test_pools_page_marks_qualifiers_and_knockout_shows_their_origin(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT], is_public=True)
    login(client, built)
    play_pools(engine, built)

    pools_page = text_of(
        client.get(f"/director/flights/{built.flights['Pools']}").get_data(as_text=True)
    )
    before = text_of(
        client.get(f"/director/flights/{built.flights['Knockout']}").get_data(as_text=True)
    )
    drawn = client.post(
        f"/director/flights/{built.flights['Knockout']}/draw",
        data={"method": "seeded"},
        follow_redirects=True,
    )
    knockout_page = text_of(drawn.get_data(as_text=True))
    client.post(f"/director/flights/{built.flights['Knockout']}/publish")
    public = text_of(
        client.get(f"/events/club-night/flights/{built.flights['Pools']}").get_data(as_text=True)
    )
    bracket = text_of(
        client.get(f"/events/club-night/flights/{built.flights['Knockout']}").get_data(as_text=True)
    )
    home = text_of(client.get("/events/club-night").get_data(as_text=True))
    api = client.get(f"/api/v1/events/{built.event_id}").get_json()
    api_pools = client.get(f"/api/v1/flights/{built.flights['Pools']}/standings").get_json()
    standings = text_of(
        client.get(f"/events/club-night/flights/{built.flights['Pools']}/standings").get_data(
            as_text=True
        )
    )

    assert "The top 2 of each pool go through to Knockout." in pools_page
    assert "Pool A Rank Player Wins Losses" in pools_page
    assert "Table Pool Player A Player B Score" in pools_page
    assert "1 Pool A P1 P8 1-0" in pools_page
    assert "1 P1 Qualifies 3 0" in pools_page
    assert "2 P4 Qualifies 2 1" in pools_page
    assert "3 P5 1 2" in pools_page
    assert "Pool B" in pools_page
    assert "Qualified A1 P1 A2 P4 B1 P2 B2 P3 Qualifiers: top 2" in before
    assert drawn.status_code == 200
    assert "A1 P1 B2 P3" in knockout_page.replace("  ", " ")
    assert "B1 P2 A2 P4" in knockout_page
    assert "Pool A" in public and "1 P1 3–0 Qualifies" in public
    assert "A1 P1" in bracket and "B2 P3" in bracket
    assert "Round robin 1-point matches 2 pools, snake-seeded Finished" in home
    assert "Qualifiers: top 2 of each of 2 pools of Pools" in home
    assert [
        (r["pool"], r["display_rank"], r["player"]["name"], r["qualifies"])
        for r in api_pools["standings"]
    ] == [
        ("Pool A", "1", "P1", True),
        ("Pool A", "2", "P4", True),
        ("Pool A", "3", "P5", False),
        ("Pool A", "4", "P8", False),
        ("Pool B", "1", "P2", True),
        ("Pool B", "2", "P3", True),
        ("Pool B", "3", "P6", False),
        ("Pool B", "4", "P7", False),
    ]
    assert "Pool A 1 P1 Qualifies 3–0" in standings
    assert "Pool B 3 P6 1–2" in standings
    assert [
        (f["name"], f["pools"], f["qualifies_from"], f["qualifiers"], f["cut_ties"])
        for f in api["flights"]
    ] == [
        ("Pools", 2, None, None, None),
        ("Knockout", None, built.flights["Pools"], 2, "tiebreaks"),
    ]


def test_director_decides_a_tie_at_the_cut_on_the_knockout_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # P5 beats P4 and P4 beats P1: P1, P4 and P5 of pool A share 2 wins, two go through.
    built = build_event(EIGHT, [{**POOLS, "tiebreaks": ()}, {**KNOCKOUT, "cut_ties": "director"}])
    login(client, built)
    actor = built.director.actor
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=built.flights["Pools"], seed=5)
        draws.publish_flight(session, actor=actor, flight_id=built.flights["Pools"])
    with Session(engine) as session:
        rounds = flight_board(session, actor, built.flights["Pools"]).rounds
    for rnd in rounds:
        for m in rnd.matches:
            assert m.a is not None and m.b is not None
            a_wins = int(m.a.name[1:]) < int(m.b.name[1:])
            if {m.a.name, m.b.name} in ({"P1", "P4"}, {"P4", "P5"}):
                a_wins = not a_wins
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id,
                    score_a=int(a_wins),
                    score_b=int(not a_wins),
                )
    knockout = built.flights["Knockout"]
    with Session(engine) as session:
        tied = dict(
            (name, fe_id)
            for fe_id, name in flight_board(session, actor, knockout).cut_ties[0].players
        )

    page = text_of(client.get(f"/director/flights/{knockout}").get_data(as_text=True))
    too_few = client.post(f"/director/flights/{knockout}/cut", data={"players": [tied["P1"]]})
    decided = client.post(
        f"/director/flights/{knockout}/cut",
        data={"players": [tied["P1"], tied["P5"]]},
        follow_redirects=True,
    )
    drawn = client.post(
        f"/director/flights/{knockout}/draw", data={"method": "seeded"}, follow_redirects=True
    )

    assert "Ties at the cut" in page and "Pool A: choose 2 of 3" in page
    assert too_few.status_code == 400
    assert "Pool A: P1, P4 and P5 are tied at the cut; choose 2 of them to go through." in (
        text_of(too_few.get_data(as_text=True))
    )
    assert "The tie at the cut is decided. Draw from the qualifiers." in text_of(
        decided.get_data(as_text=True)
    )
    drawn_page = text_of(drawn.get_data(as_text=True))
    assert "A1 P1 B2 P3" in drawn_page
    assert "B1 P2 A2 P5" in drawn_page


def test_a_knockout_saved_as_fed_from_a_round_robin_says_why_it_cannot_be_drawn(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # A link saved before such links were refused (written straight to the database).
    built = build_event(EIGHT, [POOLS, {"name": "Cup", "format": "knockout", "match_length": 3}])
    with transaction(engine) as session:
        cup = session.get(Flight, built.flights["Cup"])
        assert cup is not None
        cup.feeds_from_id = built.flights["Pools"]
    login(client, built)

    page = text_of(client.get(f"/director/flights/{built.flights['Cup']}").get_data(as_text=True))

    assert (
        "This flight is set to take the losers of Pools, so it can never be drawn. Losers are "
        "fed on only from a knockout; a round robin has none. To take its top finishers, "
        "choose it under “Qualifiers come from”. Change its settings"
    ) in page
