"""A flight page offers exactly the actions its services carry out.

The buttons of a flight's page and the checks of the draw services both come from the
actions the flight's format allows, so for every flight in every state below, a button is
shown exactly when its service accepts the request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.formats.flight_formats import FLIGHT_FORMATS
from tourney.store import draws, results, services
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import FlightFormat
from tourney.store.tournament_views import FlightBoard, flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

SEVEN = [f"S{n}" for n in range(1, 8)]
MAIN = {"name": "Main", "format": "knockout", "match_length": 3}
CONSOLATION = {
    "name": "Consolation",
    "format": "knockout",
    "match_length": 1,
    "feeds_from": "Main",
    "feed_rounds": (1,),
    "feed_bye_losers": True,
}
SWISS = {"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 2}
POOL = {"name": "Pool", "format": "roundrobin", "match_length": 1}

Call = Callable[[Session], object]


def board(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, actor, flight_id)


def offered(b: FlightBoard) -> set[str]:
    """The flight actions the page shows a button (or a late-entry slot) for."""
    shown = {
        "draw": b.can_draw,
        "publish": b.can_publish,
        "undo": b.can_undo,
        "pair next round": b.can_pair_next,
        "late entry with a record": b.can_add_late,
        "late entry in a bye": bool(b.late_bye_slots),
    }
    return {name for name, show in shown.items() if show}


def _late_entry(session: Session, actor: Actor, event_id: int) -> int:
    player = services.register_player(
        session, actor=actor, fields=services.PlayerFields(name="Latecomer")
    )
    return services.enter_player(session, actor=actor, event_id=event_id, player_id=player.id).id


def accepted(engine: Engine, built: BuiltEvent, flight_id: int) -> set[str]:
    """The flight actions whose services accept the request (each tried, then rolled back)."""
    actor = built.director.actor
    b = board(engine, actor, flight_id)
    first_round = b.rounds[0].matches if b.rounds else ()
    bye = next((m.id for m in first_round if m.is_bye), first_round[0].id if first_round else 0)
    calls: dict[str, Call] = {
        "draw": lambda s: draws.make_draw(s, actor=actor, flight_id=flight_id, seed=1),
        "publish": lambda s: draws.publish_draw(s, actor=actor, flight_id=flight_id),
        "undo": lambda s: draws.undo_draw(s, actor=actor, flight_id=flight_id),
        "pair next round": lambda s: draws.pair_next_round(s, actor=actor, flight_id=flight_id),
        "late entry with a record": lambda s: draws.add_late_entry(
            s, actor=actor, flight_id=flight_id, entry_id=_late_entry(s, actor, built.event_id)
        ),
        "late entry in a bye": lambda s: draws.add_late_knockout_entry(
            s,
            actor=actor,
            flight_id=flight_id,
            entry_id=_late_entry(s, actor, built.event_id),
            match_id=bye,
        ),
    }
    out: set[str] = set()
    for name, call in calls.items():
        with Session(engine) as session:
            try:
                call(session)
                out.add(name)
            except StoreUserError:
                pass
            finally:
                session.rollback()
    return out


def draw(engine: Engine, built: BuiltEvent, flight: str, *, publish: bool = False) -> None:
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights[flight], method="seeded")
        if publish:
            draws.publish_draw(session, actor=actor, flight_id=built.flights[flight])


def finish_newest_round(engine: Engine, built: BuiltEvent, flight: str) -> None:
    actor = built.director.actor
    for m in board(engine, actor, built.flights[flight]).rounds[-1].matches:
        if m.status == "ready":
            with transaction(engine) as session:
                results.record_final_score(
                    session, actor=actor, match_id=m.id, score_a=m.length, score_b=0
                )


def assert_page_and_services_agree(
    engine: Engine, built: BuiltEvent, flight: str, expected: set[str]
) -> None:
    page = offered(board(engine, built.director.actor, built.flights[flight]))
    assert (page, accepted(engine, built, built.flights[flight])) == (expected, expected)


# --- the disagreement this guards against ------------------------------------------------


def test_fed_flight_is_not_published_by_the_service_when_its_page_hides_the_button(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(SEVEN, [MAIN, CONSOLATION])
    draw(engine, built, "Main")
    actor = built.director.actor
    consolation = built.flights["Consolation"]
    assert board(engine, actor, consolation).can_publish is False

    with pytest.raises(StoreUserError, match="published with that flight"), transaction(
        engine
    ) as session:
        draws.publish_draw(session, actor=actor, flight_id=consolation)

    # Nothing was published: both flights' rounds are still drafts.
    rounds = [
        r for f in ("Main", "Consolation") for r in board(engine, actor, built.flights[f]).rounds
    ]
    assert {r.status for r in rounds} == {"draft"}


def test_fed_flight_is_not_undone_by_the_service_when_its_page_hides_the_button(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(SEVEN, [MAIN, CONSOLATION])
    draw(engine, built, "Main")
    actor = built.director.actor

    with pytest.raises(StoreUserError, match="undone with that flight"), transaction(
        engine
    ) as session:
        draws.undo_draw(session, actor=actor, flight_id=built.flights["Consolation"])

    assert board(engine, actor, built.flights["Main"]).flight.status == "drawn"


# --- every flight, every state --------------------------------------------------------------


def test_knockout_and_consolation_before_the_draw(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(SEVEN, [MAIN, CONSOLATION])

    assert_page_and_services_agree(engine, built, "Main", {"draw"})
    assert_page_and_services_agree(engine, built, "Consolation", set())


def test_knockout_and_consolation_drawn_not_published(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(SEVEN, [MAIN, CONSOLATION])
    draw(engine, built, "Main")

    assert_page_and_services_agree(
        engine, built, "Main", {"publish", "undo", "late entry in a bye"}
    )
    assert_page_and_services_agree(engine, built, "Consolation", set())


def test_knockout_and_consolation_published(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(SEVEN, [MAIN, CONSOLATION])
    draw(engine, built, "Main", publish=True)

    assert_page_and_services_agree(engine, built, "Main", {"late entry in a bye"})
    assert_page_and_services_agree(engine, built, "Consolation", set())


def test_swiss_through_its_rounds(engine: Engine, build_event: Callable[..., BuiltEvent]) -> None:
    built = build_event(["A", "B", "C", "D"], [SWISS])
    draw(engine, built, "Swiss")
    assert_page_and_services_agree(
        engine, built, "Swiss", {"publish", "undo", "late entry with a record"}
    )

    with transaction(engine) as session:
        draws.publish_draw(session, actor=built.director.actor, flight_id=built.flights["Swiss"])
    assert_page_and_services_agree(engine, built, "Swiss", {"late entry with a record"})

    finish_newest_round(engine, built, "Swiss")
    assert_page_and_services_agree(
        engine, built, "Swiss", {"pair next round", "late entry with a record"}
    )


def test_finished_swiss_takes_no_late_entry(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["A", "B"], [{**SWISS, "swiss_rounds": 1}])
    draw(engine, built, "Swiss", publish=True)
    finish_newest_round(engine, built, "Swiss")

    assert board(engine, built.director.actor, built.flights["Swiss"]).flight.status == "finished"
    assert_page_and_services_agree(engine, built, "Swiss", set())


def test_round_robin_drawn_and_published(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["A", "B", "C"], [POOL])
    draw(engine, built, "Pool")
    assert_page_and_services_agree(engine, built, "Pool", {"publish", "undo"})

    with transaction(engine) as session:
        draws.publish_draw(session, actor=built.director.actor, flight_id=built.flights["Pool"])
    assert_page_and_services_agree(engine, built, "Pool", set())


def test_every_stored_format_has_its_engine() -> None:
    assert {f.key for f in FLIGHT_FORMATS} == {f.value for f in FlightFormat}
