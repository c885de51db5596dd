"""Event data versions: every change a service makes moves the versions of the events it
touches, so a page cached by version never stays stale.

The services are found by walking the store: every public function that takes ``actor=``
as a keyword is a use case. Each needs a scenario below saying how to call it on a real
event; a new service without one fails here with its name.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

import tourney.store
from tourney.store import (
    access,
    accounts,
    analyses,
    bulk_entry,
    clocks,
    club_money,
    club_settings,
    divisions,
    draws,
    event_json,
    event_lifecycle,
    events,
    money_sessions,
    player_import,
    registration,
    results,
    roster,
    screens,
    seasons,
    selfservice,
    teams,
)
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.passwords import make_hasher
from tourney.store.queries import UserView
from tourney.store.results import GameFields
from tourney.store.tables import Entry, Event, UploadedRecord
from tourney.store.tournament_views import FlightBoard, MatchSummary, flight_board
from tourney.store.versions import EVENTS_OF

if TYPE_CHECKING:
    from conftest import BuiltEvent

NOT_SERVICES = frozenset({"tourney.store.audit"})
"""Modules whose ``actor=`` functions are not use cases (the audit log's writer)."""
EIGHT = [f"S{n}" for n in range(1, 9)]
MAIN = {"name": "Main", "format": "knockout", "match_length": 3}
SWISS = {"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3}


def mutating_services() -> list[str]:
    """``module.function`` of every public store function taking ``actor`` as a keyword."""
    found = []
    for info in pkgutil.iter_modules(tourney.store.__path__):
        name = f"tourney.store.{info.name}"
        if info.ispkg or name in NOT_SERVICES:
            continue
        module = importlib.import_module(name)
        for attr, function in inspect.getmembers(module, inspect.isfunction):
            actor = inspect.signature(function).parameters.get("actor")
            if (
                not attr.startswith("_")
                and function.__module__ == name
                and actor is not None
                and actor.kind is inspect.Parameter.KEYWORD_ONLY
            ):
                found.append(f"{info.name}.{attr}")
    return sorted(found)


# --- a world to act in -------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    """The fixtures a scenario builds its events with."""

    engine: Engine
    build_event: Callable[..., BuiltEvent]
    make_user: Callable[..., UserView]


Call = Callable[[Session], object]
"""A service call in the caller's transaction."""
Scenario = Callable[[World], tuple[Call, set[int]]]
"""Prepares the events a service acts on; returns the call and the events it must move."""


def single(winner: str) -> GameFields:
    return GameFields(winner=winner, end="played", cube=1, level="single")


def board(w: World, built: BuiltEvent, flight: str) -> FlightBoard:
    with Session(w.engine) as session:
        return flight_board(session, built.director.actor, built.flights[flight])


def first_match(w: World, built: BuiltEvent) -> MatchSummary:
    return board(w, built, "Main").rounds[0].matches[0]


def knockout(w: World, players: list[str] = EIGHT) -> BuiltEvent:
    """A seeded knockout of ``players``, drawn and published."""
    built = w.build_event(players, [MAIN])
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(w.engine) as session:
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    return built


def swiss(w: World, *, published: bool = True) -> BuiltEvent:
    """A Swiss of six players with its first round paired (and published)."""
    built = w.build_event(EIGHT[:6], [SWISS])
    actor, flight = built.director.actor, built.flights["Swiss"]
    with transaction(w.engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight, seed=1)
        if published:
            draws.publish_draw(session, actor=actor, flight_id=flight)
    return built


def swiss_round_one_played(w: World) -> BuiltEvent:
    """The Swiss of :func:`swiss` with every match of round 1 won by side a."""
    built = swiss(w)
    for match in board(w, built, "Swiss").rounds[0].matches:
        if match.status == "ready":
            with transaction(w.engine) as session:
                results.record_final_score(
                    session,
                    actor=built.director.actor,
                    match_id=match.id,
                    score_a=match.length,
                    score_b=0,
                )
    return built


def with_game(w: World) -> tuple[BuiltEvent, MatchSummary]:
    """A knockout whose first match has one game, won by side a."""
    built = knockout(w)
    match = first_match(w, built)
    with transaction(w.engine) as session:
        results.record_game(
            session, actor=built.director.actor, match_id=match.id, game=single("a")
        )
    return built, match


def extra_entry(w: World, built: BuiltEvent) -> int:
    """A new player entered in the event (not in any flight)."""
    actor = built.director.actor
    with transaction(w.engine) as session:
        player = roster.register_player(
            session, actor=actor, fields=roster.PlayerFields(name="Late")
        )
        return roster.enter_player(
            session, actor=actor, event_id=built.event_id, player_id=player.id
        ).id


# --- scenarios: one per service ----------------------------------------------------------


def make_draw(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT, [MAIN])
    actor, main = built.director.actor, built.flights["Main"]
    return lambda s: draws.make_draw(s, actor=actor, flight_id=main, seed=1), {built.event_id}


def draw_flight(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT, [MAIN])
    actor, main = built.director.actor, built.flights["Main"]
    return lambda s: draws.draw_flight(s, actor=actor, flight_id=main, seed=1), {built.event_id}


def publish_flight(w: World) -> tuple[Call, set[int]]:
    built = swiss(w, published=False)
    actor, flight = built.director.actor, built.flights["Swiss"]
    return lambda s: draws.publish_flight(s, actor=actor, flight_id=flight), {built.event_id}


def pair_round(w: World) -> tuple[Call, set[int]]:
    built = swiss_round_one_played(w)
    actor, flight = built.director.actor, built.flights["Swiss"]
    return lambda s: draws.pair_round(s, actor=actor, flight_id=flight), {built.event_id}


def publish_draw(w: World) -> tuple[Call, set[int]]:
    built = swiss(w, published=False)
    actor, flight = built.director.actor, built.flights["Swiss"]
    return lambda s: draws.publish_draw(s, actor=actor, flight_id=flight), {built.event_id}


def undo_draw(w: World) -> tuple[Call, set[int]]:
    # Undoing a later Swiss round only deletes its rows: the case no flushed row shows.
    built = swiss_round_one_played(w)
    actor, flight = built.director.actor, built.flights["Swiss"]
    with transaction(w.engine) as session:
        draws.pair_next_round(session, actor=actor, flight_id=flight)
    return lambda s: draws.undo_draw(s, actor=actor, flight_id=flight), {built.event_id}


def pair_next_round(w: World) -> tuple[Call, set[int]]:
    built = swiss_round_one_played(w)
    actor, flight = built.director.actor, built.flights["Swiss"]
    return lambda s: draws.pair_next_round(s, actor=actor, flight_id=flight), {built.event_id}


def repair_round(w: World) -> tuple[Call, set[int]]:
    built = swiss(w)
    round_id = board(w, built, "Swiss").rounds[0].id
    actor = built.director.actor
    return lambda s: draws.repair_round(s, actor=actor, round_id=round_id), {built.event_id}


def decide_cut(w: World) -> tuple[Call, set[int]]:
    """A round robin of three where each beats one (S1 S2, S2 S3, S3 S1): all three tie
    for the two places of the knockout, which the director decides."""
    stage = {"name": "Table", "format": "roundrobin", "match_length": 1}
    final = {"name": "Final", "format": "knockout", "match_length": 1, "qualifiers": 2,
             "qualifies_from": "Table", "cut_ties": "director"}  # fmt: skip
    built = w.build_event(EIGHT[:3], [stage, final])
    actor = built.director.actor
    with transaction(w.engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=built.flights["Table"], seed=1)
        draws.publish_flight(session, actor=actor, flight_id=built.flights["Table"])
    beats = {("S1", "S2"), ("S2", "S3"), ("S3", "S1")}
    for rnd in board(w, built, "Table").rounds:
        for m in rnd.matches:
            if m.a is None or m.b is None:
                continue
            a_wins = (m.a.name, m.b.name) in beats
            with transaction(w.engine) as session:
                results.record_final_score(
                    session, actor=actor, match_id=m.id, score_a=int(a_wins),
                    score_b=int(not a_wins),
                )  # fmt: skip
    tied = board(w, built, "Final").cut_ties[0].players
    picks = [fe_id for fe_id, _ in tied[:2]]
    final_id = built.flights["Final"]
    return (
        lambda s: draws.decide_cut(s, actor=actor, flight_id=final_id, picks=picks),
        {built.event_id},
    )


def set_table(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    match = first_match(w, built)
    actor = built.director.actor
    return (
        lambda s: draws.set_table(s, actor=actor, match_id=match.id, table="T9"),
        {built.event_id},
    )


def team_event(w: World, *, drawn: bool, board_order: str = "fixed") -> BuiltEvent:
    """Two teams of two in a round robin of 2 boards (drawn: round 1 published)."""
    flight = {"name": "Teams", "format": "roundrobin", "match_length": 1, "boards": 2}
    built = w.build_event([], [flight], board_order=board_order)
    actor = built.director.actor
    with transaction(w.engine) as session:
        for name in ("North", "South"):
            teams.add_team(
                session,
                actor=actor,
                event_id=built.event_id,
                name=name,
                members=[(f"{name} {n}",) for n in (1, 2, 3)],
            )
        if drawn:
            teams.draw_team_round(session, actor=actor, flight_id=built.flights["Teams"])
    return built


def add_team(w: World) -> tuple[Call, set[int]]:
    built = team_event(w, drawn=False)
    actor = built.director.actor
    return (
        lambda s: teams.add_team(
            s, actor=actor, event_id=built.event_id, name="East", members=[("E1",), ("E2",)]
        ),
        {built.event_id},
    )


def draw_team_round(w: World) -> tuple[Call, set[int]]:
    built = team_event(w, drawn=False)
    actor, flight = built.director.actor, built.flights["Teams"]
    return lambda s: teams.draw_team_round(s, actor=actor, flight_id=flight), {built.event_id}


def set_lineup(w: World) -> tuple[Call, set[int]]:
    built = team_event(w, drawn=True, board_order="per_fixture")
    actor = built.director.actor
    with Session(w.engine) as session:
        fixture = teams.team_flight_view(session, built.flights["Teams"]).rounds[0].fixtures[0]
        team = next(t for t in teams.team_views(session, built.event_id) if t.name == fixture.a)
    lineup = [team.members[2].entry_id, team.members[0].entry_id]
    return (
        lambda s: teams.set_lineup(
            s, actor=actor, fixture_id=fixture.id, side="a", entry_ids=lineup
        ),
        {built.event_id},
    )


def add_late_entry(w: World) -> tuple[Call, set[int]]:
    built = swiss(w)
    late = extra_entry(w, built)
    actor, flight = built.director.actor, built.flights["Swiss"]
    return (
        lambda s: draws.add_late_entry(s, actor=actor, flight_id=flight, entry_id=late, wins=1),
        {built.event_id},
    )


def add_late_knockout_entry(w: World) -> tuple[Call, set[int]]:
    built = knockout(w, EIGHT[:7])
    late = extra_entry(w, built)
    bye = first_match(w, built)
    actor, main = built.director.actor, built.flights["Main"]
    return (
        lambda s: draws.add_late_knockout_entry(
            s, actor=actor, flight_id=main, entry_id=late, match_id=bye.id
        ),
        {built.event_id},
    )


def record_game(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    match, actor = first_match(w, built), built.director.actor
    return (
        lambda s: results.record_game(s, actor=actor, match_id=match.id, game=single("b")),
        {built.event_id},
    )


def correct_game(w: World) -> tuple[Call, set[int]]:
    built, match = with_game(w)
    actor = built.director.actor
    return (
        lambda s: results.correct_game(
            s, actor=actor, match_id=match.id, number=1, game=single("b")
        ),
        {built.event_id},
    )


def delete_game(w: World) -> tuple[Call, set[int]]:
    built, match = with_game(w)
    actor = built.director.actor
    return (
        lambda s: results.delete_game(s, actor=actor, match_id=match.id, number=1),
        {built.event_id},
    )


def record_final_score(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    match, actor = first_match(w, built), built.director.actor
    return (
        lambda s: results.record_final_score(
            s, actor=actor, match_id=match.id, score_a=1, score_b=3
        ),
        {built.event_id},
    )


def clear_result(w: World) -> tuple[Call, set[int]]:
    built, match = with_game(w)
    actor = built.director.actor
    return lambda s: results.clear_result(s, actor=actor, match_id=match.id), {built.event_id}


def award_walkover(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    match, actor = first_match(w, built), built.director.actor
    return (
        lambda s: results.award_walkover(s, actor=actor, match_id=match.id, winner="b"),
        {built.event_id},
    )


def upload_match_record(w: World) -> tuple[Call, set[int]]:
    # A record that does not read is kept with its report all the same.
    built = knockout(w)
    match, actor = first_match(w, built), built.director.actor
    return (
        lambda s: results.upload_match_record(
            s, actor=actor, match_id=match.id, filename="match.mat", data=b"not a match"
        ),
        {built.event_id},
    )


def request_analysis(w: World) -> tuple[Call, set[int]]:
    # Queueing the analysis of a match's valid record moves its event (the page shows
    # that it is queued).
    built = knockout(w)
    match, actor = first_match(w, built), built.director.actor
    with transaction(w.engine) as session:
        session.add(UploadedRecord(match_id=match.id, filename="m.mat", original_text="",
                                   is_valid=True))
    return (
        lambda s: analyses.request_analysis(s, actor=actor, match_id=match.id),
        {built.event_id},
    )


def check_match_record(w: World) -> tuple[Call, set[int]]:
    # Checking a record before storing it changes nothing.
    built = knockout(w)
    match, actor = first_match(w, built), built.director.actor
    return (
        lambda s: results.check_match_record(
            s, actor=actor, match_id=match.id, filename="match.mat", data=b"not a match"
        ),
        set(),
    )


def add_event_staff(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    scorer = w.make_user("scorer")
    actor = built.director.actor
    return (
        lambda s: events.add_event_staff(
            s, actor=actor, event_id=built.event_id, user_id=scorer.id, role="scorer"
        ),
        {built.event_id},
    )


def add_flight(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    fields = events.FlightFields(name="Side", format="swiss", match_length=1)
    return (
        lambda s: events.add_flight(s, actor=actor, event_id=built.event_id, fields=fields),
        {built.event_id},
    )


def update_flight(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, main = built.director.actor, built.flights["Main"]
    fields = events.FlightFields(name="Main", format="knockout", match_length=5)
    return (
        lambda s: events.update_flight(s, actor=actor, flight_id=main, fields=fields),
        {built.event_id},
    )


def update_event(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    fields = events.EventFields(name="Thursday Open")
    return (
        lambda s: events.update_event(s, actor=actor, event_id=built.event_id, fields=fields),
        {built.event_id},
    )


def enter_player(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    with transaction(w.engine) as session:
        player = roster.register_player(
            session, actor=actor, fields=roster.PlayerFields(name="New")
        )
    return (
        lambda s: roster.enter_player(s, actor=actor, event_id=built.event_id, player_id=player.id),
        {built.event_id},
    )


def enter_players(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    w.build_event(EIGHT[2:4], [MAIN], name="Elsewhere")
    actor = built.director.actor
    with transaction(w.engine) as session:
        ids = [
            roster.register_player(session, actor=actor, fields=roster.PlayerFields(name=n)).id
            for n in ("New", "Newer")
        ]
    return (
        lambda s: bulk_entry.enter_players(s, actor=actor, event_id=built.event_id, player_ids=ids),
        {built.event_id},
    )


def set_seed(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:3], [MAIN], seeded=False)
    actor, entry = built.director.actor, built.entries["S3"]
    return (
        lambda s: bulk_entry.set_seed(s, actor=actor, entry_id=entry, seed=1),
        {built.event_id},
    )


def seed_by_rating(w: World) -> tuple[Call, set[int]]:
    # The event's club has no rated match yet: every seed is cleared, which is a change.
    built = w.build_event(EIGHT[:3], [MAIN])
    actor = built.director.actor
    with transaction(w.engine) as session:
        club_id = events.create_club(session, actor=actor, name="Seeding BG").id
        event = session.get(Event, built.event_id)
        assert event is not None
        event.club_id = club_id
    return (
        lambda s: bulk_entry.seed_by_rating(s, actor=actor, event_id=built.event_id, seeds=2),
        {built.event_id},
    )


def create_season(w: World) -> tuple[Call, set[int]]:
    # Joining a season is a change to the event (its rows gain one).
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    with transaction(w.engine) as session:
        club_id = events.create_club(session, actor=actor, name="Season BG").id or 0
        event = session.get(Event, built.event_id)
        assert event is not None
        event.club_id = club_id
    fields = seasons.SeasonFields("Spring", (built.event_id,), "wins")
    return (
        lambda s: seasons.create_season(s, actor=actor, club_id=club_id, fields=fields),
        {built.event_id},
    )


def set_rating_options(w: World) -> tuple[Call, set[int]]:
    # The club's options decide what its events' public pages link to: each of its
    # events moves, an event of no club does not.
    built = w.build_event(EIGHT[:2], [MAIN])
    w.build_event(EIGHT[2:4], [MAIN])
    actor = built.director.actor
    with transaction(w.engine) as session:
        club_id = events.create_club(session, actor=actor, name="Profiles BG").id or 0
        event = session.get(Event, built.event_id)
        assert event is not None
        event.club_id = club_id
    return (
        lambda s: club_settings.set_rating_options(
            s, actor=actor, club_id=club_id, provisional_below=400, public_profiles=True
        ),
        {built.event_id},
    )


def check_in(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, entry = built.director.actor, built.entries["S1"]
    return lambda s: roster.check_in(s, actor=actor, entry_id=entry), {built.event_id}


def check_in_everyone(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, event_id = built.director.actor, built.event_id
    return lambda s: roster.check_in_everyone(s, actor=actor, event_id=event_id), {event_id}


def withdraw(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, entry = built.director.actor, built.entries["S1"]
    return lambda s: roster.withdraw(s, actor=actor, entry_id=entry), {built.event_id}


def reinstate(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, entry = built.director.actor, built.entries["S1"]
    with transaction(w.engine) as session:
        roster.withdraw(session, actor=actor, entry_id=entry)
    return lambda s: roster.reinstate(s, actor=actor, entry_id=entry), {built.event_id}


def update_player(w: World) -> tuple[Call, set[int]]:
    # A roster rename shows on the pages of every event the player is entered in.
    first = w.build_event(EIGHT[:2], [MAIN], name="Monday")
    second = w.build_event(EIGHT[2:4], [MAIN], name="Tuesday")
    w.build_event(EIGHT[4:6], [MAIN], name="Wednesday")
    actor = first.director.actor
    with Session(w.engine) as session:
        entry = session.get(Entry, first.entries["S1"])
        assert entry is not None
        player_id = entry.player_id
    with transaction(w.engine) as session:
        roster.enter_player(
            session, actor=second.director.actor, event_id=second.event_id, player_id=player_id
        )
    fields = roster.PlayerFields(name="S1 Renamed")
    return (
        lambda s: roster.update_player(s, actor=actor, player_id=player_id, fields=fields),
        {first.event_id, second.event_id},
    )


def set_visibility(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return (
        lambda s: access.set_visibility(s, actor=actor, event_id=built.event_id, public=True),
        {built.event_id},
    )


def renew_share_link(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return (
        lambda s: access.renew_share_link(s, actor=actor, event_id=built.event_id),
        {built.event_id},
    )


def open_sharing(w: World) -> tuple[Call, set[int]]:
    # A private event without a share link gets one when its sharing page opens.
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return (
        lambda s: access.open_sharing(s, actor=actor, event_id=built.event_id),
        {built.event_id},
    )


def close_event(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return (
        lambda s: event_lifecycle.close_event(
            s, actor=actor, event_id=built.event_id, archive=True
        ),
        {built.event_id},
    )


def reopen_event(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    with transaction(w.engine) as session:
        event_lifecycle.close_event(session, actor=actor, event_id=built.event_id)
    return (
        lambda s: event_lifecycle.reopen_event(s, actor=actor, event_id=built.event_id),
        {built.event_id},
    )


# Services that change nothing an event shows: no event's version may move.


def create_event(w: World) -> tuple[Call, set[int]]:
    # A new event starts at its first version: nothing can have cached it.
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, fields = built.director.actor, events.EventFields(name="Friday")
    return lambda s: events.create_event(s, actor=actor, fields=fields), set()


def register_player(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor, fields = built.director.actor, roster.PlayerFields(name="Newcomer")
    return lambda s: roster.register_player(s, actor=actor, fields=fields), set()


def create_club(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return lambda s: events.create_club(s, actor=actor, name="Oslo BG"), set()


def create_user(w: World) -> tuple[Call, set[int]]:
    w.build_event(EIGHT[:2], [MAIN])
    return (
        lambda s: accounts.create_user(
            s,
            actor=Actor.cli(),
            email="new@example.org",
            name="New",
            password="correct horse battery staple",
            role="scorer",
            hasher=make_hasher("fast"),
        ),
        set(),
    )


def end_sessions(w: World) -> tuple[Call, set[int]]:
    # An account's sessions belong to no event.
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return lambda s: accounts.end_sessions(s, actor=actor), set()


def change_password(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return (
        lambda s: accounts.change_password(
            s,
            actor=actor,
            current_password="correct horse battery staple",
            new_password="another long password",
            hasher=make_hasher("fast"),
        ),
        set(),
    )


def deactivate_user(w: World) -> tuple[Call, set[int]]:
    # The director's events keep their pages as they were: only the account stops.
    built = w.build_event(EIGHT[:2], [MAIN])
    user_id = built.director.id
    return lambda s: accounts.deactivate_user(s, actor=Actor.cli(), user_id=user_id), set()


def create_api_token(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return lambda s: access.create_api_token(s, actor=actor, name="scoreboard"), set()


def revoke_api_token(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    with transaction(w.engine) as session:
        token, _secret = access.create_api_token(session, actor=actor, name="scoreboard")
    return lambda s: access.revoke_api_token(s, actor=actor, token_id=token.id), set()


def import_event(w: World) -> tuple[Call, set[int]]:
    # The copy is a new event; the event it was exported from stays as it was.
    built = knockout(w)
    with Session(w.engine) as session:
        document = event_json.export_event(session, built.event_id)
    actor = built.director.actor
    return (
        lambda s: event_json.import_event(s, document, actor=actor, as_copy=True),
        set(),
    )


def apply_player_import(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    with Session(w.engine) as session:
        preview = player_import.preview_player_import(
            session, b"name,country\nAnna Hansen,NO\n", filename="club.csv"
        )
    return lambda s: player_import.apply_player_import(s, preview, actor=actor), set()


def _money_session(w: World) -> tuple[BuiltEvent, int, int]:
    """An event with a money session between its first two players (a game entered)."""
    built = w.build_event(EIGHT[:2], [MAIN])
    with Session(w.engine) as session:
        players = [
            session.exec(select(Entry.player_id).where(Entry.id == built.entries[n])).one()
            for n in EIGHT[:2]
        ]
    fields = money_sessions.SessionFields("Side money", tuple(players), "per-point", 100, "EUR")
    with transaction(w.engine) as session:
        row = money_sessions.start_session(
            session, actor=built.director.actor, event_id=built.event_id, fields=fields
        )
        money_sessions.record_game(
            session,
            actor=built.director.actor,
            session_id=row.id or 0,
            results=[money_sessions.ResultFields(players[1], True, "played", 1, 1, True)],
            games_before=0,
        )
    return built, row.id or 0, players[1]


def start_money_session(w: World) -> tuple[Call, set[int]]:
    built, _, second = _money_session(w)
    with Session(w.engine) as session:
        first = session.exec(select(Entry.player_id).where(Entry.id == built.entries["S1"])).one()
    fields = money_sessions.SessionFields("More money", (first, second), "per-game", 50, "EUR")
    actor, event_id = built.director.actor, built.event_id
    return (
        lambda s: money_sessions.start_session(s, actor=actor, event_id=event_id, fields=fields),
        {built.event_id},
    )


def record_money_game(w: World) -> tuple[Call, set[int]]:
    built, session_id, second = _money_session(w)
    result = money_sessions.ResultFields(second, False, "played", 2, 1, True)
    return (
        lambda s: money_sessions.record_game(
            s, actor=built.director.actor, session_id=session_id, results=[result], games_before=1
        ),
        {built.event_id},
    )


def take_back_money_game(w: World) -> tuple[Call, set[int]]:
    built, session_id, _ = _money_session(w)
    actor = built.director.actor
    return (
        lambda s: money_sessions.take_back_game(s, actor=actor, session_id=session_id),
        {built.event_id},
    )


def end_money_session(w: World) -> tuple[Call, set[int]]:
    built, session_id, _ = _money_session(w)
    actor = built.director.actor
    return (
        lambda s: money_sessions.end_session(s, actor=actor, session_id=session_id, how="agreed"),
        {built.event_id},
    )


def _priced(w: World) -> BuiltEvent:
    """An event whose main draw costs €10.00 to enter."""
    built = w.build_event(EIGHT[:2], [MAIN])
    with transaction(w.engine) as session:
        club_money.set_flight_money(
            session,
            actor=built.director.actor,
            flight_id=built.flights["Main"],
            fields=club_money.MoneyFields(entry_fee=1000, payout_table="100"),
        )
    return built


def set_flight_money(w: World) -> tuple[Call, set[int]]:
    built = _priced(w)
    fields = club_money.MoneyFields(entry_fee=2000, retention_percent=10, payout_table="70/30")
    return (
        lambda s: club_money.set_flight_money(
            s, actor=built.director.actor, flight_id=built.flights["Main"], fields=fields
        ),
        {built.event_id},
    )


def take_fee(w: World) -> tuple[Call, set[int]]:
    built = _priced(w)
    entry_id = built.entries[EIGHT[0]]
    return (
        lambda s: club_money.take_fee(
            s,
            actor=built.director.actor,
            flight_id=built.flights["Main"],
            entry_id=entry_id,
            kind="entry",
            method="cash",
        ),
        {built.event_id},
    )


def refund_entry(w: World) -> tuple[Call, set[int]]:
    built = _priced(w)
    actor, entry_id = built.director.actor, built.entries[EIGHT[0]]
    with transaction(w.engine) as session:
        # No refund by itself: the director refunds by hand.
        club_money.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Main"],
            fields=club_money.MoneyFields(
                entry_fee=1000, payout_table="100", refund_policy="none"
            ),
        )
        roster.withdraw(session, actor=actor, entry_id=entry_id)
    return (
        lambda s: club_money.refund_entry(s, actor=actor, entry_id=entry_id, method="cash"),
        {built.event_id},
    )


def _paid(w: World) -> tuple[BuiltEvent, int]:
    """The event of :func:`_priced` with the first player's fee paid; the fee's id."""
    built = _priced(w)
    with transaction(w.engine) as session:
        item = club_money.take_fee(
            session,
            actor=built.director.actor,
            flight_id=built.flights["Main"],
            entry_id=built.entries[EIGHT[0]],
            kind="entry",
            method="cash",
        )
        return built, item.id or 0


def undo_payment(w: World) -> tuple[Call, set[int]]:
    built, item_id = _paid(w)
    actor = built.director.actor
    return (lambda s: club_money.undo_payment(s, actor=actor, item_id=item_id), {built.event_id})


def refund_on_withdrawal(w: World) -> tuple[Call, set[int]]:
    built, _ = _paid(w)
    actor, entry_id = built.director.actor, built.entries[EIGHT[0]]

    def call(s: Session) -> object:
        entry = s.get(Entry, entry_id)
        assert entry is not None
        return club_money.refund_on_withdrawal(s, actor=actor, entry=entry)

    return call, {built.event_id}


def fees_due_again(w: World) -> tuple[Call, set[int]]:
    built, _ = _paid(w)
    actor, entry_id = built.director.actor, built.entries[EIGHT[0]]
    with transaction(w.engine) as session:
        roster.withdraw(session, actor=actor, entry_id=entry_id)

    def call(s: Session) -> object:
        entry = s.get(Entry, entry_id)
        assert entry is not None
        return club_money.fees_due_again(s, actor=actor, entry=entry)

    return call, {built.event_id}


def enter_buyback(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(
        EIGHT[:7],
        [
            MAIN,
            {"name": "Consolation", "format": "knockout", "match_length": 1, "feeds_from": "Main"},
        ],
    )
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(w.engine) as session:
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    for number in (0, 1):
        for match in board(w, built, "Main").rounds[number].matches:
            if match.status == "ready":
                with transaction(w.engine) as session:
                    results.record_final_score(
                        session, actor=actor, match_id=match.id, score_a=3, score_b=0
                    )
    semifinal = board(w, built, "Main").rounds[1].matches[0]
    assert semifinal.b is not None
    loser = built.entries[semifinal.b.name]
    consolation = built.flights["Consolation"]
    return (
        lambda s: draws.enter_buyback(s, actor=actor, flight_id=consolation, entry_id=loser),
        {built.event_id},
    )


def revoke_player_link(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor, entry_id = built.director.actor, built.entries["S1"]
    return (lambda s: selfservice.revoke_link(s, actor=actor, entry_id=entry_id)), {
        built.event_id
    }


def set_round_deadline(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor = built.director.actor
    round_id = board(w, built, "Main").rounds[0].id
    return (
        lambda s: selfservice.set_round_deadline(
            s, actor=actor, round_id=round_id, deadline=datetime(2030, 1, 1, tzinfo=UTC)
        )
    ), {built.event_id}


def decide_dispute(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    links = selfservice.LinkMaker("k", "http://club.example/")
    match = first_match(w, built)
    with Session(w.engine) as session:
        event = session.get(Event, built.event_id)
        assert event is not None

        def grant(name: str) -> selfservice.PlayerGrant:
            url = selfservice.link_for_entry(session, links, built.entries[name])
            return selfservice.open_link(
                session, links, slug=event.slug, token=url.rsplit("/", 1)[1]
            )

        first, last = grant("S1"), grant("S8")
    with transaction(w.engine) as session:
        report = selfservice.report_result(
            session, grant=first, match_id=match.id, score=(3, 0), links=links
        )
    with transaction(w.engine) as session:
        selfservice.dispute_report(session, grant=last, report_id=report.id, score=None,
                                   links=links)
    actor = built.director.actor
    return (
        lambda s: selfservice.decide_dispute(
            s, actor=actor, report_id=report.id, decision="report", links=links
        )
    ), {built.event_id}


def set_registration(w: World) -> tuple[Call, set[int]]:
    built = w.build_event([], [])
    actor = built.director.actor
    return (
        lambda s: registration.set_registration(
            s, actor=actor, event_id=built.event_id, is_open=True, capacity=8,
            needs_approval=False, closes_at=None,
        )
    ), {built.event_id}


def decide_registration(w: World) -> tuple[Call, set[int]]:
    built = w.build_event([], [])
    actor = built.director.actor
    links = selfservice.LinkMaker("k", "http://club.example/")
    with transaction(w.engine) as session:
        registration.set_registration(
            session, actor=actor, event_id=built.event_id, is_open=True, capacity=None,
            needs_approval=True, closes_at=None,
        )
        slug = session.get(Event, built.event_id).slug  # type: ignore[union-attr]
        registration_id = registration.register(
            session, slug=slug, name="Ann", club="", email="ann@example.org", rating_id="",
            links=links,
        )
    with transaction(w.engine) as session:
        registration.confirm_registration(
            session, slug=slug, token=links.registration_token(registration_id), links=links
        )
    return (
        lambda s: registration.decide_registration(
            s, actor=actor, registration_id=registration_id, approve=True, links=links
        )
    ), {built.event_id}


def _divided(w: World) -> BuiltEvent:
    """A knockout of eight with the divisions Open and Novice."""
    built = knockout(w)
    with transaction(w.engine) as session:
        divisions.set_divisions(
            session, actor=built.director.actor, event_id=built.event_id, text="Open\nNovice"
        )
    return built


def set_divisions(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor = built.director.actor
    return (
        lambda s: divisions.set_divisions(
            s, actor=actor, event_id=built.event_id, text="Open\nNovice"
        )
    ), {built.event_id}


def set_draw_scoring(w: World) -> tuple[Call, set[int]]:
    built = w.build_event(EIGHT[:2], [MAIN])
    actor = built.director.actor
    return (
        lambda s: divisions.set_draw_scoring(
            s, actor=actor, event_id=built.event_id, draw_scoring="half"
        )
    ), {built.event_id}


def set_entry_division(w: World) -> tuple[Call, set[int]]:
    built = _divided(w)
    actor, entry_id = built.director.actor, built.entries["S1"]
    return (
        lambda s: divisions.set_entry_division(s, actor=actor, entry_id=entry_id, division="Open")
    ), {built.event_id}


def set_entry_divisions(w: World) -> tuple[Call, set[int]]:
    built = _divided(w)
    actor, entry_id = built.director.actor, built.entries["S8"]
    return (
        lambda s: divisions.set_entry_divisions(
            s, actor=actor, event_id=built.event_id, chosen={entry_id: "Novice"}
        )
    ), {built.event_id}


def set_flight_division(w: World) -> tuple[Call, set[int]]:
    built = _divided(w)
    actor, main = built.director.actor, built.flights["Main"]
    return (
        lambda s: divisions.set_flight_division(
            s, actor=actor, flight_id=main, division="", handicap=1
        )
    ), {built.event_id}


def set_match_start(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor, match_id = built.director.actor, first_match(w, built).id
    return (
        lambda s: divisions.set_match_start(s, actor=actor, match_id=match_id, start_a=1, start_b=0)
    ), {built.event_id}


def after_director_withdrawal(w: World) -> tuple[Call, set[int]]:
    built = w.build_event([], [])
    actor = built.director.actor
    links = selfservice.LinkMaker("k", "http://club.example/")
    with transaction(w.engine) as session:
        registration.set_registration(
            session, actor=actor, event_id=built.event_id, is_open=True, capacity=1,
            needs_approval=False, closes_at=None,
        )
        slug = session.get(Event, built.event_id).slug  # type: ignore[union-attr]
        signed_up = [
            registration.register(
                session, slug=slug, name=name, club="", email=f"{name}@example.org",
                rating_id="", links=links,
            )
            for name in ("ann", "bob")
        ]
    for registration_id in signed_up:
        with transaction(w.engine) as session:
            registration.confirm_registration(
                session, slug=slug, token=links.registration_token(registration_id), links=links
            )
    with Session(w.engine) as session:
        ann = session.exec(select(Entry).where(Entry.event_id == built.event_id)).one()
        entry_id = ann.id or 0
    with transaction(w.engine) as session:
        roster.withdraw(session, actor=actor, entry_id=entry_id)
    return (
        lambda s: registration.after_director_withdrawal(
            s, actor=actor, entry_id=entry_id, links=links
        )
    ), {built.event_id}


def start_match(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor, match_id = built.director.actor, first_match(w, built).id
    return (lambda s: clocks.start_match(s, actor=actor, match_id=match_id)), {built.event_id}


def undo_start(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor, match_id = built.director.actor, first_match(w, built).id
    with transaction(w.engine) as session:
        clocks.start_match(session, actor=actor, match_id=match_id)
    return (lambda s: clocks.undo_start(s, actor=actor, match_id=match_id)), {built.event_id}


def set_screen(w: World) -> tuple[Call, set[int]]:
    built = knockout(w)
    actor = built.director.actor
    return (
        lambda s: screens.set_screen(
            s, actor=actor, event_id=built.event_id, panels=screens.DEFAULT_PANELS,
            rotation_seconds=20, announcement="Final at nine", clock_minutes=None,
        )
    ), {built.event_id}


SCENARIOS: dict[str, Scenario] = {
    "clocks.start_match": start_match,
    "clocks.undo_start": undo_start,
    "screens.set_screen": set_screen,
    "divisions.set_divisions": set_divisions,
    "divisions.set_draw_scoring": set_draw_scoring,
    "divisions.set_entry_division": set_entry_division,
    "divisions.set_entry_divisions": set_entry_divisions,
    "divisions.set_flight_division": set_flight_division,
    "divisions.set_match_start": set_match_start,
    "registration.after_director_withdrawal": after_director_withdrawal,
    "club_money.undo_payment": undo_payment,
    "club_money.fees_due_again": fees_due_again,
    "club_money.refund_on_withdrawal": refund_on_withdrawal,
    "draws.enter_buyback": enter_buyback,
    "registration.decide_registration": decide_registration,
    "registration.set_registration": set_registration,
    "selfservice.decide_dispute": decide_dispute,
    "selfservice.revoke_link": revoke_player_link,
    "selfservice.set_round_deadline": set_round_deadline,
    "club_money.refund_entry": refund_entry,
    "club_money.set_flight_money": set_flight_money,
    "club_money.take_fee": take_fee,
    "money_sessions.end_session": end_money_session,
    "money_sessions.record_game": record_money_game,
    "money_sessions.start_session": start_money_session,
    "money_sessions.take_back_game": take_back_money_game,
    "access.create_api_token": create_api_token,
    "access.open_sharing": open_sharing,
    "access.renew_share_link": renew_share_link,
    "access.revoke_api_token": revoke_api_token,
    "access.set_visibility": set_visibility,
    "accounts.change_password": change_password,
    "accounts.create_user": create_user,
    "accounts.deactivate_user": deactivate_user,
    "accounts.end_sessions": end_sessions,
    "bulk_entry.enter_players": enter_players,
    "bulk_entry.seed_by_rating": seed_by_rating,
    "bulk_entry.set_seed": set_seed,
    "club_settings.set_rating_options": set_rating_options,
    "draws.add_late_entry": add_late_entry,
    "event_lifecycle.close_event": close_event,
    "event_lifecycle.reopen_event": reopen_event,
    "draws.add_late_knockout_entry": add_late_knockout_entry,
    "draws.decide_cut": decide_cut,
    "draws.draw_flight": draw_flight,
    "draws.make_draw": make_draw,
    "draws.pair_next_round": pair_next_round,
    "draws.pair_round": pair_round,
    "teams.add_team": add_team,
    "teams.draw_team_round": draw_team_round,
    "teams.set_lineup": set_lineup,
    "draws.publish_draw": publish_draw,
    "draws.publish_flight": publish_flight,
    "draws.repair_round": repair_round,
    "draws.set_table": set_table,
    "draws.undo_draw": undo_draw,
    "event_json.import_event": import_event,
    "events.add_event_staff": add_event_staff,
    "events.add_flight": add_flight,
    "events.create_club": create_club,
    "events.create_event": create_event,
    "events.update_event": update_event,
    "events.update_flight": update_flight,
    "player_import.apply_player_import": apply_player_import,
    "results.award_walkover": award_walkover,
    "results.check_match_record": check_match_record,
    "results.clear_result": clear_result,
    "results.correct_game": correct_game,
    "results.delete_game": delete_game,
    "results.record_final_score": record_final_score,
    "results.record_game": record_game,
    "results.upload_match_record": upload_match_record,
    "analyses.request_analysis": request_analysis,
    "roster.check_in": check_in,
    "seasons.create_season": create_season,
    "roster.check_in_everyone": check_in_everyone,
    "roster.enter_player": enter_player,
    "roster.register_player": register_player,
    "roster.reinstate": reinstate,
    "roster.update_player": update_player,
    "roster.withdraw": withdraw,
}
"""How to call each service, by ``module.function`` under ``tourney.store``."""


def versions(engine: Engine) -> dict[int, int]:
    """Every event's data version, as a reader in another transaction sees it."""
    with Session(engine) as session:
        return {e.id or 0: e.data_version for e in session.exec(select(Event))}


# --- tests ---------------------------------------------------------------------------------


def test_every_scenario_is_of_a_service_that_exists() -> None:
    assert sorted(set(SCENARIOS) - set(mutating_services())) == []


@pytest.mark.parametrize("service", mutating_services())
def test_service_moves_the_version_of_each_event_it_changes(
    service: str,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    scenario = SCENARIOS.get(service)
    if scenario is None:
        pytest.fail(
            f"tourney.store.{service} takes actor= but this test does not know how to call "
            "it: add a scenario to SCENARIOS in tests/store/test_store_versions.py that "
            "changes an event with it and names the events whose version must move."
        )
    call, touched = scenario(World(engine, build_event, make_user))
    before = versions(engine)

    with transaction(engine) as session:
        call(session)

    after = versions(engine)
    # One transaction moves each event it touches one step, however often it flushes.
    assert {i: after[i] - before[i] for i in before if after[i] != before[i]} == {
        i: 1 for i in touched
    }


def test_every_table_of_event_rows_moves_its_events_version() -> None:
    # Tables whose rows hang off an event through foreign keys, however deep.
    owned = {"events"}
    tables = SQLModel.metadata.sorted_tables
    grew = True
    while grew:
        before = len(owned)
        owned |= {
            t.name for t in tables if any(fk.column.table.name in owned for fk in t.foreign_keys)
        }
        grew = len(owned) > before
    covered = {table.__tablename__ for table in EVENTS_OF}

    assert sorted(owned - covered) == []
