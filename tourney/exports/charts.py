"""Charts drawn with matplotlib: a player's rating after each rated match.

Figures are made without pyplot (no global state, safe in a server's threads) and written
as SVG with text kept as text and fixed element ids, so the same history always gives the
same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence


def rating_chart_svg(ratings: Sequence[float], *, start: float = 1500.0) -> bytes:
    """The rating after each rated match (match 0: ``start``), as an SVG line chart with
    the starting rating marked."""
    # Imported here: matplotlib takes a while to load, and only this chart needs it.
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with rc_context({"svg.hashsalt": "tourney", "svg.fonttype": "none", "font.size": 9}):
        figure = Figure(figsize=(6.4, 2.6))
        axes = figure.add_subplot()
        points = [start, *ratings]
        axes.plot(range(len(points)), points, color="#1f6f4a", marker="o", markersize=3)
        axes.axhline(start, color="#999999", linewidth=0.8, linestyle="--")
        axes.set_xlabel("Rated matches played")
        axes.set_ylabel("Rating")
        axes.grid(axis="y", color="#e0e0e0", linewidth=0.6)
        axes.spines[["top", "right"]].set_visible(False)
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()
