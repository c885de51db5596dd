"""Event JSON: export, import into an empty database, export again gives the same bytes.

Round trips on the sample events, on a 128-player knockout with consolation drawn and
played through the store's services, on an event with an uploaded record and a
withdrawal; an imported event can be played on; a copy differs only in slug and name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from event_json_builders import CONSOLATION, MAIN, exported, play_event, ready_matches
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.exports.event_json import parse_event_json
from tourney.store import draws, results, roster, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.demo import load_demo
from tourney.store.event_json import IMPORT_ACTION, import_event
from tourney.store.passwords import make_hasher
from tourney.store.results import GameFields
from tourney.store.tables import AuditEntry, Club, Event, Player
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

REPO = Path(__file__).resolve().parents[2]
RECORD = REPO / "tests" / "data" / "web" / "gnubg_L03_s1037.mat"
DEMO_SLUGS = ["thursday-club-night", "fjordside-spring-open", "monday-swiss"]


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    """A second, migrated and empty database of the same backend."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def import_bytes(engine: Engine, data: bytes, *, as_copy: bool = False) -> int:
    with transaction(engine) as session:
        return import_event(session, parse_event_json(data), as_copy=as_copy).event_id


def load_sample_events(engine: Engine) -> None:
    with transaction(engine) as session:
        load_demo(session, directory=REPO / "sample_events", hasher=make_hasher("fast"))


@pytest.mark.parametrize("slug", DEMO_SLUGS)
def test_event_json_sample_event_round_trip_is_byte_identical(
    engine: Engine, target: Engine, slug: str
) -> None:
    load_sample_events(engine)
    first = exported(engine, slug)

    import_bytes(target, first)

    assert exported(target, slug) == first


def test_event_json_played_128_knockout_with_consolation_round_trip(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    players = [f"Spieler {n:03} Ødegård" for n in range(1, 129)]
    built = build_event(players, [MAIN, CONSOLATION], seeded=False, name="Grand Prix 128")
    actor = built.director.actor
    play_event(engine, actor, built.event_id, built.flights["Main"], seed=128, method="random")
    first = exported(engine, built.event_id)
    document = json.loads(first)

    import_bytes(target, first)

    assert exported(target, "grand-prix-128") == first
    tables = document["tables"]
    assert (len(tables["players"]), len(tables["flight_entries"]), len(tables["matches"])) == (
        128,
        192,
        190,
    )
    assert {f["status"] for f in tables["flights"]} == {"finished"}
    assert all(f["draw_seed"] == "128" for f in tables["flights"])


def test_event_json_round_trip_keeps_uploads_walkovers_and_withdrawals(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["GnubgB", "Carla", "Dmitri", "GnubgA"],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    first_match = next(m for m in board.rounds[0].matches if m.a and m.a.name == "GnubgB")
    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session,
            actor=actor,
            match_id=first_match.id,
            filename="m.mat",
            data=RECORD.read_bytes(),
        )
        roster.withdraw(session, actor=actor, entry_id=built.entries["Dmitri"])
    assert outcome.ok
    first = exported(engine, built.event_id)

    import_bytes(target, first)

    assert exported(target, "club-night") == first
    tables = json.loads(first)["tables"]
    assert [r["filename"] for r in tables["uploaded_records"]] == ["m.mat"]
    assert {g["record_id"] for g in tables["games"]} == {"uploaded_records/1"}
    assert sorted(m["status"] for m in tables["matches"]) == ["finished", "ready", "walkover"]


def test_event_json_imported_knockout_can_be_played_on(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([f"P{n}" for n in range(1, 9)], [MAIN, CONSOLATION])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    new_id = import_bytes(target, exported(engine, built.event_id))

    # P1 wins the imported event's first match 3-0: the winner moves on to the semifinal.
    importer = Actor.cli()
    with transaction(target) as session:
        match = ready_matches(session, new_id)[0]
        for _ in range(3):
            results.record_game(
                session,
                actor=importer,
                match_id=match.id or 0,
                game=GameFields(winner="a", end="played", cube=1, level="single"),
            )
        flight_id = match.flight_id
    with Session(target) as session:
        board = flight_board(session, importer, flight_id)
    first, semi = board.rounds[0].matches[0], board.rounds[1].matches[0]
    assert (first.status, first.winner_ref and first.winner_ref.name) == ("finished", "P1")
    assert semi.a is not None and semi.a.name == "P1"


def test_event_json_copy_differs_only_in_slug_and_name(engine: Engine) -> None:
    load_sample_events(engine)
    original = json.loads(exported(engine, "fjordside-spring-open"))

    copy_id = import_bytes(engine, json.dumps(original).encode(), as_copy=True)

    copy = json.loads(exported(engine, copy_id))
    event = copy["tables"]["events"][0]
    assert (event["slug"], event["name"]) == (
        "fjordside-spring-open-copy",
        original["tables"]["events"][0]["name"] + " (copy)",
    )
    event.update(slug=original["tables"]["events"][0]["slug"])
    event.update(name=original["tables"]["events"][0]["name"])
    assert copy == original
    with Session(engine) as session:
        # The copy's players are the roster's: matched by name and country, none added.
        names = session.exec(select(Player.name)).all()
        assert len(names) == len(set(names))


def test_event_json_import_is_audited_and_the_audit_entry_is_not_exported(
    engine: Engine, target: Engine
) -> None:
    load_sample_events(engine)
    first = exported(engine, "thursday-club-night")

    new_id = import_bytes(target, first)

    with Session(target) as session:
        entry = session.exec(select(AuditEntry).where(AuditEntry.action == IMPORT_ACTION)).one()
        owner = session.get(Event, new_id)
    assert (entry.event_id, entry.entity_id, entry.actor_label) == (new_id, new_id, "cli")
    assert entry.after is not None and entry.after["source_slug"] == "thursday-club-night"
    assert owner is not None and owner.owner_id is None
    assert IMPORT_ACTION not in exported(target, new_id).decode()


def test_event_json_holds_no_users_only_actor_labels(engine: Engine) -> None:
    load_sample_events(engine)

    document = json.loads(exported(engine, "monday-swiss"))

    assert list(document)[:2] == ["format", "version"]
    assert "users" not in document["tables"] and "event_staff" not in document["tables"]
    assert "owner_id" not in document["tables"]["events"][0]
    audit = document["tables"]["audit_entries"]
    assert [sorted(a) for a in audit[:1]] == [
        sorted(
            [
                "ref",
                "at",
                "actor_label",
                "action",
                "entity_type",
                "entity_id",
                "event_id",
                "match_id",
                "before",
                "after",
            ]
        )
    ]
    assert all("@" in a["actor_label"] for a in audit)


def test_event_json_players_are_only_those_entered(engine: Engine) -> None:
    load_sample_events(engine)
    with Session(engine) as session:
        roster = session.exec(select(func.count()).select_from(Player)).one()

    document = json.loads(exported(engine, "thursday-club-night"))

    assert len(document["tables"]["players"]) == len(document["tables"]["entries"]) < roster


def test_event_json_carries_the_clubs_list_options_and_a_players_carried_in_experience(
    engine: Engine,
    target: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    built = build_event(["Ann", "Ben"], [MAIN])
    club_id = into_club(built)
    with transaction(engine) as session:
        club = session.get(Club, club_id)
        assert club is not None
        club.provisional_below, club.public_profiles = 400, True
        for player in session.exec(select(Player).where(Player.name == "Ann")):
            player.rating, player.rating_experience, player.rated_matches = 1612.5, 450, 31
    data = exported(engine, built.event_id)

    imported = import_bytes(target, data)

    with Session(target) as session:
        copied = session.exec(select(Club)).one()
        ann = session.exec(select(Player).where(Player.name == "Ann")).one()
    assert (copied.provisional_below, copied.public_profiles) == (400, True)
    assert (ann.rating, ann.rating_experience, ann.rated_matches) == (1612.5, 450, 31)
    assert exported(target, imported) == data
