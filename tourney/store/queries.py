"""Read models: named queries that return frozen dataclasses for pages, the API and exports.

Templates never see ORM rows: every value they show is already here, formatted where the
format is not a matter of taste (labels of closed sets, the "final: 11" text), together with
the ``can_*`` booleans that decide which buttons appear.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from tourney.formats.errors import FormatUserError
from tourney.formats.flight_formats import FLIGHT_FORMATS, flight_format
from tourney.formats.rounds import named_round, parse_round_name
from tourney.formats.stages import PoolSeeding, find_cut_ties, find_pool_seeding
from tourney.formats.tiebreaks import Tiebreak
from tourney.formats.tiebreaks import tiebreak_chain as parse_tiebreak_chain
from tourney.match import DrawScoring
from tourney.rules.match_forms import SINGLE, match_form_named
from tourney.rules.messages import ListMessage, Message, PluralMessage
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    STANDARD,
    GameVariant,
    VariantOptions,
    variant_named,
)
from tourney.store.audit import Actor
from tourney.store.errors import NotFoundError, StoreInvariantError
from tourney.store.names import name_matches
from tourney.store.permissions import (
    can_manage_event,
    editable_players,
    require_event,
    require_player,
    worked_on_by,
)
from tourney.store.roles import account_role
from tourney.store.tables import (
    Club,
    Entry,
    EntryStatus,
    Event,
    Flight,
    FlightFormat,
    FlightStatus,
    Match,
    Player,
    Round,
    User,
    Venue,
)
from tourney.store.variant_options import event_options, option_rules, variant_summary

FORMAT_LABELS = {fmt.key: fmt.label for fmt in FLIGHT_FORMATS}
"""The flight formats as forms offer them: key -> label."""


@dataclass(frozen=True)
class UserView:
    """A user as the app shows and checks it (no password hash)."""

    id: int
    email: str
    name: str
    role: str
    is_active: bool
    session_version: int = 1
    """The account's sessions are valid only while they carry this version."""

    @property
    def actor(self) -> Actor:
        """This user as the actor of a service call."""
        return Actor(user_id=self.id, label=self.email, role=self.role)

    @property
    def role_label(self) -> str:
        """The account's role as the pages name it: ``Director``."""
        return account_role(self.role).label


@dataclass(frozen=True)
class ClubView:
    """A club for lists and select boxes."""

    id: int
    slug: str
    name: str


@dataclass(frozen=True)
class PlayerView:
    """A roster player."""

    id: int
    name: str
    country: str
    rating: float | None
    email: str | None
    """None also where the reader may not change the player (a private address)."""
    club_id: int | None
    club_name: str
    can_edit: bool = True
    """The reader may change the player (and so sees their e-mail address)."""


@dataclass(frozen=True)
class FlightView:
    """A flight with its settings ready to display."""

    id: int
    event_id: int
    name: str
    position: int
    format: str
    format_label: str
    status: str
    match_length: int
    round_lengths: tuple[tuple[str, int], ...]
    round_lengths_text: str
    """As the director types it: ``final: 11, 3: 9``."""
    lengths_text: str
    """The match lengths for a header: from the drawn rounds' matches once there are
    any (``5-point matches; Final to 7``), else from the settings."""
    feeds_from_id: int | None
    feeds_from_name: str
    feed_rounds: tuple[int, ...]
    progressive: bool
    feed_bye_losers: bool
    reset_match: bool
    swiss_rounds: int | None
    swiss_lives: int | None
    bye_counts_as_win: bool
    tiebreaks: tuple[str, ...]
    tiebreak_labels: tuple[str, ...]
    draw_method: str
    draw_seed: str | None
    pools: int | None = None
    """A round robin's pools (none: one table)."""
    pool_seeding: str = PoolSeeding.SNAKE.value
    qualifies_from_id: int | None = None
    qualifies_from_name: str = ""
    qualifiers: int | None = None
    """K of the stage link: how many qualify from each pool (from the Swiss)."""
    qualifies_from_pools: int = 1
    """The pools of the qualifying stage (1 for a Swiss)."""
    cut_ties: str = "tiebreaks"
    cut_ties_label: str = ""
    unrated: bool = False
    """Its matches stay out of the club's rating list."""
    boards: int | None = None
    """A team flight: boards of each fixture (none: players meet)."""
    clock_seconds_per_point: int = 120
    """Each player's time on the clock per point of match length."""
    clock_delay_seconds: int = 12
    """The clock's delay per move."""

    @property
    def qualifies_text(self) -> str:
        """``Qualifiers: top 2 of each of 8 pools of Round robin``; empty without a stage."""
        if self.qualifies_from_id is None:
            return ""
        if self.qualifies_from_pools > 1:
            return Message(
                "Qualifiers: top %(qualifiers)s of each of %(pools)s pools of %(stage)s",
                qualifiers=self.qualifiers,
                pools=self.qualifies_from_pools,
                stage=self.qualifies_from_name,
            )
        return Message(
            "Qualifiers: top %(qualifiers)s of %(stage)s",
            qualifiers=self.qualifiers,
            stage=self.qualifies_from_name,
        )

    @property
    def pools_text(self) -> str:
        """``8 pools, snake-seeded``; empty for one table."""
        if self.pools is None:
            return ""
        how = find_pool_seeding(self.pool_seeding).summary
        return PluralMessage(
            "%(count)s pool, %(how)s", "%(count)s pools, %(how)s", self.pools, how=how
        )

    @property
    def is_setup(self) -> bool:
        """Not drawn yet."""
        return self.status == FlightStatus.SETUP.value

    @property
    def is_finished(self) -> bool:
        """Every match is decided."""
        return self.status == FlightStatus.FINISHED.value

    @property
    def is_swiss(self) -> bool:
        """Paired round by round."""
        return self.format == FlightFormat.SWISS.value

    @property
    def feed_rounds_text(self) -> str:
        """The rounds whose losers enter: ``round 1``, ``rounds 1, 2``; empty for none."""
        if not self.feed_rounds:
            return ""
        numbers = ", ".join(str(r) for r in self.feed_rounds)
        return f"round{'s' if len(self.feed_rounds) > 1 else ''} {numbers}"


@dataclass(frozen=True)
class EventSummary:
    """One line of an events list."""

    id: int
    slug: str
    name: str
    starts_on: date | None
    status: str
    is_public: bool
    venue_name: str
    club_name: str
    entries_count: int
    flights_count: int


@dataclass(frozen=True)
class EventDetail:
    """An event with its rules and flights."""

    id: int
    slug: str
    name: str
    starts_on: date | None
    ends_on: date | None
    status: str
    is_public: bool
    club_id: int | None
    club_name: str
    venue_name: str
    crawford: bool
    holland: bool
    cube_limit_exponent: int | None
    money_play: bool
    jacoby: bool
    beavers: bool
    automatic_doubles: bool
    condoned_plays: bool
    unrated: bool
    notes: str
    variant: str
    variant_label: str
    data_version: int
    rules_summary: tuple[str, ...]
    flights: tuple[FlightView, ...]
    entries_count: int
    checked_in_count: int
    can_manage: bool
    variant_options: VariantOptions = DEFAULT_OPTIONS
    """The event's options for its variant (canonical: defaults where none is set)."""
    variant_summary: str = DEFAULT_VARIANT.title
    """The variant and its options in one line: "Long nardy · cube on, Crawford"; for a
    match of several variants, the match form: "Tavli: Portes, Plakoto and Fevga ..."."""
    match_form: str = SINGLE.name
    dice_names: str = ""
    """The key of the dice names shown beside rolls; empty: none."""
    board_order: str = "fixed"
    """Team events: a fixed board order, or line-ups named per fixture."""
    divisions: tuple[str, ...] = ()
    """The event's divisions, strongest first; none: no divisions."""
    draw_scoring: str = "nothing"
    """What a drawn game scores each player (a ``tourney.match.DrawScoring`` value)."""

    @property
    def is_variant(self) -> bool:
        """Played in a variant or several, not standard backgammon: pages name it."""
        return self.variant != STANDARD.name or self.match_form != SINGLE.name

    @property
    def is_multi_day(self) -> bool:
        """Ends on a later day than it starts: pages show both dates."""
        return self.ends_on is not None and self.ends_on != self.starts_on


@dataclass(frozen=True)
class EntryView:
    """A player's registration for an event."""

    id: int
    event_id: int
    player_id: int
    player_name: str
    country: str
    rating: float | None
    club_name: str
    seed: int | None
    status: str
    checked_in: bool
    checked_in_at: datetime | None

    @property
    def is_active(self) -> bool:
        """Still in the event (not withdrawn, not eliminated)."""
        return self.status == EntryStatus.ACTIVE.value

    @property
    def is_withdrawn(self) -> bool:
        """Withdrawn by the director (and so may be reinstated)."""
        return self.status == EntryStatus.WITHDRAWN.value


# --- users ---------------------------------------------------------------------------


def user_view(user: User) -> UserView:
    """The read model of a user row."""
    assert user.id is not None
    return UserView(
        id=user.id,
        email=user.email,
        name=user.name,
        role=user.role,
        is_active=user.is_active,
        session_version=user.session_version,
    )


def get_user(session: Session, user_id: int) -> UserView | None:
    """The user with this id, or none."""
    user = session.get(User, user_id)
    return None if user is None else user_view(user)


def count_users(session: Session) -> int:
    """How many accounts exist (none means the first-run page is open)."""
    return int(session.exec(select(func.count()).select_from(User)).one())


def list_users(session: Session) -> list[UserView]:
    """Every account, by e-mail address."""
    return [user_view(u) for u in session.exec(select(User).order_by(col(User.email)))]


# --- clubs and players ---------------------------------------------------------------


def list_clubs(session: Session) -> list[ClubView]:
    """Every club, by name."""
    rows = session.exec(select(Club).order_by(col(Club.name)))
    return [ClubView(id=c.id or 0, slug=c.slug, name=c.name) for c in rows]


def player_view(player: Player, club_name: str) -> PlayerView:
    """The read model of a roster row."""
    assert player.id is not None
    return PlayerView(
        id=player.id,
        name=player.name,
        country=player.country,
        rating=player.rating,
        email=player.email,
        club_id=player.club_id,
        club_name=club_name,
    )


def list_players(session: Session, *, search: str = "") -> list[PlayerView]:
    """The roster by name, optionally only names containing ``search`` however its
    accents, case and apostrophes are typed ("obrien" finds O'Brien and O’Brien)."""
    query = select(Player, Club).join(Club, isouter=True).order_by(col(Player.name))
    return [
        player_view(p, c.name if c else "")
        for p, c in session.exec(query)
        if not search or name_matches(search, p.name)
    ]


def get_player(session: Session, player_id: int) -> PlayerView:
    """One roster player.

    Raises:
        NotFoundError: no such player.
    """
    player = session.get(Player, player_id)
    if player is None:
        raise NotFoundError(Message("No such player."))
    club = session.get(Club, player.club_id) if player.club_id else None
    return player_view(player, club.name if club else "")


def roster_for(session: Session, actor: Actor, *, search: str = "") -> list[PlayerView]:
    """The roster as ``actor`` sees it: every player by name, the e-mail address and the
    edit link only on those the actor may change (``permissions.editable_players``)."""
    players = list_players(session, search=search)
    editable = set(session.exec(select(Player.id).where(editable_players(actor))))
    return [p if p.id in editable else replace(p, email=None, can_edit=False) for p in players]


def editable_player(session: Session, actor: Actor, player_id: int) -> PlayerView:
    """One roster player, for a reader who may change them.

    Raises:
        NotFoundError: no such player.
        AccessDeniedError: the actor may not change the player.
    """
    require_player(session, actor, player_id)
    return get_player(session, player_id)


# --- events --------------------------------------------------------------------------


def format_round_lengths(lengths: dict[str, int]) -> str:
    """``{"final": 11, "3": 9}`` as the director types it, in round order: ``3: 9, final: 11``."""
    return ", ".join(f"{key}: {value}" for key, value in _sorted_lengths(lengths))


def _sorted_lengths(lengths: dict[str, int]) -> list[tuple[str, int]]:
    def key(item: tuple[str, int]) -> tuple[int, int, str]:
        name = item[0]
        if name.isdigit():
            return (0, int(name), "")
        named = named_round(name)
        # Named rounds count from the end: the final (1 from the end) comes last.
        return (1, -named.from_end if named else 0, name)

    return sorted(lengths.items(), key=key)


def tiebreak_chain(keys: Sequence[str] | None) -> tuple[Tiebreak, ...]:
    """A flight's stored tiebreak keys as the standings code's chain.

    Raises:
        StoreInvariantError: the database names a tiebreak that does not exist; saving
            and importing refuse those, so the row was written by hand or by a bug.
    """
    try:
        return parse_tiebreak_chain(keys or ())
    except FormatUserError as error:
        raise StoreInvariantError(f"Stored tiebreak chain {list(keys or ())}: {error}") from None


def lengths_text(
    match_length: int, settings_text: str, drawn: Sequence[tuple[str, int]] = ()
) -> str:
    """The match lengths a flight's header shows.

    ``drawn`` holds (round name, match length) of the drawn rounds' matches, in round
    order: once there are any the header says what they are, so that it never says "to 7"
    over matches to 5; the length most rounds play is named first, then each round that
    differs. Before the draw the settings are shown as the director typed them.

    >>> str(lengths_text(5, "", [("Semifinal", 5), ("Final", 7)]))
    '5-point matches; Final to 7'
    >>> str(lengths_text(7, "final: 11"))
    '7-point matches (final: 11)'
    """
    if not drawn:
        if settings_text:
            return Message(
                "%(length)s-point matches (%(settings)s)",
                length=match_length, settings=settings_text,
            )
        return Message("%(length)s-point matches", length=match_length)
    per_round: dict[str, set[int]] = {}
    for name, length in drawn:
        per_round.setdefault(name, set()).add(length)
    counts: dict[int, int] = {}
    for lengths in per_round.values():
        for length in lengths:
            counts[length] = counts.get(length, 0) + 1
    # The length most rounds play; on a tie, the first round's.
    usual = max(counts, key=lambda length: (counts[length], -_first(drawn, length)))
    others = [
        Message(
            "%(round)s to %(lengths)s",
            round=_round_message(name),
            lengths=" or ".join(str(n) for n in sorted(lengths - {usual})),
        )
        for name, lengths in per_round.items()
        if lengths != {usual}
    ]
    usual_text = Message("%(length)s-point matches", length=usual)
    if not others:
        return usual_text
    # "5-point matches; Final to 7": each part is translated on its own.
    return Message(
        "%(usual)s; %(others)s", usual=usual_text, others=ListMessage(tuple(others))
    )


def _round_message(name: str) -> Message:
    """A stored round name as a message whose words the page translates ("Final")."""
    parsed = parse_round_name(name)
    return parsed if isinstance(parsed, Message) else Message(parsed)


def _first(drawn: Sequence[tuple[str, int]], length: int) -> int:
    return next(i for i, (_, n) in enumerate(drawn) if n == length)


def drawn_lengths(session: Session, flight_ids: Sequence[int]) -> dict[int, list[tuple[str, int]]]:
    """(round name, match length) of every drawn match of the flights, in round order."""
    rows = session.exec(
        select(Round.flight_id, Round.number, Round.name, Match.match_length)
        .join(Match, col(Match.round_id) == Round.id)
        .where(col(Round.flight_id).in_(list(flight_ids)))
        .distinct()
        .order_by(col(Round.flight_id), col(Round.number))
    )
    out: dict[int, list[tuple[str, int]]] = {}
    for flight_id, _, name, length in rows:
        out.setdefault(flight_id, []).append((name, length))
    return out


def flight_view(
    flight: Flight,
    feeds_from_name: str = "",
    drawn: Sequence[tuple[str, int]] = (),
    stage: Flight | None = None,
) -> FlightView:
    """The read model of a flight row; ``drawn`` as ``lengths_text`` takes it; ``stage``
    is the flight's qualifying stage, if it has one."""
    assert flight.id is not None
    lengths = dict(flight.round_lengths or {})
    tiebreaks = tuple(flight.tiebreaks or ())
    chain = tiebreak_chain(tiebreaks)
    return FlightView(
        id=flight.id,
        event_id=flight.event_id,
        name=flight.name,
        position=flight.position,
        format=flight.format,
        format_label=FORMAT_LABELS.get(flight.format, flight.format),
        status=flight.status,
        match_length=flight.match_length,
        round_lengths=tuple(_sorted_lengths(lengths)),
        round_lengths_text=format_round_lengths(lengths),
        lengths_text=lengths_text(flight.match_length, format_round_lengths(lengths), drawn),
        feeds_from_id=flight.feeds_from_id,
        feeds_from_name=feeds_from_name,
        feed_rounds=tuple(flight.feed_rounds or ()),
        progressive=flight.progressive,
        feed_bye_losers=flight.feed_bye_losers,
        reset_match=flight.reset_match,
        swiss_rounds=flight.swiss_rounds,
        swiss_lives=flight.swiss_lives,
        bye_counts_as_win=flight.bye_counts_as_win,
        unrated=flight.unrated,
        tiebreaks=tiebreaks,
        tiebreak_labels=tuple(tiebreak.title for tiebreak in chain),
        draw_method=flight.draw_method,
        draw_seed=flight.draw_seed,
        pools=flight.pools,
        pool_seeding=flight.pool_seeding,
        qualifies_from_id=flight.qualifies_from_id,
        qualifies_from_name=stage.name if stage else "",
        qualifiers=flight.qualifiers,
        qualifies_from_pools=_stage_pools(stage),
        cut_ties=flight.cut_ties,
        cut_ties_label=find_cut_ties(flight.cut_ties).label,
        boards=flight.boards,
        clock_seconds_per_point=flight.clock_seconds_per_point,
        clock_delay_seconds=flight.clock_delay_seconds,
    )


def _stage_pools(stage: Flight | None) -> int:
    if stage is None or not flight_format(stage.format).has_pools:
        return 1
    return stage.pools or 1


def _variant_rules(event: Event, variant: GameVariant, options: VariantOptions) -> list[str]:
    """The phrases of a one-variant event's variant, cube and Crawford rule, and options."""
    lines = []
    if variant is not DEFAULT_VARIANT:
        lines.append(variant.title)
    if not variant.uses_cube(options):
        # Without the cube (long nardy unless the event turns it on) the Crawford flag
        # has nothing to act on.
        lines.append(Message("No doubling cube"))
    else:
        if variant.offers("cube"):
            lines.append(Message("Doubling cube"))
        crawford = event.crawford and variant.uses_crawford(options)
        lines.append(Message("Crawford rule") if crawford else Message("No Crawford rule"))
    lines.extend(option_rules(event.variant, options))
    return lines


def rules_summary(event: Event) -> tuple[str, ...]:
    """The event's rules as short phrases for the event and match pages: the variant,
    the cube and Crawford rule as its options set them, then its other options."""
    lines = []
    variant = variant_named(event.variant)
    form = match_form_named(event.match_form)
    options = event_options(event)
    if not form.is_single:
        # Each game follows its own variant; the form says which and whether the cube is
        # used at all.
        lines.append(form.title)
        if not form.uses_cube:
            lines.append(Message("No doubling cube"))
    elif form.counts_games:
        # A match of games: the cube and gammons are off whatever the variant says.
        if variant is not DEFAULT_VARIANT:
            lines.append(variant.title)
        lines.append(Message("Each game counts 1: no doubling cube, no gammons"))
        lines.extend(option_rules(event.variant, options))
    else:
        lines.extend(_variant_rules(event, variant, options))
    # House rules: the event's divisions and what a drawn game scores.
    if event.divisions:
        lines.append(Message("Divisions: %(divisions)s", divisions=", ".join(event.divisions)))
    draw_scoring = DrawScoring(event.draw_scoring)
    if variant.can_draw(options) and draw_scoring is not DrawScoring.NOTHING:
        # 0-0 is what a draw has always scored: only another choice is worth a line.
        lines.append(Message("A drawn game scores %(score)s", score=draw_scoring.label))
    if event.holland:
        lines.append(Message("Holland rule"))
    if event.cube_limit_exponent is not None:
        lines.append(Message("Cube limit %(limit)s", limit=2**event.cube_limit_exponent))
    if event.money_play:
        lines.append(Message("Money play"))
    if event.jacoby:
        lines.append(Message("Jacoby rule (house rule)"))
    if event.beavers:
        lines.append(Message("Beavers"))
    if event.automatic_doubles:
        lines.append(Message("Automatic doubles"))
    if event.condoned_plays:
        lines.append(Message("Condoned plays stand in records"))
    if event.unrated:
        lines.append(Message("Unrated (friendly)"))
    return tuple(lines)


def _flights(session: Session, event_id: int) -> tuple[FlightView, ...]:
    rows = list(
        session.exec(
            select(Flight)
            .where(Flight.event_id == event_id)
            .order_by(col(Flight.position), col(Flight.id))
            # A drawn bracket's plan is large (megabytes at 10,000 players): not shown here.
            .options(defer(Flight.bracket_plan))  # type: ignore[arg-type]
        )
    )
    names = {f.id: f.name for f in rows}
    by_id = {f.id: f for f in rows}
    drawn = drawn_lengths(session, [f.id or 0 for f in rows])
    return tuple(
        flight_view(
            f,
            names.get(f.feeds_from_id, ""),
            drawn.get(f.id or 0, ()),
            by_id.get(f.qualifies_from_id),
        )
        for f in rows
    )


def _entry_counts(session: Session, event_ids: list[int]) -> dict[int, tuple[int, int]]:
    """(active entries, checked in) per event."""
    if not event_ids:
        return {}
    query = (
        select(Entry.event_id, func.count(), func.count(col(Entry.checked_in_at)))
        .where(col(Entry.event_id).in_(event_ids), Entry.status != EntryStatus.WITHDRAWN.value)
        .group_by(col(Entry.event_id))
    )
    return {eid: (int(total), int(checked)) for eid, total, checked in session.exec(query)}


def _summaries(session: Session, events: list[Event]) -> list[EventSummary]:
    ids = [e.id for e in events if e.id is not None]
    counts = _entry_counts(session, ids)
    flight_counts: dict[int, int] = {}
    if ids:
        query = (
            select(Flight.event_id, func.count())
            .where(col(Flight.event_id).in_(ids))
            .group_by(col(Flight.event_id))
        )
        flight_counts = {eid: int(n) for eid, n in session.exec(query)}
    venues = _names(session, Venue, {e.venue_id for e in events})
    clubs = _names(session, Club, {e.club_id for e in events})
    return [
        EventSummary(
            id=e.id or 0,
            slug=e.slug,
            name=e.name,
            starts_on=e.starts_on,
            status=e.status,
            is_public=e.is_public,
            venue_name=venues.get(e.venue_id, ""),
            club_name=clubs.get(e.club_id, ""),
            entries_count=counts.get(e.id or 0, (0, 0))[0],
            flights_count=flight_counts.get(e.id or 0, 0),
        )
        for e in events
    ]


def _names(
    session: Session, table: type[Venue] | type[Club], ids: set[int | None]
) -> dict[int | None, str]:
    wanted = [i for i in ids if i is not None]
    if not wanted:
        return {}
    if table is Venue:
        return {v.id: v.name for v in session.exec(select(Venue).where(col(Venue.id).in_(wanted)))}
    return {c.id: c.name for c in session.exec(select(Club).where(col(Club.id).in_(wanted)))}


def _event_order() -> tuple[Any, Any]:
    return (col(Event.starts_on).desc(), col(Event.id).desc())


def list_public_events(session: Session) -> list[EventSummary]:
    """Events marked public, newest first."""
    events = list(session.exec(select(Event).where(col(Event.is_public)).order_by(*_event_order())))
    return _summaries(session, events)


def list_events_for(session: Session, actor: Actor) -> list[EventSummary]:
    """The events the actor works on (all of them for an admin), newest first."""
    query = select(Event).where(worked_on_by(actor)).order_by(*_event_order())
    return _summaries(session, list(session.exec(query)))


def event_detail(session: Session, event: Event, *, can_manage: bool) -> EventDetail:
    """The read model of an event row."""
    assert event.id is not None
    venue = session.get(Venue, event.venue_id) if event.venue_id else None
    club = session.get(Club, event.club_id) if event.club_id else None
    total, checked = _entry_counts(session, [event.id]).get(event.id, (0, 0))
    options = event_options(event)
    return EventDetail(
        id=event.id,
        slug=event.slug,
        name=event.name,
        starts_on=event.starts_on,
        ends_on=event.ends_on,
        status=event.status,
        is_public=event.is_public,
        club_id=event.club_id,
        club_name=club.name if club else "",
        venue_name=venue.name if venue else "",
        crawford=event.crawford,
        holland=event.holland,
        cube_limit_exponent=event.cube_limit_exponent,
        money_play=event.money_play,
        jacoby=event.jacoby,
        beavers=event.beavers,
        automatic_doubles=event.automatic_doubles,
        condoned_plays=event.condoned_plays,
        unrated=event.unrated,
        notes=event.notes,
        variant=event.variant,
        variant_label=variant_named(event.variant).title,
        data_version=event.data_version,
        rules_summary=rules_summary(event),
        divisions=tuple(event.divisions or ()),
        draw_scoring=event.draw_scoring,
        flights=_flights(session, event.id),
        entries_count=total,
        checked_in_count=checked,
        can_manage=can_manage,
        variant_options=options,
        variant_summary=rules_headline(event, options),
        match_form=event.match_form,
        dice_names=event.dice_names,
        board_order=event.board_order,
    )


def rules_headline(event: Event, options: VariantOptions) -> str:
    """The variant and its options in one line, or the match form of several variants."""
    form = match_form_named(event.match_form)
    if form.is_single:
        return variant_summary(event.variant, options)
    return f"{form.title}: {form.description}"


def get_event_for(session: Session, actor: Actor, event_id: int) -> EventDetail:
    """An event for its staff.

    Raises:
        NotFoundError: no such event.
        AccessDeniedError: the actor is not on its staff.
    """
    event = require_event(session, actor, event_id, manage=False)
    return event_detail(session, event, can_manage=can_manage_event(session, actor, event))


def get_public_event(session: Session, slug: str) -> EventDetail:
    """A public event by slug.

    Raises:
        NotFoundError: no public event has this slug.
    """
    event = session.exec(select(Event).where(Event.slug == slug, col(Event.is_public))).first()
    if event is None:
        raise NotFoundError(Message("No such event."))
    return event_detail(session, event, can_manage=False)


def get_flight(session: Session, actor: Actor, flight_id: int) -> FlightView:
    """A flight for its event's staff.

    Raises:
        NotFoundError: no such flight.
        AccessDeniedError: the actor is not on the event's staff.
    """
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    require_event(session, actor, flight.event_id, manage=False)
    source = session.get(Flight, flight.feeds_from_id) if flight.feeds_from_id else None
    stage = session.get(Flight, flight.qualifies_from_id) if flight.qualifies_from_id else None
    drawn = drawn_lengths(session, [flight_id]).get(flight_id, ())
    return flight_view(flight, source.name if source else "", drawn, stage)


# --- entries -------------------------------------------------------------------------


_ENTRY_COLUMNS = (
    col(Entry.id),
    col(Entry.event_id),
    col(Entry.player_id),
    col(Player.name),
    col(Player.country),
    col(Player.rating),
    col(Club.name),
    col(Entry.seed),
    col(Entry.status),
    col(Entry.checked_in_at),
)


def entry_views(session: Session, where: Any) -> list[EntryView]:
    """The entries ``where`` selects, unordered, read as plain columns (no ORM rows: an
    event of 10,000 players is read many times faster)."""
    query = (
        sa.select(*_ENTRY_COLUMNS)
        .join(Player, col(Player.id) == Entry.player_id)
        .join(Club, col(Club.id) == Player.club_id, isouter=True)
        .where(where)
    )
    return [
        EntryView(
            id=row[0],
            event_id=row[1],
            player_id=row[2],
            player_name=row[3],
            country=row[4],
            rating=row[5],
            club_name=row[6] or "",
            seed=row[7],
            status=str(row[8]),
            checked_in=row[9] is not None,
            checked_in_at=row[9],
        )
        for row in session.execute(query).all()
    ]


def list_entries(session: Session, event_id: int) -> list[EntryView]:
    """An event's entries: seeds first in seed order, then by name."""
    rows = entry_views(session, Entry.event_id == event_id)
    return sorted(rows, key=lambda e: (e.seed is None, e.seed or 0, e.player_name.casefold()))


def entry_event_id(session: Session, entry_id: int) -> int:
    """The event an entry belongs to.

    Raises:
        NotFoundError: no such entry.
    """
    event_id = session.exec(select(Entry.event_id).where(Entry.id == entry_id)).first()
    if event_id is None:
        raise NotFoundError(Message("No such entry."))
    return event_id


def players_not_entered(
    session: Session, event_id: int, *, limit: int | None = None, only: int | None = None
) -> list[PlayerView]:
    """Roster players not yet entered in the event, by name (the "enter player" choices):
    the first ``limit`` of them, or only the player ``only`` if not entered."""
    entered = select(Entry.player_id).where(Entry.event_id == event_id)
    query = (
        select(Player, Club)
        .join(Club, isouter=True)
        .where(col(Player.id).not_in(entered))
        .order_by(col(Player.name), col(Player.id))
    )
    if only is not None:
        query = query.where(Player.id == only)
    if limit is not None:
        query = query.limit(limit)
    return [player_view(p, c.name if c else "") for p, c in session.exec(query)]
