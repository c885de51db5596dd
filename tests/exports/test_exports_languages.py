"""Printed documents and spreadsheets in the reader's language.

The expected words are the catalogue's translations as a speaker writes them (German
"Turnierbaum" for a drawsheet, Greek "Παρτίδα" for a game column), not read back from the
code; every glyph of the Greek, Cyrillic and Turkish alphabets must survive the PDF's
font (``pdftotext`` reads it back).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from pathlib import Path

import pytest
from exports_builders import first_page_png, hand_event, pdf_text
from openpyxl import load_workbook

from tourney.exports.csv import render_csv
from tourney.exports.pdf import (
    render_drawsheets_pdf,
    render_pairings_pdf,
    render_scoresheets_pdf,
    render_standings_pdf,
)
from tourney.exports.xlsx import render_xlsx


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


ALPHABETS = (
    "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
    "αβγδεζηθικλμνξοπρσςτυφχψω άέήίόύώ ϊϋΐΰ",
    "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "ıİğĞşŞçÇöÖüÜ",
)


@pytest.mark.parametrize("alphabet", ALPHABETS)
def test_every_greek_cyrillic_and_turkish_letter_prints_and_reads_back(
    alphabet: str, tmp_path: Path
) -> None:
    event = dataclasses.replace(hand_event(), name=alphabet)

    text = pdf_text(render_scoresheets_pdf(event, round_number=1).content, tmp_path)

    assert alphabet in text


def test_greek_tavli_score_sheet_has_greek_headings(tmp_path: Path) -> None:
    tavli = dataclasses.replace(hand_event(), match_form="tavli")

    rendered = render_scoresheets_pdf(tavli, round_number=1, language="el")
    text = _squash(pdf_text(rendered.content, tmp_path))
    first_page_png(rendered.content, "scoresheet-tavli-el")

    assert "Αγώνας στους 5 πόντους · Τάβλι" in text
    assert "Παρτίδα Κύβος C Νικητής A / B" in text
    assert "Πόντοι Σκορ A Σκορ B" in text
    # Tavli's games in turn: Portes, Plakoto, Fevga, each named in Greek.
    assert "1 Πόρτες" in text and "2 Πλακωτό" in text and "3 Φεύγα" in text
    assert "Υπογραφή A: Bjørn Ødegård" in text
    assert "Σελίδα 1" in text
    assert ("Game" in text, "Cube" in text, "Signature" in text) == (False, False, False)


def test_german_drawsheet_names_rounds_and_columns_in_german(tmp_path: Path) -> None:
    rendered = render_drawsheets_pdf(hand_event(), language="de")
    text = _squash(pdf_text(rendered.content, tmp_path))
    first_page_png(rendered.content, "drawsheet-de")

    assert "Main — Turnierbaum" in text
    assert "Halbfinale" in text and "Finale" in text
    assert "5 Punkte" in text and "7 Punkte" in text
    assert "Sieger" in text
    assert "Seite 1 von 1" in text
    assert ("Semifinal" in text, "Winner" in text, "points" in text) == (False, False, False)


def test_russian_standings_and_pairings_headings(tmp_path: Path) -> None:
    event = hand_event()

    standings = _squash(pdf_text(render_standings_pdf(event, language="ru").content, tmp_path))
    pairings = _squash(
        pdf_text(render_pairings_pdf(event, round_number=1, language="ru").content, tmp_path)
    )

    assert "Место Игрок" in standings
    assert "«=» означает разделённое место." in standings
    assert "Стол Игрок Соперник Результат" in pairings
    assert "Матчи до 5 очков." in pairings


def test_turkish_workbook_names_its_sheets_and_headings_in_turkish() -> None:
    workbook = load_workbook(io.BytesIO(render_xlsx(hand_event(), language="tr").content))

    assert workbook.sheetnames[:5] == ["Etkinlik", "Oyuncular", "Eşleşmeler", "Maçlar", "Oyunlar"]
    players = workbook["Oyuncular"]
    assert [c.value for c in players[1]] == ["Kimlik", "Ad", "Ülke", "Puan derecesi", "Seri başı",
                                             "Kulüp"]
    matches = workbook["Maçlar"]
    headings = [c.value for c in matches[1]]
    assert headings[:4] == ["Grup", "Tur", "Tur adı", "Maç"]
    round_names = {row[2] for row in matches.iter_rows(min_row=2, values_only=True)}
    assert round_names == {"Yarı final", "Final"}


def test_german_csv_headers_keep_the_file_names() -> None:
    files = {f.filename: f for f in render_csv(hand_event(), language="de")}

    players = files["hand-made-cup-players.csv"].content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(players)))

    assert header == ["Id", "Name", "Land", "Wertung", "Setzplatz", "Verein"]


def _cells(content: bytes) -> dict[str, list[tuple[object, ...]]]:
    workbook = load_workbook(io.BytesIO(content))
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in workbook.worksheets}


def test_english_is_the_default_language_of_every_document() -> None:
    event = hand_event()

    default = _cells(render_xlsx(event).content)

    assert default == _cells(render_xlsx(event, language="en").content)
    assert list(default)[:5] == ["Event", "Players", "Pairings", "Matches", "Games"]
    assert default["Matches"][0][:4] == ("Flight", "Round", "Round name", "Match")
    assert [f.content for f in render_csv(event)] == [
        f.content for f in render_csv(event, language="en")
    ]
