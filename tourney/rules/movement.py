"""Rules of movement as data, and the engines that play them.

Terminology (VARIANTS.md sections 0.3 and 0.4): a variant's *rules of movement*
(:class:`MovementRules`) are its checkers and start, its *geometry* (where the other
side's checkers are and which way they move), its *landing rule* (may a checker land on
a point the opponent holds), its *entry* (how hit checkers come back), its *restrictions*
(head rule, six-block), its *doubles* (how many moves a doublet gives: the turn's
stages), its *failure policy* (what becomes of dice that cannot be played) and its
*bear-off rule*. An *engine* generates and checks plays for one family of such rules;
:func:`movement_for` picks the engine a definition needs. Each enum lists the values an
engine plays today; VARIANTS.md section 17 lists those later variants add.

Standard backgammon's rules go to the engine of ``tourney.rules.moves`` unchanged, so the
fast path stays the fast path; long nardy's go to ``tourney.rules.nardy``; every other
set goes to the generic engine of ``tourney.rules.tables``, which reads the rules as data.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Protocol, cast

from tourney.rules import house_rules, moves, nardy
from tourney.rules.board import CHECKERS, Position
from tourney.rules.diagram import format_board, format_nardy_board
from tourney.rules.dice import Roll
from tourney.rules.errors import IllegalPlayError, NotationError, PlayRule
from tourney.rules.game import Level, winning_level
from tourney.rules.house_rules import NO_HOUSE_RULES, HouseRules
from tourney.rules.layout import BoardLayout, counts_from_side, side_from_counts
from tourney.rules.moves import Play
from tourney.rules.nardy import NardyPosition, NardyRules
from tourney.rules.position_id import decode_position_id
from tourney.rules.tables import (
    BEEN_HOME,
    OFF,
    POOL,
    EngineRules,
    TablesEngine,
    TablesPosition,
    check_tables_play,
    format_tables_board,
    legal_tables_play_map,
    legal_tables_positions,
    tables_engine,
    tables_winning_level,
)
from tourney.rules.variant_protocol import VariantOptions, VariantPosition


class Geometry(Enum):
    """Where the other side's checkers are, in one side's numbering (VARIANTS.md 0.3)."""

    CONTRARY = "contrary"
    """The other side's point q is this side's 25 - q; the sides move in opposite ways."""
    PARALLEL_12 = "parallel-12"
    """The other side's point q is this side's q + 12 (or q - 12); both move the same
    way round the board, each starting from a corner diagonally opposite the other's."""
    SHARED = "shared"
    """The other side's point q is this side's q: both enter into the same table and run
    the same track the same way (Russian backgammon)."""
    CIRCULAR = "circular"
    """No own numbering: both sides count the absolute points A1-A24 and run round and
    round the same way, from A1 on to A24 (the chase games)."""
    PARALLEL_6 = "parallel-6"
    """Both sides the same way round, their starts a quarter apart: the point the first
    side (White, who moves first) calls p, the second side (Black) calls p + 6, wrapping
    from 24 to 1 (the seed's American game, VARIANTS.md 2.2). The one geometry where
    the numbering depends on which side is on roll."""

    def opposite(self) -> tuple[int, ...]:
        """This side's point p (1-24) as the other side's own point; index 0 unused.

        >>> Geometry.PARALLEL_12.opposite()[24], Geometry.CONTRARY.opposite()[24]
        (12, 1)
        """
        if self is Geometry.CONTRARY:
            return (0, *(25 - p for p in range(1, 25)))
        if self is Geometry.PARALLEL_12:
            return (0, *(p - 12 if p > 12 else p + 12 for p in range(1, 25)))
        if self is Geometry.PARALLEL_6:
            return (0, *(p + 6 if p <= 18 else p - 18 for p in range(1, 25)))
        return tuple(range(25))  # shared and circular: one numbering for both

    def opposite_for_second(self) -> tuple[int, ...]:
        """:meth:`opposite` for the side that moves second in a game: the same in every
        geometry but :attr:`PARALLEL_6`, where it is the inverse (Black's q is White's
        q - 6).

        >>> Geometry.PARALLEL_6.opposite()[19], Geometry.PARALLEL_6.opposite_for_second()[1]
        (1, 19)
        """
        if self is Geometry.PARALLEL_6:
            return (0, *(q - 6 if q > 6 else q + 18 for q in range(1, 25)))
        return self.opposite()

    @property
    def by_colour(self) -> bool:
        """Whether the numbering depends on which side is on roll (a position then keeps
        the turns each side has played, which tells who is on roll)."""
        return self is Geometry.PARALLEL_6


class Landing(Enum):
    """May a checker land on a point the opponent holds (VARIANTS.md 0.4)."""

    BLOCK2 = "block2"
    """Not on two or more opposing checkers; a single one is hit to the bar."""
    BLOCK1 = "block1"
    """Not on any opposing checker: nothing is ever hit."""
    PIN = "pin"
    """Not on two or more opposing checkers, nor on an opposing checker that pins one of
    ours; a single opposing checker is pinned under the lander and cannot move until
    every checker on top of it has left (Plakoto, Tapa)."""
    CAPTURE = "capture"
    """At most one checker of a side on a point: a checker landing on its own goes on
    past every own checker in a row, and an opposing checker where it stops is
    captured for good (the chase games)."""


class Entry(Enum):
    """How checkers come onto the board."""

    BAR_FIRST = "bar-first"
    """Hit checkers re-enter from the bar before any other checker moves."""
    NONE = "none"
    """Every checker starts on the board and none is ever hit: there is no bar."""


class PoolEntry(Enum):
    """How checkers not yet entered (the pool) come in."""

    ENTER_ALL_FIRST = "enter-all-first"
    """While the pool is not empty every value enters a checker if it can, and no
    checker on the board moves."""
    FREE = "free"
    """Values may enter checkers or move entered ones."""


class EntryPermission(Enum):
    """Which rolls may bring checkers in from the pool."""

    ANY_ROLL = "any-roll"
    """Every roll."""
    DOUBLET_OR_SPECIAL_ROLL = "doublet-or-special-roll"
    """A doublet or the special roll (Asodio's 1-2), or any roll once a checker of the
    side stands on its own 19-24."""
    DOUBLET_OR_SPECIAL_ROLL_ONLY = "doublet-or-special-roll-only"
    """A doublet or the special roll, whatever stands on the side's 19-24 (Asodio's
    strict entry)."""


class Restriction(Enum):
    """Limits on which plays are allowed beyond landing and the dice."""

    HEAD_RULE = "head-rule"
    """One checker a turn leaves the head (two on a first 6-6, 4-4 or 3-3 stopped by
    the opponent's head)."""
    SIX_BLOCK = "six-block"
    """No six points in a row with no opposing checker past them."""
    FIRST_CHECKER_PASSES = "first-checker-passes"
    """No second checker leaves the 24 point until one stands on the 11 point or lower
    (past the opponent's start, Fevga)."""
    FIRST_CHECKER_LEAVES_OWN_HALF = "first-checker-leaves-own-half"
    """No second checker leaves the 24 point until one stands on the 12 point or lower
    (out of the side's own half: Fevga as Ludii and ismart play it)."""
    START_TABLE_NOT_FULL = "start-table-not-full"
    """A turn may not end with all six of the side's points 19-24 occupied (Fevga)."""
    PRIME_RELEASE = "prime-release"
    """A prime with every opposing checker directly behind it is broken if any play of
    the maximum length does (Fevga)."""
    LONE_CHECKER_CORNERS = "lone-checker-corners"
    """A side down to one checker moves it to the nearest corner, then from corner to
    corner; it is captured only on a corner and not between two opposing checkers
    (the chase games, VARIANTS.md 6.4)."""
    COURIER_REACHES_HOME = "courier-reaches-home"
    """No second checker leaves the 24 point (the talon) until one, the courier, stands
    in the side's home, the 6 point or lower (Jacquet, Matador)."""
    HIT_ONLY_WITH_A_CHECKER_HOME = "hit-only-with-a-checker-home"
    """A side may hit only while it has a checker on its points 1-6 or borne off
    (Dutch backgammon)."""
    HIT_ONCE_A_CHECKER_WAS_HOME = "hit-once-a-checker-was-home"
    """A side may hit once it has had a checker on its points 1-6 (or borne off), even
    if none is there now (Dutch backgammon's historical option)."""
    FIVE_CHECKER_LIMIT = "five-checker-limit"
    """No point holds more than five of a side's checkers (the British house rule;
    ``tourney.rules.house_rules``)."""
    NO_HIT_AND_RUN_AT_HOME = "no-hit-and-run-at-home"
    """A checker that hits in its own home board stops there for the rest of the turn
    (the Middle Eastern house rule; ``tourney.rules.house_rules``)."""
    FOUR_POINTS_IN_OPPONENT_START = "four-points-in-opponent-start"
    """A turn may not end with more than four of the side's points 7-12 (the opponent's
    starting table) occupied (Moultezim)."""
    CRAZY_NARDE_HEAD = "crazy-narde-head"
    """At most one checker leaves the 24 point in a turn, two in a turn rolled as a
    doublet, its whole cascade counting as the one turn (crazy narde's head rule, which
    Gul bara may play, VARIANTS.md 4.2). With the generic engine :attr:`SIX_BLOCK` is
    long nardy's rule too, checked at the end of each stage."""


class Doubles(Enum):
    """What a roll gives to play: the stages of a turn."""

    FOUR_MOVES = "four-moves"
    """One stage: the two dice, or four moves of a doublet."""
    COMPLEMENT = "complement"
    """A doublet rolled with the pool empty gives two stages: four d, then four 7 - d
    (Russian backgammon)."""
    CASCADE = "cascade"
    """From a side's ``cascade_from_turn``-th turn on, a doublet d-d gives the stages four
    d, four d + 1, ..., four 6s (Gul bara, Gioul)."""
    COMPLEMENT_ALWAYS = "complement-always"
    """Every doublet gives two stages, four d then four 7 - d, pool or no pool
    (European acey-deucey)."""
    CHASE = "chase"
    """Only 1s and 6s count in a roll of two numbers; 6-6 gives four 6s, any other
    doublet two moves (the chase games)."""
    TWO_MOVES = "two-moves"
    """A doublet gives two moves, its two dice, like any other roll (Persian nard as
    Ludii's reconstruction after Himly 1879 plays it)."""


class SpecialRoll(Enum):
    """A roll that gives more than its dice."""

    NONE = "none"
    MATADOR = "matador"
    """4-3: the 4 and the 3, then four of a value the roller names, then an extra roll
    (Matador); an incomplete stage ends the turn."""


class ExtraRoll(Enum):
    """When the side that has played rolls again (VARIANTS.md 0.4, step 4)."""

    NONE = "none"
    AFTER_STAGES = "after-stages"
    """After a roll that gave more than its dice (a doublet's complement, a special
    roll's named doublet), every stage played (Russian, acey-deucey, Matador)."""
    AFTER_DOUBLETS = "after-doublets"
    """After every doublet and the special roll; where an incomplete stage ends the
    turn, only once every stage is played (Asodio, the chase games)."""


class FailurePolicy(Enum):
    """What becomes of dice that cannot be played."""

    LOSE = "lose"
    """They are lost; the turn ends."""
    END_TURN = "end-turn"
    """They are lost, and an incomplete stage ends the turn: no later stage is played."""
    TRANSFER = "transfer"
    """The values left in an incomplete stage and in every later stage go to the
    opponent, who plays as many as he can with his own checkers before his own turn."""


class BearOff(Enum):
    """When a checker may be borne off."""

    STANDARD = "standard"
    """With every checker home: by the exact number, or a higher one from the highest
    occupied point."""
    EXACT = "exact"
    """With every checker home, only by the exact number."""
    NONE = "none"
    """Never: checkers run round and round (the chase games)."""


class Ending(Enum):
    """When a game is over on the board."""

    ALL_OFF = "all-off"
    """A side has borne off every checker."""
    MOTHER_PIN = "mother-pin"
    """All off, or a mother checker pinned (Plakoto): the pinner wins 2 unless its own
    mother stays on its 24 point; both mothers pinned is a draw."""
    ALL_CAPTURED = "all-captured"
    """A side with no checker left loses (the chase games)."""
    ALL_OFF_LOSES = "all-off-loses"
    """Misère: the first side to bear off every checker loses; the other side wins."""
    ALL_OFF_BY_COLOUR = "all-off-by-colour"
    """A side bearing off every checker wins, at the gammon level when it is the side
    that moved first in the game (White) and single when the other (Black): the seed's
    American stakes, 3 to 1, whatever the loser has borne off."""
    ALL_OFF_START_TABLE_MARS = "all-off-start-table-mars"
    """A side bearing off every checker wins, at the gammon level when the loser still
    has a checker on its own points 19-24 (its starting table) and single otherwise,
    whatever it has borne off (Persian nard as Ludii's reconstruction after Himly 1879
    scores it)."""


@dataclass(frozen=True, slots=True)
class MovementRules:
    """A variant's rules of movement (VARIANTS.md section 17, one row's left half)."""

    checkers: int
    """Checkers a side."""
    start: tuple[tuple[int, int], ...]
    """``(point, count)`` pairs in each side's own numbering, the same for both sides."""
    geometry: Geometry = Geometry.CONTRARY
    landing: Landing = Landing.BLOCK2
    entry: Entry = Entry.BAR_FIRST
    restrictions: tuple[Restriction, ...] = ()
    doubles: Doubles = Doubles.FOUR_MOVES
    failure: FailurePolicy = FailurePolicy.LOSE
    bear_off: BearOff = BearOff.STANDARD
    pool: int = 0
    """Checkers each side starts with off the board, not yet entered."""
    pool_entry: PoolEntry = PoolEntry.ENTER_ALL_FIRST
    ending: Ending = Ending.ALL_OFF
    cascade_from_turn: int = 1
    """With ``Doubles.CASCADE``: the side's first turn whose doublets cascade."""
    special_roll: tuple[int, int] | None = None
    """A roll (acey-deucey's 1-2) played as rolled, after which the player names a
    number and plays four of it."""
    entry_permission: EntryPermission = EntryPermission.ANY_ROLL
    special: SpecialRoll = SpecialRoll.NONE
    """A roll that gives more than its dice in its own way (Matador's 4-3)."""
    opponent_start: tuple[tuple[int, int], ...] | None = None
    """Where the side not on roll at the start stands, where the sides start apart
    (Snake, the chase games); ``None``: as ``start``."""
    opponent_pool: int | None = None
    """The pool of the side not on roll at the start; ``None``: as ``pool``."""
    extra_roll: ExtraRoll = ExtraRoll.NONE
    transfer_doubles_only: bool = False
    """With ``FailurePolicy.TRANSFER``: only a doublet's values go to the opponent; any
    other roll's are lost."""
    bump_to_empty: bool = False
    """Chase games: a checker bumped past its own stops on the first empty point."""
    transfer_requires_play: bool = False
    """With ``FailurePolicy.TRANSFER``: values go to the opponent only if the roller moved
    at least one checker; otherwise they are lost."""
    named_with_complement: bool = False
    """After the special roll: the named number twice, then its opposite twice (European
    acey-deucey by the encyclopedia)."""
    remembers_home: bool = False
    """A position keeps whether each side has had a checker home (Dutch backgammon, so
    that its historical hitting option plays from the same positions)."""
    maximise_across_stages: bool = False
    """A turn of several stages must use the most values over all its stages, not stage
    by stage (VARIANTS.md D-STAGE's option)."""
    reroll_only_lone_checker: bool = False
    """Chase games with ``ExtraRoll.AFTER_DOUBLETS``: only a side down to its lone checker
    rolls again, after a doublet that does not move it (BKGM-CTG's cornerrattler)."""
    last_roll: bool = False
    """The last-roll draw (VARIANTS.md 16.5): a side whose opponent has borne off every
    checker still plays its last roll, and the extra rolls it may earn."""

    def side_starts(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """The start layouts of the side on roll first and of the other side."""
        return (self.start, self.start if self.opponent_start is None else self.opponent_start)

    def side_pools(self) -> tuple[int, int]:
        """The pools of the side on roll first and of the other side."""
        return (self.pool, self.pool if self.opponent_pool is None else self.opponent_pool)

    def _kind(self) -> tuple[object, ...]:
        """Everything but the checkers and start: what decides the engine (not
        ``last_roll``, which backgammon's and long nardy's engines always allow)."""
        return (self.geometry, self.landing, self.entry, frozenset(self.restrictions),
                self.doubles, self.failure, self.bear_off, self.pool, self.pool_entry,
                self.ending, self.cascade_from_turn, self.special_roll,
                self.entry_permission, self.opponent_start, self.opponent_pool, self.special,
                self.extra_roll, self.maximise_across_stages, self.transfer_doubles_only,
                self.bump_to_empty, self.remembers_home, self.named_with_complement,
                self.transfer_requires_play, self.reroll_only_lone_checker)


class Movement(Protocol):
    """An engine: positions, legal plays and the end of a game for one set of rules."""

    def initial(self) -> VariantPosition:
        """The starting position."""
        ...

    def decode_position_id(self, position_id: str) -> VariantPosition:
        """The position an ID stands for."""
        ...

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions) -> dict[VariantPosition, Play]:
        """Each distinct legal result with one play reaching it."""
        ...

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions) -> frozenset[VariantPosition]:
        """Every distinct legal result."""
        ...

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions) -> VariantPosition:
        """The position after a legal ``play``."""
        ...

    def apply_as_written(self, position: VariantPosition, play: Play) -> VariantPosition:
        """The position after ``play`` moved as written, whatever the dice and the rules of
        a turn (a play the opponent condoned).

        Raises:
            IllegalPlayError: the board cannot show it (no checker to move, a point the
                opponent holds), or these rules have no way to apply a play unchecked.
        """
        ...

    def winning_level(self, position: VariantPosition) -> Level | None:
        """The highest level the board shows the mover has won at, whatever the event
        scores (the variant maps it to a level its options score)."""
        ...

    def grants_extra_roll(self, position: VariantPosition, roll: Roll,
                          after: VariantPosition) -> bool:
        """Whether the mover, having played ``roll`` from ``position`` to ``after``,
        rolls again."""
        ...

    def format_board(self, position: VariantPosition) -> str:
        """A text diagram of the position."""
        ...

    def to_layout(self, position: VariantPosition) -> BoardLayout:
        """Where each side's checkers are, in its own numbering."""
        ...

    def from_layout(self, layout: BoardLayout) -> VariantPosition:
        """The position a layout describes.

        Raises:
            NotationError: the layout is no position of these rules.
        """
        ...


@dataclass(frozen=True, slots=True)
class BackgammonMovement:
    """Backgammon's rules of movement from any start (``tourney.rules.moves``)."""

    checkers: int
    start: tuple[tuple[int, int], ...]

    def initial(self) -> VariantPosition:
        """The start layout for both sides."""
        layout = dict(self.start)
        return Position.from_points(layout, layout, checkers=self.checkers)

    def decode_position_id(self, position_id: str) -> VariantPosition:
        """A gnubg Position ID, missing checkers counted as borne off."""
        return decode_position_id(position_id, checkers=self.checkers)

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions) -> dict[VariantPosition, Play]:
        """The distinct results of ``roll`` with one play each."""
        found = moves.legal_play_map(cast(Position, position), roll)
        return cast(dict[VariantPosition, Play], found)

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions) -> frozenset[VariantPosition]:
        """The distinct results of ``roll``."""
        return moves.legal_positions(cast(Position, position), roll)

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions) -> VariantPosition:
        """The position after ``play``, if legal."""
        return moves.check_play(cast(Position, position), roll, play)

    def apply_as_written(self, position: VariantPosition, play: Play) -> VariantPosition:
        """The position after ``play`` moved as written (``moves.apply_play``)."""
        return moves.apply_play(cast(Position, position), play)

    def winning_level(self, position: VariantPosition) -> Level | None:
        """Single, gammon or backgammon once the mover has borne everything off."""
        return winning_level(cast(Position, position))

    def grants_extra_roll(self, position: VariantPosition, roll: Roll,
                          after: VariantPosition) -> bool:
        """Never: one roll a turn."""
        return False

    def format_board(self, position: VariantPosition) -> str:
        """gnubg's board diagram."""
        return format_board(cast(Position, position))

    def to_layout(self, position: VariantPosition) -> BoardLayout:
        """Points, bar and borne-off checkers of each side."""
        board = cast(Position, position)
        return BoardLayout(side_from_counts(board.mover), side_from_counts(board.opponent))

    def from_layout(self, layout: BoardLayout) -> VariantPosition:
        """The backgammon position of a layout with no pool and no pins."""
        _refuse_pool_and_pins(layout, "this variant")
        return Position(
            tuple(counts_from_side(layout.mover, self.checkers, "the side on roll")),
            tuple(counts_from_side(layout.opponent, self.checkers, "the side not on roll")))


@dataclass(frozen=True, slots=True)
class HouseRulesMovement(BackgammonMovement):
    """Backgammon's rules of movement under an event's local restrictions
    (``tourney.rules.house_rules``): the same positions and IDs, fewer legal plays."""

    house: HouseRules = NO_HOUSE_RULES

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions) -> dict[VariantPosition, Play]:
        """The distinct results of ``roll`` the house rules allow, with one play each."""
        found = house_rules.legal_play_map(self.house, cast(Position, position), roll)
        return cast(dict[VariantPosition, Play], found)

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions) -> frozenset[VariantPosition]:
        """The distinct results of ``roll`` the house rules allow."""
        return house_rules.legal_positions(self.house, cast(Position, position), roll)

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions) -> VariantPosition:
        """The position after ``play``, if the house rules allow it."""
        return house_rules.check_play(self.house, cast(Position, position), roll, play)


_HOUSE_RESTRICTIONS = frozenset({Restriction.FIVE_CHECKER_LIMIT,
                                 Restriction.NO_HIT_AND_RUN_AT_HOME})
"""The restrictions backgammon's own engine plays under its house rules."""


_EVERY_LEVEL = NardyRules(koks=True)
"""Long nardy's rules for reading the board's level: a koks as a koks."""


@dataclass(frozen=True, slots=True)
class NardyMovement:
    """Long nardy's rules of movement (``tourney.rules.nardy``)."""

    def initial(self) -> VariantPosition:
        """Fifteen checkers on each side's head."""
        return NardyPosition.initial()

    def decode_position_id(self, position_id: str) -> VariantPosition:
        """A long-nardy position ID."""
        return NardyPosition.from_id(position_id)

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions) -> dict[VariantPosition, Play]:
        """The distinct results of ``roll`` with one play each."""
        found = nardy.legal_nardy_play_map(cast(NardyPosition, position), roll,
                                           rules=_rules(options))
        return cast(dict[VariantPosition, Play], found)

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions) -> frozenset[VariantPosition]:
        """The distinct results of ``roll``."""
        return nardy.legal_nardy_positions(cast(NardyPosition, position), roll,
                                           rules=_rules(options))

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions) -> VariantPosition:
        """The position after ``play``, if legal."""
        return nardy.check_nardy_play(cast(NardyPosition, position), roll, play,
                                      rules=_rules(options))

    def apply_as_written(self, position: VariantPosition, play: Play) -> VariantPosition:
        """Not in these rules: a play here is checked stage by stage, and one that breaks
        them has no agreed position to continue from."""
        raise IllegalPlayError("a play against the rules cannot be condoned in this game",
                               PlayRule.NOT_A_LEGAL_RESULT)

    def winning_level(self, position: VariantPosition) -> Level | None:
        """Oin, mars or koks once the mover has borne everything off."""
        return nardy.nardy_winning_level(cast(NardyPosition, position), _EVERY_LEVEL)

    def grants_extra_roll(self, position: VariantPosition, roll: Roll,
                          after: VariantPosition) -> bool:
        """Never: one roll a turn."""
        return False

    def format_board(self, position: VariantPosition) -> str:
        """The long-nardy board diagram."""
        return format_nardy_board(cast(NardyPosition, position))

    def to_layout(self, position: VariantPosition) -> BoardLayout:
        """Points and borne-off checkers of each side."""
        board = cast(NardyPosition, position)
        return BoardLayout(side_from_counts(board.mover), side_from_counts(board.opponent))

    def from_layout(self, layout: BoardLayout) -> VariantPosition:
        """The long-nardy position of a layout with no bar, pool or pins."""
        _refuse_pool_and_pins(layout, "long nardy")
        return NardyPosition(
            tuple(counts_from_side(layout.mover, nardy.NARDY_CHECKERS, "the side on roll")),
            tuple(counts_from_side(layout.opponent, nardy.NARDY_CHECKERS,
                                   "the side not on roll")))


def _refuse_pool_and_pins(layout: BoardLayout, who: str) -> None:
    """Refuse what only other variants' positions have.

    Raises:
        NotationError: checkers in a pool, or pins.
    """
    for side in (layout.mover, layout.opponent):
        if side.pool:
            raise NotationError(f"{who} has no pool: every checker starts on the board")
        if side.pins:
            raise NotationError(f"{who} has no pinning")


@dataclass(frozen=True, slots=True)
class TablesMovement:
    """Any other rules of movement, interpreted by the generic engine
    (``tourney.rules.tables``)."""

    rules: MovementRules
    engine: TablesEngine = field(init=False, repr=False, compare=False)
    """The engine of the side on roll (of either side, but where the geometry is
    :attr:`Geometry.by_colour`: of the side that moves first in the game)."""
    second_engine: TablesEngine = field(init=False, repr=False, compare=False)
    """The engine of the side that moves second (the same one but by colour)."""

    def __post_init__(self) -> None:
        rules = self.rules
        engine_rules = EngineRules(
            checkers=rules.checkers,
            opposite=rules.geometry.opposite(),
            landing=rules.landing.value,
            enter_all_first=rules.pool_entry is PoolEntry.ENTER_ALL_FIRST,
            first_checker_point=_first_checker_point(rules.restrictions),
            start_table_ban=Restriction.START_TABLE_NOT_FULL in rules.restrictions,
            prime_release=Restriction.PRIME_RELEASE in rules.restrictions,
            complement=rules.doubles in (Doubles.COMPLEMENT, Doubles.COMPLEMENT_ALWAYS),
            complement_with_pool=rules.doubles is Doubles.COMPLEMENT_ALWAYS,
            end_turn=rules.failure is FailurePolicy.END_TURN,
            exact_bear_off=rules.bear_off is BearOff.EXACT,
            mother_rule=rules.ending is Ending.MOTHER_PIN,
            transfer=rules.failure is FailurePolicy.TRANSFER,
            cascade_from_turn=rules.cascade_from_turn if rules.doubles is Doubles.CASCADE
            else 0,
            special_roll=rules.special_roll or (),
            entry_needs_permission=rules.entry_permission
            is not EntryPermission.ANY_ROLL,
            strict_entry=rules.entry_permission
            is EntryPermission.DOUBLET_OR_SPECIAL_ROLL_ONLY,
            chase=rules.doubles is Doubles.CHASE,
            lone_checker_corners=Restriction.LONE_CHECKER_CORNERS in rules.restrictions,
            no_bear_off=rules.bear_off is BearOff.NONE,
            first_off_loses=rules.ending is Ending.ALL_OFF_LOSES,
            hit_needs_home=bool({Restriction.HIT_ONLY_WITH_A_CHECKER_HOME,
                                 Restriction.HIT_ONCE_A_CHECKER_WAS_HOME}
                                & set(rules.restrictions)),
            hit_once_home=Restriction.HIT_ONCE_A_CHECKER_WAS_HOME in rules.restrictions,
            chosen_double_roll=(4, 3) if rules.special is SpecialRoll.MATADOR else None,
            opponent_start_limit=4 if Restriction.FOUR_POINTS_IN_OPPONENT_START
            in rules.restrictions else 0,
            counts_turns=rules.geometry.by_colour,
            extra_roll=rules.extra_roll.value,
            maximise_across_stages=rules.maximise_across_stages,
            transfer_doubles_only=rules.transfer_doubles_only,
            bump_to_empty=rules.bump_to_empty,
            remembers_home=rules.remembers_home,
            named_with_complement=rules.named_with_complement,
            transfer_requires_play=rules.transfer_requires_play,
            levels_by_colour=rules.ending is Ending.ALL_OFF_BY_COLOUR,
            doublet_two_moves=rules.doubles is Doubles.TWO_MOVES,
            mars_in_start_table=rules.ending is Ending.ALL_OFF_START_TABLE_MARS,
            head_rule=Restriction.CRAZY_NARDE_HEAD in rules.restrictions,
            six_block=Restriction.SIX_BLOCK in rules.restrictions,
            reroll_only_lone_checker=rules.reroll_only_lone_checker,
            last_roll=rules.last_roll,
        )
        engine = tables_engine(engine_rules)
        object.__setattr__(self, "engine", engine)
        object.__setattr__(self, "second_engine", tables_engine(replace(
            engine_rules, opposite=rules.geometry.opposite_for_second()))
            if rules.geometry.by_colour else engine)

    def _engine(self, position: VariantPosition) -> TablesEngine:
        """The engine of the side on roll in ``position``: by colour, the second side is
        on roll when it has played a turn fewer than the first."""
        board = cast(TablesPosition, position)
        return self.second_engine if board.turns[0] < board.turns[1] else self.engine

    def initial(self) -> VariantPosition:
        """The start layout and pool for both sides."""
        mover, opponent = self.rules.side_starts()
        return TablesPosition.from_points(dict(mover), dict(opponent),
                                          checkers=self.rules.checkers,
                                          pools=self.rules.side_pools())

    def decode_position_id(self, position_id: str) -> VariantPosition:
        """A position ID as :meth:`TablesPosition.to_id` writes it."""
        position = TablesPosition.from_id(position_id, self.rules.checkers)
        return self.from_layout(self.to_layout(position))

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions) -> dict[VariantPosition, Play]:
        """The distinct results of ``roll`` with one play each."""
        found = legal_tables_play_map(self._engine(position), cast(TablesPosition, position),
                                      roll)
        return cast(dict[VariantPosition, Play], found)

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions) -> frozenset[VariantPosition]:
        """The distinct results of ``roll``."""
        found = legal_tables_positions(self._engine(position), cast(TablesPosition, position),
                                       roll)
        return cast(frozenset[VariantPosition], found)

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions) -> VariantPosition:
        """The position after ``play``, if legal."""
        return check_tables_play(self._engine(position), cast(TablesPosition, position), roll,
                                 play)

    def apply_as_written(self, position: VariantPosition, play: Play) -> VariantPosition:
        """Not in these rules: a play here is checked stage by stage, and one that breaks
        them has no agreed position to continue from."""
        raise IllegalPlayError("a play against the rules cannot be condoned in this game",
                               PlayRule.NOT_A_LEGAL_RESULT)

    def winning_level(self, position: VariantPosition) -> Level | None:
        """The level the mover has won at, once the game is over."""
        return tables_winning_level(self.engine, cast(TablesPosition, position))

    def grants_extra_roll(self, position: VariantPosition, roll: Roll,
                          after: VariantPosition) -> bool:
        """Whether the rules' extra roll follows this turn."""
        return self._engine(position).grants_extra_roll(
            cast(TablesPosition, position), roll, cast(TablesPosition, after))

    def format_board(self, position: VariantPosition) -> str:
        """A diagram by absolute points A1-A24."""
        return format_tables_board(cast(TablesPosition, position),
                                   self._engine(position).rules.opposite)

    def to_layout(self, position: VariantPosition) -> BoardLayout:
        """Points, bar, pool, borne-off checkers and pins of each side."""
        board = cast(TablesPosition, position)
        mover, opponent = (
            side_from_counts(counts[:26], pool=counts[POOL],
                             pins=tuple(p for p in range(1, 25) if (mask >> p) & 1),
                             been_home=bool(mask & BEEN_HOME))
            for counts, mask in ((board.mover, board.pins[0]),
                                 (board.opponent, board.pins[1])))
        return BoardLayout(mover, opponent, board.turns)

    def from_layout(self, layout: BoardLayout) -> VariantPosition:
        """The position a layout describes.

        Raises:
            NotationError: wrong checker totals, a bar, pool or pin these rules do not
                have, or both sides on one point other than by a pin.
        """
        rules = self.rules
        sides = []
        for side, who in ((layout.mover, "the side on roll"),
                          (layout.opponent, "the side not on roll")):
            counts = counts_from_side(side, rules.checkers, who)
            if side.bar and rules.landing is not Landing.BLOCK2:
                raise NotationError(f"{who} has checkers on the bar; nothing is hit here")
            if side.pool and not any(rules.side_pools()):
                raise NotationError(f"{who} has checkers in the pool; every checker starts "
                                    "on the board here")
            if side.pins and rules.landing is not Landing.PIN:
                raise NotationError(f"{who} has pinned checkers; nothing is pinned here")
            if rules.landing is Landing.CAPTURE and any(n > 1 for n in side.points.values()):
                raise NotationError(f"{who} has two checkers on one point; a side holds "
                                    "a point with one checker here")
            sides.append([*counts, side.pool])
        # Only rules that count turns keep them in the position (by colour, they tell
        # which side is on roll, and so its numbering).
        counted = rules.doubles is Doubles.CASCADE or rules.geometry.by_colour
        turns = layout.turns_played if counted else (0, 0)
        second = rules.geometry.by_colour and turns[0] < turns[1]
        opposite = rules.geometry.opposite_for_second() if second else rules.geometry.opposite()
        pins = (layout.mover.pins, layout.opponent.pins)
        for index, (mine, theirs) in enumerate(((sides[0], sides[1]), (sides[1], sides[0]))):
            for point in pins[index]:
                if mine[point] != 1 or not theirs[opposite[point]]:
                    raise NotationError(f"a pinned checker on {point} must be alone under "
                                        "the other side's checkers")
        for point in range(1, 25):
            there = opposite[point]
            if sides[0][point] and sides[1][there] and \
                    point not in pins[0] and there not in pins[1]:
                raise NotationError(f"both sides have checkers on the {point} point of the "
                                    "side on roll, and neither is pinned")
        # Whether a side has had a checker home, where the rules keep it (bit 0).
        remembered = rules.remembers_home
        masks = tuple(sum(1 << p for p in side_pins)
                      | (BEEN_HOME if remembered and (been or _is_home(counts)) else 0)
                      for side_pins, been, counts in zip(
                          pins, (layout.mover.been_home, layout.opponent.been_home), sides,
                          strict=True))
        return TablesPosition(tuple(sides[0]), tuple(sides[1]), (masks[0], masks[1]), turns)


def _is_home(counts: list[int]) -> bool:
    """Whether a side has a checker on its points 1-6 or borne off now."""
    return any(counts[OFF:7])


def _first_checker_point(restrictions: tuple[Restriction, ...]) -> int:
    """The point the first checker must reach before a second leaves the 24 point: 11,
    past the opponent's start (Fevga, Moultezim), or 6, home (Jacquet's courier); 0 for
    no such rule."""
    if Restriction.FIRST_CHECKER_PASSES in restrictions:
        return 11
    if Restriction.FIRST_CHECKER_LEAVES_OWN_HALF in restrictions:
        return 12
    if Restriction.COURIER_REACHES_HOME in restrictions:
        return 6
    return 0


def _rules(options: VariantOptions) -> NardyRules:
    return NardyRules(strict_block=options.strict_block)


_BACKGAMMON = MovementRules(CHECKERS, ())._kind()
_LONG_NARDY = MovementRules(
    nardy.NARDY_CHECKERS, ((nardy.HEAD, nardy.NARDY_CHECKERS),),
    geometry=Geometry.PARALLEL_12, landing=Landing.BLOCK1, entry=Entry.NONE,
    restrictions=(Restriction.HEAD_RULE, Restriction.SIX_BLOCK),
)


def movement_for(rules: MovementRules) -> Movement:
    """The engine that plays ``rules``.

    >>> type(movement_for(MovementRules(3, ((24, 1), (23, 1), (22, 1))))).__name__
    'BackgammonMovement'

    Raises:
        ValueError: no engine plays these rules yet, or the start does not place the
            checkers.
    """
    house = frozenset(rules.restrictions) & _HOUSE_RESTRICTIONS
    if house and replace(rules, restrictions=tuple(
            r for r in rules.restrictions if r not in house))._kind() == _BACKGAMMON:
        # Backgammon under house rules: its own start checks, then the restricted engine.
        movement_for(replace(rules, restrictions=()))
        return HouseRulesMovement(rules.checkers, rules.start, HouseRules(
            five_checker_limit=Restriction.FIVE_CHECKER_LIMIT in house,
            no_hit_and_run_at_home=Restriction.NO_HIT_AND_RUN_AT_HOME in house))
    if rules._kind() == _BACKGAMMON:
        placed = sum(count for _, count in rules.start)
        points_ok = all(1 <= point <= 24 for point, _ in rules.start)
        if not (0 < rules.checkers <= CHECKERS and placed == rules.checkers and points_ok):
            raise ValueError(f"the start {rules.start} does not place {rules.checkers} "
                             "checkers on points 1-24")
        return BackgammonMovement(rules.checkers, rules.start)
    if rules._kind() == _LONG_NARDY._kind():
        if (rules.checkers, rules.start) != (_LONG_NARDY.checkers, _LONG_NARDY.start):
            raise ValueError("long nardy's rules of movement start every checker on the head")
        return NardyMovement()
    if (rules.landing is Landing.BLOCK2) != (rules.entry is Entry.BAR_FIRST):
        raise ValueError(f"no engine plays these rules of movement yet: {rules} (hitting "
                         "needs the bar, and only hitting does)")
    for start, pool in zip(rules.side_starts(), rules.side_pools(), strict=True):
        placed = sum(count for _, count in start) + pool
        if placed != rules.checkers or not all(1 <= point <= 24 for point, _ in start):
            raise ValueError(f"the start {start} and pool {pool} do not place "
                             f"{rules.checkers} checkers")
    return TablesMovement(rules)
