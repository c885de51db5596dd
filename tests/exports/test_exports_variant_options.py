"""A long-nardy event's options on its score sheets, workbook, CSV and event JSON.

The event: two players, a 5-point long-nardy match with the cube, the Crawford rule, a
koks scoring 3 and the last-roll draw. Games entered: a drawn game, then Ann wins a koks
on a 2-cube (3 x 2 = 6, so 6-0 and the match is over).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from event_json_builders import exported
from exports_builders import pdf_text
from openpyxl import load_workbook
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.exports.csv import render_csv
from tourney.exports.event_json import parse_event_json
from tourney.exports.pdf import render_scoresheets_pdf
from tourney.exports.xlsx import render_xlsx
from tourney.rules.variants import VariantOptions
from tourney.store import draws, results, schema
from tourney.store.db import make_engine, transaction
from tourney.store.documents import EventDocument
from tourney.store.errors import EventImportError
from tourney.store.event_documents import event_document, find_event
from tourney.store.event_json import import_event
from tourney.store.results import GameFields

if TYPE_CHECKING:
    from conftest import BuiltEvent

SUMMARY = "Long nardy · cube on, Crawford · koks scores 3 · last-roll draw"


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    """A second, migrated and empty database of the same backend."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def nardy_event(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(
        ["Ann", "Bob"],
        [{"name": "Main", "format": "knockout", "match_length": 5}],
        slug="nardy-cup",
        variant="long-nardy",
        variant_options=VariantOptions(cube=True, crawford=True, koks=True, last_roll_draw=True),
    )
    actor = built.director.actor
    with transaction(engine) as session:
        flight = built.flights["Main"]
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=flight)
    match_id = next(m.id for m in board.rounds[0].matches if not m.is_bye)
    for game in (GameFields("", "drawn", 1, None), GameFields("a", "played", 2, "backgammon")):
        with transaction(engine) as session:
            results.record_game(session, actor=actor, match_id=match_id, game=game)
    return built


def _document(engine: Engine) -> EventDocument:
    with Session(engine) as session:
        return event_document(session, "nardy-cup")


def test_scoresheet_names_the_options_and_shows_the_draw(
    engine: Engine, nardy_event: BuiltEvent, tmp_path: Path
) -> None:
    document = _document(engine)

    sheets = render_scoresheets_pdf(document, round_number=1)

    text = re.sub(r"\s+", " ", pdf_text(sheets.content, tmp_path))

    assert f"Match to 5 points · {SUMMARY}" in text
    assert "Ended (played, dropped, resigned, drawn · oin, mars, koks)" in text
    assert "Crawford rule: no doubling in the first game after a player reaches 4" in text
    # Game 1: drawn, no winner, 0-0; game 2: a koks on a 2-cube for A, 6-0.
    assert re.search(r"1 1 — drawn 0 0 0 2 2 A played · koks 6 6 0", text), text


def test_workbook_and_csv_show_the_summary_and_the_drawn_game(
    engine: Engine, nardy_event: BuiltEvent
) -> None:
    document = _document(engine)

    workbook = load_workbook(io.BytesIO(render_xlsx(document).content))
    games_csv = next(r for r in render_csv(document) if r.filename.endswith("-games.csv"))

    event_rows = {row[0]: row[1] for row in workbook["Event"].iter_rows(values_only=True)}
    games = [row[5:11] for row in workbook["Games"].iter_rows(min_row=2, values_only=True)]
    assert event_rows["Game"] == SUMMARY
    assert event_rows["Rules"] == (
        "Long nardy; Doubling cube; Crawford rule; Koks scores 3; Last-roll draw; "
        "Winner opens the next game")
    assert games == [(1, None, 1, "drawn", None, 0), (2, "Ann", 2, "played", "backgammon", 6)]
    assert games_csv.content.decode("utf-8").splitlines()[1].startswith(
        "Main,1,1,Ann,Bob,1,,1,drawn,,0,0,0,false,")


def test_event_json_round_trip_keeps_the_options_and_the_draw(
    engine: Engine, target: Engine, nardy_event: BuiltEvent
) -> None:
    first = exported(engine, "nardy-cup")

    with transaction(target) as session:
        import_event(session, parse_event_json(first))

    document = json.loads(first)
    (event,) = document["tables"]["events"]
    assert event["variant_options"] == {
        "crawford": True, "cube": True, "koks": True, "last_roll_draw": True}
    assert [(g["winner"], g["end"], g["points"]) for g in document["tables"]["games"]] == [
        (None, "drawn", 0), ("a", "played", 6)]
    assert exported(target, "nardy-cup") == first


def test_event_json_without_options_imports_with_the_defaults(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    build_event(["Ann"], [], slug="old-file", variant="long-nardy")
    document = json.loads(exported(engine, "old-file"))
    # A file written before events had options has no such column at all.
    del document["tables"]["events"][0]["variant_options"]

    with transaction(target) as session:
        import_event(session, document)

    with Session(target) as session:
        event = find_event(session, "old-file")
        assert (event.variant, event.variant_options) == ("long-nardy", None)


def test_event_json_with_unknown_options_is_refused_naming_the_field(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    build_event(["Ann"], [], slug="bad-file", variant="long-nardy")
    document = json.loads(exported(engine, "bad-file"))
    document["tables"]["events"][0]["variant_options"] = {"koks": "three"}

    with pytest.raises(EventImportError) as refused, transaction(target) as session:
        import_event(session, document)

    assert str(refused.value) == (
        "tables.events[0].variant_options: variant option koks must be true or false, "
        "not 'three'")


def test_scoresheet_of_a_standard_event_without_crawford_says_so(
    engine: Engine, build_event: Callable[..., BuiltEvent], tmp_path: Path
) -> None:
    built = build_event(
        ["Ann", "Bob"], [{"name": "Main", "format": "knockout", "match_length": 5}],
        slug="no-crawford", crawford=False,
    )
    with transaction(engine) as session:
        flight = built.flights["Main"]
        draws.make_draw(session, actor=built.director.actor, flight_id=flight, method="seeded")
        draws.publish_draw(session, actor=built.director.actor, flight_id=flight)
    with Session(engine) as session:
        document = event_document(session, "no-crawford")

    text = re.sub(r"\s+", " ", pdf_text(render_scoresheets_pdf(document).content, tmp_path))

    assert "No Crawford rule: the cube may be used in every game." in text
    assert "tick C on that game" not in text
