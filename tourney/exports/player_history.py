"""A player's rating history at a club, printed: the rating chart (drawn by matplotlib,
embedded as a PNG image) above the table of every rated match and the head-to-head
record."""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer

from tourney.exports import PDF, Rendered
from tourney.exports.charts import rating_chart_png
from tourney.exports.pdf import (
    MARGIN,
    cut_to_width,
    escape_markup,
    paragraph_styles,
    table_flowable,
)
from tourney.i18n import DEFAULT_LANGUAGE, format_day, translate
from tourney.rules.messages import N_, DottedListMessage, Message, PluralMessage
from tourney.store.rating_documents import PlayerHistory

_CHART_ASPECT = 2.6 / 6.4
"""Height over width of the chart (``rating_chart_png`` draws 6.4 by 2.6 inches)."""


def _facts(history: PlayerHistory) -> DottedListMessage:
    count = len(history.lines)
    facts: list[str] = [
        Message("Rating %(rating)s", rating=f"{history.rating:.2f}"),
        Message("Experience %(experience)s", experience=history.experience),
        PluralMessage(
            "%(count)s rated match at the club", "%(count)s rated matches at the club", count
        ),
        Message("Started at %(rating)s", rating=f"{history.start:.2f}"),
    ]
    if history.provisional:
        facts.append(Message(
            "Provisional: below %(experience)s experience",
            experience=history.provisional_below,
        ))
    if history.nemesis is not None:
        n = history.nemesis
        facts.append(Message(
            "Nemesis: %(opponent)s (%(wins)s-%(losses)s)",
            opponent=n.opponent, wins=n.wins, losses=n.losses,
        ))
    return DottedListMessage(tuple(facts))


def render_player_history_pdf(
    history: PlayerHistory, *, stem: str, language: str = DEFAULT_LANGUAGE
) -> Rendered:
    """The player's history on A4: name and club, the facts, the chart, the matches
    (newest first) and the head-to-head table, in ``language``; ``stem`` names the file."""

    def tr(text: str) -> str:
        return translate(text, language)

    styles = paragraph_styles()
    width = A4[0] - 2 * MARGIN
    chart = rating_chart_png(history.ratings_in_order, start=history.start, language=language)
    story: list[Any] = [
        Paragraph(
            escape_markup(tr(Message(
                "%(player)s at %(club)s", player=history.name, club=history.club_name
            ))),
            styles["h1"],
        ),
        Paragraph(escape_markup(tr(_facts(history))), styles["note"]),
        Image(io.BytesIO(chart), width=width, height=width * _CHART_ASPECT),
        Paragraph(escape_markup(tr(N_("Rated matches, newest first"))), styles["h2"]),
    ]
    widths = [w * width for w in (0.12, 0.26, 0.24, 0.14, 0.12, 0.12)]
    headers = (N_("Date"), N_("Event"), N_("Opponent"), N_("Result"), N_("Change"), N_("Rating"))
    rows: list[list[Any]] = [[tr(header) for header in headers]]
    for line in history.lines:
        rows.append(
            [
                format_day(line.finished_at.date(), language),
                cut_to_width(line.event_name, widths[1]),
                cut_to_width(line.opponent, widths[2]),
                tr(
                    Message("Won %(score)s", score=line.score_text)
                    if line.won
                    else Message("Lost %(score)s", score=line.score_text)
                ),
                f"{line.change:+.2f}",
                f"{line.rating_after:.2f}",
            ]
        )
    story.append(table_flowable(rows, widths, align_right=(4, 5)))
    story.append(Spacer(1, 8))
    story.append(Paragraph(escape_markup(tr(N_("Head to head"))), styles["h2"]))
    h2h_widths = [width * 0.5, width * 0.25, width * 0.25]
    h2h: list[list[Any]] = [[tr(N_("Opponent")), tr(N_("Won")), tr(N_("Lost"))]]
    h2h.extend(
        [cut_to_width(h.opponent, h2h_widths[0]), h.wins, h.losses]
        for h in history.head_to_head
    )
    story.append(table_flowable(h2h, h2h_widths, align_right=(1, 2)))
    buffer = io.BytesIO()
    SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=tr(Message(
            "%(player)s — rating history at %(club)s",
            player=history.name, club=history.club_name,
        )),
        author="tourney",
        invariant=1,
    ).build(story)
    return Rendered(buffer.getvalue(), stem, "pdf", PDF)
