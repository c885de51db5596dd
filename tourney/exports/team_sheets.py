"""Team score sheets: one page a fixture, listing its boards with boxes for each board's
score, the boards won and the board points, and the captains' signatures."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

from tourney.exports import PDF, Rendered
from tourney.exports.pdf import MARGIN, escape_markup, paragraph_styles, table_flowable
from tourney.exports.registry import PAPERS
from tourney.formats.rounds import parse_round_name
from tourney.i18n import DEFAULT_LANGUAGE, translate
from tourney.rules.messages import N_, Message
from tourney.store.documents import FixtureSheet


def render_team_scoresheets_pdf(
    sheets: Sequence[FixtureSheet],
    *,
    stem: str,
    paper: str = "a4",
    language: str = DEFAULT_LANGUAGE,
) -> Rendered:
    """The score sheets of ``sheets`` (one page each) as a PDF named ``stem``, its words
    in ``language``."""

    def tr(text: str) -> str:
        return translate(text, language)

    styles = paragraph_styles()
    pagesize = PAPERS[paper].size
    width = pagesize[0] - 2 * MARGIN
    story: list[Any] = []
    for index, sheet in enumerate(sheets):
        if index:
            story.append(PageBreak())
        story.append(Paragraph(escape_markup(sheet.event_name), styles["h1"]))
        story.append(
            Paragraph(
                escape_markup(f"{sheet.flight_name} · {tr(parse_round_name(sheet.round_name))}"),
                styles["note"],
            )
        )
        versus = Message("%(team_a)s v %(team_b)s", team_a=sheet.team_a, team_b=sheet.team_b)
        story.append(Paragraph(escape_markup(tr(versus)), styles["h2"]))
        rows: list[list[Any]] = [[
            tr(N_("Board")), sheet.team_a, sheet.team_b,
            tr(N_("Length")), tr(N_("Score")), tr(N_("Winner")),
        ]]
        for board in sheet.boards:
            score = "" if board.score is None else f"{board.score[0]}–{board.score[1]}"
            winner = ""
            if board.score is not None:
                winner = sheet.team_a if board.score[0] > board.score[1] else sheet.team_b
            rows.append([str(board.board), board.a, board.b, str(board.length), score, winner])
        boards_won, board_points = tr(N_("Boards won:")), tr(N_("Board points:"))
        rows.append(["", boards_won, boards_won, "", "", ""])
        rows.append(["", board_points, board_points, "", "", ""])
        widths = [0.08, 0.27, 0.27, 0.1, 0.12, 0.16]
        story.append(table_flowable(rows, [w * width for w in widths], align_right=(0, 3)))
        story.append(Spacer(1, 10))
        if sheet.result:
            result = tr(Message("Result: %(result)s", result=sheet.result))
            story.append(Paragraph(escape_markup(result), styles["cell"]))
        story.append(
            Paragraph(
                escape_markup(tr(N_(
                    "The fixture goes to the team winning most boards; on a level count to "
                    "more board points (each board's points up to its length), then to the "
                    "top board."
                ))),
                styles["note"],
            )
        )
        story.append(Spacer(1, 24))
        story.append(
            Paragraph(
                escape_markup(
                    tr(Message("Captain %(team)s:", team=sheet.team_a))
                    + " ____________________    "
                    + tr(Message("Captain %(team)s:", team=sheet.team_b))
                    + " ____________________"
                ),
                styles["cell"],
            )
        )
    if not story:
        story.append(Paragraph(escape_markup(tr(N_("No fixtures to print yet."))), styles["cell"]))
    buffer = io.BytesIO()
    title = sheets[0].event_name if sheets else tr(N_("Team score sheets"))
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=tr(Message("%(event)s — team score sheets", event=title)),
        author="tourney",
        invariant=1,
    )
    doc.build(story)
    return Rendered(buffer.getvalue(), stem, "pdf", PDF)
