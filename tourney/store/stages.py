"""Stages read from the database: a qualifying flight's tables (one per pool) and who
goes through from them to the knockout that takes its field from it.

The decisions are ``tourney.formats.stages``'s; here the tables are loaded (one read of
the flight's entries and matches, whatever its size) and handed to it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from tourney.formats.flight_formats import flight_format
from tourney.formats.model import EntrantId, MatchOutcome, Standing
from tourney.formats.stages import Cut, Qualifier, StageLink, cut_table, find_cut_ties
from tourney.formats.standings import compute_standings
from tourney.store import progress
from tourney.store.queries import tiebreak_chain
from tourney.store.tables import Flight, FlightEntry, FlightStatus


@dataclass(frozen=True)
class StageTable:
    """One table of a qualifying stage: a pool (from 0) or the whole Swiss (``None``)."""

    pool: int | None
    rows: tuple[Standing, ...]
    withdrawn: frozenset[EntrantId] = frozenset()
    """Players of the table who withdrew: they keep their row and results, but the place
    they would take in the knockout goes to the next in line."""

    @property
    def contenders(self) -> tuple[Standing, ...]:
        """The rows that can still go through, best first."""
        return tuple(row for row in self.rows if row.entrant not in self.withdrawn)


def stage_tables(session: Session, flight: Flight) -> tuple[StageTable, ...]:
    """A drawn round robin's table per pool, or a Swiss's one table, by its tiebreaks."""
    fmt = flight_format(flight.format)
    field = progress.swiss_field(session, flight)
    chain = tiebreak_chain(flight.tiebreaks)
    entrants = [r.entrant for r in field.records]
    out = frozenset(r.entrant for r in field.records if not r.active)
    if not fmt.has_pools:
        table = compute_standings(field.outcomes, chain, entrants=entrants)
        return (StageTable(None, table, out),)
    pool_of = {
        EntrantId(fe_id or 0): pool or 0
        for fe_id, pool in session.exec(
            select(FlightEntry.id, FlightEntry.pool).where(FlightEntry.flight_id == flight.id)
        )
    }
    count = max(pool_of.values(), default=0) + 1
    members: list[list[EntrantId]] = [[] for _ in range(count)]
    for entrant in entrants:
        members[pool_of[entrant]].append(entrant)
    outcomes: list[list[MatchOutcome]] = [[] for _ in range(count)]
    for outcome in field.outcomes:
        outcomes[pool_of[outcome.a]].append(outcome)
    return tuple(
        StageTable(
            pool,
            compute_standings(outcomes[pool], chain, entrants=members[pool]),
            out,
        )
        for pool in range(count)
    )


@dataclass(frozen=True)
class StageCut:
    """Where a knockout's qualifying stage stands and who goes through from it."""

    source: Flight
    link: StageLink
    finished: bool
    """Every match of the stage is decided."""
    tables: tuple[StageTable, ...]
    cuts: tuple[Cut, ...]
    """One per table, in table order."""

    @property
    def undecided(self) -> tuple[Cut, ...]:
        """The cuts with a tie the director has still to decide."""
        return tuple(c for c in self.cuts if c.tie is not None)

    @property
    def qualifiers(self) -> tuple[Qualifier, ...]:
        """Everyone through so far, table by table."""
        return tuple(q for c in self.cuts for q in c.qualifiers)


def stage_link(knockout: Flight, source: Flight) -> StageLink:
    """The link stored on ``knockout`` to its qualifying stage ``source``."""
    pools = (source.pools or 1) if flight_format(source.format).has_pools else 1
    return StageLink(pools, knockout.qualifiers or 0, find_cut_ties(knockout.cut_ties))


def stage_cut(
    session: Session, knockout: Flight, *, picks: Collection[int] | None = None
) -> StageCut | None:
    """Who goes through to ``knockout`` from its qualifying stage as the tables stand
    now, or none: it has no stage, or the stage is not drawn yet. ``picks`` stand for
    the director's choices at a tied cut instead of those stored."""
    if knockout.qualifies_from_id is None:
        return None
    source = session.get(Flight, knockout.qualifies_from_id)
    if source is None or source.status == FlightStatus.SETUP.value:
        return None
    return _cut(session, knockout, source, knockout.cut_picks if picks is None else picks)


def _cut(
    session: Session, knockout: Flight, source: Flight, picked: Collection[int] | None = None
) -> StageCut:
    link = stage_link(knockout, source)
    tables = stage_tables(session, source)
    chosen = knockout.cut_picks if picked is None else picked
    picks = {EntrantId(i) for i in chosen or ()}
    k = min(link.per_pool, min((len(t.contenders) for t in tables), default=0))
    cuts = tuple(
        cut_table(t.contenders, k, ties=link.ties, picks=picks, pool=t.pool) for t in tables
    )
    return StageCut(
        source=source,
        link=link,
        finished=source.status == FlightStatus.FINISHED.value,
        tables=tables,
        cuts=cuts,
    )


def knockouts_fed_by(session: Session, source: Flight) -> Sequence[Flight]:
    """The knockouts that take their field from ``source``, in display order."""
    return list(
        session.exec(
            select(Flight)
            .where(Flight.qualifies_from_id == source.id)
            .order_by(col(Flight.position), col(Flight.id))
        )
    )


def source_cut(session: Session, source: Flight) -> StageCut | None:
    """Who goes through from a drawn stage to the first knockout taking its field from
    it, or none: no knockout takes its field from it."""
    if source.status == FlightStatus.SETUP.value:
        return None
    targets = knockouts_fed_by(session, source)
    return _cut(session, targets[0], source) if targets else None


def cut_ties_label(key: str) -> str:
    """How a page names the way ties at the cut are resolved."""
    return find_cut_ties(key).label

