"""The demo loader: sample_events/ into the database, and a second load changes nothing."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store.db import transaction
from tourney.store.demo import demo_counts, demo_files, load_demo
from tourney.store.passwords import make_hasher
from tourney.store.tables import AuditEntry

SAMPLE_EVENTS = Path(__file__).resolve().parents[2] / "sample_events"
HASHER = make_hasher("fast")


def _audit_count(engine: Engine) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(AuditEntry)).one())


def test_sample_events_has_a_demo_file() -> None:
    assert [p.name for p in demo_files(SAMPLE_EVENTS)][:1] == ["club_night.json"]


def test_demo_loads_once_and_second_load_changes_nothing(engine: Engine) -> None:
    with transaction(engine) as session:
        first = load_demo(session, directory=SAMPLE_EVENTS, hasher=HASHER)
    with Session(engine) as session:
        counts = demo_counts(session)
    audits = _audit_count(engine)

    with transaction(engine) as session:
        second = load_demo(session, directory=SAMPLE_EVENTS, hasher=HASHER)
    with Session(engine) as session:
        assert demo_counts(session) == counts

    assert "thursday-club-night" in first.events_created
    assert (second.events_created, second.players_created) == ((), 0)
    assert second.logins == first.logins
    assert _audit_count(engine) == audits
    assert counts["Event"] >= 1 and counts["Entry"] >= 8


def test_demo_has_a_finished_knockout_and_a_swiss_in_progress(engine: Engine) -> None:
    from tourney.store.tables import Event
    from tourney.store.tournament_views import event_boards

    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=HASHER)
    with Session(engine) as session:
        ids = {e.slug: e.id or 0 for e in session.exec(select(Event))}
        knockout = event_boards(session, ids["fjordside-spring-open"])
        swiss = event_boards(session, ids["monday-swiss"])

    assert [(b.flight.name, b.flight.status, b.champion is not None) for b in knockout] == [
        ("Main", "finished", True),
        ("Consolation", "finished", True),
    ]
    (flight,) = swiss
    # Nine players, three rounds: two finished, the third published with one match begun.
    assert [r.status for r in flight.rounds] == ["finished", "finished", "published"]
    assert (flight.flight.status, flight.playing) == ("running", 1)


def test_demo_has_a_long_nardy_knockout_with_koks_and_drawn_games(engine: Engine) -> None:
    from tourney.store.tables import Event, Game, Match
    from tourney.store.tournament_views import event_boards

    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=HASHER)
    with Session(engine) as session:
        event = session.exec(select(Event).where(Event.slug == "tuesday-long-nardy")).one()
        (board,) = event_boards(session, event.id or 0)
        games = session.exec(
            select(Game).join(Match, Match.id == Game.match_id)  # type: ignore[arg-type]
            .where(Match.flight_id == board.flight.id)
        ).all()

    assert (event.variant, event.variant_options) == (
        "long-nardy", {"koks": True, "last_roll_draw": True})
    assert (board.flight.status, board.champion is not None) == ("finished", True)
    # Without the cube every game is at 1; a koks scores 3 and a drawn game nothing.
    assert {g.cube_exponent for g in games} == {0}
    assert {(g.level, g.points) for g in games if g.end != "drawn"} <= {
        ("single", 1), ("gammon", 2), ("backgammon", 3)}
    assert {(g.winner, g.level, g.points) for g in games if g.end == "drawn"} == {
        (None, None, 0)}
