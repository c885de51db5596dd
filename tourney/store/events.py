"""Use cases of events: clubs and venues, events and their rules, event staff, flights.

The use cases keep the contract described in ``tourney.store``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import func
from sqlmodel import Session, select

from tourney.formats.errors import FormatUserError
from tourney.formats.flight_formats import feed_refusal, flight_format
from tourney.formats.rounds import NAMED_ROUNDS, named_round
from tourney.formats.stages import (
    CutTies,
    PoolSeeding,
    StageLink,
    check_stage_link,
    find_cut_ties,
    find_pool_seeding,
)
from tourney.formats.teams import TEAM_FLIGHT_FORMATS, BoardOrder, check_boards, find_board_order
from tourney.formats.tiebreaks import tiebreak_chain
from tourney.formats.timing import (
    DEFAULT_DELAY_SECONDS,
    DEFAULT_SECONDS_PER_POINT_ON_CLOCK,
    MAX_DELAY_SECONDS,
    MAX_SECONDS_PER_POINT_ON_CLOCK,
)
from tourney.rules import NotationError
from tourney.rules.dice_names import dice_names_named
from tourney.rules.match_forms import SINGLE, match_form_named
from tourney.rules.messages import InSentence, Message, message_of
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    VariantOptions,
    registered_variants,
    variant_named,
)
from tourney.store import progress, queries, rules_change
from tourney.store.audit import Actor, record, snapshot
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.inputs import clean_text
from tourney.store.permissions import require_event, require_role
from tourney.store.queries import EventDetail, FlightView
from tourney.store.roles import EVENT_DIRECTORS, account_role, event_role
from tourney.store.tables import (
    Club,
    DrawMethod,
    Event,
    EventStaff,
    EventStatus,
    Flight,
    FlightFormat,
    FlightStatus,
    StaffRole,
    User,
    Venue,
)
from tourney.store.variant_options import option_field, options_for, options_to_json

MAX_MATCH_LENGTH = 99
MAX_CUBE_EXPONENT = 12
_TRANSLITERATE = str.maketrans(
    {"ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "å": "a", "ß": "ss", "ł": "l", "đ": "d"}
)


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
    condoned_plays: bool = False
    unrated: bool = False
    notes: str = ""
    variant: str = DEFAULT_VARIANT.name
    variant_options: VariantOptions = DEFAULT_OPTIONS
    """The event's choices for its variant; those the variant does not offer are ignored
    (``tourney.store.variant_options``). In long nardy the Crawford rule is its option
    (with the cube), and ``crawford`` above is set from it."""
    match_form: str = SINGLE.name
    """A registered match form (``tourney.rules.match_forms``): every game in ``variant``,
    or several variants in turn (tavli), where ``variant`` is not used."""
    dice_names: str = ""
    """The key of registered dice names (``tourney.rules.dice_names``) shown beside rolls;
    empty: none."""
    board_order: str = BoardOrder.FIXED.value
    """Team events: each team's fixed board order, or a line-up named per fixture."""


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
    unrated: bool = False
    """Its matches stay out of the club's rating list."""
    tiebreaks: tuple[str, ...] = ()
    draw_method: str = DrawMethod.RANDOM.value
    pools: int | None = None
    """A round robin split into pools (none: one table)."""
    pool_seeding: str = PoolSeeding.SNAKE.value
    qualifies_from_id: int | None = None
    """The qualifying stage a knockout takes its field from."""
    qualifiers: int | None = None
    """K: how many qualify from each pool of the stage (or from its Swiss)."""
    cut_ties: str = CutTies.TIEBREAKS.value
    boards: int | None = None
    """A team flight: fixtures of this many board matches (none: players meet)."""
    clock_seconds_per_point: int = DEFAULT_SECONDS_PER_POINT_ON_CLOCK
    """Each player's time on the clock per point of match length."""
    clock_delay_seconds: int = DEFAULT_DELAY_SECONDS
    """The clock's delay per move."""


# --- clubs and venues ----------------------------------------------------------------


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


def create_club(session: Session, *, actor: Actor, name: str, slug: str = "") -> queries.ClubView:
    """A director adds a club.

    Raises:
        AccessDeniedError: the actor is a scorer.
        StoreUserError: no name, or the slug is taken.
    """
    require_role(actor, *EVENT_DIRECTORS)
    clean = clean_text(name)
    if not clean:
        raise StoreUserError(Message("Enter the club's name."), field="name")
    wanted = slugify(slug) if slug else ""
    if wanted and session.exec(select(Club.id).where(Club.slug == wanted)).first() is not None:
        raise StoreUserError(Message("Another club has this short name."), field="slug")
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
    clean = clean_text(name)
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
        raise StoreUserError(Message(
            "Unknown variant %(variant)s.",
            variant=repr(fields.variant),
        ), field="variant")
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
    name = clean_text(fields.name)
    if not name:
        raise StoreUserError(Message("Enter the event's name."), field="name")
    try:
        event.board_order = find_board_order(fields.board_order).value
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="board_order") from None
    if fields.starts_on and fields.ends_on and fields.ends_on < fields.starts_on:
        raise StoreUserError(Message("The event cannot end before it starts."), field="ends_on")
    chosen, crawford = _variant_fields(fields)
    if fields.holland and not crawford:
        raise StoreUserError(
            Message(
                "The Holland rule applies to post-Crawford games; turn the Crawford rule on.",
            ),
            field="holland",
        )
    if (fields.beavers or fields.automatic_doubles) and not fields.money_play:
        raise StoreUserError(
            Message(
                "Beavers and automatic doubles are money-play options; mark the event money "
                "play.",
            ),
            field="money_play",
        )
    exponent = fields.cube_limit_exponent
    if exponent is not None and not 1 <= exponent <= MAX_CUBE_EXPONENT:
        raise StoreUserError(
            Message(
                "The cube limit must be between 2 and %(value)s.",
                value=2**MAX_CUBE_EXPONENT,
            ), field="cube_limit"
        )
    if fields.club_id is not None and session.get(Club, fields.club_id) is None:
        raise StoreUserError(Message("No such club."), field="club_id")
    try:
        form = match_form_named(fields.match_form)
    except NotationError as error:
        raise StoreUserError(message_of(error), field="match_form") from None
    if fields.dice_names:
        try:
            dice_names_named(fields.dice_names)
        except NotationError as error:
            raise StoreUserError(message_of(error), field="dice_names") from None
    event.variant = fields.variant
    event.variant_options = options_to_json(chosen)
    event.match_form = form.name
    event.dice_names = fields.dice_names
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
    event.condoned_plays = fields.condoned_plays
    event.unrated = fields.unrated
    event.notes = fields.notes.strip()


def _scoring_rules(event: Event) -> tuple[object, ...]:
    """What decides how a game scores and which entries are possible."""
    return (
        event.variant,
        event.match_form,
        event.variant_options,
        event.crawford,
        event.cube_limit_exponent,
        event.jacoby,
    )


def _set_slug(session: Session, event: Event, slug: str) -> None:
    wanted = slugify(slug)
    if slug and not wanted:
        raise StoreUserError(Message("Use letters or digits in the web address."), field="slug")
    if not wanted:
        if not event.slug:
            event.slug = _unique_slug(session, Event, slugify(event.name))
        return
    taken = session.exec(select(Event.id).where(Event.slug == wanted)).first()
    if taken is not None and taken != event.id:
        raise StoreUserError(Message("Another event uses this web address."), field="slug")
    event.slug = wanted


def create_event(session: Session, *, actor: Actor, fields: EventFields) -> EventDetail:
    """A director creates an event and becomes its owner.

    Raises:
        AccessDeniedError: the actor is a scorer.
        StoreUserError: a rule combination the rules do not allow, or a taken slug.
    """
    require_role(actor, *EVENT_DIRECTORS)
    event = Event(name="", slug="", owner_id=actor.user_id, status=EventStatus.OPEN)
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
    session: Session,
    *,
    actor: Actor,
    event_id: int,
    fields: EventFields,
    confirmed_changes: str | None = None,
) -> EventDetail:
    """A director changes an event's name, dates, venue or rules.

    A change of rules is checked against the results already entered
    (``rules_change.apply_rules_change``): one that makes a recorded game impossible is
    refused naming each match; one that changes any result (a Crawford game, a game's
    points, a score) is applied only once the director confirmed that list of changes
    (``confirmed_changes``: its digest). The audit entry names the changes applied.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
        StoreUserError: a rule combination the rules do not allow, a taken slug, or rules
            the results entered cannot be played under.
        RulesChangeNeedsConfirmation: results would change; nothing was saved.
    """
    event = require_event(session, actor, event_id, manage=True)
    before = snapshot(event)
    scoring = _scoring_rules(event)
    _apply_event_fields(session, event, fields)
    _set_slug(session, event, fields.slug)
    changes: tuple[str, ...] = ()
    if _scoring_rules(event) != scoring:
        changes = rules_change.apply_rules_change(session, event, confirmed=confirmed_changes)
    session.flush()
    after = snapshot(event)
    if after is not None and changes:
        after["results_changed"] = list(changes)
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
        raise NotFoundError(Message("No such user."))
    if role not in {r.value for r in StaffRole}:
        raise StoreUserError(Message("Unknown event role %(role)s.", role=repr(role)), field="role")
    account = account_role(user.role)
    if event_role(role).can_manage_event and not account.can_direct_events:
        label = account.label.lower()
        raise StoreUserError(
            Message("A %(label)s account cannot direct an event.", label=label), field="role"
        )
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
    if not clean_text(f.name):
        raise StoreUserError(Message("Enter the flight's name."), field="name")
    try:
        fmt = flight_format(f.format)
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="format") from None
    if not 1 <= f.match_length <= MAX_MATCH_LENGTH:
        raise StoreUserError(
            Message(
                "Match length must be between 1 and %(MAX_MATCH_LENGTH)s points.",
                MAX_MATCH_LENGTH=MAX_MATCH_LENGTH,
            ), field="match_length"
        )
    for key, length in f.round_lengths.items():
        if not (key.isdigit() and int(key) >= 1) and named_round(key) is None:
            named = ", ".join(r.key for r in NAMED_ROUNDS)
            raise StoreUserError(
                Message(
                    "Unknown round %(key)s: use a round number or %(named)s.",
                    key=repr(key), named=named,
                ),
                field="round_lengths",
            )
        if not 1 <= length <= MAX_MATCH_LENGTH:
            raise StoreUserError(
                Message(
                    "Match length for %(key)s must be between 1 and %(MAX_MATCH_LENGTH)s "
                    "points.",
                    key=key, MAX_MATCH_LENGTH=MAX_MATCH_LENGTH,
                ),
                field="round_lengths",
            )
    if not fmt.pairs_round_by_round and (f.swiss_rounds is not None or f.swiss_lives is not None):
        raise StoreUserError(Message("Rounds and lives are Swiss settings."), field="swiss_rounds")
    if not 1 <= f.clock_seconds_per_point <= MAX_SECONDS_PER_POINT_ON_CLOCK:
        raise StoreUserError(
            Message("The clock gives each player between 1 second and 30 minutes a point."),
            field="clock_minutes_per_point",
        )
    if not 0 <= f.clock_delay_seconds <= MAX_DELAY_SECONDS:
        raise StoreUserError(
            Message(
                "The delay per move is between 0 and %(seconds)s seconds.",
                seconds=MAX_DELAY_SECONDS,
            ),
            field="clock_delay_seconds",
        )
    if f.swiss_rounds is not None and f.swiss_lives is not None:
        raise StoreUserError(
            Message("A Swiss runs either a fixed number of rounds or on lives, not both."),
            field="swiss_lives",
        )
    if f.swiss_rounds is not None and not 1 <= f.swiss_rounds <= 30:
        raise StoreUserError(Message("A Swiss has between 1 and 30 rounds."), field="swiss_rounds")
    if f.swiss_lives is not None and not 1 <= f.swiss_lives <= 9:
        raise StoreUserError(Message("Lives must be between 1 and 9."), field="swiss_lives")
    if f.reset_match and not fmt.has_losers_bracket:
        raise StoreUserError(
            Message("A reset final exists only in double elimination."), field="reset_match"
        )
    if f.draw_method not in {x.value for x in DrawMethod}:
        raise StoreUserError(Message(
            "Unknown draw method %(draw_method)s.",
            draw_method=repr(f.draw_method),
        ), field="draw_method")
    try:
        tiebreak_chain(f.tiebreaks)
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="tiebreaks") from None
    _check_pools(session, flight, f)
    _check_stage_link(session, event, flight, f)
    _check_boards(f)
    if f.feeds_from_id is None:
        if f.feed_rounds or f.progressive or f.feed_bye_losers:
            raise StoreUserError(
                Message("Choose the flight whose losers enter this one."), field="feeds_from_id"
            )
        return
    source = session.get(Flight, f.feeds_from_id)
    if source is None or source.event_id != event.id:
        raise StoreUserError(
            Message("The feeding flight must be in this event."), field="feeds_from_id"
        )
    if flight is not None and _feeds_into(session, source, flight.id):
        raise StoreUserError(Message("A flight cannot feed itself."), field="feeds_from_id")
    reason = feed_refusal(source.format, f.format)
    if reason is not None:
        raise StoreUserError(
            Message(
                "“%(name)s” cannot feed this flight. %(reason)s",
                name=source.name, reason=reason,
            ), field="feeds_from_id"
        )
    if any(r < 1 for r in f.feed_rounds):
        raise StoreUserError(Message("Feeding rounds are numbered from 1."), field="feed_rounds")


def _check_boards(f: FlightFields) -> None:
    """A team flight: 1-7 boards, a knockout, Swiss or round robin of its own."""
    if f.boards is None:
        return
    try:
        check_boards(f.boards)
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="boards") from None
    if f.format not in TEAM_FLIGHT_FORMATS:
        raise StoreUserError(
            Message("Teams play a knockout, a Swiss or a round robin."), field="boards"
        )
    if f.feeds_from_id is not None or f.qualifies_from_id is not None or f.pools is not None:
        raise StoreUserError(
            Message(
                "A team flight is drawn from the teams alone: no feeding, pools or qualifiers.",
            ),
            field="boards",
        )


MAX_POOLS = 5000


def _check_pools(session: Session, flight: Flight | None, f: FlightFields) -> None:
    """Pools only in a round robin; a flight others qualify from keeps a drawable link."""
    fmt = flight_format(f.format)
    if f.pools is not None and not fmt.has_pools:
        raise StoreUserError(Message("Only a round robin is split into pools."), field="pools")
    if f.pools is not None and not 1 <= f.pools <= MAX_POOLS:
        raise StoreUserError(
            Message("Pools: between 1 and %(MAX_POOLS)s.", MAX_POOLS=MAX_POOLS), field="pools"
        )
    try:
        find_pool_seeding(f.pool_seeding)
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="pool_seeding") from None
    if flight is None:
        return
    for target in session.exec(select(Flight).where(Flight.qualifies_from_id == flight.id)):
        if not fmt.qualifies:
            raise StoreUserError(
                Message(
                    "“%(name)s” takes its qualifiers from this flight: it must stay a round "
                    "robin or a Swiss.",
                    name=target.name,
                ),
                field="format",
            )
        try:
            check_stage_link(StageLink(f.pools or 1, target.qualifiers or 0))
        except FormatUserError as error:
            raise StoreUserError(Message(
                "For “%(name)s”: %(error)s",
                name=target.name, error=error,
            ), field="pools") from None


def _check_stage_link(
    session: Session, event: Event, flight: Flight | None, f: FlightFields
) -> None:
    """A knockout's qualifying stage: a round robin or Swiss of this event, K at least
    1, enough qualifiers in all for a knockout, and no cycle."""
    try:
        find_cut_ties(f.cut_ties)
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="cut_ties") from None
    if f.qualifies_from_id is None:
        if f.qualifiers is not None:
            raise StoreUserError(
                Message("Choose the stage players qualify from."), field="qualifies_from_id"
            )
        return
    fmt = flight_format(f.format)
    if not fmt.is_knockout:
        raise StoreUserError(
            Message("Only a knockout takes its field from a qualifying stage."),
            field="qualifies_from_id",
        )
    if f.feeds_from_id is not None:
        raise StoreUserError(
            Message(
                "A flight takes either the losers of a knockout or the qualifiers of a stage, "
                "not both.",
            ),
            field="qualifies_from_id",
        )
    source = session.get(Flight, f.qualifies_from_id)
    if source is None or source.event_id != event.id:
        raise StoreUserError(
            Message("The qualifying stage must be a flight of this event."),
            field="qualifies_from_id",
        )
    if flight is not None and (source.id == flight.id or _feeds_into(session, source, flight.id)):
        raise StoreUserError(
            Message("A flight cannot qualify from itself."), field="qualifies_from_id"
        )
    source_fmt = flight_format(source.format)
    if not source_fmt.qualifies:
        raise StoreUserError(
            Message(
                "“%(name)s” is a %(format)s: players qualify only from a round robin or a Swiss.",
                name=source.name, format=InSentence(source_fmt.label),
            ),
            field="qualifies_from_id",
        )
    if f.qualifiers is None:
        raise StoreUserError(Message("Enter how many players qualify."), field="qualifiers")
    try:
        check_stage_link(StageLink(source.pools or 1, f.qualifiers))
    except FormatUserError as error:
        raise StoreUserError(message_of(error), field="qualifiers") from None


def _feeds_into(session: Session, source: Flight, target_id: int | None) -> bool:
    """True when following ``feeds_from`` or ``qualifies_from`` from ``source`` reaches
    ``target_id`` (a cycle)."""
    seen: set[int | None] = set()
    frontier: list[Flight] = [source]
    while frontier:
        current = frontier.pop()
        if current.id in seen:
            continue
        if current.id == target_id:
            return True
        seen.add(current.id)
        for above in (current.feeds_from_id, current.qualifies_from_id):
            row = session.get(Flight, above) if above else None
            if row is not None:
                frontier.append(row)
    return False


def _apply_flight_fields(flight: Flight, f: FlightFields) -> None:
    flight.name = clean_text(f.name)
    flight.format = FlightFormat(f.format)
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
    flight.unrated = f.unrated
    flight.tiebreaks = list(f.tiebreaks)
    flight.draw_method = f.draw_method
    flight.pools = f.pools
    flight.pool_seeding = f.pool_seeding
    if f.qualifies_from_id != flight.qualifies_from_id or f.qualifiers != flight.qualifiers:
        flight.cut_picks = []
    flight.qualifies_from_id = f.qualifies_from_id
    flight.qualifiers = f.qualifiers
    flight.cut_ties = f.cut_ties
    flight.boards = f.boards
    flight.clock_seconds_per_point = f.clock_seconds_per_point
    flight.clock_delay_seconds = f.clock_delay_seconds


def _check_flight_name(session: Session, event_id: int, name: str, flight_id: int | None) -> None:
    taken = session.exec(
        select(Flight.id).where(Flight.event_id == event_id, Flight.name == clean_text(name))
    ).first()
    if taken is not None and taken != flight_id:
        raise StoreUserError(Message("The event has a flight of this name."), field="name")


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
    flight = Flight(
        event_id=event_id,
        name="",
        format=FlightFormat(fields.format),
        match_length=1,
        position=count,
    )
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
    session: Session,
    *,
    actor: Actor,
    flight_id: int,
    fields: FlightFields,
    confirmed_changes: str | None = None,
) -> FlightView:
    """A director changes a flight's settings; its format is fixed once drawn.

    New match lengths apply to the rounds already drawn as well, so that the flight's
    settings and its matches always agree. Where results exist the change is checked as a
    change of rules is (``rules_change``): a match it would make impossible refuses it;
    results it changes (a match now over, or re-opened, a Crawford game moved) are
    applied only once the director confirmed that list (``confirmed_changes``).

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        ConflictError: the flight is drawn and the change would alter its format or feeding.
        StoreUserError: settings that do not fit together, or lengths the results entered
            cannot stand (the message names each match).
        RulesChangeNeedsConfirmation: results would change; nothing was saved.
    """
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    event = require_event(session, actor, flight.event_id, manage=True)
    _check_flight_fields(session, event, flight, fields)
    _check_flight_name(session, event.id or 0, fields.name, flight.id)
    if flight.status != FlightStatus.SETUP and (
        fields.format != flight.format
        or fields.feeds_from_id != flight.feeds_from_id
        or fields.qualifies_from_id != flight.qualifies_from_id
        or fields.qualifiers != flight.qualifiers
        or (fields.pools or 1) != (flight.pools or 1)
        or fields.pool_seeding != flight.pool_seeding
        or fields.boards != flight.boards
    ):
        raise ConflictError(
            Message(
                "The flight is drawn: its format, feeding, pools and qualifiers can no longer "
                "change.",
            )
        )
    before = snapshot(flight)
    _apply_flight_fields(flight, fields)
    round_lengths, match_lengths = rules_change.flight_lengths(session, flight)
    changes = rules_change.apply_rules_change(
        session, event, lengths=match_lengths, confirmed=confirmed_changes
    )
    for rnd in progress.flight_rounds(session, flight.id or 0):
        rnd.match_length = round_lengths.get(rnd.id or 0, rnd.match_length)
    session.flush()
    after = snapshot(flight)
    if after is not None and changes:
        after["results_changed"] = list(changes)
    record(
        session,
        actor=actor,
        action="flight.update",
        entity_type="flight",
        entity_id=flight.id,
        event_id=event.id,
        before=before,
        after=after,
    )
    return queries.get_flight(session, actor, flight_id)
