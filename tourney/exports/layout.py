"""Where a bracket's matches go on a drawsheet page or a Bracket sheet.

Terminology: a *leaf* is a match none of whose sides comes from a match on the same page;
leaves are spaced evenly, two slot lines each. Every other match sits between the matches
that feed it (or, for a side dropping in from another flight, just below its one feeder),
so the lines joining winners to their next slot never cross.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tourney.store.documents import MatchDocument


@dataclass
class Placed:
    """A match placed on a page: its column and the heights of its two slot lines."""

    match: MatchDocument
    column: int
    ya: float
    yb: float

    @property
    def out(self) -> float:
        """The height of the winner's line in the next column."""
        return (self.ya + self.yb) / 2


def layout(
    matches: Sequence[MatchDocument], height: float, max_spacing: float
) -> tuple[list[Placed], float]:
    """Place every match's two slot lines; returns the placements and the leaf spacing."""
    rounds = sorted({m.round for m in matches})
    column = {r: i for i, r in enumerate(rounds)}
    keys = {m.key for m in matches}
    leaves = [m for m in matches if not any(f in keys for f in m.feeders if f)]
    slots = 2 * len(leaves)
    spacing = min(height / max(slots, 1), max_spacing)
    top = (height - spacing * slots) / 2
    placed: dict[str, Placed] = {}
    leaf_index = {m.key: i for i, m in enumerate(leaves)}
    for m in sorted(matches, key=lambda m: (m.round, m.number)):
        if m.key in leaf_index:
            i = leaf_index[m.key]
            ya = top + spacing * (2 * i + 0.5)
            yb = ya + spacing
        else:
            fa = placed.get(m.feeders[0] or "")
            fb = placed.get(m.feeders[1] or "")
            if fa and fb:
                ya, yb = fa.out, fb.out
            else:
                anchor = fa or fb
                assert anchor is not None
                d = max(abs(anchor.yb - anchor.ya) / 2, spacing / 2)
                ya, yb = (anchor.out, anchor.out + d) if fa else (anchor.out - d, anchor.out)
        placed[m.key] = Placed(m, column[m.round], ya, yb)
    return list(placed.values()), spacing
