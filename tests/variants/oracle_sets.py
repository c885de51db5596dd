"""The form in which recorded oracle data (tests/data/variants/ludii_*.json and
long_nardy_engine.json) hold another program's legal turns.

A position is written as text, each side in its own numbering, the side that moved
first: ``"6:5,8:3,13:5,24:2;b0;o0;p/..."`` (point:count in point order, bar, off, the
points where that side's checker lies pinned). A set of results is kept as its size and
a digest: the first 12 hex digits of the SHA-256 of the sorted texts, one per line.
Where a whole set is kept, each position is written as its change from the turn's start
(:func:`change_text`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tourney.rules.layout import BoardLayout, SideLayout

DATA = Path(__file__).resolve().parent.parent / "data" / "variants"

def side_text(side: SideLayout) -> str:
    """One side as text: ``point:count,...;b<bar>;o<off>;p<pinned points>``."""
    points = ",".join(f"{point}:{count}" for point, count in sorted(side.points.items()))
    pins = ",".join(str(point) for point in sorted(side.pins))
    return f"{points};b{side.bar};o{side.off};p{pins}"


def layout_text(layout: BoardLayout) -> str:
    """A position as text, the side that moved first."""
    return f"{side_text(layout.mover)}/{side_text(layout.opponent)}"


def text_layout(text: str) -> BoardLayout:
    """The layout a text names (the inverse of :func:`layout_text`)."""
    sides = []
    for part in text.split("/"):
        points, bar, off, pins = part.split(";")
        counts = {int(point): int(count)
                  for point, count in (item.split(":") for item in points.split(",") if item)}
        pinned = tuple(int(point) for point in pins[1:].split(",") if point)
        sides.append(SideLayout(counts, int(bar[1:]), 0, int(off[1:]), pinned))
    return BoardLayout(sides[0], sides[1])


def _side_change(start: SideLayout, end: SideLayout) -> str:
    points = sorted(set(start.points) | set(end.points))
    text = ",".join(f"{point}:{end.points.get(point, 0)}" for point in points
                    if start.points.get(point, 0) != end.points.get(point, 0))
    if end.bar != start.bar:
        text += f";b{end.bar}"
    if end.off != start.off:
        text += f";o{end.off}"
    if sorted(end.pins) != sorted(start.pins):
        text += ";p" + ",".join(str(point) for point in sorted(end.pins))
    return text


def change_text(start: BoardLayout, end: BoardLayout) -> str:
    """``end`` as its change from ``start``, per side (the mover first, ``/`` between):
    the points whose count changed with their new count, then ``;b``, ``;o`` and ``;p``
    with the new bar, off and pinned points where they changed."""
    return f"{_side_change(start.mover, end.mover)}/{_side_change(start.opponent, end.opponent)}"


def _side_changed(start: SideLayout, change: str) -> SideLayout:
    points, *rest = change.split(";")
    counts = dict(start.points)
    for item in filter(None, points.split(",")):
        point, count = (int(part) for part in item.split(":"))
        counts[point] = count
    bar, off, pins = start.bar, start.off, tuple(start.pins)
    for item in rest:
        if item[0] == "b":
            bar = int(item[1:])
        elif item[0] == "o":
            off = int(item[1:])
        else:
            pins = tuple(int(point) for point in item[1:].split(",") if point)
    return SideLayout({point: count for point, count in counts.items() if count}, bar, 0,
                      off, pins)


def changed_layout(start: BoardLayout, change: str) -> BoardLayout:
    """The layout :func:`change_text` wrote as ``change`` from ``start``."""
    mover, opponent = change.split("/")
    return BoardLayout(_side_changed(start.mover, mover), _side_changed(start.opponent, opponent))


def summary(texts: set[str]) -> str:
    """``"<size>:<digest>"`` of a set of position texts."""
    joined = "\n".join(sorted(texts)).encode()
    return f"{len(texts)}:{hashlib.sha256(joined).hexdigest()[:12]}"


def load(stem: str) -> dict[str, Any]:
    """The recorded data file ``tests/data/variants/<stem>.json``."""
    data: dict[str, Any] = json.loads((DATA / f"{stem}.json").read_text())
    return data
