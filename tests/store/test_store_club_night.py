"""A club night's flights side by side: tables, player counts, check-in and Swiss byes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tournament_views import FlightBoard, flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 3}
SIDE = {"name": "Side", "format": "swiss", "match_length": 1}


def board(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, actor, flight_id)


def draw(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with transaction(engine) as session:
        return draws.make_draw(session, actor=actor, flight_id=flight_id, method="seeded", seed=1)


# --- tables across flights ---------------------------------------------------------------


def test_second_flight_is_given_tables_the_first_flight_is_not_using(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN, SIDE])
    actor = built.director.actor
    main = draw(engine, actor, built.flights["Main"])

    side = draw(engine, actor, built.flights["Side"])

    # Main's first round holds tables 1 and 2 (Ann v Di, Bob v Cy by seeding).
    assert [m.table for m in main.rounds[0].matches] == ["1", "2"]
    assert [m.table for m in side.rounds[0].matches] == ["3", "4"]


def test_table_in_use_in_another_flight_is_refused_with_the_match_holding_it(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN, SIDE])
    actor = built.director.actor
    draw(engine, actor, built.flights["Main"])
    side_match = draw(engine, actor, built.flights["Side"]).rounds[0].matches[0]

    with (
        pytest.raises(StoreUserError, match=r"^Table 1 is in use by Ann v Di \(Main R1\)"),
        transaction(engine) as session,
    ):
        draws.set_table(session, actor=actor, match_id=side_match.id, table="1")
