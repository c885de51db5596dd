"""Late entry into a knockout bye, table numbers, and knockout standings labels."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import draws, results, roster
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields
from tourney.store.tables import AuditEntry
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
    "feed_bye_losers": True,
}


def board(engine: Engine, actor: Actor, flight_id: int) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, actor, flight_id)


def names(m: MatchSummary) -> tuple[str | None, str | None]:
    return (m.a.name if m.a else None, m.b.name if m.b else None)


def win(engine: Engine, actor: Actor, m: MatchSummary, winner: str) -> None:
    a_won = m.a is not None and m.a.name == winner
    score = (m.length, 0) if a_won else (0, m.length)
    with transaction(engine) as session:
        results.record_final_score(
            session, actor=actor, match_id=m.id, score_a=score[0], score_b=score[1]
        )


def drawn(
    engine: Engine, build_event: Callable[..., BuiltEvent], players: int
) -> tuple[BuiltEvent, int]:
    """Seeded Main + Consolation of S1..Sn, published; plus a late entry "Late"."""
    built = build_event([f"S{n}" for n in range(1, players + 1)], [MAIN, CONSOLATION])
    actor = built.director.actor
    main = built.flights["Main"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=3)
        draws.publish_draw(session, actor=actor, flight_id=main)
        player = roster.register_player(
            session, actor=actor, fields=roster.PlayerFields(name="Late")
        )
        late = roster.enter_player(
            session, actor=actor, event_id=built.event_id, player_id=player.id
        ).id
    return built, late


# --- late entry into a bye ---------------------------------------------------------------


def test_late_entrant_takes_the_top_seeds_bye_and_its_loser_is_fed(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, late = drawn(engine, build_event, 7)
    actor = built.director.actor
    main, cons = built.flights["Main"], built.flights["Consolation"]
    # Seven seeded players in a bracket of 8: seed 1 has the bye (1-8, 4-5, 2-7, 3-6).
    before = board(engine, actor, main)
    bye = before.rounds[0].matches[0]
    assert (names(bye), bye.status) == (("S1", None), "bye")
    assert before.late_bye_slots == ((bye.id, "Quarterfinal match 1: bye of S1"),)

    with transaction(engine) as session:
        after = draws.add_late_knockout_entry(
            session, actor=actor, flight_id=main, entry_id=late, match_id=bye.id
        )

    first = after.rounds[0].matches[0]
    assert (names(first), first.status, first.loser_goes_to) == (
        ("S1", "Late"),
        "ready",
        "Consolation",
    )
    assert after.late_bye_slots == ()
    # Late beats S1; the better seed wins the other quarterfinals: S1, S5, S7 and S6
    # are the four first-round losers and fill the consolation.
    win(engine, actor, first, "Late")
    for m in board(engine, actor, main).rounds[0].matches[1:]:
        win(engine, actor, m, min(n for n in names(m) if n))
    entrants = {n for m in board(engine, actor, cons).rounds[0].matches for n in names(m) if n}
    assert entrants == {"S1", "S5", "S6", "S7"}
    with Session(engine) as session:
        logged = session.exec(select(AuditEntry).where(AuditEntry.action == "flight.late_entry"))
        assert [a.after["match"] for a in logged if a.after] == ["Main/1/1"]


def test_late_entry_is_refused_once_the_bye_has_played_on(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, late = drawn(engine, build_event, 7)
    actor = built.director.actor
    main = built.flights["Main"]
    first = board(engine, actor, main).rounds[0]
    win(engine, actor, first.matches[1], "S4")
    semi = board(engine, actor, main).rounds[1].matches[0]
    assert names(semi) == ("S1", "S4")
    with transaction(engine) as session:
        results.record_game(
            session,
            actor=actor,
            match_id=semi.id,
            game=GameFields(winner="a", end="played", cube=1, level="single"),
        )

    with pytest.raises(StoreUserError, match="moved on from this bye"), transaction(engine) as s:
        draws.add_late_knockout_entry(
            s, actor=actor, flight_id=main, entry_id=late, match_id=first.matches[0].id
        )
    with pytest.raises(StoreUserError, match="not a bye"), transaction(engine) as s:
        draws.add_late_knockout_entry(
            s, actor=actor, flight_id=main, entry_id=late, match_id=first.matches[2].id
        )
    assert names(board(engine, actor, main).rounds[0].matches[0]) == ("S1", None)


def test_late_entry_before_the_bye_plays_on_is_still_allowed(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, late = drawn(engine, build_event, 7)
    actor = built.director.actor
    main = built.flights["Main"]
    first = board(engine, actor, main).rounds[0]
    # S1's semifinal is ready (S4 won) but not started: the bye can still be filled.
    win(engine, actor, first.matches[1], "S4")

    with transaction(engine) as session:
        after = draws.add_late_knockout_entry(
            session, actor=actor, flight_id=main, entry_id=late, match_id=first.matches[0].id
        )

    semi = after.rounds[1].matches[0]
    assert (names(after.rounds[0].matches[0]), names(semi), semi.status) == (
        ("S1", "Late"),
        (None, "S4"),
        "pending",
    )


# --- tables ------------------------------------------------------------------------------


def test_table_is_changed_before_play_and_audited(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = drawn(engine, build_event, 8)
    actor = built.director.actor
    main = built.flights["Main"]
    q1, q2 = board(engine, actor, main).rounds[0].matches[:2]
    assert (q1.table, q2.table) == ("1", "2")

    with transaction(engine) as session:
        after = draws.set_table(session, actor=actor, match_id=q1.id, table=" 12 ")

    assert after.rounds[0].matches[0].table == "12"
    with Session(engine) as session:
        logged = list(session.exec(select(AuditEntry).where(AuditEntry.action == "match.table")))
    assert [(a.match_id, a.before, a.after) for a in logged] == [
        (q1.id, {"table": "1"}, {"table": "12"})
    ]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("2", r"Table 2 is in use by S4 v S5 \(Main R1\)"),
        ("", "Give the table"),
        ("x" * 21, "at most 20"),
    ],
)
def test_table_change_is_refused_with_the_reason(
    engine: Engine, build_event: Callable[..., BuiltEvent], table: str, message: str
) -> None:
    built, _ = drawn(engine, build_event, 8)
    actor = built.director.actor
    q1 = board(engine, actor, built.flights["Main"]).rounds[0].matches[0]

    with pytest.raises(StoreUserError, match=message), transaction(engine) as session:
        draws.set_table(session, actor=actor, match_id=q1.id, table=table)


def test_table_of_a_started_match_stays(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = drawn(engine, build_event, 8)
    actor = built.director.actor
    q1 = board(engine, actor, built.flights["Main"]).rounds[0].matches[0]
    with transaction(engine) as session:
        results.record_game(
            session,
            actor=actor,
            match_id=q1.id,
            game=GameFields(winner="a", end="played", cube=1, level="single"),
        )

    with pytest.raises(StoreUserError, match="waiting to be played"), transaction(engine) as s:
        draws.set_table(s, actor=actor, match_id=q1.id, table="9")


# --- standings labels -------------------------------------------------------------------


def test_finished_knockout_shows_champion_and_where_players_went_out(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = drawn(engine, build_event, 8)
    actor = built.director.actor
    main, cons = built.flights["Main"], built.flights["Consolation"]
    # The lower name (the better seed) wins every match of both flights.
    for flight in (main, cons):
        while True:
            ready = [
                m
                for rnd in board(engine, actor, flight).rounds
                for m in rnd.matches
                if m.status == "ready"
            ]
            if not ready:
                break
            win(engine, actor, ready[0], min(n for n in names(ready[0]) if n))

    labels = {r.player.name: r.status_label for r in board(engine, actor, main).standings}
    assert labels == {
        "S1": "Champion",
        "S2": "Eliminated in the Final",
        "S3": "Eliminated in the Semifinal",
        "S4": "Eliminated in the Semifinal",
        "S5": "Eliminated in the Quarterfinal",
        "S6": "Eliminated in the Quarterfinal",
        "S7": "Eliminated in the Quarterfinal",
        "S8": "Eliminated in the Quarterfinal",
    }
    consolation = {r.player.name: r.status_label for r in board(engine, actor, cons).standings}
    assert consolation["S5"] == "Winner"
    assert sorted(consolation) == ["S5", "S6", "S7", "S8"]
