"""A record checked before the write transaction, then stored: used as checked while the
match is as it was, checked again when it changed in between."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from tourney.store import draws, results, roster
from tourney.store.db import read_session, transaction
from tourney.store.tables import Entry

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"


def _drawn(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["GnubgA", "GnubgB"], [{"name": "Main", "format": "knockout", "match_length": 3}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    return built, drawn.rounds[0].matches[0].id


def test_a_record_checked_outside_the_transaction_fills_in_the_games(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    actor, data = built.director.actor, RECORD.read_bytes()
    with read_session(engine) as session:
        checked = results.check_match_record(
            session, actor=actor, match_id=match_id, filename="m.mat", data=data
        )
    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=actor, match_id=match_id, filename="m.mat", data=data, checked=checked
        )

    assert checked.findings == ()
    assert outcome.ok
    assert len(outcome.match.games) == 4


def test_a_player_renamed_after_the_check_makes_the_store_check_again(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    actor, data = built.director.actor, RECORD.read_bytes()
    with read_session(engine) as session:
        checked = results.check_match_record(
            session, actor=actor, match_id=match_id, filename="m.mat", data=data
        )
        entry = session.get(Entry, built.entries["GnubgB"])
        assert entry is not None
        player_id = entry.player_id
    with transaction(engine) as session:
        roster.update_player(
            session,
            actor=actor,
            player_id=player_id,
            fields=roster.PlayerFields(name="Carla"),
        )
    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=actor, match_id=match_id, filename="m.mat", data=data, checked=checked
        )

    assert checked.findings == ()
    assert not outcome.ok
    assert outcome.match.games == ()
    assert [f.message for f in outcome.findings] == [
        "The record's players are GnubgA and GnubgB, but this match is GnubgA against Carla."
    ]
