"""Team events in the store: teams and their board order, fixtures drawn round by round,
and each fixture kept up to date from its board matches.

Terminology (see ``tourney.formats.teams``): a *team* is an entrant of 2-7 players in
board order; a team flight (a flight with ``boards`` set) pairs teams in *fixtures*; a
fixture's *boards* are ordinary :class:`Match` rows (``fixture_id``, ``board``) between
the two teams' players on that board, entered game by game like any match. A *pair*
is an entry with a partner: two players consulting on one side of a board.

Each team member is an event entry (so a board match is between two flight entries, as
every match is); a team flight enters its teams' members when its first round is drawn.
Rounds of a team flight are drawn one at a time, once the previous one is finished, and
published at once: a Swiss or round robin pairs teams like players, a knockout follows
its bracket (drawn from the stored seed), byes included.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, func, select

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatUserError
from tourney.formats.flight_formats import flight_format
from tourney.formats.model import Bye, EntrantId, MatchId, Standing
from tourney.formats.roundrobin import berger_schedule
from tourney.formats.rounds import numbered_round_name, parse_round_name, round_name
from tourney.formats.swiss import SwissEntrant, default_round_count, pair_round
from tourney.formats.teams import (
    BoardOrder,
    BoardResult,
    DecidedBy,
    FixtureOutcome,
    FixtureResult,
    check_lineup,
    check_team_size,
    decide_fixture,
    fixed_lineup,
    team_standings,
)
from tourney.rules.messages import Message, PluralMessage, message_of
from tourney.store.audit import Actor, record
from tourney.store.documents import BoardLine, FixtureSheet
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.inputs import clean_text
from tourney.store.permissions import require_event
from tourney.store.queries import tiebreak_chain
from tourney.store.tables import (
    Entry,
    Event,
    EventStatus,
    Fixture,
    Flight,
    FlightEntry,
    FlightStatus,
    Match,
    MatchStatus,
    Player,
    Round,
    RoundStatus,
    Team,
    TeamMember,
)
from tourney.store.types import utcnow

MAX_SEED = 2**31 - 1
PAIR_SEPARATOR = "&"
"""How a director writes a pair in a team's list: ``Ann Lee & Bob Ray``."""
_DONE = (MatchStatus.FINISHED.value, MatchStatus.WALKOVER.value)


# --- read models ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamMemberView:
    """A team's player (or pair) at its place in the board order."""

    board: int
    entry_id: int
    name: str
    """``Ann Lee`` or, for a pair, ``Ann Lee & Bob Ray``."""
    player_ids: tuple[int, ...]
    """One player, or a pair's two (both are credited with the results)."""


@dataclass(frozen=True, slots=True)
class TeamView:
    """A team with its members in board order."""

    id: int
    name: str
    seed: int | None
    members: tuple[TeamMemberView, ...]


@dataclass(frozen=True, slots=True)
class BoardView:
    """One board match of a fixture."""

    board: int
    match_id: int
    a: str
    b: str
    length: int
    score: str
    """``3–1``, as the match stands."""
    status: str
    winner: str | None
    """``a`` or ``b`` once finished."""


@dataclass(frozen=True, slots=True)
class FixtureView:
    """Two teams meeting in a round, with their boards (or a team's bye)."""

    id: int
    flight_id: int
    flight_name: str
    event_id: int
    event_slug: str
    event_name: str
    round_number: int
    round_name: str
    position: int
    a: str
    b: str | None
    """None: a bye."""
    status: str
    score: str
    """Boards won ``2–1``, with board points where they decided: ``2–2 (14–11)``."""
    winner: str | None
    decided_by: str
    """``on boards`` / ``on board points`` / ``on the top board``; empty until decided."""
    boards: tuple[BoardView, ...]
    can_change_lineup: bool
    """The event names line-ups per fixture and no board has started."""

    @property
    def is_bye(self) -> bool:
        """Whether this is a team's bye."""
        return self.b is None


@dataclass(frozen=True, slots=True)
class TeamStandingRow:
    """One row of a team flight's standings."""

    rank: int
    tied: bool
    team: str
    fixture_wins: int
    board_wins: int
    board_points: int
    """Board points won (each board capped at its length), over every fixture."""
    tiebreaks: tuple[tuple[str, int], ...]
    """The event's tiebreaks by short name, after fixture wins and board wins."""

    @property
    def display_rank(self) -> str:
        """``1``, or ``=3`` when shared."""
        return f"={self.rank}" if self.tied else str(self.rank)


@dataclass(frozen=True, slots=True)
class FixtureRound:
    """A round of a team flight."""

    number: int
    name: str
    fixtures: tuple[FixtureView, ...]


@dataclass(frozen=True, slots=True)
class TeamFlightView:
    """A team flight: its rounds of fixtures and its standings."""

    flight_id: int
    name: str
    event_id: int
    event_slug: str
    event_name: str
    format: str
    boards: int
    match_length: int
    status: str
    rounds: tuple[FixtureRound, ...]
    standings: tuple[TeamStandingRow, ...]
    tiebreak_names: tuple[str, ...]
    next_round: str | None
    """Why no round can be drawn now, or None when the next one can be."""
    teams: int


# --- teams ---------------------------------------------------------------------------


def _player_by_name(session: Session, name: str) -> Player | None:
    """The roster player of that name (case aside); none when nobody has it.

    Raises:
        StoreUserError: several players have that name.
    """
    found = list(session.exec(select(Player).where(func.lower(Player.name) == name.lower())))
    if len(found) > 1:
        raise StoreUserError(
            Message(
                "Several players are named %(name)s: enter the team from the roster instead.",
                name=repr(name),
            ),
            field="members",
        )
    return found[0] if found else None


def _roster_player(session: Session, actor: Actor, name: str) -> Player:
    player = _player_by_name(session, name)
    if player is not None:
        return player
    player = Player(name=name, added_by_id=actor.user_id)
    session.add(player)
    session.flush()
    record(
        session,
        actor=actor,
        action="player.create",
        entity_type="player",
        entity_id=player.id,
        after={"name": name, "added_with_team": True},
    )
    return player


def parse_members(text: str) -> list[tuple[str, ...]]:
    """A team's members as a director types them: one line a board, a pair as
    ``Ann & Bob``; blank lines skipped.

    >>> parse_members("Ann\\n\\nBob & Cy\\n")
    [('Ann',), ('Bob', 'Cy')]
    """
    members: list[tuple[str, ...]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        names = tuple(clean_text(part) for part in line.split(PAIR_SEPARATOR))
        members.append(names)
    return members


def add_team(
    session: Session,
    *,
    actor: Actor,
    event_id: int,
    name: str,
    members: Sequence[Sequence[str]],
    seed: int | None = None,
) -> TeamView:
    """A director enters a team: its name and its players (or pairs) in board order.

    Players are found on the roster by name, or added to it; each is entered in the
    event. A pair is two names on one board: they play as one side.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's event.
        StoreUserError: no name or a name taken, 2-7 members, an empty name or a pair of
            more than two, a player twice or already in another team, a finished event.
    """
    event = require_event(session, actor, event_id, manage=True)
    if event.status in (EventStatus.FINISHED.value, EventStatus.ARCHIVED.value):
        raise StoreUserError(Message("The event is finished."))
    name = clean_text(name)
    if not name:
        raise StoreUserError(Message("Enter the team's name."), field="name")
    if len(name) > 80:
        raise StoreUserError(Message("A team's name has at most 80 characters."), field="name")
    taken = session.exec(select(Team.id).where(Team.event_id == event_id, Team.name == name))
    if taken.first() is not None:
        raise StoreUserError(
            Message("The event has a team called %(name)s.", name=repr(name)), field="name"
        )
    try:
        # Players, not lines: a pair is two players on one board, so a pair alone is a
        # team for a one-board flight (a pair consultation event).
        check_team_size(name, sum(len(side) for side in members))
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="members") from None
    seen: set[str] = set()
    for side in members:
        if len(side) not in (1, 2) or not all(side):
            raise StoreUserError(
                Message("Each line is one player, or a pair as “Ann Lee & Bob Ray”."),
                field="members",
            )
        for person in side:
            if person.lower() in seen:
                raise StoreUserError(
                    Message("%(name)s is in the team twice.", name=person), field="members"
                )
            seen.add(person.lower())
    team = Team(event_id=event_id, name=name, seed=seed)
    session.add(team)
    session.flush()
    for board, side in enumerate(members, start=1):
        players = [_roster_player(session, actor, person) for person in side]
        entry = _team_entry(session, event, players)
        session.add(TeamMember(team_id=team.id or 0, entry_id=entry.id or 0, board=board))
    session.flush()
    view = team_view(session, team.id or 0)
    record(
        session,
        actor=actor,
        action="team.create",
        entity_type="team",
        entity_id=team.id,
        event_id=event_id,
        after={"name": name, "members": [member.name for member in view.members]},
    )
    return view


def _team_entry(session: Session, event: Event, players: Sequence[Player]) -> Entry:
    """The event entry a team member plays on: the player's, or a new pair's."""
    player = players[0]
    partner = players[1] if len(players) > 1 else None
    entry = session.exec(
        select(Entry).where(Entry.event_id == event.id, Entry.player_id == player.id)
    ).first()
    if entry is not None:
        in_team = session.exec(
            select(Team.name)
            .join(TeamMember, col(TeamMember.team_id) == col(Team.id))
            .where(TeamMember.entry_id == entry.id)
        ).first()
        if in_team is not None:
            raise StoreUserError(
                Message("%(name)s plays for %(team)s already.", name=player.name, team=in_team),
                field="members",
            )
        if entry.partner_id != (None if partner is None else partner.id):
            raise StoreUserError(
                Message("%(name)s is entered with another partner already.", name=player.name),
                field="members",
            )
        return entry
    if partner is not None:
        partnered = session.exec(
            select(Entry.id).where(
                Entry.event_id == event.id,
                (col(Entry.player_id) == partner.id) | (col(Entry.partner_id) == partner.id),
            )
        ).first()
        if partnered is not None:
            raise StoreUserError(
                Message("%(name)s is entered already.", name=partner.name), field="members"
            )
    entry = Entry(
        event_id=event.id or 0,
        player_id=player.id or 0,
        partner_id=None if partner is None else partner.id,
    )
    session.add(entry)
    session.flush()
    return entry


def _entry_names(
    session: Session, entry_ids: Iterable[int]
) -> dict[int, tuple[str, tuple[int, ...]]]:
    """Each entry's shown name (a pair: ``Ann & Bob``) and its players, in two queries."""
    ids = sorted(set(entry_ids))
    if not ids:
        return {}
    rows = list(
        session.exec(
            select(Entry.id, Entry.player_id, Entry.partner_id).where(col(Entry.id).in_(ids))
        )
    )
    player_ids = {p for _, a, b in rows for p in (a, b) if p is not None}
    names = {
        pid: name
        for pid, name in session.exec(
            select(Player.id, Player.name).where(col(Player.id).in_(player_ids))
        )
    }
    out: dict[int, tuple[str, tuple[int, ...]]] = {}
    for entry_id, player_id, partner_id in rows:
        players = (player_id,) if partner_id is None else (player_id, partner_id)
        shown = f" {PAIR_SEPARATOR} ".join(names[p] for p in players)
        out[entry_id or 0] = (shown, players)
    return out


def entry_display_names(session: Session, entry_ids: Iterable[int]) -> dict[int, str]:
    """Entries' shown names (a pair: ``Ann Lee & Bob Ray``)."""
    return {key: value[0] for key, value in _entry_names(session, entry_ids).items()}


def team_views(session: Session, event_id: int) -> tuple[TeamView, ...]:
    """An event's teams with their members in board order, by seed then name."""
    teams = list(
        session.exec(
            select(Team)
            .where(Team.event_id == event_id)
            .order_by(col(Team.seed).is_(None), col(Team.seed), col(Team.name))
        )
    )
    return _views(session, teams)


def team_view(session: Session, team_id: int) -> TeamView:
    """One team.

    Raises:
        NotFoundError: no such team.
    """
    team = session.get(Team, team_id)
    if team is None:
        raise NotFoundError(Message("No such team."))
    return _views(session, [team])[0]


def _views(session: Session, teams: Sequence[Team]) -> tuple[TeamView, ...]:
    ids = [team.id or 0 for team in teams]
    members = list(
        session.exec(
            select(TeamMember)
            .where(col(TeamMember.team_id).in_(ids))
            .order_by(col(TeamMember.board))
        )
    )
    names = _entry_names(session, (m.entry_id for m in members))
    by_team: dict[int, list[TeamMemberView]] = {}
    for m in members:
        shown, players = names[m.entry_id]
        by_team.setdefault(m.team_id, []).append(
            TeamMemberView(m.board, m.entry_id, shown, players)
        )
    return tuple(
        TeamView(team.id or 0, team.name, team.seed, tuple(by_team.get(team.id or 0, ())))
        for team in teams
    )


# --- drawing rounds ------------------------------------------------------------------


def _team_flight(
    session: Session, actor: Actor, flight_id: int, *, manage: bool
) -> tuple[Flight, Event]:
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    event = require_event(session, actor, flight.event_id, manage=manage)
    if flight.boards is None:
        raise StoreUserError(Message("“%(flight)s” is not a team flight.", flight=flight.name))
    return flight, event


@dataclass(frozen=True, slots=True)
class _Loaded:
    flight: Flight
    teams: tuple[TeamView, ...]
    rounds: list[Round]
    fixtures: list[Fixture]


def _load(session: Session, flight: Flight) -> _Loaded:
    teams = team_views(session, flight.event_id)
    rounds = list(
        session.exec(select(Round).where(Round.flight_id == flight.id).order_by(col(Round.number)))
    )
    fixtures = list(
        session.exec(
            select(Fixture)
            .where(Fixture.flight_id == flight.id)
            .order_by(col(Fixture.round_id), col(Fixture.position))
        )
    )
    return _Loaded(flight, teams, rounds, fixtures)


def _bye_is_win(flight: Flight) -> bool:
    """A Swiss bye counts as a fixture win where the flight says so; a round robin's bye
    is the round off, as for players (``byes_recorded`` of the flight's format)."""
    return flight_format(flight.format).byes_recorded and flight.bye_counts_as_win


def _outcomes(loaded: _Loaded) -> list[FixtureOutcome]:
    numbers = {r.id: r.number for r in loaded.rounds}
    out: list[FixtureOutcome] = []
    for f in loaded.fixtures:
        if f.team_b_id is None:
            out.append(FixtureOutcome(numbers[f.round_id], EntrantId(f.team_a_id), None, None))
        elif f.winner_team_id is not None:
            result = FixtureResult(
                (f.boards_a, f.boards_b),
                (f.points_a, f.points_b),
                f.winner_team_id == f.team_a_id,
                DecidedBy(f.decided_by),
            )
            out.append(
                FixtureOutcome(
                    numbers[f.round_id], EntrantId(f.team_a_id), EntrantId(f.team_b_id), result
                )
            )
    return out


def _bracket(loaded: _Loaded) -> ko.Bracket:
    """The knockout of the teams, drawn from the stored seed, with the results so far."""
    flight = loaded.flight
    seed = int(flight.draw_seed or 0)
    teams = [EntrantId(t.id) for t in loaded.teams]
    if flight.draw_method == "seeded":
        positions = ko.seeded_positions(teams)
    else:
        positions = ko.random_positions(teams, seed=seed)
    bracket = ko.plan_knockout(
        positions, seed=seed, lengths=ko.RoundLengths(flight.match_length), name="main"
    )
    for f in loaded.fixtures:
        if f.bracket_key and f.team_b_id is not None and f.winner_team_id is not None:
            bracket = ko.record_result(
                bracket,
                MatchId(f.bracket_key),
                EntrantId(f.winner_team_id),
                (f.boards_a, f.boards_b),
            )
    return bracket


def _round_message(name: str) -> Message:
    """A stored round's name as a message, so a sentence naming it is translated whole:
    "Round 2" and "Semifinal" are in the catalogue, a name given by hand stays as it is."""
    parsed = parse_round_name(name)
    return parsed if isinstance(parsed, Message) else Message(parsed)


def _planned_round(loaded: _Loaded) -> list[tuple[EntrantId, EntrantId | None, str]]:
    """The next round's fixtures (team a, team b or none for a bye, bracket key).

    Raises:
        FormatUserError: no round is due (with the reason).
    """
    flight = loaded.flight
    number = len(loaded.rounds) + 1
    if loaded.rounds and loaded.rounds[-1].status != RoundStatus.FINISHED.value:
        raise FormatUserError(Message(
            "%(round)s is still being played: finish its fixtures first.",
            round=_round_message(loaded.rounds[-1].name),
        ))
    teams = [EntrantId(t.id) for t in loaded.teams]
    if len(teams) < 2:
        raise FormatUserError(PluralMessage(
            "A team flight needs at least two teams; there is %(count)s.",
            "A team flight needs at least two teams; there are %(count)s.",
            len(teams),
        ))
    boards = flight.boards or 0
    short = [t.name for t in loaded.teams if len(t.members) < boards]
    if short:
        # A one-board flight never gets here (every team has a player), so "players"
        # and "boards" are plural; the count is the number of teams named.
        raise FormatUserError(PluralMessage(
            "Every team needs at least %(boards)s players for %(boards)s boards: "
            "%(teams)s has fewer.",
            "Every team needs at least %(boards)s players for %(boards)s boards: "
            "%(teams)s have fewer.",
            len(short), boards=boards, teams=", ".join(short),
        ))
    if flight.format == "roundrobin":
        schedule = berger_schedule(teams)
        if number > len(schedule):
            raise FormatUserError(
                Message("Every team has met every other: the round robin is over.")
            )
        return [
            (item.entrant, None, "") if isinstance(item, Bye) else (item.a, item.b, "")
            for item in schedule[number - 1]
        ]
    if flight.format == "knockout":
        bracket = _bracket(loaded)
        planned = [m for m in bracket.flight_matches("main") if m.round == number]
        if not planned:
            raise FormatUserError(Message("The knockout is over."))
        out: list[tuple[EntrantId, EntrantId | None, str]] = []
        for m in planned:
            shown = ko.view(bracket, m)
            if shown.status is ko.MatchStatus.VOID or shown.a is None:
                continue
            out.append((shown.a, shown.b, m.id))
        return out
    return _swiss_round(loaded, teams, number)


def _swiss_round(
    loaded: _Loaded, teams: list[EntrantId], number: int
) -> list[tuple[EntrantId, EntrantId | None, str]]:
    flight = loaded.flight
    lives = flight.swiss_lives
    wins = dict.fromkeys(teams, 0)
    losses = dict.fromkeys(teams, 0)
    had_bye = dict.fromkeys(teams, False)
    played: set[frozenset[int]] = set()
    outcomes = _outcomes(loaded)
    for outcome in outcomes:
        if outcome.b is None:
            had_bye[outcome.a] = True
            wins[outcome.a] += _bye_is_win(flight)
            continue
        wins[outcome.winner] += 1
        losses[outcome.b if outcome.winner == outcome.a else outcome.a] += 1
        played.add(frozenset((outcome.a, outcome.b)))
    alive = [t for t in teams if lives is None or losses[t] < lives]
    if lives is None:
        limit = flight.swiss_rounds or default_round_count(len(teams))
        if number > limit:
            raise FormatUserError(
                Message("All %(rounds)s rounds of the Swiss are played.", rounds=limit)
            )
    if len(alive) < 2:
        raise FormatUserError(Message("Only one team has lives left: the Swiss is over."))
    table = team_standings(
        outcomes,
        tiebreak_chain(flight.tiebreaks),
        entrants=teams,
        bye_is_win=_bye_is_win(flight),
    )
    place = {row.entrant: i for i, row in enumerate(table)}
    alive.sort(key=lambda t: place[t])
    seed = int(flight.draw_seed or 0) + number
    paired = pair_round(
        [SwissEntrant(t, wins[t], losses[t], had_bye=had_bye[t]) for t in alive],
        played,
        seed=seed,
        record="wins" if lives is None else "losses",
    )
    out: list[tuple[EntrantId, EntrantId | None, str]] = [
        (EntrantId(a), EntrantId(b), "") for a, b in paired.pairings
    ]
    if paired.bye is not None:
        out.append((EntrantId(paired.bye), None, ""))
    return out


def _flight_entries(session: Session, flight: Flight, teams: Sequence[TeamView]) -> dict[int, int]:
    """Every team member's flight entry in the team flight (made where missing), by entry."""
    have = {
        entry_id: fe_id
        for entry_id, fe_id in session.exec(
            select(FlightEntry.entry_id, FlightEntry.id).where(FlightEntry.flight_id == flight.id)
        )
    }
    for team in teams:
        for member in team.members:
            if member.entry_id not in have:
                fe = FlightEntry(flight_id=flight.id or 0, entry_id=member.entry_id)
                session.add(fe)
                session.flush()
                have[member.entry_id] = fe.id or 0
    return {entry_id: fe_id or 0 for entry_id, fe_id in have.items()}


def draw_team_round(
    session: Session, *, actor: Actor, flight_id: int, seed: int | None = None
) -> int:
    """Draw and publish the next round of a team flight; returns its number.

    The first round stores the draw seed (``seed``, or a new one) that every later
    round's pairing and a knockout's bracket are made from.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: not a team flight, the previous round unfinished, too few teams or
            a team short of players, or no round left to play (the reason says which).
    """
    flight, event = _team_flight(session, actor, flight_id, manage=True)
    if flight.draw_seed is None:
        flight.draw_seed = str(secrets.randbelow(MAX_SEED) if seed is None else seed)
    loaded = _load(session, flight)
    try:
        planned = _planned_round(loaded)
    except FormatUserError as error:
        raise StoreUserError(message_of(error)) from None
    number = len(loaded.rounds) + 1
    if flight.format == "knockout":
        total = ko.bracket_size(len(loaded.teams)).bit_length() - 1
        name = round_name(number, total)
    else:
        name = numbered_round_name(number)
    now = utcnow()
    rnd = Round(
        flight_id=flight.id or 0,
        number=number,
        name=name,
        match_length=flight.match_length,
        status=RoundStatus.PUBLISHED,
        pairing_seed=flight.draw_seed,
        published_at=now,
    )
    session.add(rnd)
    session.flush()
    entries = _flight_entries(session, flight, loaded.teams)
    by_id = {t.id: t for t in loaded.teams}
    boards = flight.boards or 0
    for position, (a, b, key) in enumerate(planned, start=1):
        fixture = Fixture(
            flight_id=flight.id or 0,
            round_id=rnd.id or 0,
            position=position,
            bracket_key=key,
            team_a_id=a,
            team_b_id=b,
            status=MatchStatus.READY if b is not None else MatchStatus.BYE,
            winner_team_id=None if b is not None else a,
        )
        session.add(fixture)
        session.flush()
        if b is None:
            continue
        lineup_a = fixed_lineup([m.entry_id for m in by_id[a].members], boards)
        lineup_b = fixed_lineup([m.entry_id for m in by_id[b].members], boards)
        for board in range(1, boards + 1):
            session.add(
                Match(
                    flight_id=flight.id or 0,
                    round_id=rnd.id or 0,
                    position=(position - 1) * boards + board,
                    entry_a_id=entries[lineup_a[board - 1]],
                    entry_b_id=entries[lineup_b[board - 1]],
                    match_length=flight.match_length,
                    status=MatchStatus.READY,
                    fixture_id=fixture.id,
                    board=board,
                )
            )
    flight.status = FlightStatus.RUNNING
    session.flush()
    _sync_round(session, flight, rnd)
    record(
        session,
        actor=actor,
        action="flight.draw_fixtures",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        after={"round": number, "seed": flight.draw_seed, "fixtures": len(planned)},
    )
    return number


def set_lineup(
    session: Session, *, actor: Actor, fixture_id: int, side: str, entry_ids: Sequence[int]
) -> FixtureView:
    """Name one team's players on boards 1..N of a fixture (per-fixture board order).

    Raises:
        NotFoundError, AccessDeniedError: no such fixture, or not the actor's event.
        StoreUserError: the event keeps a fixed board order, a board has started, or the
            line-up is not N different players of the team.
    """
    fixture = session.get(Fixture, fixture_id)
    if fixture is None:
        raise NotFoundError(Message("No such fixture."))
    flight, event = _team_flight(session, actor, fixture.flight_id, manage=False)
    if event.board_order != BoardOrder.PER_FIXTURE.value:
        raise StoreUserError(Message("The event plays a fixed board order."))
    team_id = fixture.team_a_id if side == "a" else fixture.team_b_id
    if side not in ("a", "b") or team_id is None:
        raise StoreUserError(Message("Choose team a or team b of the fixture."))
    boards = _boards_of(session, [fixture_id])
    if any(m.status != MatchStatus.READY.value for m in boards):
        raise StoreUserError(
            Message("A board has started: the line-up can no longer change.")
        )
    team = team_view(session, team_id)
    try:
        check_lineup([m.entry_id for m in team.members], entry_ids, flight.boards or 0)
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="lineup") from None
    entries = _flight_entries(session, flight, [team])
    for match in boards:
        entry = entries[entry_ids[(match.board or 1) - 1]]
        if side == "a":
            match.entry_a_id = entry
        else:
            match.entry_b_id = entry
    session.flush()
    record(
        session,
        actor=actor,
        action="fixture.lineup",
        entity_type="fixture",
        entity_id=fixture_id,
        event_id=event.id,
        after={"side": side, "entries": list(entry_ids)},
    )
    return fixture_view(session, fixture_id)


# --- keeping fixtures up to date -----------------------------------------------------


def _boards_of(session: Session, fixture_ids: Sequence[int]) -> list[Match]:
    return list(
        session.exec(
            select(Match)
            .where(col(Match.fixture_id).in_(fixture_ids))
            .order_by(col(Match.fixture_id), col(Match.board))
        )
    )


def board_result(match: Match) -> BoardResult | None:
    """A finished board as the fixture counts it (a walkover: the length to nothing)."""
    if match.status not in _DONE or match.winner_entry_id is None:
        return None
    a_won = match.winner_entry_id == match.entry_a_id
    score = (match.score_a, match.score_b)
    if match.status == MatchStatus.WALKOVER.value:
        score = (match.match_length, 0) if a_won else (0, match.match_length)
    return BoardResult(match.board or 0, a_won, score, match.match_length)


def sync_fixture(session: Session, match: Match) -> None:
    """Bring a board's fixture (and its round and flight) up to date after a result."""
    fixture = session.get(Fixture, match.fixture_id)
    flight = session.get(Flight, match.flight_id)
    assert fixture is not None and flight is not None
    boards = _boards_of(session, [fixture.id or 0])
    _apply(fixture, boards, flight.boards or len(boards))
    rnd = session.get(Round, fixture.round_id)
    assert rnd is not None
    session.flush()
    _sync_round(session, flight, rnd)


def _apply(fixture: Fixture, boards: Sequence[Match], count: int) -> None:
    results = [r for r in (board_result(m) for m in boards) if r is not None]
    won_a = sum(1 for r in results if r.a_won)
    won_b = len(results) - won_a
    fixture.boards_a, fixture.boards_b = won_a, won_b
    fixture.points_a = sum(min(r.score[0], r.length) for r in results)
    fixture.points_b = sum(min(r.score[1], r.length) for r in results)
    if len(results) == count:
        outcome = decide_fixture(results, count)
        fixture.winner_team_id = fixture.team_a_id if outcome.a_won else fixture.team_b_id
        fixture.decided_by = outcome.decided_by.value
        fixture.status = MatchStatus.FINISHED
        return
    fixture.winner_team_id = None
    fixture.decided_by = ""
    started = any(m.status != MatchStatus.READY.value for m in boards)
    fixture.status = MatchStatus.PLAYING if started else MatchStatus.READY


def _sync_round(session: Session, flight: Flight, rnd: Round) -> None:
    """Finish a round whose fixtures are all decided (re-open it after a correction);
    a flight with no round left to draw is then finished."""
    fixtures = session.exec(select(Fixture.status).where(Fixture.round_id == rnd.id))
    done = all(s in (MatchStatus.FINISHED.value, MatchStatus.BYE.value) for s in fixtures)
    rnd.status = RoundStatus.FINISHED if done else RoundStatus.PUBLISHED
    session.flush()
    newest = session.exec(select(func.max(Round.number)).where(Round.flight_id == flight.id)).one()
    if not done or newest != rnd.number:
        if flight.status == FlightStatus.FINISHED.value:
            flight.status = FlightStatus.RUNNING
        return
    loaded = _load(session, flight)
    try:
        _planned_round(loaded)
    except FormatUserError:
        flight.status = FlightStatus.FINISHED
        return
    flight.status = FlightStatus.RUNNING


# --- views ---------------------------------------------------------------------------


def _score(a: int, b: int) -> str:
    return f"{a}–{b}"


def _fixture_views(
    session: Session,
    flight: Flight,
    event: Event,
    fixtures: Sequence[Fixture],
    rounds: Mapping[int, Round],
) -> list[FixtureView]:
    boards = _boards_of(session, [f.id or 0 for f in fixtures])
    # Board matches name flight entries; names belong to the event entries behind them.
    fe_entry = {
        fe_id: entry_id
        for fe_id, entry_id in session.exec(
            select(FlightEntry.id, FlightEntry.entry_id).where(FlightEntry.flight_id == flight.id)
        )
    }
    names = entry_display_names(
        session,
        (
            fe_entry[fe]
            for m in boards
            for fe in (m.entry_a_id, m.entry_b_id)
            if fe is not None and fe in fe_entry
        ),
    )
    team_names = {
        tid: name
        for tid, name in session.exec(select(Team.id, Team.name).where(Team.event_id == event.id))
    }
    by_fixture: dict[int, list[BoardView]] = {}
    started: dict[int, bool] = {}
    for m in boards:
        winner = None
        if m.status in _DONE and m.winner_entry_id is not None:
            winner = "a" if m.winner_entry_id == m.entry_a_id else "b"
        by_fixture.setdefault(m.fixture_id or 0, []).append(
            BoardView(
                m.board or 0,
                m.id or 0,
                names.get(fe_entry.get(m.entry_a_id or 0, 0), "?"),
                names.get(fe_entry.get(m.entry_b_id or 0, 0), "?"),
                m.match_length,
                "w/o" if m.status == MatchStatus.WALKOVER.value else _score(m.score_a, m.score_b),
                str(m.status),
                winner,
            )
        )
        started[m.fixture_id or 0] = started.get(m.fixture_id or 0, False) or (
            m.status != MatchStatus.READY.value
        )
    per_fixture = event.board_order == BoardOrder.PER_FIXTURE.value
    views: list[FixtureView] = []
    for f in fixtures:
        rnd = rounds[f.round_id]
        decided = f.decided_by and f.winner_team_id is not None and f.team_b_id is not None
        if decided:
            score = FixtureResult(
                (f.boards_a, f.boards_b), (f.points_a, f.points_b), True, DecidedBy(f.decided_by)
            ).score_label
        else:
            score = "bye" if f.team_b_id is None else _score(f.boards_a, f.boards_b)
        views.append(
            FixtureView(
                id=f.id or 0,
                flight_id=flight.id or 0,
                flight_name=flight.name,
                event_id=event.id or 0,
                event_slug=event.slug,
                event_name=event.name,
                round_number=rnd.number,
                round_name=parse_round_name(rnd.name),
                position=f.position,
                a=team_names[f.team_a_id],
                b=None if f.team_b_id is None else team_names[f.team_b_id],
                status=str(f.status),
                score=score,
                winner=None if f.winner_team_id is None else team_names[f.winner_team_id],
                decided_by=DecidedBy(f.decided_by).label if decided else "",
                boards=tuple(by_fixture.get(f.id or 0, ())),
                can_change_lineup=per_fixture
                and f.team_b_id is not None
                and not started.get(f.id or 0, False),
            )
        )
    return views


def fixture_view(session: Session, fixture_id: int) -> FixtureView:
    """One fixture with its boards.

    Raises:
        NotFoundError: no such fixture.
    """
    fixture = session.get(Fixture, fixture_id)
    if fixture is None:
        raise NotFoundError(Message("No such fixture."))
    flight = session.get(Flight, fixture.flight_id)
    assert flight is not None
    event = session.get(Event, flight.event_id)
    rnd = session.get(Round, fixture.round_id)
    assert event is not None and rnd is not None
    return _fixture_views(session, flight, event, [fixture], {rnd.id or 0: rnd})[0]


def fixture_event_id(session: Session, fixture_id: int) -> int:
    """The event a fixture belongs to.

    Raises:
        NotFoundError: no such fixture.
    """
    event_id = session.exec(
        select(Flight.event_id)
        .join(Fixture, col(Fixture.flight_id) == col(Flight.id))
        .where(Fixture.id == fixture_id)
    ).first()
    if event_id is None:
        raise NotFoundError(Message("No such fixture."))
    return event_id


def team_standing_rows(loaded: _Loaded) -> tuple[tuple[Standing, ...], dict[int, int]]:
    """A team flight's standings and each team's board points."""
    outcomes = _outcomes(loaded)
    chain = tiebreak_chain(loaded.flight.tiebreaks)
    table = team_standings(
        outcomes,
        chain,
        entrants=[EntrantId(t.id) for t in loaded.teams],
        bye_is_win=_bye_is_win(loaded.flight),
    )
    points: dict[int, int] = {t.id: 0 for t in loaded.teams}
    for outcome in outcomes:
        if outcome.b is not None and outcome.result is not None:
            points[outcome.a] += outcome.result.points[0]
            points[outcome.b] += outcome.result.points[1]
    return table, points


def team_flight_view(session: Session, flight_id: int) -> TeamFlightView:
    """A team flight with its rounds of fixtures and standings.

    Raises:
        NotFoundError: no such flight; StoreUserError: not a team flight.
    """
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    if flight.boards is None:
        raise StoreUserError(Message("“%(flight)s” is not a team flight.", flight=flight.name))
    event = session.get(Event, flight.event_id)
    assert event is not None
    loaded = _load(session, flight)
    rounds = {r.id or 0: r for r in loaded.rounds}
    views = _fixture_views(session, flight, event, loaded.fixtures, rounds)
    by_round: dict[int, list[FixtureView]] = {}
    for view in views:
        by_round.setdefault(view.round_number, []).append(view)
    table, points = team_standing_rows(loaded)
    names = {t.id: t.name for t in loaded.teams}
    chain = tiebreak_chain(flight.tiebreaks)
    short = {tb.metric_key: tb.short_name for tb in chain}
    standings = tuple(
        TeamStandingRow(
            row.rank,
            row.tied,
            names[row.entrant],
            row.metric("wins"),
            row.metric("board-wins"),
            points[row.entrant],
            tuple((short[key], value) for key, value in row.metrics[2:] if key in short),
        )
        for row in table
    )
    try:
        _planned_round(loaded)
        next_round: str | None = None
    except FormatUserError as error:
        next_round = message_of(error)
    return TeamFlightView(
        flight_id=flight.id or 0,
        name=flight.name,
        event_id=event.id or 0,
        event_slug=event.slug,
        event_name=event.name,
        format=str(flight.format),
        boards=flight.boards,
        match_length=flight.match_length,
        status=str(flight.status),
        rounds=tuple(
            FixtureRound(r.number, r.name, tuple(by_round.get(r.number, ()))) for r in loaded.rounds
        ),
        standings=standings,
        tiebreak_names=tuple(tb.short_name for tb in chain if not tb.within_group),
        next_round=next_round,
        teams=len(loaded.teams),
    )


def team_flights(session: Session, event_id: int) -> tuple[tuple[int, str], ...]:
    """An event's team flights (id, name) in display order."""
    return tuple(
        (fid or 0, name)
        for fid, name in session.exec(
            select(Flight.id, Flight.name)
            .where(Flight.event_id == event_id, col(Flight.boards).is_not(None))
            .order_by(col(Flight.position), col(Flight.id))
        )
    )


# --- pages ---------------------------------------------------------------------------


def teams_for(session: Session, actor: Actor, event_id: int) -> tuple[TeamView, ...]:
    """An event's teams as its staff see them.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not on its staff.
    """
    require_event(session, actor, event_id, manage=False)
    return team_views(session, event_id)


def team_flight_for(session: Session, actor: Actor, flight_id: int) -> TeamFlightView:
    """A team flight as the event's staff see it.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not on the event's staff.
        StoreUserError: not a team flight.
    """
    _team_flight(session, actor, flight_id, manage=False)
    return team_flight_view(session, flight_id)


def fixture_for(session: Session, actor: Actor, fixture_id: int) -> FixtureView:
    """A fixture as the event's staff see it.

    Raises:
        NotFoundError, AccessDeniedError: no such fixture, or not on the event's staff.
    """
    require_event(session, actor, fixture_event_id(session, fixture_id), manage=False)
    return fixture_view(session, fixture_id)


def public_team_flight(session: Session, event_id: int, flight_id: int) -> TeamFlightView:
    """A team flight of this event as the public sees it (its rounds are all published).

    Raises:
        NotFoundError: no such team flight in this event.
    """
    flight = session.get(Flight, flight_id)
    if flight is None or flight.event_id != event_id or flight.boards is None:
        raise NotFoundError(Message("No such team flight."))
    return team_flight_view(session, flight_id)


def public_fixture(session: Session, event_id: int, fixture_id: int) -> FixtureView:
    """A fixture of this event as the public sees it.

    Raises:
        NotFoundError: no such fixture in this event.
    """
    if fixture_event_id(session, fixture_id) != event_id:
        raise NotFoundError(Message("No such fixture."))
    return fixture_view(session, fixture_id)


def fixture_sheets(
    session: Session, actor: Actor, *, flight_id: int, fixture_id: int | None = None
) -> tuple[FixtureSheet, ...]:
    """Score sheets of a team flight's newest round (or of one fixture of it), one a
    fixture with two teams.

    Raises:
        NotFoundError, AccessDeniedError: no such flight or fixture, or not on the staff.
        StoreUserError: not a team flight.
    """
    view = team_flight_for(session, actor, flight_id)
    if fixture_id is not None:
        chosen = [f for rnd in view.rounds for f in rnd.fixtures if f.id == fixture_id]
        if not chosen:
            raise NotFoundError(Message("No such fixture in this flight."))
    else:
        chosen = list(view.rounds[-1].fixtures) if view.rounds else []
    return tuple(
        FixtureSheet(
            event_name=view.event_name,
            event_slug=view.event_slug,
            flight_name=view.name,
            round_name=f.round_name,
            team_a=f.a,
            team_b=f.b or "",
            boards=tuple(
                BoardLine(
                    b.board,
                    b.a,
                    b.b,
                    b.length,
                    None if b.winner is None or b.score == "w/o" else _parse_score(b.score),
                )
                for b in f.boards
            ),
            result=f"{f.score}, {f.winner} won {f.decided_by}" if f.winner else "",
        )
        for f in chosen
        if f.b is not None
    )


def _parse_score(text: str) -> tuple[int, int]:
    a, b = text.split("–")
    return int(a), int(b)
