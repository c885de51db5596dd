"""Positions of any variant as plain layouts, and their JSON form.

Terminology: a *layout* (:class:`BoardLayout`) says where each side's checkers are in
that side's own numbering (VARIANTS.md 0.3): points 1-24, the bar, the pool of checkers
not yet entered, the borne-off tray, and the points where its single checker lies pinned.
Every variant turns its own position type into a layout and back, so one JSON form
(DESIGN.md section 6) reads and writes positions of every variant:

``{"on_roll": "x", "x": {"points": {"24": 2, ...}, "bar": 0, "pool": 0, "off": 0},
"o": {...}, "pins": {"x": [], "o": []}, "turns_played": {"x": 0, "o": 0}}``
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tourney.rules.errors import NotationError

SIDES = ("x", "o")
"""The two sides as the JSON form names them."""
MAX_JSON_CHARS = 20_000
"""A position is a few hundred characters; anything far longer is not one."""


@dataclass(frozen=True, slots=True)
class SideLayout:
    """One side's checkers in its own numbering."""

    points: Mapping[int, int] = field(default_factory=dict)
    """Checkers on each own point 1-24 (points not named hold none)."""
    bar: int = 0
    pool: int = 0
    off: int = 0
    pins: tuple[int, ...] = ()
    """Own points where this side's single checker is pinned under the other side's."""
    been_home: bool = False
    """Whether the side has had a checker in its home board (kept only by Dutch
    backgammon's historical hitting rule); the JSON form writes it only when true."""


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Both sides' layouts, the side on roll first."""

    mover: SideLayout
    opponent: SideLayout
    turns_played: tuple[int, int] = (0, 0)
    """Turns played by (mover, opponent), for rules that count them."""


@dataclass(frozen=True, slots=True)
class JsonPosition:
    """A position read from the JSON form: the layout, who is on roll, turns played."""

    layout: BoardLayout
    on_roll: str
    """``x`` or ``o``."""
    turns_played: tuple[int, int]
    """Turns played by (x, o)."""


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
        raise NotationError(f"{what} must be a whole number from 0 to 99, not {value!r}")
    return value


def _side(data: Any, pins: Any, name: str) -> SideLayout:
    if not isinstance(data, dict):
        raise NotationError(f"side {name!r} must be an object with points, bar, pool and off")
    unknown = set(data) - {"points", "bar", "pool", "off", "been_home"}
    if unknown:
        raise NotationError(f"side {name!r} has unknown keys: {', '.join(sorted(unknown))}")
    raw_points = data.get("points", {})
    if not isinstance(raw_points, dict):
        raise NotationError(f"{name}.points must map point numbers to counts")
    points: dict[int, int] = {}
    for key, value in raw_points.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= 24):
            raise NotationError(f"{name}.points: {key!r} is not a point from 1 to 24")
        if _count(value, f"{name}.points[{key}]"):
            points[int(key)] = value
    if not isinstance(pins, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 24 for p in pins):
        raise NotationError(f"pins.{name} must be a list of points from 1 to 24")
    been_home = data.get("been_home", False)
    if not isinstance(been_home, bool):
        raise NotationError(f"{name}.been_home must be true or false, not {been_home!r}")
    return SideLayout(points, _count(data.get("bar", 0), f"{name}.bar"),
                      _count(data.get("pool", 0), f"{name}.pool"),
                      _count(data.get("off", 0), f"{name}.off"), tuple(sorted(set(pins))),
                      been_home)


def parse_position_json(text: str) -> JsonPosition:
    """Read the JSON form of a position.

    >>> read = parse_position_json('{"on_roll": "o", "x": {"points": {"24": 15}},'
    ...                            ' "o": {"points": {"24": 15}}}')
    >>> read.on_roll, read.layout.mover.points
    ('o', {24: 15})

    Raises:
        NotationError: not JSON, or not a position in the form.
    """
    if len(text) > MAX_JSON_CHARS:
        raise NotationError(f"a position is at most {MAX_JSON_CHARS} characters of JSON")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotationError(f"the position is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise NotationError("the position must be a JSON object")
    unknown = set(data) - {"on_roll", "x", "o", "pins", "turns_played"}
    if unknown:
        raise NotationError(f"the position has unknown keys: {', '.join(sorted(unknown))}")
    on_roll = data.get("on_roll")
    if on_roll not in SIDES:
        raise NotationError(f'on_roll must be "x" or "o", not {on_roll!r}')
    pins = data.get("pins", {})
    turns = data.get("turns_played", {})
    if not isinstance(pins, dict) or not isinstance(turns, dict) \
            or set(pins) - set(SIDES) or set(turns) - set(SIDES):
        raise NotationError('pins and turns_played must be objects keyed by "x" and "o"')
    sides = {name: _side(data.get(name), pins.get(name, []), name) for name in SIDES}
    other = "o" if on_roll == "x" else "x"
    played = (_count(turns.get("x", 0), "turns_played.x"),
              _count(turns.get("o", 0), "turns_played.o"))
    mover_turns = played if on_roll == "x" else (played[1], played[0])
    return JsonPosition(BoardLayout(sides[on_roll], sides[other], mover_turns), on_roll, played)


def _side_json(side: SideLayout) -> dict[str, Any]:
    written: dict[str, Any] = {
        "points": {str(point): count for point, count in sorted(side.points.items())
                   if count},
        "bar": side.bar, "pool": side.pool, "off": side.off}
    if side.been_home:
        written["been_home"] = True
    return written


def format_position_json(layout: BoardLayout, on_roll: str,
                         turns_played: tuple[int, int]) -> str:
    """The JSON form of a position on one line, keys sorted (``on_roll`` names the side
    whose layout is ``layout.mover``).

    >>> format_position_json(BoardLayout(SideLayout({1: 15}), SideLayout(off=15)), "x", (3, 3))
    '{"o": {"bar": 0, "off": 15, "points": {}, "pool": 0}, "on_roll": "x", "pins": {"o": [], "x": []}, "turns_played": {"o": 3, "x": 3}, "x": {"bar": 0, "off": 0, "points": {"1": 15}, "pool": 0}}'
    """  # noqa: E501 - one JSON line
    other = "o" if on_roll == "x" else "x"
    named = {on_roll: layout.mover, other: layout.opponent}
    document = {
        "on_roll": on_roll,
        "x": _side_json(named["x"]), "o": _side_json(named["o"]),
        "pins": {name: sorted(named[name].pins) for name in SIDES},
        "turns_played": {"x": turns_played[0], "o": turns_played[1]},
    }
    return json.dumps(document, sort_keys=True)


def counts_from_side(side: SideLayout, checkers: int, what: str) -> list[int]:
    """A side as 26 counts (0 off, 1-24 points, 25 bar), checking the total.

    Raises:
        NotationError: the side does not have exactly ``checkers`` checkers.
    """
    counts = [0] * 26
    for point, count in side.points.items():
        counts[point] = count
    counts[25] = side.bar
    counts[0] = side.off
    total = sum(counts) + side.pool
    if total != checkers:
        raise NotationError(f"{what} has {total} checkers; this variant plays {checkers}")
    return counts


def side_from_counts(counts: tuple[int, ...], *, pool: int = 0,
                     pins: tuple[int, ...] = (), been_home: bool = False) -> SideLayout:
    """The layout of a side given as counts (0 off, 1-24 points, 25 bar)."""
    return SideLayout({p: counts[p] for p in range(1, 25) if counts[p]},
                      counts[25] if len(counts) > 25 else 0, pool, counts[0], pins, been_home)
