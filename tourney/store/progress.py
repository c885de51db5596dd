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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from tourney.formats import knockout as ko
from tourney.formats.model import EntrantId, MatchId, MatchOutcome
from tourney.formats.swiss import SwissEntrant
from tourney.match import GameEntry, MatchRules, MatchState, score_match
from tourney.rules import GameEnd, Level, Side
from tourney.rules.variants import variant_named
from tourney.store.plans import StoredPlan, decode_plan
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    Flight,
    FlightEntry,
    FlightFormat,
    FlightStatus,
    Game,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)
from tourney.store.types import utcnow
from tourney.store.variant_options import event_options

KNOCKOUTS = (FlightFormat.KNOCKOUT.value, FlightFormat.DOUBLE_ELIMINATION.value)
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
    """The match engine's state after the stored games."""
    return score_match(match_rules(event, match.match_length), [game_entry(g) for g in games])


def set_fields(row: Match | FlightEntry | Flight, **values: object) -> bool:
    """Set only the attributes that differ (an unchanged match keeps its version)."""
    changed = False
    for name, value in values.items():
        if getattr(row, name) != value:
            setattr(row, name, value)
            changed = True
    return changed


# --- knockout groups -----------------------------------------------------------------


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
    """Knockout flights fed from ``root``, directly or not, sources before the flights they feed."""
    flights = list(session.exec(select(Flight).where(Flight.event_id == root.event_id)))
    out: list[Flight] = []
    frontier = [root.id]
    while frontier:
        source = frontier.pop(0)
        for flight in sorted(flights, key=lambda f: (f.position, f.id or 0)):
            if flight.feeds_from_id == source and flight.format == FlightFormat.KNOCKOUT.value:
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


def load_group(session: Session, root: Flight) -> GroupState:
    """Load a knockout group's plan and rows and rebuild its bracket from the results."""
    plan = stored_plan(session, root)
    flight_ids = {r.bracket_flight: r.flight_id for r in plan.rounds}
    ids = sorted(set(flight_ids.values()) | {root.id or 0})
    rows = {
        m.bracket_key: m
        for m in session.exec(
            select(Match).where(col(Match.flight_id).in_(ids), Match.bracket_key != "")
        )
    }
    fes = list(session.exec(select(FlightEntry).where(col(FlightEntry.flight_id).in_(ids))))
    by_key = {(fe.flight_id, fe.entry_id): fe for fe in fes}
    entry_of = {fe.id or 0: fe.entry_id for fe in fes}
    results: dict[MatchId, ko.MatchResult] = {}
    for key, row in rows.items():
        if row.status in DONE and row.winner_entry_id is not None:
            results[MatchId(key)] = ko.MatchResult(
                EntrantId(entry_of[row.winner_entry_id]), (row.score_a, row.score_b)
            )
    return GroupState(root, plan, rows, by_key, entry_of, plan.bracket(results), flight_ids)


def _withdrawn_entries(session: Session, event_id: int) -> set[int]:
    query = select(Entry.id).where(
        Entry.event_id == event_id, Entry.status == EntryStatus.WITHDRAWN.value
    )
    return {i for i in session.exec(query) if i is not None}


def _flight_entry(
    session: Session, group: GroupState, flight_id: int, entry_id: int, source: ko.Source
) -> FlightEntry:
    found = group.flight_entries.get((flight_id, entry_id))
    if found is not None:
        return found
    fed_flight = fed_round = None
    if isinstance(source, ko.LoserOf):
        origin = group.bracket.match(source.match)
        fed_flight, fed_round = group.flight_ids[origin.flight], origin.round
    if fed_flight == flight_id:
        fed_flight = fed_round = None
    row = FlightEntry(
        flight_id=flight_id,
        entry_id=entry_id,
        fed_from_flight_id=fed_flight,
        fed_from_round=fed_round,
    )
    session.add(row)
    session.flush()
    group.flight_entries[(flight_id, entry_id)] = row
    group.entry_of[row.id or 0] = entry_id
    return row


def _auto_walkovers(group: GroupState, withdrawn: set[int]) -> None:
    """A withdrawn player's match that becomes ready goes to the opponent by walkover."""
    changed = True
    while changed:
        changed = False
        for planned in ko.ready_matches(group.bracket):
            row = group.rows[planned.id]
            if row.status == MatchStatus.PLAYING.value:
                continue  # games are on the sheet: the withdrawal service decides
            shown = ko.view(group.bracket, planned)
            assert shown.a is not None and shown.b is not None
            if shown.a not in withdrawn and shown.b not in withdrawn:
                continue
            winner = shown.b if shown.a in withdrawn and shown.b not in withdrawn else shown.a
            group.bracket = ko.record_result(group.bracket, planned.id, winner, None)
            set_fields(row, status=MatchStatus.WALKOVER.value, result_source="walkover")
            row.finished_at = row.finished_at or utcnow()
            changed = True


def sync_group(session: Session, root: Flight, *, published: bool | None = None) -> GroupState:
    """Rebuild a knockout group's bracket and write back every match, entry and flight status."""
    group = load_group(session, root)
    _auto_walkovers(group, _withdrawn_entries(session, root.event_id))
    bracket = group.bracket
    used_tables = {
        (row.flight_id, row.table_label)
        for row in group.rows.values()
        if row.status in OPEN and row.table_label
    }
    for planned in group.plan.matches:
        row = group.rows[planned.id]
        shown = ko.view(bracket, planned)
        flight_id = group.row_flight(planned.flight)
        side_a = side_b = None
        if shown.a is not None:
            # A bye shows its entrant on side a whichever slot the plan gave it.
            source = planned.a if isinstance(planned.a, ko.Seat | ko.LoserOf) else planned.b
            side_a = _flight_entry(session, group, flight_id, shown.a, source).id
        if shown.b is not None:
            side_b = _flight_entry(session, group, flight_id, shown.b, planned.b).id
        winner = None
        if shown.winner is not None:
            winner = _flight_entry(session, group, flight_id, shown.winner, planned.a).id
        _apply(row, shown, side_a, side_b, winner, used_tables)
    _sync_entries_and_flights(session, group, published)
    return group


def _apply(
    row: Match,
    shown: ko.MatchView,
    side_a: int | None,
    side_b: int | None,
    winner: int | None,
    used_tables: set[tuple[int, str]],
) -> None:
    """Write a match's sides, status and winner as the bracket shows them; tables follow."""
    status = _row_status(shown.status, row)
    values: dict[str, object] = {
        "entry_a_id": side_a,
        "entry_b_id": side_b,
        "status": status,
        "winner_entry_id": winner,
    }
    if shown.status is ko.MatchStatus.BYE:
        values["result_source"] = "bye"
    elif shown.status in (ko.MatchStatus.PENDING, ko.MatchStatus.VOID):
        values.update(score_a=0, score_b=0, result_source="", winner_entry_id=None)
    set_fields(row, **values)
    if status == MatchStatus.READY.value and not row.table_label:
        row.table_label = _free_table(used_tables, row.flight_id)
        used_tables.add((row.flight_id, row.table_label))
    elif status in _NO_TABLE and row.table_label:
        row.table_label = ""


def _free_table(used: set[tuple[int, str]], flight_id: int) -> str:
    n = 1
    while (flight_id, str(n)) in used:
        n += 1
    return str(n)


def _row_status(state: ko.MatchStatus, row: Match) -> str:
    if state is ko.MatchStatus.VOID:
        return MatchStatus.VOID.value
    if state is ko.MatchStatus.BYE:
        return MatchStatus.BYE.value
    if state is ko.MatchStatus.PENDING:
        return MatchStatus.PENDING.value
    if state is ko.MatchStatus.READY:
        return MatchStatus.PLAYING.value if row.status == MatchStatus.PLAYING.value else "ready"
    return row.status if row.status in DONE else MatchStatus.FINISHED.value


def _sync_entries_and_flights(session: Session, group: GroupState, published: bool | None) -> None:
    bracket = group.bracket
    out: dict[int, set[int]] = {}
    # Only where two bracket flights share a database flight (a double elimination's
    # winners' and losers' brackets) can a loser stay in the flight; elsewhere the
    # costly "where does the loser go" question need not be asked.
    shared = [fid for fid in group.flight_ids.values()]
    shared_ids = {fid for fid in shared if shared.count(fid) > 1}
    for flight in bracket.flights:
        db_flight = group.flight_ids.get(flight.name)
        if db_flight is None:
            continue
        for entrant, match in ko.eliminations(bracket, flight.name).items():
            if db_flight not in shared_ids:
                out.setdefault(db_flight, set()).add(int(entrant))
                continue
            goes = ko.next_flight(bracket, match.id)
            if goes is not None and group.flight_ids.get(goes) == db_flight:
                continue  # a double elimination's losers' bracket is the same flight
            out.setdefault(db_flight, set()).add(int(entrant))
    for (flight_id, entry_id), fe in group.flight_entries.items():
        if fe.status == EntryStatus.WITHDRAWN.value:
            continue
        eliminated = entry_id in out.get(flight_id, set())
        set_fields(
            fe, status=EntryStatus.ELIMINATED.value if eliminated else EntryStatus.ACTIVE.value
        )
    open_flights: set[int] = set()
    for planned in group.plan.matches:
        if group.rows[planned.id].status in (
            MatchStatus.PENDING.value,
            *OPEN,
        ):
            open_flights.add(group.flight_ids[planned.flight])
    _set_flight_statuses(session, set(group.flight_ids.values()), open_flights, published)


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
    flight = session.get(Flight, match.flight_id)
    assert flight is not None
    if flight.format in KNOCKOUTS:
        root = plan_root(session, flight)
        if root is not None:
            if match.bracket_key:
                sync_from(session, root, match.bracket_key)
            else:
                sync_group(session, root)
        return
    sync_round_robin_or_swiss(session, flight)


# --- incremental sync after one result ------------------------------------------------


@dataclass(frozen=True)
class _Links:
    """A plan's wiring, computed once per session: order, and who builds on whom."""

    position: dict[str, int]
    """Match id -> index in plan order (sources always come before what they feed)."""
    feeds: dict[str, tuple[str, ...]]
    """Match id -> the matches whose sides (or reset) it decides directly."""
    by_id: dict[str, ko.BracketMatch]


def _links(session: Session, root: Flight) -> _Links:
    plan = stored_plan(session, root)
    cache: dict[int, tuple[StoredPlan, _Links]] = session.info.setdefault("tourney.links", {})
    hit = cache.get(root.id or 0)
    if hit is not None and hit[0] is plan:
        return hit[1]
    feeds: dict[str, list[str]] = {}
    for match in plan.matches:
        for side in (match.a, match.b):
            if isinstance(side, ko.WinnerOf | ko.LoserOf):
                feeds.setdefault(side.match, []).append(match.id)
        if match.reset_of is not None:
            feeds.setdefault(match.reset_of, []).append(match.id)
    links = _Links(
        {m.id: i for i, m in enumerate(plan.matches)},
        {k: tuple(v) for k, v in feeds.items()},
        {m.id: m for m in plan.matches},
    )
    cache[root.id or 0] = (plan, links)
    return links


def _is_incremental(plan: StoredPlan) -> bool:
    """Plans with a fresh draw still to make change shape with results: rebuild those whole."""
    return all(f.drawn and not f.pool for f in plan.flights)


def _downstream(links: _Links, key: str) -> list[str]:
    """``key`` and every match built on it, in plan order."""
    seen = {key}
    stack = [key]
    while stack:
        for nxt in links.feeds.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return sorted(seen, key=links.position.__getitem__)


class _RowBracket:
    """Resolves bracket sources from stored rows, for the few matches a result can move.

    Rows of matches not built on the changed result are as the last sync left them, so a
    source's entrant is read from its match's row; changed matches are worked out in plan
    order, each from rows already brought up to date.
    """

    def __init__(
        self,
        session: Session,
        plan: StoredPlan,
        links: _Links,
        rows: dict[str, Match],
        entry_of: dict[int, int],
        fe_ids: dict[tuple[int, int], int],
    ) -> None:
        self.session = session
        self.plan = plan
        self.links = links
        self.rows = rows
        self.entry_of = entry_of
        self.fe_ids = fe_ids

    def entrant(self, fe_id: int | None) -> EntrantId | None:
        return None if fe_id is None else EntrantId(self.entry_of[fe_id])

    def state(self, key: str) -> ko.MatchStatus:
        """The bracket status a synced row stands for."""
        status = self.rows[key].status
        if status == MatchStatus.VOID.value:
            return ko.MatchStatus.VOID
        if status == MatchStatus.BYE.value:
            return ko.MatchStatus.BYE
        if status in DONE:
            return ko.MatchStatus.DECIDED
        if status in OPEN:
            return ko.MatchStatus.READY
        return ko.MatchStatus.PENDING

    def resolve(self, source: ko.Source) -> ko.Resolved:
        if isinstance(source, ko.Seat):
            return source.entrant
        if isinstance(source, ko.Empty):
            return None
        state = self.state(source.match)
        row = self.rows[source.match]
        if isinstance(source, ko.WinnerOf):
            if state is ko.MatchStatus.VOID:
                return None
            if state is ko.MatchStatus.BYE:
                return self.entrant(row.entry_a_id)
            if state is ko.MatchStatus.DECIDED:
                return self.entrant(row.winner_entry_id)
            return ko.PENDING
        if state in (ko.MatchStatus.VOID, ko.MatchStatus.BYE):
            return None
        if state is not ko.MatchStatus.DECIDED:
            return ko.PENDING
        loser = self.loser(row)
        first = source.first_match
        if first is not None and first == self.played_before(source.match, loser):
            return None
        return loser

    def loser(self, row: Match) -> EntrantId:
        a, b = self.entrant(row.entry_a_id), self.entrant(row.entry_b_id)
        loser = b if self.entrant(row.winner_entry_id) == a else a
        assert loser is not None
        return loser

    def played_before(self, key: str, entrant: EntrantId) -> bool:
        """Whether ``entrant`` played a real match in ``key``'s bracket flight before it.

        In a single-elimination flight an entrant's earlier matches there are exactly the
        path that brought them to ``key``, so the stored rows answer it in one query.
        """
        match = self.links.by_id[key]
        flight_id = self.plan.round_of(match).flight_id
        fe_id = self.fe_ids.get((flight_id, int(entrant)))
        if fe_id is None:
            return False
        earlier = self.session.exec(
            select(Match.bracket_key).where(
                Match.flight_id == flight_id,
                col(Match.status).in_(DONE),
                (Match.entry_a_id == fe_id) | (Match.entry_b_id == fe_id),
            )
        )
        for other in earlier:
            planned = self.links.by_id.get(other)
            if (
                planned is not None
                and planned.flight == match.flight
                and planned.round < match.round
            ):
                return True
        return False

    def view(self, match: ko.BracketMatch, withdrawn: set[int]) -> ko.MatchView:
        """The match as a full rebuild would show it (a withdrawn player's match walked over)."""
        row = self.rows[match.id]
        state: ko.MatchStatus | None = None
        if match.reset_of is not None:
            first = self.state(match.reset_of)
            if first is ko.MatchStatus.VOID:
                state = ko.MatchStatus.VOID
            elif first is not ko.MatchStatus.DECIDED:
                state = ko.MatchStatus.PENDING
            else:
                first_row = self.rows[match.reset_of]
                if first_row.winner_entry_id == first_row.entry_a_id:
                    state = ko.MatchStatus.VOID
        a = self.resolve(match.a)
        b = self.resolve(match.b)
        if state is None:
            if a is None and b is None:
                state = ko.MatchStatus.VOID
            elif isinstance(a, ko._Pending) or isinstance(b, ko._Pending):
                state = ko.MatchStatus.PENDING
            elif a is None or b is None:
                state = ko.MatchStatus.BYE
            elif row.status in DONE and row.winner_entry_id is not None:
                state = ko.MatchStatus.DECIDED
            else:
                state = ko.MatchStatus.READY
        shown_a = a if isinstance(a, int) else None
        shown_b = b if isinstance(b, int) else None
        winner: EntrantId | None = None
        if state is ko.MatchStatus.BYE:
            shown_a, shown_b = shown_a or shown_b, None
            winner = shown_a
        elif state is ko.MatchStatus.DECIDED:
            winner = self.entrant(row.winner_entry_id)
        elif (
            state is ko.MatchStatus.READY
            and row.status != MatchStatus.PLAYING.value
            and (shown_a in withdrawn or shown_b in withdrawn)
        ):
            winner = shown_b if shown_a in withdrawn and shown_b not in withdrawn else shown_a
            state = ko.MatchStatus.DECIDED
            set_fields(row, status=MatchStatus.WALKOVER.value, result_source="walkover")
            row.finished_at = row.finished_at or utcnow()
        return ko.MatchView(
            match.id,
            match.flight,
            match.round,
            match.index,
            match.length,
            state,
            shown_a,
            shown_b,
            winner,
            None,
        )


def sync_from(session: Session, root: Flight, key: str) -> None:
    """Move a knockout group on after the result of match ``key`` changed.

    Only ``key`` and the matches built on it (its winner's and loser's way on, the fed
    flights' matches) can change, so only their rows are worked out again; the outcome
    is the one ``sync_group`` would write.
    """
    plan = stored_plan(session, root)
    if not _is_incremental(plan):
        sync_group(session, root)
        return
    links = _links(session, root)
    changed = _downstream(links, key)
    needed = set(changed)
    for k in changed:
        planned = links.by_id[k]
        for side in (planned.a, planned.b):
            if isinstance(side, ko.WinnerOf | ko.LoserOf):
                needed.add(side.match)
        if planned.reset_of is not None:
            needed.add(planned.reset_of)
    flight_ids = {r.bracket_flight: r.flight_id for r in plan.rounds}
    ids = sorted(set(flight_ids.values()) | {root.id or 0})
    rows = {
        m.bracket_key: m
        for m in session.exec(
            select(Match).where(col(Match.flight_id).in_(ids), col(Match.bracket_key).in_(needed))
        )
    }
    fe_query = select(FlightEntry.id, FlightEntry.flight_id, FlightEntry.entry_id).where(
        col(FlightEntry.flight_id).in_(ids)
    )
    fe_ids: dict[tuple[int, int], int] = {}
    entry_of: dict[int, int] = {}
    for fe_id, flight_id, entry_id in session.exec(fe_query):
        fe_ids[(flight_id, entry_id)] = fe_id or 0
        entry_of[fe_id or 0] = entry_id
    used_tables = {
        (flight_id, label)
        for flight_id, label in session.exec(
            select(Match.flight_id, Match.table_label).where(
                col(Match.flight_id).in_(ids),
                col(Match.status).in_(OPEN),
                Match.bracket_key != "",
                Match.table_label != "",
            )
        )
    }
    withdrawn = _withdrawn_entries(session, root.event_id)
    resolver = _RowBracket(session, plan, links, rows, entry_of, fe_ids)
    touched: set[int] = set()
    for k in changed:
        row = rows[k]
        touched.update(entry_of[i] for i in (row.entry_a_id, row.entry_b_id) if i is not None)
        planned = links.by_id[k]
        shown = resolver.view(planned, withdrawn)
        flight_id = flight_ids[planned.flight]

        def place(entrant: EntrantId, source: ko.Source, flight_id: int = flight_id) -> int:
            found = fe_ids.get((flight_id, int(entrant)))
            if found is not None:
                return found
            fed_flight = fed_round = None
            if isinstance(source, ko.LoserOf):
                origin = links.by_id[source.match]
                fed_flight, fed_round = flight_ids[origin.flight], origin.round
            if fed_flight == flight_id:
                fed_flight = fed_round = None
            new = FlightEntry(
                flight_id=flight_id,
                entry_id=int(entrant),
                fed_from_flight_id=fed_flight,
                fed_from_round=fed_round,
            )
            session.add(new)
            session.flush()
            fe_ids[(flight_id, int(entrant))] = new.id or 0
            entry_of[new.id or 0] = int(entrant)
            return new.id or 0

        side_a = side_b = winner = None
        if shown.a is not None:
            source = planned.a if isinstance(planned.a, ko.Seat | ko.LoserOf) else planned.b
            side_a = place(shown.a, source)
        if shown.b is not None:
            side_b = place(shown.b, planned.b)
        if shown.winner is not None:
            winner = place(shown.winner, planned.a)
        _apply(row, shown, side_a, side_b, winner, used_tables)
        touched.update(int(x) for x in (shown.a, shown.b) if x is not None)
    session.flush()
    _sync_touched_entries(session, plan, links, flight_ids, fe_ids, touched, resolver)
    open_flights = set(
        session.exec(
            select(Match.flight_id)
            .where(
                col(Match.flight_id).in_(ids),
                Match.bracket_key != "",
                col(Match.status).in_((MatchStatus.PENDING.value, *OPEN)),
            )
            .distinct()
        )
    )
    _set_flight_statuses(session, set(flight_ids.values()), open_flights, None)


def _sync_touched_entries(
    session: Session,
    plan: StoredPlan,
    links: _Links,
    flight_ids: dict[str, int],
    fe_ids: dict[tuple[int, int], int],
    touched: set[int],
    resolver: _RowBracket,
) -> None:
    """Eliminated or active, for the players whose matches just changed (as a full sync)."""
    ids = {fe_id for (_, entry_id), fe_id in fe_ids.items() if entry_id in touched}
    if not ids:
        return
    mine = list(
        session.exec(
            select(Match).where(
                col(Match.flight_id).in_(set(flight_ids.values())),
                Match.bracket_key != "",
                col(Match.entry_a_id).in_(ids) | col(Match.entry_b_id).in_(ids),
            )
        )
    )
    mine.sort(key=lambda m: links.position.get(m.bracket_key, -1))
    counts: dict[int, int] = {}
    for fid in flight_ids.values():
        counts[fid] = counts.get(fid, 0) + 1
    # As ko.eliminations, for these players only: per (bracket flight, entrant) the match
    # they went out in (None while they won on), and whether a match of theirs is open.
    lost_in: dict[tuple[str, int], str | None] = {}
    playing: set[tuple[str, int]] = set()
    for row in mine:
        planned = links.by_id.get(row.bracket_key)
        if planned is None:
            continue
        a, b = resolver.entrant(row.entry_a_id), resolver.entrant(row.entry_b_id)
        if row.status in OPEN:
            playing.update((planned.flight, x) for x in (a, b) if x is not None)
        elif row.status in DONE and a is not None and b is not None:
            winner = resolver.entrant(row.winner_entry_id)
            loser = b if winner == a else a
            lost_in[(planned.flight, loser)] = planned.id
            if winner is not None:
                lost_in[(planned.flight, winner)] = None
    eliminated: set[tuple[int, int]] = set()
    for (bracket_flight, entrant), key in lost_in.items():
        if key is None or (bracket_flight, entrant) in playing:
            continue
        db_flight = flight_ids[bracket_flight]
        if counts[db_flight] > 1:
            goes = _loser_goes(links, resolver, key, EntrantId(entrant))
            if goes is not None and flight_ids.get(goes) == db_flight:
                continue  # a double elimination's losers' bracket is the same flight
        eliminated.add((db_flight, entrant))
    rows = session.exec(select(FlightEntry).where(col(FlightEntry.id).in_(ids)))
    for fe in rows:
        if fe.status == EntryStatus.WITHDRAWN.value:
            continue
        out_now = (fe.flight_id, fe.entry_id) in eliminated
        set_fields(fe, status=EntryStatus.ELIMINATED.value if out_now else EntryStatus.ACTIVE.value)


def _loser_goes(links: _Links, resolver: _RowBracket, key: str, loser: EntrantId) -> str | None:
    """The bracket flight the loser of decided match ``key`` goes to (``ko.next_flight``)."""
    for nxt in links.feeds.get(key, ()):
        planned = links.by_id[nxt]
        for side in (planned.a, planned.b):
            if isinstance(side, ko.LoserOf) and side.match == key:
                first = side.first_match
                if first is None or first != resolver.played_before(key, loser):
                    return planned.flight
    return None


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
        rnd.status = RoundStatus.FINISHED.value if done else RoundStatus.PUBLISHED.value
    if flight.status in (FlightStatus.RUNNING.value, FlightStatus.FINISHED.value):
        all_done = bool(rounds) and all(r.status == RoundStatus.FINISHED.value for r in rounds)
        finished = all_done and not is_swiss_round_due(session, flight)
        set_fields(
            flight, status=FlightStatus.FINISHED.value if finished else FlightStatus.RUNNING.value
        )


@dataclass(frozen=True)
class SwissRecord:
    """One flight entry's record in a Swiss or round robin."""

    flight_entry_id: int
    wins: int
    losses: int
    had_bye: bool
    status: str


def swiss_field(
    session: Session, flight: Flight
) -> tuple[list[SwissRecord], set[frozenset[int]], list[MatchOutcome]]:
    """Records (with late entries' starting records), pairs already met, and outcomes.

    Outcomes are in the form the standings want: played matches and walkovers, byes when
    the flight counts them as wins, and a late entry's starting wins as byes of round 0.
    """
    fes = list(session.exec(select(FlightEntry).where(FlightEntry.flight_id == flight.id)))
    rounds = {r.id: r for r in flight_rounds(session, flight.id or 0)}
    wins = {fe.id or 0: fe.initial_wins for fe in fes}
    losses = {fe.id or 0: fe.initial_losses for fe in fes}
    had_bye = dict.fromkeys(wins, False)
    played: set[frozenset[int]] = set()
    outcomes: list[MatchOutcome] = []
    is_swiss = flight.format == FlightFormat.SWISS.value
    for fe in fes:
        for _ in range(fe.initial_wins):
            outcomes.append(MatchOutcome(0, EntrantId(fe.id or 0), None, EntrantId(fe.id or 0)))
    for m in flight_matches(session, flight.id or 0):
        rnd = rounds[m.round_id]
        if m.entry_a_id is None:
            continue
        a = EntrantId(m.entry_a_id)
        if m.entry_b_id is None:
            if m.status == MatchStatus.BYE.value and is_swiss:
                had_bye[a] = True
                if flight.bye_counts_as_win:
                    wins[a] += 1
                    outcomes.append(MatchOutcome(rnd.number, a, None, a, (0, 0), m.match_length))
            continue
        b = EntrantId(m.entry_b_id)
        played.add(frozenset((a, b)))
        if m.status in DONE and m.winner_entry_id is not None:
            winner = EntrantId(m.winner_entry_id)
            wins[winner] += 1
            losses[b if winner == a else a] += 1
            outcomes.append(
                MatchOutcome(rnd.number, a, b, winner, (m.score_a, m.score_b), m.match_length)
            )
    records = [
        SwissRecord(
            fe.id or 0, wins[fe.id or 0], losses[fe.id or 0], had_bye[fe.id or 0], fe.status
        )
        for fe in fes
    ]
    return records, played, outcomes


def swiss_entrants(records: Iterable[SwissRecord], lives: int | None) -> list[SwissEntrant]:
    """Active players still in (with lives left) as the pairing sees them."""
    return [
        SwissEntrant(r.flight_entry_id, r.wins, r.losses, had_bye=r.had_bye)
        for r in records
        if r.status == EntryStatus.ACTIVE.value and (lives is None or r.losses < lives)
    ]


def swiss_round_limit(flight: Flight, players: int) -> int | None:
    """The number of rounds of a fixed-round Swiss (none for lives)."""
    if flight.swiss_lives is not None:
        return None
    if flight.swiss_rounds is not None:
        return flight.swiss_rounds
    from tourney.formats.swiss import default_round_count

    return default_round_count(max(players, 2))


def is_swiss_round_due(session: Session, flight: Flight) -> bool:
    """Whether a Swiss has another round to pair (round robins are drawn whole)."""
    if flight.format != FlightFormat.SWISS.value:
        return False
    records, _, _ = swiss_field(session, flight)
    field_now = swiss_entrants(records, flight.swiss_lives)
    if len(field_now) < 2:
        return False
    limit = swiss_round_limit(flight, len(records))
    if limit is None:
        return True
    return len(flight_rounds(session, flight.id or 0)) < limit
