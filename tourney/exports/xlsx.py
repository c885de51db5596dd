"""XLSX workbook of an event: Event, Players, Pairings, Matches, Games, standings and brackets.

Every table sheet has a frozen, bold header row, an autofilter and column widths fitted
to its content; numbers are stored as numbers, dates as dates and flags as booleans.
Each knockout flight gets a Bracket sheet laid out like the drawsheet: a name column
and a score column per round, slot lines drawn as cell borders.

No cell is ever a formula: openpyxl takes any text starting with ``=`` for one (a player
named ``=HYPERLINK(...)``, even the tie marker ``=3``), so every text is stored as text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import date, datetime

from openpyxl import Workbook
from openpyxl.cell.cell import Cell as SheetCell
from openpyxl.styles import Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from tourney.exports import XLSX, Rendered
from tourney.exports.layout import layout
from tourney.exports.tables import (
    Cell,
    DataTable,
    event_tables,
    flight_standings_table,
    translated_table,
)
from tourney.formats.rounds import parse_round_name
from tourney.i18n import DEFAULT_LANGUAGE, translate
from tourney.rules.messages import N_, Message, PluralMessage
from tourney.store.documents import EventDocument, FlightDocument

_BOLD = Font(bold=True)
_HEAD_FILL = PatternFill("solid", fgColor="E8E8E8")
_THIN = Side(style="thin", color="000000")
_NO_SIDE = Side()
_INVALID = set("[]:*?/\\")


def sheet_title(text: str, taken: set[str]) -> str:
    """A valid, unique sheet title (at most 31 characters, none of ``[]:*?/\\``)."""
    clean = "".join("-" if ch in _INVALID else ch for ch in text).strip("'") or "Sheet"
    title = clean[:31]
    n = 2
    while title.casefold() in taken:
        suffix = f" ({n})"
        title = clean[: 31 - len(suffix)] + suffix
        n += 1
    taken.add(title.casefold())
    return title


def _write(ws: Worksheet, row: int, column: int, value: Cell) -> SheetCell:
    """Put ``value`` in a cell; text stays text, never a formula."""
    cell = ws.cell(row, column, value)
    if isinstance(value, str):
        cell.data_type = "s"
    return cell


def write_row(ws: Worksheet, row: int, values: Sequence[Cell]) -> None:
    """Write ``values`` into row ``row`` from column A, text as text."""
    for column, value in enumerate(values, start=1):
        _write(ws, row, column, value)


def _width_of(value: Cell) -> int:
    if value is None:
        return 0
    if isinstance(value, datetime | date):
        return 10
    return len(str(value))


def write_table(ws: Worksheet, table: DataTable) -> None:
    """Write ``table`` on a sheet: a bold, frozen header row with filters, text as text,
    columns as wide as their contents."""
    write_row(ws, 1, table.headers)
    for number, row in enumerate(table.rows, start=2):
        write_row(ws, number, row)
    for cell in ws[1]:
        cell.font = _BOLD
        cell.fill = _HEAD_FILL
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        for i, value in enumerate(row):
            w = _width_of(value)
            if w > widths[i]:
                widths[i] = w
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = min(max(width, 4) + 2, 60)
    for i, value in enumerate(table.rows[0] if table.rows else (), start=1):
        if isinstance(value, date):
            for (cell,) in ws.iter_rows(min_row=2, min_col=i, max_col=i):
                cell.number_format = "yyyy-mm-dd"
    ws.freeze_panes = "A2"
    last = get_column_letter(max(len(table.headers), 1))
    ws.auto_filter.ref = f"A1:{last}{max(len(table.rows) + 1, 1)}"


def _event_sheet(ws: Worksheet, doc: EventDocument, language: str) -> None:
    rows: list[tuple[str, Cell]] = [
        (N_("Event"), doc.name),
        (N_("Slug"), doc.slug),
        (N_("Starts on"), doc.starts_on),
        (N_("Venue"), doc.venue or None),
        (N_("Public page"), doc.url),
        (N_("Game"), doc.variant_summary or None),
        (N_("Rules"), "; ".join(doc.rules) or None),
        (N_("Players"), len(doc.players)),
        (N_("Flights"), ", ".join(f.name for f in doc.flights) or None),
    ]
    for number, (label, value) in enumerate(rows, start=1):
        _write(ws, number, 1, translate(label, language)).font = _BOLD
        cell = _write(ws, number, 2, value)
        if isinstance(value, date):
            cell.number_format = "yyyy-mm-dd"
    ws.column_dimensions["A"].width = 14
    ws.column_dimensions["B"].width = min(max(_width_of(v) for _, v in rows) + 2, 80)


def _bracket_sheet(ws: Worksheet, flight: FlightDocument, language: str) -> None:
    """The drawsheet as cells: round heads in row 1-2, slot lines as bottom borders."""
    matches = [m for r in flight.rounds for m in r.matches]
    if not matches:
        return
    leaves = sum(1 for m in matches if not any(f for f in m.feeders if f))
    placed, _ = layout(matches, 4.0 * leaves, 2.0)
    offset = 3  # rows 1-2 are the column heads
    rounds = {r.number: r for r in flight.rounds}
    order = sorted(rounds)
    for i, number in enumerate(order):
        col = 1 + 2 * i
        round_title = translate(parse_round_name(rounds[number].name), language)
        _write(ws, 1, col, round_title).font = _BOLD
        length = rounds[number].length
        # Every length is written in the plural form, as it always was in English.
        points = PluralMessage("%(count)s point", "%(count)s points", length)
        _write(ws, 2, col, f"{length} points" if language == DEFAULT_LANGUAGE
               else translate(points, language))
        ws.column_dimensions[get_column_letter(col)].width = 26
        ws.column_dimensions[get_column_letter(col + 1)].width = 5
    win_col = 1 + 2 * len(order)
    _write(ws, 1, win_col, translate(N_("Winner"), language)).font = _BOLD
    ws.column_dimensions[get_column_letter(win_col)].width = 26
    line = Border(bottom=_THIN)
    line_joint = Border(bottom=_THIN, right=_THIN)
    for p in placed:
        m = p.match
        col = 1 + 2 * p.column
        ra, rb = offset + round(p.ya), offset + round(p.yb)
        for which, row, side in (("a", ra, m.a), ("b", rb, m.b)):
            text = side.name if side.name is not None else (side.note or None)
            if side.name is not None and side.seed is not None:
                text = f"[{side.seed}] {side.name}"
            name_cell = _write(ws, row, col, text)
            name_cell.border = line
            won = m.winner == which and m.status in ("finished", "walkover")
            if won:
                name_cell.font = _BOLD
            score: Cell = None
            if m.status == "finished" and m.score is not None:
                score = m.score[0] if which == "a" else m.score[1]
            elif m.status == "walkover" and won:
                score = "w/o"
            score_cell = _write(ws, row, col + 1, score)
            score_cell.border = line_joint if which == "a" else line
            if won:
                score_cell.font = _BOLD
        for row in range(ra + 1, rb + 1):
            cell = ws.cell(row, col + 1)
            cell.border = Border(right=_THIN, bottom=_THIN if row == rb else _NO_SIDE)
        if not any(m.key in (q.match.feeders or ()) for q in placed):
            row = offset + round(p.out)
            cell = _write(ws, row, col + 2, m.winner_name if m.status != "pending" else None)
            cell.border = line
            cell.font = _BOLD
    ws.freeze_panes = "A3"


def render_xlsx(doc: EventDocument, *, language: str = DEFAULT_LANGUAGE) -> Rendered:
    """The event workbook, its sheet names, headings and round names in ``language``."""

    def tr(text: str) -> str:
        return translate(text, language)

    wb = Workbook()
    taken: set[str] = set()
    ws = wb.active
    ws.title = sheet_title(tr(N_("Event")), taken)
    _event_sheet(ws, doc, language)
    tables = {t.name: t for t in event_tables(doc)}
    for name in (N_("Players"), N_("Pairings"), N_("Matches"), N_("Games")):
        write_table(
            wb.create_sheet(sheet_title(tr(name), taken)), translated_table(tables[name], language)
        )
    for flight in doc.flights:
        if flight.standings:
            table = translated_table(flight_standings_table(doc, flight.name), language)
            title = tr(Message("Standings %(flight)s", flight=flight.name))
            write_table(wb.create_sheet(sheet_title(title, taken)), table)
            for division in flight.division_standings:
                table = translated_table(
                    flight_standings_table(doc, flight.name, division.name), language
                )
                title = tr(
                    Message("Standings %(flight)s %(division)s", flight=flight.name,
                            division=division.name)
                )
                write_table(wb.create_sheet(sheet_title(title, taken)), table)
    for flight in doc.flights:
        if flight.is_bracket:
            title = tr(Message("Bracket %(flight)s", flight=flight.name))
            _bracket_sheet(wb.create_sheet(sheet_title(title, taken)), flight, language)
    # A fixed creation time keeps the same event's workbook byte-for-byte stable.
    wb.properties.created = wb.properties.modified = datetime(2000, 1, 1)
    wb.properties.creator = "tourney"
    wb.properties.title = doc.name
    buffer = io.BytesIO()
    wb.save(buffer)
    return Rendered(buffer.getvalue(), doc.slug, "xlsx", XLSX)


def render_table_xlsx(table: DataTable, stem: str) -> Rendered:
    """One table as a workbook of one sheet named after it."""
    wb = Workbook()
    ws = wb.active
    ws.title = sheet_title(table.name, set())
    write_table(ws, table)
    wb.properties.created = wb.properties.modified = datetime(2000, 1, 1)
    wb.properties.creator = "tourney"
    wb.properties.title = table.name
    buffer = io.BytesIO()
    wb.save(buffer)
    return Rendered(buffer.getvalue(), stem, "xlsx", XLSX)
