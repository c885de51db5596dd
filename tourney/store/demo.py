"""Load the demonstration data in ``sample_events/`` (files with ``"format": "tourney-demo/1"``).

Loading is idempotent: the director is found by e-mail address, the club by slug, players
by name within the club, events by slug; whatever exists already is left alone, so a
second run changes nothing. Everything goes through the services and so into the audit log.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from sqlmodel import Session, col, select

from tourney.formats.simulation import random_game
from tourney.match import GameEntry
from tourney.rules import Side
from tourney.rules.messages import Message
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store import accounts, draws, events, progress, results, roster, seasons
from tourney.store.audit import Actor
from tourney.store.errors import StoreUserError
from tourney.store.events import EventFields, FlightFields
from tourney.store.passwords import verify_password
from tourney.store.results import GameFields
from tourney.store.roster import PlayerFields
from tourney.store.tables import (
    Club,
    Entry,
    Event,
    Flight,
    Match,
    MatchStatus,
    Player,
    Role,
    Round,
    Season,
    User,
)
from tourney.store.variant_options import options_from_json

DEMO_FORMAT = "tourney-demo/1"
DRAW_CHANCE = 0.15
"""How often a demo game of an event with the last-roll draw ends drawn."""


@dataclass(frozen=True)
class DemoLogin:
    """A login printed for whoever runs the demo."""

    email: str
    password: str


@dataclass(frozen=True)
class DemoReport:
    """What a demo load did."""

    logins: tuple[DemoLogin, ...]
    events_created: tuple[str, ...]
    events_present: tuple[str, ...]
    players_created: int


def demo_files(directory: Path) -> list[Path]:
    """The demo description files in ``directory``, in name order."""
    found = []
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("format") == DEMO_FORMAT:
            found.append(path)
    return found


def load_demo(session: Session, *, directory: Path, hasher: PasswordHasher) -> DemoReport:
    """Load every demo file in ``directory`` into the database, skipping what exists.

    Raises:
        StoreUserError: a file describes something the services refuse (named in the message).
    """
    logins: list[DemoLogin] = []
    created: list[str] = []
    present: list[str] = []
    players_created = 0
    for path in demo_files(directory):
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            actor, login = _director(session, data["director"], hasher)
            if login not in logins:
                logins.append(login)
            club_id = _club(session, actor, data.get("club"))
            names, n = _players(session, actor, club_id, data.get("players", []))
            players_created += n
            for spec in data.get("events", []):
                if session.exec(select(Event.id).where(Event.slug == spec["slug"])).first():
                    present.append(spec["slug"])
                    continue
                _event(session, actor, club_id, names, spec)
                created.append(spec["slug"])
            for spec in data.get("seasons", []):
                _season(session, actor, club_id, spec)
        except StoreUserError as error:
            raise StoreUserError(Message(
                "%(file)s: %(reason)s", file=path.name, reason=error.message
            )) from error
        except (KeyError, TypeError, ValueError) as error:
            raise StoreUserError(Message(
                "%(file)s: malformed demo file (%(error)s)", file=path.name, error=repr(error)
            )) from error
    return DemoReport(
        logins=tuple(logins),
        events_created=tuple(created),
        events_present=tuple(present),
        players_created=players_created,
    )


def _season(session: Session, actor: Actor, club_id: int | None, spec: dict[str, Any]) -> None:
    """A season of the club's demo events (by slug), unless the club has it already."""
    if club_id is None:
        raise StoreUserError(Message("a season needs the file's club"))
    exists = session.exec(
        select(Season.id).where(Season.club_id == club_id, Season.name == spec["name"])
    ).first()
    if exists is not None:
        return
    event_ids = tuple(
        session.exec(select(Event.id).where(Event.slug == slug)).one() or 0
        for slug in spec["events"]
    )
    seasons.create_season(
        session,
        actor=actor,
        club_id=club_id,
        fields=seasons.SeasonFields(
            name=spec["name"],
            event_ids=event_ids,
            scoring=spec.get("scoring", "place"),
            points_table=tuple(int(p) for p in spec.get("points", ())),
            best=spec.get("best"),
        ),
    )


def usable_demo_logins(
    session: Session, *, directory: Path, hasher: PasswordHasher
) -> tuple[DemoLogin, ...]:
    """The demo directors' logins that still open their accounts: the account exists, is
    active and still has the demo file's password (a changed password is never shown)."""
    usable: list[DemoLogin] = []
    for path in demo_files(directory):
        spec = json.loads(path.read_text(encoding="utf-8")).get("director")
        if not isinstance(spec, dict):
            continue
        login = DemoLogin(
            email=str(spec.get("email", "")).lower(), password=str(spec.get("password", ""))
        )
        user = session.exec(select(User).where(User.email == login.email)).first()
        if (
            login not in usable
            and user is not None
            and user.is_active
            and verify_password(hasher, user.password_hash, login.password)
        ):
            usable.append(login)
    return tuple(usable)


def _director(
    session: Session, spec: dict[str, Any], hasher: PasswordHasher
) -> tuple[Actor, DemoLogin]:
    email = spec["email"].lower()
    user = session.exec(select(User).where(User.email == email)).first()
    if user is None:
        view = accounts.create_user(
            session,
            actor=Actor.cli(),
            email=email,
            name=spec["name"],
            password=spec["password"],
            role=Role.DIRECTOR.value,
            hasher=hasher,
        )
        actor = view.actor
    else:
        actor = Actor(user_id=user.id, label=user.email, role=user.role)
    return actor, DemoLogin(email=email, password=spec["password"])


def _club(session: Session, actor: Actor, spec: dict[str, Any] | None) -> int | None:
    if not spec:
        return None
    club = session.exec(select(Club).where(Club.slug == spec["slug"])).first()
    if club is not None:
        return club.id
    return events.create_club(session, actor=actor, name=spec["name"], slug=spec["slug"]).id


def _players(
    session: Session, actor: Actor, club_id: int | None, specs: list[dict[str, Any]]
) -> tuple[dict[str, int], int]:
    ids: dict[str, int] = {}
    created = 0
    for spec in specs:
        row = session.exec(
            select(Player).where(Player.name == spec["name"], Player.club_id == club_id)
        ).first()
        if row is None:
            fields = PlayerFields(
                name=spec["name"],
                country=spec.get("country", ""),
                rating=spec.get("rating"),
                email=spec.get("email"),
                club_id=club_id,
            )
            ids[spec["name"]] = roster.register_player(session, actor=actor, fields=fields).id
            created += 1
        else:
            ids[spec["name"]] = row.id or 0
    return ids, created


def _event(
    session: Session,
    actor: Actor,
    club_id: int | None,
    players: dict[str, int],
    spec: dict[str, Any],
) -> None:
    rules = spec.get("rules", {})
    starts = spec.get("starts_on")
    event = events.create_event(
        session,
        actor=actor,
        fields=EventFields(
            name=spec["name"],
            slug=spec["slug"],
            starts_on=date.fromisoformat(starts) if starts else None,
            club_id=club_id,
            venue_name=spec.get("venue", ""),
            is_public=bool(spec.get("is_public", False)),
            crawford=bool(rules.get("crawford", True)),
            holland=bool(rules.get("holland", False)),
            cube_limit_exponent=rules.get("cube_limit_exponent"),
            notes=spec.get("notes", ""),
            variant=spec.get("variant", DEFAULT_VARIANT.name),
            variant_options=options_from_json(rules.get("options")),
        ),
    )
    flight_ids: dict[str, int] = {}
    for flight in spec.get("flights", []):
        source = flight.get("feeds_from")
        view = events.add_flight(
            session,
            actor=actor,
            event_id=event.id,
            fields=FlightFields(
                name=flight["name"],
                format=flight["format"],
                match_length=int(flight["match_length"]),
                round_lengths={str(k): int(v) for k, v in flight.get("round_lengths", {}).items()},
                feeds_from_id=flight_ids[source] if source else None,
                feed_rounds=tuple(flight.get("feed_rounds", ())),
                progressive=bool(flight.get("progressive", False)),
                feed_bye_losers=bool(flight.get("feed_bye_losers", False)),
                reset_match=bool(flight.get("reset_match", False)),
                swiss_rounds=flight.get("swiss_rounds"),
                swiss_lives=flight.get("swiss_lives"),
                tiebreaks=tuple(flight.get("tiebreaks", ())),
                draw_method=flight.get("draw_method", "random"),
            ),
        )
        flight_ids[flight["name"]] = view.id
    checked_in = set(spec.get("checked_in", []))
    for name in spec.get("entries", []):
        entry = roster.enter_player(
            session, actor=actor, event_id=event.id, player_id=players[name]
        )
        if name in checked_in:
            roster.check_in(session, actor=actor, entry_id=entry.id)
    if "play" in spec:
        _play(session, actor, flight_ids[spec["play"]["flight"]], spec["play"])


def _play(session: Session, actor: Actor, flight_id: int, spec: dict[str, Any]) -> None:
    """Draw and publish a flight, then play it with random legal games from the seed.

    A knockout is played to the end (fed flights too); a Swiss plays ``rounds`` rounds,
    then pairs and publishes the next one and enters ``games_in_last_round`` games of its
    first match, so it is left in progress.
    """
    seed = int(spec["seed"])
    rng = random.Random(seed)
    draws.make_draw(session, actor=actor, flight_id=flight_id, method=spec["method"], seed=seed)
    board = draws.publish_draw(session, actor=actor, flight_id=flight_id)
    if board.is_knockout:
        while ready := _ready_matches(session, board.event_id):
            for match in ready:
                _play_match(session, actor, match, rng)
        return
    for number in range(1, int(spec["rounds"]) + 1):
        for match in _ready_matches(session, board.event_id):
            _play_match(session, actor, match, rng)
        if number < int(spec["rounds"]) or spec.get("games_in_last_round"):
            draws.pair_next_round(session, actor=actor, flight_id=flight_id)
            draws.publish_draw(session, actor=actor, flight_id=flight_id)
    games = int(spec.get("games_in_last_round", 0))
    ready = _ready_matches(session, board.event_id)
    if games and ready:
        _play_match(session, actor, ready[0], rng, limit=games)


def _ready_matches(session: Session, event_id: int) -> list[Match]:
    query = (
        select(Match)
        .join(Flight, col(Flight.id) == Match.flight_id)
        .join(Round, col(Round.id) == Match.round_id)
        .where(Flight.event_id == event_id, Match.status == MatchStatus.READY.value)
        .order_by(col(Flight.position), col(Round.number), col(Match.position))
    )
    return list(session.exec(query))


def _play_match(
    session: Session, actor: Actor, match: Match, rng: random.Random, limit: int | None = None
) -> None:
    event = session.get(Event, session.get(Flight, match.flight_id).event_id)  # type: ignore[union-attr]
    assert event is not None
    played = 0
    while match.status in (MatchStatus.READY.value, MatchStatus.PLAYING.value):
        if limit is not None and played >= limit:
            return
        state = progress.match_state(event, match, progress.games_of(session, match.id or 0))
        entry = random_game(state, rng)
        if state.rules.options.last_roll_draw and rng.random() < DRAW_CHANCE:
            # Long nardy's last-roll draw (an event option): now and then the second
            # player bears everything off with the last roll.
            entry = GameEntry.drawn()
        results.record_game(
            session,
            actor=actor,
            match_id=match.id or 0,
            game=GameFields(
                winner="" if entry.winner is None else "a" if entry.winner is Side.X else "b",
                end=entry.end.value,
                cube=entry.cube,
                level=None if entry.level is None else entry.level.name.lower(),
            ),
        )
        played += 1


def demo_counts(session: Session) -> dict[str, int]:
    """Row counts of the tables the demo fills (for tests and the CLI summary)."""
    return {
        table.__name__: len(list(session.exec(select(table.id))))
        for table in (User, Club, Player, Event, Flight, Entry)
    }
