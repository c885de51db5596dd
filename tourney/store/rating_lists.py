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
    carried in
        the rating, experience and rated matches a roster player brings from before (a
        club's existing list, imported): the replay continues from them.
    provisional
        a player whose experience (carried in and at the club) is below the club's
        ``provisional_below``: their rating still moves fast and says little yet.

The list is recomputed from the results on every request, so a corrected result changes
it at once; a club's whole history replays in well under a second (``bench/ratings.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from tourney.formats.ratings import (
    DEFAULT_START,
    PlayerRating,
    RatedMatch,
    compute_ratings,
    rating_change,
    side_matches,
)
from tourney.rules.messages import Message
from tourney.store.errors import NotFoundError
from tourney.store.rating_documents import HeadToHead, HistoryLine, PlayerHistory
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
    provisional: bool = False
    """Below the club's experience threshold."""


@dataclass(frozen=True)
class RatingList:
    """A club's rating list, best first."""

    club_id: int
    club_name: str
    rows: tuple[RatingRow, ...]
    matches: int
    latest_event: str
    """The name of the club's latest event with a rated match; empty without one."""
    provisional_below: int = 0
    """The club's experience threshold (0: nobody is provisional)."""
    public_profiles: bool = False
    """The club shows its players' pages to everyone."""
    club_slug: str = ""


@dataclass(frozen=True)
class _Played:
    match: RatedMatch
    event_id: int
    score: tuple[int, int]
    """Points of ``match.player_a`` and ``match.player_b``."""


@dataclass(frozen=True)
class _CarriedIn:
    """What the club's players bring from before, by roster id (as a string)."""

    rating: dict[str, float]
    experience: dict[str, int]
    matches: dict[str, int]


def is_provisional(experience: int, threshold: int) -> bool:
    """Whether a player with ``experience`` is provisional under ``threshold`` (0: off).

    >>> is_provisional(399, 400), is_provisional(400, 400), is_provisional(0, 0)
    (True, False, False)
    """
    return threshold > 0 and experience < threshold


def _club(session: Session, club_id: int) -> Club:
    club = session.get(Club, club_id)
    if club is None:
        raise NotFoundError(Message("No such club."))
    return club


def club_rating_list(session: Session, club_id: int) -> RatingList:
    """The rating list of a club, from every rated match of its events.

    Raises:
        NotFoundError: no such club.
    """
    club = _club(session, club_id)
    played = _rated_matches(session, club_id)
    names = {
        player_id: name
        for player_id, name in session.execute(
            sa.select(col(Player.id), col(Player.name))
            # A pair's partner is on the list too (a consultation credits both).
            .join(
                Entry,
                (col(Entry.player_id) == Player.id) | (col(Entry.partner_id) == Player.id),
            )
            .join(Event, col(Event.id) == Entry.event_id)
            .where(col(Event.club_id) == club_id)
            .distinct()
        )
    }
    carried = _carried_in(session, club_id)
    starts = carried.rating

    def replay(matches: list[_Played]) -> tuple[PlayerRating, ...]:
        return compute_ratings(
            (m.match for m in matches),
            starts=starts,
            experiences=carried.experience,
            matches_before=carried.matches,
        )

    after = replay(played)
    # The event of the match replayed last (equal times keep the order stored).
    replayed = sorted(played, key=lambda m: m.match.finished_at)
    latest_event_id = replayed[-1].event_id if replayed else None
    before = {
        row.player: row.rating
        for row in replay([m for m in played if m.event_id != latest_event_id])
    }
    in_latest = {p for m in played if m.event_id == latest_event_id for p in _players(m.match)}
    threshold = club.provisional_below
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
            provisional=is_provisional(row.experience, threshold),
        )
        for number, row in enumerate(after, start=1)
    )
    latest = session.get(Event, latest_event_id) if latest_event_id is not None else None
    return RatingList(
        club_id,
        club.name,
        rows,
        len(played),
        latest.name if latest else "",
        provisional_below=threshold,
        public_profiles=club.public_profiles,
        club_slug=club.slug,
    )


def _carried_in(session: Session, club_id: int) -> _CarriedIn:
    """The ratings, experience and rated matches the club's players carry in from before
    (the roster's, as a club's existing list was imported), by roster id; the rest start
    at 1500 with no experience."""
    carried = _CarriedIn({}, {}, {})
    for player_id, rating, experience, matches in session.execute(
        sa.select(
            col(Player.id), col(Player.rating), col(Player.rating_experience),
            col(Player.rated_matches),
        )
        .join(Entry, col(Entry.player_id) == Player.id)
        .join(Event, col(Event.id) == Entry.event_id)
        .where(
            col(Event.club_id) == club_id,
            sa.or_(
                col(Player.rating).is_not(None),
                col(Player.rating_experience).is_not(None),
                col(Player.rated_matches).is_not(None),
            ),
        )
        .distinct()
    ):
        key = str(player_id)
        if rating is not None:
            carried.rating[key] = float(rating)
        if experience:
            carried.experience[key] = int(experience)
        if matches:
            carried.matches[key] = int(matches)
    return carried


def _players(match: RatedMatch) -> tuple[str, str]:
    return match.player_a, match.player_b


def _rated_matches(session: Session, club_id: int) -> list[_Played]:
    """Every rated match of the club's events, players named by their roster ids.

    One query of the few columns the replay needs: the sides' roster ids are joined in,
    so no table of the club's entries is held besides the matches themselves.
    """
    side_a, side_b = aliased(FlightEntry), aliased(FlightEntry)
    entry_a, entry_b = aliased(Entry), aliased(Entry)
    query = (
        sa.select(
            col(Match.finished_at),
            col(Match.match_length),
            col(entry_a.player_id),
            col(entry_b.player_id),
            col(Match.winner_entry_id) == col(Match.entry_a_id),
            col(Event.id),
            col(Match.score_a),
            col(Match.score_b),
            col(entry_a.partner_id),
            col(entry_b.partner_id),
        )
        .join(Flight, col(Flight.id) == Match.flight_id)
        .join(Event, col(Event.id) == Flight.event_id)
        .join(side_a, col(side_a.id) == Match.entry_a_id)
        .join(entry_a, col(entry_a.id) == side_a.entry_id)
        .join(side_b, col(side_b.id) == Match.entry_b_id)
        .join(entry_b, col(entry_b.id) == side_b.entry_id)
        .where(
            col(Event.club_id) == club_id,
            col(Event.unrated) == sa.false(),
            col(Flight.unrated) == sa.false(),
            col(Match.status) == MatchStatus.FINISHED.value,
            col(Match.winner_entry_id).is_not(None),
        )
        .order_by(col(Match.id))
    )
    played = []
    for row in session.execute(query):
        finished_at, length, player_a, player_b, a_won, event_id, score_a, score_b = row[:8]
        partner_a, partner_b = row[8:]
        # A pair consultation credits both players of the pair (``side_matches``).
        sides = [
            [str(p) for p in (player, partner) if p is not None]
            for player, partner in ((player_a, partner_a), (player_b, partner_b))
        ]
        for match in side_matches(
            finished_at or _NEVER, sides[0], sides[1], length, a_won=bool(a_won)
        ):
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
        raise NotFoundError(Message("No such player in this club's rating list."))
    played = sorted(_rated_matches(session, club_id), key=lambda m: m.match.finished_at)
    me = str(player_id)
    if not any(me in _players(m.match) for m in played):
        raise NotFoundError(Message("No such player in this club's rating list."))
    event_names = dict(
        session.execute(
            sa.select(col(Event.id), col(Event.name)).where(col(Event.club_id) == club_id)
        ).all()
    )
    carried = _carried_in(session, club_id)
    rating: dict[str, float] = dict(carried.rating)
    start = rating.get(me, DEFAULT_START)
    experience: dict[str, int] = dict(carried.experience)
    lines: list[HistoryLine] = []
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
                entry.event_id,
            )
        )
    names = {
        str(pid): name
        for pid, name in session.execute(
            sa.select(col(Player.id), col(Player.name)).where(
                col(Player.id).in_({int(line.opponent) for line in lines})
            )
        )
    }
    named = tuple(
        reversed([replace(line, opponent=names.get(line.opponent, "?")) for line in lines])
    )
    return PlayerHistory(
        club_id,
        club.name,
        player_id,
        player.name,
        start,
        rating[me],
        experience[me],
        named,
        head_to_head(named),
        provisional=is_provisional(experience[me], club.provisional_below),
        provisional_below=club.provisional_below,
        matches=len(lines) + carried.matches.get(me, 0),
    )


def head_to_head(lines: Iterable[HistoryLine]) -> tuple[HeadToHead, ...]:
    """The player's record against each opponent of ``lines``: most losses first, then
    most wins, then by name."""
    record: dict[str, list[int]] = {}
    for line in lines:
        record.setdefault(line.opponent, [0, 0])[0 if line.won else 1] += 1
    return tuple(
        sorted(
            (HeadToHead(o, wl[0], wl[1]) for o, wl in record.items()),
            key=lambda h: (-h.losses, -h.wins, h.opponent.casefold()),
        )
    )
