"""What withdrawing a player does, worked out before the director confirms it, and why a
withdrawal cannot be taken back once walkovers were given.

Terminology:
    open match     a match of a published round waiting to be played or under way: a
                   withdrawal gives it to the opponent by walkover.
    later match    a knockout match the player would reach: it goes to the opponent by
                   walkover once it is ready; a Swiss leaves the player out of later pairings.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from tourney.formats.flight_formats import flight_format
from tourney.store import progress
from tourney.store.audit import Actor
from tourney.store.errors import NotFoundError
from tourney.store.permissions import require_event
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Flight,
    FlightEntry,
    FlightStatus,
    Match,
    MatchStatus,
    Player,
    Round,
    RoundStatus,
)


@dataclass(frozen=True)
class WithdrawalPreview:
    """The confirmation page of a withdrawal: who, and what it will do."""

    entry_id: int
    event_id: int
    player_name: str
    walkovers: tuple[str, ...]
    """Open matches given to the opponent: "Main R2: Bob goes through against Ann"."""
    later: tuple[str, ...]
    """What happens in each flight after that, one sentence per flight."""


def withdrawal_preview(session: Session, actor: Actor, entry_id: int) -> WithdrawalPreview:
    """What withdrawing the entry would do, for the director to confirm.

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
    """
    entry, player = _entry(session, actor, entry_id)
    fe_ids = _flight_entry_ids(session, entry_id)
    published = select(Round.id).where(Round.status != RoundStatus.DRAFT.value)
    open_matches = session.exec(
        select(Match)
        .where(
            col(Match.status).in_(progress.OPEN),
            col(Match.round_id).in_(published),
            col(Match.entry_a_id).in_(fe_ids) | col(Match.entry_b_id).in_(fe_ids),
        )
        .order_by(col(Match.flight_id), col(Match.round_id), col(Match.position))
    )
    walkovers = []
    for match in open_matches:
        opponent_id = match.entry_b_id if match.entry_a_id in fe_ids else match.entry_a_id
        opponent = progress.entrant_name(session, opponent_id) or "the opponent"
        playing = match.status == MatchStatus.PLAYING.value
        under_way = " (the match under way ends)" if playing else ""
        walkovers.append(
            f"{_where(session, match)}: {opponent} goes through against "
            f"{player.name} by walkover{under_way}."
        )
    later = []
    flights = session.exec(
        select(Flight)
        .join(FlightEntry, col(FlightEntry.flight_id) == Flight.id)
        .where(FlightEntry.entry_id == entry_id, Flight.status != FlightStatus.FINISHED.value)
        .order_by(col(Flight.id))
    )
    for flight in flights:
        fmt = flight_format(flight.format)
        if fmt.is_knockout:
            later.append(
                f"{flight.name}: any later match {player.name} would have reached goes to "
                "the opponent by walkover."
            )
        elif fmt.pairs_round_by_round:
            later.append(f"{flight.name}: {player.name} is left out of later rounds' pairings.")
    if entry.status == EntryStatus.ACTIVE.value and not walkovers and not later:
        later.append(f"{player.name} is left out of every draw made from now on.")
    return WithdrawalPreview(entry_id, entry.event_id, player.name, tuple(walkovers), tuple(later))


def reinstatement_refusal(session: Session, actor: Actor, entry_id: int) -> str | None:
    """Why the withdrawn entry cannot be reinstated, or ``None`` when it can.

    Reinstating gives back the player's place but not the matches already given away: a
    player who lost a match by walkover would be back in a flight they cannot play on.

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
    """
    _, player = _entry(session, actor, entry_id)
    fe_ids = _flight_entry_ids(session, entry_id)
    given = list(
        session.exec(
            select(Match)
            .where(
                Match.status == MatchStatus.WALKOVER.value,
                col(Match.entry_a_id).in_(fe_ids) | col(Match.entry_b_id).in_(fe_ids),
                col(Match.winner_entry_id).not_in(fe_ids),
            )
            .order_by(col(Match.flight_id), col(Match.round_id), col(Match.position))
        )
    )
    if not given:
        return None
    matches = "; ".join(_where(session, m) for m in given)
    return (
        f"{player.name} cannot be reinstated: matches were given to the opponents by "
        f"walkover ({matches}), and reinstating would leave them lost."
    )


def _entry(session: Session, actor: Actor, entry_id: int) -> tuple[Entry, Player]:
    found = session.exec(
        select(Entry, Player)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(Entry.id == entry_id)
    ).first()
    if found is None:
        raise NotFoundError("No such entry.")
    require_event(session, actor, found[0].event_id, manage=True)
    return found


def _flight_entry_ids(session: Session, entry_id: int) -> list[int]:
    rows = session.exec(select(FlightEntry.id).where(FlightEntry.entry_id == entry_id))
    return [i for i in rows if i is not None]


def _where(session: Session, match: Match) -> str:
    """Where a match is, as a director finds it: flight and round ("Main Semifinal")."""
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    return f"{flight.name if flight else ''} {rnd.name if rnd else ''}".strip()
