"""XLSX and CSV exports read back: sheet names, values and their types, and LibreOffice."""

from __future__ import annotations

import csv
import io
import subprocess
from datetime import datetime
from pathlib import Path

from exports_builders import hand_event, knockout_event, need_tool
from openpyxl import load_workbook

from tourney.exports.csv import render_csv
from tourney.exports.xlsx import render_xlsx, sheet_title


def test_xlsx_sheets_of_a_knockout_with_consolation_and_last_chance() -> None:
    rendered = render_xlsx(knockout_event(8))
    workbook = load_workbook(io.BytesIO(rendered.content))
    assert rendered.filename == "simulated-knockout-8.xlsx"
    assert workbook.sheetnames == [
        "Event",
        "Players",
        "Pairings",
        "Matches",
        "Games",
        "Standings Main",
        "Standings Consolation",
        "Standings Last chance",
        "Bracket Main",
        "Bracket Consolation",
        "Bracket Last chance",
    ]


def test_xlsx_values_keep_their_types() -> None:
    workbook = load_workbook(io.BytesIO(render_xlsx(hand_event()).content))
    players = workbook["Players"]
    assert [c.value for c in players[1]] == ["Id", "Name", "Country", "Rating", "Seed", "Club"]
    assert [c.value for c in players[2]] == [1, "Bjørn Ødegård", None, None, 1, None]
    assert players.freeze_panes == "A2"
    assert players.auto_filter.ref == "A1:F5"
    matches = workbook["Matches"]
    header = [c.value for c in matches[1]]
    first = dict(zip(header, (c.value for c in matches[2]), strict=True))
    assert (first["Player A"], first["Player B"], first["Score A"], first["Score B"]) == (
        "Bjørn Ødegård",
        "Şükrü Çağlar",
        5,
        3,
    )
    assert (first["Winner"], first["Table"], first["Match length"]) == ("Bjørn Ødegård", 1, 5)
    games = workbook["Games"]
    header = [c.value for c in games[1]]
    rows = [dict(zip(header, (c.value for c in row), strict=True)) for row in games.iter_rows(2)]
    assert [(r["Game"], r["Cube"], r["Crawford"], r["Score A"], r["Score B"]) for r in rows] == [
        (1, 1, False, 2, 0),
        (2, 2, False, 2, 2),
        (3, 2, False, 4, 2),
        (4, 1, True, 4, 3),
        (5, 1, False, 5, 3),
    ]
    assert [r["Winner"] for r in rows] == [
        "Bjørn Ødegård",
        "Şükrü Çağlar",
        "Bjørn Ødegård",
        "Şükrü Çağlar",
        "Bjørn Ødegård",
    ]
    standings = workbook["Standings Main"]
    assert [[c.value for c in row] for row in standings.iter_rows(2)] == [
        ["1", 1, False, "Αλέξανδρος", 2, "Winner"],
        ["2", 2, False, "Bjørn Ødegård", 1, "Final"],
        ["=3", 3, True, "Дмитрий Иванов", 0, "Semifinal"],
        ["=3", 3, True, "Şükrü Çağlar", 0, "Semifinal"],
    ]


def test_xlsx_event_date_is_a_date() -> None:
    workbook = load_workbook(io.BytesIO(render_xlsx(knockout_event(8)).content))
    assert workbook["Event"]["B3"].value == datetime(2025, 3, 6)
    assert workbook["Event"]["B3"].number_format == "yyyy-mm-dd"


def test_xlsx_bracket_sheet_is_laid_out_like_the_drawsheet() -> None:
    workbook = load_workbook(io.BytesIO(render_xlsx(hand_event()).content))
    sheet = workbook["Bracket Main"]
    # Slot lines: round 1 at rows 4, 6, 8, 10 (two rows a slot); the final between them.
    assert [sheet.cell(r, 1).value for r in (4, 6, 8, 10)] == [
        "[1] Bjørn Ødegård",
        "[4] Şükrü Çağlar",
        "[2] Дмитрий Иванов",
        "[3] Αλέξανδρος",
    ]
    assert [sheet.cell(r, 3).value for r in (5, 9)] == ["[1] Bjørn Ødegård", "[3] Αλέξανδρος"]
    assert [sheet.cell(r, 4).value for r in (5, 9)] == [6, 7]
    assert sheet.cell(7, 5).value == "Αλέξανδρος"
    assert sheet.cell(4, 2).border.bottom.style == "thin"
    assert sheet.cell(5, 2).border.right.style == "thin"


def test_sheet_titles_are_valid_and_unique() -> None:
    taken: set[str] = set()
    titles = [sheet_title(t, taken) for t in ("Standings A/B", "Standings A/B", "x" * 40)]
    assert titles == ["Standings A-B", "Standings A-B (2)", "x" * 31]


def test_csv_one_file_per_table_utf8_with_header() -> None:
    files = {r.filename: r for r in render_csv(hand_event())}
    assert sorted(files) == [
        "hand-made-cup-games.csv",
        "hand-made-cup-matches.csv",
        "hand-made-cup-pairings.csv",
        "hand-made-cup-players.csv",
        "hand-made-cup-standings.csv",
    ]
    players = files["hand-made-cup-players.csv"].content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(players)))
    assert rows[0] == ["Id", "Name", "Country", "Rating", "Seed", "Club"]
    assert rows[1:] == [
        ["1", "Bjørn Ødegård", "", "", "1", ""],
        ["2", "Дмитрий Иванов", "", "", "2", ""],
        ["3", "Αλέξανδρος", "", "", "3", ""],
        ["4", "Şükrü Çağlar", "", "", "4", ""],
    ]
    games = list(
        csv.DictReader(io.StringIO(files["hand-made-cup-games.csv"].content.decode("utf-8-sig")))
    )
    assert [g["Crawford"] for g in games] == ["false", "false", "false", "true", "false"]


def test_libreoffice_reads_the_workbook(tmp_path: Path) -> None:
    office = need_tool("soffice")
    book = tmp_path / "event.xlsx"
    book.write_bytes(render_xlsx(hand_event()).content)
    # Filter options: comma, double quote, UTF-8, from row 1, ..., sheet -1 = every sheet.
    target = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    subprocess.run(
        [
            office,
            f"-env:UserInstallation=file://{tmp_path}/profile",
            "--headless",
            "--convert-to",
            target,
            "--outdir",
            str(tmp_path),
            str(book),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    players = (tmp_path / "event-Players.csv").read_text(encoding="utf-8").splitlines()
    assert players[:2] == ["Id,Name,Country,Rating,Seed,Club", "1,Bjørn Ødegård,,,1,"]
    games = (tmp_path / "event-Games.csv").read_text(encoding="utf-8").splitlines()
    assert games[4].split(",")[-4:] == ["4", "3", "TRUE", "main/1/1"]
