"""Read models of the public pages: event home, player pages, match pages, records.

These build on ``tourney.store.tournament_views`` (the flights' boards and match details)
and add what only players need: which events they may open (public, or private with the
share link), each player's matches across flights with the current or next one, and the
uploaded records they may download. Nothing here carries staff flags.

Terminology:
    current round   of a flight: the earliest published round that is not finished, else
                    the last round.
    next match      of a player: their first match that is neither decided nor void,
                    in play first, then ready, then waiting for an opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from tourney.rules.messages import Message
from tourney.store import record_exports
from tourney.store import tournament_views as tv
from tourney.store.access import share_token_of
from tourney.store.audit import Actor
from tourney.store.club_money import flights_with_money
from tourney.store.errors import NotFoundError
from tourney.store.flight_overview import FlightOverview, event_overviews
from tourney.store.money_sessions import SessionSummary, sessions_of_event
from tourney.store.player_profiles import is_profile_shown
from tourney.store.queries import (
    EntryView,
    EventDetail,
    entry_views,
    event_detail,
    list_entries,
)
from tourney.store.tables import (
    Club,
    Entry,
    EntryStatus,
    Event,
    Match,
    Player,
    Round,
    RoundStatus,
    UploadedRecord,
)

READER = Actor(user_id=None, label="public page", role="admin")
"""Reads a match like staff would, for the public match page: the ``can_*`` flags of what
``match_detail`` returns are never shown, only its games and uploads."""

_NEXT_ORDER = {"playing": 0, "ready": 1, "pending": 2}

HOME_PLAYERS = 100
"""Players listed on the event home; the rest are found by name."""


@dataclass(frozen=True)
class EventAccess:
    """What deciding access to an event's pages needs: one small query."""

    id: int
    slug: str
    name: str
    is_public: bool
    data_version: int
    updated_at: datetime


@dataclass(frozen=True)
class EventHome:
    """The event home page: the event, its flights with their current round, the field."""

    event: EventDetail
    flights: tuple[FlightOverview, ...]
    entries: tuple[EntryView, ...]
    """The first :data:`HOME_PLAYERS` entries still in the event, seeds first, then by name."""
    entries_total: int
    """How many entries are still in the event (not withdrawn)."""
    money_sessions: tuple[SessionSummary, ...] = ()
    """The event's money sessions and chouettes, newest first."""
    has_prizes: bool = False
    """Some flight has fees or prizes set (club money): the prizes page has something."""


@dataclass(frozen=True)
class PlayerMatch:
    """One of a player's matches, seen from their side."""

    match: tv.MatchSummary
    flight_name: str
    opponent: str
    """The opponent's name, ``bye``, or what fills the seat while unknown."""
    own_score: int
    opponent_score: int
    result: str
    """won, lost, bye, or empty while undecided."""


@dataclass(frozen=True)
class PlayerPage:
    """A player's page: every match in the event and the one to play next."""

    event_id: int
    entry_id: int
    name: str
    country: str
    status: str
    matches: tuple[PlayerMatch, ...]
    next_match: PlayerMatch | None
    wins: int
    losses: int
    player_id: int = 0
    profile_club_slug: str = ""
    """The short name of the event's club when it shows the player's page there (see
    :mod:`tourney.store.player_profiles`); empty otherwise, and then nothing links to it."""

    @property
    def is_active(self) -> bool:
        """Still in the event (not withdrawn, not eliminated)."""
        return self.status == EntryStatus.ACTIVE.value


@dataclass(frozen=True)
class RecordFile:
    """An uploaded match record to download."""

    filename: str
    text: str
    mimetype: str = "text/plain"


def event_access(session: Session, slug: str) -> EventAccess:
    """The event with this slug, public or not.

    Raises:
        NotFoundError: no event has this slug.
    """
    event = session.exec(select(Event).where(Event.slug == slug)).first()
    if event is None:
        raise NotFoundError(Message("No such event."))
    return EventAccess(
        event.id or 0, event.slug, event.name, event.is_public, event.data_version, event.updated_at
    )


def share_token(session: Session, event_id: int) -> str | None:
    """The event's share token (for its QR code while private)."""
    return share_token_of(session, event_id)


def current_round(board: tv.FlightBoard) -> tv.RoundView | None:
    """The flight's current round (see the module's terminology)."""
    for rnd in board.rounds:
        if rnd.status != RoundStatus.FINISHED.value:
            return rnd
    return board.rounds[-1] if board.rounds else None


def event_home(session: Session, event_id: int) -> EventHome:
    """The event home page.

    Raises:
        NotFoundError: no such event.
    """
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    flights = event_overviews(session, event_id, published_only=True)
    # Order the whole field by its light columns, then read only the entries shown.
    field = list(
        session.execute(
            sa.select(col(Entry.id), col(Entry.seed), col(Player.name))
            .join(Player, col(Player.id) == Entry.player_id)
            .where(
                col(Entry.event_id) == event_id, col(Entry.status) != EntryStatus.WITHDRAWN.value
            )
        ).all()
    )
    field.sort(key=lambda row: (row[1] is None, row[1] or 0, row[2].casefold()))
    shown = [row[0] for row in field[:HOME_PLAYERS]]
    by_id = {e.id: e for e in entry_views(session, col(Entry.id).in_(shown))}
    entries = tuple(by_id[entry_id] for entry_id in shown)
    return EventHome(
        event_detail(session, event, can_manage=False),
        flights,
        entries,
        len(field),
        sessions_of_event(session, event_id),
        bool(flights_with_money(session, event_id)),
    )


def find_entries(session: Session, event_id: int, query: str) -> tuple[EntryView, ...]:
    """The event's entries whose name contains ``query`` (case and accents as typed)."""
    needle = query.strip().casefold()
    entries = list_entries(session, event_id)
    if needle:
        entries = [e for e in entries if needle in e.player_name.casefold()]
    return tuple(sorted(entries, key=lambda e: e.player_name.casefold()))


def flight_board(session: Session, event_id: int, flight_id: int) -> tv.FlightBoard:
    """A flight of this event as the public sees it (published rounds only).

    Raises:
        NotFoundError: no such flight in this event.
    """
    return tv.published_flight_board(session, event_id, flight_id)


def _side(m: tv.MatchSummary, entry_id: int) -> str | None:
    if m.a is not None and m.a.entry_id == entry_id:
        return "a"
    if m.b is not None and m.b.entry_id == entry_id:
        return "b"
    return None


def player_page(session: Session, event_id: int, entry_id: int) -> PlayerPage:
    """A player's matches in the event, with the next one to play.

    Raises:
        NotFoundError: no such entry in this event.
    """
    entry = next((e for e in list_entries(session, event_id) if e.id == entry_id), None)
    if entry is None:
        raise NotFoundError(Message("No such player in this event."))
    rows: list[PlayerMatch] = []
    for board in tv.event_boards(session, event_id):
        for rnd in board.rounds:
            for m in rnd.matches:
                side = _side(m, entry_id)
                if side is None or m.status == "void":
                    continue
                other = m.b if side == "a" else m.a
                placeholder = m.b_placeholder if side == "a" else m.a_placeholder
                opponent = other.name if other else ("bye" if m.is_bye else placeholder)
                result = ""
                if m.is_bye:
                    result = "bye"
                elif m.winner is not None:
                    result = "won" if m.winner == side else "lost"
                own, theirs = (m.score_a, m.score_b) if side == "a" else (m.score_b, m.score_a)
                opponent = opponent or "to be decided"
                rows.append(PlayerMatch(m, board.flight.name, opponent, own, theirs, result))
    open_ones = [r for r in rows if r.match.status in _NEXT_ORDER]
    open_ones.sort(key=lambda r: _NEXT_ORDER[r.match.status])
    return PlayerPage(
        event_id=event_id,
        entry_id=entry_id,
        name=entry.player_name,
        country=entry.country,
        status=entry.status,
        matches=tuple(rows),
        next_match=open_ones[0] if open_ones else None,
        wins=sum(r.result == "won" for r in rows),
        losses=sum(r.result == "lost" for r in rows),
        player_id=entry.player_id,
        profile_club_slug=_profile_club_slug(session, event_id, entry.player_id),
    )


def _profile_club_slug(session: Session, event_id: int, player_id: int) -> str:
    event = session.get(Event, event_id)
    club_id = event.club_id if event is not None else None
    if not is_profile_shown(session, club_id, player_id):
        return ""
    club = session.get(Club, club_id)
    return club.slug if club is not None else ""


def match_page(session: Session, event_id: int, match_id: int) -> tv.MatchDetail:
    """A published match of this event with its games and uploads.

    Raises:
        NotFoundError: no such match in this event, or its round is not published.
    """
    match = session.get(Match, match_id)
    rnd = session.get(Round, match.round_id) if match is not None else None
    if match is None or rnd is None or rnd.status == RoundStatus.DRAFT.value:
        raise NotFoundError(Message("No such match."))
    detail = tv.match_detail(session, READER, match_id)
    if detail.event_id != event_id:
        raise NotFoundError(Message("No such match."))
    return detail


def record_file(session: Session, event_id: int, record_id: int) -> RecordFile:
    """A valid uploaded record of a published match of this event.

    Raises:
        NotFoundError: no such record here, or it was not valid (and so not used).
    """
    upload = session.get(UploadedRecord, record_id)
    if upload is None or upload.match_id is None or not upload.is_valid:
        raise NotFoundError(Message("No such record."))
    detail = match_page(session, event_id, upload.match_id)
    name = upload.filename or f"match-{detail.match.id}.mat"
    return RecordFile(name, upload.original_text)


def record_downloads(detail: tv.MatchDetail) -> tuple[tuple[str, str], ...]:
    """The record formats this match can be downloaded in, as (suffix, label): every
    written format once the match has a game, for standard backgammon."""
    return record_exports.downloads(detail)


def match_record_export(
    session: Session, event_id: int, match_id: int, suffix: str
) -> RecordFile:
    """A published match of this event written as a match record (``.mat``, ``.sgf``).

    Raises:
        NotFoundError: no such published match, no such format, or nothing to write.
    """
    detail = match_page(session, event_id, match_id)
    name, text = record_exports.match_record_text(session, detail, suffix)
    return RecordFile(name, text, record_exports.writer_for(suffix).mimetype)


def public_event_ids(session: Session) -> list[int]:
    """Ids of the public events."""
    return [i or 0 for i in session.exec(select(Event.id).where(col(Event.is_public)))]
