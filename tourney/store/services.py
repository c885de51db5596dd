"""Use cases that change state: one function, one transaction, one audit entry.

Every service takes the session of the caller's ``transaction()`` first and everything else
as keyword arguments, checks the actor's role, changes rows, writes its audit entry and
returns a read model. Services never commit: the transaction does, so a composite use case
(loading the demo) can call several of them inside one transaction.

User-fixable problems raise :class:`~tourney.store.errors.StoreUserError` (and its
404/403/409/429 subclasses) with a message that says what to change.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, timedelta

from argon2 import PasswordHasher
from sqlalchemy import func
from sqlmodel import Session, col, delete, select

from tourney.formats.errors import FormatUserError
from tourney.formats.flight_formats import flight_format
from tourney.formats.rounds import NAMED_ROUNDS, named_round
from tourney.formats.tiebreaks import tiebreak_chain
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    VariantOptions,
    registered_variants,
    variant_named,
)
from tourney.store import queries, results
from tourney.store.audit import Actor, record, snapshot
from tourney.store.errors import (
    AccessDeniedError,
    ConflictError,
    NotFoundError,
    StoreUserError,
)
from tourney.store.passwords import dummy_hash, verify_password
from tourney.store.queries import (
    EntryView,
    EventDetail,
    FlightView,
    PlayerView,
    UserView,
    require_event,
)
from tourney.store.roles import ACCOUNT_MANAGERS, EVENT_DIRECTORS, account_role, event_role
from tourney.store.tables import (
    Club,
    DrawMethod,
    Entry,
    EntryStatus,
    Event,
    EventStaff,
    EventStatus,
    Flight,
    FlightEntry,
    FlightStatus,
    LoginAttempt,
    Player,
    Role,
    StaffRole,
    User,
    Venue,
)
from tourney.store.types import utcnow
from tourney.store.variant_options import option_field, options_for, options_to_json

MIN_PASSWORD_LENGTH = 10
MAX_MATCH_LENGTH = 99
MAX_CUBE_EXPONENT = 12
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_TRANSLITERATE = str.maketrans(
    {"ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "å": "a", "ß": "ss", "ł": "l", "đ": "d"}
)


# --- input shapes --------------------------------------------------------------------


@dataclass(frozen=True)
class EventFields:
    """What a director sets on an event."""

    name: str
    slug: str = ""
    """Empty: made from the name."""
    starts_on: date | None = None
    ends_on: date | None = None
    club_id: int | None = None
    venue_name: str = ""
    is_public: bool = False
    crawford: bool = True
    holland: bool = False
    cube_limit_exponent: int | None = None
    money_play: bool = False
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: bool = False
    notes: str = ""
    variant: str = DEFAULT_VARIANT.name
    variant_options: VariantOptions = DEFAULT_OPTIONS
    """The event's choices for its variant; those the variant does not offer are ignored
    (``tourney.store.variant_options``). In long nardy the Crawford rule is its option
    (with the cube), and ``crawford`` above is set from it."""


@dataclass(frozen=True)
class FlightFields:
    """What a director sets on a flight."""

    name: str
    format: str
    match_length: int
    round_lengths: dict[str, int] = field(default_factory=dict)
    feeds_from_id: int | None = None
    feed_rounds: tuple[int, ...] = ()
    progressive: bool = False
    feed_bye_losers: bool = False
    reset_match: bool = False
    swiss_rounds: int | None = None
    swiss_lives: int | None = None
    bye_counts_as_win: bool = True
    tiebreaks: tuple[str, ...] = ()
    draw_method: str = DrawMethod.RANDOM.value


@dataclass(frozen=True)
class PlayerFields:
    """What a director sets on a roster player."""

    name: str
    country: str = ""
    rating: float | None = None
    email: str | None = None
    club_id: int | None = None


@dataclass(frozen=True)
class LoginLimits:
    """How many failed logins are allowed within the window."""

    max_failures: int = 5
    max_failures_per_address: int = 30
    window_seconds: int = 900


@dataclass(frozen=True)
class LoginResult:
    """The outcome of a login attempt; a failure is recorded, so it is not an exception."""

    user: UserView | None
    message: str = ""
    throttled: bool = False


# --- helpers -------------------------------------------------------------------------


def _require_role(actor: Actor, *roles: Role) -> None:
    if actor.role not in {r.value for r in roles}:
        raise AccessDeniedError("Your account may not do this.")


def _clean(text: str) -> str:
    """Strip and collapse whitespace; drop control characters."""
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in "\t\n")
    return " ".join(text.split())


def slugify(text: str) -> str:
    """A URL slug: lower-case ASCII letters, digits and single dashes.

    >>> slugify("Bjørn's Ødegård Open 2025!")
    'bjorns-odegard-open-2025'
    """
    ascii_text = (
        unicodedata.normalize("NFKD", text.translate(_TRANSLITERATE))
        .encode("ascii", "ignore")
        .decode("ascii")
        .lower()
        .replace("'", "")
    )
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:60]


def _unique_slug(session: Session, table: type[Event] | type[Club], base: str) -> str:
    base = base or "event"
    slug, n = base, 1
    while session.exec(select(table.id).where(table.slug == slug)).first() is not None:
        n += 1
        slug = f"{base}-{n}"
    return slug


def _get_entry(session: Session, entry_id: int) -> Entry:
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise NotFoundError("No such entry.")
    return entry


def _entry_view(session: Session, entry: Entry) -> EntryView:
    for view in queries.list_entries(session, entry.event_id):
        if view.id == entry.id:
            return view
    raise NotFoundError("No such entry.")  # pragma: no cover - the row was just written


# --- users and login -----------------------------------------------------------------


def _check_new_user(session: Session, *, email: str, name: str, password: str, role: str) -> str:
    address = email.strip().lower()
    if not _EMAIL.match(address):
        raise StoreUserError("Enter a valid e-mail address.", field="email")
    if not _clean(name):
        raise StoreUserError("Enter a name.", field="name")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise StoreUserError(
            f"Use a password of at least {MIN_PASSWORD_LENGTH} characters.", field="password"
        )
    if role not in {r.value for r in Role}:
        raise StoreUserError(f"Unknown role {role!r}.", field="role")
    if session.exec(select(User.id).where(User.email == address)).first() is not None:
        raise StoreUserError("An account with this e-mail address exists.", field="email")
    return address


def _add_user(
    session: Session,
    *,
    actor: Actor,
    email: str,
    name: str,
    password: str,
    role: str,
    hasher: PasswordHasher,
) -> UserView:
    address = _check_new_user(session, email=email, name=name, password=password, role=role)
    user = User(email=address, name=_clean(name), password_hash=hasher.hash(password), role=role)
    session.add(user)
    session.flush()
    record(
        session,
        actor=actor,
        action="user.create",
        entity_type="user",
        entity_id=user.id,
        after=snapshot(user, exclude={"password_hash"}),
    )
    return queries.user_view(user)


def create_user(
    session: Session,
    *,
    actor: Actor,
    email: str,
    name: str,
    password: str,
    role: str,
    hasher: PasswordHasher,
) -> UserView:
    """An admin creates an account.

    Raises:
        AccessDeniedError: the actor is not an admin.
        StoreUserError: a bad address, a short password, a taken address.
    """
    _require_role(actor, *ACCOUNT_MANAGERS)
    return _add_user(
        session, actor=actor, email=email, name=name, password=password, role=role, hasher=hasher
    )


def create_first_admin(
    session: Session, *, email: str, name: str, password: str, hasher: PasswordHasher
) -> UserView:
    """The first-run page creates the first account, an admin; refused once any exists.

    Raises:
        AccessDeniedError: an account exists already.
        StoreUserError: a bad address or a short password.
    """
    if queries.count_users(session) > 0:
        raise AccessDeniedError("The first account exists already; log in.")
    actor = Actor(user_id=None, label=email.strip().lower(), role=Role.ADMIN.value)
    return _add_user(
        session,
        actor=actor,
        email=email,
        name=name,
        password=password,
        role=Role.ADMIN.value,
        hasher=hasher,
    )


def authenticate(
    session: Session,
    *,
    email: str,
    password: str,
    remote_addr: str,
    hasher: PasswordHasher,
    limits: LoginLimits,
) -> LoginResult:
    """Check a login and record the attempt; too many recent failures lock it out.

    Attempts are rows in the database, so the limit holds across workers and hosts. A
    locked-out login is refused even with the right password, without checking it.
    """
    address = email.strip().lower()[:254]
    remote = (remote_addr or "unknown")[:64]
    now = utcnow()
    since = now - timedelta(seconds=limits.window_seconds)
    failures = (
        select(func.count())
        .select_from(LoginAttempt)
        .where(col(LoginAttempt.at) >= since, col(LoginAttempt.succeeded).is_(False))
    )
    by_email = session.exec(failures.where(LoginAttempt.email == address)).one()
    by_remote = session.exec(failures.where(LoginAttempt.remote_addr == remote)).one()
    if by_email >= limits.max_failures or by_remote >= limits.max_failures_per_address:
        minutes = max(1, limits.window_seconds // 60)
        return LoginResult(
            user=None,
            throttled=True,
            message=f"Too many failed logins. Wait {minutes} minutes and try again.",
        )
    user = session.exec(select(User).where(User.email == address)).first()
    ok = verify_password(hasher, user.password_hash if user else dummy_hash(hasher), password)
    ok = ok and user is not None and user.is_active
    session.add(LoginAttempt(email=address, remote_addr=remote, succeeded=ok, at=now))
    if not ok or user is None:
        return LoginResult(user=None, message="Wrong e-mail address or password.")
    user.last_login_at = now
    if hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hasher.hash(password)
    # A success clears the account's failures: a director who mistyped can carry on.
    session.exec(
        delete(LoginAttempt).where(
            col(LoginAttempt.email) == address, col(LoginAttempt.succeeded).is_(False)
        )
    )
    record(
        session,
        actor=Actor(user_id=user.id, label=user.email, role=user.role),
        action="user.login",
        entity_type="user",
        entity_id=user.id,
        after={"remote_addr": remote},
    )
    return LoginResult(user=queries.user_view(user))


# --- clubs ---------------------------------------------------------------------------


def create_club(session: Session, *, actor: Actor, name: str, slug: str = "") -> queries.ClubView:
    """A director adds a club.

    Raises:
        AccessDeniedError: the actor is a scorer.
        StoreUserError: no name, or the slug is taken.
    """
    _require_role(actor, *EVENT_DIRECTORS)
    clean = _clean(name)
    if not clean:
        raise StoreUserError("Enter the club's name.", field="name")
    wanted = slugify(slug) if slug else ""
    if wanted and session.exec(select(Club.id).where(Club.slug == wanted)).first() is not None:
        raise StoreUserError("Another club has this short name.", field="slug")
    club = Club(name=clean, slug=wanted or _unique_slug(session, Club, slugify(clean)))
    session.add(club)
    session.flush()
    record(
        session,
        actor=actor,
        action="club.create",
        entity_type="club",
        entity_id=club.id,
        after=snapshot(club),
    )
    return queries.ClubView(id=club.id or 0, slug=club.slug, name=club.name)


def _venue_id(session: Session, *, name: str, club_id: int | None) -> int | None:
    """The venue with this name (created when new); none for an empty name."""
    clean = _clean(name)
    if not clean:
        return None
    venue = session.exec(select(Venue).where(Venue.name == clean)).first()
    if venue is None:
        venue = Venue(name=clean, club_id=club_id)
        session.add(venue)
        session.flush()
    return venue.id


# --- events --------------------------------------------------------------------------


def _variant_fields(fields: EventFields) -> tuple[VariantOptions, bool]:
    """The event's options, kept to those its variant offers, and its Crawford flag.

    Raises:
        StoreUserError: an unknown variant, or options its rules refuse together (long
            nardy's Crawford rule without the cube).
    """
    if fields.variant not in {v.name for v in registered_variants()}:
        raise StoreUserError(f"Unknown variant {fields.variant!r}.", field="variant")
    variant = variant_named(fields.variant)
    chosen = options_for(fields.variant, fields.variant_options)
    problems = variant.option_problems(chosen)
    if problems:
        key, reason = problems[0]
        raise StoreUserError(reason, field=option_field(variant, key))
    crawford = fields.crawford
    if variant.offers("crawford"):
        # Where the Crawford rule is one of the variant's options (long nardy: only with
        # the cube, the rule being about doubling), the event's Crawford flag follows the
        # option so that every page and export reading it tells the same story.
        crawford = variant.uses_crawford(chosen)
    return chosen, crawford


def _apply_event_fields(session: Session, event: Event, fields: EventFields) -> None:
    name = _clean(fields.name)
    if not name:
        raise StoreUserError("Enter the event's name.", field="name")
    if fields.starts_on and fields.ends_on and fields.ends_on < fields.starts_on:
        raise StoreUserError("The event cannot end before it starts.", field="ends_on")
    chosen, crawford = _variant_fields(fields)
    if fields.holland and not crawford:
        raise StoreUserError(
            "The Holland rule applies to post-Crawford games; turn the Crawford rule on.",
            field="holland",
        )
    if (fields.beavers or fields.automatic_doubles) and not fields.money_play:
        raise StoreUserError(
            "Beavers and automatic doubles are money-play options; mark the event money play.",
            field="money_play",
        )
    exponent = fields.cube_limit_exponent
    if exponent is not None and not 1 <= exponent <= MAX_CUBE_EXPONENT:
        raise StoreUserError(
            f"The cube limit must be between 2 and {2**MAX_CUBE_EXPONENT}.", field="cube_limit"
        )
    if fields.club_id is not None and session.get(Club, fields.club_id) is None:
        raise StoreUserError("No such club.", field="club_id")
    event.variant = fields.variant
    event.variant_options = options_to_json(chosen)
    event.name = name
    event.starts_on = fields.starts_on
    event.ends_on = fields.ends_on
    event.club_id = fields.club_id
    event.venue_id = _venue_id(session, name=fields.venue_name, club_id=fields.club_id)
    event.is_public = fields.is_public
    event.crawford = crawford
    event.holland = fields.holland
    event.cube_limit_exponent = exponent
    event.money_play = fields.money_play
    event.jacoby = fields.jacoby
    event.beavers = fields.beavers
    event.automatic_doubles = fields.automatic_doubles
    event.notes = fields.notes.strip()


def _scoring_rules(event: Event) -> tuple[object, ...]:
    """What decides how a game scores and which entries are possible."""
    return (
        event.variant,
        event.variant_options,
        event.crawford,
        event.cube_limit_exponent,
        event.jacoby,
    )


def _set_slug(session: Session, event: Event, slug: str) -> None:
    wanted = slugify(slug)
    if slug and not wanted:
        raise StoreUserError("Use letters or digits in the web address.", field="slug")
    if not wanted:
        if not event.slug:
            event.slug = _unique_slug(session, Event, slugify(event.name))
        return
    taken = session.exec(select(Event.id).where(Event.slug == wanted)).first()
    if taken is not None and taken != event.id:
        raise StoreUserError("Another event uses this web address.", field="slug")
    event.slug = wanted


def create_event(session: Session, *, actor: Actor, fields: EventFields) -> EventDetail:
    """A director creates an event and becomes its owner.

    Raises:
        AccessDeniedError: the actor is a scorer.
        StoreUserError: a rule combination the rules do not allow, or a taken slug.
    """
    _require_role(actor, *EVENT_DIRECTORS)
    event = Event(name="", slug="", owner_id=actor.user_id, status=EventStatus.OPEN.value)
    _apply_event_fields(session, event, fields)
    _set_slug(session, event, fields.slug)
    session.add(event)
    session.flush()
    record(
        session,
        actor=actor,
        action="event.create",
        entity_type="event",
        entity_id=event.id,
        event_id=event.id,
        after=snapshot(event),
    )
    return queries.event_detail(session, event, can_manage=True)


def update_event(
    session: Session, *, actor: Actor, event_id: int, fields: EventFields
) -> EventDetail:
    """A director changes an event's name, dates, venue or rules.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
        StoreUserError: a rule combination the rules do not allow, or a taken slug.
    """
    event = require_event(session, actor, event_id, manage=True)
    before = snapshot(event)
    scoring = _scoring_rules(event)
    _apply_event_fields(session, event, fields)
    _set_slug(session, event, fields.slug)
    remarked = 0
    if _scoring_rules(event) != scoring:
        # Results already entered are checked against the new rules; a change that
        # would rescore a match is refused (``results.recheck_results``).
        remarked = results.recheck_results(session, event)
    session.flush()
    after = snapshot(event)
    if after is not None and remarked:
        after["games_remarked"] = remarked
    record(
        session,
        actor=actor,
        action="event.update",
        entity_type="event",
        entity_id=event.id,
        event_id=event.id,
        before=before,
        after=after,
    )
    return queries.event_detail(session, event, can_manage=True)


def add_event_staff(
    session: Session, *, actor: Actor, event_id: int, user_id: int, role: str
) -> None:
    """A director gives another user a part in the event (co-director or scorer).

    Raises:
        NotFoundError, AccessDeniedError: no such event or user, or not the actor's event.
        StoreUserError: an unknown role, or a scorer account made co-director.
    """
    require_event(session, actor, event_id, manage=True)
    user = session.get(User, user_id)
    if user is None:
        raise NotFoundError("No such user.")
    if role not in {r.value for r in StaffRole}:
        raise StoreUserError(f"Unknown event role {role!r}.", field="role")
    account = account_role(user.role)
    if event_role(role).can_manage_event and not account.can_direct_events:
        label = account.label.lower()
        raise StoreUserError(f"A {label} account cannot direct an event.", field="role")
    row = session.exec(
        select(EventStaff).where(EventStaff.event_id == event_id, EventStaff.user_id == user_id)
    ).first()
    before = snapshot(row)
    if row is None:
        row = EventStaff(event_id=event_id, user_id=user_id, role=role)
        session.add(row)
    row.role = role
    session.flush()
    record(
        session,
        actor=actor,
        action="event.staff",
        entity_type="event_staff",
        entity_id=row.id,
        event_id=event_id,
        before=before,
        after=snapshot(row),
    )


# --- flights -------------------------------------------------------------------------


def _check_flight_fields(
    session: Session, event: Event, flight: Flight | None, f: FlightFields
) -> None:
    if not _clean(f.name):
        raise StoreUserError("Enter the flight's name.", field="name")
    try:
        fmt = flight_format(f.format)
    except FormatUserError as error:
        raise StoreUserError(str(error), field="format") from None
    if not 1 <= f.match_length <= MAX_MATCH_LENGTH:
        raise StoreUserError(
            f"Match length must be between 1 and {MAX_MATCH_LENGTH} points.", field="match_length"
        )
    for key, length in f.round_lengths.items():
        if not (key.isdigit() and int(key) >= 1) and named_round(key) is None:
            named = ", ".join(r.key for r in NAMED_ROUNDS)
            raise StoreUserError(
                f"Unknown round {key!r}: use a round number or {named}.",
                field="round_lengths",
            )
        if not 1 <= length <= MAX_MATCH_LENGTH:
            raise StoreUserError(
                f"Match length for {key} must be between 1 and {MAX_MATCH_LENGTH} points.",
                field="round_lengths",
            )
    if not fmt.pairs_round_by_round and (f.swiss_rounds is not None or f.swiss_lives is not None):
        raise StoreUserError("Rounds and lives are Swiss settings.", field="swiss_rounds")
    if f.swiss_rounds is not None and f.swiss_lives is not None:
        raise StoreUserError(
            "A Swiss runs either a fixed number of rounds or on lives, not both.",
            field="swiss_lives",
        )
    if f.swiss_rounds is not None and not 1 <= f.swiss_rounds <= 30:
        raise StoreUserError("A Swiss has between 1 and 30 rounds.", field="swiss_rounds")
    if f.swiss_lives is not None and not 1 <= f.swiss_lives <= 9:
        raise StoreUserError("Lives must be between 1 and 9.", field="swiss_lives")
    if f.reset_match and not fmt.has_losers_bracket:
        raise StoreUserError(
            "A reset final exists only in double elimination.", field="reset_match"
        )
    if f.draw_method not in {x.value for x in DrawMethod}:
        raise StoreUserError(f"Unknown draw method {f.draw_method!r}.", field="draw_method")
    try:
        tiebreak_chain(f.tiebreaks)
    except FormatUserError as error:
        raise StoreUserError(str(error), field="tiebreaks") from None
    if f.feeds_from_id is None:
        if f.feed_rounds or f.progressive or f.feed_bye_losers:
            raise StoreUserError(
                "Choose the flight whose losers enter this one.", field="feeds_from_id"
            )
        return
    source = session.get(Flight, f.feeds_from_id)
    if source is None or source.event_id != event.id:
        raise StoreUserError("The feeding flight must be in this event.", field="feeds_from_id")
    if flight is not None and _feeds_into(session, source, flight.id):
        raise StoreUserError("A flight cannot feed itself.", field="feeds_from_id")
    if any(r < 1 for r in f.feed_rounds):
        raise StoreUserError("Feeding rounds are numbered from 1.", field="feed_rounds")


def _feeds_into(session: Session, source: Flight, target_id: int | None) -> bool:
    """True when following ``feeds_from`` from ``source`` reaches ``target_id`` (a cycle)."""
    seen: set[int | None] = set()
    current: Flight | None = source
    while current is not None and current.id not in seen:
        if current.id == target_id:
            return True
        seen.add(current.id)
        current = session.get(Flight, current.feeds_from_id) if current.feeds_from_id else None
    return False


def _apply_flight_fields(flight: Flight, f: FlightFields) -> None:
    flight.name = _clean(f.name)
    flight.format = f.format
    flight.match_length = f.match_length
    flight.round_lengths = dict(f.round_lengths)
    flight.feeds_from_id = f.feeds_from_id
    flight.feed_rounds = sorted(set(f.feed_rounds))
    flight.progressive = f.progressive
    flight.feed_bye_losers = f.feed_bye_losers
    flight.reset_match = f.reset_match
    flight.swiss_rounds = f.swiss_rounds
    flight.swiss_lives = f.swiss_lives
    flight.bye_counts_as_win = f.bye_counts_as_win
    flight.tiebreaks = list(f.tiebreaks)
    flight.draw_method = f.draw_method


def _check_flight_name(session: Session, event_id: int, name: str, flight_id: int | None) -> None:
    taken = session.exec(
        select(Flight.id).where(Flight.event_id == event_id, Flight.name == _clean(name))
    ).first()
    if taken is not None and taken != flight_id:
        raise StoreUserError("The event has a flight of this name.", field="name")


def add_flight(
    session: Session, *, actor: Actor, event_id: int, fields: FlightFields
) -> FlightView:
    """A director adds a flight (main draw, consolation, Swiss ...) to an event.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
        StoreUserError: settings that do not fit together.
    """
    event = require_event(session, actor, event_id, manage=True)
    _check_flight_fields(session, event, None, fields)
    _check_flight_name(session, event_id, fields.name, None)
    count = session.exec(
        select(func.count()).select_from(Flight).where(Flight.event_id == event_id)
    ).one()
    flight = Flight(event_id=event_id, name="", format="", match_length=1, position=count)
    _apply_flight_fields(flight, fields)
    session.add(flight)
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.create",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event_id,
        after=snapshot(flight),
    )
    return queries.get_flight(session, actor, flight.id or 0)


def update_flight(
    session: Session, *, actor: Actor, flight_id: int, fields: FlightFields
) -> FlightView:
    """A director changes a flight's settings; its format is fixed once drawn.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        ConflictError: the flight is drawn and the change would alter its format or feeding.
        StoreUserError: settings that do not fit together.
    """
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError("No such flight.")
    event = require_event(session, actor, flight.event_id, manage=True)
    _check_flight_fields(session, event, flight, fields)
    _check_flight_name(session, event.id or 0, fields.name, flight.id)
    if flight.status != FlightStatus.SETUP.value and (
        fields.format != flight.format or fields.feeds_from_id != flight.feeds_from_id
    ):
        raise ConflictError("The flight is drawn: its format and feeding can no longer change.")
    before = snapshot(flight)
    _apply_flight_fields(flight, fields)
    session.flush()
    record(
        session,
        actor=actor,
        action="flight.update",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        before=before,
        after=snapshot(flight),
    )
    return queries.get_flight(session, actor, flight_id)


# --- players -------------------------------------------------------------------------


def _apply_player_fields(session: Session, player: Player, f: PlayerFields) -> None:
    name = _clean(f.name)
    if not name:
        raise StoreUserError("Enter the player's name.", field="name")
    country = f.country.strip().upper()
    if country and not re.fullmatch(r"[A-Z]{2}", country):
        raise StoreUserError("Use a two-letter country code (NO, DE, US).", field="country")
    if f.rating is not None and not 0 <= f.rating <= 5000:
        raise StoreUserError("A rating is between 0 and 5000.", field="rating")
    email = (f.email or "").strip().lower() or None
    if email and not _EMAIL.match(email):
        raise StoreUserError("Enter a valid e-mail address or none.", field="email")
    if f.club_id is not None and session.get(Club, f.club_id) is None:
        raise StoreUserError("No such club.", field="club_id")
    player.name = name
    player.country = country
    player.rating = f.rating
    player.email = email
    player.club_id = f.club_id


def register_player(session: Session, *, actor: Actor, fields: PlayerFields) -> PlayerView:
    """A director adds a player to the roster.

    Raises:
        AccessDeniedError: the actor is a scorer.
        StoreUserError: no name, a bad country code, rating or e-mail address.
    """
    _require_role(actor, *EVENT_DIRECTORS)
    player = Player(name="")
    _apply_player_fields(session, player, fields)
    session.add(player)
    session.flush()
    record(
        session,
        actor=actor,
        action="player.create",
        entity_type="player",
        entity_id=player.id,
        after=snapshot(player),
    )
    return queries.get_player(session, player.id or 0)


def update_player(
    session: Session, *, actor: Actor, player_id: int, fields: PlayerFields
) -> PlayerView:
    """A director corrects a roster player.

    Raises:
        AccessDeniedError: the actor is a scorer.
        NotFoundError: no such player.
        StoreUserError: no name, a bad country code, rating or e-mail address.
    """
    _require_role(actor, *EVENT_DIRECTORS)
    player = session.get(Player, player_id)
    if player is None:
        raise NotFoundError("No such player.")
    before = snapshot(player)
    _apply_player_fields(session, player, fields)
    session.flush()
    record(
        session,
        actor=actor,
        action="player.update",
        entity_type="player",
        entity_id=player.id,
        before=before,
        after=snapshot(player),
    )
    return queries.get_player(session, player_id)


# --- entries -------------------------------------------------------------------------


def enter_player(
    session: Session, *, actor: Actor, event_id: int, player_id: int, seed: int | None = None
) -> EntryView:
    """A director enters a roster player in an event.

    Raises:
        NotFoundError, AccessDeniedError: no such event or player, or not the actor's event.
        StoreUserError: the player is entered already, the event is finished, a bad seed.
    """
    event = require_event(session, actor, event_id, manage=True)
    if event.status == EventStatus.FINISHED.value:
        raise StoreUserError("The event is finished.")
    if session.get(Player, player_id) is None:
        raise NotFoundError("No such player.")
    existing = session.exec(
        select(Entry.id).where(Entry.event_id == event_id, Entry.player_id == player_id)
    ).first()
    if existing is not None:
        raise StoreUserError("This player is entered already.", field="player_id")
    _check_seed(session, event_id, seed, None)
    entry = Entry(event_id=event_id, player_id=player_id, seed=seed)
    session.add(entry)
    session.flush()
    record(
        session,
        actor=actor,
        action="entry.create",
        entity_type="entry",
        entity_id=entry.id,
        event_id=event_id,
        after=snapshot(entry),
    )
    return _entry_view(session, entry)


def _check_seed(session: Session, event_id: int, seed: int | None, entry_id: int | None) -> None:
    if seed is None:
        return
    if seed < 1:
        raise StoreUserError("Seeds are numbered from 1.", field="seed")
    taken = session.exec(
        select(Entry.id).where(Entry.event_id == event_id, Entry.seed == seed)
    ).first()
    if taken is not None and taken != entry_id:
        raise StoreUserError(f"Seed {seed} is taken.", field="seed")


def _change_entry(
    session: Session, *, actor: Actor, entry_id: int, action: str, change: str
) -> EntryView:
    entry = _get_entry(session, entry_id)
    require_event(session, actor, entry.event_id, manage=True)
    before = snapshot(entry)
    now = utcnow()
    if change == "check_in":
        if entry.status != EntryStatus.ACTIVE.value:
            raise StoreUserError("Only an active entry can check in.")
        entry.checked_in_at = entry.checked_in_at or now
    elif change == "undo_check_in":
        entry.checked_in_at = None
    walkovers: list[int] = []
    if change == "withdraw":
        if entry.status != EntryStatus.ACTIVE.value:
            raise StoreUserError("This entry is not active.")
        entry.status = EntryStatus.WITHDRAWN.value
        entry.withdrawn_at = now
        session.flush()
        # The opponent of every open match goes through by walkover (shown as such).
        walkovers = results.withdraw_from_matches(session, entry_id=entry.id or 0)
    elif change == "reinstate":
        if entry.status != EntryStatus.WITHDRAWN.value:
            raise StoreUserError("This entry is not withdrawn.")
        entry.status = EntryStatus.ACTIVE.value
        entry.withdrawn_at = None
        for row in session.exec(select(FlightEntry).where(FlightEntry.entry_id == entry.id)):
            if row.status == EntryStatus.WITHDRAWN.value:
                row.status = EntryStatus.ACTIVE.value
    session.flush()
    after = snapshot(entry) or {}
    if walkovers:
        after["walkover_matches"] = walkovers
    record(
        session,
        actor=actor,
        action=action,
        entity_type="entry",
        entity_id=entry.id,
        event_id=entry.event_id,
        before=before,
        after=after,
    )
    return _entry_view(session, entry)


def check_in(
    session: Session, *, actor: Actor, entry_id: int, checked_in: bool = True
) -> EntryView:
    """Mark an entry present (or, with ``checked_in=False``, not yet present).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: a withdrawn or eliminated entry checks in.
    """
    change = "check_in" if checked_in else "undo_check_in"
    return _change_entry(
        session, actor=actor, entry_id=entry_id, action=f"entry.{change}", change=change
    )


def withdraw(session: Session, *, actor: Actor, entry_id: int) -> EntryView:
    """Withdraw an entry from the event (its later matches are walkovers, when drawn).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: the entry is not active.
    """
    return _change_entry(
        session, actor=actor, entry_id=entry_id, action="entry.withdraw", change="withdraw"
    )


def reinstate(session: Session, *, actor: Actor, entry_id: int) -> EntryView:
    """Undo a withdrawal.

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: the entry is not withdrawn.
    """
    return _change_entry(
        session, actor=actor, entry_id=entry_id, action="entry.reinstate", change="reinstate"
    )
