"""Entering many roster players at once, pasted lists of names, seeds changed after entry,
and the entries list a page at a time."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import bulk_entry, draws, roster
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import AccessDeniedError, NotFoundError, StoreUserError
from tourney.store.tables import AuditEntry, Entry

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 3}


def add_players(engine: Engine, actor: Actor, *names: str) -> dict[str, int]:
    with transaction(engine) as session:
        return {
            name: roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=name)
            ).id
            for name in names
        }


def entered_names(engine: Engine, event_id: int) -> list[str]:
    with Session(engine) as session:
        return sorted(e.player_name for e in bulk_entry.entries_page(session, event_id).rows)


def last_audit(engine: Engine, action: str) -> AuditEntry:
    with Session(engine) as session:
        found = session.exec(
            select(AuditEntry)
            .where(AuditEntry.action == action)
            .order_by(col(AuditEntry.id).desc())
        ).first()
    assert found is not None
    return found


# --- entering many players ----------------------------------------------------------------


def test_ticked_players_are_entered_together_under_one_audit_entry_naming_them(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    actor = built.director.actor
    new = add_players(engine, actor, "Cy", "Di", "Eve")

    with transaction(engine) as session:
        done = bulk_entry.enter_players(
            session, actor=actor, event_id=built.event_id, player_ids=list(new.values())
        )

    assert done.entered == ("Cy", "Di", "Eve")
    assert entered_names(engine, built.event_id) == ["Ann", "Bob", "Cy", "Di", "Eve"]
    audit = last_audit(engine, "entry.create_many")
    assert audit.event_id == built.event_id
    assert audit.after is not None
    assert audit.after["entered"] == 3
    assert [p["name"] for p in audit.after["players"]] == ["Cy", "Di", "Eve"]


def test_a_player_entered_already_is_left_as_is_and_named(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    actor = built.director.actor
    new = add_players(engine, actor, "Cy")
    with Session(engine) as session:
        ann = session.exec(select(Entry).where(Entry.id == built.entries["Ann"])).one()

    with transaction(engine) as session:
        done = bulk_entry.enter_players(
            session,
            actor=actor,
            event_id=built.event_id,
            player_ids=[new["Cy"], ann.player_id, new["Cy"]],
        )

    assert done.entered == ("Cy",)
    assert done.already_entered == ("Ann",)
    assert entered_names(engine, built.event_id) == ["Ann", "Bob", "Cy"]


def test_an_unknown_player_enters_nobody(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    actor = built.director.actor
    new = add_players(engine, actor, "Cy")

    with pytest.raises(NotFoundError), transaction(engine) as session:
        bulk_entry.enter_players(
            session, actor=actor, event_id=built.event_id, player_ids=[new["Cy"], 987654]
        )

    assert entered_names(engine, built.event_id) == ["Ann", "Bob"]


def test_entering_nobody_is_refused(engine: Engine, build_event: Callable[..., BuiltEvent]) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])

    with pytest.raises(StoreUserError, match="Choose at least one"), transaction(engine) as s:
        bulk_entry.enter_players(
            s, actor=built.director.actor, event_id=built.event_id, player_ids=[]
        )


def test_another_directors_event_is_out_of_reach(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., object],
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    stranger = make_user("director")
    new = add_players(engine, built.director.actor, "Cy")

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        bulk_entry.enter_players(
            session,
            actor=stranger.actor,  # type: ignore[attr-defined]
            event_id=built.event_id,
            player_ids=[new["Cy"]],
        )


# --- pasted names -------------------------------------------------------------------------


def test_pasted_names_match_whatever_the_accents_case_apostrophes_and_word_order(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    actor = built.director.actor
    add_players(engine, actor, "Zoë O’Brien", "Bjørn Lie", "Kim Park", "Kim Park ", "Lee Chan")
    with Session(engine) as session:
        lines = bulk_entry.match_pasted_names(
            session,
            built.event_id,
            "obrien, zoe\n\n  LEE CHAN  \nNobody Here\nkim park\nann\n",
        )

    by_text = {line.text: line for line in lines}
    assert [line.number for line in lines] == [1, 3, 4, 5, 6]
    assert [p.name for p in by_text["obrien, zoe"].players] == ["Zoë O’Brien"]
    assert by_text["obrien, zoe"].problem == ""
    assert [p.name for p in by_text["LEE CHAN"].players] == ["Lee Chan"]
    assert by_text["Nobody Here"].problem == "No roster player has this name."
    assert by_text["kim park"].problem.startswith("2 roster players have this name: Kim Park")
    assert by_text["ann"].problem == "Ann is entered already."


def test_pasting_nothing_is_refused(engine: Engine, build_event: Callable[..., BuiltEvent]) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    with pytest.raises(StoreUserError, match="Paste at least one name"), Session(engine) as s:
        bulk_entry.match_pasted_names(s, built.event_id, " \n\n")


# --- seeds after entry --------------------------------------------------------------------


def test_a_seed_changes_after_entry_and_the_change_is_audited(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy"], [MAIN], seeded=False)

    with transaction(engine) as session:
        view = bulk_entry.set_seed(
            session, actor=built.director.actor, entry_id=built.entries["Cy"], seed=1
        )

    assert view.seed == 1
    with Session(engine) as session:
        first = bulk_entry.entries_page(session, built.event_id).rows[0]
    assert (first.player_name, first.seed) == ("Cy", 1)
    audit = last_audit(engine, "entry.seed")
    assert (audit.before or {})["seed"] is None
    assert (audit.after or {})["seed"] == 1


def test_a_seed_is_cleared_with_none(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])

    with transaction(engine) as session:
        view = bulk_entry.set_seed(
            session, actor=built.director.actor, entry_id=built.entries["Ann"], seed=None
        )

    assert view.seed is None


def test_another_entrys_seed_is_refused_naming_its_holder(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])  # seeded 1 and 2

    with (
        pytest.raises(StoreUserError, match=r"^Bob was not given seed 1: seed 1 is Ann’s\. Change"),
        transaction(engine) as session,
    ):
        bulk_entry.set_seed(
            session, actor=built.director.actor, entry_id=built.entries["Bob"], seed=1
        )


def test_a_seed_below_one_is_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])

    with pytest.raises(StoreUserError, match="numbered from 1"), transaction(engine) as session:
        bulk_entry.set_seed(
            session, actor=built.director.actor, entry_id=built.entries["Bob"], seed=0
        )


def test_seeds_are_fixed_once_a_flight_is_drawn(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])

    with (
        pytest.raises(StoreUserError, match=r"^Seeds are fixed once a flight is drawn, and “Main”"),
        transaction(engine) as session,
    ):
        bulk_entry.set_seed(session, actor=actor, entry_id=built.entries["Di"], seed=9)


# --- the list a page at a time ------------------------------------------------------------


def test_entries_come_a_hundred_to_a_page_seeds_first(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Seeded"], [MAIN])
    actor = built.director.actor
    new = add_players(engine, actor, *(f"Player {n:03d}" for n in range(1, 151)))
    with transaction(engine) as session:
        bulk_entry.enter_players(
            session, actor=actor, event_id=built.event_id, player_ids=list(new.values())
        )

    with Session(engine) as session:
        first = bulk_entry.entries_page(session, built.event_id)
        second = bulk_entry.entries_page(session, built.event_id, number=2)
        past_the_end = bulk_entry.entries_page(session, built.event_id, number=9)
        found = bulk_entry.entries_page(session, built.event_id, search="PLAYER 14")

    assert (first.total, first.pages, len(first.rows)) == (151, 2, 100)
    assert first.rows[0].player_name == "Seeded"
    assert first.rows[-1].player_name == "Player 099"
    assert [second.rows[0].player_name, second.rows[-1].player_name] == [
        "Player 100",
        "Player 150",
    ]
    assert (second.first_row, second.last_row) == (101, 151)
    assert past_the_end.number == 2
    assert [e.player_name for e in found.rows] == [f"Player {n}" for n in range(140, 150)]


def test_roster_players_not_entered_are_listed_for_ticking(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    add_players(engine, built.director.actor, "Zoë", "Cy")

    with Session(engine) as session:
        every = bulk_entry.candidates_page(session, built.event_id)
        found = bulk_entry.candidates_page(session, built.event_id, search="zoe")

    assert [p.name for p in every.rows] == ["Cy", "Zoë"]
    assert [p.name for p in found.rows] == ["Zoë"]
