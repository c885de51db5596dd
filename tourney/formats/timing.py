"""Clocks and round-time planning, as pure functions over plain data.

The planner answers the questions a director asks during an event: how long will this
round take, when does the next one start, when is the final, which matches are running
late. It works from match lengths and the start and finish stamps of the matches, and
from a *duration model* (how many seconds a point of match length takes).

Terminology:
    clock           a backgammon clock: each player has ``seconds_per_point`` × the match
                    length on it, and a ``delay`` per move before their time runs (DESIGN
                    §8: 2 minutes a point and 12 seconds by default).
    duration model  seconds a match takes per point of its length. By default
                    :data:`DEFAULT_SECONDS_PER_POINT` (8 minutes a point: a 7-point match
                    takes 56 minutes, a club's rule of thumb); once a club has
                    :data:`HISTORY_MINIMUM` timed matches (started and finished stamps, a
                    plausible rate), the median of their seconds per point instead.
    budget          of a match: the duration the model expects for its length.
    late            a running match whose running time is beyond its budget.
    round plan      a round starts when every round it depends on has ended (the previous
                    round of its flight, and the rounds whose winners or losers it takes:
                    a consolation's first round waits for the main draw's first round, so
                    flights fed from one another run in parallel, offset) and not before
                    *now*; it ends when its slowest expected match ends. A decided match
                    ends at its finish stamp; a running one at its start plus its budget
                    (never before now); a waiting one starts at the round's start (never
                    before now) and takes its budget. Tables are assumed to be enough for
                    every match of a round at once.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

DEFAULT_SECONDS_PER_POINT_ON_CLOCK = 120
"""Each player's time per point of match length on the clock (DESIGN §8)."""
DEFAULT_DELAY_SECONDS = 12
"""The clock's delay per move (DESIGN §8)."""
MAX_SECONDS_PER_POINT_ON_CLOCK = 30 * 60
MAX_DELAY_SECONDS = 120

DEFAULT_SECONDS_PER_POINT = 8 * 60
"""The planner's default: a match takes 8 minutes per point of its length."""
HISTORY_MINIMUM = 20
"""Timed matches a club needs before its own median replaces the default."""
PLAUSIBLE_SECONDS_PER_POINT = (60, 60 * 60)
"""Timed matches outside 1 to 60 minutes a point are left out of the history: a match
entered all at once after it was played, or one left running overnight."""
MAX_PLANNED_ROUNDS = 60


@dataclass(frozen=True)
class Clock:
    """A flight's clock settings."""

    seconds_per_point: int = DEFAULT_SECONDS_PER_POINT_ON_CLOCK
    delay_seconds: int = DEFAULT_DELAY_SECONDS

    def reserve_seconds(self, length: int) -> int:
        """Each player's time on the clock for a match to ``length`` points.

        >>> Clock().reserve_seconds(7)
        840
        """
        return self.seconds_per_point * length

    @property
    def is_default(self) -> bool:
        """The clock DESIGN §8 names: 2 minutes a point and a 12-second delay."""
        return self == Clock()


@dataclass(frozen=True)
class TimedMatch:
    """A finished match of the club's history: its length and how long it took."""

    length: int
    seconds: float


@dataclass(frozen=True)
class DurationModel:
    """Seconds a match takes per point of its length, and where that figure comes from."""

    seconds_per_point: int = DEFAULT_SECONDS_PER_POINT
    samples: int = 0
    """The timed matches it is the median of; 0: the default."""

    @property
    def from_history(self) -> bool:
        """Learnt from the club's own timed matches."""
        return self.samples > 0

    def match_seconds(self, length: int) -> int:
        """The budget of a match to ``length`` points.

        >>> DurationModel().match_seconds(7)
        3360
        """
        return self.seconds_per_point * length


def duration_model(history: Iterable[TimedMatch]) -> DurationModel:
    """The club's duration model: the median seconds per point of its plausible timed
    matches once there are :data:`HISTORY_MINIMUM` of them, else the default."""
    low, high = PLAUSIBLE_SECONDS_PER_POINT
    rates = [
        m.seconds / m.length
        for m in history
        if m.length > 0 and low <= m.seconds / m.length <= high
    ]
    if len(rates) < HISTORY_MINIMUM:
        return DurationModel()
    return DurationModel(round(median(rates)), len(rates))


def expected_lives_rounds(players: int, lives: int) -> int:
    """Rounds a Swiss played on lives is expected to take: the field is followed as
    fractions by losses, half of each group losing every round, until at most one
    player has lives left.

    >>> expected_lives_rounds(8, 1)
    3
    >>> expected_lives_rounds(8, 2)
    6
    """
    if players < 2 or lives < 1:
        return 0
    by_losses = [float(players)] + [0.0] * (lives - 1)
    rounds = 0
    while sum(by_losses) > 1 and rounds < MAX_PLANNED_ROUNDS:
        moved = [count / 2 for count in by_losses]
        by_losses = [
            by_losses[losses] - moved[losses] + (moved[losses - 1] if losses else 0.0)
            for losses in range(lives)
        ]
        rounds += 1
    return rounds


def swiss_rounds_expected(players: int, *, rounds: int | None, lives: int | None) -> int:
    """Rounds a Swiss will play: the number set, else on lives the estimate above, else
    ceil(log2 players)."""
    if rounds is not None:
        return rounds
    if lives is not None:
        return expected_lives_rounds(players, lives)
    return math.ceil(math.log2(players)) if players > 1 else 0


# --- the timetable -------------------------------------------------------------------

RoundKey = tuple[Hashable, int]
"""(flight key, round number)."""


@dataclass(frozen=True)
class PlannedMatch:
    """A match as the planner sees it."""

    key: Hashable
    length: int
    started_at: datetime | None = None
    finished_at: datetime | None = None
    decided: bool = False
    """Has a result (played, walkover, bye). Decided without a finish stamp: it takes
    no time."""


@dataclass(frozen=True)
class PlannedRound:
    """A round: its matches (for a round not paired yet, one stand-in per length) and
    the rounds of other flights it takes players from."""

    number: int
    name: str
    matches: tuple[PlannedMatch, ...]
    after: tuple[RoundKey, ...] = ()
    """Rounds (of any flight) that must end before this one starts, besides the previous
    round of its own flight."""
    is_paired: bool = True
    """False: a round still to come, planned from its match length alone."""


@dataclass(frozen=True)
class PlannedFlight:
    """A flight and its rounds in order."""

    key: Hashable
    name: str
    rounds: tuple[PlannedRound, ...]


@dataclass(frozen=True)
class MatchPlan:
    """When a match is expected to start and end, and whether it is running late."""

    key: Hashable
    budget_seconds: int
    expected_start: datetime
    expected_end: datetime
    started_at: datetime | None
    running_seconds: int | None
    """How long it has been running (none: not running)."""
    is_late: bool


@dataclass(frozen=True)
class RoundPlan:
    """A round's expected start and end."""

    flight_key: Hashable
    number: int
    name: str
    start: datetime
    end: datetime
    is_finished: bool
    is_under_way: bool
    is_paired: bool
    matches: tuple[MatchPlan, ...]

    @property
    def seconds(self) -> int:
        """The round's expected duration."""
        return int((self.end - self.start).total_seconds())


@dataclass(frozen=True)
class FlightPlan:
    """A flight's rounds as planned."""

    key: Hashable
    name: str
    rounds: tuple[RoundPlan, ...]

    @property
    def start(self) -> datetime | None:
        """When the flight's first round starts (none: no round)."""
        return self.rounds[0].start if self.rounds else None

    @property
    def end(self) -> datetime | None:
        """When its last round is expected to end."""
        return self.rounds[-1].end if self.rounds else None

    @property
    def final(self) -> RoundPlan | None:
        """Its last round (a knockout's final)."""
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True)
class Timetable:
    """Every flight's plan at ``now`` under ``model``."""

    now: datetime
    model: DurationModel
    flights: tuple[FlightPlan, ...]

    @property
    def end(self) -> datetime | None:
        """When the last flight is expected to end."""
        ends = [f.end for f in self.flights if f.end is not None]
        return max(ends) if ends else None

    @property
    def late(self) -> tuple[MatchPlan, ...]:
        """Running matches beyond their budget, longest overdue first."""
        found = [m for f in self.flights for r in f.rounds for m in r.matches if m.is_late]
        return tuple(sorted(found, key=lambda m: m.expected_start))

    def match(self, key: Hashable) -> MatchPlan | None:
        """The plan of one match, if planned."""
        for f in self.flights:
            for r in f.rounds:
                for m in r.matches:
                    if m.key == key:
                        return m
        return None


def plan_match(
    match: PlannedMatch, model: DurationModel, start: datetime, now: datetime
) -> MatchPlan:
    """One match's plan in a round that starts at ``start`` (see the module)."""
    budget = model.match_seconds(match.length)
    span = timedelta(seconds=budget)
    if match.decided:
        begun = match.started_at or match.finished_at or start
        ended = match.finished_at or start
        return MatchPlan(match.key, budget, begun, ended, match.started_at, None, False)
    if match.started_at is not None:
        running = max(0, int((now - match.started_at).total_seconds()))
        end = max(match.started_at + span, now)
        return MatchPlan(
            match.key, budget, match.started_at, end, match.started_at, running, running > budget
        )
    begins = max(start, now)
    return MatchPlan(match.key, budget, begins, begins + span, None, None, False)


def plan_timetable(
    flights: Sequence[PlannedFlight], *, model: DurationModel, now: datetime
) -> Timetable:
    """Plan every round of ``flights`` (see the module's terminology).

    Rounds are planned once every round they depend on is; a dependency on a round the
    flights do not hold is ignored, and so is a cycle (its rounds start at ``now``).
    """
    ends: dict[RoundKey, datetime] = {}
    plans: dict[RoundKey, RoundPlan] = {}
    waiting: list[tuple[RoundKey, PlannedRound, tuple[RoundKey, ...]]] = []
    known = {(f.key, r.number) for f in flights for r in f.rounds}
    for f in flights:
        previous: RoundKey | None = None
        for r in f.rounds:
            deps = tuple(d for d in (*((previous,) if previous else ()), *r.after) if d in known)
            waiting.append(((f.key, r.number), r, deps))
            previous = (f.key, r.number)
    while waiting:
        ready = [w for w in waiting if all(d in ends for d in w[2])]
        if not ready:
            # A cycle in the links: plan the rest as if they could start now.
            ready = [(key, r, tuple(d for d in deps if d in ends)) for key, r, deps in waiting]
        for key, r, deps in ready:
            plans[key] = _plan_round(key, r, [ends[d] for d in deps], model, now)
            ends[key] = plans[key].end
        done = {w[0] for w in ready}
        waiting = [w for w in waiting if w[0] not in done]
    return Timetable(
        now,
        model,
        tuple(
            FlightPlan(f.key, f.name, tuple(plans[(f.key, r.number)] for r in f.rounds))
            for f in flights
        ),
    )


def _plan_round(
    key: RoundKey,
    rnd: PlannedRound,
    dependency_ends: Sequence[datetime],
    model: DurationModel,
    now: datetime,
) -> RoundPlan:
    begun = [m.started_at for m in rnd.matches if m.started_at is not None]
    finished = bool(rnd.matches) and all(m.decided for m in rnd.matches)
    if begun:
        start = min(begun)
    elif finished:
        # Played without start marks: from when its players were free, or its first finish.
        stamps = [m.finished_at for m in rnd.matches if m.finished_at is not None]
        candidates = [max(dependency_ends)] if dependency_ends else []
        candidates += [min(stamps)] if stamps else []
        start = min(candidates) if candidates else now
    else:
        start = max([now, *dependency_ends])
    matches = tuple(plan_match(m, model, start, now) for m in rnd.matches)
    end = max([start, *(m.expected_end for m in matches)])
    return RoundPlan(
        flight_key=key[0],
        number=rnd.number,
        name=rnd.name,
        start=start,
        end=end,
        is_finished=finished,
        is_under_way=bool(begun) and not finished,
        is_paired=rnd.is_paired,
        matches=matches,
    )
