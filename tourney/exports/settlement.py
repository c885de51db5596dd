"""A money session's settlement sheet, printed (PDF) and as a workbook (XLSX)."""

from __future__ import annotations

import io
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
from tourney.store.documents import SettlementDocument, SheetTable


def render_settlement_pdf(doc: SettlementDocument) -> Rendered:
    """The settlement sheet on A4: what was played, the totals, who pays whom, the games."""
    buffer = io.BytesIO()
    styles = paragraph_styles()
    width = A4[0] - 2 * MARGIN
    story: list[object] = [Paragraph(escape_markup(doc.title), styles["h1"])]
    story.extend(Paragraph(escape_markup(line), styles["note"]) for line in doc.lines)
    for table in doc.tables:
        story.append(Paragraph(escape_markup(table.title), styles["h2"]))
        if not table.rows:
            story.append(Paragraph("None.", styles["cell"]))
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


def render_settlement_xlsx(doc: SettlementDocument) -> Rendered:
    """The settlement workbook: a sheet of what was played, then one sheet per table."""
    workbook = Workbook()
    taken: set[str] = set()
    summary = workbook.active
    summary.title = sheet_title("Session", taken)
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
