"""The tiebreak metrics an event can chain after match wins, by name.

Terminology: an entrant's *wins* are matches won (plus byes where the event counts a bye
as a win). *Opponents* are the entrants actually played (a bye has no opponent and adds
nothing to Buchholz). *Net game points* are points won minus points lost, each side's
points in a match capped at the match length N so an overshooting last game does not
count extra. All values are integers.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from tourney.formats.model import EntrantId, MatchOutcome


class Tiebreak(Enum):
    """A tiebreak an event can put in its chain."""

    HEAD_TO_HEAD = "head-to-head"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median-buchholz"
    BUCHHOLZ_CUT1 = "buchholz-minus-worst"
    SONNEBORN_BERGER = "sonneborn-berger"
    NET_GAME_POINTS = "net-game-points"

    @property
    def label(self) -> str:
        """The name as a director reads it in a reason."""
        return _LABELS[self]


_LABELS = {
    Tiebreak.HEAD_TO_HEAD: "head-to-head",
    Tiebreak.BUCHHOLZ: "Buchholz",
    Tiebreak.MEDIAN_BUCHHOLZ: "median Buchholz",
    Tiebreak.BUCHHOLZ_CUT1: "Buchholz minus worst",
    Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger",
    Tiebreak.NET_GAME_POINTS: "net game points",
}


@dataclass(frozen=True, slots=True)
class Record:
    """One entrant's results, as the metrics need them."""

    entrant: EntrantId
    wins: int
    opponents: tuple[EntrantId, ...]
    """One entry per match played (an opponent met twice appears twice)."""
    beaten: tuple[EntrantId, ...]
    net_points: int


def build_records(
    outcomes: Iterable[MatchOutcome],
    *,
    entrants: Collection[EntrantId] = (),
    bye_is_win: bool = True,
) -> dict[EntrantId, Record]:
    """Every entrant's record from the outcomes (entrants with no outcome get zeros)."""
    wins: dict[EntrantId, int] = {e: 0 for e in entrants}
    opponents: dict[EntrantId, list[EntrantId]] = {e: [] for e in entrants}
    beaten: dict[EntrantId, list[EntrantId]] = {e: [] for e in entrants}
    net: dict[EntrantId, int] = {e: 0 for e in entrants}
    for outcome in outcomes:
        for entrant in (outcome.a, outcome.b):
            if entrant is not None:
                wins.setdefault(entrant, 0)
                opponents.setdefault(entrant, [])
                beaten.setdefault(entrant, [])
                net.setdefault(entrant, 0)
        if outcome.b is None:
            if bye_is_win:
                wins[outcome.a] += 1
            continue
        loser = outcome.loser
        assert loser is not None
        wins[outcome.winner] += 1
        beaten[outcome.winner].append(loser)
        for entrant in (outcome.a, outcome.b):
            other = outcome.opponent_of(entrant)
            assert other is not None
            opponents[entrant].append(other)
            won, lost = outcome.points_of(entrant)
            if outcome.length > 0:
                won, lost = min(won, outcome.length), min(lost, outcome.length)
            net[entrant] += won - lost
    return {e: Record(e, wins[e], tuple(opponents[e]), tuple(beaten[e]), net[e]) for e in wins}


Metric = Callable[[Mapping[EntrantId, Record]], dict[EntrantId, int]]


def buchholz(records: Mapping[EntrantId, Record]) -> dict[EntrantId, int]:
    """Sum of the opponents' wins."""
    return {e: sum(records[o].wins for o in r.opponents) for e, r in records.items()}


def median_buchholz(records: Mapping[EntrantId, Record]) -> dict[EntrantId, int]:
    """Buchholz without the best and the worst opponent (with at least three opponents)."""
    out: dict[EntrantId, int] = {}
    for entrant, record in records.items():
        scores = sorted(records[o].wins for o in record.opponents)
        out[entrant] = sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)
    return out


def buchholz_minus_worst(records: Mapping[EntrantId, Record]) -> dict[EntrantId, int]:
    """Buchholz without the worst opponent (with at least two opponents)."""
    out: dict[EntrantId, int] = {}
    for entrant, record in records.items():
        scores = sorted(records[o].wins for o in record.opponents)
        out[entrant] = sum(scores[1:]) if len(scores) >= 2 else sum(scores)
    return out


def sonneborn_berger(records: Mapping[EntrantId, Record]) -> dict[EntrantId, int]:
    """Sum of the wins of the opponents beaten (no draws in backgammon)."""
    return {e: sum(records[o].wins for o in r.beaten) for e, r in records.items()}


def net_game_points(records: Mapping[EntrantId, Record]) -> dict[EntrantId, int]:
    """Points won minus points lost, each match capped at its length."""
    return {e: r.net_points for e, r in records.items()}


METRICS: dict[Tiebreak, Metric] = {
    Tiebreak.BUCHHOLZ: buchholz,
    Tiebreak.MEDIAN_BUCHHOLZ: median_buchholz,
    Tiebreak.BUCHHOLZ_CUT1: buchholz_minus_worst,
    Tiebreak.SONNEBORN_BERGER: sonneborn_berger,
    Tiebreak.NET_GAME_POINTS: net_game_points,
}
"""The metrics that do not depend on which entrants are tied (all but head-to-head)."""


def head_to_head(
    group: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int] | None:
    """Wins within a tied group, or ``None`` when head-to-head cannot decide.

    Head-to-head is used only when it is decisive: every two members of the group have
    played each other, so the mini-table is complete, and it separates someone.
    """
    members = set(group)
    for entrant in members:
        met = set(records[entrant].opponents) & members
        if met != members - {entrant}:
            return None
    mini = {e: sum(1 for o in records[e].beaten if o in members) for e in members}
    if len(set(mini.values())) == 1:
        return None
    return mini
