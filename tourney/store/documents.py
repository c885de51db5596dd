"""Document models: what the printed and exported documents of an event show.

Plain frozen dataclasses without database access: the store builds them
(:mod:`tourney.store.event_documents`) and so does the pure format code
(:mod:`tourney.exports.documents`); the renderers in :mod:`tourney.exports` read only these,
never a database row or a format object.

Terminology:

* An :class:`EventDocument` is a whole event: its players and flights.
* A :class:`FlightDocument` is one flight (main draw, consolation, last chance, a Swiss,
  a round robin) with its rounds and standings; a knockout flight is printed as a
  *drawsheet*.
* A :class:`SideDocument` is one side of a match: a player, or nobody yet, with a *note*
  saying where the side comes from ("Loser of Main R1 M3", "Winner of R2 M1") or that it
  is a bye. A side that is settled (a player, a bye, or nobody in a void match) has no
  such note: a finished bracket shows names and byes only.
* A match's *feeders* are the keys of the matches of the same flight whose winners fill
  its two sides; the drawsheet joins them with lines.
* A match's *loser_to* names the flight its loser goes to (consolation, last chance).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from tourney.formats.tiebreaks import tiebreak_of_metric
from tourney.rules.match_forms import SINGLE
from tourney.rules.messages import N_
from tourney.rules.variants import DEFAULT_OPTIONS, DEFAULT_VARIANT, VariantOptions


@dataclass(frozen=True, slots=True)
class PlayerDocument:
    """A player entered in the event."""

    id: int
    name: str
    country: str = ""
    rating: float | None = None
    seed: int | None = None
    club: str = ""


@dataclass(frozen=True, slots=True)
class GameDocument:
    """One game of a match as the score sheet and the Games sheet show it."""

    number: int
    winner: str | None
    """``"a"`` or ``"b"``; ``None`` for a drawn game (long nardy's last-roll draw)."""
    end: str
    """``played``, ``dropped``, ``resigned`` or ``drawn``."""
    cube: int
    """The cube value (for a drop: the value before the refused double)."""
    level: str | None
    """``single``, ``gammon``, ``backgammon``; ``None`` for a dropped double."""
    points: int
    score_after: tuple[int, int]
    crawford: bool = False
    """Whether this was the Crawford game (no doubling)."""


@dataclass(frozen=True, slots=True)
class SideDocument:
    """One side of a match."""

    name: str | None = None
    """The player's name, or ``None`` while unknown or empty."""
    player_id: int | None = None
    seed: int | None = None
    note: str = ""
    """Where an unknown side comes from, or ``"bye"``."""
    origin: str = ""
    """Where a knockout's qualifier finished in its stage (``A1``, ``Swiss 3rd``)."""

    @property
    def mark(self) -> str:
        """What stands before the name on a drawsheet: the origin, else the seed."""
        if self.origin:
            return self.origin
        return "" if self.seed is None else str(self.seed)


@dataclass(frozen=True, slots=True)
class MatchDocument:
    """One match (or bye) of a round."""

    key: str
    """A stable key, unique in the event (``main/2/3``)."""
    flight: str
    round: int
    round_name: str
    number: int
    """Position in the round, from 1 (bracket order for knockouts)."""
    length: int
    a: SideDocument
    b: SideDocument
    status: str
    """``pending``, ``ready``, ``playing``, ``finished``, ``walkover``, ``bye`` or ``void``."""
    table: str = ""
    winner: str | None = None
    """``"a"``, ``"b"`` or ``None`` while undecided."""
    score: tuple[int, int] | None = None
    games: tuple[GameDocument, ...] = ()
    feeders: tuple[str | None, str | None] = (None, None)
    """Keys of the same-flight matches whose winners fill sides a and b."""
    loser_to: str | None = None
    """The flight the loser goes to, if any."""
    url: str | None = None
    """The match's public page, for the score sheet's QR code."""
    start: tuple[int, int] = (0, 0)
    """The score the match starts from (a handicap start); 0-0 normally."""

    @property
    def has_handicap(self) -> bool:
        """Whether the match starts from a score other than 0-0."""
        return self.start != (0, 0)

    clock: tuple[int, int] | None = None
    """The flight's clock: each player's seconds per point of match length and the
    delay per move in seconds (none: no clock printed)."""

    @property
    def clock_text(self) -> str:
        """The score sheet's clock line: ``Clock: 14 min each + 12 s delay a move``."""
        if self.clock is None:
            return ""
        per_point, delay = self.clock
        return f"Clock: {per_point * self.length / 60:g} min each + {delay} s delay a move"

    @property
    def is_bye(self) -> bool:
        """Whether one side goes through without a match."""
        return self.status == "bye"

    @property
    def is_playable(self) -> bool:
        """Whether both players are known and the match is not a bye or void."""
        return (
            self.a.name is not None
            and self.b.name is not None
            and self.status
            not in (
                "bye",
                "void",
            )
        )

    @property
    def is_ready_to_play(self) -> bool:
        """Whether both players are known and the match is not finished: it can be played
        now (or is being played)."""
        return self.is_playable and self.status in ("ready", "playing")

    @property
    def winner_name(self) -> str | None:
        """The winner's name, once decided."""
        if self.winner == "a":
            return self.a.name
        if self.winner == "b":
            return self.b.name
        return None


@dataclass(frozen=True, slots=True)
class RoundDocument:
    """One round of a flight."""

    number: int
    name: str
    length: int
    """Match length of the round's matches (the longest, if they differ)."""
    matches: tuple[MatchDocument, ...]
    losers_to: str | None = None
    is_draft: bool = False
    """Drawn or paired but not published yet: nobody plays it before it is."""
    """The flights this round's losers go to, as a short text (``Consolation``)."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One row of a flight's standings."""

    player_id: int
    name: str
    rank: int
    tied: bool
    metrics: tuple[tuple[str, int], ...]
    """Column label and value: match wins first, then the tiebreaks."""
    reason: str | None = None
    note: str = ""
    """For a knockout: the round the player went out in (or ``Winner``)."""

    @property
    def display_rank(self) -> str:
        """The rank as printed: ``"=3"`` when shared."""
        return f"={self.rank}" if self.tied else str(self.rank)


@dataclass(frozen=True, slots=True)
class FlightDocument:
    """One flight with its rounds and standings."""

    name: str
    format: str
    """``knockout``, ``double-elimination``, ``swiss`` or ``roundrobin``."""
    rounds: tuple[RoundDocument, ...]
    standings: tuple[StandingRow, ...] = ()
    fed_from: str = ""
    """A text saying who enters this flight (``Losers of Main round 1``)."""
    champion: str | None = None
    drawn: bool = True
    """``False`` for a fresh draw not made yet (its rounds are blank placeholders)."""
    entrant_label: str = "Player"
    """What a standings row is: a ``Player``, or a ``Team`` in a team flight."""
    division_standings: tuple[DivisionStandings, ...] = ()
    """A mixed flight that ranks each division separately: each division's table."""

    @property
    def is_bracket(self) -> bool:
        """Whether the flight prints as a drawsheet."""
        return self.format in ("knockout", "double-elimination")

    @property
    def metric_labels(self) -> tuple[str, ...]:
        """The standings' metric column labels, in order."""
        return tuple(label for label, _ in self.standings[0].metrics) if self.standings else ()


@dataclass(frozen=True, slots=True)
class DivisionStandings:
    """One division's players of a mixed flight, in the flight's order, with their
    places among themselves."""

    name: str
    standings: tuple[StandingRow, ...]


@dataclass(frozen=True, slots=True)
class EventDocument:
    """An event as all its documents show it."""

    name: str
    slug: str
    players: tuple[PlayerDocument, ...]
    flights: tuple[FlightDocument, ...]
    starts_on: date | None = None
    venue: str = ""
    url: str | None = None
    """The event's public page, for the pairing lists' QR code."""
    rules: tuple[str, ...] = field(default=())
    """Short texts of the rules in force (``Crawford rule``)."""
    variant: str = DEFAULT_VARIANT.name
    """The variant's name (``long-nardy``): sheets name it and use its result words."""
    variant_options: VariantOptions = DEFAULT_OPTIONS
    """The event's options for its variant: which levels score, whether the cube is used."""
    variant_summary: str = ""
    """The variant and its options in one line ("Long nardy · cube on, Crawford · koks
    scores 3"), or the match form of several variants; empty: the variant's title."""
    match_form: str = SINGLE.name
    """The match form's name: score sheets name each game's variant where it has several."""

    def flight(self, name: str) -> FlightDocument:
        """The flight with this name.

        Raises:
            KeyError: no flight has that name.
        """
        for flight in self.flights:
            if flight.name == name:
                return flight
        raise KeyError(name)


# --- labels --------------------------------------------------------------------------

WINS_LABEL = N_("Wins")
"""The column label of the match wins in standings."""
FIXTURE_WINS_LABEL = N_("Fixtures won")
BOARD_WINS_LABEL = N_("Boards won")
BOARD_POINTS_LABEL = N_("Board points")
"""The column labels of a team flight's standings before its tiebreaks."""


def metric_label(metric_key: str) -> str:
    """The column label of a standings metric computed by :mod:`tourney.formats`: match
    wins, or a tiebreak's short name (printed columns are narrow)."""
    return WINS_LABEL if metric_key == "wins" else tiebreak_of_metric(metric_key).short_name



@dataclass(frozen=True)
class SheetTable:
    """A titled table of a printed sheet: headers and rows of text and numbers."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str | int, ...], ...]
    numeric: tuple[int, ...] = ()
    """The columns that hold numbers (printed right-aligned)."""


@dataclass(frozen=True)
class SettlementDocument:
    """A money session's settlement sheet: totals, every game and who pays whom."""

    stem: str
    """The file name without extension."""
    title: str
    lines: tuple[str, ...]
    """What the session was: event, stake, rules, how it ended."""
    tables: tuple[SheetTable, ...]


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a team fixture's score sheet."""

    board: int
    a: str
    b: str
    length: int
    score: tuple[int, int] | None = None
    """The final score once the board is finished (none: boxes to fill in)."""


@dataclass(frozen=True, slots=True)
class FixtureSheet:
    """A team fixture's score sheet: one page listing its boards."""

    event_name: str
    event_slug: str
    flight_name: str
    round_name: str
    team_a: str
    team_b: str
    boards: tuple[BoardLine, ...]
    result: str = ""
    """``2–1``, with how it was decided, once finished; empty before."""
