"""Workbooks built part by part with ``zipfile``, so a test can put anything in them:
bombs (parts that unpack to far more than they weigh), entities, broken cells."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/></Types>'
)
PACKAGE_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PACKAGE_RELS}">'
    f'<Relationship Id="rId1" Type="{_DOC_RELS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{_DOC_RELS}">'
    '<sheets><sheet name="Players" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PACKAGE_RELS}">'
    f'<Relationship Id="rId1" Type="{_DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
SHEET = "xl/worksheets/sheet1.xml"
STRINGS = "xl/sharedStrings.xml"
HEADER_ROW = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
"""``name`` and ``country``, the first two shared strings of ``strings()``."""


def sheet(rows: str, *, prolog: str = "") -> bytes:
    """A worksheet part holding ``rows``; ``prolog`` goes before the root element."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet xmlns="{MAIN}">'
        f"<sheetData>{rows}</sheetData></worksheet>"
    ).encode()


def strings(*texts: str, extra: str = "") -> bytes:
    """A shared-strings part: ``name``, ``country``, then ``texts``, then raw ``extra``."""
    items = "".join(f"<si><t>{t}</t></si>" for t in ("name", "country", *texts))
    body = f'<sst xmlns="{MAIN}">{items}{extra}</sst>'
    return f'<?xml version="1.0" encoding="UTF-8"?>{body}'.encode()


def workbook(
    sheet_part: bytes | Iterable[bytes], strings_part: bytes | Iterable[bytes] | None = None
) -> bytes:
    """An XLSX file with one sheet; a part given as chunks is streamed (for bombs)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", PACKAGE_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        for name, part in ((SHEET, sheet_part), (STRINGS, strings_part or strings())):
            if isinstance(part, bytes):
                archive.writestr(name, part)
                continue
            with archive.open(name, "w", force_zip64=True) as stream:
                for chunk in part:
                    stream.write(chunk)
    return out.getvalue()


def empty_rows_bomb(rows: int) -> bytes:
    """A workbook whose sheet is a header and ``rows`` empty rows, streamed."""
    chunk = 100_000

    def parts() -> Iterable[bytes]:
        head, _, tail = sheet("|").partition(b"|")
        yield head + HEADER_ROW.encode()
        for _ in range(rows // chunk):
            yield b"<row/>" * chunk
        yield tail

    return workbook(parts())
