"""Event JSON carries a team event: teams and their board order (a pair included), the
team flight's boards, fixtures with their results and the board matches pointing at
them; the imported event shows the same standings and draws its next round."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
from event_json_builders import exported
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.exports.event_json import parse_event_json
from tourney.store import results, schema, teams
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.event_json import import_event
from tourney.store.tables import Flight

if TYPE_CHECKING:
    from conftest import BuiltEvent

LEAGUE = {"name": "League", "format": "swiss", "match_length": 3, "boards": 2, "swiss_rounds": 2}


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def test_event_json_team_event_round_trip(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Solo"], [LEAGUE])
    actor = built.director.actor
    with transaction(engine) as session:
        for name, members in (
            ("North", [("Ann",), ("Al", "Amy")]),
            ("South", [("Ben",), ("Bo",)]),
        ):
            teams.add_team(
                session, actor=actor, event_id=built.event_id, name=name, members=members
            )
        teams.draw_team_round(session, actor=actor, flight_id=built.flights["League"], seed=2)
    with Session(engine) as session:
        fixture = teams.team_flight_view(session, built.flights["League"]).rounds[0].fixtures[0]
    # Team a wins board 1 3-0 and loses board 2 2-3: 1-1 on boards, 5-3 on board points.
    for board, (a, b) in zip(fixture.boards, [(3, 0), (2, 3)], strict=True):
        with transaction(engine) as session:
            results.record_final_score(
                session, actor=actor, match_id=board.match_id, score_a=a, score_b=b
            )
    first = exported(engine, built.event_id)

    with transaction(target) as session:
        new_event = import_event(session, parse_event_json(first)).event_id
    again = exported(target, new_event)
    with Session(target) as session:
        league = session.exec(
            select(Flight).where(Flight.event_id == new_event, Flight.name == "League")
        ).one()
        imported = teams.team_flight_view(session, league.id or 0)
        listed = teams.team_views(session, new_event)
    with transaction(target) as session:
        next_round = teams.draw_team_round(session, actor=Actor.cli(), flight_id=league.id or 0)

    tables = json.loads(first)["tables"]
    assert again == first
    assert [t["name"] for t in tables["teams"]] == ["North", "South"]
    assert len(tables["team_members"]) == 4
    assert [f["decided_by"] for f in tables["fixtures"]] == ["board_points"]
    assert sum(1 for m in tables["matches"] if m["fixture_id"] == "fixtures/1") == 2
    assert [(m.name, len(m.player_ids)) for m in listed[0].members] == [
        ("Ann", 1),
        ("Al & Amy", 2),
    ]
    (shown,) = imported.rounds[0].fixtures
    assert (shown.score, shown.winner, shown.decided_by) == (
        "1–1 (5–3)",
        fixture.a,
        "on board points",
    )
    assert [(row.team, row.fixture_wins, row.board_wins) for row in imported.standings] == [
        (fixture.a, 1, 1),
        (fixture.b, 0, 1),
    ]
    assert next_round == 2
