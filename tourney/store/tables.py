"""The database tables, as SQLModel classes, and the closed value sets stored in them.

Terminology:
    event     one tournament (an evening, a weekend) run by a director.
    flight    one competition inside an event: a main draw, its consolation, its last
              chance, a Swiss, a round robin. Each flight has its own format and match length.
    entry     a player registered for an event (seed, check-in, withdrawal).
    flight entry
              an entry taking part in one flight (fed into a consolation, eliminated ...).
    round     one round of a flight; its matches are published together.
    match     two flight entries (or one and a bye) playing to N points.
    game      one game of a match: winner (none for a drawn game), how it ended, cube (as
              exponent), level.

Closed sets (roles, statuses, formats) are stored as short strings and named by the
``StrEnum`` classes below; the use cases refuse anything else. The status and format
columns hold the members themselves (``types.StoredEnum``), still stored as that text.
An event's variant is stored as the name of a variant in the rules core's registry.
Tables are only ever created by the Alembic migrations in ``tourney/store/migrations``.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import JSON, Column, Integer, Text, UniqueConstraint, false
from sqlmodel import Field, SQLModel

from tourney.rules.match_forms import SINGLE
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store.types import StoredEnum, UTCDateTime, utcnow


class Role(StrEnum):
    """What a user may do: admin (everything), director (their events), scorer (results)."""

    ADMIN = "admin"
    DIRECTOR = "director"
    SCORER = "scorer"


class StaffRole(StrEnum):
    """A user's part in one event."""

    DIRECTOR = "director"
    SCORER = "scorer"


class EventStatus(StrEnum):
    """Where an event stands."""

    DRAFT = "draft"
    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    ARCHIVED = "archived"
    """Finished and off the public index; its pages still open by their address."""


class FlightFormat(StrEnum):
    """The tournament format of a flight."""

    KNOCKOUT = "knockout"
    DOUBLE_ELIMINATION = "double_elimination"
    SWISS = "swiss"
    ROUND_ROBIN = "roundrobin"


class DrawMethod(StrEnum):
    """How the first round of a flight is drawn."""

    RANDOM = "random"
    SEEDED = "seeded"
    MANUAL = "manual"


class FlightStatus(StrEnum):
    """Where a flight stands."""

    SETUP = "setup"
    DRAWN = "drawn"
    RUNNING = "running"
    FINISHED = "finished"


class EntryStatus(StrEnum):
    """An entry's standing in an event or flight."""

    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    ELIMINATED = "eliminated"


class RoundStatus(StrEnum):
    """A round is drafted, then published to players, then finished."""

    DRAFT = "draft"
    PUBLISHED = "published"
    FINISHED = "finished"


class MatchStatus(StrEnum):
    """Where a match stands; a bye and a walkover are finished without games.

    ``void`` is a bracket slot nobody reached (both sides empty): it is never played.
    """

    PENDING = "pending"
    READY = "ready"
    PLAYING = "playing"
    FINISHED = "finished"
    WALKOVER = "walkover"
    BYE = "bye"
    VOID = "void"


class GameEndKind(StrEnum):
    """How a game ended (DESIGN §3)."""

    PLAYED = "played"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    DRAWN = "drawn"
    """Long nardy's last-roll draw (an event option): nobody wins the game."""


class GameLevel(StrEnum):
    """Single, gammon or backgammon (none for a dropped double)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"


def _created() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class User(SQLModel, table=True):
    """Someone who logs in: an admin, a director or a scorer."""

    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True, index=True)
    """Stored lower-cased."""
    name: str = Field(max_length=120)
    password_hash: str = Field(max_length=255)
    role: str = Field(max_length=16)
    is_active: bool = Field(default=True)
    created_at: datetime = _created()
    last_login_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    session_version: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    """Carried in every login's session cookie; logging out, a password change and
    deactivation move it on, which ends every session of the account on every device."""


class LoginAttempt(SQLModel, table=True):
    """One login attempt; failures within a window lock the address and the account."""

    __tablename__ = "login_attempts"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, index=True)
    remote_addr: str = Field(max_length=64, index=True)
    succeeded: bool = Field(default=False)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, index=True)


class Club(SQLModel, table=True):
    """A club: owns a roster of players and usually its events."""

    __tablename__ = "clubs"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(max_length=80, unique=True)
    name: str = Field(max_length=120)
    provisional_below: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Players with less rating experience than this are provisional on the club's list
    (0: nobody is)."""
    public_profiles: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """Anyone may see the players' pages at the club (rating, chart, results) without
    logging in."""
    created_at: datetime = _created()


class Venue(SQLModel, table=True):
    """Where an event is played."""

    __tablename__ = "venues"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int | None = Field(default=None, foreign_key="clubs.id", index=True)
    name: str = Field(max_length=120)
    address: str = Field(default="", max_length=255)


class Player(SQLModel, table=True):
    """A player on the roster; reused across events."""

    __tablename__ = "players"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int | None = Field(default=None, foreign_key="clubs.id", index=True)
    name: str = Field(max_length=120, index=True)
    country: str = Field(default="", max_length=2)
    """ISO 3166 alpha-2 code, upper case, or empty."""
    rating: float | None = Field(default=None)
    rating_experience: int | None = Field(default=None)
    """The experience carried in with ``rating`` (an imported list): the K factor of the
    player's first rated match at the club starts from it; none is 0."""
    rated_matches: int | None = Field(default=None)
    """The rated matches carried in with ``rating``, counted with the club's own."""
    email: str | None = Field(default=None, max_length=254)
    """Private: shown only to those who may change the player (``permissions``)."""
    added_by_id: int | None = Field(
        default=None, foreign_key="users.id", index=True, ondelete="SET NULL"
    )
    """The account that added the player: it, the admins and the staff of the events the
    player is entered in may change the player and see their e-mail address."""
    created_at: datetime = _created()


class Event(SQLModel, table=True):
    """A tournament with its rule flags (DESIGN §3)."""

    __tablename__ = "events"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(max_length=80, unique=True, index=True)
    name: str = Field(max_length=160)
    starts_on: date | None = Field(default=None)
    ends_on: date | None = Field(default=None)
    club_id: int | None = Field(default=None, foreign_key="clubs.id", index=True)
    venue_id: int | None = Field(default=None, foreign_key="venues.id", index=True)
    owner_id: int | None = Field(default=None, foreign_key="users.id", index=True)
    status: EventStatus = Field(
        default=EventStatus.DRAFT, sa_column=Column(StoredEnum(EventStatus, 16), nullable=False)
    )
    is_public: bool = Field(default=False)
    variant: str = Field(default=DEFAULT_VARIANT.name, max_length=32)
    """The name of a registered variant (``tourney.rules.variants``), which the services
    check before they store it."""
    match_form: str = Field(
        default=SINGLE.name, max_length=16, sa_column_kwargs={"server_default": SINGLE.name}
    )
    """The name of a registered match form (``tourney.rules.match_forms``): one variant,
    or several in turn (tavli)."""
    dice_names: str = Field(default="", max_length=16, sa_column_kwargs={"server_default": ""})
    """The key of the registered dice names (``tourney.rules.dice_names``) shown beside
    rolls; empty: none."""
    variant_options: dict[str, Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True))
    )
    """The event's choices for its variant, as ``tourney.store.variant_options`` stores
    them (only what differs from the variant's defaults); none: the defaults."""
    crawford: bool = Field(default=True)
    holland: bool = Field(default=False)
    cube_limit_exponent: int | None = Field(default=None)
    """Highest cube allowed, as exponent of two (6 = 64); none = no limit."""
    money_play: bool = Field(default=False)
    jacoby: bool = Field(default=False)
    """Only as an explicit house rule: never in matches otherwise."""
    beavers: bool = Field(default=False)
    automatic_doubles: bool = Field(default=False)
    condoned_plays: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """Uploaded records may hold an illegal play the opponent played on from: it stands,
    as a warning (the tournament rules that let the opponent accept a wrong move)."""
    unrated: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """A friendly: its matches do not count in its club's rating list."""
    # --- divisions and draw scoring (house rules) ---
    divisions: list[str] | None = Field(default=None, sa_column=Column(JSON(none_as_null=True)))
    """The event's divisions, strongest first ("Open", "Intermediate", "Novice" or the
    club's own names); none: no divisions."""
    draw_scoring: str = Field(
        default="nothing", max_length=8, sa_column_kwargs={"server_default": "nothing"})
    """What a drawn game scores each player: a ``tourney.match.DrawScoring`` value."""
    notes: str = Field(default="", sa_type=Text)
    data_version: int = Field(default=1)
    """Bumped by every change to the event or anything in it: cache and live-update key."""
    board_order: str = Field(
        default="fixed", max_length=16, sa_column_kwargs={"server_default": "fixed"}
    )
    """Team events: ``fixed`` (each team plays its board order) or ``per_fixture`` (the
    director names each fixture's line-up); see ``tourney.formats.teams.BoardOrder``."""
    created_at: datetime = _created()
    updated_at: datetime = _created()


class EventStaff(SQLModel, table=True):
    """A user's role in one event besides its owner (co-director or scorer)."""

    __tablename__ = "event_staff"
    __table_args__ = (UniqueConstraint("event_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    role: str = Field(max_length=16)


class Flight(SQLModel, table=True):
    """One competition inside an event, with its format and feeding rules (DESIGN §4)."""

    __tablename__ = "flights"
    __table_args__ = (UniqueConstraint("event_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=80)
    position: int = Field(default=0)
    """Display order within the event."""
    format: FlightFormat = Field(sa_column=Column(StoredEnum(FlightFormat, 24), nullable=False))
    status: FlightStatus = Field(
        default=FlightStatus.SETUP, sa_column=Column(StoredEnum(FlightStatus, 16), nullable=False)
    )
    match_length: int
    round_lengths: dict[str, int] = Field(default_factory=dict, sa_column=Column(JSON))
    """Longer matches for named rounds: ``{"final": 11, "3": 9}``."""
    feeds_from_id: int | None = Field(default=None, foreign_key="flights.id")
    """The flight whose losers enter this one (a consolation's main draw)."""
    feed_rounds: list[int] = Field(default_factory=list, sa_column=Column(JSON))
    """Rounds of ``feeds_from`` whose losers enter this flight."""
    progressive: bool = Field(default=False)
    """Losers of later rounds enter later rounds of this flight through byes."""
    feed_bye_losers: bool = Field(default=False)
    """First-match losers who had a bye also enter."""
    reset_match: bool = Field(default=False)
    """Double elimination: a reset final when the losers' bracket winner wins the first."""
    swiss_rounds: int | None = Field(default=None)
    swiss_lives: int | None = Field(default=None)
    bye_counts_as_win: bool = Field(default=True)
    unrated: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """Its matches do not count in the club's rating list (a side event, a nackgammon or
    1-point flight a club leaves out)."""
    division: str = Field(default="", max_length=40, sa_column_kwargs={"server_default": ""})
    """The one division whose entries the flight takes; empty: mixed (any division)."""
    division_handicap: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Points a lower-division player starts up per division of difference; 0: none."""
    division_standings: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """A mixed flight also ranks each division's players separately, under its standings."""
    tiebreaks: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    """Names of tiebreaks in order (``buchholz``, ``sonneborn_berger`` ...)."""
    draw_method: str = Field(default=DrawMethod.RANDOM.value, max_length=16)
    draw_seed: str | None = Field(default=None, max_length=40)
    """Decimal seed used for the draw, shown to the director so anyone can repeat it."""
    pools: int | None = Field(default=None)
    """A round robin split into this many pools (none: one table)."""
    pool_seeding: str = Field(default="snake", max_length=16)
    """How a round robin's pools are made: ``snake`` by entry seed, or ``random`` from
    the draw seed."""
    qualifies_from_id: int | None = Field(default=None, foreign_key="flights.id")
    """The qualifying stage (a round robin or a Swiss) whose top finishers make up this
    knockout's field (``tourney.formats.stages``)."""
    qualifiers: int | None = Field(default=None)
    """K: how many qualify from each pool of ``qualifies_from`` (from its Swiss)."""
    cut_ties: str = Field(default="tiebreaks", max_length=16)
    """How a tie at the cut is resolved (``tourney.formats.stages.CutTies``)."""
    cut_picks: list[int] = Field(default_factory=list, sa_column=Column(JSON))
    """Flight entries of ``qualifies_from`` the director sent through at a tied cut."""
    bracket_plan: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    """A drawn knockout's planned matches (``tourney.store.plans``), on the flight whose
    draw made it; flights fed from it share it."""
    boards: int | None = Field(default=None)
    """A team flight: teams meet in fixtures of this many board matches (none: players
    meet in matches)."""
    clock_seconds_per_point: int = Field(default=120, sa_column_kwargs={"server_default": "120"})
    """Each player's time on the clock per point of match length (DESIGN §8: 2 minutes)."""
    clock_delay_seconds: int = Field(default=12, sa_column_kwargs={"server_default": "12"})
    """The delay per move before a player's time runs (12 seconds by default)."""
    created_at: datetime = _created()


class Entry(SQLModel, table=True):
    """A player registered for an event."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("event_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="players.id", index=True)
    partner_id: int | None = Field(default=None, foreign_key="players.id", index=True)
    """A pair consultation: this player plays every board together with ``player``
    as one side, and both are credited with its results."""
    seed: int | None = Field(default=None)
    status: EntryStatus = Field(
        default=EntryStatus.ACTIVE, sa_column=Column(StoredEnum(EntryStatus, 16), nullable=False)
    )
    checked_in_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    withdrawn_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    division: str = Field(default="", max_length=40, sa_column_kwargs={"server_default": ""})
    """The entry's division (one of its event's ``divisions``); empty: none."""
    created_at: datetime = _created()


class FlightEntry(SQLModel, table=True):
    """An entry's place in one flight."""

    __tablename__ = "flight_entries"
    __table_args__ = (UniqueConstraint("flight_id", "entry_id"),)

    id: int | None = Field(default=None, primary_key=True)
    flight_id: int = Field(foreign_key="flights.id", index=True, ondelete="CASCADE")
    entry_id: int = Field(foreign_key="entries.id", index=True, ondelete="CASCADE")
    seed: int | None = Field(default=None)
    status: EntryStatus = Field(
        default=EntryStatus.ACTIVE, sa_column=Column(StoredEnum(EntryStatus, 16), nullable=False)
    )
    late: bool = Field(default=False)
    initial_wins: int = Field(default=0)
    """A late Swiss entry's starting record, as set by the director."""
    initial_losses: int = Field(default=0)
    fed_from_flight_id: int | None = Field(default=None, foreign_key="flights.id")
    fed_from_round: int | None = Field(default=None)
    pool: int | None = Field(default=None)
    """The entry's pool in a round robin split into pools (from 0)."""
    origin: str = Field(default="", max_length=20)
    """Where a knockout's qualifier finished in its qualifying stage: ``A1``, ``Swiss 3rd``."""
    created_at: datetime = _created()


class Round(SQLModel, table=True):
    """One round of a flight."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("flight_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    flight_id: int = Field(foreign_key="flights.id", index=True, ondelete="CASCADE")
    number: int
    name: str = Field(default="", max_length=40)
    match_length: int
    status: RoundStatus = Field(
        default=RoundStatus.DRAFT, sa_column=Column(StoredEnum(RoundStatus, 16), nullable=False)
    )
    pairing_seed: str | None = Field(default=None, max_length=40)
    created_at: datetime = _created()
    published_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    deadline_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """Rounds played over days: matches unreported by then go to the director's queue."""
    deadline_reminded_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """When the reminder mails before the deadline were queued (once per deadline)."""


_match_version = Column("version", Integer, nullable=False, default=1)


class Match(SQLModel, table=True):
    """A match to N between two flight entries, or one and a bye (``entry_b_id`` empty).

    ``version`` is SQLAlchemy's version counter: an update from a session holding an
    older version fails instead of overwriting a newer result.
    """

    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("round_id", "position"),)
    __mapper_args__: ClassVar[dict[str, Any]] = {"version_id_col": _match_version}

    id: int | None = Field(default=None, primary_key=True)
    flight_id: int = Field(foreign_key="flights.id", index=True, ondelete="CASCADE")
    round_id: int = Field(foreign_key="rounds.id", index=True, ondelete="CASCADE")
    position: int
    """Slot in the round (bracket order)."""
    bracket_key: str = Field(default="", max_length=60)
    """The knockout plan's match id (``Main/2/1``); empty for Swiss and round robin."""
    entry_a_id: int | None = Field(default=None, foreign_key="flight_entries.id")
    entry_b_id: int | None = Field(default=None, foreign_key="flight_entries.id")
    table_label: str = Field(default="", max_length=20)
    match_length: int
    status: MatchStatus = Field(
        default=MatchStatus.PENDING, sa_column=Column(StoredEnum(MatchStatus, 16), nullable=False)
    )
    score_a: int = Field(default=0)
    score_b: int = Field(default=0)
    start_a: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """The score side ``a`` starts from (a handicap start); 0 normally."""
    start_b: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    start_fixed: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """Whether the director set the start by hand (else the flight's division rule sets
    it while the match has no games)."""
    winner_entry_id: int | None = Field(default=None, foreign_key="flight_entries.id")
    result_source: str = Field(default="", max_length=16)
    """How the result came in: ``games``, ``score``, ``record``, ``walkover`` or ``bye``."""
    fixture_id: int | None = Field(
        default=None, foreign_key="fixtures.id", index=True, ondelete="CASCADE"
    )
    """A board match of a team fixture (none: a match between two players)."""
    board: int | None = Field(default=None)
    """The board of the fixture, 1 = the top board."""
    winner_to_match_id: int | None = Field(default=None, foreign_key="matches.id")
    winner_to_slot: str = Field(default="", max_length=1)
    loser_to_match_id: int | None = Field(default=None, foreign_key="matches.id")
    loser_to_slot: str = Field(default="", max_length=1)
    version: int = Field(default=1, sa_column=_match_version)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class VenueScreen(SQLModel, table=True):
    """How an event's venue screen (the projector page) runs: which panels it rotates
    through, how long each stays, the director's announcement and the round clock's
    deadline. An event without a row shows the defaults."""

    __tablename__ = "venue_screens"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", unique=True, ondelete="CASCADE")
    panels: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    """Keys of the screen's panels in order (``tourney.store.screens.PANELS``)."""
    rotation_seconds: int = Field(default=20)
    announcement: str = Field(default="", sa_type=Text)
    clock_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """The round clock counts down to this time; none: to the round's expected end."""
    updated_at: datetime = _created()


class Team(SQLModel, table=True):
    """A team of an event: 2-7 players (its :class:`TeamMember` rows) in board order."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("event_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=80)
    seed: int | None = Field(default=None)
    created_at: datetime = _created()


class TeamMember(SQLModel, table=True):
    """A player's (or a pair's) entry in a team, at its place in the board order."""

    __tablename__ = "team_members"
    __table_args__ = (UniqueConstraint("team_id", "board"), UniqueConstraint("entry_id"))

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = Field(foreign_key="teams.id", index=True, ondelete="CASCADE")
    entry_id: int = Field(foreign_key="entries.id", ondelete="CASCADE")
    board: int
    """Place in the team's board order, 1 = the top board."""


class Fixture(SQLModel, table=True):
    """Two teams meeting in a round of a team flight (or one team's bye): its board
    matches are :class:`Match` rows pointing here."""

    __tablename__ = "fixtures"
    __table_args__ = (UniqueConstraint("round_id", "position"),)

    id: int | None = Field(default=None, primary_key=True)
    flight_id: int = Field(foreign_key="flights.id", index=True, ondelete="CASCADE")
    round_id: int = Field(foreign_key="rounds.id", index=True, ondelete="CASCADE")
    position: int
    bracket_key: str = Field(default="", max_length=60)
    """A knockout's planned match id (``main/2/1``); empty in a Swiss or round robin."""
    team_a_id: int = Field(foreign_key="teams.id", index=True)
    team_b_id: int | None = Field(default=None, foreign_key="teams.id", index=True)
    """None: a bye."""
    status: MatchStatus = Field(
        default=MatchStatus.READY, sa_column=Column(StoredEnum(MatchStatus, 16), nullable=False)
    )
    boards_a: int = Field(default=0)
    boards_b: int = Field(default=0)
    points_a: int = Field(default=0)
    """Board points: each board's points capped at its match length, added up."""
    points_b: int = Field(default=0)
    winner_team_id: int | None = Field(default=None, foreign_key="teams.id")
    decided_by: str = Field(default="", max_length=16)
    """``tourney.formats.teams.DecidedBy``; empty until decided."""


class UploadedRecord(SQLModel, table=True):
    """A match record file as uploaded, with the validator's report."""

    __tablename__ = "uploaded_records"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int | None = Field(default=None, foreign_key="matches.id", index=True)
    filename: str = Field(default="", max_length=255)
    original_text: str = Field(sa_type=Text)
    report: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    is_valid: bool = Field(default=False)
    uploaded_by_id: int | None = Field(default=None, foreign_key="users.id")
    uploaded_at: datetime = _created()


class AnalysisJob(SQLModel, table=True):
    """A request to analyse an uploaded match record, worked off by ``tourney worker``.

    ``status`` goes queued -> running -> done (``result`` holds the figures) or failed
    (``error`` says why). Requests only add rows; the analysis never runs in a request.
    """

    __tablename__ = "analysis_jobs"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True, ondelete="CASCADE")
    upload_id: int = Field(foreign_key="uploaded_records.id", ondelete="CASCADE")
    plies: int = Field(default=0)
    status: str = Field(default="queued", max_length=16, index=True)
    result: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    error: str = Field(default="", sa_type=Text)
    requested_by_id: int | None = Field(default=None, foreign_key="users.id")
    created_at: datetime = _created()
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Game(SQLModel, table=True):
    """One game of a match, as DESIGN §3 describes a hand-entered game."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True, ondelete="CASCADE")
    number: int
    winner: str | None = Field(default=None, max_length=1)
    """``a`` or ``b``: the side of the match that won; none for a drawn game."""
    end: str = Field(max_length=16)
    cube_exponent: int = Field(default=0)
    """Cube value as a power of two: 0 = 1, 3 = 8. For a drop, the value before the double."""
    level: str | None = Field(default=None, max_length=16)
    points: int
    """What the winner scored."""
    is_crawford: bool = Field(default=False)
    variant: str | None = Field(default=None, max_length=32)
    """The variant the game was played in (its event's, or its turn in a match form)."""
    record_id: int | None = Field(default=None, foreign_key="uploaded_records.id")
    created_at: datetime = _created()


class AuditEntry(SQLModel, table=True):
    """Who changed what, when, with the state before and after."""

    __tablename__ = "audit_entries"

    id: int | None = Field(default=None, primary_key=True)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, index=True)
    actor_id: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    actor_label: str = Field(max_length=254)
    action: str = Field(max_length=64)
    """Dotted verb: ``event.create``, ``entry.withdraw`` ..."""
    entity_type: str = Field(max_length=32)
    entity_id: int | None = Field(default=None)
    event_id: int | None = Field(default=None, index=True)
    """Not a foreign key: the log outlives what it describes."""
    match_id: int | None = Field(default=None, index=True)
    before: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    after: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    imported: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    """Copied from an event file: history of another database, its actor only a name
    (never linked to a local account)."""


class MoneySession(SQLModel, table=True):
    """A money session of an event: two players, or a chouette, for a stake (DESIGN §7).

    Its settings are fixed when it starts; its games are :class:`MoneyGame` rows.
    """

    __tablename__ = "money_sessions"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=120)
    is_chouette: bool = Field(default=False)
    stake_mode: str = Field(max_length=16)
    """The key of a stake mode of ``tourney.formats.money``: per point, game or checker."""
    stake_minor: int
    """What one stake unit is worth, in minor units of ``currency`` (cents)."""
    currency: str = Field(max_length=3)
    jacoby: bool = Field(default=False)
    beavers: bool = Field(default=False)
    raccoons: bool = Field(default=False)
    automatic_doubles: int = Field(default=0)
    """At most this many automatic doubles a game; 0: none."""
    cube_limit: int | None = Field(default=None)
    team_cube: bool = Field(default=False)
    """A chouette's team plays one cube, the captain's, instead of one each."""
    end_difference: int | None = Field(default=None)
    """The session ends once one side is this many units ahead; none: by agreement."""
    ends_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """The session ends at this time; none: no time set."""
    ended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    ended_how: str = Field(default="", max_length=120)
    created_at: datetime = _created()


class MoneySeat(SQLModel, table=True):
    """A player of a money session, in seat order (a chouette: box first, then captain
    and the line as it starts)."""

    __tablename__ = "money_seats"
    __table_args__ = (
        UniqueConstraint("session_id", "seat"),
        UniqueConstraint("session_id", "player_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="money_sessions.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="players.id", index=True)
    seat: int


class MoneyGame(SQLModel, table=True):
    """One game of a money session against one opponent of the box (two players: the
    second seat). A chouette game has one row per team member, sharing its number."""

    __tablename__ = "money_games"
    __table_args__ = (UniqueConstraint("session_id", "number", "member_id"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="money_sessions.id", index=True, ondelete="CASCADE")
    number: int
    box_id: int = Field(foreign_key="players.id")
    """The player against the team (two players: the first seat)."""
    member_id: int = Field(foreign_key="players.id")
    is_captain: bool = Field(default=True)
    box_won: bool
    end: str = Field(max_length=16)
    level: int = Field(default=1)
    """1 single, 2 gammon, 3 backgammon."""
    cube: int = Field(default=1)
    centred: bool = Field(default=True)
    checkers_left: int = Field(default=0)
    units: int
    """Stake units the loser paid the winner in this game."""
    created_at: datetime = _created()


class Season(SQLModel, table=True):
    """A season of a club: some of its events, and how their results become points."""

    __tablename__ = "seasons"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="clubs.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=120)
    scoring: str = Field(max_length=16)
    """``place``: points by finishing place; ``wins``: a point per match won."""
    points_table: list[int] = Field(default_factory=list, sa_column=Column(JSON))
    """Points for places 1, 2, 3 ... (``place`` scoring)."""
    best: int | None = Field(default=None)
    """Only a player's best this many events count; none: all."""
    created_at: datetime = _created()


class SeasonEvent(SQLModel, table=True):
    """An event of a season, in the season's order."""

    __tablename__ = "season_events"
    __table_args__ = (UniqueConstraint("season_id", "event_id"),)

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="seasons.id", index=True, ondelete="CASCADE")
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    position: int


class FlightMoney(SQLModel, table=True):
    """A flight's club money (DESIGN §8): its fees, side pools, retention, sponsor and
    payout table; the arithmetic is :mod:`tourney.formats.prizes`. Amounts are in minor
    units of ``currency``."""

    __tablename__ = "flight_money"

    id: int | None = Field(default=None, primary_key=True)
    flight_id: int = Field(foreign_key="flights.id", unique=True, ondelete="CASCADE")
    currency: str = Field(default="EUR", max_length=3)
    entry_fee: int = Field(default=0)
    """Due from every entry of the event (a flight fed from another: none, they enter
    through buy-backs)."""
    buyback_fee: int = Field(default=0)
    """What a buy-back into this flight (a consolation, a last chance) costs; 0: none."""
    retention_percent: int = Field(default=0)
    sponsor: int = Field(default=0)
    """Added to the prize fund after retention."""
    payout_table: list[Any] = Field(default_factory=list, sa_column=Column(JSON))
    """``[[smallest field, [percent by place ...]], ...]`` (``prizes.PayoutTable``)."""
    side_pools: list[Any] = Field(default_factory=list, sa_column=Column(JSON))
    """``[{"name": str, "fee": int, "payout_table": [...]}, ...]`` in display order."""
    hide_amounts: bool = Field(default=False)
    """Public pages show the prize structure in percentages only, never amounts."""
    points_factor: int | None = Field(default=None)
    """ABT-style points: players × this percent, shared by ``points_table``; none: no
    points."""
    points_table: list[int] = Field(default_factory=list, sa_column=Column(JSON))
    """Percentages of the points by place."""
    refund_policy: str = Field(default="before_draw", max_length=16)
    """What a withdrawal refunds (``club_money.REFUND_POLICIES``): ``before_draw``, the
    fees paid into this flight while it is not drawn; ``none``, nothing by itself."""


class MoneyItem(SQLModel, table=True):
    """One fee of one entry in the ledger: an entry fee, a side pool, a buy-back; with
    its payment and refund. An entry fee has a row only once something happened to it
    (paid, refunded); until then it is due from every active entry."""

    __tablename__ = "money_items"
    __table_args__ = (UniqueConstraint("flight_id", "entry_id", "kind", "pool"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    flight_id: int = Field(foreign_key="flights.id", index=True, ondelete="CASCADE")
    entry_id: int = Field(foreign_key="entries.id", index=True, ondelete="CASCADE")
    kind: str = Field(max_length=16)
    """``entry``, ``pool`` or ``buyback``."""
    pool: str = Field(default="", max_length=60)
    """The side pool's name (``pool`` items)."""
    amount: int
    """The fee, fixed when the item was made."""
    paid: int = Field(default=0)
    paid_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    method: str = Field(default="", max_length=16)
    """How it was paid: ``cash``, ``transfer`` or ``other``."""
    refunded: int = Field(default=0)
    refunded_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    cancelled: bool = Field(default=False)
    """No longer due (the player withdrew before the draw)."""
    reversed: int = Field(default=0)
    """Payments marked by mistake and taken back, in total: the ledger shows them."""
    reversed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = _created()
