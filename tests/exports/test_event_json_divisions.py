"""Event JSON keeps divisions, draw scoring, handicap starts and house-rule options."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from event_json_builders import exported
from sqlalchemy.engine import Engine
from sqlmodel import select

from tourney.exports.event_json import parse_event_json
from tourney.store import divisions, draws, schema
from tourney.store.db import make_engine, transaction
from tourney.store.errors import EventImportError
from tourney.store.event_json import import_event
from tourney.store.tables import Event, Match

if TYPE_CHECKING:
    from conftest import BuiltEvent


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    """A second, migrated and empty database of the same backend."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def _divisional(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(["Olga", "Oscar", "Nina", "Ned"], [
        {"name": "Mixed", "format": "swiss", "match_length": 7, "swiss_rounds": 1}])
    actor = built.director.actor
    with transaction(engine) as session:
        event = session.get(Event, built.event_id)
        assert event is not None
        event.variant_options = {"five_checker_limit": True, "no_hit_and_run_at_home": True}
        divisions.set_divisions(session, actor=actor, event_id=built.event_id,
                                text="Open, Novice")
        divisions.set_draw_scoring(session, actor=actor, event_id=built.event_id,
                                   draw_scoring="half")
        for name, division in (("Olga", "Open"), ("Oscar", "Open"), ("Nina", "Novice"),
                               ("Ned", "Novice")):
            divisions.set_entry_division(session, actor=actor, entry_id=built.entries[name],
                                         division=division)
        divisions.set_flight_division(session, actor=actor, flight_id=built.flights["Mixed"],
                                      division="", handicap=2)
        draws.make_draw(session, actor=actor, flight_id=built.flights["Mixed"], seed=1)
        first = session.exec(select(Match).where(
            Match.flight_id == built.flights["Mixed"])).first()
        assert first is not None
        divisions.set_match_start(session, actor=actor, match_id=first.id or 0,
                                  start_a=3, start_b=1)
    return built


def test_divisions_and_starts_round_trip(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _divisional(engine, build_event)
    first = exported(engine, built.event_id)

    with transaction(target) as session:
        import_event(session, parse_event_json(first))

    again = exported(target, "club-night")
    document = json.loads(first)["tables"]
    assert again == first
    assert document["events"][0]["divisions"] == ["Open", "Novice"]
    assert document["events"][0]["draw_scoring"] == "half"
    assert document["events"][0]["variant_options"] == {
        "five_checker_limit": True, "no_hit_and_run_at_home": True}
    assert sorted(e["division"] for e in document["entries"]) == [
        "Novice", "Novice", "Open", "Open"]
    assert document["flights"][0]["division_handicap"] == 2
    assert [(m["start_a"], m["start_b"]) for m in document["matches"] if m["start_fixed"]] \
        == [(3, 1)]


def test_an_entry_in_an_unlisted_division_is_refused(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _divisional(engine, build_event)
    document: dict[str, Any] = copy.deepcopy(json.loads(exported(engine, built.event_id)))
    document["tables"]["entries"][0]["division"] = "Masters"

    with transaction(target) as session, pytest.raises(EventImportError) as refused:
        import_event(session, document)

    assert "'Masters' is not one of the event's divisions" in str(refused.value)

