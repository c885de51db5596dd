"""A player's public page at a club: their events, results, rating, chart and nemesis,
shown without a login only where the club allows it (``Club.public_profiles``).

Terminology:
    public profile
        the page of a roster player at a club that shows its players' pages, reached by
        the club's short name and the player's roster id. It exists only while the club
        allows it and the player was entered in one of the club's public events;
        otherwise it is "not found", with nothing said about the player or the club.
    listed event
        a public event of the club the player was entered in. Only listed events and
        their matches are shown; the rating and its chart count every rated match at
        the club, as the club's list does.

Only the player's own rows are read for the events and results; the rating needs the
replay of the club's rated matches (:mod:`tourney.store.rating_lists`), one query of
the few columns it uses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

import sqlalchemy as sa
from sqlmodel import Session, col, select

from tourney.store.errors import NotFoundError
from tourney.store.rating_documents import HeadToHead, HistoryLine, PlayerHistory
from tourney.store.rating_lists import head_to_head, player_history
from tourney.store.tables import Club, Entry, Event, FlightEntry, Match, MatchStatus, Player

_NOT_FOUND = "No such player page."
_DECIDED = (MatchStatus.FINISHED.value, MatchStatus.WALKOVER.value)


@dataclass(frozen=True)
class ProfileEvent:
    """One of the player's listed events, with their record in it."""

    slug: str
    name: str
    starts_on: date | None
    wins: int
    losses: int
    """Matches decided against an opponent (byes left out; walkovers counted)."""


@dataclass(frozen=True)
class PublicProfile:
    """What a player's public page at a club shows."""

    club_slug: str
    club_name: str
    player_id: int
    name: str
    country: str
    events: tuple[ProfileEvent, ...]
    """Newest first."""
    history: PlayerHistory | None
    """The rating, its chart's points and the listed events' rated matches; none before
    the player's first rated match at the club."""
    head_to_head: tuple[HeadToHead, ...]
    """Over the listed events' rated matches."""
    chart_start: float = 0.0
    chart_points: tuple[float, ...] = ()
    """The rating after each rated match at the club, oldest first (the chart)."""

    @property
    def nemesis(self) -> HeadToHead | None:
        """The opponent the player has lost to most in the listed events."""
        worst = self.head_to_head[0] if self.head_to_head else None
        return worst if worst is not None and worst.losses else None

    @property
    def lines(self) -> tuple[HistoryLine, ...]:
        """The listed events' rated matches, newest first."""
        return self.history.lines if self.history is not None else ()


def profile_club(session: Session, club_slug: str) -> Club:
    """The club with this short name, if it shows its players' pages.

    Raises:
        NotFoundError: no such club, or it keeps its players' pages private.
    """
    club = session.exec(select(Club).where(Club.slug == club_slug)).first()
    if club is None or not club.public_profiles:
        raise NotFoundError(_NOT_FOUND)
    return club


def _listed_events(session: Session, club_id: int, player_id: int) -> list[Event]:
    return list(
        session.execute(
            sa.select(Event)
            .join(Entry, col(Entry.event_id) == Event.id)
            .where(
                col(Entry.player_id) == player_id,
                col(Event.club_id) == club_id,
                col(Event.is_public) == sa.true(),
            )
            .order_by(col(Event.starts_on).desc(), col(Event.id).desc())
        ).scalars()
    )


def _records(session: Session, player_id: int, event_ids: list[int]) -> dict[int, list[int]]:
    """Wins and losses per event, from the player's own matches only."""
    mine = sa.select(col(FlightEntry.id)).join(
        Entry, col(Entry.id) == FlightEntry.entry_id
    ).where(col(Entry.player_id) == player_id, col(Entry.event_id).in_(event_ids))
    fe_event = dict(
        session.execute(
            sa.select(col(FlightEntry.id), col(Entry.event_id))
            .join(Entry, col(Entry.id) == FlightEntry.entry_id)
            .where(col(Entry.player_id) == player_id, col(Entry.event_id).in_(event_ids))
        ).all()
    )
    records: dict[int, list[int]] = {event_id: [0, 0] for event_id in event_ids}
    for side_a, side_b, winner in session.execute(
        sa.select(col(Match.entry_a_id), col(Match.entry_b_id), col(Match.winner_entry_id))
        .where(
            sa.or_(col(Match.entry_a_id).in_(mine), col(Match.entry_b_id).in_(mine)),
            col(Match.entry_a_id).is_not(None),
            col(Match.entry_b_id).is_not(None),
            col(Match.winner_entry_id).is_not(None),
            col(Match.status).in_(_DECIDED),
        )
    ):
        own = side_a if side_a in fe_event else side_b
        records[fe_event[own]][0 if winner == own else 1] += 1
    return records


def is_profile_shown(session: Session, club_id: int | None, player_id: int) -> bool:
    """Whether the player has a public page at the club (for the event pages' links)."""
    if club_id is None:
        return False
    club = session.get(Club, club_id)
    return bool(club and club.public_profiles and _listed_events(session, club_id, player_id))


def public_profile(session: Session, club_slug: str, player_id: int) -> PublicProfile:
    """The player's public page at the club.

    Raises:
        NotFoundError: the club keeps its players' pages private, or the player was in
            none of its public events (the same answer either way).
    """
    club = profile_club(session, club_slug)
    player = session.get(Player, player_id)
    events = _listed_events(session, club.id or 0, player_id) if player is not None else []
    if player is None or not events:
        raise NotFoundError(_NOT_FOUND)
    listed = {event.id or 0 for event in events}
    records = _records(session, player_id, sorted(listed))
    try:
        history: PlayerHistory | None = player_history(session, club.id or 0, player_id)
    except NotFoundError:
        history = None
    shown: tuple[HistoryLine, ...] = ()
    chart_start = 0.0
    chart_points: tuple[float, ...] = ()
    if history is not None:
        chart_start, chart_points = history.start, history.ratings_in_order
        shown = tuple(line for line in history.lines if line.event_id in listed)
        history = replace(history, lines=shown, head_to_head=head_to_head(shown))
    return PublicProfile(
        club.slug,
        club.name,
        player_id,
        player.name,
        player.country,
        tuple(
            ProfileEvent(e.slug, e.name, e.starts_on, *records[e.id or 0]) for e in events
        ),
        history,
        head_to_head(shown),
        chart_start,
        chart_points,
    )


def club_data_version(session: Session, club_slug: str) -> tuple[int, ...] | None:
    """What a player's public page at the club depends on, as numbers that change with
    any of it: the club's options and its events' data versions (every write to an
    event's rows, its players' included, moves them; see :mod:`tourney.store.versions`).
    None when the club keeps its players' pages private (or does not exist).
    """
    club = session.exec(select(Club).where(Club.slug == club_slug)).first()
    if club is None or not club.public_profiles:
        return None
    count, total, last = session.execute(
        sa.select(
            sa.func.count(col(Event.id)),
            sa.func.coalesce(sa.func.sum(col(Event.data_version)), 0),
            sa.func.coalesce(sa.func.max(col(Event.id)), 0),
        ).where(col(Event.club_id) == club.id)
    ).one()
    return (club.id or 0, club.provisional_below, int(count), int(total), int(last))
