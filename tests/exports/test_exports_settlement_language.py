"""The money sheets (a session's settlement, the payout sheet, the ledger) printed and as
workbooks in the reader's language.

The German words come from a small stand-in catalogue written here, as a German club
would word them; everything the sheet was not given as a message (a player's name, an
amount) is printed as it is, even when it reads like a word of the catalogue.
"""

from __future__ import annotations

import io
import re
from gettext import NullTranslations
from pathlib import Path

import pytest
from exports_builders import pdf_text
from openpyxl import load_workbook

from tourney import i18n
from tourney.exports.settlement import render_settlement_pdf, render_settlement_xlsx
from tourney.rules.messages import N_, ListMessage, Message
from tourney.store.documents import SettlementDocument, SheetTable

GERMAN = {
    "Stake: %(stake)s": "Einsatz: %(stake)s",
    "%(mode)s, %(amount)s a unit": "%(mode)s, %(amount)s je Einheit",
    "Per point": "Pro Punkt",
    "Totals": "Summen",
    "Games": "Partien",
    "Settlement": "Abrechnung",
    "Player": "Spieler",
    "Units": "Einheiten",
    "How": "Wie",
    "Winner": "Sieger",
    "gammon": "Gammon",
    "resigned": "aufgegeben",
    "None.": "Keine.",
    "Session": "Sitzung",
}


class _German(NullTranslations):
    """The stand-in catalogue: the words above, English for anything else."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.core_catalogue
    monkeypatch.setattr(
        i18n, "core_catalogue", lambda code: _German() if code == "de" else real(code)
    )


def _sheet() -> SettlementDocument:
    """A two-player session: "Winner" is a player's nickname, not the catalogue's word."""
    stake = Message("%(mode)s, %(amount)s a unit", mode=N_("Per point"), amount="EUR 1.00")
    return SettlementDocument(
        stem="club-night-table-1-settlement",
        title="Table 1",
        lines=(Message("Stake: %(stake)s", stake=stake),),
        tables=(
            SheetTable(N_("Totals"), (N_("Player"), N_("Units")), (("Winner", 4),), numeric=(1,)),
            SheetTable(N_("Settlement"), (N_("Player"), N_("Units")), ()),
            SheetTable(
                N_("Games"),
                (N_("Winner"), N_("How")),
                (("Winner", ListMessage((N_("gammon"), N_("resigned")))),),
            ),
        ),
    )


def test_the_printed_sheet_reads_in_german_and_names_stay_as_they_are(
    german: None, tmp_path: Path
) -> None:
    rendered = render_settlement_pdf(_sheet(), language="de")
    text = re.sub(r"[ \t]+", " ", pdf_text(rendered.content, tmp_path))

    assert rendered.filename == "club-night-table-1-settlement.pdf"
    assert "Einsatz: Pro Punkt, EUR 1.00 je Einheit" in text
    assert "Summen\nSpieler Einheiten\nWinner 4" in text
    assert "Abrechnung\nKeine." in text
    assert "Partien\nSieger Wie\nWinner Gammon, aufgegeben" in text


def test_the_workbook_names_its_sheets_and_headings_in_german(german: None) -> None:
    rendered = render_settlement_xlsx(_sheet(), language="de")
    workbook = load_workbook(io.BytesIO(rendered.content))

    assert workbook.sheetnames == ["Sitzung", "Summen", "Abrechnung", "Partien"]
    assert list(workbook["Sitzung"].iter_rows(values_only=True)) == [
        ("Table 1",),
        ("Einsatz: Pro Punkt, EUR 1.00 je Einheit",),
    ]
    assert list(workbook["Summen"].iter_rows(values_only=True)) == [
        ("Spieler", "Einheiten"),
        ("Winner", 4),
    ]
    assert list(workbook["Partien"].iter_rows(values_only=True)) == [
        ("Sieger", "Wie"),
        ("Winner", "Gammon, aufgegeben"),
    ]


def test_english_is_the_sheet_as_written(german: None, tmp_path: Path) -> None:
    text = re.sub(r"[ \t]+", " ", pdf_text(render_settlement_pdf(_sheet()).content, tmp_path))

    assert "Stake: Per point, EUR 1.00 a unit" in text
    assert "Settlement\nNone." in text
    assert "Games\nWinner How\nWinner gammon, resigned" in text
