"""Reading the first sheet of an untrusted XLSX workbook, with every size bounded.

An XLSX file is a zip of XML parts, and both layers can be bombs: a few hundred
kilobytes that unpack to gigabytes (forty million empty rows, millions of shared
strings), or XML whose entities expand without end. openpyxl, even read-only, loads the
whole shared-strings table, the stylesheet and every cell of a row before its caller
can stop it, so this module reads the parts a table needs (the indexes, the shared
strings and the first sheet) itself, as a stream, and stops at the first limit it meets:

- before any XML is parsed, each zip entry's declared uncompressed size and its
  compression ratio are checked (Python's zip reader never returns more than the
  declared size, so the check holds even when the declaration lies);
- a part holding a document type declaration is refused, so no entity is ever defined
  (XXE, "billion laughs"); an entity used without one is malformed XML;
- rows, cells, shared strings and the characters of a number are counted as they are
  read.

The parts are parsed by the standard library's C parser, fed as the zip is unpacked:
defusedxml's parser would refuse entities too, but it is written in Python and reads a
large sheet several times slower.

Every refusal is a :class:`WorkbookError` whose message a person can act on.

Terminology:
    part          one XML file inside the zip (``xl/worksheets/sheet1.xml``).
    shared string a text stored once in ``xl/sharedStrings.xml`` and referred to by
                  its index from the cells that show it.
    line          a row's number as a spreadsheet shows it (the first row is line 1).
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, cast
from xml.etree.ElementTree import Element, ParseError, XMLPullParser

from tourney.rules.messages import Message, PluralMessage

CellValue = str | int | float | bool | None
"""What a cell holds: text, a number, a flag, or nothing."""

_REFERENCE = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_MAX_NUMBER_CHARS = 40
"""A number cell longer than this is not a number any table needs (and ``int()`` of
thousands of digits is refused by Python itself)."""
_DOCTYPE = b"<!DOCTYPE"
_CHUNK_BYTES = 64 * 1024
_OFFICE_DOCUMENT = "/officeDocument"
_SHARED_STRINGS = "/sharedStrings"


class WorkbookError(ValueError):
    """The workbook cannot be read within the limits; the message says why."""


class NotAWorkbookError(WorkbookError):
    """The bytes are not an XLSX file at all (not a zip, or no workbook inside)."""


@dataclass(frozen=True)
class WorkbookLimits:
    """How much of a workbook is read before it is refused."""

    max_rows: int = 10_000
    """Lines of the first sheet (blank ones included)."""
    max_columns: int = 256
    """Cells in one row, and the last column a cell may stand in."""
    max_cells: int = 200_000
    """Cells of the first sheet, all rows together (formatted empty cells count too)."""
    max_shared_strings: int = 50_000
    """Texts in the workbook's shared-strings table (all its sheets')."""
    max_part_bytes: int = 16 * 1024 * 1024
    """Declared uncompressed size of any one part."""
    max_total_bytes: int = 64 * 1024 * 1024
    """Declared uncompressed size of all parts together."""
    max_ratio: int = 100
    """Uncompressed size over compressed size of a part larger than ``ratio_from_bytes``;
    XML of real sheets compresses some 5 to 20 times."""
    ratio_from_bytes: int = 64 * 1024
    max_parts: int = 1_000


DEFAULT_LIMITS = WorkbookLimits()


def read_first_sheet(
    data: bytes, *, limits: WorkbookLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, list[CellValue]]]:
    """The rows of the workbook's first sheet as ``(line, cells)``, read lazily.

    ``cells`` holds one value per column from A to the row's last cell; a blank row
    gives an empty list. Reading stops at the first limit exceeded.

    Raises:
        NotAWorkbookError: not a zip file, or no workbook in it.
        WorkbookError: a limit is exceeded, or a part is not well-formed XML, declares
            a document type (where entities live), or holds a cell that cannot be read.
    """
    archive = _open(data, limits)
    with archive:
        sheet, shared = _first_sheet_parts(archive)
        strings = _shared_strings(archive, shared, limits) if shared else []
        yield from _rows(archive, sheet, strings, limits)


# --- the zip -------------------------------------------------------------------------


def _open(data: bytes, limits: WorkbookLimits) -> zipfile.ZipFile:
    """The archive, once every entry's declared size and ratio are within the limits."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise NotAWorkbookError(Message("it is not an XLSX (zip) file")) from None
    entries = archive.infolist()
    if len(entries) > limits.max_parts:
        raise WorkbookError(PluralMessage(
            "it holds more than %(limit)s part", "it holds more than %(limit)s parts",
            limits.max_parts, limit=f"{limits.max_parts:,}",
        ))
    total = 0
    for entry in entries:
        size = entry.file_size
        total += size
        if size > limits.max_part_bytes:
            raise WorkbookError(PluralMessage(
                "%(part)s unpacks to %(size)s byte, more than the limit of %(limit)s",
                "%(part)s unpacks to %(size)s bytes, more than the limit of %(limit)s",
                size, part=entry.filename, size=f"{size:,}", limit=f"{limits.max_part_bytes:,}",
            ))
        ratio = size / max(entry.compress_size, 1)
        if size > limits.ratio_from_bytes and ratio > limits.max_ratio:
            raise WorkbookError(PluralMessage(
                "%(part)s is packed %(ratio)s time, more than a spreadsheet ever is "
                "(a zip bomb?)",
                "%(part)s is packed %(ratio)s times, more than a spreadsheet ever is "
                "(a zip bomb?)",
                round(ratio), part=entry.filename, ratio=f"{ratio:,.0f}",
            ))
    if total > limits.max_total_bytes:
        raise WorkbookError(PluralMessage(
            "its parts unpack to %(size)s byte, more than the limit of %(limit)s",
            "its parts unpack to %(size)s bytes, more than the limit of %(limit)s",
            total, size=f"{total:,}", limit=f"{limits.max_total_bytes:,}",
        ))
    return archive


def _part(archive: zipfile.ZipFile, name: str) -> IO[bytes]:
    try:
        return archive.open(name)
    except KeyError:
        raise WorkbookError(Message("the part %(part)s is missing", part=name)) from None


def _events(archive: zipfile.ZipFile, name: str) -> Iterator[tuple[str, Element]]:
    """The start and end events of a part, parsed as it is unpacked.

    Raises:
        WorkbookError: the part is missing, cannot be unpacked, holds a document type
            declaration or is not well-formed XML.
    """
    parser: XMLPullParser[Element] = XMLPullParser(("start", "end"))
    with _part(archive, name) as stream:
        tail = b""
        while True:
            try:
                chunk = stream.read(_CHUNK_BYTES)
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as error:
                raise WorkbookError(Message(
                    "%(part)s cannot be unpacked (%(reason)s)", part=name, reason=str(error)
                )) from None
            # Entities can only be defined in a document type declaration: refusing it
            # refuses external entities and entity bombs alike. The tail carries a
            # declaration split between two chunks.
            if _DOCTYPE in tail + chunk:
                raise WorkbookError(Message(
                    "%(part)s declares a document type, which a workbook never does", part=name
                ))
            tail = chunk[1 - len(_DOCTYPE) :]
            try:
                if chunk:
                    parser.feed(chunk)
                else:
                    parser.close()
            except ParseError as error:
                raise WorkbookError(Message(
                    "%(part)s is not well-formed XML (%(reason)s)", part=name, reason=str(error)
                )) from None
            # Only "start" and "end" events were asked for: each is (event, element).
            yield from cast(Iterator[tuple[str, Element]], parser.read_events())
            if not chunk:
                return


def _small_part(archive: zipfile.ZipFile, name: str) -> Element:
    """A whole part as a tree (the package and workbook indexes; their size is checked)."""
    root: Element | None = None
    for _, element in _events(archive, name):
        if root is None:
            root = element
    if root is None:  # pragma: no cover - the parser refuses an empty part first
        raise WorkbookError(Message("%(part)s is empty", part=name))
    return root


def _local(tag: str) -> str:
    """An element or attribute name without its namespace."""
    return tag.rpartition("}")[2]


def _relationships(archive: zipfile.ZipFile, name: str) -> list[tuple[str, str, str]]:
    """``(id, type, target)`` of each relationship in a ``.rels`` part."""
    root = _small_part(archive, name)
    return [
        (rel.get("Id", ""), rel.get("Type", ""), rel.get("Target", ""))
        for rel in root
        if _local(rel.tag) == "Relationship"
    ]


def _resolve(base: str, target: str) -> str:
    """A relationship target as a path inside the zip."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def _first_sheet_parts(archive: zipfile.ZipFile) -> tuple[str, str]:
    """The paths of the first sheet and of the shared strings (empty when none)."""
    names = set(archive.namelist())
    if "_rels/.rels" not in names:
        raise NotAWorkbookError(Message("it holds no workbook"))
    workbook = next(
        (
            _resolve("", target)
            for _, kind, target in _relationships(archive, "_rels/.rels")
            if kind.endswith(_OFFICE_DOCUMENT)
        ),
        "",
    )
    if workbook not in names:
        raise NotAWorkbookError(Message("it holds no workbook"))
    sheet_id = next(
        (
            value
            for sheet in _small_part(archive, workbook).iter()
            if _local(sheet.tag) == "sheet"
            for key, value in sheet.attrib.items()
            if _local(key) == "id"
        ),
        None,
    )
    if sheet_id is None:
        raise WorkbookError(Message("the workbook has no sheet"))
    rels = posixpath.join(posixpath.dirname(workbook), "_rels", posixpath.basename(workbook))
    relationships = _relationships(archive, rels + ".rels")
    sheet = next((t for rid, _, t in relationships if rid == sheet_id), None)
    if sheet is None:
        raise WorkbookError(Message("the workbook's first sheet is missing"))
    shared = next((t for _, kind, t in relationships if kind.endswith(_SHARED_STRINGS)), "")
    return _resolve(workbook, sheet), _resolve(workbook, shared) if shared else ""


# --- shared strings and rows ---------------------------------------------------------


def _text_of(element: Element) -> str:
    """The text of a string item or inline string: its ``t`` and runs' ``t``, no phonetics."""
    parts: list[str] = []
    for child in element:
        name = _local(child.tag)
        if name == "t":
            parts.append(child.text or "")
        elif name == "r":
            parts.extend(t.text or "" for t in child if _local(t.tag) == "t")
    return "".join(parts)


def _shared_strings(archive: zipfile.ZipFile, name: str, limits: WorkbookLimits) -> list[str]:
    strings: list[str] = []
    root: Element | None = None
    for event, element in _events(archive, name):
        if root is None:
            root = element
        if event != "end" or _local(element.tag) != "si":
            continue
        if len(strings) >= limits.max_shared_strings:
            raise WorkbookError(PluralMessage(
                "it holds more than %(limit)s shared string",
                "it holds more than %(limit)s shared strings",
                limits.max_shared_strings, limit=f"{limits.max_shared_strings:,}",
            ))
        strings.append(_text_of(element))
        root.clear()  # each item is read once: memory stays flat
    return strings


def _rows(
    archive: zipfile.ZipFile, name: str, strings: list[str], limits: WorkbookLimits
) -> Iterator[tuple[int, list[CellValue]]]:
    line = 0
    cells = 0
    sheet_data: Element | None = None
    for event, element in _events(archive, name):
        tag = _local(element.tag)
        if event == "start":
            if tag == "sheetData":
                sheet_data = element
            continue
        if tag != "row":
            continue
        line = _row_number(element.get("r"), line)
        if line > limits.max_rows:
            raise WorkbookError(PluralMessage(
                "the first sheet has more than %(limit)s row",
                "the first sheet has more than %(limit)s rows",
                limits.max_rows, limit=f"{limits.max_rows:,}",
            ))
        cells += len(element)
        if cells > limits.max_cells:
            raise WorkbookError(PluralMessage(
                "the first sheet has more than %(limit)s cell",
                "the first sheet has more than %(limit)s cells",
                limits.max_cells, limit=f"{limits.max_cells:,}",
            ))
        yield line, _cells(element, line, strings, limits)
        if sheet_data is not None:
            sheet_data.clear()  # rows already read are dropped


def _row_number(text: str | None, previous: int) -> int:
    if text is None:
        return previous + 1
    if not text.isascii() or not text.isdigit() or len(text) > 7 or int(text) <= previous:
        raise WorkbookError(Message(
            "a row is numbered %(number)s after row %(previous)s",
            number=repr(text[:20]), previous=previous,
        ))
    return int(text)


def _column(reference: str | None, line: int, previous: int) -> int:
    """The 1-based column of a cell reference such as ``C7``; the next one when absent."""
    if reference is None:
        return previous + 1
    found = _REFERENCE.fullmatch(reference)
    if found is None or int(found.group(2)) != line:
        raise WorkbookError(Message(
            "row %(line)s has a cell named %(name)s", line=line, name=repr(reference[:20])
        ))
    column = 0
    for letter in found.group(1):
        column = column * 26 + ord(letter) - ord("A") + 1
    return column


def _cells(
    row: Element, line: int, strings: list[str], limits: WorkbookLimits
) -> list[CellValue]:
    if len(row) > limits.max_columns:
        raise WorkbookError(PluralMessage(
            "row %(line)s has more than %(count)s cell",
            "row %(line)s has more than %(count)s cells",
            limits.max_columns, line=line,
        ))
    cells: list[CellValue] = []
    column = 0
    for cell in row:
        if _local(cell.tag) != "c":
            continue
        column = _column(cell.get("r"), line, column)
        if column > limits.max_columns:
            raise WorkbookError(Message(
                "row %(line)s has a cell beyond column %(last)s (%(cell)s)",
                line=line, last=limits.max_columns, cell=cell.get("r") or column,
            ))
        cells.extend([None] * (column - len(cells)))
        cells[column - 1] = _value(cell, line, column, strings)
    return cells


def _value(cell: Element, line: int, column: int, strings: list[str]) -> CellValue:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        inline = next((c for c in cell if _local(c.tag) == "is"), None)
        return None if inline is None else _text_of(inline)
    raw = next((c.text for c in cell if _local(c.tag) == "v"), None)
    if raw is None:
        return None
    where: str = cell.get("r") or Message(
        "row %(line)s, column %(column)s", line=line, column=column
    )
    if kind == "s":
        index = raw.strip()[:_MAX_NUMBER_CHARS]
        if not (index.isascii() and index.isdigit() and int(index) < len(strings)):
            raise WorkbookError(Message(
                "cell %(cell)s refers to a shared string that is not there", cell=where
            ))
        return strings[int(index)]
    if kind == "b":
        if raw.strip() not in ("0", "1"):
            raise WorkbookError(Message(
                "cell %(cell)s holds %(value)s, which is not true or false",
                cell=where, value=repr(raw[:20]),
            ))
        return raw.strip() == "1"
    if kind in ("str", "e", "d"):
        return raw
    if kind != "n":
        raise WorkbookError(Message(
            "cell %(cell)s has an unknown type %(kind)s", cell=where, kind=repr(kind[:20])
        ))
    return _number(raw.strip(), where)


def _number(text: str, where: str) -> int | float:
    if len(text) > _MAX_NUMBER_CHARS or not _NUMBER.fullmatch(text):
        raise WorkbookError(Message(
            "cell %(cell)s holds %(value)s, which is not a number",
            cell=where, value=repr(text[:20]),
        ))
    if text.lstrip("-").isdigit():
        return int(text)
    return float(text)
