"""Nothing an export writes is ever run by a spreadsheet: no formula in the workbook, and
CSV text that a spreadsheet would take for a formula starts with a single quote."""

from __future__ import annotations

import csv
import io

from exports_builders import hand_event
from openpyxl import load_workbook

from tourney.exports.csv import render_csv
from tourney.exports.xlsx import render_xlsx

HOSTILE = {
    1: '=HYPERLINK("https://evil.example","Prize")',
    2: "+1+cmd|' /C calc'!A0",
    3: "-2+3",
    4: "@SUM(A1:A9)",
}


def test_xlsx_writes_no_formula_even_for_names_that_look_like_one() -> None:
    workbook = load_workbook(io.BytesIO(render_xlsx(hand_event(names=HOSTILE)).content))

    formulas = [
        f"{sheet.title}!{cell.coordinate}"
        for sheet in workbook.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.data_type == "f"
    ]
    names = [c.value for c in workbook["Players"]["B"][1:]]
    assert formulas == []
    assert names == list(HOSTILE.values())


def test_xlsx_tie_marker_is_text_not_a_formula() -> None:
    workbook = load_workbook(io.BytesIO(render_xlsx(hand_event()).content))

    ranks = [(c.value, c.data_type) for c in workbook["Standings Main"]["A"][1:]]

    assert ranks == [("1", "s"), ("2", "s"), ("=3", "s"), ("=3", "s")]


def _csv_files(names: dict[int, str] | None = None) -> dict[str, bytes]:
    return {r.filename: r.content for r in render_csv(hand_event(names=names))}


def test_csv_starts_with_a_byte_order_mark_so_spreadsheets_read_utf8() -> None:
    files = _csv_files()

    assert {name: content[:3] for name, content in files.items()} == {
        name: b"\xef\xbb\xbf" for name in files
    }


def test_csv_text_a_spreadsheet_would_run_starts_with_a_quote() -> None:
    files = _csv_files(HOSTILE)

    players = list(csv.reader(io.StringIO(files["hand-made-cup-players.csv"].decode("utf-8-sig"))))
    standings = list(
        csv.DictReader(io.StringIO(files["hand-made-cup-standings.csv"].decode("utf-8-sig")))
    )

    assert [row[1] for row in players[1:]] == [
        "'=HYPERLINK(\"https://evil.example\",\"Prize\")",
        "'+1+cmd|' /C calc'!A0",
        "'-2+3",
        "'@SUM(A1:A9)",
    ]
    assert [row["Place"] for row in standings] == ["1", "2", "'=3", "'=3"]


def test_csv_quotes_text_opening_with_a_tab_or_carriage_return() -> None:
    files = _csv_files({1: "\tTab", 2: "\rReturn", 3: "Plain", 4: "Ünal"})

    players = list(csv.reader(io.StringIO(files["hand-made-cup-players.csv"].decode("utf-8-sig"))))

    assert [row[1] for row in players[1:]] == ["'\tTab", "'\rReturn", "Plain", "Ünal"]
