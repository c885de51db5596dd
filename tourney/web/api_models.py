"""The JSON API's request and response schemas (pydantic).

The endpoints validate request bodies with the ``*In`` models and build every response
from the ``*Out`` models, and ``/api/v1/openapi.json`` is generated from these same
classes, so the document cannot drift from what the API does.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tourney.formats.tiebreaks import TIEBREAKS
from tourney.rules.match_forms import registered_match_forms
from tourney.rules.variants import registered_variants

MAX_ID = 2**31 - 1
"""Ids are 32-bit integers in the database; larger path values are simply not found."""

TiebreakKey = Annotated[str, Field(json_schema_extra={"enum": [t.key for t in TIEBREAKS]})]
"""A tiebreak's key; the OpenAPI document lists the registered ones."""


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


def _variant_names(schema: dict[str, Any]) -> None:
    """List the registered variants' names in a field's schema (as an enum)."""
    schema["enum"] = [variant.name for variant in registered_variants()]


VariantName = Annotated[str, Field(json_schema_extra=_variant_names)]
"""The name of a registered variant (``tourney rules variants`` lists them)."""


def _match_form_names(schema: dict[str, Any]) -> None:
    """List the registered match forms' names in a field's schema (as an enum)."""
    schema["enum"] = [form.name for form in registered_match_forms()]


MatchFormName = Annotated[str, Field(json_schema_extra=_match_form_names)]
"""The name of a registered match form (``single``: every game in the event's variant)."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- responses -----------------------------------------------------------------------


class ErrorBody(_Out):
    """What went wrong."""

    status: int
    message: str
    field: str | None = None
    """The request field the message is about, when there is one."""


class ErrorOut(_Out):
    """Every error answer of the API."""

    error: ErrorBody


class EventOut(_Out):
    """One line of ``GET /api/v1/events``."""

    id: int
    slug: str
    name: str
    starts_on: date | None
    status: str
    venue: str | None
    club: str | None
    entries: int
    flights: int
    url: str


class RulesOut(_Out):
    """An event's rule flags (DESIGN §3)."""

    crawford: bool
    holland: bool
    cube_limit: int | None
    money_play: bool
    jacoby: bool


class VariantOptionsOut(_Out):
    """The options an event plays its variant by, as in force (defaults filled in)."""

    gammons: bool
    """Whether gammons and backgammons (long nardy: mars and koks) score more than single."""
    cube: bool
    """Whether the doubling cube is used."""
    crawford: bool
    """Whether the Crawford rule applies (never without the cube)."""
    koks: bool
    """Long nardy: a koks scores 3 (otherwise 2, as a mars)."""
    last_roll_draw: bool
    """Long nardy: the second player's last roll can draw the game."""
    strict_block: bool
    """Long nardy: a six-point block only once an opposing checker has reached its home."""
    next_game_starter: Literal["roll", "winner", "alternate"]
    """Who opens the next game of a match."""
    five_checker_limit: bool = False
    """Backgammon house rule: at most five checkers on a point."""
    no_hit_and_run_at_home: bool = False
    """Backgammon house rule: a checker that hits in its home board stops there."""
    opening_higher_total: bool = False
    """Backgammon house rule: each player rolls two dice; the higher total plays them."""


class FlightOut(_Out):
    """A flight's settings."""

    id: int
    name: str
    format: str
    status: str
    match_length: int
    round_lengths: dict[str, int]
    feeds_from: int | None
    swiss_rounds: int | None
    swiss_lives: int | None
    tiebreaks: list[TiebreakKey]
    draw_method: str
    draw_seed: str | None
    pools: int | None = None
    """A round robin played in this many pools side by side (none: one table)."""
    qualifies_from: int | None = None
    """The qualifying stage (a round robin or a Swiss) a knockout takes its field from."""
    qualifiers: int | None = None
    """How many qualify from each pool of ``qualifies_from`` (from its Swiss)."""
    cut_ties: str | None = None
    """How a tie at the cut is resolved: ``tiebreaks``, or ``director`` (a playoff)."""
    boards: int | None = None
    """A team flight: teams meet in fixtures of this many board matches (none: players)."""


class EventDetailOut(_Out):
    """``GET /api/v1/events/{event_id}``."""

    id: int
    slug: str
    name: str
    starts_on: date | None
    ends_on: date | None
    status: str
    venue: str | None
    club: str | None
    version: int
    """The event's data version: it changes with every write (poll it to see changes)."""
    rules: RulesOut
    flights: list[FlightOut]
    variant: VariantName
    """The game the event is played in."""
    variant_summary: str
    """The variant and its options in one line: "Long nardy · cube on, Crawford"."""
    variant_options: VariantOptionsOut
    """The options the event plays its variant by."""
    match_form: MatchFormName
    """How a match is made: ``single`` (every game in ``variant``), or several variants
    in turn (``tavli``: Portes, Plakoto, Fevga)."""
    divisions: list[str] = Field(default_factory=list)
    """The event's divisions, strongest first."""
    draw_scoring: Literal["nothing", "half", "one"] = "nothing"
    """What a drawn game scores each player: 0-0, ½-½ or 1-1."""
    rules_summary: list[str] = Field(default_factory=list)
    """The event's rules as the public page lists them, house rules included."""


class PlayerRefOut(_Out):
    """A player in a match or a standings row."""

    entry_id: int
    name: str
    country: str
    seed: int | None
    withdrawn: bool
    origin: str = ""
    """Where a knockout's qualifier finished in its stage: ``A1``, ``Swiss 3rd``."""


class MatchOut(_Out):
    """A match in a round."""

    id: int
    flight_id: int
    round: int
    round_name: str
    table: str
    length: int
    status: Literal["pending", "ready", "playing", "finished", "walkover", "bye", "void"]
    a: PlayerRefOut | None
    b: PlayerRefOut | None
    a_placeholder: str
    b_placeholder: str
    score: list[int] = Field(min_length=2, max_length=2)
    winner: Literal["a", "b"] | None
    result_source: str
    loser_goes_to: str
    version: int
    """Send it back as ``expected_version`` so a change never overwrites a newer result."""
    start: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2)
    """The score the match starts from: 0-0, or a handicap start."""


class RoundOut(_Out):
    """A published round with its matches (the pairings, with tables)."""

    id: int
    number: int
    name: str
    status: str
    match_length: int
    matches: list[MatchOut]


class MetricOut(_Out):
    """One metric column's value: a tiebreak (by its name as a sentence reads it), or a
    knockout's round reached."""

    name: str
    value: int | float
    """Game points with ½-½ draws are a number of points such as 3.5."""


class StandingOut(_Out):
    """One standings row; ``display_rank`` is ``=3`` when the rank is shared."""

    rank: int
    display_rank: str
    tied: bool
    player: PlayerRefOut
    wins: int
    losses: int | None
    lives_left: int | None
    tiebreaks: list[MetricOut]
    status: str
    pool: str | None = None
    """The row's pool (``Pool A``) in a round robin of several pools; ranks are per pool."""
    qualifies: bool = False
    """Goes through to the knockout taking its field from this flight, as it stands."""


class DivisionStandingsOut(_Out):
    """One division's players of a mixed flight, in the overall order, ranked among
    themselves (a tie in the flight's table stays a tie)."""

    name: str
    standings: list[StandingOut]


class FlightStandingsOut(_Out):
    """A flight's standings."""

    id: int
    name: str
    format: str
    champion: PlayerRefOut | None
    standings: list[StandingOut]
    divisions: list[DivisionStandingsOut] = Field(default_factory=list)
    """A mixed flight that ranks each division separately: each division's table,
    strongest first; empty otherwise."""


class FlightRoundsOut(_Out):
    """A flight's published rounds."""

    id: int
    name: str
    format: str
    rounds: list[RoundOut]


class EventStandingsOut(_Out):
    """``GET /api/v1/events/{event_id}/standings``: per flight."""

    event_id: int
    version: int
    flights: list[FlightStandingsOut]


class EventPairingsOut(_Out):
    """``GET /api/v1/events/{event_id}/pairings``: per flight, every published round."""

    event_id: int
    version: int
    flights: list[FlightRoundsOut]


class EntryOut(_Out):
    """A player entered in an event."""

    id: int
    name: str
    country: str
    seed: int | None
    status: str


class GameOut(_Out):
    """One game with the running score."""

    number: int
    winner: Literal["a", "b"] | None
    """None for a drawn game (long nardy's last-roll draw)."""
    winner_name: str
    end: str
    cube: int
    level: str | None
    points: int
    score_after: str
    kind: str
    """normal, crawford or post-crawford."""
    variant: VariantName
    """The variant the game was played in (its turn's in a match of several)."""


class RecordOut(_Out):
    """An uploaded match record."""

    id: int
    filename: str
    valid: bool


class MatchDetailOut(_Out):
    """A match with its games."""

    match: MatchOut
    event_id: int
    flight_name: str
    rules: list[str]
    games: list[GameOut]
    crawford_game: int | None
    is_over: bool
    records: list[RecordOut]


class FindingOut(_Out):
    """A problem in an uploaded record, where the file has it."""

    game: int | None
    line: int | None
    message: str


class UploadOut(_Out):
    """What an upload did."""

    ok: bool
    record_id: int
    findings: list[FindingOut]
    match: MatchDetailOut


# --- requests ------------------------------------------------------------------------


class GameIn(_In):
    """The next game of a match, as DESIGN §3 describes a hand-entered game."""

    winner: Literal["a", "b"] | None = None
    """Required, except for a drawn game, which has no winner."""
    end: Literal["played", "dropped", "resigned", "drawn"]
    """``drawn`` only in a long-nardy event with the last-roll draw."""
    cube: int = Field(default=1, ge=1, le=2**30)
    """The cube in play at the end; for a drop, the value before the refused double."""
    level: Literal["single", "gammon", "backgammon"] | None = "single"
    """None for a dropped double; not used for a drawn game."""
    expected_version: int | None = Field(default=None, ge=0, le=MAX_ID)
    """The match's version as last read; required once the match has games or a result."""


class ScoreIn(_In):
    """A match's final score only."""

    score_a: int = Field(ge=0, le=10_000)
    score_b: int = Field(ge=0, le=10_000)
    expected_version: int | None = Field(default=None, ge=0, le=MAX_ID)


class RecordIn(_In):
    """A match record as text: ``.mat``, or gnubg's ``.sgf`` when ``filename`` ends so
    (the file name picks the reader)."""

    filename: str = Field(default="match.mat", max_length=255)
    content: str = Field(min_length=1, max_length=2 * 1024 * 1024)
    expected_version: int | None = Field(default=None, ge=0, le=MAX_ID)


# --- teams ---------------------------------------------------------------------------


class TeamMemberOut(_Out):
    """A team's player, or pair, at its place in the board order."""

    board: int
    name: str
    """A pair: ``Ann Lee & Bob Ray``."""
    players: list[int]
    """The roster ids of the player, or of both players of a pair."""


class TeamOut(_Out):
    """``GET /api/v1/events/{event_id}/teams``: a team with its board order."""

    id: int
    name: str
    seed: int | None
    members: list[TeamMemberOut]


class BoardOut(_Out):
    """One board of a fixture: an ordinary match (``/api/v1/matches/{match_id}``)."""

    board: int
    match_id: int
    a: str
    b: str
    length: int
    score: str
    status: str
    winner: Literal["a", "b"] | None


class FixtureOut(_Out):
    """``GET /api/v1/fixtures/{fixture_id}``: two teams meeting in a round, or a bye."""

    id: int
    flight_id: int
    round: int
    round_name: str
    a: str
    b: str | None
    """None: a bye."""
    status: str
    score: str
    """Boards won, ``2–1``; with board points where they decided: ``2–2 (14–11)``."""
    winner: str | None
    decided_by: str
    boards: list[BoardOut]


class TeamStandingOut(_Out):
    """One team's row in a team flight's standings."""

    rank: int
    tied: bool
    team: str
    fixture_wins: int
    board_wins: int
    board_points: int
    tiebreaks: dict[str, int]


class TeamFlightOut(_Out):
    """``GET /api/v1/flights/{flight_id}/fixtures``: standings and fixtures by round."""

    id: int
    name: str
    format: str
    status: str
    boards: int
    standings: list[TeamStandingOut]
    rounds: list[list[FixtureOut]]
