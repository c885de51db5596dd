"""Flight overviews: how far each flight of an event has come, read by counting in SQL.

The event dashboard and the public event home show, per flight, how many matches wait,
are in play and are finished, the current round, the first matches to call to a table
and who waits for an opponent. A 10,000-player knockout holds some 16,000 matches, so an
overview never loads a flight's matches as rows: it counts them in the database and
reads only the few it shows (at most :data:`SHOWN` of each list). The full flight board
(``tournament_views``) is built only for a finished flight, whose winner the standings
decide; nothing changes there once the flight is over.

Terminology:
    shown round  a round the reader may see: every round for staff, the published
                 (not draft) rounds for the public.
    current round the first shown round not finished yet, or the last one when all are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from tourney.formats.flight_formats import flight_format
from tourney.rules.messages import Message
from tourney.store import progress
from tourney.store import tournament_views as tv
from tourney.store.audit import Actor
from tourney.store.errors import NotFoundError
from tourney.store.permissions import require_event
from tourney.store.queries import FlightView, flight_view
from tourney.store.tables import (
    Event,
    Flight,
    FlightEntry,
    FlightStatus,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)

SHOWN = 50
"""At most this many matches of each kind (in play, ready) and waiting players are read."""


@dataclass(frozen=True)
class CurrentRound:
    """The round a flight is playing: its number and name."""

    number: int
    name: str


@dataclass(frozen=True)
class FlightOverview:
    """One flight's progress in a few numbers and the first matches of each kind."""

    flight: FlightView
    is_knockout: bool
    has_rounds: bool
    """Any shown round exists (the flight is drawn or paired)."""
    has_standings: bool
    waiting: int
    """Matches ready to start (both players known)."""
    playing: int
    finished: int
    current_round: CurrentRound | None
    champion: tv.PlayerRef | None
    in_play: tuple[tv.MatchSummary, ...]
    """The first :data:`SHOWN` matches in play, by round then position."""
    ready: tuple[tv.MatchSummary, ...]
    """The first :data:`SHOWN` matches ready to start, by round then position."""
    waiting_for_opponent: tuple[tv.PlayerRef, ...]
    """The first :data:`SHOWN` players through to a match whose other side is not known."""
    waiting_for_opponent_count: int

    @property
    def more_matches(self) -> int:
        """Matches in play or ready beyond the ones listed."""
        return self.playing - len(self.in_play) + self.waiting - len(self.ready)

    @property
    def more_waiting(self) -> int:
        """Players waiting for an opponent beyond the ones listed."""
        return self.waiting_for_opponent_count - len(self.waiting_for_opponent)


@dataclass(frozen=True)
class Dashboard:
    """An event's dashboard: every flight's progress."""

    event_id: int
    event_name: str
    flights: tuple[FlightOverview, ...]


def dashboard(session: Session, actor: Actor, event_id: int) -> Dashboard:
    """The event dashboard for its staff: each flight's progress, counted, not loaded.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not on its staff.
    """
    event = require_event(session, actor, event_id, manage=False)
    return Dashboard(
        event.id or 0, event.name, event_overviews(session, event_id, published_only=False)
    )


def event_overviews(
    session: Session, event_id: int, *, published_only: bool
) -> tuple[FlightOverview, ...]:
    """Every flight of the event, in display order, as an overview.

    Raises:
        NotFoundError: no such event.
    """
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    flights = session.exec(
        select(Flight)
        .where(Flight.event_id == event_id)
        .order_by(col(Flight.position), col(Flight.id))
        # A drawn bracket's plan is megabytes at 10,000 players: an overview never needs it.
        .options(defer(Flight.bracket_plan))  # type: ignore[arg-type]
    ).all()
    return tuple(_overview(session, flight, event, published_only) for flight in flights)


def _overview(
    session: Session, flight: Flight, event: Event, published_only: bool
) -> FlightOverview:
    flight_id = flight.id or 0
    rounds = [
        r
        for r in progress.flight_rounds(session, flight_id)
        if not published_only or r.status != RoundStatus.DRAFT.value
    ]
    round_ids = [r.id or 0 for r in rounds]
    counts = _status_counts(session, flight_id, round_ids)
    fmt = flight_format(flight.format)
    has_entrants = (
        session.exec(
            select(FlightEntry.id).where(FlightEntry.flight_id == flight_id).limit(1)
        ).first()
        is not None
    )
    is_drawn_bracket = (
        fmt.is_knockout
        and session.exec(
            select(Match.id).where(Match.flight_id == flight_id, Match.bracket_key != "").limit(1)
        ).first()
        is not None
    )
    has_standings = (
        flight.status != FlightStatus.SETUP.value
        and has_entrants
        and (is_drawn_bracket or not fmt.is_knockout)
    )
    champion = None
    if flight.status == FlightStatus.FINISHED.value and has_standings:
        champion = tv.flight_champion(session, flight, event, published_only=published_only)
    in_play = _first_matches(session, flight, rounds, MatchStatus.PLAYING.value)
    ready = _first_matches(session, flight, rounds, MatchStatus.READY.value)
    waiting, waiting_count = _waiting_for_opponent(session, flight_id, round_ids)
    return FlightOverview(
        flight=flight_view(
            flight,
            _flight_name(session, flight.feeds_from_id),
            drawn=_drawn_lengths(session, flight_id, round_ids),
            stage=session.get(Flight, flight.qualifies_from_id)
            if flight.qualifies_from_id
            else None,
        ),
        is_knockout=fmt.is_knockout,
        has_rounds=bool(rounds),
        has_standings=has_standings,
        waiting=counts.get(MatchStatus.READY.value, 0),
        playing=counts.get(MatchStatus.PLAYING.value, 0),
        finished=sum(counts.get(status, 0) for status in progress.DONE),
        current_round=_current_round(rounds),
        champion=champion,
        in_play=in_play,
        ready=ready,
        waiting_for_opponent=waiting,
        waiting_for_opponent_count=waiting_count,
    )


def _status_counts(session: Session, flight_id: int, round_ids: Sequence[int]) -> dict[str, int]:
    """How many of the shown rounds' matches are in each status."""
    rows = session.execute(
        sa.select(col(Match.status), sa.func.count())
        .where(col(Match.flight_id) == flight_id, col(Match.round_id).in_(round_ids))
        .group_by(col(Match.status))
    ).all()
    return {status: count for status, count in rows}


def _drawn_lengths(
    session: Session, flight_id: int, round_ids: Sequence[int]
) -> list[tuple[str, int]]:
    """(round name, match length) of each length the shown rounds play, in round order."""
    rows = session.execute(
        sa.select(col(Round.number), col(Round.name), col(Match.match_length))
        .join(Round, col(Round.id) == Match.round_id)
        .where(col(Match.flight_id) == flight_id, col(Match.round_id).in_(round_ids))
        .group_by(col(Round.number), col(Round.name), col(Match.match_length))
        .order_by(col(Round.number), col(Match.match_length))
    ).all()
    return [(tv.round_display_name(name, number), length) for number, name, length in rows]


def _current_round(rounds: Sequence[Round]) -> CurrentRound | None:
    for rnd in rounds:
        if rnd.status != RoundStatus.FINISHED.value:
            return CurrentRound(rnd.number, tv.round_display_name(rnd.name, rnd.number))
    if not rounds:
        return None
    last = rounds[-1]
    return CurrentRound(last.number, tv.round_display_name(last.name, last.number))


def _first_matches(
    session: Session, flight: Flight, rounds: Sequence[Round], status: str
) -> tuple[tv.MatchSummary, ...]:
    """The first :data:`SHOWN` matches of the shown rounds in ``status``."""
    round_map = {r.id or 0: r for r in rounds}
    matches = session.exec(
        select(Match)
        .join(Round, col(Round.id) == Match.round_id)
        .where(
            Match.flight_id == flight.id,
            col(Match.round_id).in_(list(round_map)),
            Match.status == status,
        )
        .order_by(col(Round.number), col(Match.position))
        .limit(SHOWN)
    ).all()
    if not matches:
        return ()
    sides = [side for m in matches for side in (m.entry_a_id, m.entry_b_id)]
    players = tv.flight_players(session, flight.id or 0, only=sides)
    # Both sides are known, so no placeholders are needed; where a knockout's loser goes
    # would need the whole bracket plan decoded, and the flight page shows it.
    return tuple(tv.match_summaries(matches, round_map, players, None))


def _waiting_for_opponent(
    session: Session, flight_id: int, round_ids: Sequence[int]
) -> tuple[tuple[tv.PlayerRef, ...], int]:
    """The first :data:`SHOWN` players waiting for an opponent, and how many wait."""
    one_side_known = sa.and_(
        col(Match.flight_id) == flight_id,
        col(Match.round_id).in_(round_ids),
        col(Match.status) == MatchStatus.PENDING.value,
        sa.or_(
            sa.and_(col(Match.entry_a_id).is_(None), col(Match.entry_b_id).is_not(None)),
            sa.and_(col(Match.entry_a_id).is_not(None), col(Match.entry_b_id).is_(None)),
        ),
    )
    count = session.execute(sa.select(sa.func.count()).where(one_side_known)).scalar_one()
    if not count:
        return (), 0
    rows = session.execute(
        sa.select(col(Match.entry_a_id), col(Match.entry_b_id))
        .join(Round, col(Round.id) == Match.round_id)
        .where(one_side_known)
        .order_by(col(Round.number), col(Match.position))
        .limit(SHOWN)
    ).all()
    known = [a if a is not None else b for a, b in rows]
    players = tv.flight_players(session, flight_id, only=known)
    return tuple(players[k] for k in known if k is not None and k in players), count


def _flight_name(session: Session, flight_id: int | None) -> str:
    """The name of a flight (a fed flight's source), or empty."""
    source = session.get(Flight, flight_id) if flight_id else None
    return source.name if source else ""
