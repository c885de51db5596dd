"""Long nardy: positions, legal plays, the head and six-block rules, and game results.

Terminology (the rules as the tournament documents the project was founded on state them;
where they leave a choice open, the event options in :class:`NardyRules` decide):

- *Points* are counted by each side in its own numbering, as in backgammon: point 24 is
  the side's *head*, where all its fifteen checkers start, and points 1-6 its *home*.
  Both sides move the same way round the board, so a side's own point ``p`` is the other
  side's point ``p - 12`` (for ``p > 12``) or ``p + 12``: a side's head is the other
  side's 12 point. Index 0 of a side's counts holds its borne-off checkers; there is no
  bar (index 25 is always empty), because nothing is ever hit.
- *No hitting*: a checker may never land on a point holding any opposing checker; any
  number of a side's own checkers may share a point.
- *Dice* as in backgammon: two moves, four for a doublet; each die moves one checker by its
  full number; a checker moving by two or more dice needs every point it stops on open.
- *Head rule*: only one checker may leave the head in a turn. On each side's first roll
  only, with 6-6, 4-4 or 3-3 a second checker may leave it, because the opponent's head
  (on the 12 point) stops a single checker from playing the whole roll: the exception
  applies only when it really is the opponent's head that stops it (every point the
  checker would stop on before the 12 point is open). So after White's first roll 5-5
  (24/4), Black's first 4-4 is stopped on its 16 point by White's checker, not by the head:
  one checker leaves the head and plays one four (24/20). After White's 2-2 (24/16),
  Black's 5-5 takes one checker from the head and plays three fives (24/9), the fourth
  five stopped by White's checker on Black's 4 point. A side's first roll is recognised by
  all fifteen of its checkers on its head, which happens at no other time.
- *Maximum use and the larger die* as in backgammon: a play uses as many dice as any
  legal sequence can; when only one die of two can be used, the larger if it can be. So
  when the last checker still to come home can use only one die, because the other die's
  point is held by the opponent, it plays the smaller and the larger is lost unless it can
  then be played (bearing off is then allowed, and maximum use requires it).
- *Six-block rule*: a play may not end with six or more consecutive points held in front
  of the opponent (consecutive along the opponent's way round, i.e. in its numbering)
  unless at least one opposing checker is already past the block (on a lower point of its
  own numbering, or borne off). Only the position at the end of the play counts: within a
  play a block may close and open again. With ``strict_block`` (a local variant) a block
  is allowed only once an opposing checker has reached its home (or borne off). Either
  way all fifteen opposing checkers can never be trapped.
- *Bearing off* as in backgammon: only with all fifteen checkers home; by the exact number,
  or by a higher number from the highest occupied point when no checker stands higher; a
  checker may also move inside the home instead.
- *Results*: *oin* (the loser has borne off at least one checker) scores 1, *mars* (none)
  2. *Koks* (a mars with a loser's checker still in its first quarter, its points 19-24)
  counts as a mars unless the event scores it 3.

Position IDs for long nardy use gnubg's Position ID layout over these counts (each side
in its own numbering, the bar empty): 14 characters, the side on roll second, as in
backgammon. The initial position is ``AACA/z8AAID/Pw``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from tourney.rules.board import Checkers
from tourney.rules.dice import Roll
from tourney.rules.errors import IllegalPlayError, NotationError, PlayRule
from tourney.rules.game import Level
from tourney.rules.moves import Move, Play, format_play
from tourney.rules.position_id import decode_counts, encode_counts

HEAD = 24
"""Each side's head: its own 24 point, where all its checkers start."""
NARDY_CHECKERS = 15
_SLOTS = 26
_FIRST_ROLL_DOUBLETS = (6, 4, 3)
_OPPOSITE = tuple(0 if p == 0 else (p - 12 if p > 12 else p + 12) for p in range(25))


def opposite_point(point: int) -> int:
    """The same physical point in the other side's numbering (1-24).

    >>> opposite_point(24), opposite_point(12), opposite_point(1)
    (12, 24, 13)
    """
    if not 1 <= point <= 24:
        raise NotationError(f"point {point} is not on the board (1-24)")
    return _OPPOSITE[point]


@dataclass(frozen=True, slots=True)
class NardyRules:
    """The long-nardy options an event chooses; the defaults follow the seed rules."""

    strict_block: bool = False
    """A six-block only once an opposing checker has reached its home (local variant)."""
    koks: bool = False
    """Score a koks 3 points instead of counting it as a mars."""


DEFAULT_RULES = NardyRules()


@dataclass(frozen=True, slots=True)
class NardyPosition:
    """Both sides' checkers in long nardy, seen from the side on roll.

    ``mover`` and ``opponent`` hold 26 counts each in that side's own numbering (index 0
    borne off, 1-24 the points, 25 unused: there is no bar).

    >>> NardyPosition.initial().to_id()
    'AACA/z8AAID/Pw'
    """

    mover: Checkers
    opponent: Checkers

    def __post_init__(self) -> None:
        for name, side in (("mover", self.mover), ("opponent", self.opponent)):
            if len(side) != _SLOTS or any(count < 0 for count in side):
                raise NotationError(f"{name}'s checkers must be 26 non-negative counts")
            if side[25]:
                raise NotationError("long nardy has no bar: nothing is ever hit")
            if sum(side) != NARDY_CHECKERS:
                raise NotationError(f"{name} has {sum(side)} checkers, not 15")
        for point in range(1, 25):
            if self.mover[point] and self.opponent[_OPPOSITE[point]]:
                raise NotationError(f"both sides have checkers on the mover's {point} point")

    @classmethod
    def _trusted(cls, mover: Checkers, opponent: Checkers) -> NardyPosition:
        position = object.__new__(cls)
        object.__setattr__(position, "mover", mover)
        object.__setattr__(position, "opponent", opponent)
        return position

    @classmethod
    def initial(cls) -> NardyPosition:
        """Both sides' fifteen checkers on their heads."""
        start = (0,) * HEAD + (NARDY_CHECKERS, 0)
        return cls(start, start)

    @classmethod
    def from_points(cls, mover: dict[int, int], opponent: dict[int, int]) -> NardyPosition:
        """Build from ``{point: count}`` maps in each side's own numbering; checkers not
        placed are borne off.

        >>> NardyPosition.from_points({24: 14, 18: 1}, {24: 15}).mover[18]
        1

        Raises:
            NotationError: a map places more than 15 checkers, uses a point outside
                1-24, or both sides share a point.
        """
        sides = []
        for layout in (mover, opponent):
            counts = [0] * _SLOTS
            for point, count in layout.items():
                if not 1 <= point <= 24:
                    raise NotationError(f"point {point} is not on the board (1-24)")
                counts[point] = count
            counts[0] = NARDY_CHECKERS - sum(counts)
            if counts[0] < 0:
                raise NotationError("a side has at most 15 checkers")
            sides.append(tuple(counts))
        return cls(sides[0], sides[1])

    @classmethod
    def from_id(cls, position_id: str) -> NardyPosition:
        """Decode a long-nardy position ID (gnubg's layout, see the module docstring).

        Raises:
            NotationError: not a valid ID, or not a legal long-nardy position.
        """
        opponent, mover = decode_counts(position_id)
        for counts in (opponent, mover):
            if counts[25]:
                raise NotationError(f"{position_id!r} puts checkers on the bar, which long "
                                    "nardy does not have")
            on_board = sum(counts)
            if on_board > NARDY_CHECKERS:
                raise NotationError(f"{position_id!r} puts {on_board} checkers of one side "
                                    "on the board; the most is 15")
            counts[0] = NARDY_CHECKERS - on_board
        try:
            return cls(tuple(mover), tuple(opponent))
        except NotationError as error:
            raise NotationError(f"{position_id!r} is not a legal long-nardy position: "
                                f"{error}") from None

    def to_id(self) -> str:
        """The position's 14-character ID, the mover on roll."""
        return encode_counts(self.mover, self.opponent)

    def turned(self) -> NardyPosition:
        """The same position with the other side on roll."""
        return NardyPosition._trusted(self.opponent, self.mover)

    def opponent_at(self, point: int) -> int:
        """How many opposing checkers stand on the mover's ``point`` (1-24)."""
        return self.opponent[opposite_point(point)]

    def pips(self) -> tuple[int, int]:
        """Pip counts of (mover, opponent)."""
        return (
            sum(point * count for point, count in enumerate(self.mover)),
            sum(point * count for point, count in enumerate(self.opponent)),
        )

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by (mover, opponent)."""
        return (self.mover[0], self.opponent[0])

    def is_first_roll(self) -> bool:
        """Whether the mover has all fifteen checkers on its head (its first roll)."""
        return self.mover[HEAD] == NARDY_CHECKERS

    def __repr__(self) -> str:
        return f"NardyPosition.from_id({self.to_id()!r})"


# --- the move generator ---------------------------------------------------------------
# A state is the pair (mine, theirs) of 26-count lists; the opponent's count on my point p
# is theirs[_OPPOSITE[p]]. Steps are (origin, destination) with destination 0 for off.

_Step = tuple[int, int]
_State = tuple[list[int], list[int]]
_Found = dict[bytes, tuple[list[int], tuple[_Step, ...]]]


def _steps_for_die(mine: list[int], theirs: list[int], die: int, head_open: bool) -> list[_Step]:
    """Every single-checker move ``die`` allows, the head only if ``head_open``."""
    highest = 24
    while highest and not mine[highest]:
        highest -= 1
    bearing_off = highest <= 6
    steps: list[_Step] = []
    for origin in range(highest, 0, -1):
        if not mine[origin] or (origin == HEAD and not head_open):
            continue
        destination = origin - die
        if destination > 0:
            if not theirs[_OPPOSITE[destination]]:
                steps.append((origin, destination))
        elif bearing_off and (destination == 0 or origin == highest):
            steps.append((origin, 0))
    return steps


def _head_allowance(mine: Sequence[int], theirs: Sequence[int], roll: Roll,
                    first_roll: bool) -> int:
    """How many checkers may leave the head this turn (the head rule and its exception)."""
    if not (first_roll and roll.is_doublet and roll.first in _FIRST_ROLL_DOUBLETS):
        return 1
    die = roll.first
    point = HEAD - die
    while point > 12:
        if theirs[_OPPOSITE[point]]:
            return 1  # stopped before the head: the exception does not apply
        point -= die
    # The exception applies only when the opponent's head (on the 12 point) stops it.
    return 2 if theirs[_OPPOSITE[12]] else 1


def _block_breaks_rule(mine: Sequence[int], theirs: Sequence[int], strict: bool) -> bool:
    """Whether the mover holds six or more points in a row, in the opponent's numbering,
    with no opposing checker past them (or, if ``strict``, none yet home)."""
    run = 0
    for q in range(24, 0, -1):
        # Opponent point q is the mover's point _OPPOSITE[q]; walk the opponent's way.
        if mine[_OPPOSITE[q]]:
            run += 1
            continue
        if run >= 6 and not _past_block(theirs, q + 1, strict):
            return True
        run = 0
    return run >= 6 and not _past_block(theirs, 1, strict)


def _past_block(theirs: Sequence[int], lowest: int, strict: bool) -> bool:
    """Whether an opposing checker is past a block whose lowest point (opponent's
    numbering) is ``lowest``: borne off or on a lower point."""
    if strict:
        return any(theirs[q] for q in range(0, 7))
    return any(theirs[q] for q in range(0, lowest))


def _key(mine: list[int]) -> bytes:
    return bytes(mine)


def _generate(position: NardyPosition, roll: Roll, rules: NardyRules,
              first_roll: bool | None) -> tuple[_Found, int]:
    """Distinct legal results (the mover's counts) with one step sequence each, and how
    many dice every legal play uses."""
    mine0 = list(position.mover)
    theirs = list(position.opponent)
    if first_roll is None:
        first_roll = position.is_first_roll()
    allowance = _head_allowance(mine0, theirs, roll, first_roll)
    head_floor = mine0[HEAD] - allowance
    strict = rules.strict_block
    start: _Found = {_key(mine0): (mine0, ())}
    if roll.is_doublet:
        orders: tuple[tuple[int, ...], ...] = (roll.moves,)
    else:
        orders = ((roll.high, roll.low), (roll.low, roll.high))
    # by_depth[d]: states after d dice, with one sequence reaching each.
    by_depth: list[_Found] = [start, {}, {}, {}, {}]
    high_first: _Found = {}
    for order in orders:
        frontier = start
        for depth, die in enumerate(order, start=1):
            reached: _Found = {}
            for mine, steps in frontier.values():
                for step in _steps_for_die(mine, theirs, die, mine[HEAD] > head_floor):
                    moved = mine.copy()
                    moved[step[0]] -= 1
                    moved[step[1]] += 1
                    key = _key(moved)
                    if key not in reached:
                        reached[key] = (moved, (*steps, step))
            if not reached:
                break
            for key, value in reached.items():
                by_depth[depth].setdefault(key, value)
            if depth == 1 and die == roll.high:
                high_first = reached
            frontier = reached
    for depth in range(len(roll.moves), 0, -1):
        legal = {key: value for key, value in by_depth[depth].items()
                 if not _block_breaks_rule(value[0], theirs, strict)}
        if not legal:
            continue
        if depth == 1 and not roll.is_doublet:
            # Only one die can be used: the larger one whenever it can be.
            larger = {key: value for key, value in legal.items() if key in high_first}
            return (larger or legal), 1
        return legal, depth
    return start, 0


def _result(mine: list[int], position: NardyPosition) -> NardyPosition:
    return NardyPosition._trusted(tuple(mine), position.opponent)


def _play(steps: Sequence[_Step]) -> Play:
    return Play(tuple(Move(origin, destination) for origin, destination in steps))


def legal_nardy_positions(position: NardyPosition, roll: Roll, *,
                          rules: NardyRules = DEFAULT_RULES,
                          first_roll: bool | None = None) -> frozenset[NardyPosition]:
    """Every distinct position a legal play of ``roll`` reaches, the mover still on roll.

    ``first_roll`` (default: all fifteen checkers on the head) says whether this is the
    mover's first roll of the game, for the head rule's exception.

    >>> sorted(p.mover[18] for p in legal_nardy_positions(NardyPosition.initial(), Roll(6, 6)))
    [2]
    """
    found, _ = _generate(position, roll, rules, first_roll)
    return frozenset(_result(mine, position) for mine, _ in found.values())


def legal_nardy_play_map(position: NardyPosition, roll: Roll, *,
                         rules: NardyRules = DEFAULT_RULES,
                         first_roll: bool | None = None) -> dict[NardyPosition, Play]:
    """Each distinct legal result of ``roll`` with one play (single-die moves) reaching it."""
    found, _ = _generate(position, roll, rules, first_roll)
    return {_result(mine, position): _play(steps) for mine, steps in found.values()}


def legal_nardy_plays(position: NardyPosition, roll: Roll, *,
                      rules: NardyRules = DEFAULT_RULES,
                      first_roll: bool | None = None) -> list[Play]:
    """One play for each distinct legal result; a roll that cannot be played gives the
    one empty play.

    >>> [str(p) for p in legal_nardy_plays(NardyPosition.initial(), Roll(2, 1))]
    ['24/22 22/21']
    """
    return list(legal_nardy_play_map(position, roll, rules=rules,
                                     first_roll=first_roll).values())


# --- checking a play as written ---------------------------------------------------------


def _point_name(point: int) -> str:
    return "off" if point == 0 else f"the {point} point"


def _dice_paths(dice: tuple[int, ...], distance: int, bearing_off: bool) -> list[tuple[int, ...]]:
    paths: list[tuple[int, ...]] = []
    for count in range(1, len(dice) + 1):
        for combo in sorted(set(permutations(dice, count))):
            total = sum(combo)
            if total == distance or (bearing_off and total > distance > sum(combo[:-1])):
                paths.append(combo)
    return paths


def _walk(mine: list[int], theirs: list[int], move: Move, dice: tuple[int, ...],
          head_left: int) -> tuple[list[int], tuple[int, ...], int] | IllegalPlayError:
    """Move one checker as written using some of ``dice``; the new counts, dice left and
    head allowance left, or the rule the move breaks."""
    origin, destination = move.origin, move.destination
    if not mine[origin]:
        extra = " (the opponent's checkers stand there)" if theirs[_OPPOSITE[origin]] else ""
        return IllegalPlayError(f"there is no checker on {_point_name(origin)} to move{extra}",
                                PlayRule.NO_CHECKER)
    if origin == HEAD and head_left <= 0:
        return IllegalPlayError(f"{move}: only one checker may leave the head this turn",
                                PlayRule.HEAD_RULE)
    if destination and theirs[_OPPOSITE[destination]]:
        return IllegalPlayError(f"{move} lands on {_point_name(destination)}, which holds the "
                                "opponent's checkers (no landing on an opposing checker)",
                                PlayRule.BLOCKED)
    if destination == 0 and any(mine[7:25]):
        outside = max(p for p in range(7, 25) if mine[p])
        return IllegalPlayError(f"{move} bears off while a checker stands on "
                                f"{_point_name(outside)}, outside the home",
                                PlayRule.NOT_ALL_HOME)
    paths = _dice_paths(dice, origin - destination, destination == 0)
    if not paths:
        left = "-".join(str(d) for d in dice) or "none"
        return IllegalPlayError(f"{move} moves {origin - destination} pips, which the dice "
                                f"left ({left}) cannot make", PlayRule.DIE_MISMATCH)
    others = mine.copy()
    others[origin] -= 1
    highest_other = max((p for p in range(1, 25) if others[p]), default=0)
    problem: IllegalPlayError | None = None
    for path in paths:
        point, ok = origin, True
        for die in path:
            stop = point - die
            if stop > 0 and theirs[_OPPOSITE[stop]]:
                problem = IllegalPlayError(
                    f"{move} cannot be played: {_point_name(stop)} on the way holds the "
                    "opponent's checkers", PlayRule.BLOCKED)
                ok = False
                break
            if stop < 0 and highest_other > point:
                # A higher number bears off only from the highest occupied point.
                problem = IllegalPlayError(
                    f"{move} bears off with a {die} from {_point_name(point)} while a "
                    f"checker stands on the higher {highest_other} point",
                    PlayRule.HIGHER_POINT_OCCUPIED)
                ok = False
                break
            point = max(stop, 0)
        if ok:
            moved = others
            moved[destination] += 1
            remaining = list(dice)
            for die in path:
                remaining.remove(die)
            return moved, tuple(remaining), head_left - (origin == HEAD)
    return problem or IllegalPlayError(f"{move} is not a legal move with these dice",
                                       PlayRule.NOT_A_LEGAL_RESULT)


def _block_message(mine: Sequence[int], rules: NardyRules) -> str:
    run: list[int] = []
    for q in range(24, 0, -1):
        if mine[_OPPOSITE[q]]:
            run.append(_OPPOSITE[q])
            continue
        if len(run) >= 6:
            break
        run = []
    span = f"the {run[0]} to {run[-1]} points" if run else "six points"
    if rules.strict_block:
        return (f"this play would complete a six-point block ({span}) before any opposing "
                "checker has reached its home")
    return (f"this play would complete a six-point block ({span}) with no opposing checker "
            "ahead of it")


def check_nardy_play(position: NardyPosition, roll: Roll, play: Play, *,
                     rules: NardyRules = DEFAULT_RULES,
                     first_roll: bool | None = None) -> NardyPosition:
    """The position after ``play`` if it is legal in long nardy; the mover stays on roll.

    >>> check_nardy_play(NardyPosition.initial(), Roll(6, 5), Play((Move(24, 13),))).mover[13]
    1
    >>> check_nardy_play(NardyPosition.initial(), Roll(6, 5), Play((Move(24, 18), Move(24, 19))))
    Traceback (most recent call last):
    ...
    tourney.rules.errors.IllegalPlayError: 24/19: only one checker may leave the head this turn

    Raises:
        IllegalPlayError: the play breaks a rule; the message names it in nardy terms.
    """
    found, most = _generate(position, roll, rules, first_roll)
    mine = list(position.mover)
    theirs = list(position.opponent)
    dice = roll.moves
    for move in play.moves:
        if move.hit:
            raise IllegalPlayError(f"{move}: there is no hitting in long nardy",
                                   PlayRule.BLOCKED)
        if move.origin == 25:
            raise IllegalPlayError(f"{move}: long nardy has no bar", PlayRule.NO_CHECKER)
    if len(play.moves) > len(dice):
        raise IllegalPlayError(f"{roll.first}-{roll.second} gives {len(dice)} moves, and the "
                               f"play makes {len(play.moves)}", PlayRule.TOO_MANY_MOVES)
    if first_roll is None:
        first_roll = position.is_first_roll()
    head_left = _head_allowance(mine, theirs, roll, first_roll)
    first_problem: IllegalPlayError | None = None
    reached: list[tuple[list[int], int]] = []
    orders = [play.moves, *(o for o in permutations(play.moves) if o != play.moves)]
    for order in orders[:24]:
        state, left, heads = mine, dice, head_left
        for move in order:
            walked = _walk(state, theirs, move, left, heads)
            if isinstance(walked, IllegalPlayError):
                if first_problem is None:
                    first_problem = walked
                break
            state, left, heads = walked
        else:
            key = _key(state)
            if key in found:
                return _result(state, position)
            reached.append((state, len(dice) - len(left)))
    if not reached:
        assert first_problem is not None
        if first_problem.rule is PlayRule.HEAD_RULE and head_left == 2:
            moved = str(first_problem).split(":")[0]
            raise IllegalPlayError(f"{moved}: only two checkers may leave the head on this "
                                   "first roll", PlayRule.HEAD_RULE)
        if first_problem.rule is PlayRule.HEAD_RULE and head_left == 1 and first_roll and \
                roll.is_doublet and roll.first in _FIRST_ROLL_DOUBLETS:
            raise IllegalPlayError(
                f"{first_problem}: the first-roll exception for {roll.first}-{roll.first} "
                "applies only when the opponent's head stops a single checker",
                PlayRule.HEAD_RULE)
        raise first_problem
    state, used = max(reached, key=lambda item: item[1])
    example = format_play(_play(next(iter(found.values()))[1]), words=True)
    if _block_breaks_rule(state, theirs, rules.strict_block):
        raise IllegalPlayError(_block_message(state, rules), PlayRule.SIX_BLOCK)
    if used < most:
        what = "both dice" if most == 2 and not roll.is_doublet else f"{most} dice"
        raise IllegalPlayError(f"{what} could have been played, and the play uses {used} "
                               f"(for example {example or 'no move'})",
                               PlayRule.MORE_DICE_PLAYABLE)
    if used == 1 and most == 1 and not roll.is_doublet:
        raise IllegalPlayError(f"only one die can be played, so it must be the larger: the "
                               f"{roll.high} can be played (for example {example})",
                               PlayRule.LARGER_DIE)
    raise IllegalPlayError("the play does not reach a position any legal play reaches",
                           PlayRule.NOT_A_LEGAL_RESULT)


# --- results ------------------------------------------------------------------------------


def nardy_winning_level(position: NardyPosition, rules: NardyRules = DEFAULT_RULES
                        ) -> Level | None:
    """The level the mover has won at once all its checkers are off: oin
    (``Level.SINGLE``), mars (``Level.GAMMON``) or, where the event scores it, koks
    (``Level.BACKGAMMON``: a mars with a loser's checker still in its first quarter).

    >>> nardy_winning_level(NardyPosition.from_points({}, {3: 14}))
    <Level.SINGLE: 1>
    >>> nardy_winning_level(NardyPosition.from_points({}, {3: 14, 20: 1}))
    <Level.GAMMON: 2>
    >>> nardy_winning_level(NardyPosition.from_points({}, {3: 14, 20: 1}), NardyRules(koks=True))
    <Level.BACKGAMMON: 3>
    """
    if any(position.mover[1:]):
        return None
    loser = position.opponent
    if loser[0]:
        return Level.SINGLE
    if rules.koks and any(loser[19:25]):
        return Level.BACKGAMMON
    return Level.GAMMON


def nardy_level_points(level: Level, rules: NardyRules = DEFAULT_RULES) -> int:
    """Points a level scores before the cube: oin 1, mars 2, koks 3 (2 unless scored).

    >>> nardy_level_points(Level.BACKGAMMON)
    2
    """
    if level is Level.BACKGAMMON and not rules.koks:
        return 2
    return int(level)
