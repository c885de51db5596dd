"""The exports registry: what an event exports, to whom, as which files, on which paper."""

from __future__ import annotations

import pytest
from exports_builders import hand_event

from tourney.exports.documents import EventDocument
from tourney.exports.registry import (
    EXPORTS,
    PAGE_PAPERS,
    PAPERS,
    PDF_EXPORTS,
    EventSource,
    export_downloaded_as,
    export_named,
    exports_offered,
    paper_named,
)


def test_every_export_is_listed_once_in_page_order() -> None:
    assert [e.identifier for e in EXPORTS] == [
        "drawsheets",
        "pairings",
        "scoresheets",
        "standings",
        "xlsx",
        "csv",
        "json",
    ]


def test_the_printed_documents_are_the_pdf_kinds_of_tourney_export() -> None:
    # DESIGN §5: tourney export --pdf {drawsheets,pairings,scoresheets,standings} FILE.
    assert [e.identifier for e in PDF_EXPORTS] == [
        "drawsheets",
        "pairings",
        "scoresheets",
        "standings",
    ]


def test_the_public_gets_drawsheets_pairings_standings_and_the_workbook() -> None:
    public = [e.identifier for e in exports_offered(staff=False)]
    staff = [e.identifier for e in exports_offered(staff=True)]
    managers = [e.identifier for e in exports_offered(staff=True, manager=True)]

    assert public == ["drawsheets", "pairings", "standings", "xlsx"]
    # Score sheets and the CSV tables are for the staff; the event file for its directors.
    assert staff == ["drawsheets", "pairings", "scoresheets", "standings", "xlsx", "csv"]
    assert managers == [e.identifier for e in EXPORTS]


def test_downloads_are_found_by_the_last_part_of_their_address() -> None:
    found = [export_downloaded_as(name) for name in ("tables.zip", "event.json", "nope.pdf")]

    assert found == [export_named("csv"), export_named("json"), None]


def test_unknown_export_is_refused_listing_the_known_ones() -> None:
    with pytest.raises(ValueError) as caught:
        export_named("docx")

    assert str(caught.value) == (
        "Unknown export 'docx'; use one of drawsheets, pairings, scoresheets, standings, "
        "xlsx, csv, json."
    )


def test_each_export_renders_files_of_its_declared_type() -> None:
    source = EventSource.from_document(hand_event())
    declared = [
        (e.identifier, e.extension, e.content_type) for e in EXPORTS if e.identifier != "json"
    ]

    rendered = [
        (e.identifier, {(f.extension, f.content_type) for f in e.render(source, PAPERS["a4"])})
        for e in EXPORTS
        if e.identifier != "json"
    ]

    assert rendered == [(i, {(ext, ct)}) for i, ext, ct in declared]


def test_only_the_csv_tables_come_as_several_files() -> None:
    source = EventSource.from_document(hand_event())

    counts = {e.identifier: len(e.render(source, PAPERS["a4"])) for e in EXPORTS[:-1]}

    assert [e.identifier for e in EXPORTS if e.several_files] == ["csv"]
    assert counts == {
        "drawsheets": 1,
        "pairings": 1,
        "scoresheets": 1,
        "standings": 1,
        "xlsx": 1,
        "csv": 5,
    }


def test_the_event_file_needs_a_stored_event() -> None:
    source = EventSource.from_document(hand_event())

    with pytest.raises(ValueError) as caught:
        export_named("json").render(source, PAPERS["a4"])

    assert str(caught.value) == "This export copies the database rows: export a stored event."


def test_pages_offer_a4_and_letter_and_the_command_also_a3_posters() -> None:
    assert [(p.key, p.name, p.short_name) for p in PAGE_PAPERS] == [
        ("a4", "A4", "A4"),
        ("letter", "US Letter", "Letter"),
    ]
    assert list(PAPERS) == ["a4", "letter", "a3"]
    assert paper_named("a3").poster is True


def test_unknown_paper_is_refused_listing_the_sizes() -> None:
    with pytest.raises(ValueError) as caught:
        paper_named("a5")

    assert str(caught.value) == "Unknown paper 'a5'; use one of a4, letter, a3."


def test_a_document_is_made_once_for_every_export_of_a_source() -> None:
    made = []

    def make() -> EventDocument:
        made.append(1)
        return hand_event()

    source = EventSource(make)
    for export in PDF_EXPORTS:
        export.render(source, PAPERS["letter"])

    assert len(made) == 1
