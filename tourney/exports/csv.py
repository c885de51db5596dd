"""CSV export: one UTF-8 file with a header row per table of the event.

Dates are written as ISO dates, flags as ``true``/``false``, empty cells as nothing. Each
file starts with a UTF-8 byte order mark, which is how Excel knows to read accents.
Text that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return; the tie marker ``=3`` too) is prefixed with a single quote,
as OWASP advises against CSV injection; numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
from datetime import date

from tourney.exports import CSV, Rendered
from tourney.exports.tables import Cell, DataTable, event_tables, translated_table
from tourney.i18n import DEFAULT_LANGUAGE
from tourney.store.documents import EventDocument

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return str(value)


def render_table_csv(table: DataTable, stem: str) -> Rendered:
    """One table as a CSV file."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(table.headers)
    writer.writerows([_cell(v) for v in row] for row in table.rows)
    return Rendered(buffer.getvalue().encode("utf-8-sig"), stem, "csv", CSV)


def render_csv(doc: EventDocument, *, language: str = DEFAULT_LANGUAGE) -> tuple[Rendered, ...]:
    """Every table of the event, one CSV each: ``<slug>-players.csv`` and so on, with the
    header row in ``language`` (the file names stay the same in every language)."""
    return tuple(
        render_table_csv(translated_table(table, language), f"{doc.slug}-{table.name.lower()}")
        for table in event_tables(doc)
    )
