"""Changing rules or match lengths once results exist: every change is listed and applied
only once confirmed; what the results make impossible is refused naming the match.

The flight: Ann, Bob, Cy and Di seeded in a knockout to 5 points, semifinals Ann v Di
(match 1) and Bob v Cy (match 2), the Crawford rule off unless a test turns it on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import draws, events, results
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields
from tourney.store.rules_change import RulesChangeNeedsConfirmation
from tourney.store.tables import AuditEntry, Event, Game
from tourney.store.tournament_views import FlightBoard, flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 5}


def board(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, actor, flight_id)


def drawn(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN], crawford=False)
    with transaction(engine) as session:
        actor, main = built.director.actor, built.flights["Main"]
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    return built


def games(engine: Engine, built: BuiltEvent, position: int, *entered: GameFields) -> int:
    """Enter games in semifinal ``position``; its match id."""
    actor = built.director.actor
    match_id = board(engine, actor, built.flights["Main"]).rounds[0].matches[position - 1].id
    for game in entered:
        with transaction(engine) as session:
            results.record_game(session, actor=actor, match_id=match_id, game=game)
    return match_id


ANN_WINS_5_3 = (
    GameFields("a", "played", 2, "gammon"),  # 4-0: Ann at 4, one short of 5
    GameFields("b", "played", 1, "single"),  # 4-1
    GameFields("b", "played", 2, "single"),  # 4-3
    GameFields("a", "played", 1, "single"),  # 5-3, Ann wins
)


def event_fields(engine: Engine, event_id: int, **changed: Any) -> events.EventFields:
    with Session(engine) as session:
        event = session.get(Event, event_id)
        assert event is not None
        values = {"name": event.name, "slug": event.slug, "crawford": event.crawford}
    return events.EventFields(**(values | changed))


def flight_fields(**changed: Any) -> events.FlightFields:
    return events.FlightFields(**(MAIN | changed))


def crawford_marks(engine: Engine, match_id: int) -> list[bool]:
    with Session(engine) as session:
        rows = session.exec(
            select(Game).where(Game.match_id == match_id).order_by(col(Game.number))
        )
        return [g.is_crawford for g in rows]


def test_turning_crawford_on_lists_the_new_crawford_game_and_applies_it_once_confirmed(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor = built.director.actor
    match_id = games(engine, built, 1, *ANN_WINS_5_3)
    with_crawford = event_fields(engine, built.event_id, crawford=True)

    with pytest.raises(RulesChangeNeedsConfirmation) as asked, transaction(engine) as session:
        events.update_event(session, actor=actor, event_id=built.event_id, fields=with_crawford)
    unconfirmed = crawford_marks(engine, match_id)
    with transaction(engine) as session:
        events.update_event(
            session, actor=actor, event_id=built.event_id, fields=with_crawford,
            confirmed_changes=asked.value.digest,
        )

    # Ann reached 4 = N-1 in game 1, so game 2 is the Crawford game; the score stays 5-3.
    expected = "Main round 1 match 1 (Ann – Di): game 2 becomes the Crawford game."
    assert asked.value.changes == (expected,)
    assert unconfirmed == [False, False, False, False]
    assert crawford_marks(engine, match_id) == [False, True, False, False]
    with Session(engine) as session:
        audit = session.exec(
            select(AuditEntry).where(AuditEntry.action == "event.update")
        ).one()
    assert audit.after is not None and audit.after["results_changed"] == [expected]


def test_a_confirmation_of_another_list_of_changes_does_not_apply(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor = built.director.actor
    match_id = games(engine, built, 1, *ANN_WINS_5_3)

    with pytest.raises(RulesChangeNeedsConfirmation), transaction(engine) as session:
        events.update_event(
            session, actor=actor, event_id=built.event_id,
            fields=event_fields(engine, built.event_id, crawford=True),
            confirmed_changes="0123456789abcdef",
        )

    assert crawford_marks(engine, match_id) == [False, False, False, False]


def test_turning_crawford_on_after_a_double_in_the_would_be_crawford_game_is_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor = built.director.actor
    games(engine, built, 1, *ANN_WINS_5_3)
    games(
        engine, built, 2,
        GameFields("a", "played", 2, "gammon"),  # Bob 4-0
        GameFields("b", "played", 2, "single"),  # Cy wins at a cube of 2: 4-2
    )

    with pytest.raises(StoreUserError) as refused, transaction(engine) as session:
        events.update_event(
            session, actor=actor, event_id=built.event_id,
            fields=event_fields(engine, built.event_id, crawford=True),
        )

    message = refused.value.message
    assert message.startswith(
        "These rules do not fit the results already entered, so nothing was changed. "
        "Main round 1 match 2 (Bob – Cy): "
    )
    # Game 2 would be Bob's Crawford game, where nobody may double.
    assert "Game 2" in message and "Crawford" in message
    assert "Ann – Di" not in message


def test_longer_matches_reopen_a_finished_match_and_take_its_winner_out_of_the_final(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor, main = built.director.actor, built.flights["Main"]
    games(engine, built, 1, *ANN_WINS_5_3)
    before = board(engine, actor, main)

    with pytest.raises(RulesChangeNeedsConfirmation) as asked, transaction(engine) as session:
        events.update_flight(
            session, actor=actor, flight_id=main, fields=flight_fields(match_length=7)
        )
    with transaction(engine) as session:
        events.update_flight(
            session, actor=actor, flight_id=main, fields=flight_fields(match_length=7),
            confirmed_changes=asked.value.digest,
        )

    after = board(engine, actor, main)
    assert asked.value.changes == (
        "Main round 1 match 1 (Ann – Di): its score of 5–3 would become a match to 7 "
        "still playing.",
    )
    assert [m.a.name if m.a else None for m in before.rounds[1].matches] == ["Ann"]
    semifinal = after.rounds[0].matches[0]
    assert (semifinal.status, semifinal.score_a, semifinal.score_b, semifinal.length) == (
        "playing", 5, 3, 7,
    )
    assert [m.a for m in after.rounds[1].matches] == [None]
    assert [m.length for r in after.rounds for m in r.matches] == [7, 7, 7]
    assert [r.match_length for r in after.rounds] == [7, 7]


def test_shorter_matches_finish_a_match_that_reaches_the_new_length(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor, main = built.director.actor, built.flights["Main"]
    games(
        engine, built, 1,
        GameFields("a", "played", 2, "single"),  # 2-0
        GameFields("b", "played", 1, "single"),  # 2-1
        GameFields("a", "played", 1, "single"),  # 3-1: still playing to 5
    )

    with pytest.raises(RulesChangeNeedsConfirmation) as asked, transaction(engine) as session:
        events.update_flight(
            session, actor=actor, flight_id=main, fields=flight_fields(match_length=3)
        )
    with transaction(engine) as session:
        events.update_flight(
            session, actor=actor, flight_id=main, fields=flight_fields(match_length=3),
            confirmed_changes=asked.value.digest,
        )

    after = board(engine, actor, main)
    assert asked.value.changes == (
        "Main round 1 match 1 (Ann – Di): its score of 3–1 would finish the match to 3, "
        "won by Ann.",
    )
    assert after.rounds[0].matches[0].status == "finished"
    assert [m.a.name if m.a else None for m in after.rounds[1].matches] == ["Ann"]


def test_shorter_matches_that_end_a_match_before_its_last_games_are_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor, main = built.director.actor, built.flights["Main"]
    games(engine, built, 1, *ANN_WINS_5_3)

    with pytest.raises(StoreUserError) as refused, transaction(engine) as session:
        events.update_flight(
            session, actor=actor, flight_id=main, fields=flight_fields(match_length=3)
        )

    # To 3 points Ann's 4-0 after game 1 ends the match: games 2 to 4 cannot have been played.
    assert "Main round 1 match 1 (Ann – Di): " in refused.value.message
    assert "Game 2" in refused.value.message
    assert board(engine, actor, main).flight.match_length == 5


def test_reopening_a_match_whose_winner_played_on_is_refused_naming_the_later_match(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn(engine, build_event)
    actor, main = built.director.actor, built.flights["Main"]
    games(engine, built, 1, *ANN_WINS_5_3)
    games(engine, built, 2, GameFields("a", "played", 4, "gammon"))  # Bob 8-0, over
    final = board(engine, actor, main).rounds[1].matches[0]
    with transaction(engine) as session:
        results.record_game(
            session, actor=actor, match_id=final.id, game=GameFields("a", "played", 1, "single")
        )

    with pytest.raises(StoreUserError) as refused, transaction(engine) as session:
        events.update_flight(
            session, actor=actor, flight_id=main, fields=flight_fields(match_length=9)
        )

    message = refused.value.message
    # Ann's 5-3 and Bob's 8-0 are no longer over in a match to 9; the final stands on both.
    assert (
        "Main round 1 match 1 (Ann – Di): its result of 5–3 would no longer stand, and later "
        "results depend on it: Final: Ann v Bob (1-0)"
    ) in message
    assert (
        "Main round 1 match 2 (Bob – Cy): its result of 8–0 would no longer stand, and later "
        "results depend on it: Final: Ann v Bob (1-0)"
    ) in message
    assert board(engine, actor, main).rounds[1].matches[0].status == "playing"
