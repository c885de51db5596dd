"""Reinstating a withdrawn player: the walkovers given for the withdrawal are played after
all, unless a later result was built on them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, results, roster, withdrawal
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tournament_views import FlightBoard, MatchSummary, flight_board

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


def board(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, actor, flight_id)


def sides(match: MatchSummary) -> tuple[str | None, str | None, str]:
    return (
        match.a.name if match.a else None,
        match.b.name if match.b else None,
        match.status,
    )


def drawn(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    """Seeded Ann, Bob, Cy, Di: Main semifinals Ann v Di and Bob v Cy, their losers meet
    in the Consolation."""
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN, CONSOLATION])
    with transaction(engine) as session:
        actor, main = built.director.actor, built.flights["Main"]
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    return built


def test_reinstating_takes_back_the_walkover_and_the_opponents_advance(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=built.entries["Di"])
    bob_cy = board(engine, actor, main).rounds[0].matches[1]
    with transaction(engine) as session:
        # Bob beats Cy 3-0: Bob reaches the final, Cy the consolation against Di, who is
        # withdrawn, so Cy goes through there by walkover.
        results.record_final_score(session, actor=actor, match_id=bob_cy.id, score_a=3, score_b=0)
    withdrawn = board(engine, actor, main)

    with transaction(engine) as session:
        back = roster.reinstate(session, actor=actor, entry_id=built.entries["Di"])

    after = board(engine, actor, main)
    consolation = board(engine, actor, built.flights["Consolation"])
    assert [sides(m) for m in withdrawn.rounds[1].matches] == [("Ann", "Bob", "ready")]
    assert back.status == "active"
    # Ann v Di is to be played again; the final waits for its winner, Bob already there.
    assert [sides(m) for m in after.rounds[0].matches] == [
        ("Ann", "Di", "ready"),
        ("Bob", "Cy", "finished"),
    ]
    assert [sides(m) for m in after.rounds[1].matches] == [(None, "Bob", "pending")]
    # Cy's consolation match waits for the loser of Ann v Di again.
    assert [sides(m) for m in consolation.rounds[0].matches] == [(None, "Cy", "pending")]


def test_reinstating_is_refused_naming_the_result_built_on_a_walkover(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=built.entries["Di"])
    bob_cy = board(engine, actor, main).rounds[0].matches[1]
    with transaction(engine) as session:
        results.record_final_score(session, actor=actor, match_id=bob_cy.id, score_a=3, score_b=0)
    final = board(engine, actor, main).rounds[1].matches[0]
    with transaction(engine) as session:
        # Ann, through by walkover, wins the final's first game: a single, cube 1.
        results.record_game(
            session,
            actor=actor,
            match_id=final.id,
            game=results.GameFields(winner="a", end="played"),
        )

    with Session(engine) as session:
        refusal = withdrawal.reinstatement_refusal(session, actor, built.entries["Di"])
    with pytest.raises(StoreUserError) as refused, transaction(engine) as session:
        roster.reinstate(session, actor=actor, entry_id=built.entries["Di"])

    expected = (
        "Di cannot be reinstated: the walkovers given for the withdrawal were built on, and "
        "these results depend on them: Final: Ann v Bob (1-0). Clear those results first, or "
        "leave the withdrawal as it is."
    )
    assert refusal == expected
    assert "Final: Ann v Bob (1-0)" in refused.value.message
    assert [sides(m) for m in board(engine, actor, main).rounds[0].matches] == [
        ("Ann", "Di", "walkover"),
        ("Bob", "Cy", "finished"),
    ]


def test_reinstating_in_a_swiss_takes_back_the_walkover_result(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    swiss = {"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 2}
    built = build_event(["Ann", "Bob", "Cy", "Di"], [swiss])
    actor, flight = built.director.actor, built.flights["Swiss"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=flight)
    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=built.entries["Di"])
    withdrawn = board(engine, actor, flight)

    with transaction(engine) as session:
        roster.reinstate(session, actor=actor, entry_id=built.entries["Di"])

    after = board(engine, actor, flight)
    di_before = next(m for m in withdrawn.rounds[0].matches if "Di" in sides(m))
    di_after = next(m for m in after.rounds[0].matches if "Di" in sides(m))
    assert di_before.status == "walkover"
    assert (di_after.status, di_after.winner, di_after.score_text) == ("ready", None, "")
    assert [row.wins for row in after.standings] == [0, 0, 0, 0]
