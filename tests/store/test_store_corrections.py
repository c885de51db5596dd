"""Corrections say exactly what they do: a correction that clears later results names
every one of them, however many."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, results
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.results import CascadeRequiredError, GameFields
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 3}
CONSOLATION = {
    "name": "Consolation",
    "format": "knockout",
    "match_length": 1,
    "feeds_from": "Main",
    "feed_rounds": (1,),
}


def play_everything(engine: Engine, actor: Actor, flight_ids: list[int]) -> None:
    """Side a wins every ready match 3-0 (1-0 to one point), round after round."""
    while True:
        with Session(engine) as session:
            ready = [
                (m.id, m.length)
                for flight_id in flight_ids
                for r in flight_board(session, actor, flight_id).rounds
                for m in r.matches
                if m.status == "ready"
            ]
        if not ready:
            return
        with transaction(engine) as session:
            for match_id, length in ready:
                results.record_final_score(
                    session, actor=actor, match_id=match_id, score_a=length, score_b=0
                )


def test_a_correction_that_clears_later_results_names_every_one(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Sixteen seeded: S1 v S16 opens the draw; the eight first-round losers play the
    # consolation, one point a match. Side a wins every match.
    built = build_event([f"S{n}" for n in range(1, 17)], [MAIN, CONSOLATION])
    actor, main, cons = built.director.actor, built.flights["Main"], built.flights["Consolation"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    play_everything(engine, actor, [main, cons])
    with Session(engine) as session:
        opener = flight_board(session, actor, main).rounds[0].matches[0]

    with pytest.raises(CascadeRequiredError) as asked, transaction(engine) as session:
        results.record_final_score(
            session, actor=actor, match_id=opener.id, score_a=0, score_b=3
        )

    # S1 (side a everywhere) went on to win the quarterfinal, semifinal and final; S16
    # lost its consolation quarterfinal to S14, who won the semifinal and lost the final:
    # six matches, all named (the message once stopped after four).
    assert asked.value.message == (
        "This changes who won, and 6 later matches already depend on it: "
        "Quarterfinal: S1 v S8 (3-0); Semifinal: S1 v S4 (3-0); Final: S1 v S2 (3-0); "
        "Quarterfinal: S14 v S16 (1-0); Semifinal: S14 v S15 (1-0); Final: S9 v S14 (1-0). "
        "Confirm the correction to clear those results as well."
    )


def test_a_game_corrected_to_what_it_was_is_reported_unchanged(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [MAIN])
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    with Session(engine) as session:
        match_id = flight_board(session, actor, main).rounds[0].matches[0].id
    won = GameFields("a", "played", 2, "single")
    with transaction(engine) as session:
        results.record_game(session, actor=actor, match_id=match_id, game=won)

    with Session(engine) as session:
        same = results.is_game_unchanged(session, match_id=match_id, number=1, game=won)
        other = results.is_game_unchanged(
            session, match_id=match_id, number=1, game=GameFields("a", "played", 1, "single")
        )
        missing = results.is_game_unchanged(session, match_id=match_id, number=2, game=won)

    assert (same, other, missing) == (True, False, False)
