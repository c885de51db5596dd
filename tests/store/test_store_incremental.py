"""The knockout update after one result against a full rebuild of the bracket.

After every result, correction, walkover, cleared result or withdrawal the stored rows
must be exactly what a full rebuild (``progress.sync_group``) writes: a full rebuild run
right after must find nothing to change. Random sequences cover byes, a consolation fed
from the first round and by first-match losers after a bye, a progressive consolation,
and a double elimination with its reset final.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import draws, progress, results, roster
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import Entry, Flight, FlightEntry, Match

if TYPE_CHECKING:
    from conftest import BuiltEvent

SETUPS: dict[str, tuple[int, list[dict[str, Any]]]] = {
    "consolation with bye losers": (
        11,
        [
            {"name": "Main", "format": "knockout", "match_length": 3},
            {
                "name": "Consolation",
                "format": "knockout",
                "match_length": 1,
                "feeds_from": "Main",
                "feed_rounds": (1,),
                "feed_bye_losers": True,
            },
        ],
    ),
    "progressive consolation": (
        13,
        [
            {"name": "Main", "format": "knockout", "match_length": 3},
            {
                "name": "Consolation",
                "format": "knockout",
                "match_length": 1,
                "feeds_from": "Main",
                "feed_rounds": (1, 2),
                "progressive": True,
            },
        ],
    ),
    "double elimination": (
        9,
        [{"name": "Main", "format": "double_elimination", "match_length": 3, "reset_match": True}],
    ),
}


def snapshot(session: Session, event_id: int) -> dict[str, Any]:
    """Every row a bracket update writes, without timestamps."""
    flights = list(session.exec(select(Flight).where(Flight.event_id == event_id)))
    ids = [f.id for f in flights]
    matches = session.exec(select(Match).where(col(Match.flight_id).in_(ids)))
    entries = session.exec(select(FlightEntry).where(col(FlightEntry.flight_id).in_(ids)))
    return {
        "matches": sorted(
            (
                m.bracket_key,
                m.entry_a_id,
                m.entry_b_id,
                m.status,
                m.winner_entry_id,
                m.score_a,
                m.score_b,
                m.table_label,
                m.result_source,
            )
            for m in matches
        ),
        "entries": sorted(
            (fe.flight_id, fe.entry_id, fe.status, fe.fed_from_flight_id, fe.fed_from_round)
            for fe in entries
        ),
        "flights": sorted((f.id, f.status) for f in flights),
    }


def assert_same_as_rebuild(engine: Engine, event_id: int, root_id: int) -> None:
    with Session(engine) as session:
        incremental = snapshot(session, event_id)
        root = session.get(Flight, root_id)
        assert root is not None
        progress.sync_group(session, root)
        session.flush()
        rebuilt = snapshot(session, event_id)
        session.rollback()
    assert incremental == rebuilt


def open_and_done(engine: Engine, event_id: int) -> tuple[list[Match], list[Match]]:
    with Session(engine) as session:
        rows = list(
            session.exec(
                select(Match)
                .join(Flight, col(Flight.id) == Match.flight_id)
                .where(Flight.event_id == event_id)
                .order_by(col(Match.id))
            )
        )
    ready = [m for m in rows if m.status == "ready"]
    done = [m for m in rows if m.status in ("finished", "walkover")]
    return ready, done


def step(engine: Engine, built: BuiltEvent, rng: random.Random, withdrawn: list[int]) -> bool:
    """One random change; False once nothing is left to play."""
    actor = built.director.actor
    ready, done = open_and_done(engine, built.event_id)
    if not ready:
        return False
    roll = rng.random()
    with transaction(engine) as session:
        if done and roll < 0.15:
            m = rng.choice(done)
            if m.status == "walkover" or rng.random() < 0.5:
                results.clear_result(session, actor=actor, match_id=m.id or 0, confirm_cascade=True)
            else:
                # The same match, the other winner: a correction that cascades.
                flipped = (0, m.match_length) if m.score_a > m.score_b else (m.match_length, 0)
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id or 0,
                    score_a=flipped[0],
                    score_b=flipped[1],
                    confirm_cascade=True,
                )
        elif not withdrawn and roll > 0.97:
            entry = rng.choice(sorted(built.entries.values()))
            withdrawn.append(entry)
            roster.withdraw(session, actor=actor, entry_id=entry)
        else:
            m = rng.choice(ready)
            if roll > 0.9:
                winner = rng.choice("ab")
                results.award_walkover(session, actor=actor, match_id=m.id or 0, winner=winner)
            else:
                loser_points = rng.randrange(m.match_length)
                a_wins = rng.random() < 0.5
                score = (m.match_length, loser_points) if a_wins else (loser_points, m.match_length)
                results.record_final_score(
                    session, actor=actor, match_id=m.id or 0, score_a=score[0], score_b=score[1]
                )
    return True


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_incremental_update_matches_full_rebuild(
    engine: Engine, build_event: Callable[..., BuiltEvent], setup: str
) -> None:
    players, flights = SETUPS[setup]
    for seed in range(4):
        rng = random.Random(f"{setup}:{seed}")
        built = build_event([f"P{n}" for n in range(1, players + 1)], flights)
        main = built.flights["Main"]
        with transaction(engine) as session:
            draws.make_draw(
                session, actor=built.director.actor, flight_id=main, method="random", seed=seed
            )
            draws.publish_draw(session, actor=built.director.actor, flight_id=main)
        assert_same_as_rebuild(engine, built.event_id, main)
        withdrawn: list[int] = []
        steps = 0
        while steps < 80:
            try:
                if not step(engine, built, rng, withdrawn):
                    break
            except StoreUserError:
                pass  # a change the rules refuse saves nothing: nothing to compare
            steps += 1
            assert_same_as_rebuild(engine, built.event_id, main)
        with Session(engine) as session:
            assert session.get(Entry, next(iter(built.entries.values()))) is not None


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_a_fresh_draw_writes_what_a_full_rebuild_writes(
    engine: Engine, build_event: Callable[..., BuiltEvent], setup: str
) -> None:
    """A draw writes its rows in one go, without the rebuild; the rebuild finds nothing to
    change, before and after publishing, whatever the field size (byes or none)."""
    _, flights = SETUPS[setup]
    for players in (5, 8, 12, 16):
        built = build_event([f"P{n}" for n in range(1, players + 1)], flights)
        main = built.flights["Main"]
        with transaction(engine) as session:
            draws.draw_flight(
                session, actor=built.director.actor, flight_id=main, method="random", seed=players
            )
        assert_same_as_rebuild(engine, built.event_id, main)
        with Session(engine) as session:
            statuses = {
                f.name: f.status
                for f in session.exec(select(Flight).where(Flight.event_id == built.event_id))
            }
        assert set(statuses.values()) == {"drawn"}, statuses
        with transaction(engine) as session:
            draws.publish_flight(session, actor=built.director.actor, flight_id=main)
        assert_same_as_rebuild(engine, built.event_id, main)


def test_a_second_draw_takes_the_tables_the_first_left_free(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """Two knockouts of one event play in one room: the second draw's ready matches get
    tables after the first's, as a rebuild would number them."""
    built = build_event(
        [f"P{n}" for n in range(1, 9)],
        [
            {"name": "Main", "format": "knockout", "match_length": 3},
            {"name": "Side", "format": "knockout", "match_length": 1},
        ],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=built.flights["Main"], seed=1)
        draws.publish_flight(session, actor=actor, flight_id=built.flights["Main"])
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=built.flights["Side"], seed=2)
    tables: dict[int, set[str]] = {built.flights["Main"]: set(), built.flights["Side"]: set()}
    with Session(engine) as session:
        for m in session.exec(select(Match).where(Match.status == "ready")):
            tables[m.flight_id].add(m.table_label)
    assert tables[built.flights["Main"]] == {"1", "2", "3", "4"}
    assert tables[built.flights["Side"]] == {"5", "6", "7", "8"}
    assert_same_as_rebuild(engine, built.event_id, built.flights["Side"])
