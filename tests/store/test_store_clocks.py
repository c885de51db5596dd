"""Match clocks, the event timetable and the venue screen, through the store."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from tourney.store import clocks, draws, screens
from tourney.store.db import read_session, transaction
from tourney.store.errors import AccessDeniedError, StoreUserError
from tourney.store.results import GameFields, record_game
from tourney.store.tables import AuditEntry, Match, MatchStatus
from tourney.store.types import utcnow

if TYPE_CHECKING:
    from conftest import BuiltEvent

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def knockout_with_consolation(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> BuiltEvent:
    """Eight players, a main draw to 5 with a final to 7, and a consolation to 3 of the
    first round's losers; drawn seeded and published."""
    built = build_event(
        EIGHT,
        [
            {
                "name": "Main",
                "format": "knockout",
                "match_length": 5,
                "round_lengths": {"final": 7},
            },
            {
                "name": "Consolation",
                "format": "knockout",
                "match_length": 3,
                "feeds_from": "Main",
                "feed_rounds": (1,),
            },
        ],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    return built


def first_round(engine: Engine, built: BuiltEvent) -> list[int]:
    """The ids of the main draw's first-round matches."""
    with read_session(engine) as session:
        return [
            i or 0
            for i in session.exec(
                select(Match.id)
                .where(Match.flight_id == built.flights["Main"])
                .order_by(col(Match.round_id), col(Match.position))
            )
        ][:4]


def test_timetable_of_a_drawn_knockout_follows_the_hand_computed_plan(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """Nothing started, at T, 8 minutes a point: main 40, 40, 56 minutes (T to T+136);
    the consolation's two rounds of 24 minutes after the main's first (T+40 to T+88)."""
    built = knockout_with_consolation(engine, build_event)
    with read_session(engine) as session:
        t = utcnow()
        times = clocks.event_times(session, built.event_id, now=t)

    main, consolation = times.flights
    minutes = [
        [(int((r.start - t).total_seconds()) // 60, r.minutes) for r in f.rounds]
        for f in (main, consolation)
    ]
    assert minutes == [[(0, 40), (40, 40), (80, 56)], [(40, 24), (64, 24)]]
    assert main.final is not None and main.final.name == "Final"
    assert times.end == t + timedelta(minutes=136)


def test_starting_a_match_runs_its_clock_and_is_audited(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = knockout_with_consolation(engine, build_event)
    match_id = first_round(engine, built)[0]
    actor = built.director.actor

    with transaction(engine) as session:
        clocks.start_match(session, actor=actor, match_id=match_id)
    with read_session(engine) as session:
        stored = session.get(Match, match_id)
        assert stored is not None and stored.started_at is not None
        started, status = stored.started_at, stored.status
        clock = clocks.match_clock(session, match_id, now=started + timedelta(minutes=41))
        audit = session.exec(
            select(AuditEntry.action).where(AuditEntry.match_id == match_id)
        ).all()
        late = clocks.event_times(
            session, built.event_id, now=started + timedelta(minutes=41)
        ).late

    assert status == MatchStatus.PLAYING.value
    assert (clock.budget_minutes, clock.running_minutes, clock.is_late) == (40, 41, True)
    assert clock.reserve_minutes == 10  # 5 points x 2 minutes on each player's clock
    assert list(audit) == ["match.start"]
    assert [(m.match_id, m.running_minutes, m.budget_minutes) for m in late] == [
        (match_id, 41, 40)
    ]


def test_a_start_is_refused_twice_and_cannot_be_taken_back_after_a_game(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = knockout_with_consolation(engine, build_event)
    match_id = first_round(engine, built)[0]
    actor = built.director.actor
    with transaction(engine) as session:
        clocks.start_match(session, actor=actor, match_id=match_id)
    with pytest.raises(StoreUserError, match="started already"), transaction(engine) as session:
        clocks.start_match(session, actor=actor, match_id=match_id)
    with transaction(engine) as session:
        record_game(
            session,
            actor=actor,
            match_id=match_id,
            game=GameFields("a", "played"),
            expected_version=None,
        )
    with pytest.raises(StoreUserError, match="Games are entered"), transaction(engine) as session:
        clocks.undo_start(session, actor=actor, match_id=match_id)


def test_a_start_taken_back_leaves_the_match_waiting(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = knockout_with_consolation(engine, build_event)
    match_id = first_round(engine, built)[1]
    actor = built.director.actor
    with transaction(engine) as session:
        clocks.start_match(session, actor=actor, match_id=match_id)
    with transaction(engine) as session:
        clocks.undo_start(session, actor=actor, match_id=match_id)
    with read_session(engine) as session:
        stored = session.get(Match, match_id)
        assert stored is not None
        state = (stored.status, stored.started_at)
        actions = session.exec(
            select(AuditEntry.action).where(AuditEntry.match_id == match_id)
        ).all()

    assert state == (MatchStatus.READY.value, None)
    assert list(actions) == ["match.start", "match.unstart"]


def test_the_finish_stamp_gives_the_played_minutes(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """A 5-point match started and then won 5-0 by one game worth 8 (a gammon on 4)."""
    built = knockout_with_consolation(engine, build_event)
    match_id = first_round(engine, built)[2]
    actor = built.director.actor
    with transaction(engine) as session:
        clocks.start_match(session, actor=actor, match_id=match_id)
    with transaction(engine) as session:
        record_game(
            session,
            actor=actor,
            match_id=match_id,
            game=GameFields("a", "played", cube=4, level="gammon"),
            expected_version=None,
        )
    with read_session(engine) as session:
        clock = clocks.match_clock(session, match_id)

    assert clock.finished_at is not None and clock.played_minutes == 0
    assert (clock.running_minutes, clock.can_start, clock.can_undo_start) == (None, False, False)


def test_screen_settings_are_checked_and_audited(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = knockout_with_consolation(engine, build_event)
    actor = built.director.actor
    with pytest.raises(StoreUserError, match="between 5 and 300"), transaction(engine) as session:
        screens.set_screen(
            session, actor=actor, event_id=built.event_id, panels=("clock",),
            rotation_seconds=2, announcement="", clock_minutes=None,
        )  # fmt: skip
    with pytest.raises(StoreUserError, match="Unknown screen panel"), transaction(
        engine
    ) as session:
        screens.set_screen(
            session, actor=actor, event_id=built.event_id, panels=("weather",),
            rotation_seconds=10, announcement="", clock_minutes=None,
        )  # fmt: skip
    with transaction(engine) as session:
        screens.set_screen(
            session, actor=actor, event_id=built.event_id, panels=("announcement", "clock"),
            rotation_seconds=10, announcement="Prize-giving at 22:00", clock_minutes=30,
        )  # fmt: skip
    with read_session(engine) as session:
        view = screens.screen_view(session, built.event_id)
        audit = session.exec(
            select(AuditEntry.action).where(AuditEntry.event_id == built.event_id)
        ).all()

    assert [(s.panel, s.text) for s in view.slides] == [
        ("announcement", "Prize-giving at 22:00"),
        ("clock", ""),
    ]
    assert [c.label for c in view.slides[1].clocks] == ["Time left"]
    assert view.rotation_seconds == 10
    assert "event.screen" in audit


def test_only_a_director_of_the_event_sets_its_screen(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., object],
) -> None:
    built = knockout_with_consolation(engine, build_event)
    stranger = make_user("director")
    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        screens.set_screen(
            session, actor=stranger.actor, event_id=built.event_id,  # type: ignore[attr-defined]
            panels=("clock",), rotation_seconds=10, announcement="", clock_minutes=None,
        )  # fmt: skip


def test_a_long_round_is_split_into_slides_of_32_pairings(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """70 players in a Swiss: 35 pairings, one slide of 32 and one of 3."""
    built = build_event(
        [f"Player {n:02d}" for n in range(1, 71)],
        [{"name": "Swiss", "format": "swiss", "match_length": 5, "swiss_rounds": 3}],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Swiss"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Swiss"])
    with read_session(engine) as session:
        view = screens.screen_view(session, built.event_id)

    pairings = [s for s in view.slides if s.panel == "pairings"]
    assert [(len(s.pairings), s.part) for s in pairings] == [(32, "1/2"), (3, "2/2")]


def test_a_huge_round_shows_at_most_eight_slides_of_matches_to_finish(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """600 players: 300 pairings, more than 8 x 32 = 256; one finished, so the screen
    shows the first 256 of the 299 still to finish, in 8 slides."""
    built = build_event(
        [f"Player {n:03d}" for n in range(1, 601)],
        [{"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3}],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Swiss"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Swiss"])
        first = session.exec(
            select(Match.id)
            .where(Match.flight_id == built.flights["Swiss"])
            .order_by(col(Match.position))
        ).first()
        assert first is not None
        record_game(
            session, actor=actor, match_id=first, game=GameFields("a", "played"),
            expected_version=None,
        )  # fmt: skip
    with read_session(engine) as session:
        view = screens.screen_view(session, built.event_id)

    pairings = [s for s in view.slides if s.panel == "pairings"]
    assert [len(s.pairings) for s in pairings] == [32] * 8
    assert all(p.status == "ready" for s in pairings for p in s.pairings)
