"""Event documents from the store's read models (``tourney.store.tournament_views``).

The read model reads an event by id or slug, its entries, every flight board (rounds,
matches, standings) and the games of its matches, and builds the
:class:`~tourney.store.documents.EventDocument` the renderers of :mod:`tourney.exports`
print.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sqlmodel import Session, col, select

from tourney.rules.messages import N_, Message
from tourney.rules.variants import variant_named
from tourney.store import queries, teams, tournament_views
from tourney.store.documents import (
    BOARD_POINTS_LABEL,
    BOARD_WINS_LABEL,
    FIXTURE_WINS_LABEL,
    WINS_LABEL,
    DivisionStandings,
    EventDocument,
    FlightDocument,
    GameDocument,
    MatchDocument,
    PlayerDocument,
    RoundDocument,
    SideDocument,
    StandingRow,
)
from tourney.store.errors import NotFoundError
from tourney.store.tables import Event, Flight, Game, Match, Venue
from tourney.store.variant_options import event_options


def find_event(session: Session, ref: str) -> Event:
    """The event with this id or slug.

    Raises:
        NotFoundError: no event has that id or slug.
    """
    event = session.get(Event, int(ref)) if ref.isdigit() else None
    if event is None:
        event = session.exec(select(Event).where(Event.slug == ref)).first()
    if event is None:
        raise NotFoundError(Message("No event %(ref)s (give its id or slug).", ref=repr(ref)))
    return event


def _games(session: Session, event_id: int) -> dict[int, tuple[GameDocument, ...]]:
    rows = session.exec(
        select(Game, Match.start_a, Match.start_b)
        .join(Match, col(Match.id) == col(Game.match_id))
        .where(col(Match.flight_id).in_(_flight_ids(session, event_id)))
        .order_by(col(Game.match_id), col(Game.number))
    ).all()
    out: dict[int, list[GameDocument]] = {}
    running: dict[int, tuple[int, int]] = {}
    for game, start_a, start_b in rows:
        match_id = game.match_id
        # The running score starts from the match's start (a handicap start).
        a, b = running.get(match_id, (start_a, start_b))
        if game.winner == "a":
            a += game.points
        elif game.winner == "b":
            b += game.points
        running[match_id] = (a, b)
        out.setdefault(match_id, []).append(
            GameDocument(
                number=game.number,
                winner=game.winner,
                end=game.end,
                cube=1 << game.cube_exponent,
                level=game.level,
                points=game.points,
                score_after=(a, b),
                crawford=game.is_crawford,
            )
        )
    return {k: tuple(v) for k, v in out.items()}


def _flight_ids(session: Session, event_id: int) -> list[int]:
    return [f.id or 0 for f in session.exec(select(Flight).where(Flight.event_id == event_id))]


def _feeders(key: str, previous: Mapping[str, None], index: int) -> tuple[str | None, str | None]:
    """Same-flight feeders of a bracket match ``Flight/r/i``: ``r-1/2i-1`` and ``r-1/2i``."""
    if not key:
        return (None, None)
    flight, rnd, _ = key.rsplit("/", 2)
    a, b = f"{flight}/{int(rnd) - 1}/{2 * index - 1}", f"{flight}/{int(rnd) - 1}/{2 * index}"
    return (a if a in previous else None, b if b in previous else None)


def event_document(session: Session, ref: str, *, base_url: str | None = None) -> EventDocument:
    """The document of an event (id or slug) with every flight, published or not.

    ``base_url`` (``https://club.example``) gives the QR codes' targets: the event's
    public page ``<base>/e/<slug>`` and match pages under it.

    Raises:
        NotFoundError: no such event.
    """
    event = find_event(session, ref)
    event_id = event.id or 0
    url = f"{base_url.rstrip('/')}/e/{event.slug}" if base_url else None
    entries = queries.list_entries(session, event_id)
    players = tuple(
        PlayerDocument(
            id=e.id,
            name=e.player_name,
            country=e.country,
            rating=e.rating,
            seed=e.seed,
            club=e.club_name,
        )
        for e in entries
    )
    games = _games(session, event_id)
    flights: list[FlightDocument] = []
    for board in tournament_views.event_boards(session, event_id, published_only=False):
        title = board.flight.name
        rounds: list[RoundDocument] = []
        previous: dict[str, None] = {}
        for rnd in board.rounds:
            matches = []
            keys: dict[str, None] = {}
            for m in rnd.matches:
                key = m.bracket_key or f"{title}/{rnd.number}/{m.position}"
                keys[key] = None
                decided = m.status in ("finished", "walkover")
                matches.append(
                    MatchDocument(
                        key=key,
                        flight=title,
                        round=rnd.number,
                        round_name=rnd.name,
                        number=m.position,
                        length=m.length,
                        a=_side(m.a, m.a_placeholder, m.status),
                        b=_side(m.b, m.b_placeholder, m.status),
                        status=m.status,
                        table=m.table,
                        winner=m.winner,
                        score=(m.score_a, m.score_b)
                        if decided and m.status != "walkover"
                        else None,
                        games=games.get(m.id, ()),
                        feeders=_feeders(m.bracket_key, previous, m.position),
                        loser_to=m.loser_goes_to or None,
                        url=f"{url}/matches/{m.id}" if url else None,
                        start=(m.start_a, m.start_b),
                        clock=(
                            board.flight.clock_seconds_per_point,
                            board.flight.clock_delay_seconds,
                        ),
                    )
                )
            losers = sorted({m.loser_goes_to for m in rnd.matches if m.loser_goes_to})
            rounds.append(
                RoundDocument(
                    number=rnd.number,
                    name=rnd.name,
                    length=rnd.match_length,
                    matches=tuple(matches),
                    losers_to=", ".join(losers) or None,
                    is_draft=rnd.is_draft,
                )
            )
            previous = keys
        standings = _standing_rows(board, board.standings)
        divisions = tuple(
            DivisionStandings(table.name, _standing_rows(board, table.rows))
            for table in board.division_tables
        )
        if board.flight.boards is not None:
            standings = _team_standings(session, board.flight.id)
        flights.append(
            FlightDocument(
                name=title,
                format="knockout" if board.is_knockout else board.flight.format,
                rounds=tuple(rounds),
                standings=standings,
                fed_from=Message(
                    "Entered by the losers of %(flight)s", flight=board.flight.feeds_from_name
                )
                if board.flight.feeds_from_name
                else "",
                champion=board.champion.name if board.champion else None,
                entrant_label=N_("Team") if board.flight.boards is not None else N_("Player"),
                division_standings=divisions,
            )
        )
    venue = session.get(Venue, event.venue_id) if event.venue_id else None
    variant = variant_named(event.variant)
    options = event_options(event)
    return EventDocument(
        name=event.name,
        slug=event.slug,
        players=players,
        flights=tuple(flights),
        starts_on=event.starts_on,
        venue=venue.name if venue else "",
        url=url,
        rules=queries.rules_summary(event),
        variant=variant.name,
        # The event's own Crawford flag turns the rule off for any variant; the sheets
        # read it from the options.
        variant_options=options if event.crawford else replace(options, crawford=False),
        variant_summary=queries.rules_headline(event, options),
        match_form=event.match_form,
    )


def public_event_document(
    session: Session, event_id: int, *, base_url: str | None = None
) -> EventDocument:
    """The document of what the event's public pages show: published rounds only, no
    ratings or clubs.

    Raises:
        NotFoundError: no such event.
    """
    doc = event_document(session, str(event_id), base_url=base_url)
    boards = tournament_views.event_boards(session, event_id)
    shown = {b.flight.name: {r.number for r in b.rounds} for b in boards}
    flights = tuple(
        replace(
            f,
            rounds=tuple(r for r in f.rounds if r.number in shown.get(f.name, ())),
            standings=f.standings if shown.get(f.name) else (),
            division_standings=f.division_standings if shown.get(f.name) else (),
        )
        for f in doc.flights
    )
    players = tuple(replace(p, rating=None, club="") for p in doc.players)
    return replace(doc, flights=flights, players=players)


def _standing_rows(
    board: tournament_views.FlightBoard, rows: tuple[tournament_views.StandingRow, ...]
) -> tuple[StandingRow, ...]:
    """Standings rows as the documents print them."""
    return tuple(
        StandingRow(
            player_id=row.player.entry_id,
            name=row.player.name,
            rank=row.rank,
            tied=row.tied,
            metrics=(
                (WINS_LABEL, row.wins),
                *(
                    (column.short_heading, value)
                    for column, (_, value) in zip(board.columns, row.metrics, strict=True)
                ),
            ),
            reason=row.reason or None,
            note=row.status_label if board.is_knockout else _stage_note(row),
        )
        for row in rows
    )


def _side(ref: tournament_views.PlayerRef | None, placeholder: str, status: str) -> SideDocument:
    if ref is not None:
        return SideDocument(ref.name, ref.entry_id, ref.seed, origin=ref.origin)
    if status == "pending":
        # A slot with no source to name is an empty one: its opponent will have a bye.
        return SideDocument(note=placeholder or N_("bye"))
    # A settled match names nobody who never came: a bye, or nothing in a void match.
    return SideDocument(note=N_("bye") if status == "bye" else "")


def _stage_note(row: tournament_views.StandingRow) -> str:
    """A qualifying stage's row: its pool and whether it goes through (``Pool A,
    qualifies``), before any reason it is placed where it is."""
    parts = [row.pool, "qualifies" if row.qualifies else "", row.reason]
    return ", ".join(part for part in parts if part)


def _team_standings(session: Session, flight_id: int) -> tuple[StandingRow, ...]:
    """A team flight's standings: fixtures won, boards won, board points, tiebreaks."""
    view = teams.team_flight_view(session, flight_id)
    return tuple(
        StandingRow(
            player_id=index,
            name=row.team,
            rank=row.rank,
            tied=row.tied,
            metrics=(
                (FIXTURE_WINS_LABEL, row.fixture_wins),
                (BOARD_WINS_LABEL, row.board_wins),
                (BOARD_POINTS_LABEL, row.board_points),
                *row.tiebreaks,
            ),
        )
        for index, row in enumerate(view.standings, start=1)
    )
