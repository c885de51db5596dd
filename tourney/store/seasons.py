"""A club's seasons: some of its events, and a table of points from their results
(DESIGN §8; the arithmetic is :mod:`tourney.formats.seasons`).

Terminology:
    place scoring  each event gives points by finishing place in its first flight (the
                   main draw, the Swiss): the season's points table says how many for 1st,
                   2nd ...; shared places split their points.
    wins scoring   each event gives a point per match won at the board in any of its
                   flights (walkovers and byes give nothing).
    points scoring each event gives the points per place its own points table says
                   (club money: players × division factor, shared by place, ABT style).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from tourney.formats.errors import FormatUserError
from tourney.formats.seasons import place_points, season_table
from tourney.rules.messages import N_, Message, PluralMessage, message_of
from tourney.store import tournament_views as tv
from tourney.store.audit import Actor, record
from tourney.store.club_money import event_points
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import require_role
from tourney.store.roles import EVENT_DIRECTORS
from tourney.store.tables import (
    Club,
    Entry,
    Event,
    Flight,
    FlightEntry,
    Match,
    MatchStatus,
    Player,
    Season,
    SeasonEvent,
)

SCORINGS = {
    "place": N_("Points by place"),
    "wins": N_("A point per match won"),
    "points": N_("Each event's points per place (its flight's points table, ABT style)"),
}
"""Each way a season scores an event, with how pages name it."""
MAX_TABLE = 64
"""The most places a points table may name."""


@dataclass(frozen=True)
class SeasonFields:
    """What a director sets when making a season."""

    name: str
    event_ids: tuple[int, ...]
    scoring: str
    points_table: tuple[int, ...] = ()
    best: int | None = None


def create_season(session: Session, *, actor: Actor, club_id: int, fields: SeasonFields) -> Season:
    """Make a season of a club's events.

    Raises:
        NotFoundError, AccessDeniedError: no such club, or the actor is a scorer.
        StoreUserError: a setting that cannot be (the message says which).
    """
    require_role(actor, *EVENT_DIRECTORS)
    club = session.get(Club, club_id)
    if club is None:
        raise NotFoundError(Message("No such club."))
    name = fields.name.strip()
    if not name:
        raise StoreUserError(Message("Give the season a name."), field="name")
    if fields.scoring not in SCORINGS:
        raise StoreUserError(
            Message("A season scores by place, by matches won or by the events' points."),
            field="scoring",
        )
    if fields.scoring == "place" and not fields.points_table:
        raise StoreUserError(
            Message("Give the points for 1st, 2nd, 3rd ... (25, 18, 15 ...)."),
            field="points_table",
        )
    if len(fields.points_table) > MAX_TABLE or any(p < 0 for p in fields.points_table):
        raise StoreUserError(
            Message("A points table has up to %(most)s places, none below 0.", most=MAX_TABLE),
            field="points_table",
        )
    if fields.best is not None and fields.best < 1:
        raise StoreUserError(Message("Count at least one event per player."), field="best")
    if not fields.event_ids or len(set(fields.event_ids)) != len(fields.event_ids):
        raise StoreUserError(
            Message("Choose the season's events, each once."), field="event_ids"
        )
    club_events = set(session.exec(select(Event.id).where(Event.club_id == club_id)))
    if any(event_id not in club_events for event_id in fields.event_ids):
        raise StoreUserError(
            Message("A season holds events of its own club only."), field="event_ids"
        )
    season = Season(
        club_id=club_id,
        name=name,
        scoring=fields.scoring,
        points_table=list(fields.points_table),
        best=fields.best,
    )
    session.add(season)
    session.flush()
    for position, event_id in enumerate(fields.event_ids, start=1):
        session.add(SeasonEvent(season_id=season.id or 0, event_id=event_id, position=position))
    record(
        session,
        actor=actor,
        action="season.create",
        entity_type="season",
        entity_id=season.id,
        after={"name": name, "events": list(fields.event_ids), "scoring": fields.scoring},
    )
    return season


@dataclass(frozen=True)
class SeasonLine:
    """A player's line in the season's table, as the page shows it."""

    display_rank: str
    name: str
    total: float
    points: tuple[float | None, ...]
    counted: tuple[bool, ...]


@dataclass(frozen=True)
class SeasonView:
    """A season's table with its events."""

    id: int
    club_id: int
    club_name: str
    name: str
    scoring_text: str
    event_names: tuple[str, ...]
    lines: tuple[SeasonLine, ...]


@dataclass(frozen=True)
class SeasonSummary:
    """A season in its club's list."""

    id: int
    name: str
    events: int


def club_seasons(session: Session, club_id: int) -> tuple[SeasonSummary, ...]:
    """A club's seasons, newest first."""
    counts: dict[int, int] = {}
    for season_id in session.exec(
        select(SeasonEvent.season_id)
        .join(Season, col(Season.id) == SeasonEvent.season_id)
        .where(Season.club_id == club_id)
    ):
        counts[season_id] = counts.get(season_id, 0) + 1
    seasons = session.exec(
        select(Season).where(Season.club_id == club_id).order_by(col(Season.id).desc())
    )
    return tuple(SeasonSummary(s.id or 0, s.name, counts.get(s.id or 0, 0)) for s in seasons)


def club_events(session: Session, club_id: int) -> list[tuple[int, str]]:
    """A club's events, newest first, for choosing a season's."""
    rows = session.exec(
        select(Event.id, Event.name)
        .where(Event.club_id == club_id)
        .order_by(col(Event.starts_on).desc(), col(Event.id).desc())
    )
    return [(event_id or 0, name) for event_id, name in rows]


def season_view(session: Session, season_id: int) -> SeasonView:
    """A season's table.

    Raises:
        NotFoundError: no such season.
    """
    season = session.get(Season, season_id)
    if season is None:
        raise NotFoundError(Message("No such season."))
    club = session.get(Club, season.club_id)
    assert club is not None
    events = list(
        session.exec(
            select(Event)
            .join(SeasonEvent, col(SeasonEvent.event_id) == Event.id)
            .where(SeasonEvent.season_id == season_id)
            .order_by(col(SeasonEvent.position))
        )
    )
    if season.scoring == "place":
        per_event = [place_points(_places(session, event), season.points_table) for event in events]
    elif season.scoring == "points":
        per_event = [event_points(session, event.id or 0) for event in events]
    else:
        per_event = [_wins(session, event.id or 0) for event in events]
    try:
        table = season_table(per_event, best=season.best)
    except FormatUserError as error:
        raise StoreUserError(message_of(error)) from None
    names = _names(session, [row.player for row in table])
    scoring = SCORINGS.get(season.scoring, season.scoring)
    if season.scoring == "place":
        scoring = Message(
            "Points by place (%(table)s)",
            table=", ".join(str(p) for p in season.points_table),
        )
    if season.best:
        scoring = PluralMessage(
            "%(scoring)s, best %(count)s events count",
            "%(scoring)s, best %(count)s events count",
            season.best,
            scoring=scoring,
        )
    return SeasonView(
        season_id,
        club.id or 0,
        club.name,
        season.name,
        scoring,
        tuple(event.name for event in events),
        tuple(
            SeasonLine(
                row.display_rank, names.get(row.player, "?"), row.total, row.points, row.counted
            )
            for row in table
        ),
    )


def _places(session: Session, event: Event) -> dict[int, int]:
    """Each player's place (rank) in the event's first flight with standings."""
    for board in tv.event_boards(session, event.id or 0, published_only=True):
        if board.standings:
            entry_players = _entry_players(session, event.id or 0)
            return {
                entry_players[row.player.entry_id]: row.rank
                for row in board.standings
                if row.player.entry_id in entry_players
            }
    return {}


def _wins(session: Session, event_id: int) -> dict[int, float]:
    """Each player's matches won at the board in the event (a player who played and won
    none scores 0)."""
    rows = session.execute(
        sa.select(col(Match.entry_a_id), col(Match.entry_b_id), col(Match.winner_entry_id))
        .join(Flight, col(Flight.id) == Match.flight_id)
        .where(col(Flight.event_id) == event_id, col(Match.status) == MatchStatus.FINISHED.value)
    ).all()
    player_of = {
        fe_id: player_id
        for fe_id, player_id in session.execute(
            sa.select(col(FlightEntry.id), col(Entry.player_id))
            .join(Entry, col(Entry.id) == FlightEntry.entry_id)
            .where(col(Entry.event_id) == event_id)
        )
    }
    wins: dict[int, float] = {}
    for side_a, side_b, winner in rows:
        for side in (side_a, side_b):
            if side is not None and side in player_of:
                wins.setdefault(player_of[side], 0.0)
        if winner is not None and winner in player_of:
            wins[player_of[winner]] += 1.0
    return wins


def _entry_players(session: Session, event_id: int) -> dict[int, int]:
    return {
        entry_id or 0: player_id
        for entry_id, player_id in session.exec(
            select(Entry.id, Entry.player_id).where(Entry.event_id == event_id)
        )
    }


def _names(session: Session, player_ids: Sequence[int]) -> dict[int, str]:
    if not player_ids:
        return {}
    return {
        player_id or 0: name
        for player_id, name in session.exec(
            select(Player.id, Player.name).where(col(Player.id).in_(list(player_ids)))
        )
    }
