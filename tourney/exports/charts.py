"""Charts drawn with matplotlib: a player's rating after each rated match.

Figures are made without pyplot (no global state, safe in a server's threads) and written
as SVG with text kept as text and fixed element ids, so the same history always gives the
same bytes; or as PNG for a printed page.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from tourney.i18n import DEFAULT_LANGUAGE, translate
from tourney.rules.messages import N_


def rating_chart_svg(
    ratings: Sequence[float], *, start: float = 1500.0, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """The rating after each rated match (match 0: ``start``), as an SVG line chart with
    the starting rating marked, its axes named in ``language``."""
    return _rating_chart(ratings, start=start, image_format="svg", language=language)


def rating_chart_png(
    ratings: Sequence[float],
    *,
    start: float = 1500.0,
    dpi: int = 200,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The chart of :func:`rating_chart_svg` as a PNG image (``dpi`` dots per inch of its
    6.4 by 2.6 inches), for a PDF."""
    return _rating_chart(ratings, start=start, image_format="png", dpi=dpi, language=language)


def _rating_chart(
    ratings: Sequence[float],
    *,
    start: float,
    image_format: str,
    dpi: int = 100,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    # Imported here: matplotlib takes a while to load, and only this chart needs it.
    from matplotlib import rc_context
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    with rc_context({"svg.hashsalt": "tourney", "svg.fonttype": "none", "font.size": 9}):
        figure = Figure(figsize=(6.4, 2.6), dpi=dpi)
        axes = figure.add_subplot()
        points = [start, *ratings]
        axes.plot(range(len(points)), points, color="#1f6f4a", marker="o", markersize=3)
        axes.axhline(start, color="#999999", linewidth=0.8, linestyle="--")
        # Matches are counted in whole numbers: no tick at 1.5 matches.
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.set_xlabel(translate(N_("Rated matches played"), language))
        axes.set_ylabel(translate(N_("Rating"), language))
        axes.grid(axis="y", color="#e0e0e0", linewidth=0.6)
        axes.spines[["top", "right"]].set_visible(False)
        figure.tight_layout()
        buffer = io.BytesIO()
        # No date or software stamp: the same history gives the same bytes.
        stamp = {"Date": None} if image_format == "svg" else {"Software": None}
        figure.savefig(buffer, format=image_format, metadata=stamp, dpi=dpi)
    return buffer.getvalue()
