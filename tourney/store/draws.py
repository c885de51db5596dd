"""Draw use cases: make a draw, review and publish it, undo it, pair Swiss rounds, tables.

Each function is one use case in the caller's transaction with one audit entry, like
``events``. The pure draw and pairing code lives in ``tourney.formats``; here it is fed
from the database and its result stored.

Terminology: a *draw* is the first round of a flight (for a knockout: the whole bracket
with its fed flights, fixed at once; for a round robin: every round). It is made from a
*seed* that is stored and shown, so anyone can repeat it. A draw is *reviewed* while
its rounds are drafts and *published* to make it visible and playable; only an
unpublished draw can be undone.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Table, bindparam, insert, update
from sqlmodel import Session, SQLModel, col, delete, select

from tourney.formats import knockout as ko
from tourney.formats import swiss
from tourney.formats.errors import FormatUserError
from tourney.formats.flight_formats import (
    Action,
    BracketDraw,
    FlightFormat,
    FlightState,
    Refusal,
    flight_format,
    refusal,
)
from tourney.formats.model import Bye, EntrantId, MatchId, Pairing
from tourney.formats.roundrobin import pools_schedule, split_pools
from tourney.formats.rounds import NAMED_ROUNDS, numbered_round_name, parse_round_name
from tourney.formats.stages import (
    Cut,
    check_pool_sizes,
    find_pool_seeding,
    pool_positions,
    swiss_positions,
)
from tourney.formats.standings import compute_standings
from tourney.rules.messages import ListMessage, Message, PluralMessage, message_of
from tourney.store import progress
from tourney.store.audit import Actor, record
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.message_lists import SentenceList
from tourney.store.permissions import require_event
from tourney.store.plans import encode_plan, plan_rounds
from tourney.store.queries import tiebreak_chain
from tourney.store.rating_lists import club_rating_list
from tourney.store.stages import knockouts_fed_by, stage_cut
from tourney.store.tables import (
    DrawMethod,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Flight,
    FlightEntry,
    FlightStatus,
    Match,
    MatchStatus,
    Player,
    Round,
    RoundStatus,
)
from tourney.store.tournament_views import FlightBoard, flight_board
from tourney.store.types import utcnow

MAX_SEED = 2**31 - 1
_NAMED_FROM_END = {named.key: -named.from_end for named in NAMED_ROUNDS}


def _flight(
    session: Session, actor: Actor, flight_id: int, *, manage: bool = True
) -> tuple[Flight, Event]:
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    return flight, require_event(session, actor, flight.event_id, manage=manage)


def _user_error(error: FormatUserError) -> StoreUserError:
    return StoreUserError(message_of(error))


_CONFLICTS = frozenset({Refusal.DRAWN, Refusal.PUBLISHED})
"""Refusals that mean the flight moved on (someone drew or published it): 409."""


def _check_allowed(
    state: FlightState, action: Action, default: str, messages: Mapping[Refusal, str]
) -> None:
    """Refuse an action the flight does not allow now, with the message for the reason.

    Raises:
        ConflictError: the flight is drawn or published already.
        StoreUserError: any other reason; ``default`` unless ``messages`` names it.
    """
    reason = refusal(state, action)
    if reason is None:
        return
    message = messages.get(reason, default)
    raise ConflictError(message) if reason in _CONFLICTS else StoreUserError(message)


def round_lengths(flight: Flight) -> ko.RoundLengths:
    """The flight's match lengths as the knockout planner takes them ("final: 11" is -1)."""
    by_round: list[tuple[int, int]] = []
    for key, length in (flight.round_lengths or {}).items():
        if key.isdigit():
            by_round.append((int(key), int(length)))
        elif key in _NAMED_FROM_END:
            by_round.append((_NAMED_FROM_END[key], int(length)))
    # Numbered rounds are matched before the named ones counted from the end.
    by_round.sort(key=lambda pair: pair[0] < 0)
    return ko.RoundLengths(flight.match_length, tuple(by_round))


def _seed_value(seed: int | None) -> int:
    if seed is None:
        return secrets.randbelow(MAX_SEED)
    if not 0 <= seed <= MAX_SEED:
        raise StoreUserError(Message(
            "A draw seed is a whole number from 0 to %(MAX_SEED)s.",
            MAX_SEED=MAX_SEED,
        ), field="seed")
    return seed


def make_draw(
    session: Session,
    *,
    actor: Actor,
    flight_id: int,
    method: str | None = None,
    seed: int | None = None,
    present_only: bool | None = None,
) -> FlightBoard:
    """Draw a flight (see :func:`draw_flight`) and return its board as staff see it."""
    draw_flight(
        session,
        actor=actor,
        flight_id=flight_id,
        method=method,
        seed=seed,
        present_only=present_only,
    )
    return flight_board(session, actor, flight_id)


def draw_flight(
    session: Session,
    *,
    actor: Actor,
    flight_id: int,
    method: str | None = None,
    seed: int | None = None,
    present_only: bool | None = None,
) -> int:
    """Draw a flight: a knockout with its fed flights, a Swiss's first round, a round robin;
    returns the seed the draw was made from.

    The flight's board is not built here: at 10,000 players building it takes seconds,
    which the write transaction would hold the database for.

    ``method`` is random (default: the flight's setting) or seeded; ``seed`` repeats an
    earlier draw, a new one is chosen and stored when none is given. ``present_only``
    draws only the players checked in (by default: once anyone has checked in).

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: the flight is drawn already, fed from another flight, or has too
            few players.
    """
    flight, event = _flight(session, actor, flight_id)
    _refuse_team_flight(flight)
    method = method or flight.draw_method
    if method not in (DrawMethod.RANDOM.value, DrawMethod.SEEDED.value):
        raise StoreUserError(Message(
            "Draw at random or by seeding; a draw by hand is not available.",
        ))
    _check_allowed(
        progress.load_flight_state(session, flight),
        Action.DRAW,
        Message(
            "“%(name)s” takes the losers of another flight: it is drawn with that flight.",
            name=flight.name,
        ),
        {Refusal.DRAWN: Message(
            "“%(name)s” is drawn already; undo the draw to draw again.", name=flight.name
        )},
    )
    value = _seed_value(seed)
    positions: tuple[EntrantId | None, ...] | None = None
    origins: dict[int, str] = {}
    if flight.qualifies_from_id is not None:
        entrants, positions, origins = _qualified_field(session, flight)
        left_out: list[tuple[Entry, Player]] = []
    else:
        entrants, left_out = progress.draw_field(session, event.id or 0, present_only=present_only,
                                                 division=flight.division)
    if len(entrants) < 2:
        raise StoreUserError(
            Message(
                "A draw needs at least two active players; there are %(count)s.",
                count=len(entrants),
            )
        )
    flight.draw_seed = str(value)
    flight.draw_method = method
    fmt = flight_format(flight.format)
    try:
        if fmt.is_knockout:
            _draw_knockout(session, flight, fmt, entrants, method, value, positions)
            _set_origins(session, flight, origins)
        else:
            _draw_rounds(session, flight, fmt, entrants, method, value)
    except FormatUserError as error:
        raise _user_error(error) from None
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.draw",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        after={
            "method": method,
            "seed": value,
            "players": len(entrants),
            "left_out": [player.name for _, player in left_out],
        },
    )
    return value


def _refuse_team_flight(flight: Flight) -> None:
    """A team flight pairs teams (``tourney.store.teams``), never its players one by one."""
    if flight.boards is not None:
        raise StoreUserError(
            Message(
                "“%(name)s” is a team flight: draw its rounds of fixtures on its fixtures page.",
                name=flight.name,
            )
        )


def _insert_many(session: Session, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert many rows whose ids nobody needs back.

    Without RETURNING the driver sends one statement many times (PostgreSQL pipelines
    it) instead of statements of a thousand rows each, which psycopg must parse anew:
    for a 10,000-player draw's matches that parsing alone took about 3 seconds.
    """
    if rows:
        session.execute(insert(table), rows)


def _add_flight_entries(
    session: Session, flight: Flight, entrants: list[tuple[Entry, Player]]
) -> list[int]:
    """Enter the drawn players in the flight; their flight entry ids, in draw order."""
    flight_id = flight.id or 0
    now = utcnow()
    _insert_many(
        session,
        _table(FlightEntry),
        [
            {
                "flight_id": flight_id,
                "entry_id": entry.id or 0,
                "seed": entry.seed,
                "status": EntryStatus.ACTIVE,
                "created_at": now,
            }
            for entry, _ in entrants
        ],
    )
    # One query for the new ids: cheaper than RETURNING, which makes the rows a few
    # statements of thousands of parameters each.
    query = select(FlightEntry.entry_id, FlightEntry.id).where(FlightEntry.flight_id == flight_id)
    ids = {entry_id: fe_id or 0 for entry_id, fe_id in session.exec(query)}
    return [ids[entry.id or 0] for entry, _ in entrants]


def _table(model: type[SQLModel]) -> Table:
    table = model.__table__  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


def _draw_knockout(
    session: Session,
    flight: Flight,
    fmt: FlightFormat,
    entrants: list[tuple[Entry, Player]],
    method: str,
    seed: int,
    placed: tuple[EntrantId | None, ...] | None = None,
) -> None:
    """Plan and store a knockout's bracket with its fed flights; ``placed`` are draw
    positions already decided (qualifiers from a stage), else the draw makes them."""
    ids = [EntrantId(entry.id or 0) for entry, _ in entrants]
    if placed is not None:
        positions = placed
    elif method == DrawMethod.SEEDED.value:
        positions = ko.seeded_positions(ids)
    else:
        positions = ko.random_positions(ids, seed=seed)
    children = progress.knockout_children(session, flight)
    specs = [
        ko.FlightSpec(
            child.name,
            round_lengths(child),
            ko.Feed(
                source=_name_of(session, child.feeds_from_id),
                rounds=tuple(child.feed_rounds or (1,)),
                first_match_losers=child.feed_bye_losers,
                progressive=child.progressive,
            ),
        )
        for child in children
    ]
    bracket = fmt.plan(
        BracketDraw(
            positions,
            seed,
            round_lengths(flight),
            fed=specs,
            name=flight.name,
            reset=flight.reset_match,
        )
    )
    by_name = {f.name: f.id or 0 for f in (flight, *children)}
    # A double elimination keeps all its brackets in the flight drawn.
    flight_ids = {f.name: by_name.get(f.name, flight.id or 0) for f in bracket.flights}
    rounds = plan_rounds(bracket, flight_ids, double=fmt.has_losers_bracket)
    flight.bracket_plan = encode_plan(bracket, rounds)
    entry_ids = _add_flight_entries(session, flight, entrants)
    round_rows: dict[tuple[str, int], Round] = {}
    for planned in rounds:
        length = next(
            (
                m.length
                for m in bracket.matches
                if m.flight == planned.bracket_flight and m.round == planned.round
            ),
            flight.match_length,
        )
        row = Round(
            flight_id=planned.flight_id,
            number=planned.number,
            name=planned.name,
            match_length=length,
        )
        session.add(row)
        round_rows[(planned.bracket_flight, planned.round)] = row
    session.flush()
    drawn = {
        (flight.id or 0, entry.id or 0): entry_id
        for (entry, _), entry_id in zip(entrants, entry_ids, strict=True)
    }
    round_ids = {key: row.id or 0 for key, row in round_rows.items()}
    rows = progress.drawn_match_rows(session, flight, bracket, flight_ids, round_ids, drawn)
    _insert_many(session, _table(Match), rows)
    progress.sync_handicap_starts(session, [flight.id or 0, *(c.id or 0 for c in children)])
    for child in children:
        if child.status == FlightStatus.SETUP.value:
            # A fed flight no loser can reach (nothing to feed it) stays without matches.
            child.status = FlightStatus.DRAWN
        child.draw_seed = str(seed)


def _qualified_field(
    session: Session, flight: Flight
) -> tuple[list[tuple[Entry, Player]], tuple[EntrantId | None, ...], dict[int, str]]:
    """A knockout's field from its finished qualifying stage: the players (in seed
    order), their draw positions (by entry id) and where each qualified (by entry id).

    Raises:
        StoreUserError: the stage is not drawn or not finished, a pool is too small, or a
            tie at the cut waits for the director.
    """
    source = session.get(Flight, flight.qualifies_from_id)
    assert source is not None
    cut = stage_cut(session, flight)
    if cut is None:
        raise StoreUserError(
            Message(
                "“%(name)s” is not drawn yet: the knockout is drawn from its qualifiers once "
                "it is finished.",
                name=source.name,
            )
        )
    if not cut.finished:
        raise StoreUserError(
            Message(
                "“%(name)s” is not finished: the knockout is drawn from its qualifiers once "
                "every match there is decided.",
                name=source.name,
            )
        )
    try:
        check_pool_sizes([len(t.contenders) for t in cut.tables], cut.link.per_pool)
    except FormatUserError as error:
        raise _user_error(error) from None
    entry_of = {
        fe_id or 0: entry_id
        for fe_id, entry_id in session.exec(
            select(FlightEntry.id, FlightEntry.entry_id).where(FlightEntry.flight_id == source.id)
        )
    }
    if cut.undecided:
        tied = [entry_of[int(e)] for c in cut.undecided if c.tie for e in c.tie.tied]
        names = _player_names(session, tied)
        raise StoreUserError(
            SentenceList(tuple(_tie_message(c, names, entry_of) for c in cut.undecided))
        )
    if flight_format(source.format).has_pools:
        placed = pool_positions([c.qualifiers for c in cut.cuts])
    else:
        placed = swiss_positions(cut.qualifiers)
    qualified = {int(q.entrant): q for q in cut.qualifiers}
    rows = {
        entry.id or 0: (entry, player)
        for entry, player in session.exec(
            select(Entry, Player)
            .join(Player, col(Player.id) == Entry.player_id)
            .where(col(Entry.id).in_([entry_of[i] for i in qualified]))
        )
    }
    order = [p for p in placed if p is not None]
    seeds = sorted(order, key=lambda e: (qualified[int(e)].place, qualified[int(e)].pool or 0))
    entrants = [rows[entry_of[int(e)]] for e in seeds]
    positions = tuple(None if p is None else EntrantId(entry_of[int(p)]) for p in placed)
    origins = {entry_of[i]: q.origin for i, q in qualified.items()}
    return entrants, positions, origins


def _player_names(session: Session, entry_ids: list[int]) -> dict[int, str]:
    query = (
        select(Entry.id, Player.name)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(col(Entry.id).in_(entry_ids))
    )
    return {entry_id or 0: name for entry_id, name in session.exec(query)}


def _tie_message(cut: Cut, names: Mapping[int, str], entry_of: Mapping[int, int]) -> str:
    """``Pool B: Ann, Bob and Cy share the cut; choose 1 of them to go through.``"""
    tie = cut.tie
    assert tie is not None
    tied = [names[entry_of[int(e)]] for e in tie.tied]
    return PluralMessage(
        "%(where)s: %(names)s and %(last)s are tied at the cut; choose %(count)s of them to "
        "go through.",
        "%(where)s: %(names)s and %(last)s are tied at the cut; choose %(count)s of them to "
        "go through.",
        tie.places, where=tie.where, names=ListMessage(tuple(tied[:-1])), last=tied[-1],
    )


def _set_origins(session: Session, flight: Flight, origins: Mapping[int, str]) -> None:
    """Note on the knockout's flight entries where each qualifier finished."""
    if not origins:
        return
    table = _table(FlightEntry)
    session.execute(
        update(table)
        .where(table.c.flight_id == flight.id, table.c.entry_id == bindparam("entry"))
        .values(origin=bindparam("label")),
        [{"entry": entry_id, "label": label} for entry_id, label in origins.items()],
    )


def _name_of(session: Session, flight_id: int | None) -> str:
    source = session.get(Flight, flight_id) if flight_id else None
    assert source is not None
    return source.name


def length_for(flight: Flight, number: int, total: int | None) -> int:
    """The match length of round ``number`` of a Swiss or round robin of ``total`` rounds
    (none: not known, so no round is the final)."""
    lengths = flight.round_lengths or {}
    if str(number) in lengths:
        return int(lengths[str(number)])
    if total is not None and number == total and "final" in lengths:
        return int(lengths["final"])
    return flight.match_length


def _draw_rounds(
    session: Session,
    flight: Flight,
    fmt: FlightFormat,
    entrants: list[tuple[Entry, Player]],
    method: str,
    seed: int,
) -> None:
    """Enter the players and draw the first round (Swiss) or every round (round robin)."""
    ids = _add_flight_entries(session, flight, entrants)
    if fmt.pairs_round_by_round:
        _pair_swiss(session, flight, 1)
    else:
        _draw_schedule(session, flight, fmt, [EntrantId(i) for i in ids], method, seed)
    flight.status = FlightStatus.DRAWN


def _draw_schedule(
    session: Session,
    flight: Flight,
    fmt: FlightFormat,
    ids: list[EntrantId],
    method: str,
    seed: int,
) -> None:
    shuffle_seed = seed if method == DrawMethod.RANDOM.value else None
    if flight.pools is not None and fmt.has_pools:
        schedule = _draw_pools(session, flight, ids, seed)
    else:
        schedule = fmt.schedule(ids, shuffle_seed=shuffle_seed)
    for number, pairings in enumerate(schedule, start=1):
        rnd = Round(
            flight_id=flight.id or 0,
            number=number,
            name=numbered_round_name(number),
            match_length=length_for(flight, number, len(schedule)),
            pairing_seed=str(seed),
        )
        session.add(rnd)
        session.flush()
        _add_round_matches(
            session,
            rnd,
            [(p.a, p.b) for p in pairings if not isinstance(p, Bye)],
            [p.entrant for p in pairings if isinstance(p, Bye)],
        )


def _draw_pools(
    session: Session, flight: Flight, ids: list[EntrantId], seed: int
) -> tuple[tuple[Pairing | Bye, ...], ...]:
    """Split the drawn players (in seed order) into the flight's pools, snake-seeded or
    at random from the draw seed, store each player's pool and schedule the pools side by
    side. A pool too small for the knockout taking its top finishers is refused now."""
    shuffle_seed = seed if find_pool_seeding(flight.pool_seeding).shuffles else None
    pools = split_pools(ids, flight.pools or 1, shuffle_seed=shuffle_seed)
    for target in knockouts_fed_by(session, flight):
        check_pool_sizes([len(pool) for pool in pools], target.qualifiers or 0)
    pool_of = {int(entrant): index for index, pool in enumerate(pools) for entrant in pool}
    table = _table(FlightEntry)
    session.execute(
        update(table).where(table.c.id == bindparam("fe_id")).values(pool=bindparam("pool_no")),
        [{"fe_id": fe_id, "pool_no": pool} for fe_id, pool in pool_of.items()],
    )
    return pools_schedule(pools)


def _add_round_matches(
    session: Session, rnd: Round, pairs: list[tuple[int, int]], byes: list[int]
) -> None:
    flight = session.get(Flight, rnd.flight_id)
    used_tables = progress.FreeTables(
        progress.tables_in_use(session, flight.event_id) if flight else ()
    )
    # Every row names the same columns: they are inserted in one statement.
    common = {"flight_id": rnd.flight_id, "round_id": rnd.id or 0, "match_length": rnd.match_length}
    rows: list[dict[str, Any]] = [
        {
            **common,
            "position": i,
            "entry_a_id": a,
            "entry_b_id": b,
            "table_label": used_tables.take(),
            "status": MatchStatus.READY,
            "winner_entry_id": None,
            "result_source": "",
        }
        for i, (a, b) in enumerate(pairs, start=1)
    ]
    for number, bye in enumerate(byes, start=len(pairs) + 1):
        rows.append(
            {
                **common,
                "position": number,
                "entry_a_id": bye,
                "entry_b_id": None,
                "table_label": "",
                "status": MatchStatus.BYE,
                "winner_entry_id": bye,
                "result_source": "bye",
            }
        )
    _insert_many(session, _table(Match), rows)
    progress.sync_handicap_starts(session, [rnd.flight_id])


def _pair_swiss(session: Session, flight: Flight, number: int, rnd: Round | None = None) -> Round:
    """Pair Swiss round ``number`` from the records so far (into ``rnd`` when re-pairing).

    Raises:
        FormatUserError: fewer than two players are still in.
    """
    field = progress.swiss_field(session, flight)
    table = compute_standings(
        field.outcomes,
        tiebreak_chain(flight.tiebreaks),
        entrants=[r.entrant for r in field.records],
    )
    seed = int(flight.draw_seed or 0) + number
    result = swiss.pair_field(
        field,
        ranking=[row.entrant for row in table],
        ratings=_ratings(session, flight),
        seed=seed,
        by_rating=flight.draw_method == DrawMethod.SEEDED.value,
        lives=flight.swiss_lives,
    )
    limit = swiss.round_limit(
        rounds=flight.swiss_rounds, lives=flight.swiss_lives, players=len(field.records)
    )
    if rnd is None:
        rnd = Round(
            flight_id=flight.id or 0,
            number=number,
            name=numbered_round_name(number),
            match_length=length_for(flight, number, limit),
            pairing_seed=str(seed),
        )
        session.add(rnd)
        session.flush()
    byes = [] if result.bye is None else [result.bye]
    _add_round_matches(session, rnd, list(result.pairings), byes)
    return rnd


def _ratings(session: Session, flight: Flight) -> dict[EntrantId, float | None]:
    """The ratings a Swiss drawn by rating pairs by: the club's rating list where the
    event has a club and the player is on it (the list "Seed by rating" seeds by), else
    the rating the player came in with on the roster."""
    query = (
        select(FlightEntry.id, Player.id, Player.rating)
        .join(Entry, col(Entry.id) == FlightEntry.entry_id)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(FlightEntry.flight_id == flight.id)
    )
    rows = list(session.exec(query))
    event = session.get(Event, flight.event_id)
    listed: dict[int, float] = {}
    if flight.draw_method == DrawMethod.SEEDED.value and event is not None and event.club_id:
        listed = {
            row.player_id: row.rating for row in club_rating_list(session, event.club_id).rows
        }
    return {
        EntrantId(fe_id or 0): listed.get(player_id or 0, rating)
        for fe_id, player_id, rating in rows
    }


def _with_its_source(flight: Flight, *, undone: bool) -> Message:
    """Why a fed knockout is not published (or, ``undone``, not undone) on its own."""
    if undone:
        return Message(
            "“%(name)s” takes the losers of another flight: its draw is undone with that "
            "flight.",
            name=flight.name,
        )
    return Message(
        "“%(name)s” takes the losers of another flight: its draw is published with that "
        "flight.",
        name=flight.name,
    )


def _drawn_together(session: Session, flight: Flight) -> list[Flight]:
    """The flight and, for a knockout, the flights planned into its bracket."""
    if progress.is_knockout(flight):
        return [flight, *progress.knockout_children(session, flight)]
    return [flight]


def publish_draw(session: Session, *, actor: Actor, flight_id: int) -> FlightBoard:
    """Publish a flight's drafted rounds (see :func:`publish_flight`); its board as staff
    see it."""
    publish_flight(session, actor=actor, flight_id=flight_id)
    return flight_board(session, actor, flight_id)


def publish_flight(session: Session, *, actor: Actor, flight_id: int) -> None:
    """Publish a flight's drafted rounds: players see them and results can be entered.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: nothing drafted to publish, or a fed knockout (published with the
            flight it is fed from).
    """
    flight, event = _flight(session, actor, flight_id)
    _check_allowed(
        progress.load_flight_state(session, flight),
        Action.PUBLISH,
        Message("There is no unpublished draw or round to publish."),
        {Refusal.FED: _with_its_source(flight, undone=False)},
    )
    flights = _drawn_together(session, flight)
    ids = [f.id or 0 for f in flights]
    drafts = list(
        session.exec(
            select(Round).where(
                col(Round.flight_id).in_(ids), Round.status == RoundStatus.DRAFT.value
            )
        )
    )
    now = utcnow()
    for rnd in drafts:
        rnd.status = RoundStatus.PUBLISHED
        rnd.published_at = now
    for f in flights:
        if f.status in (FlightStatus.DRAWN.value, FlightStatus.SETUP.value):
            f.status = FlightStatus.RUNNING
    if event.status in (EventStatus.DRAFT.value, EventStatus.OPEN.value):
        event.status = EventStatus.RUNNING
    session.flush()
    if progress.is_knockout(flight):
        progress.sync_group(session, flight, published=True)
    else:
        progress.sync_round_robin_or_swiss(session, flight)
    record(
        session,
        actor=actor,
        action="flight.publish",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        after={"rounds": sorted(r.number for r in drafts), "flights": [f.name for f in flights]},
    )


def undo_draw(session: Session, *, actor: Actor, flight_id: int) -> FlightBoard:
    """Undo an unpublished draw (for a Swiss: its newest unpublished round).

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        ConflictError: the draw or round is published already.
        StoreUserError: nothing is drawn, or a fed knockout (undone with the flight it is
            fed from).
    """
    flight, event = _flight(session, actor, flight_id)
    _check_allowed(
        progress.load_flight_state(session, flight),
        Action.UNDO,
        Message("There is no draw to undo."),
        {
            Refusal.PUBLISHED: Message(
                "The draw is published: results may depend on it, so it cannot be undone."
            ),
            Refusal.FED: _with_its_source(flight, undone=True),
        },
    )
    flights = _drawn_together(session, flight)
    ids = [f.id or 0 for f in flights]
    every = not flight_format(flight.format).pairs_round_by_round
    undone = _undo_rounds(session, ids, every=every)
    if not progress.flight_rounds(session, flight.id or 0):
        # Nothing drawn is left: the flights are back to how they were set up.
        session.exec(delete(FlightEntry).where(col(FlightEntry.flight_id).in_(ids)))
        for f in flights:
            f.status = FlightStatus.SETUP
            f.bracket_plan = None
            f.draw_seed = None
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.undo_draw",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        before={"rounds": undone},
    )
    return flight_board(session, actor, flight_id)


def _undo_rounds(session: Session, flight_ids: list[int], *, every: bool) -> list[int]:
    """Delete the flights' rounds with their matches (only the newest unless ``every``)."""
    rounds = list(
        session.exec(
            select(Round).where(col(Round.flight_id).in_(flight_ids)).order_by(col(Round.number))
        )
    )
    targets = rounds if every else rounds[-1:]
    ids = [r.id or 0 for r in targets]
    session.exec(delete(Match).where(col(Match.round_id).in_(ids)))
    session.exec(delete(Round).where(col(Round.id).in_(ids)))
    session.expire_all()
    return [r.number for r in targets]


def pair_next_round(session: Session, *, actor: Actor, flight_id: int) -> FlightBoard:
    """Pair the next Swiss round as a draft (see :func:`pair_round`); the flight's board as
    staff see it."""
    pair_round(session, actor=actor, flight_id=flight_id)
    return flight_board(session, actor, flight_id)


def pair_round(session: Session, *, actor: Actor, flight_id: int) -> None:
    """Pair the next Swiss round as a draft, once every match of the last round is decided.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: not a drawn Swiss, a round still open, or no round due.
    """
    flight, event = _flight(session, actor, flight_id)
    _refuse_team_flight(flight)
    rounds = progress.flight_rounds(session, flight_id)
    state = progress.flight_state(
        session, flight, rounds, progress.flight_matches(session, flight_id)
    )
    still_open = (
        Message(
            "%(round)s is not finished: enter every result (or publish it) first.",
            round=parse_round_name(rounds[-1].name),
        )
        if rounds
        else Message("The last round is not finished: enter every result (or publish it) first.")
    )
    _check_allowed(
        state,
        Action.PAIR_NEXT_ROUND,
        Message("Only a drawn Swiss pairs its rounds one by one."),
        {
            Refusal.ROUND_OPEN: still_open,
            Refusal.COMPLETE: Message("No round is due: the Swiss is complete."),
        },
    )
    try:
        rnd = _pair_swiss(session, flight, len(rounds) + 1)
    except FormatUserError as error:
        raise _user_error(error) from None
    record(
        session,
        actor=actor,
        action="round.pair",
        entity_type="round",
        entity_id=rnd.id,
        event_id=event.id,
        after={"round": rnd.number, "seed": rnd.pairing_seed},
    )


def repair_round(session: Session, *, actor: Actor, round_id: int) -> FlightBoard:
    """Pair a Swiss round again from the current records (after a corrected result).

    Raises:
        NotFoundError, AccessDeniedError: no such round, or not the actor's event.
        StoreUserError: not a Swiss round, not the newest round, or a match of it has a
            result or games.
    """
    rnd = session.get(Round, round_id)
    if rnd is None:
        raise NotFoundError(Message("No such round."))
    flight, event = _flight(session, actor, rnd.flight_id)
    rounds = progress.flight_rounds(session, flight.id or 0)
    matches = list(session.exec(select(Match).where(Match.round_id == round_id)))
    reason = refusal(progress.flight_state(session, flight, rounds, matches), Action.REPAIR_ROUND)
    if reason is Refusal.NOT_OFFERED:
        raise StoreUserError(Message("Only Swiss rounds are paired again."))
    later = [r for r in rounds if r.number > rnd.number]
    if later:
        raise StoreUserError(
            Message(
                "%(name)s is paired already: only the newest round can be paired again.",
                name=later[0].name,
            )
        )
    if reason is not None:
        started = [m for m in matches if progress.has_started(m)]
        table = started[0].table_label or started[0].position if started else "-"
        raise StoreUserError(
            Message(
                "%(name)s has results already (table %(table)s); delete them before pairing "
                "the round again.",
                name=rnd.name, table=table,
            )
        )
    before = [(m.entry_a_id, m.entry_b_id) for m in matches]
    session.exec(delete(Match).where(col(Match.round_id) == round_id))
    session.flush()
    try:
        _pair_swiss(session, flight, rnd.number, rnd)
    except FormatUserError as error:
        raise _user_error(error) from None
    after = [
        (m.entry_a_id, m.entry_b_id)
        for m in session.exec(
            select(Match).where(Match.round_id == round_id).order_by(col(Match.position))
        )
    ]
    record(
        session,
        actor=actor,
        action="round.repair",
        entity_type="round",
        entity_id=rnd.id,
        event_id=event.id,
        before={"pairings": before},
        after={"pairings": after},
    )
    return flight_board(session, actor, flight.id or 0)


def _late_entry_flight(
    session: Session, actor: Actor, flight_id: int, entry_id: int, action: Action, refused: str
) -> tuple[Flight, Event]:
    """The flight a late entry joins and its event, once the flight allows ``action`` and
    the entry is an active one of the event.

    Raises:
        NotFoundError, AccessDeniedError: no such flight or entry, or not the actor's event.
        StoreUserError: the flight takes no such late entry now (``refused``, or that it is
            finished), or the entry is not active.
    """
    flight, event = _flight(session, actor, flight_id)
    finished = Message("“%(name)s” is finished: nobody can join it now.", name=flight.name)
    state = progress.load_flight_state(session, flight)
    _check_allowed(state, action, refused, {Refusal.FINISHED: finished})
    entry = session.get(Entry, entry_id)
    if entry is None or entry.event_id != event.id:
        raise NotFoundError(Message("No such entry."))
    if entry.status != EntryStatus.ACTIVE.value:
        raise StoreUserError(Message("Only an active entry can join."))
    return flight, event


def add_late_entry(
    session: Session, *, actor: Actor, flight_id: int, entry_id: int, wins: int = 0, losses: int = 0
) -> FlightBoard:
    """Enter a player in a drawn Swiss with a starting record; paired from the next round.

    Raises:
        NotFoundError, AccessDeniedError: no such flight or entry, or not the actor's event.
        StoreUserError: not a drawn Swiss or a finished one, the player is in it already, a
            negative record.
    """
    _, event = _late_entry_flight(
        session,
        actor,
        flight_id,
        entry_id,
        Action.ENTER_LATE_WITH_RECORD,
        Message("Late entries with a record join a drawn Swiss; draw it first."),
    )
    if wins < 0 or losses < 0:
        raise StoreUserError(Message("A starting record cannot be negative."), field="wins")
    exists = session.exec(
        select(FlightEntry.id).where(
            FlightEntry.flight_id == flight_id, FlightEntry.entry_id == entry_id
        )
    ).first()
    if exists is not None:
        raise StoreUserError(Message("This player is in the flight already."))
    row = FlightEntry(
        flight_id=flight_id, entry_id=entry_id, late=True, initial_wins=wins, initial_losses=losses
    )
    session.add(row)
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.late_entry",
        entity_type="flight_entry",
        entity_id=row.id,
        event_id=event.id,
        after={"entry_id": entry_id, "wins": wins, "losses": losses},
    )
    return flight_board(session, actor, flight_id)


def add_late_knockout_entry(
    session: Session, *, actor: Actor, flight_id: int, entry_id: int, match_id: int
) -> FlightBoard:
    """Place a late entrant in a first-round bye of a drawn knockout (DESIGN: late entry).

    The bye's player then plays the late entrant; where a consolation takes first-round
    losers, the loser of this match gets a place there (``ko.place_late_entrant``).
    Nothing already under way may change: the bye's player must not have begun the next
    match.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, entry or match.
        StoreUserError: not a bye of the first round, the draw has moved on from it, the
            player is in the flight already, or no consolation place is free.
    """
    flight, event = _late_entry_flight(
        session,
        actor,
        flight_id,
        entry_id,
        Action.ENTER_LATE_IN_BYE,
        Message("A late entrant joins a drawn knockout's main draw in a bye slot."),
    )
    inside = session.exec(select(FlightEntry.id).where(FlightEntry.entry_id == entry_id))
    if inside.first() is not None:
        raise StoreUserError(Message("This player is in the draw already."))
    row = session.get(Match, match_id)
    if row is None or row.flight_id != flight.id:
        raise NotFoundError(Message("No such match in this flight."))
    group = progress.load_group(session, flight)
    try:
        placed = ko.place_late_entrant(
            group.bracket, MatchId(row.bracket_key), EntrantId(entry_id)
        )
    except FormatUserError as error:
        raise _user_error(error) from None
    under_way = {
        MatchId(key)
        for key, stored in group.rows.items()
        if stored.status in (MatchStatus.PLAYING.value, *progress.DONE)
    }
    moved = ko.players_changed(group.bracket, placed.bracket, under_way)
    if moved:
        stored = group.rows[moved[0]]
        rnd = session.get(Round, stored.round_id)
        raise StoreUserError(
            Message(
                "The draw has moved on from this bye: %(value)s (table %(value2)s) is already "
                "under way with its players.",
                value=rnd.name if rnd else 'a later match', value2=stored.table_label or '-',
            )
        )
    flight.bracket_plan = encode_plan(placed.bracket, group.plan.rounds)
    late = FlightEntry(flight_id=flight.id or 0, entry_id=entry_id, late=True)
    session.add(late)
    session.flush()
    progress.sync_group(session, flight)
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.late_entry",
        entity_type="flight_entry",
        entity_id=late.id,
        event_id=event.id,
        match_id=row.id,
        after={
            "entry_id": entry_id,
            "match": row.bracket_key,
            "consolation_slot": placed.consolation_slot,
        },
    )
    return flight_board(session, actor, flight_id)


MAX_TABLE_LABEL = 20


def _match_label(session: Session, match: Match) -> str:
    """A match as a director finds it in the room: "Ann v Bob (Consolation R1)"."""
    names = [progress.entrant_name(session, i) or "?" for i in (match.entry_a_id, match.entry_b_id)]
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    where = f"{flight.name if flight else ''} R{rnd.number if rnd else '?'}".strip()
    return f"{names[0]} v {names[1]} ({where})"


def set_table(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    table: str,
    expected_version: int | None = None,
) -> FlightBoard:
    """Put a match on another table before play starts.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not the actor's event.
        ConflictError: the match changed since ``expected_version``.
        StoreUserError: the match has started or is not waiting to be played, the label
            is empty or too long, or another unfinished match of the event has that table.
    """
    row = session.exec(select(Match).where(Match.id == match_id).with_for_update()).first()
    if row is None:
        raise NotFoundError(Message("No such match."))
    _, event = _flight(session, actor, row.flight_id)
    if expected_version is not None and row.version != expected_version:
        raise ConflictError(Message(
            "Someone else changed this match first; reload and try again.",
        ))
    label = table.strip()
    if not label:
        raise StoreUserError(Message("Give the table a number or name."), field="table")
    if len(label) > MAX_TABLE_LABEL:
        raise StoreUserError(
            Message(
                "A table label has at most %(MAX_TABLE_LABEL)s characters.",
                MAX_TABLE_LABEL=MAX_TABLE_LABEL,
            ), field="table"
        )
    if row.status != MatchStatus.READY.value:
        raise StoreUserError(
            Message(
                "Only a match waiting to be played changes table; this one is %(status)s.",
                status=row.status,
            ),
            field="table",
        )
    taken = session.exec(
        select(Match)
        .join(Flight, col(Flight.id) == Match.flight_id)
        .where(
            Flight.event_id == event.id,
            col(Match.status).in_(progress.OPEN),
            Match.table_label == label,
            Match.id != row.id,
        )
    ).first()
    if taken is not None:
        raise StoreUserError(
            Message(
                "Table %(label)s is in use by %(match_label)s; free it first.",
                label=label, match_label=_match_label(session, taken),
            ),
            field="table",
        )
    before = row.table_label
    if before == label:
        return flight_board(session, actor, row.flight_id)
    row.table_label = label
    session.flush()
    record(
        session,
        actor=actor,
        action="match.table",
        entity_type="match",
        entity_id=row.id,
        event_id=event.id,
        match_id=row.id,
        before={"table": before},
        after={"table": label},
    )
    return flight_board(session, actor, row.flight_id)


def decide_cut(session: Session, *, actor: Actor, flight_id: int, picks: list[int]) -> None:
    """The director names who goes through from the ties at the cut of a knockout's
    qualifying stage (after a playoff, or a draw of lots).

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: the flight has no tie to decide, is drawn already, or the players
            named are not as many as the places of a tie (the message names the tie).
    """
    flight, event = _flight(session, actor, flight_id)
    if flight.status != FlightStatus.SETUP.value:
        raise ConflictError(Message(
            "“%(name)s” is drawn already: its field is settled.",
            name=flight.name,
        ))
    before = list(flight.cut_picks or [])
    # Earlier picks for ties already decided stand; the new ones decide those still open.
    cut = stage_cut(session, flight, picks=())
    if cut is None or not cut.undecided:
        raise StoreUserError(Message("There is no tie at the cut to decide."))
    chosen = set(picks)
    wrong = []
    for tied in cut.undecided:
        assert tied.tie is not None
        named = [e for e in tied.tie.tied if int(e) in chosen]
        if len(named) != tied.tie.places:
            wrong.append(tied)
    if wrong:
        entry_of = {
            fe_id or 0: entry_id
            for fe_id, entry_id in session.exec(
                select(FlightEntry.id, FlightEntry.entry_id).where(
                    FlightEntry.flight_id == cut.source.id
                )
            )
        }
        names = _player_names(
            session, [entry_of[int(e)] for c in wrong if c.tie for e in c.tie.tied]
        )
        raise StoreUserError(SentenceList(tuple(_tie_message(c, names, entry_of) for c in wrong)))
    tied_ids = {int(e) for c in cut.undecided if c.tie for e in c.tie.tied}
    flight.cut_picks = sorted(chosen & tied_ids)
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.cut",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        before={"cut_picks": before},
        after={"cut_picks": flight.cut_picks},
    )


def enter_buyback(session: Session, *, actor: Actor, flight_id: int, entry_id: int) -> str:
    """Put a player who bought back into a consolation or last chance into its draw;
    what was done, as a sentence. Called by the club money use case that records the
    buy-back fee, in its transaction (so a refusal records no fee).

    A flight fed from another takes the player in a free first-round place
    (``ko.place_buyback``); a flight drawn on its own from every active player takes
    them in its draw anyway, as long as it is not drawn yet.

    Raises:
        NotFoundError, AccessDeniedError: no such flight or entry, or not the actor's event.
        StoreUserError: the flight cannot take the player now; the message says why.
    """
    flight, event = _flight(session, actor, flight_id)
    entry = session.get(Entry, entry_id)
    if entry is None or entry.event_id != event.id:
        raise NotFoundError(Message("No such entry."))
    if flight.status == FlightStatus.FINISHED.value:
        raise StoreUserError(Message(
            "“%(name)s” is finished: nobody can buy back into it.", name=flight.name
        ))
    if flight.feeds_from_id is None:
        if flight.status == FlightStatus.SETUP.value:
            return Message(
                "The player is in the draw of “%(name)s” with every active player.",
                name=flight.name,
            )
        raise StoreUserError(Message(
            "“%(name)s” is drawn already and is not fed from another flight: it cannot take "
            "a buy-back.",
            name=flight.name,
        ))
    root = progress.plan_root(session, flight)
    if root is None:
        raise StoreUserError(Message(
            "“%(name)s” is drawn with the flight it is fed from, which is not drawn yet: "
            "nobody is knocked out to buy back.",
            name=flight.name,
        ))
    # Two buy-backs taken at the same moment must not both claim the last free place:
    # the plan's row stays locked until this transaction ends (PostgreSQL; SQLite's
    # writers are one at a time anyway).
    session.refresh(root, with_for_update=True)
    group = progress.load_group(session, root)
    under_way = {
        MatchId(key)
        for key, stored in group.rows.items()
        if stored.status in (MatchStatus.PLAYING.value, *progress.DONE)
    }
    try:
        placed = ko.place_buyback(group.bracket, flight.name, EntrantId(entry_id), under_way)
    except FormatUserError as error:
        raise _user_error(error) from None
    root.bracket_plan = encode_plan(placed.bracket, group.plan.rounds)
    session.flush()
    progress.sync_group(session, root)
    session.flush()
    stored = group.rows[placed.match]
    rnd = session.get(Round, stored.round_id)
    record(
        session,
        actor=actor,
        action="flight.buyback_entry",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        match_id=stored.id,
        after={"entry_id": entry_id, "match": placed.match},
    )
    table = stored.table_label or "-"
    if rnd is None or not rnd.name:
        return Message(
            "The player enters %(flight)s (table %(table)s).", flight=flight.name, table=table
        )
    return Message(
        "The player enters %(flight)s %(round)s (table %(table)s).",
        flight=flight.name, round=parse_round_name(rnd.name), table=table,
    )
