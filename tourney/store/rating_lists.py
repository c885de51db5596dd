"""A club's rating list: the FIBS ratings of its players from every rated match of the
club's events (DESIGN §8), and how each player's rating moved over the club's latest
event.

Terminology:
    rated match
        a match of the club's rated events (an event marked unrated, a friendly, counts
        for nothing) that was played to its end: status ``finished`` with two players.
        Walkovers and byes have statuses of their own and are never rated.
    latest event
        the event of the club whose rated matches finished last.

The list is recomputed from the results on every request, so a corrected result changes
it at once; a club's whole history replays in well under a second (``bench/ratings.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session, col

from tourney.formats.ratings import DEFAULT_START, RatedMatch, compute_ratings, rating_change
from tourney.store.errors import NotFoundError
from tourney.store.tables import Club, Entry, Event, Flight, FlightEntry, Match, MatchStatus, Player

_NEVER = datetime(1970, 1, 1, tzinfo=UTC)
"""When a match finished that has no finishing time (results from before times were kept):
before everything else, in the order the matches were stored."""


@dataclass(frozen=True)
class RatingRow:
    """A player's line in the club's list."""

    rank: int
    player_id: int
    name: str
    rating: float
    experience: int
    matches: int
    change: float | None
    """How the rating moved over the club's latest event; none when the player did not
    play a rated match there."""


@dataclass(frozen=True)
class RatingList:
    """A club's rating list, best first."""

    club_id: int
    club_name: str
    rows: tuple[RatingRow, ...]
    matches: int
    latest_event: str
    """The name of the club's latest event with a rated match; empty without one."""


@dataclass(frozen=True)
class _Played:
    match: RatedMatch
    event_id: int
    score: tuple[int, int]
    """Points of ``match.player_a`` and ``match.player_b``."""


@dataclass(frozen=True)
class HistoryLine:
    """One of a player's rated matches, with what it did to their rating."""

    finished_at: datetime
    event_name: str
    opponent: str
    won: bool
    score_text: str
    """The player's points first: ``7-3``."""
    length: int
    change: float
    rating_after: float


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one opponent."""

    opponent: str
    wins: int
    losses: int


@dataclass(frozen=True)
class PlayerHistory:
    """A player's rated matches across a club's events, newest first."""

    club_id: int
    club_name: str
    player_id: int
    name: str
    start: float
    """The rating the player came in with: the roster's, or 1500."""
    rating: float
    experience: int
    lines: tuple[HistoryLine, ...]
    head_to_head: tuple[HeadToHead, ...]
    """By losses (most first), then wins, then name."""

    @property
    def nemesis(self) -> HeadToHead | None:
        """The opponent the player has lost to most, where they have lost at all."""
        worst = self.head_to_head[0] if self.head_to_head else None
        return worst if worst is not None and worst.losses else None


def club_rating_list(session: Session, club_id: int) -> RatingList:
    """The rating list of a club, from every rated match of its events.

    Raises:
        NotFoundError: no such club.
    """
    club = session.get(Club, club_id)
    if club is None:
        raise NotFoundError("No such club.")
    played = _rated_matches(session, club_id)
    names = {
        player_id: name
        for player_id, name in session.execute(
            sa.select(col(Player.id), col(Player.name))
            .join(Entry, col(Entry.player_id) == Player.id)
            .join(Event, col(Event.id) == Entry.event_id)
            .where(col(Event.club_id) == club_id)
            .distinct()
        )
    }
    starts = _starting_ratings(session, club_id)
    after = compute_ratings((m.match for m in played), starts=starts)
    # The event of the match replayed last (equal times keep the order stored).
    replayed = sorted(played, key=lambda m: m.match.finished_at)
    latest_event_id = replayed[-1].event_id if replayed else None
    before = {
        row.player: row.rating
        for row in compute_ratings(
            (m.match for m in played if m.event_id != latest_event_id), starts=starts
        )
    }
    in_latest = {p for m in played if m.event_id == latest_event_id for p in _players(m.match)}
    rows = tuple(
        RatingRow(
            rank=number,
            player_id=int(row.player),
            name=names.get(int(row.player), "?"),
            rating=row.rating,
            experience=row.experience,
            matches=row.matches,
            change=(
                row.rating - before.get(row.player, starts.get(row.player, DEFAULT_START))
                if row.player in in_latest
                else None
            ),
        )
        for number, row in enumerate(after, start=1)
    )
    latest = session.get(Event, latest_event_id) if latest_event_id is not None else None
    return RatingList(club_id, club.name, rows, len(played), latest.name if latest else "")


def _starting_ratings(session: Session, club_id: int) -> dict[str, float]:
    """The ratings the club's players carry in from before (the roster's rating, as a
    club's existing list was imported), by roster id; the rest start at 1500."""
    return {
        str(player_id): float(rating)
        for player_id, rating in session.execute(
            sa.select(col(Player.id), col(Player.rating))
            .join(Entry, col(Entry.player_id) == Player.id)
            .join(Event, col(Event.id) == Entry.event_id)
            .where(col(Event.club_id) == club_id, col(Player.rating).is_not(None))
            .distinct()
        )
    }


def _players(match: RatedMatch) -> tuple[str, str]:
    return match.player_a, match.player_b


def _rated_matches(session: Session, club_id: int) -> list[_Played]:
    """Every rated match of the club's events, players named by their roster ids."""
    of_club = (col(Event.club_id) == club_id) & (col(Event.unrated) == sa.false())
    player_of = {
        fe_id: player_id
        for fe_id, player_id in session.execute(
            sa.select(col(FlightEntry.id), col(Entry.player_id))
            .join(Entry, col(Entry.id) == FlightEntry.entry_id)
            .join(Event, col(Event.id) == Entry.event_id)
            .where(of_club)
        )
    }
    query = (
        sa.select(
            col(Match.finished_at),
            col(Match.match_length),
            col(Match.entry_a_id),
            col(Match.entry_b_id),
            col(Match.winner_entry_id),
            col(Event.id),
            col(Match.score_a),
            col(Match.score_b),
        )
        .join(Flight, col(Flight.id) == Match.flight_id)
        .join(Event, col(Event.id) == Flight.event_id)
        .where(of_club, col(Match.status) == MatchStatus.FINISHED.value)
        .order_by(col(Match.id))
    )
    played = []
    for finished_at, length, side_a, side_b, won, event_id, score_a, score_b in session.execute(
        query
    ):
        if side_a is None or side_b is None or won is None:
            continue
        match = RatedMatch(
            finished_at or _NEVER,
            str(player_of[side_a]),
            str(player_of[side_b]),
            length,
            str(player_of[won]),
        )
        played.append(_Played(match, event_id or 0, (score_a, score_b)))
    return played


def player_history(session: Session, club_id: int, player_id: int) -> PlayerHistory:
    """A player's rated matches at a club, each with its rating change, and their record
    against each opponent.

    Raises:
        NotFoundError: no such club, or the player has no rated match there.
    """
    club = session.get(Club, club_id)
    player = session.get(Player, player_id)
    if club is None or player is None:
        raise NotFoundError("No such player in this club's rating list.")
    played = sorted(_rated_matches(session, club_id), key=lambda m: m.match.finished_at)
    me = str(player_id)
    if not any(me in _players(m.match) for m in played):
        raise NotFoundError("No such player in this club's rating list.")
    event_names = dict(
        session.execute(
            sa.select(col(Event.id), col(Event.name)).where(col(Event.club_id) == club_id)
        ).all()
    )
    rating: dict[str, float] = _starting_ratings(session, club_id)
    start = rating.get(me, DEFAULT_START)
    experience: dict[str, int] = {}
    lines: list[HistoryLine] = []
    record: dict[str, list[int]] = {}
    for entry in played:
        m = entry.match
        w, lo = m.winner, m.loser
        gain, loss = rating_change(
            rating.get(w, DEFAULT_START),
            rating.get(lo, DEFAULT_START),
            m.length,
            winner_experience=experience.get(w, 0),
            loser_experience=experience.get(lo, 0),
        )
        rating[w] = rating.get(w, DEFAULT_START) + gain
        rating[lo] = rating.get(lo, DEFAULT_START) - loss
        experience[w] = experience.get(w, 0) + m.length
        experience[lo] = experience.get(lo, 0) + m.length
        if me not in (w, lo):
            continue
        opponent = lo if me == w else w
        mine, theirs = entry.score if m.player_a == me else entry.score[::-1]
        lines.append(
            HistoryLine(
                m.finished_at,
                event_names.get(entry.event_id, "?"),
                opponent,
                me == w,
                f"{mine}-{theirs}",
                m.length,
                gain if me == w else -loss,
                rating[me],
            )
        )
        wins_losses = record.setdefault(opponent, [0, 0])
        wins_losses[0 if me == w else 1] += 1
    names = {
        str(pid): name
        for pid, name in session.execute(
            sa.select(col(Player.id), col(Player.name)).where(
                col(Player.id).in_([int(o) for o in record])
            )
        )
    }
    named = [replace(line, opponent=names.get(line.opponent, "?")) for line in lines]
    head_to_head = sorted(
        (HeadToHead(names.get(o, "?"), wl[0], wl[1]) for o, wl in record.items()),
        key=lambda h: (-h.losses, -h.wins, h.opponent.casefold()),
    )
    return PlayerHistory(
        club_id,
        club.name,
        player_id,
        player.name,
        start,
        rating[me],
        experience[me],
        tuple(reversed(named)),
        tuple(head_to_head),
    )
