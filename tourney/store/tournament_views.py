"""Read models of the tournament itself: brackets, pairings, standings, match pages, dashboard.

Pages, the JSON API and exports get these frozen dataclasses, never ORM rows. Every value
a page shows is here already: names, the score as text, round names, byes and walkovers,
where a loser goes, the Crawford marks of games, and ``can_*`` flags for the buttons.

Entry points:
    ``flight_board(session, actor, flight_id)``   a flight: rounds with matches, standings
    ``public_flight_board(session, flight_id)``   the same without staff flags (no actor)
    ``match_detail(session, actor, match_id)``    one match with its games
    ``dashboard(session, actor, event_id)``       per flight: waiting / in play / finished
    ``event_boards(session, event_id)``           every flight of an event (public)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from tourney.formats import knockout as ko
from tourney.formats.flight_formats import (
    Action,
    FlightFormat,
    allowed_actions,
    feed_refusal,
    flight_format,
)
from tourney.formats.rounds import numbered_round_name, parse_round_name, the_round
from tourney.formats.stages import pool_name
from tourney.formats.standings import compute_standings, places_within
from tourney.formats.tiebreaks import Tiebreak
from tourney.i18n import DEFAULT_LANGUAGE
from tourney.match import (
    GameKind,
    HalfPoints,
    MatchRules,
    MatchState,
    ScoredGame,
    doubling_restriction,
    format_score,
)
from tourney.rules import Level
from tourney.rules.messages import N_, Message, PluralMessage, message_from_parts
from tourney.rules.variants import DEFAULT_OPTIONS, DEFAULT_VARIANT, STANDARD
from tourney.store import progress, stages
from tourney.store.audit import Actor
from tourney.store.db import READ_ONLY
from tourney.store.errors import NotFoundError
from tourney.store.permissions import can_manage_event, require_event
from tourney.store.plans import StoredPlan
from tourney.store.queries import FlightView, flight_view, rules_summary, tiebreak_chain
from tourney.store.record_moves import GameMoves, match_moves
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    Flight,
    FlightEntry,
    FlightStatus,
    Game,
    Match,
    MatchStatus,
    Player,
    Round,
    RoundStatus,
    UploadedRecord,
)
from tourney.store.variant_options import end_choices, result_choices, variant_summary

MATCH_STATUS_LABELS = {
    "pending": N_("Waiting for opponent"),
    "ready": N_("Ready to play"),
    "playing": N_("In play"),
    "finished": N_("Finished"),
    "walkover": N_("Walkover"),
    "bye": N_("Bye"),
    "void": N_("Not played"),
}
END_LABELS = {
    "played": N_("Played out"),
    "dropped": N_("Double dropped"),
    "resigned": N_("Resigned"),
    "drawn": N_("Drawn (last roll)"),
}
ENTRY_STATUS_LABELS = {
    "active": N_("Active"),
    "withdrawn": N_("Withdrawn"),
    "eliminated": N_("Eliminated"),
}
KIND_LABELS = {"normal": "", "crawford": N_("Crawford game"), "post-crawford": N_("Post-Crawford")}
CUBE_VALUES = tuple(2**exponent for exponent in range(13))
"""The cube values a game can be corrected to (1 to 4096, as the game form offers)."""
END_CHOICES = end_choices(DEFAULT_VARIANT.name, DEFAULT_OPTIONS)
RESULT_CHOICES = result_choices(DEFAULT_VARIANT.name, DEFAULT_OPTIONS)
DRAWN_NAME = "Drawn"
"""What a drawn game shows where a game shows its winner."""


@dataclass(frozen=True)
class PlayerRef:
    """A player as a match or standings row shows them."""

    entry_id: int
    flight_entry_id: int
    name: str
    country: str
    seed: int | None
    withdrawn: bool
    origin: str = ""
    """Where a knockout's qualifier finished in its qualifying stage: ``A1``, ``Swiss 3rd``."""
    pool: str = ""
    """``Pool A`` in a round robin of several pools."""


@dataclass(frozen=True)
class MatchSummary:
    """One match of a round, ready to show in a bracket or a pairings list."""

    id: int
    flight_id: int
    round_id: int
    round_number: int
    round_name: str
    position: int
    bracket_key: str
    """The plan's id (``Main/2/1``) for knockout matches; empty otherwise."""
    table: str
    length: int
    status: str
    """pending, ready, playing, finished, walkover, bye or void."""
    status_label: str
    a: PlayerRef | None
    b: PlayerRef | None
    a_placeholder: str
    """What fills side a while it is unknown: ``Winner of Round 1 match 3``."""
    b_placeholder: str
    score_a: int
    score_b: int
    score_text: str
    """``5-3``; empty before the first game and for byes."""
    winner: str | None
    """``a``, ``b`` or none."""
    result_source: str
    """games, score, record, walkover or bye."""
    loser_goes_to: str
    """The flight the loser enters (``Consolation``), or empty: out."""
    version: int
    # --- handicap start (house rules) ---
    start_a: int = 0
    start_b: int = 0
    """The score the match starts from (a handicap start); 0-0 normally."""

    @property
    def has_handicap(self) -> bool:
        """Whether the match starts from a score other than 0-0."""
        return bool(self.start_a or self.start_b)

    @property
    def start_text(self) -> str:
        """The starting score as a director writes it ("1-0"); empty for 0-0."""
        return format_score((self.start_a, self.start_b)) if self.has_handicap else ""

    @property
    def is_bye(self) -> bool:
        """One player goes through without a match."""
        return self.status == MatchStatus.BYE.value

    @property
    def is_walkover(self) -> bool:
        """Decided without play (withdrawal or forfeit)."""
        return self.status == MatchStatus.WALKOVER.value

    @property
    def is_done(self) -> bool:
        """Has a winner (played, walkover or bye)."""
        return self.winner is not None

    @property
    def winner_ref(self) -> PlayerRef | None:
        """The winner, when decided."""
        return self.a if self.winner == "a" else self.b if self.winner == "b" else None

    @property
    def is_void(self) -> bool:
        """A bracket slot nobody reached: never played, never shown to players."""
        return self.status == MatchStatus.VOID.value

    @property
    def is_playing(self) -> bool:
        """Under way: a game has been entered, the match is not decided."""
        return self.status == MatchStatus.PLAYING.value

    @property
    def is_finished(self) -> bool:
        """Decided at the board (not by walkover or bye)."""
        return self.status == MatchStatus.FINISHED.value

    @property
    def awaits_result(self) -> bool:
        """Both players known and no result yet: ready to play or under way."""
        return self.status in (MatchStatus.READY.value, MatchStatus.PLAYING.value)

    @property
    def has_page(self) -> bool:
        """Has a match page to open (a bye and a void slot have none)."""
        return self.status not in (MatchStatus.VOID.value, MatchStatus.BYE.value)

    @property
    def by_final_score(self) -> bool:
        """Decided by a final score entered in one line."""
        return self.result_source == "score"

    @property
    def by_record(self) -> bool:
        """Decided by an uploaded match record."""
        return self.result_source == "record"

    @property
    def side_a(self) -> MatchSide:
        """Side a: its player (or what fills the seat), points and whether it won."""
        return MatchSide(self.a, self.a_placeholder, self.score_a, self.winner == "a")

    @property
    def side_b(self) -> MatchSide:
        """Side b, as ``side_a``."""
        return MatchSide(self.b, self.b_placeholder, self.score_b, self.winner == "b")

    @property
    def sides(self) -> tuple[MatchSide, MatchSide]:
        """Both sides, a first."""
        return self.side_a, self.side_b


@dataclass(frozen=True)
class MatchSide:
    """One side of a match as a bracket or a pairings list shows it."""

    player: PlayerRef | None
    placeholder: str
    """What fills the seat while its player is unknown, or empty."""
    score: int
    won: bool


@dataclass(frozen=True)
class RoundView:
    """A round with its matches in board order (the pairings list, with tables)."""

    id: int
    number: int
    name: str
    status: str
    match_length: int
    matches: tuple[MatchSummary, ...]
    can_repair: bool
    """A Swiss round without results may be paired again."""

    @property
    def is_draft(self) -> bool:
        """Drawn or paired, not published yet."""
        return self.status == RoundStatus.DRAFT.value


@dataclass(frozen=True)
class StandingsColumn:
    """A metric column of a standings table: how to head it and what it means."""

    heading: str
    short_heading: str
    """For narrow tables (a phone): ``Buch.``."""
    explanation: str
    """What the value means, in one sentence a player understands."""

    @classmethod
    def from_tiebreak(cls, tiebreak: Tiebreak) -> StandingsColumn:
        """The column of a tiebreak's values."""
        return cls(tiebreak.title, tiebreak.short_name, tiebreak.explanation)


ROUND_REACHED = StandingsColumn(
    N_("Round reached"),
    N_("Round reached"),
    N_("The last round of the flight the player played in."),
)
"""A knockout's metric column."""


@dataclass(frozen=True)
class StandingRow:
    """One row of a flight's standings."""

    rank: int
    display_rank: str
    """``=3`` when shared."""
    tied: bool
    player: PlayerRef
    wins: int
    losses: int | None
    """None in a knockout (one loss ends a flight)."""
    metrics: tuple[tuple[str, int], ...]
    """(name, value) of each metric column (a tiebreak's name as a sentence reads it),
    in the order of the board's ``columns``."""
    reason: str
    """Why the row above is ahead of this one on equal wins ("Ann ahead on Buchholz 11 to
    9"), or empty: a note sits on the lower row of the pair it separates."""
    status: str
    """active, eliminated or withdrawn."""
    status_label: str = ""
    """What the status column shows: "Champion", "Out in the Semifinal", "Withdrawn" ..."""
    is_winner: bool = False
    """Won the flight: its champion (a fed flight's winner)."""
    lives_left: int | None = None
    """Losses still allowed in a Swiss played by lives; none in other flights."""
    qualifies: bool = False
    """Goes through to the knockout that takes its field from this flight (as the table
    stands now)."""
    tied_at_cut: bool = False
    """Shares the place at the cut, and the director decides who goes through."""
    pool: str = ""
    """``Pool A`` in a round robin of several pools (the rank is within the pool)."""

    @property
    def shows_status_note(self) -> bool:
        """The public standings note the player's status: out, withdrawn, or the winner."""
        return self.status != EntryStatus.ACTIVE.value or self.is_winner


@dataclass(frozen=True)
class PoolTable:
    """One pool of a round robin with its standings."""

    label: str
    """``Pool A``."""
    rows: tuple[StandingRow, ...]


@dataclass(frozen=True)
class DivisionTable:
    """One division's players of a mixed flight, in the overall order, with their places
    among themselves (a tie in the overall table stays a tie)."""

    name: str
    rows: tuple[StandingRow, ...]


@dataclass(frozen=True)
class CutTieView:
    """Players tied at the cut of one table, of whom the director sends ``places`` on."""

    where: str
    """``Pool B`` or ``the Swiss``."""
    places: int
    players: tuple[tuple[int, str], ...]
    """(flight entry id in the stage, name) of each tied player."""


@dataclass(frozen=True)
class FlightBoard:
    """A flight's page: the draw, its rounds and matches, standings and what can be done."""

    flight: FlightView
    event_id: int
    event_name: str
    rounds: tuple[RoundView, ...]
    standings: tuple[StandingRow, ...]
    tiebreaks: tuple[Tiebreak, ...]
    """The flight's tiebreak chain, in order (empty for a knockout)."""
    columns: tuple[StandingsColumn, ...]
    """The headings of the standings rows' ``metrics``."""
    champion: PlayerRef | None
    players: int
    waiting: int
    """Matches with both players known, not started."""
    playing: int
    finished: int
    """Matches decided at the board or by walkover (byes not counted)."""
    waiting_for_opponent: tuple[PlayerRef, ...]
    is_knockout: bool
    is_fed: bool
    """Drawn together with the flight it is fed from."""
    draw_seed: str | None
    can_manage: bool
    can_draw: bool
    can_publish: bool
    can_undo: bool
    can_pair_next: bool
    can_add_late: bool
    undo_label: str = "Undo unpublished draw"
    """What the undo button says: a Swiss undoes its newest round, others their draw."""
    table_matches: tuple[MatchSummary, ...] = ()
    """Matches waiting to be played whose table the director may change."""
    late_bye_slots: tuple[tuple[int, str], ...] = ()
    """First-round byes of a knockout a late entrant could take, (match id, label), the
    first :data:`LATE_BYE_CHOICES` in draw order."""
    late_bye_count: int = 0
    """How many first-round byes there are in all."""
    left_out: tuple[str, ...] = ()
    """Before the draw: the active players not checked in, whom drawing now leaves out."""
    pool_tables: tuple[PoolTable, ...] = ()
    """A round robin of several pools: each pool's table (``standings`` holds them all)."""
    cut_text: str = ""
    """A qualifying stage: who goes through to which knockout (``Top 2 of each pool go
    through to Knockout``)."""
    cut_ties: tuple[CutTieView, ...] = ()
    """A knockout drawn from qualifiers: the ties at the cut the director has to decide."""
    draws_from_qualifiers: bool = False
    """A knockout whose field comes from a qualifying stage."""
    qualified: tuple[tuple[str, str], ...] = ()
    """Before a knockout is drawn from its stage: (origin, name) of everyone through as
    the stage's tables stand."""
    stage_finished: bool = False
    """The knockout's qualifying stage is finished: it can be drawn from its qualifiers."""
    feed_problem: str = ""
    """Why the flight can never be drawn with the flight it is fed from (a link saved
    before such links were refused), or empty."""
    division_tables: tuple[DivisionTable, ...] = ()
    """A mixed flight that ranks each division separately: one table per division that
    has players here, strongest division first (players without a division in none)."""

    @property
    def waits_for_feeder(self) -> bool:
        """Not drawn yet, and drawn only together with the flight that feeds it."""
        return self.flight.is_setup and self.is_fed

    @property
    def undoes_round(self) -> bool:
        """Undo takes back the newest unpublished Swiss round, not the whole draw."""
        return self.flight.is_swiss and bool(self.rounds)

    @property
    def standings_first(self) -> bool:
        """A finished flight that is not a knockout leads with its final standings."""
        return bool(self.standings) and not self.is_knockout and self.flight.is_finished


@dataclass(frozen=True)
class GameView:
    """One game of a match as the results page shows it."""

    number: int
    winner: str | None
    """``a`` or ``b``; none for a drawn game."""
    winner_name: str
    """The winner's name; "Drawn" for a drawn game."""
    end: str
    end_label: str
    cube: int
    level: str | None
    points: int
    score_after: str
    kind: str
    """normal, crawford or post-crawford."""
    kind_label: str
    winner_choices: tuple[Choice, ...] = ()
    """The correction form's boxes, this game's values chosen (see ``Choice``)."""
    end_choices: tuple[Choice, ...] = ()
    cube_choices: tuple[Choice, ...] = ()
    result_choices: tuple[Choice, ...] = ()
    variant: str = ""
    """The name of the variant the game was played in."""
    variant_title: str = ""
    """The variant the game was played in (shown where a match has several)."""


@dataclass(frozen=True)
class Choice:
    """One option of a select box, and whether it is the chosen one."""

    value: str
    label: str
    selected: bool


def choices_of(
    offered: Sequence[tuple[str, str]], chosen: str, chosen_label: str
) -> tuple[Choice, ...]:
    """``offered`` (value, label) pairs with ``chosen`` selected; a value no longer offered
    (the event's options changed after the game was entered) is kept as the last one,
    labelled ``chosen_label``, so that a correction does not change it unasked."""
    pairs = list(offered)
    if all(value != chosen for value, _ in pairs):
        pairs.append((chosen, chosen_label))
    return tuple(Choice(value, label, value == chosen) for value, label in pairs)


@dataclass(frozen=True)
class RecordFinding:
    """A problem with an uploaded record, where the file has it."""

    game: int | None
    line: int | None
    message: str


@dataclass(frozen=True)
class UploadView:
    """An uploaded record and whether it was used."""

    id: int
    filename: str
    is_valid: bool
    errors: tuple[RecordFinding, ...]

    @property
    def problems_text(self) -> str:
        """How many problems the validator found: ``1 problem``, ``3 problems``."""
        return PluralMessage("%(count)s problem", "%(count)s problems", len(self.errors))


@dataclass(frozen=True)
class MatchDetail:
    """A match page: players, running score, games with Crawford marks, entry flags."""

    match: MatchSummary
    event_id: int
    event_name: str
    flight_name: str
    rules: tuple[str, ...]
    games: tuple[GameView, ...]
    crawford_game: int | None
    next_number: int
    next_kind: str | None
    next_kind_label: str
    cube_locked: bool
    """No doubling in the next game (Crawford game, 1-point match): the cube stays at 1."""
    cube_lock_reason: str
    is_over: bool
    uploads: tuple[UploadView, ...]
    can_enter_games: bool
    can_enter_score: bool
    can_upload: bool
    can_correct: bool
    can_walkover: bool
    can_clear: bool
    variant: str = DEFAULT_VARIANT.name
    """The event's variant: pages name it and use its words for the result levels."""
    variant_summary: str = DEFAULT_VARIANT.title
    """The variant and its options in one line ("Long nardy · koks scores 3")."""
    end_choices: tuple[tuple[str, str], ...] = END_CHOICES
    """How a game can end under the event's options (value, label): a drop only with
    the cube, a last-roll draw only where the event has it."""
    result_choices: tuple[tuple[str, str], ...] = RESULT_CHOICES
    """The result levels the event's options allow, in the variant's words, then the
    empty result of a drop or draw."""
    form_title: str = ""
    """The match form of a match of several variants ("Tavli"); empty for one variant."""
    moves: tuple[GameMoves, ...] = ()
    """The rolls and plays of the record the match was played from, game by game."""
    next_variant_title: str = ""
    """The variant the next game is played in."""
    length_text: str = ""
    """The match length as pages word it ("7 points", "first to 3 games")."""
    counts_games: bool = False
    """A match of games: each game counts 1, no cube, no gammons."""

    @property
    def is_variant(self) -> bool:
        """Played in a variant, not standard backgammon: the page names it."""
        return self.variant != STANDARD.name

    @property
    def valid_uploads(self) -> tuple[UploadView, ...]:
        """The uploaded records that were valid and used: players may download them."""
        return tuple(u for u in self.uploads if u.is_valid)

    @property
    def can_set_start(self) -> bool:
        """Whether the director may still set the starting score: no game entered and the
        match waiting to be played."""
        return not self.games and self.match.status in (
            MatchStatus.PENDING.value, MatchStatus.READY.value)

    @property
    def crawford_game_to_come(self) -> bool:
        """The Crawford game is known but not played yet."""
        return self.crawford_game is not None and self.crawford_game > len(self.games)


# --- building ------------------------------------------------------------------------


def flight_players(
    session: Session, flight_id: int, only: Sequence[int | None] | None = None
) -> dict[int, PlayerRef]:
    """The flight's entrants by flight entry id (``only`` these flight entries, if given)."""
    return _players(session, [flight_id], only)


def _players(
    session: Session, flight_ids: Sequence[int], only: Sequence[int | None] | None = None
) -> dict[int, PlayerRef]:
    """The flights' entrants by flight entry id (``only`` these flight entries, if given)."""
    # Plain columns, not ORM rows: a flight of 10,000 players is read many times faster.
    partner = aliased(Player)
    query = (
        sa.select(
            col(FlightEntry.id),
            col(Entry.id),
            col(Player.name),
            col(Player.country),
            col(FlightEntry.seed),
            col(Entry.status),
            col(FlightEntry.status),
            col(FlightEntry.origin),
            col(FlightEntry.pool),
            col(partner.name),
        )
        .join(Entry, col(Entry.id) == FlightEntry.entry_id)
        .join(Player, col(Player.id) == Entry.player_id)
        # A pair consultation plays as one side: both names.
        .join(partner, col(partner.id) == Entry.partner_id, isouter=True)
        .where(col(FlightEntry.flight_id).in_(list(flight_ids)))
    )
    if only is not None:
        query = query.where(col(FlightEntry.id).in_([i for i in only if i is not None]))
    withdrawn = EntryStatus.WITHDRAWN.value
    return {
        fe_id or 0: PlayerRef(
            entry_id=entry_id or 0,
            flight_entry_id=fe_id or 0,
            name=name if partner_name is None else f"{name} & {partner_name}",
            country=country,
            seed=seed,
            withdrawn=withdrawn in (entry_status, fe_status),
            origin=origin or "",
            pool="" if pool is None else pool_name(pool),
        )
        for (
            fe_id,
            entry_id,
            name,
            country,
            seed,
            entry_status,
            fe_status,
            origin,
            pool,
            partner_name,
        ) in session.execute(query).all()
    }


@dataclass(frozen=True)
class _PlanLabels:
    placeholders: dict[str, tuple[str, str]]
    loser_to: dict[str, str]


def _plan_labels(
    plan: StoredPlan,
    db_names: dict[int, str],
    fmt: FlightFormat,
    only: Collection[str] | None = None,
) -> _PlanLabels:
    """Placeholders and loser destinations of the plan's matches (``only`` those keys).

    Sources in another bracket flight name it; where one flight holds several brackets
    (a double elimination) every source names its bracket.
    """
    names = {(r.bracket_flight, r.round): r.name for r in plan.rounds}
    by_id = {m.id: m for m in plan.matches}
    flight_of = {r.bracket_flight: r.flight_id for r in plan.rounds}

    def flight_label(bracket_flight: str) -> str:
        own = fmt.bracket_flight_label(bracket_flight)
        return own or db_names.get(flight_of.get(bracket_flight, 0), bracket_flight)

    def describe(source: ko.Source, here: str) -> str:
        if not isinstance(source, ko.WinnerOf | ko.LoserOf):
            return ""
        origin = by_id[source.match]
        round_name = parse_round_name(names[(origin.flight, origin.round)])
        where: str = Message("%(round)s match %(match)s", round=round_name, match=origin.index)
        if origin.flight != here or fmt.has_losers_bracket:
            where = Message(
                "%(flight)s %(round)s match %(match)s",
                flight=flight_label(origin.flight), round=round_name, match=origin.index,
            )
        if isinstance(source, ko.WinnerOf):
            return Message("Winner of %(match)s", match=where)
        if source.first_match:
            return Message("Loser (if their first match) of %(match)s", match=where)
        return Message("Loser of %(match)s", match=where)

    placeholders = {
        str(m.id): (describe(m.a, m.flight), describe(m.b, m.flight))
        for m in plan.matches
        if only is None or str(m.id) in only
    }
    loser_to = {
        str(mid): (
            Message("%(flight)s (if their first match)", flight=flight_label(target))
            if cond
            else flight_label(target)
        )
        for mid, (target, cond) in ko.loser_destinations(plan.bracket({})).items()
        if only is None or str(mid) in only
    }
    return _PlanLabels(placeholders, loser_to)


def _round_name(rnd: Round) -> str:
    """A round's stored name; a round stored without one is known by its number."""
    return round_display_name(rnd.name, rnd.number)


def round_display_name(name: str, number: int) -> str:
    """A round's name as pages show it: its stored name, else its number in words; a
    name the rounds' registry made ("Semifinal", "Round 2") as a message that is shown
    in the reader's language, a name given by hand as it is."""
    return parse_round_name(name) if name else numbered_round_name(number)


def match_summaries(
    matches: Sequence[progress.MatchFacts],
    rounds: dict[int, Round],
    players: dict[int, PlayerRef],
    labels: _PlanLabels | None,
) -> list[MatchSummary]:
    """The read model of each match, its sides from ``players`` and its open sides' and
    loser's labels from ``labels`` (a knockout's plan)."""
    out: list[MatchSummary] = []
    for m in matches:
        rnd = rounds[m.round_id]
        a = players.get(m.entry_a_id) if m.entry_a_id else None
        b = players.get(m.entry_b_id) if m.entry_b_id else None
        winner = None
        if m.winner_entry_id is not None:
            winner = "a" if m.winner_entry_id == m.entry_a_id else "b"
        placeholder = ("", "")
        loser_to = ""
        if labels is not None:
            placeholder = labels.placeholders.get(m.bracket_key, ("", ""))
            loser_to = labels.loser_to.get(m.bracket_key, "")
        shown_score = m.status in (MatchStatus.PLAYING.value, *progress.DONE) and (
            m.result_source != "walkover" or m.score_a or m.score_b
        )
        out.append(
            MatchSummary(
                id=m.id or 0,
                flight_id=m.flight_id,
                round_id=m.round_id,
                round_number=rnd.number,
                round_name=_round_name(rnd),
                position=m.position,
                bracket_key=m.bracket_key,
                table=m.table_label,
                length=m.match_length,
                status=m.status,
                status_label=MATCH_STATUS_LABELS.get(m.status, m.status),
                a=a,
                b=b,
                a_placeholder=placeholder[0] if a is None else "",
                b_placeholder=placeholder[1] if b is None else "",
                score_a=m.score_a,
                score_b=m.score_b,
                score_text=format_score((m.score_a, m.score_b)) if shown_score else "",
                winner=winner,
                result_source=m.result_source,
                loser_goes_to=loser_to,
                version=m.version,
                start_a=m.start_a,
                start_b=m.start_b,
            )
        )
    return out


def _flight_and_event(session: Session, flight_id: int) -> tuple[Flight, Event]:
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    event = session.get(Event, flight.event_id)
    assert event is not None
    return flight, event


def flight_board(session: Session, actor: Actor, flight_id: int) -> FlightBoard:
    """A flight for its event's staff, with what the actor may do.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not on the event's staff.
    """
    flight, _ = _flight_and_event(session, flight_id)
    event = require_event(session, actor, flight.event_id, manage=False)
    return _board(session, flight, event, can_manage=can_manage_event(session, actor, event))


def public_flight_board(session: Session, flight_id: int) -> FlightBoard:
    """A flight as the public sees it: published rounds only, no staff flags.

    Raises:
        NotFoundError: no such flight, or its event is not public.
    """
    flight, event = _flight_and_event(session, flight_id)
    if not event.is_public:
        raise NotFoundError(Message("No such flight."))
    return _board(session, flight, event, can_manage=False, published_only=True)


def published_flight_board(session: Session, event_id: int, flight_id: int) -> FlightBoard:
    """One flight of this event with its published rounds only (the public's view), built
    alone: a public page of one flight never reads the event's other flights.

    Raises:
        NotFoundError: no such flight in this event.
    """
    flight = session.get(Flight, flight_id)
    event = session.get(Event, event_id)
    if flight is None or event is None or flight.event_id != event_id:
        raise NotFoundError(Message("No such flight."))
    return _board(session, flight, event, can_manage=False, published_only=True)


def event_boards(
    session: Session, event_id: int, *, published_only: bool = True
) -> tuple[FlightBoard, ...]:
    """Every flight of an event, in display order (for public pages, API and exports)."""
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    flights = session.exec(
        select(Flight)
        .where(Flight.event_id == event_id)
        .order_by(col(Flight.position), col(Flight.id))
    )
    return tuple(
        _board(session, f, event, can_manage=False, published_only=published_only) for f in flights
    )


def _board(
    session: Session,
    flight: Flight,
    event: Event,
    *,
    can_manage: bool,
    published_only: bool = False,
) -> FlightBoard:
    flight_id = flight.id or 0
    fmt = flight_format(flight.format)
    every_round = progress.flight_rounds(session, flight_id)
    group = _bracket_group(session, flight)
    every_match: list[progress.MatchRow]
    if group is not None:
        # The group read every match of the bracket already: one read, not two.
        every_match = [m for m in group.rows.values() if m.flight_id == flight_id]
    else:
        every_match = progress.match_rows(session, col(Match.flight_id) == flight_id)
    rounds = every_round
    if published_only:
        rounds = [r for r in rounds if r.status != RoundStatus.DRAFT.value]
    round_map = {r.id or 0: r for r in rounds}
    matches = [m for m in every_match if m.round_id in round_map]
    matches.sort(key=lambda m: (round_map[m.round_id].number, m.position))
    players = _players(session, [flight_id])
    labels = None
    if group is not None:
        labels = _plan_labels(group.plan, _flight_names(session, flight.event_id), fmt)
    summaries = match_summaries(matches, round_map, players, labels)
    actions: frozenset[Action] = frozenset()
    if can_manage:
        state = progress.flight_state(session, flight, every_round, every_match)
        actions = allowed_actions(state)
    chain = () if fmt.is_knockout else tiebreak_chain(flight.tiebreaks)
    byes = _late_bye_slots(summaries, rounds) if Action.ENTER_LATE_IN_BYE in actions else ()
    standings, champion = _standings(session, flight, fmt, players, group, chain)
    stage = _stage_standings(session, flight, fmt, players, standings)
    if stage.pool_tables:
        standings, champion = tuple(r for t in stage.pool_tables for r in t.rows), None
    elif stage.marked:
        standings = stage.marked
    cut_ties = _cut_ties(session, flight, players) if can_manage and fmt.is_knockout else ()
    qualified, stage_finished = _qualified(session, flight) if can_manage else ((), False)
    columns = (
        (ROUND_REACHED,)
        if fmt.is_knockout
        else tuple(StandingsColumn.from_tiebreak(t) for t in chain if not t.within_group)
    )
    return FlightBoard(
        flight=flight_view(
            flight,
            _flight_names(session, flight.event_id).get(flight.feeds_from_id or 0, ""),
            drawn=[(round_map[m.round_id].name, m.match_length) for m in matches],
            stage=session.get(Flight, flight.qualifies_from_id)
            if flight.qualifies_from_id
            else None,
        ),
        event_id=event.id or 0,
        event_name=event.name,
        rounds=_round_views(rounds, summaries, actions),
        standings=standings,
        tiebreaks=chain,
        columns=columns,
        champion=champion,
        players=_player_count(flight, players, group),
        waiting=sum(s.status == MatchStatus.READY.value for s in summaries),
        playing=sum(s.status == MatchStatus.PLAYING.value for s in summaries),
        finished=sum(s.status in progress.DONE for s in summaries),
        waiting_for_opponent=_waiting_for_opponent(summaries),
        is_knockout=fmt.is_knockout,
        is_fed=flight.feeds_from_id is not None,
        draw_seed=flight.draw_seed,
        can_manage=can_manage,
        can_draw=Action.DRAW in actions,
        can_publish=Action.PUBLISH in actions,
        can_undo=Action.UNDO in actions,
        can_pair_next=Action.PAIR_NEXT_ROUND in actions,
        can_add_late=Action.ENTER_LATE_WITH_RECORD in actions,
        undo_label=_undo_label(fmt, rounds),
        table_matches=_table_matches(summaries) if can_manage else (),
        late_bye_slots=byes[:LATE_BYE_CHOICES],
        late_bye_count=len(byes),
        left_out=tuple(player.name for _, player in progress.draw_field(session, event.id or 0)[1])
        if Action.DRAW in actions and flight.qualifies_from_id is None
        else (),
        pool_tables=stage.pool_tables,
        cut_text=stage.cut_text,
        cut_ties=cut_ties,
        draws_from_qualifiers=flight.qualifies_from_id is not None,
        qualified=qualified,
        stage_finished=stage_finished,
        feed_problem=_feed_problem(session, flight),
        division_tables=()
        if stage.pool_tables
        else _division_tables(session, flight, event, standings),
    )


def _division_tables(
    session: Session, flight: Flight, event: Event, standings: tuple[StandingRow, ...]
) -> tuple[DivisionTable, ...]:
    """Each division's rows of a mixed flight's standings, placed among themselves."""
    if not (flight.division_standings and not flight.division and standings):
        return ()
    division_of = dict(
        session.exec(
            select(FlightEntry.id, Entry.division)
            .join(Entry, col(Entry.id) == FlightEntry.entry_id)
            .where(FlightEntry.flight_id == flight.id)
        ).all()
    )
    tables = []
    for name in event.divisions or ():
        rows = [r for r in standings if division_of.get(r.player.flight_entry_id) == name]
        if not rows:
            continue
        places = places_within([r.rank for r in rows])
        tables.append(
            DivisionTable(
                name,
                tuple(
                    # The overall table's tiebreak note names the row above it there,
                    # who may be of another division: it does not carry over.
                    replace(row, rank=place, display_rank=f"={place}" if tied else str(place),
                            tied=tied, reason="")
                    for row, (place, tied) in zip(rows, places, strict=True)
                ),
            )
        )
    return tuple(tables)


def _feed_problem(session: Session, flight: Flight) -> str:
    """Why a fed flight can never be drawn with its source, or empty."""
    source = session.get(Flight, flight.feeds_from_id) if flight.feeds_from_id else None
    if source is None:
        return ""
    return feed_refusal(source.format, flight.format) or ""


def _qualified(session: Session, flight: Flight) -> tuple[tuple[tuple[str, str], ...], bool]:
    """Who is through to a knockout not drawn yet, as its stage's tables stand, and
    whether the stage is finished."""
    if flight.status != FlightStatus.SETUP.value:
        return (), False
    cut = stages.stage_cut(session, flight)
    if cut is None:
        return (), False
    names = _players(session, [cut.source.id or 0], [int(q.entrant) for q in cut.qualifiers])
    return tuple((q.origin, names[int(q.entrant)].name) for q in cut.qualifiers), cut.finished


@dataclass(frozen=True)
class _Stage:
    pool_tables: tuple[PoolTable, ...] = ()
    marked: tuple[StandingRow, ...] = ()
    cut_text: str = ""


def _reason_note(name: str, reason: str) -> str:
    """Why a standings row is below the one above it: "Ann Berg ahead on Buchholz 3 to 1"
    (``reason`` a message, so the page shows it in its reader's language)."""
    return Message("%(player)s %(reason)s", player=name, reason=reason)


def _stage_standings(
    session: Session,
    flight: Flight,
    fmt: FlightFormat,
    players: dict[int, PlayerRef],
    rows: tuple[StandingRow, ...],
) -> _Stage:
    """A qualifying stage's tables: one per pool, those going through to the knockout
    marked (a tie at the cut the director decides marked as such)."""
    if not fmt.qualifies or flight.status == FlightStatus.SETUP.value or not rows:
        return _Stage()
    cut = stages.source_cut(session, flight)
    through = {int(q.entrant) for q in cut.qualifiers} if cut else set()
    tied = {int(e) for c in cut.undecided if c.tie for e in c.tie.tied} if cut else set()
    by_entrant = {
        r.player.flight_entry_id: replace(
            r,
            qualifies=r.player.flight_entry_id in through,
            tied_at_cut=r.player.flight_entry_id in tied,
        )
        for r in rows
    }
    text = ""
    if cut is not None:
        target = stages.knockouts_fed_by(session, flight)[0].name
        each = " of each pool" if cut.link.pools > 1 else ""
        text = f"The top {cut.link.per_pool}{each} go through to {target}."
    if not (fmt.has_pools and flight.pools is not None):
        return _Stage(marked=tuple(by_entrant.values()), cut_text=text)
    tables = cut.tables if cut else stages.stage_tables(session, flight)
    pool_tables = []
    for table in tables:
        notes = {
            below.entrant: _reason_note(players[int(above.entrant)].name, above.reason)
            for above, below in pairwise(table.rows)
            if above.reason
        }
        pool_tables.append(
            PoolTable(
                pool_name(table.pool or 0),
                tuple(
                    replace(
                        by_entrant[int(row.entrant)],
                        rank=row.rank,
                        display_rank=row.display_rank,
                        tied=row.tied,
                        reason=notes.get(row.entrant, ""),
                        pool=pool_name(table.pool or 0),
                    )
                    for row in table.rows
                ),
            )
        )
    return _Stage(pool_tables=tuple(pool_tables), cut_text=text)


def _cut_ties(
    session: Session, flight: Flight, players: dict[int, PlayerRef]
) -> tuple[CutTieView, ...]:
    """The ties at the cut of a knockout's stage that wait for the director."""
    cut = stages.stage_cut(session, flight)
    if cut is None or not cut.undecided or flight.status != FlightStatus.SETUP.value:
        return ()
    tied = [int(e) for c in cut.undecided if c.tie for e in c.tie.tied]
    names = _players(session, [cut.source.id or 0], tied)
    return tuple(
        CutTieView(
            c.tie.where,
            c.tie.places,
            tuple((int(e), names[int(e)].name) for e in c.tie.tied),
        )
        for c in cut.undecided
        if c.tie
    )


def _bracket_group(session: Session, flight: Flight) -> progress.BracketView | None:
    """The knockout group the flight is drawn in, or none (not drawn, or not a knockout)."""
    root = progress.plan_root(session, flight) if progress.is_knockout(flight) else None
    if root is None:
        return None
    if not session.info.get(READ_ONLY):
        return progress.read_group(session, root)
    # The flights of one group (a knockout and its consolation) share what a read loads.
    groups: dict[int, progress.BracketView] = session.info.setdefault("tourney.groups", {})
    if root.id not in groups:
        groups[root.id or 0] = progress.read_group(session, root)
    return groups[root.id or 0]


def _flight_names(session: Session, event_id: int) -> dict[int, str]:
    """The event's flight names by id."""
    flights = session.exec(select(Flight.id, Flight.name).where(Flight.event_id == event_id))
    return {flight_id or 0: name for flight_id, name in flights}


def flight_champion(
    session: Session, flight: Flight, event: Event, *, published_only: bool
) -> PlayerRef | None:
    """The winner of a finished flight, as its standings decide."""
    board = _board(session, flight, event, can_manage=False, published_only=published_only)
    return board.champion


def _round_views(
    rounds: Sequence[Round], summaries: Sequence[MatchSummary], actions: frozenset[Action]
) -> tuple[RoundView, ...]:
    """The rounds with their matches; only the newest may be paired again."""
    by_round: dict[int, list[MatchSummary]] = {}
    for s in summaries:
        by_round.setdefault(s.round_id, []).append(s)
    repairable = rounds[-1].id if rounds and Action.REPAIR_ROUND in actions else None
    return tuple(
        RoundView(
            r.id or 0,
            r.number,
            _round_name(r),
            r.status,
            r.match_length,
            tuple(by_round.get(r.id or 0, [])),
            r.id == repairable,
        )
        for r in rounds
    )


def _waiting_for_opponent(summaries: Sequence[MatchSummary]) -> tuple[PlayerRef, ...]:
    """Players through to a match whose other side is not known yet."""
    waiting = []
    for s in summaries:
        known = s.a or s.b
        if s.status == MatchStatus.PENDING.value and known and (s.a is None or s.b is None):
            waiting.append(known)
    return tuple(waiting)


def _table_matches(summaries: Sequence[MatchSummary]) -> tuple[MatchSummary, ...]:
    return tuple(s for s in summaries if s.status == MatchStatus.READY.value)


def _undo_label(fmt: FlightFormat, rounds: Sequence[Round]) -> str:
    """What the undo button says: a Swiss undoes its newest round, others their draw."""
    if rounds and fmt.pairs_round_by_round:
        return Message("Undo unpublished round")
    return Message("Undo unpublished draw")


LATE_BYE_CHOICES = 100
"""Byes the late-entry box offers at most: a 10,000-player draw has thousands, and any
of them serves a late entrant as well as another."""


def _late_bye_slots(
    summaries: Sequence[MatchSummary], rounds: Sequence[Round]
) -> tuple[tuple[int, str], ...]:
    """First-round byes of a knockout's main draw (the service checks the draw allows it)."""
    first = min((r.id or 0 for r in rounds if r.number == 1), default=None)
    return tuple(
        (s.id, f"{s.round_name} match {s.position}: bye of {s.a.name}")
        for s in summaries
        if s.round_id == first and s.status == MatchStatus.BYE.value and s.a is not None
    )


def _standings(
    session: Session,
    flight: Flight,
    fmt: FlightFormat,
    players: dict[int, PlayerRef],
    group: progress.BracketView | None,
    chain: tuple[Tiebreak, ...],
) -> tuple[tuple[StandingRow, ...], PlayerRef | None]:
    if flight.status == FlightStatus.SETUP.value:
        return (), None
    if group is not None:
        return _knockout_standings(flight, fmt, players, group)
    if fmt.is_knockout:
        return (), None
    return _field_standings(session, flight, players, chain)


def _field_standings(
    session: Session,
    flight: Flight,
    players: dict[int, PlayerRef],
    chain: tuple[Tiebreak, ...],
) -> tuple[tuple[StandingRow, ...], PlayerRef | None]:
    """A Swiss or round robin's standings; the winner once the flight is finished."""
    field = progress.swiss_field(session, flight)
    statuses = {
        fe_id: status
        for fe_id, status in session.exec(
            select(FlightEntry.id, FlightEntry.status).where(FlightEntry.flight_id == flight.id)
        )
    }
    table = compute_standings(field.outcomes, chain, entrants=[r.entrant for r in field.records])
    losses = {r.entrant: r.losses for r in field.records}
    shown = [t for t in chain if not t.within_group]
    # The pure standings give the reason to the upper row of a separated pair; the page
    # shows it on the lower one, where a reader asks why this player is not higher.
    notes = {
        below.entrant: _reason_note(players[int(above.entrant)].name, above.reason)
        for above, below in pairwise(table)
        if above.reason
    }
    rows = []
    for row in table:
        status = statuses[row.entrant]
        lives = flight.swiss_lives
        out_of_lives = lives is not None and losses[row.entrant] >= lives
        if out_of_lives and status == EntryStatus.ACTIVE.value:
            status = EntryStatus.ELIMINATED.value
        rows.append(
            StandingRow(
                rank=row.rank,
                display_rank=row.display_rank,
                tied=row.tied,
                player=players[int(row.entrant)],
                wins=row.metric("wins"),
                losses=losses[row.entrant],
                metrics=tuple(
                    (t.name, HalfPoints(row.metric(t.metric_key)) if t.in_half_points
                     else row.metric(t.metric_key)) for t in shown),
                reason=notes.get(row.entrant, ""),
                status=status,
                lives_left=None
                if flight.swiss_lives is None
                else max(flight.swiss_lives - losses[row.entrant], 0),
            )
        )
    champion = None
    if flight.status == FlightStatus.FINISHED.value and rows and not rows[0].tied:
        champion = rows[0].player
    return tuple(rows), champion


def _player_count(
    flight: Flight, players: dict[int, PlayerRef], group: progress.BracketView | None
) -> int:
    """How many players the flight has: in a knockout group, those its bracket places there.

    A knockout flight entry outlives a corrected result that sent its player elsewhere
    (the loser of a match entered the wrong way round), so entries alone overcount.
    """
    if group is None:
        return len(players)
    names = [name for name, fid in group.flight_ids.items() if fid == flight.id]
    return len({e for name in names for e in ko.entrants(group.bracket, name)})


def _knockout_standings(
    flight: Flight, fmt: FlightFormat, players: dict[int, PlayerRef], group: progress.BracketView
) -> tuple[tuple[StandingRow, ...], PlayerRef | None]:
    bracket = group.bracket
    by_entry = {
        entry_id: players[fe.id]
        for (flight_id, entry_id), fe in group.flight_entries.items()
        if flight_id == flight.id and fe.id in players
    }
    names = [name for name, fid in group.flight_ids.items() if fid == flight.id]
    if not names:
        return (), None
    table, champ = fmt.bracket_standings(bracket, names)
    went_out: dict[int, str] = {}
    for name in names:
        for entrant, match in ko.eliminations(bracket, name).items():
            went_out[int(entrant)] = group.plan.round_of(match).name
    rows = []
    for s in table:
        ref = by_entry.get(int(s.entrant))
        if ref is None:
            continue
        fe = group.flight_entries[(flight.id or 0, int(s.entrant))]
        won = champ is not None and int(champ) == int(s.entrant)
        rows.append(
            StandingRow(
                rank=s.rank,
                display_rank=s.display_rank,
                tied=s.tied,
                player=ref,
                wins=s.metric("wins"),
                losses=None,
                metrics=((ROUND_REACHED.heading, s.metric("round")),),
                reason="",
                status=fe.status,
                status_label=_knockout_status_label(
                    fe.status,
                    is_champion=won,
                    is_fed=flight.id != group.root.id,
                    round_name=went_out.get(int(s.entrant)),
                ),
                is_winner=won,
            )
        )
    champion = by_entry.get(int(champ)) if champ is not None else None
    return tuple(rows), champion


def _knockout_status_label(
    status: str, *, is_champion: bool, is_fed: bool, round_name: str | None
) -> str:
    """The standings' status text of a knockout player.

    The winner of the main draw is its champion; a fed flight (a consolation) has a winner.
    """
    if is_champion:
        return N_("Winner") if is_fed else N_("Champion")
    if status == EntryStatus.ELIMINATED.value and round_name:
        if the_round(round_name) != round_name:
            # A named round takes the article: "Eliminated in the Semifinal".
            return Message("Eliminated in the %(round)s", round=parse_round_name(round_name))
        return Message("Eliminated in %(round)s", round=parse_round_name(round_name))
    return ENTRY_STATUS_LABELS.get(status, status)


def match_detail(
    session: Session, actor: Actor, match_id: int, *, language: str = DEFAULT_LANGUAGE
) -> MatchDetail:
    """A match page for the event's staff; the rolls' names (where the event asks for
    them) in ``language`` where the seeds give names in it.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not on the event's staff.
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(Message("No such match."))
    flight, _ = _flight_and_event(session, match.flight_id)
    event = require_event(session, actor, flight.event_id, manage=False)
    rnd = session.get(Round, match.round_id)
    assert rnd is not None
    players = _players(session, [flight.id or 0], only=(match.entry_a_id, match.entry_b_id))
    labels = _match_plan_labels(session, flight, [match.bracket_key])
    (summary,) = match_summaries([match], {rnd.id or 0: rnd}, players, labels)
    games = progress.games_of(session, match_id)
    state = progress.match_state(event, match, games)
    names = {
        "a": summary.a.name if summary.a else "",
        "b": summary.b.name if summary.b else "",
    }
    # In a match of several variants the next game's variant decides what it offers.
    next_rules = state.rules.for_game(state.next_number)
    offered_ends, offered_results = _offered(next_rules, language)
    game_views = _game_views(games, state, names, language)
    restriction = doubling_restriction(state)
    uploads = _uploads(session, match_id)
    playable = (
        rnd.status != RoundStatus.DRAFT.value
        and summary.a is not None
        and summary.b is not None
        and match.status
        not in (MatchStatus.BYE.value, MatchStatus.VOID.value, MatchStatus.PENDING.value)
    )
    by_games = (
        match.result_source in ("games", "record", "")
        and match.status != MatchStatus.WALKOVER.value
    )
    next_kind = None if state.next_kind is None else state.next_kind.value
    return MatchDetail(
        match=summary,
        event_id=event.id or 0,
        event_name=event.name,
        flight_name=flight.name,
        rules=rules_summary(event),
        games=game_views,
        crawford_game=state.crawford_game,
        next_number=state.next_number,
        next_kind=next_kind,
        next_kind_label=KIND_LABELS.get(next_kind or "", ""),
        cube_locked=restriction is not None,
        cube_lock_reason=restriction or "",
        is_over=match.status in progress.DONE,
        uploads=uploads,
        can_enter_games=playable and by_games and not state.is_over,
        can_enter_score=playable and not games and match.status != MatchStatus.WALKOVER.value,
        can_upload=playable and not games and match.status not in progress.DONE,
        can_correct=playable and bool(games),
        can_walkover=playable and match.status != MatchStatus.WALKOVER.value,
        can_clear=playable and match.status in progress.DONE,
        variant=next_rules.variant.name,
        variant_summary=_variant_headline(state, next_rules),
        form_title="" if state.rules.form.is_single else state.rules.form.title,
        moves=match_moves(session, match_id, event.dice_names, language),
        next_variant_title=next_rules.variant.title,
        length_text=state.rules.form.length_words(match.match_length),
        counts_games=state.rules.counts_games,
        end_choices=offered_ends,
        result_choices=offered_results,
    )


def _offered(
    rules: MatchRules, language: str = DEFAULT_LANGUAGE
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """How a game under ``rules`` can end and what results it can score, as forms offer
    (in ``language``)."""
    cube = rules.form.uses_cube
    name = rules.variant.name
    results = result_choices(name, rules.options, cube=cube, language=language)
    if rules.counts_games:
        # A match of games: every win counts 1, so only a plain win is offered (and the
        # empty result of a draw where the event has drawn games).
        results = tuple(choice for choice in results if choice[0] in ("single", ""))
    return (
        end_choices(name, rules.options, cube=cube, language=language),
        results,
    )


def _variant_headline(state: MatchState, next_rules: MatchRules) -> str:
    """What the match page says it is played in: the variant and its options, or for a
    match of several variants the form and the next game's variant."""
    form = state.rules.form
    if form.is_single:
        return variant_summary(next_rules.variant.name, state.rules.options)
    if state.is_over:
        return f"{form.title}: {form.description}"
    return f"{form.title}: game {state.next_number} is {next_rules.variant.title}"


def _match_plan_labels(
    session: Session, flight: Flight, bracket_keys: Collection[str]
) -> _PlanLabels | None:
    """Where these knockout matches' open sides come from and their losers go (none for
    other formats)."""
    keys = {key for key in bracket_keys if key}
    if not keys:
        return None
    root = progress.plan_root(session, flight)
    if root is None or root.bracket_plan is None:
        return None
    db_names = {
        f.id or 0: f.name
        for f in session.exec(select(Flight).where(Flight.event_id == flight.event_id))
    }
    return _plan_labels(
        progress.stored_plan(session, root),
        db_names,
        flight_format(flight.format),
        only=keys,
    )


def _game_views(
    games: Sequence[Game],
    state: MatchState,
    names: dict[str, str],
    language: str = DEFAULT_LANGUAGE,
) -> tuple[GameView, ...]:
    """The games of a match as its page shows them, each with its correction choices (in
    its own variant's words where the match has several)."""
    return tuple(
        _game_view(g, scored, state.rules.for_game(g.number), names, language)
        for g, scored in zip(games, state.games, strict=True)
    )


def _game_view(
    g: Game,
    scored: ScoredGame,
    rules: MatchRules,
    names: dict[str, str],
    language: str = DEFAULT_LANGUAGE,
) -> GameView:
    offered_ends, offered_results = _offered(rules, language)
    return GameView(
        number=g.number,
        winner=g.winner,
        winner_name=DRAWN_NAME if g.winner is None else names[g.winner],
        end=g.end,
        end_label=END_LABELS.get(g.end, g.end),
        cube=1 << g.cube_exponent,
        level=g.level,
        points=g.points,
        score_after=format_score(scored.score_after),
        kind=scored.kind.value,
        kind_label=KIND_LABELS.get(scored.kind.value, ""),
        winner_choices=tuple(Choice(side, names[side], g.winner == side) for side in "ab"),
        end_choices=choices_of(offered_ends, g.end, END_LABELS.get(g.end, g.end)),
        cube_choices=tuple(
            Choice(str(cube), str(cube), cube == 1 << g.cube_exponent) for cube in CUBE_VALUES
        ),
        result_choices=choices_of(
            offered_results,
            g.level or "",
            rules.level_name(Level[g.level.upper()]).capitalize() if g.level else "—",
        ),
        variant=rules.variant.name,
        variant_title=rules.variant.title,
    )


def _uploads(session: Session, match_id: int) -> tuple[UploadView, ...]:
    """The records uploaded for a match, newest first, with what was wrong in each."""
    return tuple(
        UploadView(
            u.id or 0,
            u.filename,
            u.is_valid,
            tuple(
                RecordFinding(
                    e.get("game"),
                    e.get("line"),
                    message_from_parts(str(e.get("message", "")), e.get("message_parts")),
                )
                for e in (u.report or {}).get("errors", [])
            ),
        )
        for u in session.exec(
            select(UploadedRecord)
            .where(UploadedRecord.match_id == match_id)
            .order_by(col(UploadedRecord.id).desc())
        )
    )


def late_entry_candidates(session: Session, flight_id: int) -> list[tuple[int, str]]:
    """Active event entries not in the flight yet: (entry id, player name)."""
    flight = session.get(Flight, flight_id)
    if flight is None:
        return []
    inside = select(FlightEntry.entry_id).where(FlightEntry.flight_id == flight_id)
    rows = session.exec(
        select(Entry.id, Player.name)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(
            Entry.event_id == flight.event_id,
            Entry.status == EntryStatus.ACTIVE.value,
            col(Entry.id).not_in(inside),
        )
        .order_by(col(Player.name))
    )
    return [(i or 0, n) for i, n in rows]


def game_kind_label(kind: GameKind | None) -> str:
    """A game kind as the results page marks it."""
    return "" if kind is None else KIND_LABELS.get(kind.value, "")


def round_flight_id(session: Session, round_id: int) -> int:
    """The flight a round belongs to.

    Raises:
        NotFoundError: no such round.
    """
    rnd = session.get(Round, round_id)
    if rnd is None:
        raise NotFoundError(Message("No such round."))
    return rnd.flight_id


def match_flight_id(session: Session, match_id: int) -> int:
    """The flight a match belongs to.

    Raises:
        NotFoundError: no such match.
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(Message("No such match."))
    return match.flight_id
