"""Match clocks and the event's timetable.

A director marks a match started when its players sit down (``start_match``; one audit
entry); a result sets its finish stamp. The planner (:mod:`tourney.formats.timing`) turns
the stamps and match lengths into each round's expected start and end, each flight's end,
the time of the final and the matches running beyond their budget. Its duration model is
the club's own once the club has enough timed matches (``formats.timing.HISTORY_MINIMUM``
of its latest :data:`HISTORY_WINDOW`), else the default.

Terminology: see :mod:`tourney.formats.timing` (clock, budget, late).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from tourney.formats.flight_formats import flight_format
from tourney.formats.rounds import round_name
from tourney.formats.timing import (
    Clock,
    DurationModel,
    MatchPlan,
    PlannedFlight,
    PlannedMatch,
    PlannedRound,
    RoundPlan,
    TimedMatch,
    Timetable,
    duration_model,
    plan_timetable,
    swiss_rounds_expected,
)
from tourney.rules.messages import N_, Message
from tourney.store.audit import Actor, record
from tourney.store.draws import round_lengths
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    Flight,
    FlightEntry,
    FlightStatus,
    Game,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)
from tourney.store.tournament_views import MatchSummary, flight_players, round_display_name
from tourney.store.types import utcnow

CLOCK_ROWS = 60
"""Matches a flight page's clock list shows at most (a 10,000-player round has 5,000)."""
HISTORY_WINDOW = 500
"""The club's latest timed matches the duration model reads: recent play, bounded work."""

_DECIDED = (
    MatchStatus.FINISHED.value,
    MatchStatus.WALKOVER.value,
    MatchStatus.BYE.value,
)


def flight_clock(flight: Flight) -> Clock:
    """A flight's clock settings."""
    return Clock(flight.clock_seconds_per_point, flight.clock_delay_seconds)


# --- marking a match started ------------------------------------------------------------


def _startable(session: Session, actor: Actor, match_id: int, version: int | None) -> Match:
    match = session.exec(select(Match).where(Match.id == match_id).with_for_update()).first()
    if match is None:
        raise NotFoundError(Message("No such match."))
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    assert flight is not None and rnd is not None
    require_event(session, actor, flight.event_id, manage=False)
    if version is not None and match.version != version:
        raise ConflictError(Message(
            "Someone else saved this match first; nothing was changed. Check the match."
        ))
    if rnd.status == RoundStatus.DRAFT.value:
        raise StoreUserError(Message("This round is not published yet: publish the draw first."))
    if match.entry_a_id is None or match.entry_b_id is None:
        raise StoreUserError(Message("This match has no two players yet."))
    return match


def _audit_start(session: Session, actor: Actor, match: Match, action: str, before: object) -> None:
    flight = session.get(Flight, match.flight_id)
    record(
        session,
        actor=actor,
        action=action,
        entity_type="match",
        entity_id=match.id,
        event_id=flight.event_id if flight else None,
        match_id=match.id,
        before={"started_at": before},
        after={"started_at": match.started_at.isoformat() if match.started_at else None},
    )


def start_match(
    session: Session, *, actor: Actor, match_id: int, expected_version: int | None = None
) -> Match:
    """Mark a match started now: its clock runs against its budget from here.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not on the event's staff.
        ConflictError: the match changed since ``expected_version``.
        StoreUserError: not published, no two players, decided, or started already.
    """
    match = _startable(session, actor, match_id, expected_version)
    if match.status in _DECIDED:
        raise StoreUserError(Message("This match is decided already."))
    if match.started_at is not None:
        raise StoreUserError(Message("This match was started already."))
    match.started_at = utcnow()
    match.status = MatchStatus.PLAYING
    session.flush()
    _audit_start(session, actor, match, "match.start", None)
    return match


def undo_start(
    session: Session, *, actor: Actor, match_id: int, expected_version: int | None = None
) -> Match:
    """Take back a start marked by mistake (only while no game is entered).

    Raises:
        NotFoundError, AccessDeniedError, ConflictError: as ``start_match``.
        StoreUserError: not started, or games are entered already.
    """
    match = _startable(session, actor, match_id, expected_version)
    if match.started_at is None or match.status in _DECIDED:
        raise StoreUserError(Message("This match is not running."))
    if session.exec(select(Game.id).where(Game.match_id == match_id)).first() is not None:
        raise StoreUserError(Message("Games are entered already: the match has started."))
    before = match.started_at.isoformat()
    match.started_at = None
    match.status = MatchStatus.READY
    session.flush()
    _audit_start(session, actor, match, "match.unstart", before)
    return match


# --- the duration model ----------------------------------------------------------------


def club_model(session: Session, event: Event) -> DurationModel:
    """The duration model of the event's club (of the event itself without a club)."""
    timed = (
        sa.select(col(Match.match_length), col(Match.started_at), col(Match.finished_at))
        .join(Flight, col(Flight.id) == Match.flight_id)
        .join(Event, col(Event.id) == Flight.event_id)
        .where(
            col(Match.status) == MatchStatus.FINISHED.value,
            col(Match.started_at).is_not(None),
            col(Match.finished_at).is_not(None),
        )
        .order_by(col(Match.finished_at).desc())
        .limit(HISTORY_WINDOW)
    )
    if event.club_id is not None:
        timed = timed.where(col(Event.club_id) == event.club_id)
    else:
        timed = timed.where(col(Event.id) == event.id)
    return duration_model(
        TimedMatch(length, (finished - started).total_seconds())
        for length, started, finished in session.execute(timed).all()
    )


# --- the timetable ---------------------------------------------------------------------


@dataclass(frozen=True)
class RoundTimes:
    """A round of the timetable."""

    number: int
    name: str
    length: int
    """The longest match of the round."""
    start: datetime
    end: datetime
    minutes: int
    state: str
    """``finished``, ``under way``, ``drawn`` (paired, not started) or ``to come``, a
    word the page shows in its reader's language."""


@dataclass(frozen=True)
class FlightTimes:
    """A flight of the timetable."""

    id: int
    name: str
    clock: Clock
    rounds: tuple[RoundTimes, ...]
    is_knockout: bool

    @property
    def start(self) -> datetime | None:
        """When its first round starts."""
        return self.rounds[0].start if self.rounds else None

    @property
    def end(self) -> datetime | None:
        """When its last round is expected to end."""
        return self.rounds[-1].end if self.rounds else None

    @property
    def final(self) -> RoundTimes | None:
        """A knockout's final (its last round)."""
        return self.rounds[-1] if self.rounds and self.is_knockout else None


@dataclass(frozen=True)
class LateMatch:
    """A running match beyond its budget."""

    match_id: int
    flight_name: str
    round_name: str
    table: str
    players: str
    started_at: datetime
    running_minutes: int
    budget_minutes: int


@dataclass(frozen=True)
class EventTimes:
    """An event's timetable: every flight's rounds with their expected times."""

    event_id: int
    event_name: str
    now: datetime
    model: DurationModel
    flights: tuple[FlightTimes, ...]
    late: tuple[LateMatch, ...]
    plan: Timetable
    match_plans: dict[Hashable, MatchPlan]
    """Each planned match's plan by its id."""

    @property
    def minutes_per_point(self) -> float:
        """The model's minutes per point of match length."""
        return self.model.seconds_per_point / 60

    @property
    def end(self) -> datetime | None:
        """When the last flight is expected to end."""
        return self.plan.end

    def match(self, match_id: int) -> MatchPlan | None:
        """One match's plan."""
        return self.match_plans.get(match_id)

    def clock_rows(
        self, matches: Sequence[MatchSummary], limit: int = CLOCK_ROWS
    ) -> tuple[tuple[MatchSummary, MatchPlan], ...]:
        """The matches awaiting a result with their plans: late ones first, then those
        running (longest first), then those waiting; at most ``limit``."""
        rows = [(m, p) for m in matches if m.awaits_result and (p := self.match(m.id)) is not None]
        rows.sort(
            key=lambda row: (
                not row[1].is_late,
                row[1].started_at is None,
                -(row[1].running_seconds or 0),
                row[0].round_number,
                row[0].position,
            )
        )
        return tuple(rows[:limit])

    def current_round(self, flight_id: int) -> RoundPlan | None:
        """The flight's first round not finished (none: all finished, or no round)."""
        for flight in self.plan.flights:
            if flight.key == flight_id:
                return next((r for r in flight.rounds if not r.is_finished), None)
        return None

    def flight(self, flight_id: int) -> FlightTimes | None:
        """One flight's times."""
        return next((f for f in self.flights if f.id == flight_id), None)


_MatchColumns = tuple[
    int, int, int, int, str, datetime | None, datetime | None, int | None, int | None, str
]


def event_times(session: Session, event_id: int, *, now: datetime | None = None) -> EventTimes:
    """The event's timetable at ``now`` (default: this instant).

    Raises:
        NotFoundError: no such event.
    """
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    now = now or utcnow()
    flights = list(
        session.exec(
            select(Flight)
            .where(Flight.event_id == event_id)
            .order_by(col(Flight.position), col(Flight.id))
            .options(defer(Flight.bracket_plan))  # type: ignore[arg-type]
        )
    )
    ids = [f.id or 0 for f in flights]
    rounds = list(
        session.exec(select(Round).where(col(Round.flight_id).in_(ids)).order_by(col(Round.number)))
    )
    rows: list[_MatchColumns] = [
        tuple(row)
        for row in session.execute(
            sa.select(
                col(Match.id),
                col(Match.flight_id),
                col(Match.round_id),
                col(Match.match_length),
                col(Match.status),
                col(Match.started_at),
                col(Match.finished_at),
                col(Match.winner_to_match_id),
                col(Match.loser_to_match_id),
                col(Match.table_label),
            ).where(col(Match.flight_id).in_(ids), col(Match.status) != MatchStatus.VOID.value)
        ).all()
    ]
    model = club_model(session, event)
    planned = _planned_flights(session, event, flights, rounds, rows)
    plan = plan_timetable(planned, model=model, now=now)
    by_key = {f.key: f for f in planned}
    times = tuple(
        FlightTimes(
            f.id or 0,
            f.name,
            flight_clock(f),
            tuple(
                _round_times(p, r) for p, r in zip(plan_of.rounds, by_key[f.id].rounds, strict=True)
            ),
            flight_format(f.format).is_knockout,
        )
        for f, plan_of in zip(flights, plan.flights, strict=True)
    )
    return EventTimes(
        event_id,
        event.name,
        now,
        model,
        times,
        _late(session, plan, flights, rounds, rows),
        plan,
        {m.key: m for f in plan.flights for r in f.rounds for m in r.matches},
    )


def _round_times(plan: RoundPlan, planned: PlannedRound) -> RoundTimes:
    state = (
        N_("finished")
        if plan.is_finished
        else N_("under way")
        if plan.is_under_way
        else N_("paired")
        if plan.is_paired
        else N_("to come")
    )
    return RoundTimes(
        plan.number,
        plan.name,
        max((m.length for m in planned.matches), default=0),
        plan.start,
        plan.end,
        plan.seconds // 60,
        state,
    )


def _planned_flights(
    session: Session,
    event: Event,
    flights: Sequence[Flight],
    rounds: Sequence[Round],
    rows: Sequence[_MatchColumns],
) -> list[PlannedFlight]:
    """The planner's view of the flights: drawn rounds with their matches, and the rounds
    a Swiss (or an undrawn flight) is still to play, from their match lengths."""
    matches_of: dict[int, list[PlannedMatch]] = {}
    for match_id, _, round_id, length, status, started, finished, *_ in rows:
        matches_of.setdefault(round_id, []).append(
            PlannedMatch(match_id, length, started, finished, status in _DECIDED)
        )
    field = _entrants(session, event.id or 0)
    planned: list[PlannedFlight] = []
    last_round: dict[int, tuple[Hashable, int]] = {}
    for flight in flights:
        fid = flight.id or 0
        own = [r for r in rounds if r.flight_id == fid]
        planned_rounds = [
            PlannedRound(
                r.number,
                round_display_name(r.name, r.number),
                tuple(matches_of.get(r.id or 0, ())),
                _fed_after(flight, r.number),
            )
            for r in own
        ]
        planned_rounds += _rounds_to_come(session, flight, len(own), field, last_round)
        planned.append(PlannedFlight(fid, flight.name, tuple(planned_rounds)))
        if planned_rounds:
            last_round[fid] = (fid, planned_rounds[-1].number)
    return planned


def _fed_after(flight: Flight, number: int) -> tuple[tuple[Hashable, int], ...]:
    """The rounds of the flight it is fed from that round ``number`` of a fed flight
    waits for: its first round the last fed round (the first, when progressive: each
    later round then takes the next fed round's losers)."""
    if flight.feeds_from_id is None:
        return ()
    fed = sorted(flight.feed_rounds or [1])
    if flight.progressive:
        source = fed[0] + number - 1
        return ((flight.feeds_from_id, source),) if source <= fed[-1] else ()
    return ((flight.feeds_from_id, fed[-1]),) if number == 1 else ()


def _entrants(session: Session, event_id: int) -> int:
    return int(
        session.execute(
            sa.select(sa.func.count())
            .select_from(Entry)
            .where(col(Entry.event_id) == event_id, col(Entry.status) == EntryStatus.ACTIVE.value)
        ).scalar_one()
    )


def _rounds_to_come(
    session: Session,
    flight: Flight,
    drawn: int,
    field: int,
    last_round: dict[int, tuple[Hashable, int]],
) -> list[PlannedRound]:
    """Rounds a flight has still to pair or draw: a Swiss's later rounds; the rounds of
    a knockout, Swiss or round robin not drawn yet (its field: the event's players, or
    its qualifying stage's qualifiers). A flight fed from another is drawn with it."""
    fmt = flight_format(flight.format)
    if flight.status == FlightStatus.FINISHED.value or (flight.feeds_from_id and drawn):
        return []
    after: tuple[tuple[Hashable, int], ...] = ()
    players = field
    if flight.feeds_from_id is not None:
        # Drawn with its source: the losers of each fed round r of a field of n are
        # about n / 2^r, and its first round waits for the last round that feeds it.
        fed = tuple(flight.feed_rounds or (1,))
        players = sum(field // 2**r for r in fed)
        source = last_round.get(flight.feeds_from_id)
        after = ((source[0], max(fed)),) if source else ()
    elif flight.status == FlightStatus.SETUP.value and flight.qualifies_from_id is not None:
        stage = session.get(Flight, flight.qualifies_from_id)
        players = (flight.qualifiers or 0) * ((stage.pools or 1) if stage else 1)
        found = last_round.get(flight.qualifies_from_id)
        after = (found,) if found else ()
    elif drawn:
        players = int(
            session.execute(
                sa.select(sa.func.count())
                .select_from(FlightEntry)
                .where(col(FlightEntry.flight_id) == flight.id)
            ).scalar_one()
        )
    if players < 2:
        return []
    if fmt.pairs_round_by_round:
        total = swiss_rounds_expected(players, rounds=flight.swiss_rounds, lives=flight.swiss_lives)
    elif drawn:
        return []
    elif fmt.is_knockout:
        total = math.ceil(math.log2(players))
    else:
        size = math.ceil(players / (flight.pools or 1))
        total = size - 1 if size % 2 == 0 else size
    lengths = round_lengths(flight)
    return [
        PlannedRound(
            number,
            round_name(number, total) if fmt.is_knockout else round_display_name("", number),
            (PlannedMatch(("to come", flight.id, number), lengths.for_round(number, total)),),
            after if number == 1 else (),
            is_paired=False,
        )
        for number in range(drawn + 1, total + 1)
    ]


def _late(
    session: Session,
    plan: Timetable,
    flights: Sequence[Flight],
    rounds: Sequence[Round],
    rows: Sequence[_MatchColumns],
) -> tuple[LateMatch, ...]:
    late = plan.late
    if not late:
        return ()
    by_id = {row[0]: row for row in rows}
    flight_names = {f.id or 0: f.name for f in flights}
    round_names = {r.id or 0: round_display_name(r.name, r.number) for r in rounds}
    out = []
    for m in late:
        row = by_id[int(m.key)]  # type: ignore[call-overload]
        match = session.get(Match, row[0])
        assert match is not None and m.started_at is not None
        players = flight_players(session, row[1], only=(match.entry_a_id, match.entry_b_id))
        names = " v ".join(
            players[fe].name if fe in players else "?"
            for fe in (match.entry_a_id, match.entry_b_id)
            if fe is not None
        )
        out.append(
            LateMatch(
                row[0],
                flight_names.get(row[1], ""),
                round_names.get(row[2], ""),
                row[9],
                names,
                m.started_at,
                (m.running_seconds or 0) // 60,
                m.budget_seconds // 60,
            )
        )
    return tuple(out)


# --- a match's clock ---------------------------------------------------------------------


@dataclass(frozen=True)
class MatchClock:
    """A match page's clock block: the clock settings, the budget, the running time."""

    match_id: int
    length: int
    clock: Clock
    budget_minutes: int
    model_from_history: bool
    started_at: datetime | None
    finished_at: datetime | None
    running_minutes: int | None
    """Minutes since the start while running; none otherwise."""
    is_late: bool
    can_start: bool
    """Published, two players, not decided, not started: the director may start it."""
    can_undo_start: bool
    version: int

    @property
    def reserve_minutes(self) -> float:
        """Each player's minutes on the clock."""
        return self.clock.reserve_seconds(self.length) / 60

    @property
    def expected_end(self) -> datetime | None:
        """When a running match is due to end (its start plus its budget)."""
        if self.started_at is None or self.finished_at is not None:
            return None
        return self.started_at + timedelta(minutes=self.budget_minutes)

    @property
    def played_minutes(self) -> int | None:
        """How long a finished match took, when it was started and finished."""
        if self.started_at is None or self.finished_at is None:
            return None
        return int((self.finished_at - self.started_at).total_seconds()) // 60


def match_clock(session: Session, match_id: int, *, now: datetime | None = None) -> MatchClock:
    """The clock block of a match page.

    Raises:
        NotFoundError: no such match.
    """
    match = session.get(Match, match_id)
    flight = session.get(Flight, match.flight_id) if match is not None else None
    event = session.get(Event, flight.event_id) if flight is not None else None
    rnd = session.get(Round, match.round_id) if match is not None else None
    if match is None or flight is None or event is None or rnd is None:
        raise NotFoundError(Message("No such match."))
    now = now or utcnow()
    model = club_model(session, event)
    budget = model.match_seconds(match.match_length)
    running = None
    if match.started_at is not None and match.finished_at is None and match.status not in _DECIDED:
        running = max(0, int((now - match.started_at).total_seconds()))
    playable = (
        rnd.status != RoundStatus.DRAFT.value
        and match.entry_a_id is not None
        and match.entry_b_id is not None
        and match.status not in _DECIDED
    )
    has_games = session.exec(select(Game.id).where(Game.match_id == match_id)).first() is not None
    return MatchClock(
        match_id=match_id,
        length=match.match_length,
        clock=flight_clock(flight),
        budget_minutes=budget // 60,
        model_from_history=model.from_history,
        started_at=match.started_at,
        finished_at=match.finished_at,
        running_minutes=None if running is None else running // 60,
        is_late=running is not None and running > budget,
        can_start=playable and match.started_at is None,
        can_undo_start=playable and match.started_at is not None and not has_games,
        version=match.version,
    )
