"""The bounded workbook reader: cells read as a spreadsheet shows them, and every bomb,
entity or broken cell refused in well under a second with a message a person can use."""

from __future__ import annotations

import time

import pytest
from workbook_builders import HEADER_ROW, empty_rows_bomb, sheet, strings, workbook

from tourney.store.player_import import PlayerImportError, read_table
from tourney.store.workbook import read_first_sheet

READABLE = "The file is not a readable workbook: "


def _refusal(data: bytes) -> tuple[str, float]:
    started = time.perf_counter()
    with pytest.raises(PlayerImportError) as caught:
        read_table(data, filename="players.xlsx")
    return caught.value.message, time.perf_counter() - started


def test_workbook_cells_read_as_text_numbers_and_flags() -> None:
    rows = (
        HEADER_ROW
        + '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="C2"><v>1712.5</v></c>'
        '<c r="D2" t="b"><v>1</v></c></row>'
        '<row r="4"><c r="A4" t="inlineStr"><is><r><t>Jürgen </t></r><r><t>Weiß</t></r></is>'
        '</c><c r="B4"><v>1600</v></c></row>'
    )

    read = list(read_first_sheet(workbook(sheet(rows), strings("Bjørn Ødegård"))))

    assert read == [
        (1, ["name", "country"]),
        (2, ["Bjørn Ødegård", None, 1712.5, True]),
        (4, ["Jürgen Weiß", 1600]),
    ]


def test_forty_million_empty_rows_are_refused_before_parsing() -> None:
    bomb = empty_rows_bomb(40_000_000)

    message, seconds = _refusal(bomb)

    unpacked = 40_000_000 * len(b"<row/>") + len(sheet(HEADER_ROW))
    assert len(bomb) < 400_000
    assert message == (
        f"{READABLE}xl/worksheets/sheet1.xml unpacks to {unpacked:,} bytes, "
        "more than the limit of 16,777,216."
    )
    assert seconds < 1


def test_highly_packed_part_is_refused_as_a_bomb() -> None:
    message, seconds = _refusal(empty_rows_bomb(1_000_000))

    assert message.startswith(f"{READABLE}xl/worksheets/sheet1.xml is packed ")
    assert message.endswith(" times, more than a spreadsheet ever is (a zip bomb?).")
    assert seconds < 1


def test_shared_strings_bomb_is_refused() -> None:
    bomb = workbook(sheet(HEADER_ROW), strings(extra="<si/>" * 2_000_000))

    message, seconds = _refusal(bomb)

    assert message.startswith(f"{READABLE}xl/sharedStrings.xml is packed ")
    assert seconds < 1


def test_shared_strings_are_counted() -> None:
    many = strings(*(f"p{n}" for n in range(50_000)))

    message, _ = _refusal(workbook(sheet(HEADER_ROW), many))

    assert message == f"{READABLE}it holds more than 50,000 shared strings."


def test_rows_past_the_limit_stop_the_reading() -> None:
    rows = HEADER_ROW + "".join(
        f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>' for n in range(2, 10_010)
    )

    message, _ = _refusal(workbook(sheet(rows)))

    assert message == f"{READABLE}the first sheet has more than 10,000 rows."


def test_cells_past_the_limit_stop_the_reading() -> None:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    columns = (*letters, *(f"A{letter}" for letter in letters))  # 52 columns
    row = "".join(f'<c r="{c}{{n}}"><v>{{n}}</v></c>' for c in columns)
    rows = HEADER_ROW + "".join(f'<row r="{n}">{row.format(n=n)}</row>' for n in range(2, 3900))

    message, _ = _refusal(workbook(sheet(rows)))

    assert message == f"{READABLE}the first sheet has more than 200,000 cells."


def test_a_row_numbered_far_below_the_rest_is_refused() -> None:
    rows = HEADER_ROW + '<row r="4000000"><c r="A4000000" t="s"><v>0</v></c></row>'

    message, seconds = _refusal(workbook(sheet(rows)))

    assert message == f"{READABLE}the first sheet has more than 10,000 rows."
    assert seconds < 1


ENTITY_PROLOG = '<!DOCTYPE worksheet [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
LAUGHS_PROLOG = (
    '<!DOCTYPE worksheet [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>'
)


@pytest.mark.parametrize(
    ("part", "message"),
    [
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="A2" t="inlineStr"><is><t>&e;</t></is></c></row>',
                  prolog=ENTITY_PROLOG),
            "xl/worksheets/sheet1.xml declares a document type, which a workbook never does",
            id="external entity",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="A2" t="inlineStr"><is><t>&d;</t></is></c></row>',
                  prolog=LAUGHS_PROLOG),
            "xl/worksheets/sheet1.xml declares a document type, which a workbook never does",
            id="billion laughs",
        ),
        pytest.param(
            b"<worksheet><sheetData><row>",
            "xl/worksheets/sheet1.xml is not well-formed XML (no element found: line 1, "
            "column 27)",
            id="malformed XML",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2">' + '<c t="s"><v>0</v></c>' * 300 + "</row>"),
            "row 2 has more than 256 cells",
            id="too many cells in a row",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="XFD2" t="s"><v>0</v></c></row>'),
            "row 2 has a cell beyond column 256 (XFD2)",
            id="a cell in the last column",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="A2" t="s"><v>99</v></c></row>'),
            "cell A2 refers to a shared string that is not there",
            id="shared string index",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="B2"><v>12abc</v></c></row>'),
            "cell B2 holds '12abc', which is not a number",
            id="not a number",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="B2"><v>' + "9" * 5000 + "</v></c></row>"),
            "cell B2 holds '99999999999999999999', which is not a number",
            id="five thousand digits",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="2B" t="s"><v>0</v></c></row>'),
            "row 2 has a cell named '2B'",
            id="bad cell reference",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="2"><c r="C2" t="b"><v>yes</v></c></row>'),
            "cell C2 holds 'yes', which is not true or false",
            id="bad flag",
        ),
        pytest.param(
            sheet(HEADER_ROW + '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
            "a row is numbered '1' after row 1",
            id="rows out of order",
        ),
    ],
)
def test_unreadable_sheet_is_refused_with_its_reason(part: bytes, message: str) -> None:
    refused, seconds = _refusal(workbook(part))

    assert refused == f"{READABLE}{message}."
    assert seconds < 1
