"""Draws, rounds and results in the store: knockout with consolation, Swiss, round robin,
double elimination, game entry under Crawford, uploads, corrections, walkovers, locking."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import draws, results, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.errors import ConflictError, StoreUserError
from tourney.store.flight_overview import dashboard
from tourney.store.results import CascadeRequiredError, GameFields
from tourney.store.tables import AuditEntry, Game, UploadedRecord
from tourney.store.tournament_views import (
    FlightBoard,
    MatchSummary,
    flight_board,
    match_detail,
)

if TYPE_CHECKING:
    from conftest import BuiltEvent, MigratedDatabase

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"
EIGHT = [f"S{n}" for n in range(1, 9)]
MAIN = {"name": "Main", "format": "knockout", "match_length": 5, "round_lengths": {"final": 7}}
CONSOLATION = {
    "name": "Consolation",
    "format": "knockout",
    "match_length": 3,
    "feeds_from": "Main",
    "feed_rounds": (1,),
    "feed_bye_losers": True,
}


def single(winner: str) -> GameFields:
    return GameFields(winner=winner, end="played", cube=1, level="single")


def board(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, actor, flight_id)


def pairs(rnd_matches: tuple[MatchSummary, ...]) -> list[tuple[str | None, str | None]]:
    return [(m.a.name if m.a else None, m.b.name if m.b else None) for m in rnd_matches]


def find(b: FlightBoard, a: str, other: str) -> MatchSummary:
    """The match of ``a`` and ``other``; the one still to play when they meet twice."""
    found = [
        m
        for rnd in b.rounds
        for m in rnd.matches
        if {m.a.name if m.a else None, m.b.name if m.b else None} == {a, other}
    ]
    if not found:
        raise AssertionError(f"no match {a} v {other}")
    return next((m for m in found if m.status == "ready"), found[0])


def final_score(
    engine: Engine, actor: Actor, m: MatchSummary, winner: str, loser_points: int = 0
) -> None:
    """Enter ``winner`` winning ``m`` at its length to ``loser_points``."""
    assert m.a is not None and m.b is not None
    a_won = m.a.name == winner
    score = (m.length, loser_points) if a_won else (loser_points, m.length)
    with transaction(engine) as session:
        results.record_final_score(
            session,
            actor=actor,
            match_id=m.id,
            score_a=score[0],
            score_b=score[1],
            expected_version=m.version,
        )


def drawn_knockout(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(EIGHT, [MAIN, CONSOLATION])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=actor, flight_id=built.flights["Main"], method="seeded", seed=7
        )
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    return built


# --- knockout ------------------------------------------------------------------------


def test_seeded_knockout_draw_follows_the_standard_order(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [MAIN, CONSOLATION])
    actor = built.director.actor

    with transaction(engine) as session:
        drawn = draws.make_draw(
            session, actor=actor, flight_id=built.flights["Main"], method="seeded", seed=7
        )

    # Standard order for 8 (DESIGN §4): 1-8, 4-5, 2-7, 3-6; tables 1-4 in that order.
    first = drawn.rounds[0]
    assert (first.name, first.status) == ("Quarterfinal", "draft")
    assert pairs(first.matches) == [("S1", "S8"), ("S4", "S5"), ("S2", "S7"), ("S3", "S6")]
    assert [m.table for m in first.matches] == ["1", "2", "3", "4"]
    assert [m.loser_goes_to for m in first.matches] == ["Consolation"] * 4
    # Semifinal 1 waits for the winners of quarterfinals 1 and 2; the final is 7 points.
    semi = drawn.rounds[1].matches[0]
    assert (semi.a_placeholder, semi.b_placeholder) == (
        "Winner of Quarterfinal match 1",
        "Winner of Quarterfinal match 2",
    )
    assert [r.match_length for r in drawn.rounds] == [5, 5, 7]
    assert (drawn.draw_seed, drawn.flight.status, drawn.can_publish) == ("7", "drawn", True)


def test_random_draw_repeats_from_its_stored_seed(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [MAIN])
    actor = built.director.actor
    flight = built.flights["Main"]
    with transaction(engine) as session:
        first = draws.make_draw(session, actor=actor, flight_id=flight, method="random", seed=99)
    with transaction(engine) as session:
        draws.undo_draw(session, actor=actor, flight_id=flight)
    with transaction(engine) as session:
        again = draws.make_draw(session, actor=actor, flight_id=flight, method="random", seed=99)

    assert pairs(again.rounds[0].matches) == pairs(first.rounds[0].matches)
    assert again.draw_seed == "99"


def test_knockout_with_consolation_runs_to_both_champions(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    actor = built.director.actor
    main, cons = built.flights["Main"], built.flights["Consolation"]
    # The better seed wins every main match: S1, S4, S2, S3 then S1, S2, then S1.
    for a, b in [("S1", "S8"), ("S4", "S5"), ("S2", "S7"), ("S3", "S6")]:
        final_score(engine, actor, find(board(engine, actor, main), a, b), a, 2)
    for a, b in [("S1", "S4"), ("S2", "S3")]:
        final_score(engine, actor, find(board(engine, actor, main), a, b), a, 3)
    final_score(engine, actor, find(board(engine, actor, main), "S1", "S2"), "S1", 4)
    consolation = board(engine, actor, cons)
    entrants = {m.a.name for m in consolation.rounds[0].matches if m.a} | {
        m.b.name for m in consolation.rounds[0].matches if m.b
    }
    # The four quarterfinal losers play the consolation (3-point matches).
    assert entrants == {"S5", "S6", "S7", "S8"}
    for m in consolation.rounds[0].matches:
        assert m.a is not None and m.b is not None
        final_score(engine, actor, m, min(m.a.name, m.b.name))
    last = board(engine, actor, cons).rounds[1].matches[0]
    assert last.a is not None and last.b is not None
    final_score(engine, actor, last, min(last.a.name, last.b.name))

    done_main, done_cons = board(engine, actor, main), board(engine, actor, cons)
    assert (done_main.flight.status, done_main.champion and done_main.champion.name) == (
        "finished",
        "S1",
    )
    assert [(r.display_rank, r.player.name) for r in done_main.standings[:4]] == [
        ("1", "S1"),
        ("2", "S2"),
        ("=3", "S3"),
        ("=3", "S4"),
    ]
    # The lowest name wins each consolation match, so S5 wins the consolation.
    assert (done_cons.flight.status, done_cons.champion and done_cons.champion.name) == (
        "finished",
        "S5",
    )


def test_undo_is_refused_once_published(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)

    with pytest.raises(ConflictError, match="published"), transaction(engine) as session:
        draws.undo_draw(session, actor=built.director.actor, flight_id=built.flights["Main"])


def test_fed_flight_is_drawn_with_its_source(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [MAIN, CONSOLATION])

    with pytest.raises(StoreUserError, match="drawn with that flight"), transaction(engine) as s:
        draws.make_draw(s, actor=built.director.actor, flight_id=built.flights["Consolation"])


def test_bye_holder_losing_first_match_goes_to_consolation(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Six players seeded: seeds 1 and 2 get the byes (positions 1-8 v bye, 2-7 v bye).
    built = build_event(EIGHT[:6], [MAIN, CONSOLATION])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    first = drawn.rounds[0].matches
    assert [(m.a and m.a.name, m.status) for m in first if m.is_bye] == [
        ("S1", "bye"),
        ("S2", "bye"),
    ]
    final_score(engine, actor, find(drawn, "S4", "S5"), "S5")
    semi = find(board(engine, actor, built.flights["Main"]), "S1", "S5")
    assert semi.loser_goes_to == "Consolation (if their first match)"

    final_score(engine, actor, semi, "S5")

    cons = board(engine, actor, built.flights["Consolation"])
    names = {p.name for r in cons.rounds for m in r.matches for p in (m.a, m.b) if p}
    # S4 lost in round 1; S1 lost the first match it played after its bye.
    assert names == {"S1", "S4"}


# --- results -------------------------------------------------------------------------


def test_games_follow_crawford_and_complete_the_match(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [{"name": "Main", "format": "knockout", "match_length": 3}])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    match_id = drawn.rounds[0].matches[0].id

    def enter(game: GameFields) -> None:
        with transaction(engine) as session:
            results.record_game(session, actor=actor, match_id=match_id, game=game)

    # Ann wins a 2-cube single: 2-0 in a 3-point match, so game 2 is the Crawford game.
    enter(GameFields("a", "played", 2, "single"))
    with Session(engine) as session:
        before = match_detail(session, actor, match_id)
    assert (before.next_kind, before.cube_locked) == ("crawford", True)
    with pytest.raises(StoreUserError, match="Crawford game") as refused, transaction(engine) as s:
        results.record_game(s, actor=actor, match_id=match_id, game=GameFields("b", "played", 2))
    with pytest.raises(StoreUserError, match="Crawford game"), transaction(engine) as s:
        results.record_game(
            s, actor=actor, match_id=match_id, game=GameFields("a", "dropped", 1, None)
        )
    enter(single("b"))  # 2-1, Crawford game
    enter(GameFields("b", "played", 2, "single"))  # post-Crawford, 2-3: Bob wins

    with Session(engine) as session:
        detail = match_detail(session, actor, match_id)
    assert refused.value.field == "cube"
    assert [(g.number, g.kind, g.score_after) for g in detail.games] == [
        (1, "normal", "2-0"),
        (2, "crawford", "2-1"),
        (3, "post-crawford", "2-3"),
    ]
    assert (detail.match.status, detail.match.winner, detail.crawford_game) == ("finished", "b", 2)
    with pytest.raises(StoreUserError, match="already decided"), transaction(engine) as s:
        results.record_game(s, actor=actor, match_id=match_id, game=single("a"))
    assert board(engine, actor, built.flights["Main"]).champion.name == "Bob"  # type: ignore[union-attr]


def test_impossible_final_score_is_refused_with_the_reason(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    m = find(board(engine, built.director.actor, built.flights["Main"]), "S1", "S8")

    refusal = pytest.raises(StoreUserError, match="only one player can have 5")
    with refusal as caught, transaction(engine) as session:
        results.record_final_score(
            session, actor=built.director.actor, match_id=m.id, score_a=5, score_b=6
        )
    assert caught.value.field == "score"


def test_upload_fills_in_games_when_players_match_in_either_order(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # The match lists GnubgB first; the file names GnubgA first.
    built = build_event(
        ["GnubgB", "GnubgA"], [{"name": "Main", "format": "knockout", "match_length": 3}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    m = drawn.rounds[0].matches[0]
    assert (m.a.name, m.b.name) == ("GnubgB", "GnubgA")  # type: ignore[union-attr]

    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=actor, match_id=m.id, filename="m.mat", data=RECORD.read_bytes()
        )

    # By hand from the file: A wins two dropped doubles (2-0), B a gammon in the
    # Crawford game (2-2), A a resigned gammon post-Crawford: A 4-2. Side a is B: 2-4.
    games = outcome.match.games
    assert outcome.ok and outcome.findings == ()
    assert [(g.winner, g.points, g.kind) for g in games] == [
        ("b", 1, "normal"),
        ("b", 1, "normal"),
        ("a", 2, "crawford"),
        ("b", 2, "post-crawford"),
    ]
    assert (outcome.match.match.score_text, outcome.match.match.winner) == ("2-4", "b")
    assert outcome.match.match.result_source == "record"


def test_upload_of_another_length_saves_no_games(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["GnubgA", "GnubgB"], [{"name": "Main", "format": "knockout", "match_length": 5}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    m = drawn.rounds[0].matches[0]

    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=actor, match_id=m.id, filename="m.mat", data=RECORD.read_bytes()
        )

    assert not outcome.ok
    assert [f.message for f in outcome.findings] == [
        "The record is of a 3-point match, but this match is to 5 points."
    ]
    with Session(engine) as session:
        assert session.exec(select(Game)).all() == []
        kept = session.exec(select(UploadedRecord)).one()
    assert (kept.is_valid, kept.match_id) == (False, m.id)


def test_invalid_upload_reports_game_and_line(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["GnubgA", "GnubgB"], [{"name": "Main", "format": "knockout", "match_length": 3}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    # Line 9 is game 1's first roll: 5-2 cannot move a checker from 13 to 3 (10 pips).
    bad = RECORD.read_bytes().replace(b"52: 13/8 24/22 ", b"52: 13/3 24/22 ", 1)

    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session,
            actor=actor,
            match_id=drawn.rounds[0].matches[0].id,
            filename="bad.mat",
            data=bad,
        )

    assert [(f.game, f.line) for f in outcome.findings] == [(1, 9)]
    assert outcome.match.games == ()


def test_stale_version_is_refused_showing_the_newer_result(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    actor = built.director.actor
    m = find(board(engine, actor, built.flights["Main"]), "S1", "S8")
    with transaction(engine) as session:
        results.record_game(
            session, actor=actor, match_id=m.id, game=single("a"), expected_version=m.version
        )

    with pytest.raises(ConflictError, match="S1 1, S8 0") as caught, transaction(engine) as s:
        results.record_game(
            s, actor=actor, match_id=m.id, game=single("b"), expected_version=m.version
        )

    assert "Someone else saved this match first" in caught.value.message
    with Session(engine) as session:
        assert len(session.exec(select(Game)).all()) == 1


@pytest.fixture
def concurrent_engine(database: MigratedDatabase, engine: Engine, tmp_path: Path) -> Engine:
    """An engine where two transactions really run at once (a file for SQLite)."""
    if database.backend != "sqlite":
        return engine
    file_engine = make_engine(f"sqlite:///{tmp_path / 'concurrent.db'}")
    schema.upgrade(file_engine)
    return file_engine


def test_two_concurrent_saves_second_gets_a_conflict(
    concurrent_engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., object],
) -> None:
    engine = concurrent_engine
    built = _build_two(engine)
    actor, match_id, version = built
    first_done, second_started = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def first() -> None:
        with transaction(engine) as session:
            results.record_game(
                session, actor=actor, match_id=match_id, game=single("a"), expected_version=version
            )
            first_done.set()
            second_started.wait(5)
            time.sleep(0.3)  # the second is now waiting for our lock

    def second() -> None:
        first_done.wait(5)
        second_started.set()
        try:
            with transaction(engine) as session:
                results.record_game(
                    session,
                    actor=actor,
                    match_id=match_id,
                    game=single("b"),
                    expected_version=version,
                )
        except ConflictError as error:
            outcome["error"] = error.message

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)

    assert "Someone else saved this match first" in str(outcome.get("error"))
    with Session(engine) as session:
        assert [g.winner for g in session.exec(select(Game))] == ["a"]
    if engine.url.get_backend_name() == "sqlite":
        engine.dispose()


def _build_two(engine: Engine) -> tuple[Actor, int, int]:
    from tourney.store import events, roster

    actor = Actor.cli()
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Race")
        )
        flight = events.add_flight(
            session,
            actor=actor,
            event_id=event.id,
            fields=events.FlightFields(name="Main", format="knockout", match_length=5),
        )
        for name in ("Ann", "Bob"):
            p = roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=name)
            )
            roster.enter_player(session, actor=actor, event_id=event.id, player_id=p.id)
        draws.make_draw(session, actor=actor, flight_id=flight.id, seed=1)
        drawn = draws.publish_draw(session, actor=actor, flight_id=flight.id)
    m = drawn.rounds[0].matches[0]
    return actor, m.id, m.version


def test_correction_that_changes_a_winner_later_used_needs_confirmation(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    actor = built.director.actor
    main = built.flights["Main"]
    final_score(engine, actor, find(board(engine, actor, main), "S1", "S8"), "S1")
    final_score(engine, actor, find(board(engine, actor, main), "S4", "S5"), "S4")
    final_score(engine, actor, find(board(engine, actor, main), "S1", "S4"), "S1")
    qf = find(board(engine, actor, main), "S1", "S8")

    refusal = pytest.raises(CascadeRequiredError, match="Semifinal: S1 v S4")
    with refusal as refused, transaction(engine) as session:
        results.record_final_score(
            session,
            actor=actor,
            match_id=qf.id,
            score_a=0,
            score_b=5,
            expected_version=qf.version,
        )
    with transaction(engine) as session:
        results.record_final_score(
            session,
            actor=actor,
            match_id=qf.id,
            score_a=0,
            score_b=5,
            expected_version=qf.version,
            confirm_cascade=True,
        )

    assert refused.value.status_code == 409
    semi = find(board(engine, actor, main), "S8", "S4")
    assert (semi.status, semi.score_text) == ("ready", "")
    # S1 lost a quarterfinal now: S1 is in the consolation, S8 is not (the other two
    # quarterfinals are not played yet, so only S1 and S5 are known there).
    cons = board(engine, actor, built.flights["Consolation"])
    names = {m.a.name for m in cons.rounds[0].matches if m.a} | {
        m.b.name for m in cons.rounds[0].matches if m.b
    }
    assert names == {"S1", "S5"}


def test_correcting_a_score_with_the_same_winner_needs_no_confirmation(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    actor = built.director.actor
    main = built.flights["Main"]
    for a, b in [("S1", "S8"), ("S4", "S5")]:
        final_score(engine, actor, find(board(engine, actor, main), a, b), a)
    final_score(engine, actor, find(board(engine, actor, main), "S1", "S4"), "S1")
    qf = find(board(engine, actor, main), "S1", "S8")

    with transaction(engine) as session:
        detail = results.record_final_score(
            session, actor=actor, match_id=qf.id, score_a=5, score_b=4, expected_version=qf.version
        )

    assert detail.match.score_text == "5-4"
    assert find(board(engine, actor, main), "S1", "S4").status == "finished"


def test_withdrawal_gives_the_opponent_a_walkover(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    from tourney.store import roster

    built = drawn_knockout(engine, build_event)
    actor = built.director.actor

    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=built.entries["S8"])

    main = board(engine, actor, built.flights["Main"])
    qf = find(main, "S1", "S8")
    assert (qf.status, qf.winner_ref and qf.winner_ref.name, qf.b and qf.b.withdrawn) == (
        "walkover",
        "S1",
        True,
    )
    assert main.rounds[1].matches[0].a.name == "S1"  # type: ignore[union-attr]


def test_every_result_change_is_audited_with_before_and_after(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    actor = built.director.actor
    m = find(board(engine, actor, built.flights["Main"]), "S1", "S8")
    with transaction(engine) as session:
        results.record_game(session, actor=actor, match_id=m.id, game=single("a"))
    with transaction(engine) as session:
        results.delete_game(session, actor=actor, match_id=m.id, number=1)

    with Session(engine) as session:
        rows = session.exec(
            select(AuditEntry).where(AuditEntry.match_id == m.id).order_by(col(AuditEntry.id))
        ).all()
    assert [(r.action, r.before["score"], r.after["score"]) for r in rows] == [  # type: ignore[index]
        ("match.game_add", "0-0", "1-0"),
        ("match.game_delete", "1-0", "0-0"),
    ]


def test_dashboard_counts_matches_per_flight(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    actor = built.director.actor
    m = find(board(engine, actor, built.flights["Main"]), "S1", "S8")
    with transaction(engine) as session:
        results.record_game(session, actor=actor, match_id=m.id, game=single("a"))
    final_score(engine, actor, find(board(engine, actor, built.flights["Main"]), "S4", "S5"), "S4")

    with Session(engine) as session:
        dash = dashboard(session, actor, built.event_id)

    main = dash.flights[0]
    # 4 quarterfinals: 1 in play, 1 finished, 2 waiting; S4 waits for S1/S8's winner.
    assert (main.waiting, main.playing, main.finished) == (2, 1, 1)
    assert [p.name for p in main.waiting_for_opponent] == ["S4"]
    assert [x.a.name for x in main.in_play] == ["S1"]  # type: ignore[union-attr]


# --- Swiss, round robin, double elimination ------------------------------------------


def _finish_round(engine: Engine, actor: Actor, b: FlightBoard) -> None:
    for m in b.rounds[-1].matches:
        if m.status == "ready":
            assert m.a is not None
            final_score(engine, actor, m, m.a.name)


def test_swiss_of_seven_plays_three_rounds_with_one_bye_each(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    players = [f"P{n}" for n in range(1, 8)]
    swiss = {
        "name": "Swiss",
        "format": "swiss",
        "match_length": 3,
        "swiss_rounds": 3,
        "tiebreaks": ("buchholz",),
    }
    built = build_event(players, [swiss])
    actor = built.director.actor
    flight = built.flights["Swiss"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight, seed=5)
        draws.publish_draw(session, actor=actor, flight_id=flight)
    for number in (1, 2, 3):
        current = board(engine, actor, flight)
        assert [
            len(current.rounds[-1].matches),
            sum(m.is_bye for m in current.rounds[-1].matches),
        ] == [4, 1]
        _finish_round(engine, actor, current)
        if number < 3:
            with transaction(engine) as session:
                draws.pair_next_round(session, actor=actor, flight_id=flight)
                draws.publish_draw(session, actor=actor, flight_id=flight)

    done = board(engine, actor, flight)
    byes = [m.a.name for r in done.rounds for m in r.matches if m.is_bye]  # type: ignore[union-attr]
    met = [frozenset((m.a.name, m.b.name)) for r in done.rounds for m in r.matches if m.b]  # type: ignore[union-attr]
    assert len(set(byes)) == 3 and len(set(met)) == len(met) == 9
    # 9 matches + 3 byes counted as wins = 12 wins in the table.
    assert sum(r.wins for r in done.standings) == 12
    assert (done.flight.status, done.can_pair_next) == ("finished", False)
    with pytest.raises(StoreUserError, match="complete"), transaction(engine) as session:
        draws.pair_next_round(session, actor=actor, flight_id=flight)


def test_swiss_late_entry_starts_with_its_record_and_round_is_repaired(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    players = [f"P{n}" for n in range(1, 5)]
    built = build_event(
        players, [{"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3}]
    )
    actor = built.director.actor
    flight = built.flights["Swiss"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight, seed=3)
        draws.publish_draw(session, actor=actor, flight_id=flight)
    _finish_round(engine, actor, board(engine, actor, flight))
    from tourney.store import roster

    with transaction(engine) as session:
        player = roster.register_player(
            session, actor=actor, fields=roster.PlayerFields(name="Late")
        )
        entry = roster.enter_player(
            session, actor=actor, event_id=built.event_id, player_id=player.id
        )
        late = draws.add_late_entry(
            session, actor=actor, flight_id=flight, entry_id=entry.id, wins=1
        )
    row = next(r for r in late.standings if r.player.name == "Late")
    assert (row.wins, row.losses) == (1, 0)
    with transaction(engine) as session:
        paired = draws.pair_next_round(session, actor=actor, flight_id=flight)
    assert len(paired.rounds[1].matches) == 3  # five players: two matches and a bye
    with transaction(engine) as session:
        repaired = draws.repair_round(session, actor=actor, round_id=paired.rounds[1].id)
    assert pairs(repaired.rounds[1].matches) == pairs(paired.rounds[1].matches)


def test_round_robin_draws_every_round(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["A", "B", "C", "D"], [{"name": "Pool", "format": "roundrobin", "match_length": 1}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        drawn = draws.make_draw(
            session, actor=actor, flight_id=built.flights["Pool"], method="seeded"
        )

    # Berger table for 4: 1-4 2-3, 4-3 1-2, 2-4 3-1.
    assert [pairs(r.matches) for r in drawn.rounds] == [
        [("A", "D"), ("B", "C")],
        [("D", "C"), ("A", "B")],
        [("B", "D"), ("C", "A")],
    ]


def test_double_elimination_plays_a_reset_when_the_losers_winner_wins(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    flight = {"name": "DE", "format": "double_elimination", "match_length": 1, "reset_match": True}
    built = build_event(["A", "B", "C", "D"], [flight])
    actor = built.director.actor
    fid = built.flights["DE"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=fid, method="seeded")
        drawn = draws.publish_draw(session, actor=actor, flight_id=fid)
    assert [r.name for r in drawn.rounds] == [
        "Winners round 1",
        "Winners round 2",
        "Losers round 1",
        "Losers round 2",
        "Final",
        "Final (reset)",
    ]
    # Winners: A beats D, B beats C, A beats B. Losers: C beats D, then C beats B.
    for a, b, w in [
        ("A", "D", "A"),
        ("B", "C", "B"),
        ("A", "B", "A"),
        ("D", "C", "C"),
        ("B", "C", "C"),
    ]:
        final_score(engine, actor, find(board(engine, actor, fid), a, b), w)
    first_final = board(engine, actor, fid).rounds[4].matches[0]
    final_score(engine, actor, first_final, "C")
    reset = board(engine, actor, fid).rounds[5].matches[0]
    assert reset.status == "ready"
    final_score(engine, actor, reset, "C")

    done = board(engine, actor, fid)
    assert (done.flight.status, done.champion and done.champion.name) == ("finished", "C")


# --- uploads -------------------------------------------------------------------------


def test_uploaded_record_with_a_nul_byte_is_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    match = find(board(engine, built.director.actor, built.flights["Main"]), "S1", "S8")

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        results.upload_match_record(
            session, actor=built.director.actor, match_id=match.id, filename="a.mat",
            data=b" 5 point match\n\n Game 1\n S1\x00 : 0   S8 : 0\n",
        )

    assert caught.value.message == "Text may not hold NUL characters (zero bytes)."


def test_rejected_uploads_of_a_match_are_kept_up_to_ten_newest_first(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = drawn_knockout(engine, build_event)
    match = find(board(engine, built.director.actor, built.flights["Main"]), "S1", "S8")
    for n in range(12):
        with transaction(engine) as session:
            results.upload_match_record(
                session, actor=built.director.actor, match_id=match.id,
                filename=f"attempt{n}.mat", data=b"not a match record",
            )

    with Session(engine) as session:
        kept = session.exec(
            select(UploadedRecord.filename)
            .where(UploadedRecord.match_id == match.id)
            .order_by(col(UploadedRecord.id))
        ).all()

    assert kept == [f"attempt{n}.mat" for n in range(2, 12)]
