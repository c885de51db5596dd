"""What withdrawing a player does, worked out before the director confirms it, and how
reinstating takes it back: the walkovers given are played after all, unless a later
result was built on them.

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
from tourney.formats.rounds import parse_round_name
from tourney.rules.messages import N_, Message
from tourney.store import club_money, progress, results
from tourney.store.audit import Actor
from tourney.store.errors import NotFoundError, StoreUserError
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
    refunds: tuple[str, ...] = ()
    """What happens to the fees paid, one sentence per flight paid into."""


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
        opponent = progress.entrant_name(session, opponent_id) or N_("the opponent")
        where = _where(session, match)
        if match.status == MatchStatus.PLAYING.value:
            walkovers.append(Message(
                "%(where)s: %(opponent)s goes through against %(player)s by walkover "
                "(the match under way ends).",
                where=where, opponent=opponent, player=player.name,
            ))
        else:
            walkovers.append(Message(
                "%(where)s: %(opponent)s goes through against %(player)s by walkover.",
                where=where, opponent=opponent, player=player.name,
            ))
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
            later.append(Message(
                "%(flight)s: any later match %(player)s would have reached goes to the "
                "opponent by walkover.",
                flight=flight.name, player=player.name,
            ))
        elif fmt.pairs_round_by_round:
            later.append(Message(
                "%(flight)s: %(player)s is left out of later rounds' pairings.",
                flight=flight.name, player=player.name,
            ))
    if entry.status == EntryStatus.ACTIVE.value and not walkovers and not later:
        later.append(Message(
            "%(player)s is left out of every draw made from now on.", player=player.name
        ))
    return WithdrawalPreview(
        entry_id,
        entry.event_id,
        player.name,
        tuple(walkovers),
        tuple(later),
        club_money.withdrawal_refunds(session, entry_id),
    )


@dataclass(frozen=True)
class _Reinstatement:
    """What reinstating an entry would take back, or why it cannot."""

    given: tuple[Match, ...]
    """Walkovers the withdrawal gave away, to be played again."""
    blocking: tuple[str, ...]
    """Later results built on one of them, each named ("Main Semifinal: Ann v Bob (1-0)")."""


def _reinstatement(session: Session, entry: Entry) -> _Reinstatement:
    fe_ids = _flight_entry_ids(session, entry.id or 0)
    given = list(
        session.exec(
            select(Match)
            .where(
                Match.status == MatchStatus.WALKOVER.value,
                Match.result_source == "walkover",
                col(Match.entry_a_id).in_(fe_ids) | col(Match.entry_b_id).in_(fe_ids),
                col(Match.winner_entry_id).not_in(fe_ids),
            )
            .order_by(col(Match.flight_id), col(Match.round_id), col(Match.position))
        )
    )
    if entry.withdrawn_at is not None:
        # Only walkovers given since the withdrawal: a forfeit awarded earlier stands.
        given = [m for m in given if m.finished_at is None or m.finished_at >= entry.withdrawn_at]
    ours = {m.id for m in given}
    blocking: dict[int, str] = {}
    for match in given:
        flight = session.get(Flight, match.flight_id)
        rnd = session.get(Round, match.round_id)
        assert flight is not None and rnd is not None
        for later in results.dependent_results(session, match, flight, rnd):
            if later.id not in ours and later.id is not None:
                blocking.setdefault(later.id, results.describe_match(session, later))
    return _Reinstatement(tuple(given), tuple(blocking.values()))


def reinstatement_refusal(session: Session, actor: Actor, entry_id: int) -> str | None:
    """Why the withdrawn entry cannot be reinstated, or ``None`` when it can.

    Reinstating takes back the walkovers the withdrawal gave: those matches are played
    after all. That is possible while nothing was built on them; once the opponent's next
    match (or a later round paired on the walkover) is under way or decided, taking the
    walkover back would undo that result too, so the reinstatement is refused naming it.

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
    """
    entry, player = _entry(session, actor, entry_id)
    blocking = _reinstatement(session, entry).blocking
    if not blocking:
        return None
    return (
        f"{player.name} cannot be reinstated: the walkovers given for the withdrawal were "
        f"built on, and these results depend on them: {'; '.join(blocking)}. "
        "Clear those results first, or leave the withdrawal as it is."
    )


def take_back_walkovers(session: Session, entry: Entry) -> list[int]:
    """Turn the walkovers given for ``entry``'s withdrawal back into matches to play.

    Each match is ready again (or under way, with the games it had); in a knockout the
    opponent leaves the later rounds the walkover sent them to, in a Swiss or round robin
    the walkover no longer counts. Called by the reinstatement use case inside its
    transaction, after the entry is active again (it writes the audit entry). Returns
    the match ids.

    Raises:
        StoreUserError: a later result already depends on one of the walkovers.
    """
    plan = _reinstatement(session, entry)
    if plan.blocking:
        player = session.get(Player, entry.player_id)
        name = player.name if player else "The player"
        raise StoreUserError(
            Message(
                "%(name)s cannot be reinstated: these results depend on the walkovers given "
                "for the withdrawal: %(blocking)s. Clear those results first, or leave the "
                "withdrawal as it is.",
                name=name, blocking='; '.join(plan.blocking),
            )
        )
    for match in plan.given:
        games = progress.games_of(session, match.id or 0)
        # A match whose clock was started stays in play (``clocks.start_match``).
        running = bool(games) or match.started_at is not None
        match.status = MatchStatus.PLAYING if running else MatchStatus.READY
        match.winner_entry_id = None
        match.finished_at = None
        match.result_source = "games" if games else ""
        if not games:
            match.score_a = match.score_b = 0
    session.flush()
    synced: set[int] = set()
    for match in plan.given:
        flight = session.get(Flight, match.flight_id)
        assert flight is not None
        if progress.is_knockout(flight):
            root = progress.plan_root(session, flight)
            if root is not None and root.id not in synced:
                synced.add(root.id or 0)
                progress.sync_group(session, root)
        elif flight.id not in synced:
            synced.add(flight.id or 0)
            progress.sync_round_robin_or_swiss(session, flight)
    session.flush()
    return [m.id or 0 for m in plan.given]


def _entry(session: Session, actor: Actor, entry_id: int) -> tuple[Entry, Player]:
    found = session.exec(
        select(Entry, Player)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(Entry.id == entry_id)
    ).first()
    if found is None:
        raise NotFoundError(Message("No such entry."))
    require_event(session, actor, found[0].event_id, manage=True)
    return found


def _flight_entry_ids(session: Session, entry_id: int) -> list[int]:
    rows = session.exec(select(FlightEntry.id).where(FlightEntry.entry_id == entry_id))
    return [i for i in rows if i is not None]


def _where(session: Session, match: Match) -> str:
    """Where a match is, as a director finds it: flight and round ("Main Semifinal")."""
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    return Message(
        "%(flight)s %(round)s",
        flight=flight.name if flight else "",
        round=parse_round_name(rnd.name) if rnd else "",
    )
