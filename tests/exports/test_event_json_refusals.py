"""Event JSON imports that are refused: a newer version, a slug in use, malformed files.

Every refusal names what is wrong and writes nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from event_json_builders import exported
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from tourney.exports.event_json import parse_event_json
from tourney.formats.tiebreaks import TIEBREAKS
from tourney.store import schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.demo import load_demo
from tourney.store.errors import (
    AccessDeniedError,
    EventExistsError,
    EventImportError,
    NewerVersionError,
)
from tourney.store.event_json import VERSION, import_event
from tourney.store.passwords import make_hasher

REPO = Path(__file__).resolve().parents[2]


def row_counts(engine: Engine) -> dict[str, int]:
    with Session(engine) as session:
        return {
            t.name: session.exec(select(func.count()).select_from(t)).one()
            for t in SQLModel.metadata.sorted_tables
        }


@pytest.fixture(scope="module")
def swiss_export() -> bytes:
    """The demo's Swiss in progress, exported once from a scratch SQLite database."""
    scratch = make_engine("sqlite://")
    schema.upgrade(scratch)
    with transaction(scratch) as session:
        load_demo(session, directory=REPO / "sample_events", hasher=make_hasher("fast"))
    data = exported(scratch, "monday-swiss")
    scratch.dispose()
    return data


@pytest.fixture
def swiss(swiss_export: bytes) -> dict[str, Any]:
    """A fresh copy of the Swiss's export document."""
    document: dict[str, Any] = json.loads(swiss_export)
    return document


def test_event_json_newer_version_is_refused_naming_both_versions(
    engine: Engine, swiss: dict[str, Any]
) -> None:
    swiss["version"] = VERSION + 1
    before = row_counts(engine)

    with pytest.raises(NewerVersionError) as caught, transaction(engine) as session:
        import_event(session, swiss, as_copy=True)

    assert caught.value.message == (
        f"This file is event JSON version {VERSION + 1}; this tourney reads versions up to "
        f"{VERSION}. Import it with a newer tourney."
    )
    assert row_counts(engine) == before


def test_event_json_existing_slug_is_refused_suggesting_a_copy(
    engine: Engine, swiss: dict[str, Any]
) -> None:
    with transaction(engine) as session:
        import_event(session, swiss)
    before = row_counts(engine)

    with pytest.raises(EventExistsError) as caught, transaction(engine) as session:
        import_event(session, swiss)

    assert caught.value.message == (
        "An event with the web address 'monday-swiss' exists already; "
        "import with --as-copy to add this one as a copy."
    )
    assert row_counts(engine) == before


def test_event_json_second_copy_gets_a_numbered_slug(engine: Engine, swiss: dict[str, Any]) -> None:
    slugs = []
    for _ in range(3):
        with transaction(engine) as session:
            slugs.append(import_event(session, swiss, as_copy=True).slug)

    assert slugs == ["monday-swiss", "monday-swiss-copy", "monday-swiss-copy-2"]


def test_event_json_scorer_may_not_import(engine: Engine, swiss: dict[str, Any]) -> None:
    scorer = Actor(user_id=None, label="scorer@example.org", role="scorer")

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        import_event(session, swiss, actor=scorer, as_copy=True)


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        node: Any = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _drop(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        node: Any = document
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


MALFORMED = [
    (
        _set(["format"], "tourney-demo/1"),
        "format: expected 'tourney-event', found 'tourney-demo/1'",
    ),
    (_set(["version"], "1"), "version: expected a whole number from 1, found '1'"),
    (_drop(["tables"]), "tables: expected an object of tables"),
    (_set(["tables", "events"], []), "tables.events: expected exactly one event"),
    (_set(["tables", "clans"], []), "tables.clans: unknown table (written by a newer tourney?)"),
    (
        _set(["tables", "matches", 0, "score_a"], "3"),
        "tables.matches[0].score_a: expected a whole number, found '3'",
    ),
    (
        _set(["tables", "matches", 0, "entry_a_id"], "flight_entries/999"),
        "tables.matches[0].entry_a_id: flight_entries/999 is not in the file",
    ),
    (
        _set(["tables", "matches", 0, "round_id"], "flights/1"),
        "tables.matches[0].round_id: expected a reference like 'rounds/1', found 'flights/1'",
    ),
    (
        _set(["tables", "matches", 0, "round_id"], None),
        "tables.matches[0].round_id: must not be null",
    ),
    (_drop(["tables", "games", 0, "points"]), "tables.games[0].points: missing"),
    (
        _set(["tables", "games", 0, "created_at"], "yesterday"),
        "tables.games[0].created_at: expected an ISO datetime, found 'yesterday'",
    ),
    (
        _set(["tables", "games", 0, "created_at"], "2026-01-01T10:00:00"),
        "tables.games[0].created_at: expected a time with its UTC offset, "
        "found '2026-01-01T10:00:00'",
    ),
    (
        _set(["tables", "flights", 0, "colour"], "red"),
        "tables.flights[0].colour: unknown column (written by a newer tourney?)",
    ),
    (_set(["tables", "rounds", 1, "ref"], "rounds/1"), "tables.rounds[1].ref: expected 'rounds/2'"),
    (
        _set(["tables", "players", 0, "name"], "x" * 121),
        "tables.players[0].name: longer than 120 characters",
    ),
    (
        _set(["tables", "events", 0, "crawford"], 1),
        "tables.events[0].crawford: expected true or false, found 1",
    ),
    (
        _set(["tables", "flights", 0, "tiebreaks"], ["buchholz", "coin_toss"]),
        "tables.flights[0].tiebreaks: Unknown tiebreak 'coin_toss': use one of "
        + ", ".join(t.key for t in TIEBREAKS)
        + ".",
    ),
    (
        _set(["tables", "flights", 0, "tiebreaks"], ["buchholz", "buchholz"]),
        "tables.flights[0].tiebreaks: Each tiebreak may appear once in the chain.",
    ),
    (
        _set(["tables", "flights", 0, "tiebreaks"], "buchholz"),
        "tables.flights[0].tiebreaks: expected a list of tiebreak keys, found 'buchholz'",
    ),
    (
        _set(["tables", "flights", 0, "cut_ties"], "coin_toss"),
        "tables.flights[0].cut_ties: Unknown way of resolving ties at the cut: 'coin_toss'.",
    ),
    (
        _set(["tables", "flights", 0, "pool_seeding"], "by_age"),
        "tables.flights[0].pool_seeding: Unknown way of making pools: 'by_age'.",
    ),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_event_json_malformed_document_names_the_field_and_writes_nothing(
    engine: Engine, swiss: dict[str, Any], change: Callable[[dict[str, Any]], None], message: str
) -> None:
    document = copy.deepcopy(swiss)
    change(document)
    before = row_counts(engine)

    with pytest.raises(EventImportError) as caught, transaction(engine) as session:
        import_event(session, document, as_copy=True)

    assert caught.value.message.startswith(message)
    assert row_counts(engine) == before


def test_event_json_bad_seat_in_a_knockout_plan_is_refused(engine: Engine) -> None:
    scratch = make_engine("sqlite://")
    schema.upgrade(scratch)
    with transaction(scratch) as session:
        load_demo(session, directory=REPO / "sample_events", hasher=make_hasher("fast"))
    document = json.loads(exported(scratch, "fjordside-spring-open"))
    scratch.dispose()
    plan = document["tables"]["flights"][0]["bracket_plan"]
    seat = next(i for i, m in enumerate(plan["matches"]) if m["a"][0] == "seat")
    plan["matches"][seat]["a"] = ["seat", "entries/77"]

    with pytest.raises(EventImportError) as caught, transaction(engine) as session:
        import_event(session, document, as_copy=True)

    assert caught.value.message == (
        f"tables.flights[0].bracket_plan.matches[{seat}].a: entries/77 is not in the file"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe", "The file is not UTF-8 text."),
        (b"{", "The file is not JSON: "),
        (b"[1, 2]", "The file is not an event export: expected a JSON object."),
    ],
)
def test_event_json_unreadable_file_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(EventImportError) as caught:
        parse_event_json(data)

    assert caught.value.message.startswith(message)
