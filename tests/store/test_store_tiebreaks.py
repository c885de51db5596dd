"""A flight's tiebreak chain in the store: refused when unknown, read back from the
registry, an invariant error when the database names one that does not exist."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.formats.tiebreaks import TIEBREAKS
from tourney.store import draws, services
from tourney.store.db import transaction
from tourney.store.errors import StoreInvariantError, StoreUserError
from tourney.store.queries import UserView
from tourney.store.tables import Flight
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

KNOWN = ", ".join(t.key for t in TIEBREAKS)
"""What a refusal offers instead: every registered tiebreak."""
SWISS = {
    "name": "Swiss",
    "format": "swiss",
    "match_length": 3,
    "swiss_rounds": 2,
    "tiebreaks": ("buchholz", "head_to_head", "net_game_points"),
}


def test_saving_a_flight_with_an_unknown_tiebreak_names_the_known_ones(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    with transaction(engine) as session:
        event = services.create_event(
            session, actor=director.actor, fields=services.EventFields(name="Club Night")
        )

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        services.add_flight(
            session,
            actor=director.actor,
            event_id=event.id,
            fields=services.FlightFields(
                name="Swiss", format="swiss", match_length=3, tiebreaks=("buchholz", "coin_toss")
            ),
        )

    assert (caught.value.field, caught.value.message) == (
        "tiebreaks",
        f"Unknown tiebreak 'coin_toss': use one of {KNOWN}.",
    )


def test_flight_settings_show_the_chain_in_the_registry_words(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["A", "B", "C", "D"], [SWISS])

    with Session(engine) as session:
        board = flight_board(session, built.director.actor, built.flights["Swiss"])

    assert board.flight.tiebreaks == ("buchholz", "head_to_head", "net_game_points")
    assert board.flight.tiebreak_labels == ("Buchholz", "Head-to-head", "Net game points")


def test_standings_columns_are_the_chain_less_head_to_head(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Head-to-head has no value of its own per player (it depends on who is tied), so
    # the standings show a column for Buchholz and for net game points only.
    built = build_event(["A", "B", "C", "D"], [SWISS])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Swiss"], seed=1)
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Swiss"])

    with Session(engine) as session:
        board = flight_board(session, actor, built.flights["Swiss"])

    assert [t.key for t in board.tiebreaks] == ["buchholz", "head_to_head", "net_game_points"]
    assert [(c.heading, c.short_heading) for c in board.columns] == [
        ("Buchholz", "Buch."),
        ("Net game points", "Net"),
    ]
    assert {row.metrics for row in board.standings} == {
        (("Buchholz", 0), ("net game points", 0))
    }


def test_an_unknown_tiebreak_in_the_database_is_an_invariant_error(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["A", "B", "C", "D"], [SWISS])
    with transaction(engine) as session:
        row = session.get(Flight, built.flights["Swiss"])
        assert row is not None
        # Written past the services, as a hand edit of the database would.
        row.tiebreaks = ["buchholz", "coin_toss"]

    with pytest.raises(StoreInvariantError) as caught, Session(engine) as session:
        flight_board(session, built.director.actor, built.flights["Swiss"])

    assert str(caught.value) == (
        f"Stored tiebreak chain ['buchholz', 'coin_toss']: Unknown tiebreak 'coin_toss': use "
        f"one of {KNOWN}."
    )
