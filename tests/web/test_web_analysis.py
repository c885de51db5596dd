"""Match pages with and without the analysis extra, as a plain browser sees them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.analysis import engine as analysis_engine
from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.results import GameFields

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"


def _in_play(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[BuiltEvent, int]:
    built = build_event(["Ann", "Bob"], [{"name": "Main", "format": "knockout",
                                          "match_length": 5}])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    match_id = board.rounds[0].matches[0].id
    with transaction(engine) as session:
        # Ann wins a doubled gammon: 4-0 in a 5-point match, so the next game is Crawford.
        results.record_game(session, actor=actor, match_id=match_id,
                            game=GameFields(winner="a", end="played", cube=2, level="gammon"))
    return built, match_id


def test_the_match_page_shows_crawford_winning_chances(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _in_play(engine, build_event)
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    # gnubg's `show matchequitytable 5`: 1-away against 5-away (the Crawford game next)
    # is 84.1790% for the leader.
    assert ('<span class="name">Ann</span> <strong class="chance">84.2%</strong>' in page,
            '<span class="name">Bob</span> <strong class="chance">15.8%</strong>' in page) == (
        True, True)


def test_without_the_extra_the_match_page_says_analysis_is_not_installed(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built, match_id = _in_play(engine, build_event)
    monkeypatch.setitem(sys.modules, "gnubg", None)
    monkeypatch.setattr(analysis_engine, "_loaded", {})
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    performance = client.get(f"/director/events/{built.event_id}/performance")
    assert "Winning chances: analysis is not installed." in page
    assert "Analysis is not installed on this server." in performance.get_data(as_text=True)
