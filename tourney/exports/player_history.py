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
from tourney.store.rating_documents import PlayerHistory

_CHART_ASPECT = 2.6 / 6.4
"""Height over width of the chart (``rating_chart_png`` draws 6.4 by 2.6 inches)."""


def _facts(history: PlayerHistory) -> str:
    count = len(history.lines)
    facts = [
        f"Rating {history.rating:.2f}",
        f"Experience {history.experience}",
        f"{count} rated match{'' if count == 1 else 'es'} at the club",
        f"Started at {history.start:.2f}",
    ]
    if history.provisional:
        facts.append(f"Provisional: below {history.provisional_below} experience")
    if history.nemesis is not None:
        n = history.nemesis
        facts.append(f"Nemesis: {n.opponent} ({n.wins}-{n.losses})")
    return " · ".join(facts)


def render_player_history_pdf(history: PlayerHistory, *, stem: str) -> Rendered:
    """The player's history on A4: name and club, the facts, the chart, the matches
    (newest first) and the head-to-head table; ``stem`` names the file."""
    styles = paragraph_styles()
    width = A4[0] - 2 * MARGIN
    chart = rating_chart_png(history.ratings_in_order, start=history.start)
    story: list[Any] = [
        Paragraph(escape_markup(f"{history.name} at {history.club_name}"), styles["h1"]),
        Paragraph(escape_markup(_facts(history)), styles["note"]),
        Image(io.BytesIO(chart), width=width, height=width * _CHART_ASPECT),
        Paragraph("Rated matches, newest first", styles["h2"]),
    ]
    widths = [w * width for w in (0.12, 0.26, 0.24, 0.14, 0.12, 0.12)]
    rows: list[list[Any]] = [["Date", "Event", "Opponent", "Result", "Change", "Rating"]]
    for line in history.lines:
        rows.append(
            [
                line.finished_at.date().isoformat(),
                cut_to_width(line.event_name, widths[1]),
                cut_to_width(line.opponent, widths[2]),
                f"{'Won' if line.won else 'Lost'} {line.score_text}",
                f"{line.change:+.2f}",
                f"{line.rating_after:.2f}",
            ]
        )
    story.append(table_flowable(rows, widths, align_right=(4, 5)))
    story.append(Spacer(1, 8))
    story.append(Paragraph("Head to head", styles["h2"]))
    h2h_widths = [width * 0.5, width * 0.25, width * 0.25]
    h2h: list[list[Any]] = [["Opponent", "Won", "Lost"]]
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
        title=f"{history.name} — rating history at {history.club_name}",
        author="tourney",
        invariant=1,
    ).build(story)
    return Rendered(buffer.getvalue(), stem, "pdf", PDF)
