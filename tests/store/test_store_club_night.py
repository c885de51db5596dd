"""A club night's flights side by side: tables, player counts, check-in and Swiss byes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import draws, results, roster
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import Entry
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


# --- player counts ------------------------------------------------------------------------

CONSOLATION = {
    "name": "Consolation",
    "format": "knockout",
    "match_length": 1,
    "feeds_from": "Main",
    "feed_rounds": (1,),
    "feed_bye_losers": True,
}


def test_consolation_counts_only_players_it_has_after_a_result_is_corrected(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Twelve seeded in 16: S1-S4 have byes, S8 v S9, S5 v S12, S7 v S10, S6 v S11.
    built = build_event([f"S{n}" for n in range(1, 13)], [MAIN, CONSOLATION])
    actor = built.director.actor
    main, cons = built.flights["Main"], built.flights["Consolation"]
    first = draw(engine, actor, main).rounds[0].matches
    with transaction(engine) as session:
        draws.publish_draw(session, actor=actor, flight_id=main)
        for m in first:
            if m.status == "ready":  # the better seed wins: S9, S12, S10, S11 lose
                results.record_final_score(
                    session, actor=actor, match_id=m.id, score_a=3, score_b=0
                )
    quarter = board(engine, actor, main).rounds[1].matches[0]
    # S8 beating S1 is entered by mistake (S1's first match: S1 would go to the
    # consolation), then cleared and entered the right way: S1 beats S8.
    with transaction(engine) as session:
        results.record_final_score(
            session, actor=actor, match_id=quarter.id, score_a=0, score_b=3
        )
    with transaction(engine) as session:
        results.clear_result(session, actor=actor, match_id=quarter.id)
    with transaction(engine) as session:
        results.record_final_score(
            session, actor=actor, match_id=quarter.id, score_a=3, score_b=0
        )

    assert board(engine, actor, cons).players == 4


# --- check-in ------------------------------------------------------------------------------


def check_in(engine: Engine, built: BuiltEvent, *names: str) -> None:
    with transaction(engine) as session:
        for name in names:
            roster.check_in(session, actor=built.director.actor, entry_id=built.entries[name])


def test_draw_takes_only_checked_in_players_once_check_in_has_begun(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di", "Ed"], [MAIN])
    actor = built.director.actor
    check_in(engine, built, "Ann", "Cy", "Di", "Ed")
    before = board(engine, actor, built.flights["Main"])

    drawn = draw(engine, actor, built.flights["Main"])

    assert before.left_out == ("Bob",)
    # Seeded Ann, Cy, Di, Ed in 4: Ann v Ed, Cy v Di.
    assert drawn.players == 4
    assert [(m.a.name, m.b.name) for m in drawn.rounds[0].matches if m.a and m.b] == [
        ("Ann", "Ed"),
        ("Cy", "Di"),
    ]
    assert drawn.left_out == ()


def test_draw_may_still_take_everyone_entered(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy"], [MAIN])
    actor = built.director.actor
    check_in(engine, built, "Ann")

    with transaction(engine) as session:
        drawn = draws.make_draw(
            session, actor=actor, flight_id=built.flights["Main"], seed=1, present_only=False
        )

    assert drawn.players == 3


# --- Swiss byes -----------------------------------------------------------------------------


def test_swiss_bye_of_a_published_unplayed_round_changes_no_record(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di", "Ed"], [SIDE])
    actor, side = built.director.actor, built.flights["Side"]
    first = draw(engine, actor, side).rounds[0].matches
    with transaction(engine) as session:
        draws.publish_draw(session, actor=actor, flight_id=side)
        for m in first:
            if m.b is not None:  # side a wins every match of round 1
                results.record_final_score(
                    session, actor=actor, match_id=m.id, score_a=1, score_b=0
                )
    with transaction(engine) as session:
        draws.pair_next_round(session, actor=actor, flight_id=side)
        paired = draws.publish_draw(session, actor=actor, flight_id=side)
    (bye,) = [m for m in paired.rounds[-1].matches if m.b is None]
    assert bye.a is not None
    standings = board(engine, actor, side).standings
    before = {row.player.name: (row.wins, row.losses) for row in standings}

    # Round 1: two matches and a bye, so three players stand 1-0 and two 0-1. Round 2's
    # bye goes to a 0-1 player; while round 2 is unplayed that player stays 0-1.
    assert before[bye.a.name] == (0, 1)


def test_check_in_everyone_marks_only_the_active_entries_not_yet_present(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid"], [{"name": "Main", "format": "knockout", "match_length": 5}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        roster.check_in(session, actor=actor, entry_id=built.entries["Ann"])
        roster.withdraw(session, actor=actor, entry_id=built.entries["Cid"])
    with Session(engine) as session:
        ann_before = session.exec(select(Entry.checked_in_at).where(
            Entry.id == built.entries["Ann"])).one()

    with transaction(engine) as session:
        count = roster.check_in_everyone(session, actor=actor, event_id=built.event_id)

    with Session(engine) as session:
        present = dict(session.exec(
            select(Entry.id, Entry.checked_in_at).where(Entry.event_id == built.event_id)
        ).all())
    # Bob is the only active entry not yet present; Ann keeps her time, Cid stays out.
    assert count == 1
    assert present[built.entries["Bob"]] is not None
    assert present[built.entries["Cid"]] is None
    assert present[built.entries["Ann"]] == ann_before
