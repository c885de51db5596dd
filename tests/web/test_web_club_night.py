"""The director's flight and entry pages on a club night: check-in before the draw,
withdrawal with its consequences."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import draws, roster
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
MAIN = {"name": "Main", "format": "knockout", "match_length": 3}


def log_in(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def test_flight_page_names_the_players_a_draw_would_leave_out(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN])
    with transaction(engine) as session:
        for name in ("Ann", "Cy"):
            roster.check_in(session, actor=built.director.actor, entry_id=built.entries[name])
    log_in(client, built)

    page = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)

    assert "Not checked in, left out of the draw: Bob, Di" in page


def test_director_may_draw_everyone_entered_from_the_flight_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN])
    with transaction(engine) as session:
        roster.check_in(session, actor=built.director.actor, entry_id=built.entries["Ann"])
    log_in(client, built)
    main = built.flights["Main"]

    drawn = client.post(
        f"/director/flights/{main}/draw", data={"method": "seeded", "everyone": "y"}
    )
    page = client.get(f"/director/flights/{main}").get_data(as_text=True)

    assert drawn.status_code == 302
    assert "4 players" in page


def drawn_knockout(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    """Ann, Bob, Cy and Di seeded in that order, drawn and published: Ann v Di, Bob v Cy."""
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN])
    with transaction(engine) as session:
        actor, main = built.director.actor, built.flights["Main"]
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    return built


def test_withdraw_asks_first_and_lists_the_walkovers_it_gives(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    log_in(client, built)
    di = built.entries["Di"]

    entries = client.get(f"/director/events/{built.event_id}/entries").get_data(as_text=True)
    confirm = client.get(f"/director/entries/{di}/withdraw")
    text = confirm.get_data(as_text=True)

    assert f'href="/director/entries/{di}/withdraw"' in entries
    assert confirm.status_code == 200
    assert "Withdraw Di?" in text
    assert "Main Semifinal: Ann goes through against Di by walkover." in text
    assert "Main: any later match Di would have reached goes to the opponent by walkover." in text
    assert (
        "Reinstating Di later turns these walkovers back into matches to play, as long as no "
        "later result was built on them; once an opponent's next match has started, "
        "reinstating is refused."
    ) in text
    assert f'action="/director/entries/{di}/withdraw"' in text


def test_reinstate_takes_back_the_walkover_not_yet_built_on(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    log_in(client, built)
    di = built.entries["Di"]
    withdrawn = client.post(f"/director/entries/{di}/withdraw")
    main = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)

    reinstated = client.post(f"/director/entries/{di}/reinstate", follow_redirects=True)
    page = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)

    assert withdrawn.status_code == 302
    assert "Di is back in the event." in reinstated.get_data(as_text=True)
    assert main.count("Walkover") >= 1
    assert "Walkover" not in page


def test_reinstate_before_any_walkover_puts_the_player_back(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN])
    log_in(client, built)
    di = built.entries["Di"]
    confirm = client.get(f"/director/entries/{di}/withdraw").get_data(as_text=True)
    client.post(f"/director/entries/{di}/withdraw")

    reinstated = client.post(f"/director/entries/{di}/reinstate", follow_redirects=True)

    assert "Di is left out of every draw made from now on." in confirm
    assert "Di is back in the event." in reinstated.get_data(as_text=True)
