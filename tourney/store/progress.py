"""How results move a flight on: the shared steps of the draw and result use cases.

Nothing here is a use case of its own (no audit entries); the services in ``draws`` and
``results`` call these inside their transaction.

Terminology:
    group      a knockout flight whose draw made a plan (the *root*) together with every
               knockout flight fed from it, directly or through another: one bracket.
    sync       rebuilding the group's bracket from the plan and the finished match rows,
               then writing back who plays whom, byes, walkovers of withdrawn players,
               eliminations and flight statuses. It runs after every result change.
    entrant    in a knockout group the ``entries.id`` (a player keeps it across flights);
               in a Swiss or round robin the ``flight_entries.id``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import sqlalchemy as sa
from sqlalchemy import ColumnElement
from sqlmodel import Session, col, select

from tourney.formats import knockout as ko
from tourney.formats import swiss
from tourney.formats.divisions import handicap_start
from tourney.formats.draw_field import split_draw_field
from tourney.formats.flight_formats import FlightState, flight_format
from tourney.formats.model import EntrantId, MatchId
from tourney.match import DrawScoring, GameEntry, MatchRules, MatchState, score_match
from tourney.rules import GameEnd, Level, Side
from tourney.rules.match_forms import match_form_named
from tourney.rules.variants import variant_named
from tourney.store import teams
from tourney.store.plans import StoredPlan, decode_plan
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    Flight,
    FlightEntry,
    FlightStatus,
    Game,
    Match,
    MatchStatus,
    Player,
    Round,
    RoundStatus,
)
from tourney.store.types import utcnow
from tourney.store.variant_options import event_options

DONE = (MatchStatus.FINISHED.value, MatchStatus.WALKOVER.value)
"""Statuses of a match with a winner decided at the board (or by walkover)."""
OPEN = (MatchStatus.READY.value, MatchStatus.PLAYING.value)
_NO_TABLE = (MatchStatus.PENDING.value, MatchStatus.VOID.value, MatchStatus.BYE.value)
_LEVELS = {"single": Level.SINGLE, "gammon": Level.GAMMON, "backgammon": Level.BACKGAMMON}


def match_rules(event: Event, length: int) -> MatchRules:
    """The event's rule flags for one match of ``length`` points (DESIGN §3), scored by
    the event's variant with the event's options for it."""
    limit = None if event.cube_limit_exponent is None else 2**event.cube_limit_exponent
    return MatchRules(
        length,
        crawford=event.crawford,
        holland=event.holland,
        cube_limit=limit,
        jacoby=event.jacoby,
        variant=variant_named(event.variant),
        options=event_options(event),
        form=match_form_named(event.match_form),
        draw_scoring=DrawScoring(event.draw_scoring),
    )


def game_entry(game: Game) -> GameEntry:
    """A stored game as the match engine's entry (side ``a`` is ``Side.X``; a drawn game
    has no winner)."""
    end = GameEnd(game.end)
    if end is GameEnd.DRAWN:
        return GameEntry.drawn(1 << game.cube_exponent)
    return GameEntry(
        Side.X if game.winner == "a" else Side.O,
        end,
        1 << game.cube_exponent,
        None if game.level is None else _LEVELS[game.level],
    )


def games_of(session: Session, match_id: int) -> list[Game]:
    """A match's games in order."""
    return list(
        session.exec(select(Game).where(Game.match_id == match_id).order_by(col(Game.number)))
    )


def match_state(event: Event, match: Match, games: Sequence[Game]) -> MatchState:
    """The match engine's state after the stored games, from the match's start."""
    return score_match(match_rules(event, match.match_length), [game_entry(g) for g in games],
                       start=match_start(match))


def match_start(match: Match) -> tuple[int, int]:
    """The score the match starts from: 0-0, or a handicap start."""
    return (match.start_a, match.start_b)


def sync_handicap_starts(session: Session, flight_ids: Collection[int]) -> None:
    """Write the division rule's start on each match of ``flight_ids`` not yet played
    whose start the director has not set by hand.

    A flight with a handicap (``division_handicap`` points per division of difference)
    gives the player of the lower division that many points up; the start is settled
    while the match is waiting, and stays once games are entered.
    """
    flights = list(session.exec(select(Flight).where(
        col(Flight.id).in_(list(flight_ids)), col(Flight.division_handicap) > 0)))
    if not flights:
        return
    event = session.get(Event, flights[0].event_id)
    divisions = tuple(event.divisions or ()) if event is not None else ()
    if not divisions:
        return
    per_division = {flight.id: flight.division_handicap for flight in flights}
    waiting = (MatchStatus.PENDING.value, MatchStatus.READY.value)
    matches = list(session.exec(select(Match).where(
        col(Match.flight_id).in_(list(per_division)), col(Match.status).in_(waiting),
        col(Match.start_fixed).is_(False))))
    sides = {i for m in matches for i in (m.entry_a_id, m.entry_b_id) if i is not None}
    division_of: dict[int, str] = {
        fe_id: division for fe_id, division in session.exec(
            select(FlightEntry.id, Entry.division)
            .join(Entry, col(Entry.id) == FlightEntry.entry_id)
            .where(col(FlightEntry.id).in_(list(sides))))
        if fe_id is not None}
    for m in matches:
        start = (0, 0)
        if m.entry_a_id is not None and m.entry_b_id is not None:
            start = handicap_start(
                divisions, division_of.get(m.entry_a_id, ""), division_of.get(m.entry_b_id, ""),
                points_per_division=per_division[m.flight_id], length=m.match_length)
        set_fields(m, start_a=start[0], start_b=start[1])


def set_fields(row: Match | FlightEntry | Flight, **values: object) -> bool:
    """Set only the attributes that differ (an unchanged match keeps its version)."""
    changed = False
    for name, value in values.items():
        if getattr(row, name) != value:
            setattr(row, name, value)
            changed = True
    return changed


# --- knockout groups -----------------------------------------------------------------


def is_knockout(flight: Flight) -> bool:
    """Whether the flight is drawn as a bracket (a knockout or a double elimination)."""
    return flight_format(flight.format).is_knockout


def plan_root(session: Session, flight: Flight) -> Flight | None:
    """The flight holding the plan ``flight`` is part of, or none when not drawn."""
    current: Flight | None = flight
    seen: set[int | None] = set()
    while current is not None and current.id not in seen:
        if current.bracket_plan is not None:
            return current
        seen.add(current.id)
        if current.feeds_from_id is None:
            return None
        current = session.get(Flight, current.feeds_from_id)
    return None


def stored_plan(session: Session, root: Flight) -> StoredPlan:
    """The root's bracket plan, decoded once per session.

    A plan is only written by a draw, which assigns a new JSON value: the cache entry is
    used only while it was decoded from the very object the row holds now.
    """
    assert root.bracket_plan is not None
    cache: dict[int, tuple[object, StoredPlan]] = session.info.setdefault("tourney.plans", {})
    hit = cache.get(root.id or 0)
    if hit is not None and hit[0] is root.bracket_plan:
        return hit[1]
    plan = decode_plan(root.bracket_plan)
    cache[root.id or 0] = (root.bracket_plan, plan)
    return plan


def knockout_children(session: Session, root: Flight) -> list[Flight]:
    """Flights planned into ``root``'s bracket (fed from it, directly or not), sources
    before the flights they feed."""
    flights = list(session.exec(select(Flight).where(Flight.event_id == root.event_id)))
    out: list[Flight] = []
    frontier = [root.id]
    while frontier:
        source = frontier.pop(0)
        for flight in sorted(flights, key=lambda f: (f.position, f.id or 0)):
            if flight.feeds_from_id == source and flight_format(flight.format).joins_bracket:
                out.append(flight)
                frontier.append(flight.id)
    return out


@dataclass
class GroupState:
    """A knockout group loaded for a sync: plan, rows and the rebuilt bracket."""

    root: Flight
    plan: StoredPlan
    rows: dict[str, Match]
    flight_entries: dict[tuple[int, int], FlightEntry]
    """(database flight id, entries.id) -> flight entry."""
    entry_of: dict[int, int]
    """flight_entries.id -> entries.id."""
    bracket: ko.Bracket
    flight_ids: dict[str, int] = field(default_factory=dict)
    """Bracket flight name -> database flight id."""

    def row_flight(self, bracket_flight: str) -> int:
        """The database flight of a bracket flight."""
        return self.flight_ids[bracket_flight]


class MatchFacts(Protocol):
    """What the read models and the action rules read of a stored match: a ``Match`` row,
    or the lighter ``MatchRow`` a page loads."""

    @property
    def id(self) -> int | None: ...
    @property
    def flight_id(self) -> int: ...
    @property
    def round_id(self) -> int: ...
    @property
    def position(self) -> int: ...
    @property
    def bracket_key(self) -> str: ...
    @property
    def entry_a_id(self) -> int | None: ...
    @property
    def entry_b_id(self) -> int | None: ...
    @property
    def table_label(self) -> str: ...
    @property
    def match_length(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def score_a(self) -> int: ...
    @property
    def score_b(self) -> int: ...
    @property
    def winner_entry_id(self) -> int | None: ...
    @property
    def result_source(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def start_a(self) -> int: ...
    @property
    def start_b(self) -> int: ...


class MatchRow(NamedTuple):
    """A stored match's columns as pages read them.

    Pages of a 10,000-player flight read some 20,000 matches; made into ORM objects (or
    frozen dataclasses) they cost many times what plain tuples cost, and a page never
    changes them.
    """

    id: int | None
    flight_id: int
    round_id: int
    position: int
    bracket_key: str
    entry_a_id: int | None
    entry_b_id: int | None
    table_label: str
    match_length: int
    status: str
    score_a: int
    score_b: int
    winner_entry_id: int | None
    result_source: str
    version: int
    start_a: int = 0
    start_b: int = 0


_MATCH_ROW_COLUMNS = (
    col(Match.id),
    col(Match.flight_id),
    col(Match.round_id),
    col(Match.position),
    col(Match.bracket_key),
    col(Match.entry_a_id),
    col(Match.entry_b_id),
    col(Match.table_label),
    col(Match.match_length),
    col(Match.status),
    col(Match.score_a),
    col(Match.score_b),
    col(Match.winner_entry_id),
    col(Match.result_source),
    col(Match.version),
    col(Match.start_a),
    col(Match.start_b),
)


def match_rows(session: Session, *where: ColumnElement[bool]) -> list[MatchRow]:
    """The matches that meet ``where``, as plain rows, by round then position."""
    query = (
        sa.select(*_MATCH_ROW_COLUMNS)
        .where(*where)
        .order_by(col(Match.round_id), col(Match.position))
    )
    # Straight to the connection: the ORM's result machinery adds nothing to plain columns.
    return [MatchRow._make(row) for row in session.connection().execute(query)]


class FlightEntryRow(NamedTuple):
    """A flight entry as pages read it."""

    id: int
    flight_id: int
    entry_id: int
    status: str


@dataclass(frozen=True)
class BracketView:
    """A knockout group as a page reads it: plan, bracket and the flight entries."""

    root: Flight
    plan: StoredPlan
    flight_entries: dict[tuple[int, int], FlightEntryRow]
    """(database flight id, entries.id) -> flight entry."""
    bracket: ko.Bracket
    flight_ids: dict[str, int]
    """Bracket flight name -> database flight id."""
    rows: dict[str, MatchRow]
    """Bracket key -> the group's stored match."""


def _group_flight_ids(plan: StoredPlan, root: Flight) -> tuple[dict[str, int], list[int]]:
    """Bracket flight name -> database flight, and every database flight of the group."""
    flight_ids = {r.bracket_flight: r.flight_id for r in plan.rounds}
    return flight_ids, sorted(set(flight_ids.values()) | {root.id or 0})


def _results(
    rows: Iterable[tuple[str, str, int | None, tuple[int, int] | None]],
    entry_of: Mapping[int, int],
) -> dict[MatchId, ko.MatchResult]:
    """The bracket's results from (bracket key, status, winner, score) of stored matches."""
    return {
        MatchId(key): ko.MatchResult(EntrantId(entry_of[winner]), score)
        for key, status, winner, score in rows
        if status in DONE and winner is not None
    }


def load_group(session: Session, root: Flight) -> GroupState:
    """Load a knockout group's plan and rows and rebuild its bracket from the results."""
    plan = stored_plan(session, root)
    flight_ids, ids = _group_flight_ids(plan, root)
    rows = {
        m.bracket_key: m
        for m in session.exec(
            select(Match).where(col(Match.flight_id).in_(ids), Match.bracket_key != "")
        )
    }
    fes = list(session.exec(select(FlightEntry).where(col(FlightEntry.flight_id).in_(ids))))
    by_key = {(fe.flight_id, fe.entry_id): fe for fe in fes}
    entry_of = {fe.id or 0: fe.entry_id for fe in fes}
    results = _results(
        ((k, r.status, r.winner_entry_id, (r.score_a, r.score_b)) for k, r in rows.items()),
        entry_of,
    )
    return GroupState(root, plan, rows, by_key, entry_of, plan.bracket(results), flight_ids)


def read_group(session: Session, root: Flight) -> BracketView:
    """A knockout group's plan and bracket rebuilt from its results, for a page."""
    plan = stored_plan(session, root)
    flight_ids, ids = _group_flight_ids(plan, root)
    rows = {
        m.bracket_key: m
        for m in match_rows(session, col(Match.flight_id).in_(ids), col(Match.bracket_key) != "")
    }
    query = sa.select(
        col(FlightEntry.id),
        col(FlightEntry.flight_id),
        col(FlightEntry.entry_id),
        col(FlightEntry.status),
    ).where(col(FlightEntry.flight_id).in_(ids))
    fes = [
        FlightEntryRow(fe_id or 0, flight, entry, status)
        for fe_id, flight, entry, status in session.connection().execute(query)
    ]
    entry_of = {fe.id: fe.entry_id for fe in fes}
    results = _results(
        ((k, r.status, r.winner_entry_id, (r.score_a, r.score_b)) for k, r in rows.items()),
        entry_of,
    )
    return BracketView(
        root,
        plan,
        {(fe.flight_id, fe.entry_id): fe for fe in fes},
        plan.bracket(results),
        flight_ids,
        rows,
    )


def _withdrawn_entries(session: Session, event_id: int) -> set[EntrantId]:
    query = select(Entry.id).where(
        Entry.event_id == event_id, Entry.status == EntryStatus.WITHDRAWN.value
    )
    return {EntrantId(i) for i in session.exec(query) if i is not None}


class _FlightEntries:
    """A group's flight entries by (database flight, entry), made as players reach a flight.

    An entrant who reaches a flight by losing elsewhere is recorded as fed from the
    flight and round of that loss (unless it is the same database flight: a double
    elimination's losers' bracket).
    """

    def __init__(
        self,
        session: Session,
        plan: ko.Bracket,
        flight_ids: Mapping[str, int],
        ids: dict[tuple[int, int], int],
    ) -> None:
        self.session = session
        self.plan = plan
        self.flight_ids = flight_ids
        self.ids = ids
        self.created: list[FlightEntry] = []

    def id_for(self, flight_id: int, entrant: EntrantId, source: ko.Source) -> int:
        """The flight entry of ``entrant`` in a database flight, made if it is new."""
        found = self.ids.get((flight_id, int(entrant)))
        if found is not None:
            return found
        fed_flight = fed_round = None
        if isinstance(source, ko.LoserOf):
            origin = self.plan.match(source.match)
            fed_flight, fed_round = self.flight_ids[origin.flight], origin.round
        if fed_flight == flight_id:
            fed_flight = fed_round = None
        row = FlightEntry(
            flight_id=flight_id,
            entry_id=int(entrant),
            fed_from_flight_id=fed_flight,
            fed_from_round=fed_round,
        )
        self.session.add(row)
        self.session.flush()
        self.ids[(flight_id, int(entrant))] = row.id or 0
        self.created.append(row)
        return row.id or 0

    def sides(
        self, planned: ko.BracketMatch, shown: ko.MatchView, flight_id: int
    ) -> tuple[int | None, int | None, int | None]:
        """The flight entries of a match's sides and winner as the bracket shows them."""
        side_a = side_b = winner = None
        if shown.a is not None:
            # A bye shows its entrant on side a whichever slot the plan gave it.
            source = planned.a if isinstance(planned.a, ko.Seat | ko.LoserOf) else planned.b
            side_a = self.id_for(flight_id, shown.a, source)
        if shown.b is not None:
            side_b = self.id_for(flight_id, shown.b, planned.b)
        if shown.winner is not None:
            winner = self.id_for(flight_id, shown.winner, planned.a)
        return side_a, side_b, winner

    def write(
        self,
        row: Match,
        planned: ko.BracketMatch,
        shown: ko.MatchView,
        flight_id: int,
        used_tables: FreeTables,
    ) -> None:
        """Write a match's sides, status and winner as the bracket shows them."""
        side_a, side_b, winner = self.sides(planned, shown, flight_id)
        set_fields(row, **_bracket_values(shown, row.status, side_a, side_b, winner))
        label = _table_after(row.status, row.table_label, used_tables)
        if label != row.table_label:
            row.table_label = label


def _walk_over(
    bracket: ko.Bracket,
    rows: Mapping[str, Match],
    withdrawn: Collection[EntrantId],
    *,
    among: Collection[MatchId] | None = None,
) -> ko.Bracket:
    """Give withdrawn players' ready matches to their opponents, and mark the rows."""
    in_play = {MatchId(k) for k, row in rows.items() if row.status == MatchStatus.PLAYING.value}
    bracket, walked = ko.walk_over_withdrawn(bracket, withdrawn, in_play=in_play, among=among)
    for key in walked:
        row = rows[key]
        set_fields(row, status=MatchStatus.WALKOVER.value, result_source="walkover")
        row.finished_at = row.finished_at or utcnow()
    return bracket


def sync_group(session: Session, root: Flight, *, published: bool | None = None) -> GroupState:
    """Rebuild a knockout group's bracket and write back every match, entry and flight status."""
    group = load_group(session, root)
    group.bracket = _walk_over(
        group.bracket, group.rows, _withdrawn_entries(session, root.event_id)
    )
    used_tables = FreeTables(tables_in_use(session, root.event_id))
    ids = {key: fe.id or 0 for key, fe in group.flight_entries.items()}
    entries = _FlightEntries(session, group.bracket, group.flight_ids, ids)
    for planned in group.plan.matches:
        shown = ko.view(group.bracket, planned)
        flight_id = group.row_flight(planned.flight)
        entries.write(group.rows[planned.id], planned, shown, flight_id, used_tables)
    for fe in entries.created:
        group.flight_entries[(fe.flight_id, fe.entry_id)] = fe
        group.entry_of[fe.id or 0] = fe.entry_id
    _set_entry_statuses(group.flight_entries.values(), group.bracket, group.flight_ids)
    open_flights = _open_flights(
        (group.flight_ids[m.flight], group.rows[m.id].status) for m in group.plan.matches
    )
    _set_flight_statuses(session, set(group.flight_ids.values()), open_flights, published)
    sync_handicap_starts(session, set(group.flight_ids.values()))
    return group


def drawn_match_rows(
    session: Session,
    root: Flight,
    bracket: ko.Bracket,
    flight_ids: Mapping[str, int],
    round_ids: Mapping[tuple[str, int], int],
    flight_entries: dict[tuple[int, int], int],
) -> list[dict[str, object]]:
    """Every match row of a knockout group just drawn, as ``sync_group`` would write it,
    and the group's flights marked drawn.

    A draw inserts these and never updates them: a 10,000-player draw writes some 18,000
    rows once instead of inserting them empty and updating 12,000 one by one. Running
    ``sync_group`` straight after changes nothing.

    Args:
        flight_ids: bracket flight name -> database flight.
        round_ids: (bracket flight name, round) -> database round.
        flight_entries: (database flight, entries.id) -> flight entry, of the drawn
            players; entries reached later are made as the sync makes them.
    """
    used_tables = FreeTables(tables_in_use(session, root.event_id))
    entries = _FlightEntries(session, bracket, flight_ids, flight_entries)
    rows: list[dict[str, object]] = []
    statuses: list[tuple[int, str]] = []
    for planned in bracket.matches:
        flight_id = flight_ids[planned.flight]
        shown = ko.view(bracket, planned)
        side_a, side_b, winner = entries.sides(planned, shown, flight_id)
        values: dict[str, object] = {
            "flight_id": flight_id,
            "round_id": round_ids[(planned.flight, planned.round)],
            "position": planned.index,
            "bracket_key": str(planned.id),
            "match_length": planned.length,
            "score_a": 0,
            "score_b": 0,
            "result_source": "",
            **_bracket_values(shown, MatchStatus.PENDING.value, side_a, side_b, winner),
        }
        status = str(values["status"])
        values["status"] = MatchStatus(status)
        values["table_label"] = _table_after(status, "", used_tables)
        rows.append(values)
        statuses.append((flight_id, status))
    flights = {root.id or 0, *flight_ids.values()}
    _set_flight_statuses(session, flights, _open_flights(statuses), None)
    return rows


def sync_from(session: Session, root: Flight, key: str) -> None:
    """Move a knockout group on after the result of match ``key`` changed.

    Only ``key`` and the matches built on it (its winner's and loser's way on, the fed
    flights' matches) can change, so only their rows are loaded and written again; the
    rest of the bracket is worked out from the other rows' results. The outcome is the
    one ``sync_group`` would write.
    """
    plan = stored_plan(session, root)
    flight_ids, ids = _group_flight_ids(plan, root)
    fe_ids: dict[tuple[int, int], int] = {}
    entry_of: dict[int, int] = {}
    fe_query = select(FlightEntry.id, FlightEntry.flight_id, FlightEntry.entry_id).where(
        col(FlightEntry.flight_id).in_(ids)
    )
    for fe_id, flight_id, entry_id in session.exec(fe_query):
        fe_ids[(flight_id, entry_id)] = fe_id or 0
        entry_of[fe_id or 0] = entry_id
    stored = list(
        session.exec(
            select(Match.bracket_key, Match.status, Match.winner_entry_id, Match.flight_id).where(
                col(Match.flight_id).in_(ids), Match.bracket_key != ""
            )
        )
    )
    # Scores are left out: only who won moves the bracket on.
    bracket = plan.bracket(_results(((k, s, w, None) for k, s, w, _ in stored), entry_of))
    if not ko.has_fixed_shape(bracket):
        sync_group(session, root)
        return
    keys = (MatchId(key), *ko.dependents(bracket, MatchId(key)))
    rows = {
        m.bracket_key: m
        for m in session.exec(
            select(Match).where(col(Match.flight_id).in_(ids), col(Match.bracket_key).in_(keys))
        )
    }
    bracket = _walk_over(bracket, rows, _withdrawn_entries(session, root.event_id), among=keys)
    used_tables = FreeTables(tables_in_use(session, root.event_id))
    entries = _FlightEntries(session, bracket, flight_ids, fe_ids)
    touched: set[int] = set()
    for k in keys:
        row = rows[k]
        touched.update(entry_of[i] for i in (row.entry_a_id, row.entry_b_id) if i is not None)
        planned = bracket.match(k)
        shown = ko.view(bracket, planned)
        entries.write(row, planned, shown, flight_ids[planned.flight], used_tables)
        touched.update(int(x) for x in (shown.a, shown.b) if x is not None)
    session.flush()
    mine = {fe_id for (_, entry_id), fe_id in entries.ids.items() if entry_id in touched}
    if mine:
        fes = session.exec(select(FlightEntry).where(col(FlightEntry.id).in_(mine)))
        _set_entry_statuses(fes, bracket, flight_ids)
    statuses = {k: (fid, status) for k, status, _, fid in stored}
    statuses.update((k, (row.flight_id, row.status)) for k, row in rows.items())
    _set_flight_statuses(session, set(flight_ids.values()), _open_flights(statuses.values()), None)
    sync_handicap_starts(session, set(flight_ids.values()))


def _bracket_values(
    shown: ko.MatchView,
    current_status: str,
    side_a: int | None,
    side_b: int | None,
    winner: int | None,
) -> dict[str, object]:
    """A match's sides, status and winner as the bracket shows them, for a row whose
    status is ``current_status`` now."""
    values: dict[str, object] = {
        "entry_a_id": side_a,
        "entry_b_id": side_b,
        "status": _row_status(shown.status, current_status),
        "winner_entry_id": winner,
    }
    if shown.status is ko.MatchStatus.BYE:
        values["result_source"] = "bye"
    elif shown.status in (ko.MatchStatus.PENDING, ko.MatchStatus.VOID):
        values.update(score_a=0, score_b=0, result_source="", winner_entry_id=None)
    return values


def _table_after(status: str, label: str, used_tables: FreeTables) -> str:
    """A match's table once its status is ``status``: a ready match takes a free one, a
    match nobody plays now gives its own up."""
    if status == MatchStatus.READY.value and not label:
        return used_tables.take()
    if status in _NO_TABLE and label:
        return ""
    return label


def tables_in_use(session: Session, event_id: int) -> set[str]:
    """Table labels held by the event's matches waiting or being played, in any flight.

    Every flight of an event plays in the same room, so a table is free only when no
    unfinished match of the event sits at it.
    """
    labels = session.exec(
        select(Match.table_label)
        .join(Flight, col(Flight.id) == Match.flight_id)
        .where(
            Flight.event_id == event_id,
            col(Match.status).in_(OPEN),
            Match.table_label != "",
        )
    )
    return set(labels)


def entrant_name(session: Session, flight_entry_id: int | None) -> str | None:
    """The name of the player a match side's flight entry stands for (none: nobody)."""
    fe = session.get(FlightEntry, flight_entry_id) if flight_entry_id is not None else None
    entry = session.get(Entry, fe.entry_id) if fe else None
    player = session.get(Player, entry.player_id) if entry else None
    return player.name if player else None


class FreeTables:
    """Hands out the lowest free table numbers of a room, one after another.

    Tables are only taken while matches are written, never given back, so each search
    goes on from where the last one stopped: numbering a round of 5,000 matches is
    linear, not quadratic.
    """

    def __init__(self, used: Iterable[str]) -> None:
        self.used = set(used)
        self._lowest = 1
        """Every number below it is taken."""

    def take(self) -> str:
        """The lowest table number not in use, from now on in use."""
        while str(self._lowest) in self.used:
            self._lowest += 1
        label = str(self._lowest)
        self.used.add(label)
        return label


def _row_status(state: ko.MatchStatus, current: str) -> str:
    if state is ko.MatchStatus.VOID:
        return MatchStatus.VOID.value
    if state is ko.MatchStatus.BYE:
        return MatchStatus.BYE.value
    if state is ko.MatchStatus.PENDING:
        return MatchStatus.PENDING.value
    if state is ko.MatchStatus.READY:
        return MatchStatus.PLAYING.value if current == MatchStatus.PLAYING.value else "ready"
    return current if current in DONE else MatchStatus.FINISHED.value


def _set_entry_statuses(
    entries: Iterable[FlightEntry], bracket: ko.Bracket, flight_ids: Mapping[str, int]
) -> None:
    """Eliminated or active, as the bracket has it (a withdrawal stays)."""
    out = ko.knocked_out(bracket, flight_ids)
    for fe in entries:
        if fe.status == EntryStatus.WITHDRAWN.value:
            continue
        eliminated = fe.entry_id in out.get(fe.flight_id, set())
        set_fields(
            fe, status=EntryStatus.ELIMINATED.value if eliminated else EntryStatus.ACTIVE.value
        )


def _open_flights(matches: Iterable[tuple[int, str]]) -> set[int]:
    """The flights, of (flight, match status) pairs, with a match open or still to come."""
    return {
        flight_id for flight_id, status in matches if status in (MatchStatus.PENDING.value, *OPEN)
    }


def _set_flight_statuses(
    session: Session, flight_ids: Iterable[int], open_flights: set[int], published: bool | None
) -> None:
    """A group's flights run while a match is open or to come, and are finished after."""
    for flight_id in sorted(set(flight_ids)):
        flight = session.get(Flight, flight_id)
        assert flight is not None
        if published is True or flight.status in (
            FlightStatus.RUNNING.value,
            FlightStatus.FINISHED.value,
        ):
            done = flight_id not in open_flights
            set_fields(
                flight,
                status=FlightStatus.FINISHED.value if done else FlightStatus.RUNNING.value,
            )
        elif published is None and flight.status == FlightStatus.SETUP.value:
            set_fields(flight, status=FlightStatus.DRAWN.value)


def sync_after_result(session: Session, match: Match) -> None:
    """Move the match's flight on after its result changed (bracket or round status)."""
    if match.fixture_id is not None:
        # A board of a team fixture: the fixture moves its round and flight on.
        teams.sync_fixture(session, match)
        return
    flight = session.get(Flight, match.flight_id)
    assert flight is not None
    if is_knockout(flight):
        root = plan_root(session, flight)
        if root is not None:
            if match.bracket_key:
                sync_from(session, root, match.bracket_key)
            else:
                sync_group(session, root)
        return
    sync_round_robin_or_swiss(session, flight)


# --- Swiss and round robin -----------------------------------------------------------


def flight_rounds(session: Session, flight_id: int) -> list[Round]:
    """A flight's rounds in order."""
    return list(
        session.exec(select(Round).where(Round.flight_id == flight_id).order_by(col(Round.number)))
    )


def flight_matches(session: Session, flight_id: int) -> list[Match]:
    """A flight's matches by round then position."""
    return list(
        session.exec(
            select(Match)
            .where(Match.flight_id == flight_id)
            .order_by(col(Match.round_id), col(Match.position))
        )
    )


def sync_round_robin_or_swiss(session: Session, flight: Flight) -> None:
    """Finish rounds whose matches are all decided; a finished last round finishes the flight."""
    rounds = flight_rounds(session, flight.id or 0)
    matches = flight_matches(session, flight.id or 0)
    by_round: dict[int, list[Match]] = {}
    for m in matches:
        by_round.setdefault(m.round_id, []).append(m)
    for rnd in rounds:
        if rnd.status == RoundStatus.DRAFT.value:
            continue
        done = all(
            m.status not in (MatchStatus.PENDING.value, *OPEN)
            for m in by_round.get(rnd.id or 0, [])
        )
        rnd.status = RoundStatus.FINISHED if done else RoundStatus.PUBLISHED
    if flight.status in (FlightStatus.RUNNING.value, FlightStatus.FINISHED.value):
        all_done = bool(rounds) and all(r.status == RoundStatus.FINISHED.value for r in rounds)
        finished = all_done and not is_round_due(session, flight)
        set_fields(
            flight, status=FlightStatus.FINISHED.value if finished else FlightStatus.RUNNING.value
        )


def _round_match(match: Match, round_number: int,
                 half_score: tuple[int, int] | None = None) -> swiss.RoundMatch:
    """A stored Swiss or round-robin match as the field counts it (``half_score``: its
    score in half points where ½-½ draws gave halves)."""
    assert match.entry_a_id is not None
    a = EntrantId(match.entry_a_id)
    if match.entry_b_id is None:
        bye = a if match.status == MatchStatus.BYE.value else None
        return swiss.RoundMatch(round_number, a, None, bye, (0, 0), match.match_length)
    winner = match.winner_entry_id if match.status in DONE else None
    return swiss.RoundMatch(
        round_number,
        a,
        EntrantId(match.entry_b_id),
        None if winner is None else EntrantId(winner),
        (match.score_a, match.score_b),
        match.match_length,
        half_score,
    )


def _half_scores(session: Session, flight: Flight, matches: Sequence[Match]
                 ) -> dict[int, tuple[int, int]]:
    """The half-point scores of the flight's matches with drawn games, where the event
    scores a draw ½-½ (whole points cannot show them); other matches need none."""
    event = session.get(Event, flight.event_id)
    if event is None or event.draw_scoring != DrawScoring.HALF.value:
        return {}
    ids = [m.id for m in matches if m.id is not None]
    with_draws = set(session.exec(select(Game.match_id).where(
        col(Game.match_id).in_(ids), Game.end == GameEnd.DRAWN.value).distinct()))
    found: dict[int, tuple[int, int]] = {}
    for m in matches:
        if m.id in with_draws:
            found[m.id or 0] = match_state(event, m, games_of(session, m.id or 0)).half_score
    return found


def swiss_field(session: Session, flight: Flight) -> swiss.SwissField:
    """A Swiss or round robin's field: records (late entries from their starting records),
    pairs already met, and the outcomes the standings take. Entrants are flight entries."""
    fes = session.exec(select(FlightEntry).where(FlightEntry.flight_id == flight.id))
    entries = [
        swiss.FieldEntry(
            EntrantId(fe.id or 0),
            fe.initial_wins,
            fe.initial_losses,
            active=fe.status == EntryStatus.ACTIVE.value,
        )
        for fe in fes
    ]
    numbers = {r.id: r.number for r in flight_rounds(session, flight.id or 0)}
    stored = flight_matches(session, flight.id or 0)
    halves = _half_scores(session, flight, stored)
    matches = [
        _round_match(m, numbers[m.round_id], halves.get(m.id or 0))
        for m in stored
        if m.entry_a_id is not None
    ]
    return swiss.swiss_field(
        entries,
        matches,
        bye_is_win=flight.bye_counts_as_win,
        byes_recorded=flight_format(flight.format).byes_recorded,
    )


def draw_field(
    session: Session, event_id: int, *, present_only: bool | None = None, division: str = ""
) -> tuple[list[tuple[Entry, Player]], list[tuple[Entry, Player]]]:
    """The active entries a draw takes and those it leaves out (not checked in), each in
    seed order (unseeded by rating, then name); ``present_only`` as in
    :func:`~tourney.formats.draw_field.split_draw_field`. A ``division`` flight takes that
    division's players only."""
    query = (
        select(Entry, Player)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(Entry.event_id == event_id, Entry.status == EntryStatus.ACTIVE.value)
    )
    if division:
        query = query.where(Entry.division == division)
    rows = session.exec(query)
    ordered = sorted(
        rows,
        key=lambda r: (
            r[0].seed is None,
            r[0].seed or 0,
            -(r[1].rating or 0.0),
            r[1].name.casefold(),
            r[0].id or 0,
        ),
    )
    return split_draw_field(
        [(row, row[0].checked_in_at is not None) for row in ordered], present_only=present_only
    )


def is_round_due(session: Session, flight: Flight) -> bool:
    """Whether the flight has another round to pair (only a Swiss pairs round by round)."""
    if not flight_format(flight.format).pairs_round_by_round:
        return False
    return swiss.is_next_round_due(
        swiss_field(session, flight),
        rounds_drawn=len(flight_rounds(session, flight.id or 0)),
        rounds=flight.swiss_rounds,
        lives=flight.swiss_lives,
    )


# --- what a director may do ----------------------------------------------------------


def has_started(match: MatchFacts) -> bool:
    """Whether a match has games or a result (a bye has neither)."""
    return match.status not in (MatchStatus.READY.value, MatchStatus.BYE.value)


def flight_state(
    session: Session, flight: Flight, rounds: Sequence[Round], matches: Iterable[MatchFacts]
) -> FlightState:
    """The facts that decide which actions a flight allows, from all its rounds (in order)
    and its matches."""
    newest = rounds[-1] if rounds else None
    newest_finished = newest is not None and newest.status == RoundStatus.FINISHED.value
    newest_started = newest is not None and any(
        m.round_id == newest.id and has_started(m) for m in matches
    )
    return FlightState(
        format=flight.format,
        drawn=flight.status != FlightStatus.SETUP.value,
        finished=flight.status == FlightStatus.FINISHED.value,
        fed=flight.feeds_from_id is not None,
        rounds=len(rounds),
        draft_rounds=sum(r.status == RoundStatus.DRAFT.value for r in rounds),
        newest_round_finished=newest_finished,
        newest_round_started=newest_started,
        round_due=newest_finished and is_round_due(session, flight),
    )


def load_flight_state(session: Session, flight: Flight) -> FlightState:
    """The facts that decide which actions a flight allows, loaded from the database."""
    rounds = flight_rounds(session, flight.id or 0)
    return flight_state(session, flight, rounds, flight_matches(session, flight.id or 0))
