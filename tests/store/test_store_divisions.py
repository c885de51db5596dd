"""Divisions, handicap starts and draw scoring in the store: the director's use cases."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import divisions, draws, results
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields
from tourney.store.tables import AuditEntry, Entry, FlightEntry, Match, Player

if TYPE_CHECKING:
    from conftest import BuiltEvent

PLAYERS = ["Olga", "Oscar", "Nina", "Ned"]
"""Olga and Oscar in the Open division, Nina and Ned in the Novice."""
SWISS = {"name": "Mixed", "format": "swiss", "match_length": 5, "swiss_rounds": 2}


def _names(session: Session, match: Match) -> tuple[str, str]:
    def name(fe_id: int | None) -> str:
        fe = session.get(FlightEntry, fe_id)
        assert fe is not None
        entry = session.get(Entry, fe.entry_id)
        assert entry is not None
        player = session.get(Player, entry.player_id)
        assert player is not None
        return player.name
    return name(match.entry_a_id), name(match.entry_b_id)


def _divided(engine: Engine, build_event: Callable[..., BuiltEvent],
             handicap: int = 1) -> BuiltEvent:
    built = build_event(PLAYERS, [SWISS])
    actor = built.director.actor
    with transaction(engine) as session:
        divisions.set_divisions(session, actor=actor, event_id=built.event_id,
                                text="Open\nIntermediate\nNovice")
        for name, division in zip(PLAYERS, ["Open", "Open", "Novice", "Novice"], strict=True):
            divisions.set_entry_division(session, actor=actor, entry_id=built.entries[name],
                                         division=division)
        divisions.set_flight_division(session, actor=actor, flight_id=built.flights["Mixed"],
                                      division="", handicap=handicap)
    return built


def test_a_novice_starts_two_up_against_an_open_player(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Open to Novice is two divisions (Intermediate between): 2 points at 1 a division.
    built = _divided(engine, build_event)
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Mixed"], seed=7)
        rows = session.exec(select(Match).where(Match.flight_id == built.flights["Mixed"])).all()
        starts = {_names(session, m): (m.start_a, m.start_b) for m in rows}

    expected_up = {"Open": 0, "Novice": 2}
    division_of = dict(zip(PLAYERS, ["Open", "Open", "Novice", "Novice"], strict=True))
    for (a, b), start in starts.items():
        ups = (expected_up[division_of[a]], expected_up[division_of[b]])
        level = min(ups)
        assert start == (ups[0] - level, ups[1] - level)


def test_a_game_after_a_handicap_start_adds_to_it_and_the_start_is_fixed_by_hand(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _divided(engine, build_event)
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Mixed"], seed=7)
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Mixed"])
        match = session.exec(select(Match).where(
            Match.flight_id == built.flights["Mixed"])).first()
        assert match is not None
        match_id = match.id or 0
        divisions.set_match_start(session, actor=actor, match_id=match_id, start_a=1, start_b=3)
        detail = results.record_game(session, actor=actor, match_id=match_id,
                                     game=GameFields("a", "played", 1, "gammon"))
        stored = session.get(Match, match_id)
        assert stored is not None
        actions = session.exec(select(AuditEntry.action).where(
            AuditEntry.match_id == match_id)).all()

    assert (stored.score_a, stored.score_b) == (3, 3)
    assert detail is not None
    assert "match.start" in actions


def test_a_start_is_refused_at_the_match_length(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _divided(engine, build_event)
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Mixed"], seed=7)
        match = session.exec(select(Match).where(
            Match.flight_id == built.flights["Mixed"])).first()
        assert match is not None
        with pytest.raises(StoreUserError) as refused:
            divisions.set_match_start(session, actor=actor, match_id=match.id or 0,
                                      start_a=5, start_b=0)

    assert str(refused.value) == ("The starting score 5-0 must be below 5 for both players "
                                  "in a 5-point match, or the match would already be over.")


def test_unknown_division_and_division_in_use_are_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _divided(engine, build_event)
    actor = built.director.actor
    with transaction(engine) as session, pytest.raises(StoreUserError) as unknown:
        divisions.set_entry_division(session, actor=actor, entry_id=built.entries["Ned"],
                                     division="Masters")
    with transaction(engine) as session, pytest.raises(StoreUserError) as in_use:
        divisions.set_divisions(session, actor=actor, event_id=built.event_id, text="Open")

    assert str(unknown.value) == ("'Masters' is not one of this event's divisions "
                                  "(Open, Intermediate, Novice).")
    assert str(in_use.value) == ("The division 'Novice' still has players or a flight; "
                                 "move them first.")


def test_draw_scoring_is_chosen_from_the_three(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(PLAYERS, [SWISS])
    actor = built.director.actor
    with transaction(engine) as session:
        view = divisions.set_draw_scoring(session, actor=actor, event_id=built.event_id,
                                          draw_scoring="half")
        with pytest.raises(StoreUserError):
            divisions.set_draw_scoring(session, actor=actor, event_id=built.event_id,
                                       draw_scoring="two")

    assert view.draw_scoring.label == "½-½"


def test_a_divisional_flight_draws_its_division_only(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _divided(engine, build_event)
    actor = built.director.actor
    with transaction(engine) as session:
        divisions.set_flight_division(session, actor=actor, flight_id=built.flights["Mixed"],
                                      division="Novice", handicap=0)
        draws.make_draw(session, actor=actor, flight_id=built.flights["Mixed"], seed=7)
        rows = session.exec(select(Match).where(Match.flight_id == built.flights["Mixed"])).all()
        drawn = sorted(name for m in rows for name in _names(session, m))
        starts = [(m.start_a, m.start_b) for m in rows]

    assert drawn == ["Ned", "Nina"]
    assert starts == [(0, 0)]
