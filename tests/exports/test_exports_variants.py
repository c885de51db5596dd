"""Score sheets of a long-nardy event name the variant and use its words."""

from __future__ import annotations

import re
from pathlib import Path

from exports_builders import pdf_text

from tourney.exports.documents import documents_from_simulation
from tourney.exports.pdf import render_scoresheets_pdf
from tourney.formats.simulation import SimulationOptions


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_scoresheet_long_nardy_says_oin_and_mars(tmp_path: Path) -> None:
    options = SimulationOptions("knockout", 4, match_length=5, seed=3, variant="long")
    document = documents_from_simulation(options)

    text = _squash(pdf_text(render_scoresheets_pdf(document, round_number=1).content, tmp_path))

    assert (document.variant, document.rules) == ("long-nardy", ("Long nardy", "No doubling cube"))
    assert "Match to 5 points · Long nardy" in text
    assert "Long nardy without the doubling cube: every game at 1 (oin 1, mars 2)." in text
    assert "Ended (played, resigned · oin, mars)" in text
    assert re.search(r"played · (oin|mars)", text)
    assert ("single" in text, "gammon" in text, "Crawford" in text) == (False, False, False)


def test_scoresheet_standard_keeps_the_crawford_line(tmp_path: Path) -> None:
    options = SimulationOptions("knockout", 4, match_length=5, seed=3)
    document = documents_from_simulation(options)

    text = _squash(pdf_text(render_scoresheets_pdf(document, round_number=1).content, tmp_path))

    assert (document.variant, document.rules) == ("standard", ("Crawford rule",))
    assert "Ended (played, dropped, resigned · single, gammon, bg)" in text
    assert "Long nardy" not in text
