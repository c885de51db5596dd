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
fast path stays the fast path; long nardy's go to ``tourney.rules.nardy``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol, cast

from tourney.rules import moves, nardy
from tourney.rules.board import CHECKERS, Position
from tourney.rules.diagram import format_board, format_nardy_board
from tourney.rules.dice import Roll
from tourney.rules.game import Level, winning_level
from tourney.rules.moves import Play
from tourney.rules.nardy import NardyPosition, NardyRules
from tourney.rules.position_id import decode_position_id
from tourney.rules.variant_protocol import VariantOptions, VariantPosition


class Geometry(Enum):
    """Where the other side's checkers are, in one side's numbering (VARIANTS.md 0.3)."""

    CONTRARY = "contrary"
    """The other side's point q is this side's 25 - q; the sides move in opposite ways."""
    PARALLEL_12 = "parallel-12"
    """The other side's point q is this side's q + 12 (or q - 12); both move the same
    way round the board, each starting from a corner diagonally opposite the other's."""


class Landing(Enum):
    """May a checker land on a point the opponent holds (VARIANTS.md 0.4)."""

    BLOCK2 = "block2"
    """Not on two or more opposing checkers; a single one is hit to the bar."""
    BLOCK1 = "block1"
    """Not on any opposing checker: nothing is ever hit."""


class Entry(Enum):
    """How checkers come onto the board."""

    BAR_FIRST = "bar-first"
    """Hit checkers re-enter from the bar before any other checker moves."""
    NONE = "none"
    """Every checker starts on the board and none is ever hit: there is no bar."""


class Restriction(Enum):
    """Limits on which plays are allowed beyond landing and the dice."""

    HEAD_RULE = "head-rule"
    """One checker a turn leaves the head (two on a first 6-6, 4-4 or 3-3 stopped by
    the opponent's head)."""
    SIX_BLOCK = "six-block"
    """No six points in a row with no opposing checker past them."""


class Doubles(Enum):
    """What a roll gives to play: the stages of a turn."""

    FOUR_MOVES = "four-moves"
    """One stage: the two dice, or four moves of a doublet."""


class FailurePolicy(Enum):
    """What becomes of dice that cannot be played."""

    LOSE = "lose"
    """They are lost; the turn ends."""


class BearOff(Enum):
    """When a checker may be borne off."""

    STANDARD = "standard"
    """With every checker home: by the exact number, or a higher one from the highest
    occupied point."""


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

    def _kind(self) -> tuple[object, ...]:
        """Everything but the checkers and start: what decides the engine."""
        return (self.geometry, self.landing, self.entry, frozenset(self.restrictions),
                self.doubles, self.failure, self.bear_off)


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

    def winning_level(self, position: VariantPosition) -> Level | None:
        """The highest level the board shows the mover has won at, whatever the event
        scores (the variant maps it to a level its options score)."""
        ...

    def format_board(self, position: VariantPosition) -> str:
        """A text diagram of the position."""
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

    def winning_level(self, position: VariantPosition) -> Level | None:
        """Single, gammon or backgammon once the mover has borne everything off."""
        return winning_level(cast(Position, position))

    def format_board(self, position: VariantPosition) -> str:
        """gnubg's board diagram."""
        return format_board(cast(Position, position))


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

    def winning_level(self, position: VariantPosition) -> Level | None:
        """Oin, mars or koks once the mover has borne everything off."""
        return nardy.nardy_winning_level(cast(NardyPosition, position), _EVERY_LEVEL)

    def format_board(self, position: VariantPosition) -> str:
        """The long-nardy board diagram."""
        return format_nardy_board(cast(NardyPosition, position))


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
    raise ValueError(f"no engine plays these rules of movement yet: {rules}")
