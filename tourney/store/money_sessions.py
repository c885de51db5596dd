"""Money sessions and chouettes of an event: starting one, entering its games, ending it,
and what its page and its settlement sheet show (DESIGN §7).

Terminology:
    seat      a player's place in the session's starting order. Two players: seats 0
              and 1. A chouette: seat 0 the first box, seat 1 the first captain, the
              rest the line in order.
    game row  one game against one opponent of the box: a two-player game is one row, a
              chouette game one row per team member (each has their own cube unless the
              team plays one cube).
    units     stake units; what a unit is worth (``stake_minor``) turns them into money.

The rotation of a chouette is never stored: it is worked out again from the first seats
and the games, so a game taken back puts everybody where they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlmodel import Session, col, delete, select

from tourney.formats import chouette, money
from tourney.formats.errors import FormatUserError
from tourney.rules.game import Level
from tourney.rules.messages import N_, ListMessage, Message, PluralMessage, message_of
from tourney.store.audit import Actor, record
from tourney.store.documents import SettlementDocument, SheetTable
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.events import slugify
from tourney.store.permissions import can_manage_event, require_event
from tourney.store.tables import Entry, Event, MoneyGame, MoneySeat, MoneySession, Player
from tourney.store.types import utcnow

REACHED_DIFFERENCE = "reached the difference of {difference}"
"""How a session that ended at its difference says so (stored as it is, in English);
taking back its last game reopens it."""
BY_AGREEMENT = "by agreement"
"""How a session ended when the director says nothing else (stored in English)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 8
LEVEL_WORDS = {1: N_("single"), 2: N_("gammon"), 3: N_("backgammon")}
"""The levels a money game is won at, with how the games' list names them."""
END_WORDS = {
    "played": N_("played out"),
    "dropped": N_("double dropped"),
    "resigned": N_("resigned"),
}
"""How a money game can end, with how the games' list names it."""


@dataclass(frozen=True)
class SessionFields:
    """What a director sets when a money session starts."""

    name: str
    player_ids: tuple[int, ...]
    """In seat order: two players, or a chouette's box, captain and line."""
    stake_mode: str
    stake_minor: int
    currency: str
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    cube_limit: int | None = None
    team_cube: bool = False
    end_difference: int | None = None
    ends_at: datetime | None = None


@dataclass(frozen=True)
class ResultFields:
    """One game against one opponent of the box, as entered."""

    member_id: int
    box_won: bool
    end: str
    level: int
    cube: int
    centred: bool
    checkers_left: int = 0


def _options(row: MoneySession) -> money.CubeOptions:
    return money.CubeOptions(
        jacoby=row.jacoby,
        beavers=row.beavers,
        raccoons=row.raccoons,
        automatic_doubles=row.automatic_doubles,
        cube_limit=row.cube_limit,
    )


def _user_error(error: FormatUserError) -> StoreUserError:
    return StoreUserError(message_of(error))


def start_session(
    session: Session, *, actor: Actor, event_id: int, fields: SessionFields
) -> MoneySession:
    """Start a money session (two players) or a chouette (three to eight) in an event.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or the actor may not manage it.
        StoreUserError: the players or settings are not possible; the message says which.
    """
    event = require_event(session, actor, event_id, manage=True)
    name = fields.name.strip()
    if not name:
        raise StoreUserError(Message("Give the session a name."))
    players = fields.player_ids
    if len(set(players)) != len(players):
        raise StoreUserError(Message("A player can sit only once in a session."))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise StoreUserError(PluralMessage(
            "A money session has %(two)s players, a chouette 3 to %(most)s; %(count)s was chosen.",
            "A money session has %(two)s players, a chouette 3 to %(most)s; "
            "%(count)s were chosen.",
            len(players), two=MIN_PLAYERS, most=MAX_PLAYERS,
        ))
    entered = set(
        session.exec(
            select(Entry.player_id).where(
                Entry.event_id == event_id, col(Entry.player_id).in_(players)
            )
        )
    )
    if missing := [p for p in players if p not in entered]:
        raise StoreUserError(PluralMessage(
            "%(count)s of the players chosen is not entered in the event.",
            "%(count)s of the players chosen are not entered in the event.",
            len(missing),
        ))
    try:
        money.stake_mode(fields.stake_mode)
        if len(players) > 2:
            chouette.start(players)
    except FormatUserError as error:
        raise _user_error(error) from None
    if fields.stake_minor < 1:
        raise StoreUserError(Message("The stake must be worth at least one cent."))
    currency = fields.currency.strip().upper()
    if len(currency) != 3 or not currency.isalpha():
        raise StoreUserError(Message("The currency is a three-letter code: EUR, GBP, USD."))
    if fields.end_difference is not None and fields.end_difference < 1:
        raise StoreUserError(
            Message("A session to a difference needs a difference of at least 1.")
        )
    if fields.ends_at is not None and fields.ends_at <= utcnow():
        raise StoreUserError(Message("A session's time limit must lie ahead."))
    row = MoneySession(
        event_id=event.id or 0,
        name=name,
        is_chouette=len(players) > 2,
        stake_mode=fields.stake_mode,
        stake_minor=fields.stake_minor,
        currency=currency,
        jacoby=fields.jacoby,
        beavers=fields.beavers,
        raccoons=fields.raccoons and fields.beavers,
        automatic_doubles=fields.automatic_doubles,
        cube_limit=fields.cube_limit,
        team_cube=fields.team_cube and len(players) > 2,
        end_difference=fields.end_difference,
        ends_at=fields.ends_at,
    )
    session.add(row)
    session.flush()
    for seat, player_id in enumerate(players):
        session.add(MoneySeat(session_id=row.id or 0, player_id=player_id, seat=seat))
    record(
        session,
        actor=actor,
        action="money.start",
        entity_type="money_session",
        entity_id=row.id,
        event_id=event.id,
        after={"name": name, "players": list(players), "stake_mode": fields.stake_mode},
    )
    return row


def _load(session: Session, actor: Actor, session_id: int, *, manage: bool) -> MoneySession:
    row = session.get(MoneySession, session_id)
    if row is None:
        raise NotFoundError(Message("No such money session."))
    require_event(session, actor, row.event_id, manage=manage)
    return row


def _seats(session: Session, session_id: int) -> list[int]:
    return list(
        session.exec(
            select(MoneySeat.player_id)
            .where(MoneySeat.session_id == session_id)
            .order_by(col(MoneySeat.seat))
        )
    )


def _games(session: Session, session_id: int) -> list[MoneyGame]:
    return list(
        session.exec(
            select(MoneyGame)
            .where(MoneyGame.session_id == session_id)
            .order_by(col(MoneyGame.number), col(MoneyGame.id))
        )
    )


def _formats_game(row: MoneyGame | ResultFields) -> money.MoneyGame:
    """A stored or entered game as the money rules score it (the box is side 0)."""
    return money.MoneyGame(
        winner=0 if row.box_won else 1,
        end=money.MoneyEnd(row.end),
        level=Level(row.level),
        cube=row.cube,
        centred=row.centred,
        checkers_left=row.checkers_left,
    )


def _by_number(rows: Sequence[MoneyGame]) -> list[list[MoneyGame]]:
    games: dict[int, list[MoneyGame]] = {}
    for row in rows:
        games.setdefault(row.number, []).append(row)
    return [games[number] for number in sorted(games)]


def _rotation(
    row: MoneySession, seats: Sequence[int], rows: Sequence[MoneyGame]
) -> chouette.ChouetteState | None:
    """Where a chouette's players sit now: replayed from the first seats and the games."""
    if len(seats) <= 2:
        return None
    mode, options = money.stake_mode(row.stake_mode), _options(row)
    state = chouette.start(seats)
    for game in _by_number(rows):
        results = [chouette.MemberResult(r.member_id, _formats_game(r)) for r in game]
        state = chouette.play_game(state, results, mode, options).after
    return state


def record_game(
    session: Session,
    *,
    actor: Actor,
    session_id: int,
    results: Sequence[ResultFields],
    games_before: int,
) -> int:
    """Enter the next game of a session; its number.

    Args:
        results: two players: one; a chouette: one per team member (with one team cube,
            the captain's only: every member shares it).
        games_before: how many games the page showed: another entry in the meantime makes
            this one a conflict instead of a second game.

    Raises:
        StoreUserError: the session has ended, or a result is impossible (the message
            names it); ConflictError: a game was entered meanwhile.
    """
    row = _load(session, actor, session_id, manage=True)
    if row.ended_at is not None:
        raise StoreUserError(Message("This session has ended: no more games can be entered."))
    if _time_is_up(row):
        assert row.ends_at is not None
        raise StoreUserError(Message(
            "Time was up at %(time)s UTC: no more games can be entered.",
            time=f"{row.ends_at:%Y-%m-%d %H:%M}",
        ))
    seats = _seats(session, session_id)
    stored = _games(session, session_id)
    played = len(_by_number(stored))
    if played != games_before:
        raise ConflictError(Message(
            "Game %(game)s was entered meanwhile; look at the session again before "
            "entering the next one.",
            game=played,
        ))
    mode = money.stake_mode(row.stake_mode)
    options = _options(row)
    number = played + 1
    try:
        state = _rotation(row, seats, stored)
        if state is None:
            box = seats[0]
            (only,) = _one_result(results, seats[1])
            game = _result_game(only)
            money.check_game(game, options)
            won = money.game_units(game, mode, options)
            scored = [(only, won)]
            units = {box: won if only.box_won else -won, seats[1]: -won if only.box_won else won}
            captain = seats[1]
        else:
            box, captain = state.box, state.captain
            if row.team_cube:
                (shared,) = _one_result(results, state.captain)
                results = [replace(shared, member_id=member) for member in state.members]
            outcome = chouette.play_game(
                state,
                [chouette.MemberResult(r.member_id, _result_game(r)) for r in results],
                mode,
                options,
            )
            scored = [(r, abs(outcome.units[r.member_id])) for r in results]
            units = outcome.units
    except FormatUserError as error:
        raise _user_error(error) from None
    for result, won in scored:
        session.add(
            MoneyGame(
                session_id=session_id,
                number=number,
                box_id=box,
                member_id=result.member_id,
                is_captain=result.member_id == captain,
                box_won=result.box_won,
                end=result.end,
                level=result.level,
                cube=result.cube,
                centred=result.centred,
                checkers_left=result.checkers_left,
                units=won,
            )
        )
    totals = _totals(seats, [*stored, *_pending(session)])
    ended = _reached_difference(row, seats, totals)
    if ended:
        row.ended_at = utcnow()
        row.ended_how = ended
    record(
        session,
        actor=actor,
        action="money.game",
        entity_type="money_session",
        entity_id=session_id,
        event_id=row.event_id,
        after={"number": number, "units": {str(k): v for k, v in units.items()}},
    )
    return number


def _pending(session: Session) -> list[MoneyGame]:
    return [r for r in session.new if isinstance(r, MoneyGame)]


def _one_result(results: Sequence[ResultFields], member: int) -> list[ResultFields]:
    found = [r for r in results if r.member_id == member]
    if len(found) != 1:
        raise StoreUserError(Message("Enter the game's result once, against the right player."))
    return found


def _result_game(result: ResultFields) -> money.MoneyGame:
    if result.end not in END_WORDS:
        raise StoreUserError(Message(
            "A game ends played out, by a drop or resigned, not %(end)s.", end=repr(result.end)
        ))
    if result.level not in LEVEL_WORDS:
        raise StoreUserError(Message("A game is won single, gammon or backgammon."))
    return _formats_game(result)


def _totals(seats: Sequence[int], rows: Sequence[MoneyGame]) -> dict[int, int]:
    """Each player's units over ``rows``: the box wins or loses each row's units."""
    totals = dict.fromkeys(seats, 0)
    for r in rows:
        signed = r.units if r.box_won else -r.units
        totals[r.box_id] += signed
        totals[r.member_id] -= signed
    return totals


def _reached_difference(row: MoneySession, seats: Sequence[int], totals: dict[int, int]) -> str:
    """How the session ended if this game brought it to its difference, else empty."""
    if row.end_difference is None or row.is_chouette:
        return ""
    if money.session_over((totals[seats[0]], totals[seats[1]]), difference=row.end_difference):
        return REACHED_DIFFERENCE.format(difference=row.end_difference)
    return ""


def take_back_game(session: Session, *, actor: Actor, session_id: int) -> int:
    """Take back the last game entered (a wrong entry); the number of the game removed.

    Raises:
        StoreUserError: no game to take back.
    """
    row = _load(session, actor, session_id, manage=True)
    stored = _games(session, session_id)
    if not stored:
        raise StoreUserError(Message("No game has been entered yet."))
    last = stored[-1].number
    removed = [r for r in stored if r.number == last]
    session.execute(
        delete(MoneyGame).where(
            col(MoneyGame.session_id) == session_id, col(MoneyGame.number) == last
        )
    )
    if row.ended_how == REACHED_DIFFERENCE.format(difference=row.end_difference):
        row.ended_at = None
        row.ended_how = ""
    record(
        session,
        actor=actor,
        action="money.take_back",
        entity_type="money_session",
        entity_id=session_id,
        event_id=row.event_id,
        before={
            "number": last,
            "results": [
                {"member": r.member_id, "box_won": r.box_won, "end": r.end, "level": r.level,
                 "cube": r.cube, "units": r.units}
                for r in removed
            ],
        },
    )
    return last


def end_session(session: Session, *, actor: Actor, session_id: int, how: str) -> None:
    """End a session (by agreement, at its time ...); ``how`` says how, for the sheet.

    Raises:
        StoreUserError: it has ended already.
    """
    row = _load(session, actor, session_id, manage=True)
    if row.ended_at is not None:
        raise StoreUserError(Message("This session has ended already."))
    row.ended_at = utcnow()
    row.ended_how = how.strip()[:120] or BY_AGREEMENT
    record(
        session,
        actor=actor,
        action="money.end",
        entity_type="money_session",
        entity_id=session_id,
        event_id=row.event_id,
        after={"how": row.ended_how},
    )


# --- read models ---------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyPlayer:
    """A player of a session with their running total."""

    player_id: int
    name: str
    units: int
    money_text: str


@dataclass(frozen=True)
class GameLine:
    """One game row as the session page lists it."""

    number: int
    box: str
    member: str
    winner: str
    how: str
    cube: int
    units: int


@dataclass(frozen=True)
class PaymentLine:
    """Who pays whom how much to settle."""

    payer: str
    payee: str
    amount_text: str


@dataclass(frozen=True)
class SessionView:
    """A money session as its page shows it."""

    id: int
    event_id: int
    event_name: str
    event_slug: str
    name: str
    is_chouette: bool
    stake_text: str
    rules_text: str
    team_cube: bool
    per_checker: bool
    """Stakes are per checker left: the game form asks for the loser's checkers."""
    players: tuple[MoneyPlayer, ...]
    games: tuple[GameLine, ...]
    game_count: int
    box: MoneyPlayer | None
    captain: MoneyPlayer | None
    line: tuple[MoneyPlayer, ...]
    """The team after the captain, in the order they will be captain."""
    opponents: tuple[MoneyPlayer, ...]
    """Who plays the box in the next game: the captain first (two players: the second)."""
    settlement: tuple[PaymentLine, ...]
    ended_text: str
    can_manage: bool

    @property
    def is_over(self) -> bool:
        """Whether the session has ended."""
        return bool(self.ended_text)


@dataclass(frozen=True)
class SessionSummary:
    """A session in its event's list."""

    id: int
    name: str
    is_chouette: bool
    players: int
    games: int
    ended: bool


def money_text(minor: int, currency: str) -> str:
    """An amount in minor units as people write it: ``EUR 12.50``, ``-EUR 3.00``."""
    sign = "-" if minor < 0 else ""
    whole, cents = divmod(abs(minor), 100)
    return f"{sign}{currency} {whole:,}.{cents:02d}"


@dataclass(frozen=True)
class EventSessions:
    """An event's money sessions, newest first, for its money page."""

    event_id: int
    event_name: str
    can_manage: bool
    sessions: tuple[SessionSummary, ...]


def event_sessions(session: Session, actor: Actor, event_id: int) -> EventSessions:
    """The money sessions of an event, newest first.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not on its staff.
    """
    event = require_event(session, actor, event_id, manage=False)
    return EventSessions(
        event_id,
        event.name,
        can_manage_event(session, actor, event),
        sessions_of_event(session, event_id),
    )


def sessions_of_event(session: Session, event_id: int) -> tuple[SessionSummary, ...]:
    """An event's money sessions, newest first (the caller has checked the reader may see
    the event)."""
    rows = session.exec(
        select(MoneySession)
        .where(MoneySession.event_id == event_id)
        .order_by(col(MoneySession.id).desc())
    ).all()
    ids = [row.id or 0 for row in rows]
    seats: dict[int, int] = {}
    for session_id in session.exec(
        select(MoneySeat.session_id).where(col(MoneySeat.session_id).in_(ids))
    ):
        seats[session_id] = seats.get(session_id, 0) + 1
    games: dict[int, set[int]] = {}
    for session_id, number in session.exec(
        select(MoneyGame.session_id, MoneyGame.number).where(col(MoneyGame.session_id).in_(ids))
    ):
        games.setdefault(session_id, set()).add(number)
    return tuple(
        SessionSummary(
            row.id or 0,
            row.name,
            row.is_chouette,
            seats.get(row.id or 0, 0),
            len(games.get(row.id or 0, ())),
            row.ended_at is not None or _time_is_up(row),
        )
        for row in rows
    )


def session_view(session: Session, actor: Actor, session_id: int) -> SessionView:
    """A money session for its event's staff.

    Raises:
        NotFoundError, AccessDeniedError: no such session, or not on the event's staff.
    """
    row = _load(session, actor, session_id, manage=False)
    event = session.get(Event, row.event_id)
    assert event is not None
    return _view(session, row, event, can_manage=can_manage_event(session, actor, event))


def public_session_view(session: Session, event_id: int, session_id: int) -> SessionView:
    """A money session as the event's readers follow it (the caller has checked that the
    reader may see event ``event_id``: a public event, or a share link).

    Raises:
        NotFoundError: no such session in that event.
    """
    row = session.get(MoneySession, session_id)
    event = session.get(Event, event_id)
    if row is None or event is None or row.event_id != event_id:
        raise NotFoundError(Message("No such money session."))
    return _view(session, row, event, can_manage=False)


def _view(session: Session, row: MoneySession, event: Event, *, can_manage: bool) -> SessionView:
    seats = _seats(session, row.id or 0)
    names = {
        p.id or 0: p.name
        for p in session.exec(select(Player).where(col(Player.id).in_(seats)))
    }
    stored = _games(session, row.id or 0)
    mode = money.stake_mode(row.stake_mode)
    totals = _totals(seats, stored)

    def player(player_id: int) -> MoneyPlayer:
        units = totals[player_id]
        return MoneyPlayer(
            player_id, names[player_id], units, money_text(units * row.stake_minor, row.currency)
        )

    players = tuple(player(p) for p in seats)
    state = _rotation(row, seats, stored)
    line: tuple[MoneyPlayer, ...] = ()
    if state is None:
        box, captain = player(seats[0]), player(seats[1])
        opponents: tuple[MoneyPlayer, ...] = (captain,)
    else:
        box, captain = player(state.box), player(state.captain)
        line = tuple(player(p) for p in state.line)
        opponents = (captain, *line)
    games = tuple(
        GameLine(
            r.number,
            names[r.box_id],
            names[r.member_id],
            names[r.box_id] if r.box_won else names[r.member_id],
            _how(r, jacoby=row.jacoby),
            r.cube,
            r.units,
        )
        for r in stored
    )
    payments = money.settlement({p.player_id: p.units * row.stake_minor for p in players})
    return SessionView(
        id=row.id or 0,
        event_id=event.id or 0,
        event_name=event.name,
        event_slug=event.slug,
        name=row.name,
        is_chouette=row.is_chouette,
        stake_text=Message(
            "%(mode)s, %(amount)s a unit",
            mode=mode.label,
            amount=money_text(row.stake_minor, row.currency),
        ),
        rules_text=_rules_text(row),
        team_cube=row.team_cube,
        per_checker=mode.key == money.PER_CHECKER.key,
        players=players,
        games=games,
        game_count=len(_by_number(stored)),
        box=box if row.is_chouette else None,
        captain=captain if row.is_chouette else None,
        line=line,
        opponents=opponents,
        settlement=tuple(
            PaymentLine(names[p.payer], names[p.payee], money_text(p.amount, row.currency))
            for p in payments
        ),
        ended_text=_ended_text(row),
        can_manage=can_manage,
    )


def _how(row: MoneyGame, *, jacoby: bool) -> str:
    """How a game ended, as the games' list says it: "gammon, resigned", "double dropped",
    "gammon, played out (single: Jacoby rule)"."""
    if row.end == "dropped":
        return END_WORDS["dropped"]
    level = LEVEL_WORDS.get(row.level, LEVEL_WORDS[1])
    how = ListMessage((level, END_WORDS["resigned" if row.end == "resigned" else "played"]))
    if jacoby and row.centred and row.level > 1:
        return Message("%(how)s (single: Jacoby rule)", how=how)
    return how


def _rules_text(row: MoneySession) -> str:
    """The session's rules in one line: "Jacoby rule, beavers, cube limit 8"."""
    parts: list[str] = []
    if row.jacoby:
        parts.append(N_("Jacoby rule"))
    if row.beavers:
        parts.append(N_("beavers and raccoons") if row.raccoons else N_("beavers"))
    if row.automatic_doubles:
        parts.append(Message("automatic doubles (up to %(most)s)", most=row.automatic_doubles))
    if row.cube_limit:
        parts.append(Message("cube limit %(limit)s", limit=row.cube_limit))
    if row.team_cube:
        parts.append(N_("one team cube"))
    if row.end_difference:
        parts.append(
            Message("ends at a difference of %(difference)s", difference=row.end_difference)
        )
    if row.ends_at:
        parts.append(Message("time is up at %(time)s UTC", time=f"{row.ends_at:%H:%M}"))
    return ListMessage(tuple(parts)) if parts else N_("no cube options")


def _time_is_up(row: MoneySession) -> bool:
    return row.ends_at is not None and utcnow() >= row.ends_at


def _ended_text(row: MoneySession) -> str:
    """How and when the session ended (or its time ran out); empty while it goes on."""
    if row.ended_at is None:
        if _time_is_up(row):
            assert row.ends_at is not None
            return Message("Time was up at %(time)s UTC", time=f"{row.ends_at:%Y-%m-%d %H:%M}")
        return ""
    return Message(
        "Ended %(how)s at %(time)s UTC",
        how=_ended_how(row),
        time=f"{row.ended_at:%Y-%m-%d %H:%M}",
    )


def _ended_how(row: MoneySession) -> str:
    """How the session ended: the app's own words in the reader's language, the
    director's own as they wrote them."""
    if row.ended_how == REACHED_DIFFERENCE.format(difference=row.end_difference):
        return Message("reached the difference of %(difference)s", difference=row.end_difference)
    if row.ended_how == BY_AGREEMENT:
        return N_("by agreement")
    return row.ended_how


def session_players_choices(session: Session, actor: Actor, event_id: int) -> list[tuple[int, str]]:
    """The event's entered players, by name, for choosing a session's seats."""
    require_event(session, actor, event_id, manage=False)
    rows = session.exec(
        select(Player.id, Player.name)
        .join(Entry, col(Entry.player_id) == Player.id)
        .where(Entry.event_id == event_id)
        .order_by(col(Player.name))
    )
    return [(player_id or 0, name) for player_id, name in rows]


def settlement_document(session: Session, actor: Actor, session_id: int) -> SettlementDocument:
    """The settlement sheet of a session, for its event's staff.

    Raises:
        NotFoundError, AccessDeniedError: no such session, or not on the event's staff.
    """
    view = session_view(session, actor, session_id)
    lines = (
        Message("Chouette at %(event)s", event=view.event_name)
        if view.is_chouette
        else Message("Money session at %(event)s", event=view.event_name),
        Message("Stake: %(stake)s", stake=view.stake_text),
        Message("Rules: %(rules)s", rules=view.rules_text),
        view.ended_text
        or PluralMessage(
            "Still playing after %(count)s game",
            "Still playing after %(count)s games",
            view.game_count,
        ),
    )
    totals = SheetTable(
        N_("Totals"),
        (N_("Player"), N_("Units"), N_("Money")),
        tuple((p.name, p.units, p.money_text) for p in view.players),
        numeric=(1, 2),
    )
    games = SheetTable(
        N_("Games"),
        (N_("Game"), N_("Box"), N_("Against"), N_("Winner"), N_("How"), N_("Cube"), N_("Units")),
        tuple(
            (g.number, g.box, g.member, g.winner, g.how, g.cube, g.units) for g in view.games
        ),
        numeric=(0, 5, 6),
    )
    payments = SheetTable(
        N_("Settlement"),
        (N_("Pays"), N_("To"), N_("Amount")),
        tuple((p.payer, p.payee, p.amount_text) for p in view.settlement),
        numeric=(2,),
    )
    return SettlementDocument(
        stem=f"{slugify(view.event_name)}-{slugify(view.name)}-settlement",
        title=view.name,
        lines=lines,
        tables=(totals, payments, games),
    )
