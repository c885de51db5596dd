"""A money session's settlement sheet, printed (PDF) and as a workbook (XLSX); the club
money's payout sheet and ledger use the same two renderers.

The store builds the sheets' words as core messages (titles, lines, headings, and cells
such as how a game ended); the renderers put them in the reader's language. Names and
amounts are printed as they are.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

from openpyxl import Workbook
from reportlab.lib.pagesizes import A4
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from tourney.exports import PDF, XLSX, Rendered
from tourney.exports.pdf import (
    MARGIN,
    cut_to_width,
    escape_markup,
    paragraph_styles,
    table_flowable,
)
from tourney.exports.tables import DataTable
from tourney.exports.xlsx import sheet_title, write_row, write_table
from tourney.i18n import DEFAULT_LANGUAGE, translate
from tourney.rules.messages import Message
from tourney.store.documents import SettlementDocument, SheetTable

NOTHING = Message("None.")
"""What a printed table with no rows says instead."""
SUMMARY_SHEET = Message("Session")
"""The workbook's first sheet: the title and the lines."""


def _in_language(value: str | int, language: str) -> str | int:
    """A message of the sheet in ``language``; a name, an amount or a number as it is (a
    player called "Total" stays "Total")."""
    return translate(value, language) if isinstance(value, Message) else value


def _translated(doc: SettlementDocument, language: str) -> SettlementDocument:
    """``doc`` with its title, lines, table titles, headings and worded cells in
    ``language``; its file name stays as it is."""
    if language == DEFAULT_LANGUAGE:
        return doc

    def text(value: str) -> str:
        return str(_in_language(value, language))

    return replace(
        doc,
        title=text(doc.title),
        lines=tuple(text(line) for line in doc.lines),
        tables=tuple(
            replace(
                table,
                title=text(table.title),
                headers=tuple(text(header) for header in table.headers),
                rows=tuple(
                    tuple(_in_language(value, language) for value in row) for row in table.rows
                ),
            )
            for table in doc.tables
        ),
    )


def render_settlement_pdf(
    doc: SettlementDocument, *, language: str = DEFAULT_LANGUAGE
) -> Rendered:
    """The settlement sheet on A4 in ``language``: what was played, the totals, who pays
    whom, the games."""
    doc = _translated(doc, language)
    buffer = io.BytesIO()
    styles = paragraph_styles()
    width = A4[0] - 2 * MARGIN
    story: list[object] = [Paragraph(escape_markup(doc.title), styles["h1"])]
    story.extend(Paragraph(escape_markup(line), styles["note"]) for line in doc.lines)
    for table in doc.tables:
        story.append(Paragraph(escape_markup(table.title), styles["h2"]))
        if not table.rows:
            story.append(Paragraph(escape_markup(translate(NOTHING, language)), styles["cell"]))
            continue
        widths = _column_widths(table, width)
        rows: list[list[Any]] = [
            list(table.headers),
            *[
                [
                    value if isinstance(value, int) else cut_to_width(value, widths[i])
                    for i, value in enumerate(row)
                ]
                for row in table.rows
            ],
        ]
        story.append(table_flowable(rows, widths, align_right=table.numeric))
        story.append(Spacer(1, 6))
    template = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=doc.title,
        author="tourney",
        invariant=1,
    )
    template.build(story)
    return Rendered(buffer.getvalue(), doc.stem, "pdf", PDF)


def _column_widths(table: SheetTable, width: float) -> list[float]:
    """Each column as wide as its longest text needs, the page's width shared out in
    proportion (a column of names gets more room than one of cube values)."""
    longest = [
        max([len(str(header)), *(len(str(row[i])) for row in table.rows)])
        for i, header in enumerate(table.headers)
    ]
    total = sum(max(n, 4) for n in longest)
    return [width * max(n, 4) / total for n in longest]


def render_settlement_xlsx(
    doc: SettlementDocument, *, language: str = DEFAULT_LANGUAGE
) -> Rendered:
    """The settlement workbook in ``language``: a sheet of what was played, then one sheet
    per table."""
    doc = _translated(doc, language)
    workbook = Workbook()
    taken: set[str] = set()
    summary = workbook.active
    summary.title = sheet_title(translate(SUMMARY_SHEET, language), taken)
    write_row(summary, 1, (doc.title,))
    for number, line in enumerate(doc.lines, start=2):
        write_row(summary, number, (line,))
    summary.column_dimensions["A"].width = 80
    for table in doc.tables:
        sheet = workbook.create_sheet(sheet_title(table.title, taken))
        write_table(sheet, DataTable(table.title, table.headers, table.rows))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return Rendered(buffer.getvalue(), doc.stem, "xlsx", XLSX)
