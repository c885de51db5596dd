"""CSV export: one UTF-8 file with a header row per table of the event.

Dates are written as ISO dates, flags as ``true``/``false``, empty cells as nothing.
"""

from __future__ import annotations

import csv
import io
from datetime import date

from tourney.exports import CSV, Rendered
from tourney.exports.tables import Cell, DataTable, event_tables
from tourney.store.documents import EventDocument


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def render_table_csv(table: DataTable, stem: str) -> Rendered:
    """One table as a CSV file."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(table.headers)
    writer.writerows([_cell(v) for v in row] for row in table.rows)
    return Rendered(buffer.getvalue().encode("utf-8"), stem, "csv", CSV)


def render_csv(doc: EventDocument) -> tuple[Rendered, ...]:
    """Every table of the event, one CSV each: ``<slug>-players.csv`` and so on."""
    return tuple(
        render_table_csv(table, f"{doc.slug}-{table.name.lower()}") for table in event_tables(doc)
    )
