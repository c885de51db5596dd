"""The JSON API under ``/api/v1`` (DESIGN §5), with its OpenAPI document.

Reads of public events need no login. Writes (record a game, a final score, upload a
match record, withdraw a player) call the same store services as the director's pages
and need a director's (or scorer's) session or an API token sent as
``Authorization: Bearer <token>`` (of the ``results`` scope for results, ``full`` for
the rest): none, or an expired one, answers 401, the wrong role or scope 403, a stale
``expected_version`` 409 (and so does a change to a match that has games or a result
without one), a body that does not fit the schema 422 — always as
``{"error": {"status", "message", "field"?}}``. Error messages and a match record's
findings are in the request's language, as on every page (``?lang=``, the saved choice,
``Accept-Language``, else English); a 422's message is the schema validator's own, in
English.

Each endpoint is declared with ``operation(...)``, which registers the Flask route and
records its schemas; ``/api/v1/openapi.json`` is generated from those records and the
pydantic models in ``tourney.web.api_models``, the same ones the endpoints validate with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_login import current_user
from flask_wtf.csrf import CSRFError, validate_csrf
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from sqlmodel import Session
from wtforms import ValidationError as CSRFValidationError

from tourney.i18n import translate
from tourney.match import as_points
from tourney.rules.messages import message_of
from tourney.rules.records import parse_json
from tourney.rules.variants import variant_named
from tourney.store import access, queries, results, roster, teams
from tourney.store import public_views as pv
from tourney.store import tournament_views as tv
from tourney.store.audit import Actor
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import is_staff
from tourney.store.queries import EventDetail, EventSummary, FlightView
from tourney.store.tables import FlightStatus, Role
from tourney.web import api_models as m
from tourney.web.auth import ALL_ROLES, DIRECTORS, ROLES_ATTR, public
from tourney.web.deps import reading, writing
from tourney.web.i18n import current_language

bp = Blueprint("api", __name__, url_prefix="/api/v1")
PREFIX = "/api/v1"
F = TypeVar("F", bound=Callable[..., Any])


# --- errors --------------------------------------------------------------------------


class ApiError(Exception):
    """An error answer with its status, message and field; the message is in the
    request's language already (``gettext`` where it is raised)."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field


def error_response(status: int, message: str, field: str | None = None) -> Response:
    """``{"error": {"status", "message", "field"?}}`` with that status."""
    body = m.ErrorOut(error=m.ErrorBody(status=status, message=message, field=field))
    response = jsonify(body.model_dump(mode="json", exclude_none=True))
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tourney"'
    return response


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> ResponseReturnValue:
    return error_response(error.status, error.message, error.field)


@bp.errorhandler(StoreUserError)
def _store_error(error: StoreUserError) -> ResponseReturnValue:
    # The store's message in the language asked for (``?lang=``, ``Accept-Language``).
    return error_response(
        error.status_code, translate(error.message, current_language()), error.field
    )


# --- declaring operations ------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    """One endpoint as the OpenAPI document describes it."""

    method: str
    path: str
    summary: str
    response: Any
    body: type[BaseModel] | None
    errors: tuple[int, ...]
    roles: frozenset[str] | None
    status: int
    scope: str
    """The API token scope a change needs (``access.TOKEN_SCOPES``)."""


OPERATIONS: list[Operation] = []
_PATH_PARAM = re.compile(r"\{(\w+)\}")


def operation(
    method: str,
    path: str,
    summary: str,
    *,
    response: Any,
    body: type[BaseModel] | None = None,
    errors: Sequence[int] = (404,),
    roles: Sequence[Role] | None = None,
    status: int = 200,
    scope: str = "full",
) -> Callable[[F], F]:
    """Register an endpoint under ``path`` (OpenAPI form, ``{id}`` params are integers).

    With ``roles`` the view needs a session or token of one of them (401/403 otherwise),
    a token of ``scope`` or wider, and receives the caller as ``caller``; with ``body``
    it receives the validated request body as ``data``.
    """
    allowed = None if roles is None else frozenset(r.value for r in roles)
    declared_errors = tuple(errors)
    if body is not None:
        declared_errors += (400, 422)
    if allowed is not None:
        declared_errors += (401, 403)
    OPERATIONS.append(
        Operation(
            method.upper(),
            path,
            summary,
            response,
            body,
            tuple(sorted(set(declared_errors))),
            allowed,
            status,
            scope,
        )
    )

    def decorate(view: F) -> F:
        @wraps(view)
        def endpoint(**params: int) -> Any:
            extra: dict[str, Any] = {}
            if allowed is not None:
                extra["caller"] = _caller(allowed, scope)
            if body is not None:
                extra["data"] = _body(body)
            return view(**params, **extra)

        if allowed is None:
            public(endpoint)
        else:
            setattr(endpoint, ROLES_ATTR, allowed)
        flask_path = _PATH_PARAM.sub(r"<int:\1>", path)
        bp.add_url_rule(flask_path, view.__name__, endpoint, methods=[method.upper()])
        return cast(F, endpoint)

    return decorate


def _caller(allowed: frozenset[str], scope: str) -> Actor:
    """The caller from a bearer token (of ``scope`` or wider) or the session (with its
    CSRF token), role checked."""
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, gettext("Send the token as 'Authorization: Bearer <token>'."))
        with reading() as session:
            grant = access.actor_for_token(session, token.strip())
        if grant is None:
            raise ApiError(401, gettext("This token is unknown, revoked or expired."))
        if not grant.allows(scope):
            raise ApiError(403, gettext(
                "This token's scope (%(scope)s) does not allow this.", scope=grant.scope
            ))
        caller = grant.actor
    elif current_user.is_authenticated:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            try:
                validate_csrf(request.headers.get("X-CSRFToken", ""))
            except (CSRFValidationError, CSRFError):
                raise ApiError(
                    403,
                    gettext("A change made with a session needs its CSRF token in X-CSRFToken."),
                ) from None
        caller = current_user.actor
    else:
        raise ApiError(401, gettext("Log in or send an API token."))
    if caller.role not in allowed:
        raise ApiError(403, gettext("Your account's role may not do this."))
    return caller


def _body(model: type[BaseModel]) -> Any:
    send_an_object = gettext("Send a JSON object (Content-Type: application/json).")
    if not request.is_json:
        raise ApiError(400, send_an_object)
    try:
        data = parse_json(request.get_data(cache=True))
    except ValueError as error:
        raise ApiError(400, gettext(
            "The body is not JSON this API reads: %(error)s.",
            error=translate(message_of(error), current_language()),
        )) from None
    if not isinstance(data, dict):
        raise ApiError(400, send_an_object)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise ApiError(422, str(first["msg"]), field) from None


def _json(model: Any, value: Any) -> Response:
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    return jsonify(adapter.dump_python(value, mode="json"))


# --- converting read models ----------------------------------------------------------


def event_json(event: EventSummary) -> m.EventOut:
    """One line of ``GET /api/v1/events`` (the contract: ``id``, ``slug``, ``name``, ...)."""
    return m.EventOut(
        id=event.id,
        slug=event.slug,
        name=event.name,
        starts_on=event.starts_on,
        status=event.status,
        venue=event.venue_name or None,
        club=event.club_name or None,
        entries=event.entries_count,
        flights=event.flights_count,
        url=url_for("public.event", slug=event.slug, _external=True),
    )


_UNPUBLISHED = (FlightStatus.SETUP.value, FlightStatus.DRAWN.value)


def flight_json(flight: FlightView) -> m.FlightOut:
    """A flight's public settings."""
    return m.FlightOut(
        id=flight.id,
        name=flight.name,
        format=flight.format,
        status=flight.status,
        match_length=flight.match_length,
        round_lengths=dict(flight.round_lengths),
        feeds_from=flight.feeds_from_id,
        swiss_rounds=flight.swiss_rounds,
        swiss_lives=flight.swiss_lives,
        tiebreaks=list(flight.tiebreaks),
        draw_method=flight.draw_method,
        # The seed tells the draw: it is shown once the draw is published, not before.
        draw_seed=None if flight.status in _UNPUBLISHED else flight.draw_seed,
        pools=flight.pools,
        qualifies_from=flight.qualifies_from_id,
        qualifiers=flight.qualifiers,
        cut_ties=flight.cut_ties if flight.qualifies_from_id is not None else None,
        boards=flight.boards,
    )


def event_detail_json(event: EventDetail) -> m.EventDetailOut:
    """``GET /api/v1/events/{id}``."""
    return m.EventDetailOut(
        id=event.id,
        slug=event.slug,
        name=event.name,
        starts_on=event.starts_on,
        ends_on=event.ends_on,
        status=event.status,
        venue=event.venue_name or None,
        club=event.club_name or None,
        version=event.data_version,
        rules=m.RulesOut(
            crawford=event.crawford,
            holland=event.holland,
            cube_limit=None if event.cube_limit_exponent is None else 2**event.cube_limit_exponent,
            money_play=event.money_play,
            jacoby=event.jacoby,
        ),
        flights=[flight_json(f) for f in event.flights],
        variant=event.variant,
        variant_summary=event.variant_summary,
        variant_options=_variant_options(event),
        match_form=event.match_form,
        divisions=list(event.divisions),
        draw_scoring=event.draw_scoring,  # type: ignore[arg-type]
        rules_summary=list(event.rules_summary),
    )


def _variant_options(event: EventDetail) -> m.VariantOptionsOut:
    """The options in force: the variant's defaults filled in."""
    chosen = variant_named(event.variant)
    options = event.variant_options
    starter = chosen.next_game_starter(options)
    return m.VariantOptionsOut(
        gammons=chosen.counts_gammons(options),
        cube=chosen.uses_cube(options),
        crawford=event.crawford and chosen.uses_crawford(options),
        koks=options.koks,
        last_roll_draw=options.last_roll_draw,
        strict_block=options.strict_block,
        next_game_starter=starter.value,
        five_checker_limit=options.five_checker_limit,
        no_hit_and_run_at_home=options.no_hit_and_run_at_home,
        opening_higher_total=options.opening_higher_total,
    )


def _player(ref: tv.PlayerRef | None) -> m.PlayerRefOut | None:
    if ref is None:
        return None
    return m.PlayerRefOut(
        entry_id=ref.entry_id,
        name=ref.name,
        country=ref.country,
        seed=ref.seed,
        withdrawn=ref.withdrawn,
        origin=ref.origin,
    )


def _match(s: tv.MatchSummary) -> m.MatchOut:
    return m.MatchOut(
        id=s.id,
        flight_id=s.flight_id,
        round=s.round_number,
        round_name=s.round_name,
        table=s.table,
        length=s.length,
        status=s.status,  # type: ignore[arg-type]
        a=_player(s.a),
        b=_player(s.b),
        a_placeholder=s.a_placeholder,
        b_placeholder=s.b_placeholder,
        score=[s.score_a, s.score_b],
        winner=s.winner,  # type: ignore[arg-type]
        result_source=s.result_source,
        loser_goes_to=s.loser_goes_to,
        version=s.version,
        start=[s.start_a, s.start_b],
    )


def _rounds(board: tv.FlightBoard) -> m.FlightRoundsOut:
    return m.FlightRoundsOut(
        id=board.flight.id,
        name=board.flight.name,
        format=board.flight.format,
        rounds=[
            m.RoundOut(
                id=r.id,
                number=r.number,
                name=r.name,
                status=r.status,
                match_length=r.match_length,
                matches=[_match(x) for x in r.matches],
            )
            for r in board.rounds
        ],
    )


def _standings(board: tv.FlightBoard) -> m.FlightStandingsOut:
    lives = board.flight.swiss_lives

    def row_out(row: tv.StandingRow) -> m.StandingOut:
        return m.StandingOut(
            rank=row.rank,
            display_rank=row.display_rank,
            tied=row.tied,
            player=cast(m.PlayerRefOut, _player(row.player)),
            wins=row.wins,
            losses=row.losses,
            lives_left=None if lives is None else max(lives - (row.losses or 0), 0),
            tiebreaks=[m.MetricOut(name=k, value=as_points(v)) for k, v in row.metrics],
            status=row.status,
            pool=row.pool or None,
            qualifies=row.qualifies,
        )

    return m.FlightStandingsOut(
        id=board.flight.id,
        name=board.flight.name,
        format=board.flight.format,
        champion=_player(board.champion),
        standings=[row_out(row) for row in board.standings],
        divisions=[
            m.DivisionStandingsOut(name=table.name, standings=[row_out(r) for r in table.rows])
            for table in board.division_tables
        ],
    )


def _match_detail(detail: tv.MatchDetail) -> m.MatchDetailOut:
    return m.MatchDetailOut(
        match=_match(detail.match),
        event_id=detail.event_id,
        flight_name=detail.flight_name,
        rules=list(detail.rules),
        games=[
            m.GameOut(
                number=g.number,
                winner=g.winner,  # type: ignore[arg-type]
                winner_name=g.winner_name,
                end=g.end,
                cube=g.cube,
                level=g.level,
                points=g.points,
                score_after=g.score_after,
                kind=g.kind,
                variant=g.variant,
            )
            for g in detail.games
        ],
        crawford_game=detail.crawford_game,
        is_over=detail.is_over,
        records=[
            m.RecordOut(id=u.id, filename=u.filename, valid=u.is_valid) for u in detail.uploads
        ],
    )


# --- reading -------------------------------------------------------------------------


def _reader() -> Actor | None:
    """Whoever sends a session or token (for private events' staff); before any session."""
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        with reading() as session:
            grant = access.actor_for_token(session, header[7:].strip())
        return None if grant is None else grant.actor
    return current_user.actor if current_user.is_authenticated else None


def _event_id_readable(session: Session, event_id: int, actor: Actor | None = None) -> None:
    """Raise 404 unless the event is public or ``actor`` (default: the reader) works on it."""
    if event_id in pv.public_event_ids(session):
        return
    actor = actor or g.get("api_reader")
    if actor is None or not is_staff(session, actor, event_id):
        raise NotFoundError(gettext("No such event."))


@bp.before_request
def _identify_reader() -> None:
    if request.method == "GET":
        g.api_reader = _reader()


def _event_detail(session: Session, event_id: int) -> EventDetail:
    _event_id_readable(session, event_id)
    from tourney.store.tables import Event

    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(gettext("No such event."))
    return queries.event_detail(session, event, can_manage=False)


def _boards(session: Session, event_id: int) -> tuple[tv.FlightBoard, ...]:
    _event_id_readable(session, event_id)
    return tv.event_boards(session, event_id)


def _board(session: Session, flight_id: int) -> tv.FlightBoard:
    event_id = _flight_event(session, flight_id)
    return pv.flight_board(session, event_id, flight_id)


def _flight_event(session: Session, flight_id: int) -> int:
    from tourney.store.tables import Flight

    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(gettext("No such flight."))
    _event_id_readable(session, flight.event_id)
    return flight.event_id


@operation("GET", "/events", "Public events, newest first", response=list[m.EventOut], errors=())
def events() -> ResponseReturnValue:
    """Public events as ``[{"id", "slug", "name", ...}]``."""
    with reading() as session:
        rows = queries.list_public_events(session)
    return _json(list[m.EventOut], [event_json(e) for e in rows])


@operation(
    "GET", "/events/{event_id}", "An event with its rules and flights", response=m.EventDetailOut
)
def event(event_id: int) -> ResponseReturnValue:
    """One public event with its rules and flights."""
    with reading() as session:
        detail = _event_detail(session, event_id)
    return _json(m.EventDetailOut, event_detail_json(detail))


@operation("GET", "/events/{event_id}/flights", "An event's flights", response=list[m.FlightOut])
def event_flights(event_id: int) -> ResponseReturnValue:
    """The event's flights with their settings."""
    with reading() as session:
        detail = _event_detail(session, event_id)
    return _json(list[m.FlightOut], [flight_json(f) for f in detail.flights])


@operation(
    "GET", "/events/{event_id}/players", "Players entered in an event", response=list[m.EntryOut]
)
def event_players(event_id: int) -> ResponseReturnValue:
    """The event's entries by name."""
    with reading() as session:
        _event_id_readable(session, event_id)
        entries = pv.find_entries(session, event_id, "")
    return _json(
        list[m.EntryOut],
        [
            m.EntryOut(id=e.id, name=e.player_name, country=e.country, seed=e.seed, status=e.status)
            for e in entries
        ],
    )


@operation(
    "GET", "/events/{event_id}/standings", "Standings per flight", response=m.EventStandingsOut
)
def event_standings(event_id: int) -> ResponseReturnValue:
    """Each flight's standings: rank with tie flag, record, tiebreaks."""
    with reading() as session:
        boards = _boards(session, event_id)
        version = _event_detail(session, event_id).data_version
    return _json(
        m.EventStandingsOut,
        m.EventStandingsOut(
            event_id=event_id, version=version, flights=[_standings(b) for b in boards]
        ),
    )


@operation(
    "GET",
    "/events/{event_id}/pairings",
    "Pairings per flight and round",
    response=m.EventPairingsOut,
)
def event_pairings(event_id: int) -> ResponseReturnValue:
    """Each flight's published rounds with their matches and tables."""
    with reading() as session:
        boards = _boards(session, event_id)
        version = _event_detail(session, event_id).data_version
    return _json(
        m.EventPairingsOut,
        m.EventPairingsOut(
            event_id=event_id, version=version, flights=[_rounds(b) for b in boards]
        ),
    )


@operation("GET", "/flights/{flight_id}", "A flight's settings", response=m.FlightOut)
def flight(flight_id: int) -> ResponseReturnValue:
    """One flight."""
    with reading() as session:
        board = _board(session, flight_id)
    return _json(m.FlightOut, flight_json(board.flight))


@operation("GET", "/flights/{flight_id}/rounds", "A flight's rounds", response=m.FlightRoundsOut)
def flight_rounds(flight_id: int) -> ResponseReturnValue:
    """A flight's published rounds with their matches."""
    with reading() as session:
        board = _board(session, flight_id)
    return _json(m.FlightRoundsOut, _rounds(board))


@operation(
    "GET", "/flights/{flight_id}/standings", "A flight's standings", response=m.FlightStandingsOut
)
def flight_standings(flight_id: int) -> ResponseReturnValue:
    """A flight's standings."""
    with reading() as session:
        board = _board(session, flight_id)
    return _json(m.FlightStandingsOut, _standings(board))


@operation("GET", "/matches/{match_id}", "A match with its games", response=m.MatchDetailOut)
def match(match_id: int) -> ResponseReturnValue:
    """A published match with its games, Crawford marks and records."""
    with reading() as session:
        event_id = _match_event(session, match_id)
        detail = pv.match_page(session, event_id, match_id)
    return _json(m.MatchDetailOut, _match_detail(detail))


def _fixture_json(f: teams.FixtureView) -> m.FixtureOut:
    return m.FixtureOut(
        id=f.id,
        flight_id=f.flight_id,
        round=f.round_number,
        round_name=f.round_name,
        a=f.a,
        b=f.b,
        status=f.status,
        score=f.score,
        winner=f.winner,
        decided_by=f.decided_by,
        boards=[
            m.BoardOut(
                board=b.board,
                match_id=b.match_id,
                a=b.a,
                b=b.b,
                length=b.length,
                score=b.score,
                status=b.status,
                winner="a" if b.winner == "a" else "b" if b.winner == "b" else None,
            )
            for b in f.boards
        ],
    )


@operation(
    "GET", "/events/{event_id}/teams", "An event's teams in board order", response=list[m.TeamOut]
)
def event_teams(event_id: int) -> ResponseReturnValue:
    """The event's teams with their players (or pairs) in board order."""
    with reading() as session:
        _event_id_readable(session, event_id)
        found = teams.team_views(session, event_id)
    return _json(
        list[m.TeamOut],
        [
            m.TeamOut(
                id=t.id,
                name=t.name,
                seed=t.seed,
                members=[
                    m.TeamMemberOut(board=x.board, name=x.name, players=list(x.player_ids))
                    for x in t.members
                ],
            )
            for t in found
        ],
    )


@operation(
    "GET",
    "/flights/{flight_id}/fixtures",
    "A team flight's standings and fixtures",
    response=m.TeamFlightOut,
)
def flight_fixtures(flight_id: int) -> ResponseReturnValue:
    """A team flight: standings by fixture and board wins, and each round's fixtures."""
    with reading() as session:
        view = teams.public_team_flight(session, _flight_event(session, flight_id), flight_id)
    return _json(
        m.TeamFlightOut,
        m.TeamFlightOut(
            id=view.flight_id,
            name=view.name,
            format=view.format,
            status=view.status,
            boards=view.boards,
            standings=[
                m.TeamStandingOut(
                    rank=row.rank,
                    tied=row.tied,
                    team=row.team,
                    fixture_wins=row.fixture_wins,
                    board_wins=row.board_wins,
                    board_points=row.board_points,
                    tiebreaks=dict(row.tiebreaks),
                )
                for row in view.standings
            ],
            rounds=[[_fixture_json(f) for f in rnd.fixtures] for rnd in view.rounds],
        ),
    )


@operation("GET", "/fixtures/{fixture_id}", "A fixture with its boards", response=m.FixtureOut)
def fixture(fixture_id: int) -> ResponseReturnValue:
    """A fixture: its result and its board matches."""
    with reading() as session:
        event_id = teams.fixture_event_id(session, fixture_id)
        _event_id_readable(session, event_id)
        view = teams.public_fixture(session, event_id, fixture_id)
    return _json(m.FixtureOut, _fixture_json(view))


def _match_event(session: Session, match_id: int) -> int:
    from tourney.store.tables import Match

    row = session.get(Match, match_id)
    if row is None:
        raise NotFoundError(gettext("No such match."))
    return _flight_event(session, row.flight_id)


# --- writing -------------------------------------------------------------------------

_WRITE_ERRORS = (400, 404, 409)


def _require_version(session: Session, match_id: int, expected_version: int | None) -> None:
    """A change to a match that has games or a result must name the version its caller
    saw (``expected_version``), so that it never overwrites a newer result unseen."""
    if expected_version is not None:
        return
    version = results.version_with_result(session, match_id)
    if version is not None:
        raise ApiError(
            409,
            gettext(
                "This match has games or a result already: send the version you last saw as "
                "expected_version (it is now %(version)s), so no newer result is overwritten.",
                version=version,
            ),
            "expected_version",
        )


@operation(
    "POST",
    "/matches/{match_id}/games",
    "Record the next game of a match",
    response=m.MatchDetailOut,
    body=m.GameIn,
    errors=_WRITE_ERRORS,
    roles=ALL_ROLES,
    scope="results",
    status=201,
)
def record_game(match_id: int, caller: Actor, data: m.GameIn) -> ResponseReturnValue:
    """The next game: winner, how it ended, cube, level; the match finishes by itself."""
    game = results.GameFields(data.winner or "", data.end, data.cube, data.level)
    with writing() as session:
        _require_version(session, match_id, data.expected_version)
        detail = results.record_game(
            session,
            actor=caller,
            match_id=match_id,
            game=game,
            expected_version=data.expected_version,
        )
    return _json(m.MatchDetailOut, _match_detail(detail)), 201


@operation(
    "POST",
    "/matches/{match_id}/score",
    "Record a match's final score",
    response=m.MatchDetailOut,
    body=m.ScoreIn,
    errors=_WRITE_ERRORS,
    roles=ALL_ROLES,
    scope="results",
)
def record_score(match_id: int, caller: Actor, data: m.ScoreIn) -> ResponseReturnValue:
    """The final score only (like 7-4); it must finish the match under the rules."""
    with writing() as session:
        _require_version(session, match_id, data.expected_version)
        detail = results.record_final_score(
            session,
            actor=caller,
            match_id=match_id,
            score_a=data.score_a,
            score_b=data.score_b,
            expected_version=data.expected_version,
        )
    return _json(m.MatchDetailOut, _match_detail(detail))


@operation(
    "POST",
    "/matches/{match_id}/record",
    "Upload a match record (.mat or .sgf)",
    response=m.UploadOut,
    body=m.RecordIn,
    errors=_WRITE_ERRORS,
    roles=ALL_ROLES,
    scope="results",
)
def upload_record(match_id: int, caller: Actor, data: m.RecordIn) -> ResponseReturnValue:
    """Fill in the games from a record; an invalid one is kept with its findings (ok false)."""
    content = data.content.encode("utf-8")
    # Checked before the write transaction: a large record takes seconds to replay.
    with reading() as session:
        checked = results.check_match_record(
            session, actor=caller, match_id=match_id, filename=data.filename, data=content
        )
    with writing() as session:
        _require_version(session, match_id, data.expected_version)
        outcome = results.upload_match_record(
            session,
            actor=caller,
            match_id=match_id,
            filename=data.filename,
            data=content,
            expected_version=data.expected_version,
            checked=checked,
        )
    return _json(
        m.UploadOut,
        m.UploadOut(
            ok=outcome.ok,
            record_id=outcome.record_id,
            findings=[
                m.FindingOut(
                    game=f.game, line=f.line, message=translate(f.message, current_language())
                )
                for f in outcome.findings
            ],
            match=_match_detail(outcome.match),
        ),
    )


@operation(
    "POST",
    "/events/{event_id}/players/{entry_id}/withdraw",
    "Withdraw a player (their open matches become walkovers)",
    response=m.EntryOut,
    errors=_WRITE_ERRORS,
    roles=DIRECTORS,
)
def withdraw(event_id: int, entry_id: int, caller: Actor) -> ResponseReturnValue:
    """Withdraw an entry from the event."""
    with writing() as session:
        # Whoever may not see the event learns nothing of it, not even that it exists.
        _event_id_readable(session, event_id, caller)
        if not any(e.id == entry_id for e in queries.list_entries(session, event_id)):
            raise NotFoundError(gettext("No such player in this event."))
        entry = roster.withdraw(session, actor=caller, entry_id=entry_id)
    return _json(
        m.EntryOut,
        m.EntryOut(
            id=entry.id,
            name=entry.player_name,
            country=entry.country,
            seed=entry.seed,
            status=entry.status,
        ),
    )


# --- the document --------------------------------------------------------------------


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document, generated from the declared operations and models."""
    wanted: dict[type[BaseModel], JsonSchemaMode] = {m.ErrorOut: "serialization"}
    for op in OPERATIONS:
        wanted.setdefault(cast(type[BaseModel], _item_model(op.response)), "serialization")
        if op.body is not None:
            wanted[op.body] = "validation"
    _, defs = models_json_schema(list(wanted.items()), ref_template="#/components/schemas/{model}")
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        params = [
            {
                "name": name,
                "in": "path",
                "required": True,
                "schema": {"type": "integer", "minimum": 1, "maximum": m.MAX_ID},
            }
            for name in _PATH_PARAM.findall(op.path)
        ]
        responses: dict[str, Any] = {
            str(op.status): {
                "description": op.summary,
                "content": {"application/json": {"schema": _schema_of(op.response)}},
            }
        }
        for status in op.errors:
            responses[str(status)] = {
                "description": _ERROR_TEXT.get(status, "Error"),
                "content": {"application/json": {"schema": _ref(m.ErrorOut)}},
            }
        spec: dict[str, Any] = {
            "summary": op.summary,
            "operationId": f"{op.method.lower()}_{re.sub(r'[^a-z0-9]+', '_', op.path.lower())}",
            "responses": responses,
        }
        if params:
            spec["parameters"] = params
        if op.body is not None:
            spec["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": _ref(op.body)}},
            }
        if op.roles is not None:
            spec["security"] = [{"bearer": []}, {"session": []}]
            spec["description"] = f"An API token needs the '{op.scope}' scope or a wider one."
        paths.setdefault(PREFIX + op.path, {})[op.method.lower()] = spec
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tourney",
            "version": "1",
            "description": "Backgammon tournaments: events, flights, pairings, standings, "
            "matches. Reads of public events need no login; changes need an API token "
            "(Authorization: Bearer) or a session with its CSRF token (X-CSRFToken).",
        },
        "paths": paths,
        "components": {
            "schemas": defs.get("$defs", {}),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "session"},
            },
        },
    }


_ERROR_TEXT = {
    400: "The request could not be used (the message says why)",
    401: "No login and no valid token",
    403: "The account's role may not do this",
    404: "No such thing (or not public)",
    409: "Changed by someone else first, or needs confirmation",
    422: "The body does not fit the schema",
}


def _item_model(response: Any) -> type[BaseModel] | None:
    args = getattr(response, "__args__", None)
    if args:
        return cast(type[BaseModel], args[0])
    return cast(type[BaseModel], response)


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _schema_of(response: Any) -> dict[str, Any]:
    if getattr(response, "__args__", None):
        return {"type": "array", "items": _ref(_item_model(response) or m.ErrorOut)}
    return _ref(response)


@bp.get("/openapi.json")
@public
def openapi() -> ResponseReturnValue:
    """The OpenAPI document."""
    return jsonify(openapi_document())


def init_app(app: Flask) -> None:
    """Register the blueprint; it takes no CSRF form tokens (see ``_caller``)."""
    app.register_blueprint(bp)
    app.extensions["csrf"].exempt(bp)
