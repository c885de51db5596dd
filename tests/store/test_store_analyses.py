"""Analyses of uploaded records: queued by a director, run by the worker, read by pages;
and winning chances from a match's score.

Expected figures are gnubg 1.07's for the record (tests/data/analysis/expected.json:
error rates 33.4 and 43.7 mEMG per decision) and gnubg's match equity table (2-away
against 3-away: 59.947%).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine

from tourney.analysis import engine as analysis_engine
from tourney.store import analyses, draws, results
from tourney.store.db import read_session, transaction
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORD = Path(__file__).resolve().parents[1] / "data" / "analysis" / "gnubg_L01_s1018.mat"


def _drawn(engine: Engine, build_event: Callable[..., BuiltEvent], length: int
           ) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["GnubgA", "GnubgB"], [{"name": "Main", "format": "knockout", "match_length": length}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    return built, drawn.rounds[0].matches[0].id


def _uploaded(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[BuiltEvent, int]:
    built, match_id = _drawn(engine, build_event, 1)
    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=built.director.actor, match_id=match_id, filename="m.mat",
            data=RECORD.read_bytes(),
        )
    assert outcome.ok
    return built, match_id


def test_a_requested_analysis_waits_for_the_worker(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _uploaded(engine, build_event)
    with transaction(engine) as session:
        analyses.request_analysis(session, actor=built.director.actor, match_id=match_id)
    with read_session(engine) as session:
        view = analyses.match_analysis(session, match_id)
    assert (view.status, view.players, view.can_request) == ("queued", (), False)


def test_asking_twice_while_queued_is_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _uploaded(engine, build_event)
    with transaction(engine) as session:
        analyses.request_analysis(session, actor=built.director.actor, match_id=match_id)
    with pytest.raises(StoreUserError, match="already waiting"), transaction(engine) as session:
        analyses.request_analysis(session, actor=built.director.actor, match_id=match_id)


def test_the_worker_stores_gnubgs_figures_and_the_biggest_errors(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _uploaded(engine, build_event)
    with transaction(engine) as session:
        job_id = analyses.request_analysis(session, actor=built.director.actor,
                                           match_id=match_id)

    assert analyses.run_next_job(engine) == job_id
    assert analyses.run_next_job(engine) is None
    with read_session(engine) as session:
        view = analyses.match_analysis(session, match_id)
        installed, table = analyses.event_performance(session, built.event_id)
    rates = [p.error_rate for p in view.players]
    assert (view.status, [p.name for p in view.players]) == ("done", ["GnubgA", "GnubgB"])
    assert [abs(ours - theirs) <= max(1.0, 0.05 * theirs)
            for ours, theirs in zip(rates, [33.4, 43.7], strict=True)] == [True, True]
    assert [len(p.worst) for p in view.players] == [4, 4]
    assert view.players[0].worst[0].diagram.startswith(" Position ID: ")
    assert (installed, [(r.name, r.matches) for r in table]) == (
        True, [("GnubgA", 1), ("GnubgB", 1)])
    assert [abs(r.pr - rate / 2) <= 0.1
            for r, rate in zip(table, rates, strict=True)] == [True, True]


def test_chances_follow_the_score_as_games_are_entered(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event, 3)
    with transaction(engine) as session:
        results.record_game(session, actor=built.director.actor, match_id=match_id,
                            game=GameFields(winner="a", end="played"))
    with read_session(engine) as session:
        chances = analyses.match_chances(session, match_id)
    assert (chances.a_name, chances.a_percent, chances.b_name, chances.b_percent) == (
        "GnubgA", 59.9, "GnubgB", 40.1)


def test_without_the_extra_nothing_is_queued_and_pages_say_so(
    engine: Engine, build_event: Callable[..., BuiltEvent], monkeypatch: pytest.MonkeyPatch
) -> None:
    built, match_id = _uploaded(engine, build_event)
    monkeypatch.setitem(sys.modules, "gnubg", None)
    monkeypatch.setattr(analysis_engine, "_loaded", {})
    with pytest.raises(StoreUserError, match="not installed"), transaction(engine) as session:
        analyses.request_analysis(session, actor=built.director.actor, match_id=match_id)
    with read_session(engine) as session:
        assert analyses.match_analysis(session, match_id).installed is False
        assert analyses.match_chances(session, match_id).installed is False
