"""Divisions, handicap starts and draw scoring: the director's use cases.

Each function is one use case in one transaction with one audit entry. The rules live in
``tourney.formats.divisions`` (the order of divisions, the handicap start) and
``tourney.match`` (what a start and a drawn game mean for the score); this module loads,
checks with them and writes.

Terminology: see ``tourney.formats.divisions``. A match's start is *fixed* once the
director sets it by hand; until then the flight's division rule keeps it up to date while
the match waits to be played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from tourney.formats.divisions import parse_divisions
from tourney.formats.errors import FormatUserError
from tourney.match import DrawScoring, MatchEntryError, score_match
from tourney.rules.messages import Message, message_of
from tourney.store import progress
from tourney.store.audit import Actor, record
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.tables import Entry, Event, Flight, Game, Match, MatchStatus, Player

MAX_HANDICAP_PER_DIVISION = 10
"""The most points a flight's rule gives per division of difference."""


@dataclass(frozen=True, slots=True)
class DivisionsView:
    """An event's divisions and draw scoring as the director's page shows them."""

    event_id: int
    divisions: tuple[str, ...]
    draw_scoring: DrawScoring


@dataclass(frozen=True, slots=True)
class EntryDivision:
    """One entry and its division, for the director's divisions page."""

    entry_id: int
    name: str
    division: str


@dataclass(frozen=True, slots=True)
class FlightDivision:
    """One flight's division (empty: mixed) and its handicap rule."""

    flight_id: int
    name: str
    division: str
    handicap: int
    division_standings: bool = False
    """A mixed flight also ranks each division's players separately."""


@dataclass(frozen=True, slots=True)
class DivisionsPage:
    """The director's divisions page: the event's divisions, draw scoring, every entry's
    division and every flight's division rule."""

    event_id: int
    event_name: str
    divisions: tuple[str, ...]
    draw_scoring: DrawScoring
    entries: tuple[EntryDivision, ...]
    flights: tuple[FlightDivision, ...]

    @property
    def divisions_text(self) -> str:
        """The divisions one per line, as the form edits them."""
        return "\n".join(self.divisions)

    @property
    def draw_choices(self) -> tuple[tuple[str, str], ...]:
        """(value, label) of each draw scoring."""
        return tuple((member.value, member.label) for member in DrawScoring)


def divisions_page(session: Session, actor: Actor, event_id: int) -> DivisionsPage:
    """The divisions page of an event.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    event = require_event(session, actor, event_id, manage=True)
    entries = tuple(
        EntryDivision(entry_id or 0, name, division)
        for entry_id, name, division in session.exec(
            select(Entry.id, Player.name, Entry.division)
            .join(Player, col(Player.id) == Entry.player_id)
            .where(Entry.event_id == event_id)
            .order_by(col(Player.name)))
    )
    flights = tuple(
        FlightDivision(flight.id or 0, flight.name, flight.division, flight.division_handicap,
                       flight.division_standings)
        for flight in session.exec(select(Flight).where(Flight.event_id == event_id)
                                   .order_by(col(Flight.position), col(Flight.id)))
    )
    return DivisionsPage(event_id, event.name, tuple(event.divisions or ()),
                         DrawScoring(event.draw_scoring), entries, flights)


def divisions_view(session: Session, actor: Actor, event_id: int) -> DivisionsView:
    """The event's divisions, strongest first, and what a drawn game scores.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    event = require_event(session, actor, event_id, manage=True)
    return DivisionsView(event_id, tuple(event.divisions or ()), DrawScoring(event.draw_scoring))


def set_divisions(session: Session, *, actor: Actor, event_id: int, text: str) -> DivisionsView:
    """Set the event's divisions from the director's list (one per line or comma
    separated, strongest first). A division still held by an entry or flight cannot go.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
        StoreUserError: a name listed twice or too long, or a division in use dropped.
    """
    event = require_event(session, actor, event_id, manage=True)
    try:
        names = parse_divisions(text)
    except FormatUserError as error:
        # The format error is a message already: passed on whole, it is still translated.
        raise StoreUserError(message_of(error), field="divisions") from None
    used = set(session.exec(
        select(Entry.division).where(Entry.event_id == event_id, Entry.division != "")).all())
    used |= set(session.exec(
        select(Flight.division).where(Flight.event_id == event_id, Flight.division != "")).all())
    dropped = sorted(used - set(names))
    if dropped:
        raise StoreUserError(Message(
            "The division %(division)s still has players or a flight; move them first.",
            division=repr(dropped[0]),
        ), field="divisions")
    before = list(event.divisions or ())
    if before == list(names):
        return divisions_view(session, actor, event_id)
    event.divisions = list(names) or None
    session.flush()
    record(session, actor=actor, action="event.divisions", entity_type="event",
           entity_id=event_id, event_id=event_id, before={"divisions": before},
           after={"divisions": list(names)})
    _sync_event(session, event_id)
    return divisions_view(session, actor, event_id)


def set_draw_scoring(session: Session, *, actor: Actor, event_id: int,
                     draw_scoring: str) -> DivisionsView:
    """Choose what a drawn game scores each player: ``nothing`` (0-0), ``half`` (½-½) or
    ``one`` (1-1).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
        StoreUserError: not one of the three, or matches have games already.
    """
    event = require_event(session, actor, event_id, manage=True)
    try:
        chosen = DrawScoring(draw_scoring)
    except ValueError:
        raise StoreUserError(Message("Choose 0-0, ½-½ or 1-1 for a drawn game."),
                             field="draw_scoring") from None
    if chosen.value == event.draw_scoring:
        return divisions_view(session, actor, event_id)
    played = session.exec(
        select(Game.id).join(Match, col(Match.id) == Game.match_id)
        .join(Flight, col(Flight.id) == Match.flight_id)
        .where(Flight.event_id == event_id).limit(1)).first()
    if played is not None:
        raise StoreUserError(
            Message("Games are entered already: what a draw scores cannot change now."),
            field="draw_scoring",
        )
    before = event.draw_scoring
    event.draw_scoring = chosen.value
    session.flush()
    record(session, actor=actor, action="event.draw_scoring", entity_type="event",
           entity_id=event_id, event_id=event_id, before={"draw_scoring": before},
           after={"draw_scoring": chosen.value})
    return divisions_view(session, actor, event_id)


def set_entry_division(session: Session, *, actor: Actor, entry_id: int,
                       division: str) -> None:
    """Put an entry in one of its event's divisions (empty: none).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: a division the event does not list.
    """
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise NotFoundError(Message("No such player in this event."))
    event = require_event(session, actor, entry.event_id, manage=True)
    chosen = division.strip()
    _check_division(event, chosen)
    if entry.division == chosen:
        return
    before = entry.division
    entry.division = chosen
    session.flush()
    record(session, actor=actor, action="entry.division", entity_type="entry",
           entity_id=entry_id, event_id=event.id, before={"division": before},
           after={"division": chosen})
    _sync_event(session, event.id or 0)


def set_entry_divisions(session: Session, *, actor: Actor, event_id: int,
                        chosen: Mapping[int, str]) -> int:
    """Put many entries of one event in divisions at once (``entry id -> division``,
    empty: none); one audit entry per entry changed, the handicap starts brought up to
    date once. Returns how many changed.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
        StoreUserError: a division the event does not list, or an entry of another event.
    """
    event = require_event(session, actor, event_id, manage=True)
    wanted = {entry_id: division.strip() for entry_id, division in chosen.items()}
    for division in set(wanted.values()):
        _check_division(event, division)
    rows = list(session.exec(select(Entry).where(
        Entry.event_id == event_id, col(Entry.id).in_(list(wanted)))))
    if len(rows) != len(wanted):
        raise StoreUserError(
            Message("Some of the players are not in this event."), field="division"
        )
    changed = 0
    for entry in rows:
        division = wanted[entry.id or 0]
        if entry.division == division:
            continue
        record(session, actor=actor, action="entry.division", entity_type="entry",
               entity_id=entry.id, event_id=event_id, before={"division": entry.division},
               after={"division": division})
        entry.division = division
        changed += 1
    if changed:
        session.flush()
        _sync_event(session, event_id)
    return changed


def set_flight_division(session: Session, *, actor: Actor, flight_id: int, division: str,
                        handicap: int, division_standings: bool | None = None) -> None:
    """Make a flight one division's (or mixed: empty) and set its handicap rule: the
    lower division's player starts ``handicap`` points up per division of difference.
    ``division_standings`` (none: as it was) makes a mixed flight also rank each
    division's players separately under its standings; a one-division flight never does.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: a division the event does not list, or a handicap out of range.
    """
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    event = require_event(session, actor, flight.event_id, manage=True)
    chosen = division.strip()
    _check_division(event, chosen)
    if isinstance(handicap, bool) or not 0 <= handicap <= MAX_HANDICAP_PER_DIVISION:
        raise StoreUserError(Message(
            "A handicap is 0 to %(largest)s points per division.",
            largest=MAX_HANDICAP_PER_DIVISION,
        ), field="division_handicap")
    separately = flight.division_standings if division_standings is None \
        else bool(division_standings)
    before = {"division": flight.division, "division_handicap": flight.division_handicap,
              "division_standings": flight.division_standings}
    after = {"division": chosen, "division_handicap": handicap,
             "division_standings": separately and not chosen}
    if before == after:
        return
    flight.division, flight.division_handicap = chosen, handicap
    flight.division_standings = separately and not chosen
    session.flush()
    record(session, actor=actor, action="flight.division", entity_type="flight",
           entity_id=flight_id, event_id=event.id, before=before, after=after)
    progress.sync_handicap_starts(session, [flight_id])


def set_match_start(session: Session, *, actor: Actor, match_id: int, start_a: int,
                    start_b: int) -> None:
    """Set a match's starting score by hand (a handicap the director gives), before any
    game is entered. It stays, whatever the flight's division rule says.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not the actor's event.
        StoreUserError: games are entered or the match is decided, or a start the match
            rules refuse (a player at N or more, a negative score: the reason says which).
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(Message("No such match."))
    flight = session.get(Flight, match.flight_id)
    assert flight is not None
    event = require_event(session, actor, flight.event_id, manage=True)
    if match.status not in (MatchStatus.PENDING.value, MatchStatus.READY.value) or \
            progress.games_of(session, match_id):
        raise StoreUserError(
            Message("The start can change only before the first game is entered."),
            field="start",
        )
    try:
        score_match(progress.match_rules(event, match.match_length), [],
                    start=(start_a, start_b))
    except MatchEntryError as error:
        raise StoreUserError(error.message, field="start") from None
    before = {"start": [match.start_a, match.start_b], "fixed": match.start_fixed}
    match.start_a, match.start_b, match.start_fixed = start_a, start_b, True
    session.flush()
    record(session, actor=actor, action="match.start", entity_type="match", entity_id=match_id,
           event_id=event.id, match_id=match_id, before=before,
           after={"start": [start_a, start_b], "fixed": True})


def division_names(event: Event) -> Sequence[str]:
    """The event's divisions, strongest first."""
    return tuple(event.divisions or ())


def _check_division(event: Event, division: str) -> None:
    if division and division not in (event.divisions or ()):
        if not event.divisions:
            raise StoreUserError(Message(
                "%(division)s is not one of this event's divisions (none yet).",
                division=repr(division),
            ), field="division")
        raise StoreUserError(Message(
            "%(division)s is not one of this event's divisions (%(listed)s).",
            division=repr(division), listed=", ".join(event.divisions),
        ), field="division")


def _sync_event(session: Session, event_id: int) -> None:
    """Bring every flight's handicap starts up to date after divisions changed."""
    flight_ids = session.exec(select(Flight.id).where(Flight.event_id == event_id)).all()
    progress.sync_handicap_starts(session, [i for i in flight_ids if i is not None])
