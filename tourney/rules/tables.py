"""The generic tables engine: positions and legal turns for any declared rules of movement.

Terminology (VARIANTS.md sections 0.3 and 0.4):

- Each side counts its own points 1-24 from its bear-off end; a checker moving ``d`` pips
  goes from ``p`` to ``p - d``. Besides the points a side has its *bar* (hit checkers
  waiting to re-enter), its *pool* (checkers not yet entered) and its *off* tray. A
  checker entering from the bar or the pool with die ``d`` lands on its own ``25 - d``.
- The *geometry* says which of the opponent's points is which of ours: contrary
  (``25 - q``), parallel (``q ± 12``) or shared (``q``).
- The *landing rule* is a predicate on the point a checker touches down on: two
  opposing checkers block and one is hit (``BLOCK2``), one blocks (``BLOCK1``), or one is
  pinned under the lander (``PIN``, Plakoto: a pinned checker cannot move, and nobody
  may land on a pinner).
- A *stage* is a multiset of pip values played as far as possible (maximum usage, and
  the larger die when only one of two can be played). A turn is one stage, or for a
  doublet under the complement rule four ``d`` then four ``7 - d``; under ``END_TURN`` a
  stage left incomplete ends the turn.
- A game *ends* the moment a side has borne off every checker or, under the mother
  rule, a mother checker is pinned (VARIANTS.md section 11); the remaining values of the
  turn are not played, so such a play counts as using every value.

:class:`TablesPosition` holds both sides seen from the side on roll; :class:`TablesMovement`
interprets one :class:`~tourney.rules.movement.MovementRules` value. Standard backgammon
never comes here (it keeps the fast path of ``tourney.rules.moves``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from tourney.rules.board import Checkers
from tourney.rules.dice import Roll
from tourney.rules.errors import IllegalPlayError, NotationError, PlayRule
from tourney.rules.game import Level
from tourney.rules.moves import Move, Play, format_play
from tourney.rules.position_id import decode_counts, encode_counts
from tourney.rules.work_limit import spend as _spend

OFF = 0
BAR = 25
POOL = 26
SLOTS = 27
"""Counts per side: index 0 off, 1-24 the points, 25 the bar, 26 the pool."""
MOTHER = 24
BEEN_HOME = 1
"""Bit 0 of a side's pin mask: it has had a checker home (Dutch's historical hitting
rule); no pin lies on "point 0"."""
"""The point whose last checker is a side's mother (its own 24)."""


class Outcome(Enum):
    """How a game stands on the board."""

    PLAYING = "playing"
    MOVER_WON = "mover-won"
    OPPONENT_WON = "opponent-won"
    DRAWN = "drawn"
    """Both mothers pinned (Plakoto)."""


@dataclass(frozen=True, slots=True)
class TablesPosition:
    """Both sides' checkers, the side on roll first, each in its own numbering.

    ``mover`` and ``opponent`` hold 27 counts (see :data:`SLOTS`); ``pins`` holds, for
    (mover, opponent), a bit mask of the own points where that side's single checker lies
    pinned under the other side's.

    >>> TablesPosition.from_points({24: 15}, {24: 15}).to_id()
    'AACA/z8AAID/Pw'
    """

    mover: Checkers
    opponent: Checkers
    pins: tuple[int, int] = (0, 0)
    turns: tuple[int, int] = (0, 0)
    """Turns played by (mover, opponent), kept only by rules that count them (Gul bara's
    doublets cascade from a side's fourth turn); otherwise (0, 0)."""

    def __post_init__(self) -> None:
        for name, side in (("mover", self.mover), ("opponent", self.opponent)):
            if len(side) != SLOTS or any(count < 0 for count in side):
                raise NotationError(f"{name}'s checkers must be {SLOTS} non-negative counts")

    @classmethod
    def _trusted(cls, mover: Checkers, opponent: Checkers, pins: tuple[int, int],
                 turns: tuple[int, int] = (0, 0)) -> TablesPosition:
        position = object.__new__(cls)
        object.__setattr__(position, "mover", mover)
        object.__setattr__(position, "opponent", opponent)
        object.__setattr__(position, "pins", pins)
        object.__setattr__(position, "turns", turns)
        return position

    @classmethod
    def from_points(cls, mover: dict[int, int], opponent: dict[int, int], *,
                    checkers: int = 15, pools: tuple[int, int] = (0, 0),
                    pins: tuple[int, int] = (0, 0), turns: tuple[int, int] = (0, 0)
                    ) -> TablesPosition:
        """Build from ``{point: count}`` maps (25 = the bar); checkers neither placed nor
        in the pool are borne off.

        Raises:
            NotationError: a side places more than ``checkers``.
        """
        sides = []
        for layout, pool in zip((mover, opponent), pools, strict=True):
            counts = [0] * SLOTS
            for point, count in layout.items():
                if not 1 <= point <= BAR:
                    raise NotationError(f"point {point} is not on the board (1-24, 25 the bar)")
                counts[point] = count
            counts[POOL] = pool
            counts[OFF] = checkers - sum(counts)
            if counts[OFF] < 0:
                raise NotationError(f"a side has at most {checkers} checkers")
            sides.append(tuple(counts))
        return cls(sides[0], sides[1], pins, turns)

    def turned(self) -> TablesPosition:
        """The same position with the other side on roll."""
        return TablesPosition._trusted(self.opponent, self.mover, (self.pins[1], self.pins[0]),
                                       (self.turns[1], self.turns[0]))

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by (mover, opponent)."""
        return (self.mover[OFF], self.opponent[OFF])

    def to_id(self) -> str:
        """gnubg's Position ID layout over the points and bar, then ``:P<m>,<o>`` for
        checkers in the pools and ``:N<m>,<o>`` (hex bit masks) for pins where any.

        >>> TablesPosition.from_points({}, {}, pools=(15, 15)).to_id()
        'AAAAAAAAAAAAAA:P15,15'
        """
        text = encode_counts(self.mover[:SLOTS - 1], self.opponent[:SLOTS - 1])
        if self.mover[POOL] or self.opponent[POOL]:
            text += f":P{self.mover[POOL]},{self.opponent[POOL]}"
        if any(self.pins):
            text += f":N{self.pins[0]:x},{self.pins[1]:x}"
        if any(self.turns):
            text += f":T{self.turns[0]},{self.turns[1]}"
        return text

    @classmethod
    def from_id(cls, position_id: str, checkers: int) -> TablesPosition:
        """Read what :meth:`to_id` writes.

        Raises:
            NotationError: not such an ID, or a side with more than ``checkers``.
        """
        base, *extras = position_id.strip().split(":")
        opponent, mover = decode_counts(base)
        extra_values = {"P": [0, 0], "N": [0, 0], "T": [0, 0]}
        for extra in extras:
            match = _EXTRA.fullmatch(extra)
            if match is None:
                raise NotationError(f"{position_id!r}: {extra!r} is none of :P<m>,<o> "
                                    "(pools), :N<m>,<o> (pins) and :T<m>,<o> (turns)")
            base_of = 16 if match[1] == "N" else 10
            extra_values[match[1]] = [int(match[2], base_of), int(match[3], base_of)]
        pools, pins, turns = extra_values["P"], extra_values["N"], extra_values["T"]
        sides = []
        for counts, pool in zip((mover, opponent), pools, strict=True):
            counts.append(pool)
            counts[OFF] = checkers - sum(counts)
            if counts[OFF] < 0:
                raise NotationError(f"{position_id!r} gives a side more than {checkers} "
                                    "checkers")
            sides.append(tuple(counts))
        return cls(sides[0], sides[1], (pins[0], pins[1]), (turns[0], turns[1]))

    def __repr__(self) -> str:
        return f"TablesPosition(mover={self.mover!r}, opponent={self.opponent!r}, " \
               f"pins={self.pins!r}, turns={self.turns!r})"


_EXTRA = re.compile(r"([PNT])([0-9a-f]+),([0-9a-f]+)")


# --- the rules the engine reads --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EngineRules:
    """The parts of a variant's rules of movement the generator reads, as plain values
    (built by ``tourney.rules.movement`` from a ``MovementRules``)."""

    checkers: int
    opposite: tuple[int, ...]
    """Our point p (1-24) as the opponent's own point; index 0 unused."""
    landing: str
    """``block2``, ``block1`` or ``pin``."""
    enter_all_first: bool
    """While the pool is not empty, every value enters a checker if it can, and no
    board checker moves."""
    first_checker_point: int
    """Fevga's courier: until a checker stands on this point or lower (or is off), no
    second checker may leave the 24 point. 0: no such rule."""
    start_table_ban: bool
    """A turn may not end with all six of the side's points 19-24 occupied."""
    prime_release: bool
    """A prime with every opposing checker directly behind it must be broken if any
    play does."""
    complement: bool
    """A doublet rolled with the pool empty: four d, then four 7 - d."""
    end_turn: bool
    """A stage left incomplete ends the turn (no later stage)."""
    exact_bear_off: bool
    mother_rule: bool
    transfer: bool = False
    """TRANSFER: values the mover cannot play go to the opponent (Gul bara, Gioul)."""
    cascade_from_turn: int = 0
    """From the side's this-numbered turn on, a doublet d-d cascades: four d, four
    d + 1, ... four 6s, while each stage is completed. 0: never."""
    complement_with_pool: bool = False
    """With ``complement``: a doublet plays its complement with checkers in the pool
    too (European acey-deucey)."""
    special_roll: tuple[int, ...] = ()
    """A roll (acey-deucey's 1-2) played as rolled, then four of a number the player
    names; empty: none."""
    entry_needs_permission: bool = False
    """Asodio: a checker enters from the pool only on a doublet or the special roll, or
    beside an own checker already on 19-24."""
    strict_entry: bool = False
    """With ``entry_needs_permission``: only on a doublet or the special roll, whatever
    stands on 19-24 (Asodio's strict entry)."""
    chase: bool = False
    """The chase games' dice and movement: see :class:`ChaseEngine`."""
    lone_checker_corners: bool = False
    """Chase games: a side down to one checker moves from corner to corner."""
    no_bear_off: bool = False
    first_off_loses: bool = False
    """Misère: the side that bears off its last checker first loses the game."""
    hit_needs_home: bool = False
    """Dutch: a side may hit only while it has a checker on its points 1-6 or borne off."""
    hit_once_home: bool = False
    """With ``hit_needs_home``: once a side has had a checker there, for good. Whether it
    has is bit 0 of its pin mask (:data:`BEEN_HOME`), which no point uses (see
    ``remembers_home``)."""
    chosen_double_roll: tuple[int, int] | None = None
    """Matador: the roll (4-3) that is played, then followed by four of a value the
    roller names (and an extra roll, outside this turn's results)."""
    opponent_start_limit: int = 0
    """Moultezim: a turn may not end with more than this many of the side's points 7-12
    (the opponent's starting table) occupied. 0: no such limit."""
    counts_turns: bool = False
    """Keep the turns each side has played in the position even without cascades: by
    colour (the seed's American game) they tell which side is on roll."""
    levels_by_colour: bool = False
    """The seed's American stakes: the side that moved first wins at the gammon level,
    the other single, whatever the loser has borne off."""
    extra_roll: str = "none"
    """``none``, ``after-stages`` (a roll that gave more than its dice, every stage
    played) or ``after-doublets`` (every doublet and special roll; played in full where
    an incomplete stage ends the turn)."""
    maximise_across_stages: bool = False
    """Keep only the results that use the most values over all stages of the turn."""
    transfer_doubles_only: bool = False
    """With ``transfer``: only a doublet's values go over; other rolls' are lost."""
    transfer_requires_play: bool = False
    """With ``transfer``: values go over only if the roller moved at least one checker
    this turn; otherwise they are lost."""
    bump_to_empty: bool = False
    """Chase games: a checker bumped past its own stops on the first empty point, past
    opposing checkers too (VARIANTS.md D-BUMP's option)."""
    named_with_complement: bool = False
    """After the special roll the named number is played twice, then its opposite twice
    (European acey-deucey by the encyclopedia), not four times."""
    remembers_home: bool = False
    """Keep in bit 0 of a side's pin mask (:data:`BEEN_HOME`) whether it has had a
    checker home, under either Dutch hitting rule, so a position is the same under both."""
    doublet_two_moves: bool = False
    """A doublet gives two moves, its two dice (Persian nard after Himly)."""
    mars_in_start_table: bool = False
    """The winner scores the gammon level where the loser still has a checker on its own
    19-24, single otherwise, whatever it has borne off (Persian nard after Himly)."""
    head_rule: bool = False
    """Crazy narde's head rule: one checker leaves the 24 point in a turn, two in a turn
    rolled as a doublet (see :class:`HeadRuleEngine`)."""
    six_block: bool = False
    """No stage ends with six points in a row held in front of the opponent with no
    opposing checker past them (long nardy's rule, in crazy narde)."""
    reroll_only_lone_checker: bool = False
    """Chase games: only a side down to its lone checker rolls again, after a doublet
    that does not move it (see :meth:`ChaseEngine.grants_extra_roll`)."""
    last_roll: bool = False
    """The last-roll draw: the opponent's bearing off every checker does not end the
    game before the mover's last roll, which is played (the record's replay judges the
    result after it)."""


_Step = tuple[int, int]
_State = tuple[list[int], list[int], int, int]
"""Mover's counts, opponent's counts, mover's pin mask, opponent's pin mask."""
_Found = dict[bytes, tuple[_State, tuple[_Step, ...]]]


def _key(state: _State) -> bytes:
    return bytes(state[0]) + bytes(state[1]) + state[2].to_bytes(4) + state[3].to_bytes(4)


def _block2_key(state: _State) -> bytes:
    return bytes(state[0]) + bytes(state[1])


def _mine_key(state: _State) -> bytes:
    return bytes(state[0])


def _pin_key(state: _State) -> bytes:
    return bytes(state[0]) + state[3].to_bytes(4)


def _all_off_outcomes(rules: EngineRules) -> tuple[Outcome, Outcome]:
    """The outcome when the mover, or the opponent, has borne off every checker: a win
    for that side, or under misère's rule (first off loses, VARIANTS.md 14) a loss."""
    if rules.first_off_loses:
        return (Outcome.OPPONENT_WON, Outcome.MOVER_WON)
    return (Outcome.MOVER_WON, Outcome.OPPONENT_WON)


def _chosen_double_stages(roll: Roll) -> list[list[tuple[int, ...]]]:
    """Matador's special roll (VARIANTS.md 7.3): the two dice as rolled, then four of a
    named value c, for each c the roller may name."""
    return [[roll.moves, (named,) * 4] for named in range(1, 7)]


def _may_hit_dutch(mine: list[int]) -> bool:
    """Dutch backgammon's hitting rule (VARIANTS.md 3, Q-DUTCH-HIT): a side may hit only
    while it has a checker in its home board or borne off, at the moment of the hit."""
    return any(mine[OFF:7])


def _over_opponent_start_limit(mine: list[int], limit: int) -> bool:
    """Whether the side holds more than ``limit`` of its points 7-12, the opponent's
    starting table in a parallel game (Moultezim, VARIANTS.md 12.2)."""
    return sum(1 for point in range(7, 13) if mine[point]) > limit


class TablesEngine:
    """Generates the legal turns of one set of :class:`EngineRules`."""

    def __init__(self, rules: EngineRules) -> None:
        self.rules = rules
        self._opposite = rules.opposite
        # Within one stage only the moving side's counts change, and the other side's
        # only by hits (BLOCK2) or releases of its pins (PIN): the stage's search keys
        # on no more than that, which keeps the hot loop cheap.
        if rules.landing == "block1":
            self._stage_key: Callable[[_State], bytes] = _mine_key
        elif rules.landing == "pin":
            self._stage_key = _pin_key
        else:
            self._stage_key = _block2_key
        # The moves of four equal values can be tried in one order only, from the
        # highest origin down, when no move changes what another may do but by the
        # order of origins: not under pins, nor under Fevga's courier rule.
        # Nor under Dutch hitting, where one move home may allow another's hit.
        self._orderable = rules.landing != "pin" and not rules.first_checker_point \
            and not rules.hit_needs_home
        # Who has won when a side is all off (misère turns it round).
        self._all_off = _all_off_outcomes(rules)
        self._pool_needs_home_checker = False
        self._pool_closed = False
        self._without_entry_permission: TablesEngine | None = None
        if rules.entry_needs_permission:
            self._without_entry_permission = _engine_for_rolls_without_entry(rules)

    # --- single moves ------------------------------------------------------------------

    def _can_land(self, state: _State, point: int) -> bool:
        """The landing predicate: may the mover touch down on its ``point``."""
        theirs = state[1][self._opposite[point]]
        landing = self.rules.landing
        if landing == "block2":
            if theirs == 1 and self.rules.hit_needs_home:
                return _may_hit_dutch(state[0]) or (
                    self.rules.hit_once_home and bool(state[2] & BEEN_HOME))
            return theirs < 2
        if landing == "block1":
            return theirs == 0
        # PIN: not on two opposing checkers, nor on an opposing checker pinning ours.
        return theirs == 0 or (theirs == 1 and not (state[2] >> point) & 1)

    def steps(self, state: _State, die: int, top: int = POOL) -> list[_Step]:
        """Every single move ``die`` allows in ``state`` from an origin no higher than
        ``top`` in the order of origins (an entry from the bar or the pool counts as 25):
        a search that tries moves in one order of origins asks for no others."""
        mine = state[0]
        entry = 25 - die
        if mine[BAR]:
            return [(BAR, entry)] if top >= BAR and self._can_land(state, entry) else []
        found: list[_Step] = []
        if mine[POOL]:
            if top >= BAR and self._can_land(state, entry) and not self._pool_closed and not (
                    self._pool_needs_home_checker and not any(mine[19:25])):
                found.append((POOL, entry))
            if self.rules.enter_all_first:
                return found
        highest = 24
        while highest and not mine[highest]:
            highest -= 1
        pinned = state[2] & ~BEEN_HOME  # bit 0 is no pin
        bearing_off = highest <= 6 and not mine[POOL] and not pinned
        courier = self.rules.first_checker_point
        head_shut = courier and not any(mine[:courier + 1]) and any(mine[courier + 1:24])
        for origin in range(min(highest, top), 0, -1):
            if not mine[origin] or (pinned >> origin) & 1:
                continue
            if origin == 24 and head_shut:
                continue
            target = origin - die
            if target > 0:
                if self._can_land(state, target):
                    found.append((origin, target))
            elif bearing_off and (target == 0 or (
                    origin == highest and not self.rules.exact_bear_off)):
                found.append((origin, OFF))
        return found

    def apply(self, state: _State, step: _Step) -> _State:
        """The state after one single move (hitting or pinning where it lands)."""
        mine, theirs = state[0].copy(), state[1]
        my_pins, their_pins = state[2], state[3]
        origin, target = step
        mine[origin] -= 1
        opposite = self._opposite
        if origin <= 24 and not mine[origin] and (their_pins >> opposite[origin]) & 1:
            their_pins &= ~(1 << opposite[origin])  # the last pinner left: released
        if target:
            there = opposite[target]
            if theirs[there] == 1 and not (their_pins >> there) & 1:
                if self.rules.landing == "block2":
                    theirs = theirs.copy()
                    theirs[there] = 0
                    theirs[BAR] += 1
                elif self.rules.landing == "pin":
                    their_pins |= 1 << there
        mine[target] += 1
        if target <= 6 and self.rules.remembers_home:
            my_pins |= BEEN_HOME
        return (mine, theirs, my_pins, their_pins)

    def outcome(self, state: _State) -> Outcome:
        """How the game stands: over when a side is all off, or by the mother rule."""
        checkers = self.rules.checkers
        if state[0][OFF] == checkers:
            return self._all_off[0]
        if state[1][OFF] == checkers and not self.rules.last_roll:
            return self._all_off[1]
        if self.rules.mother_rule:
            mine_pinned = (state[2] >> MOTHER) & 1
            theirs_pinned = (state[3] >> MOTHER) & 1
            if mine_pinned and theirs_pinned:
                return Outcome.DRAWN
            if theirs_pinned and not state[0][MOTHER]:
                return Outcome.MOVER_WON
            if mine_pinned and not state[1][MOTHER]:
                return Outcome.OPPONENT_WON
        return Outcome.PLAYING

    # --- stages and turns --------------------------------------------------------------

    def _stage(self, start: _State, steps: tuple[_Step, ...], dice: tuple[int, ...]
               ) -> tuple[_Found, tuple[int, ...]]:
        """Distinct legal results of playing the multiset ``dice`` as one stage from
        ``start``, and the values left unplayed (a play that ends the game leaves none)."""
        values = tuple(sorted(dice, reverse=True))
        stage_key = self._stage_key
        # One order of origins for four equal values (see __init__): each set of moves
        # is then tried once; a state found twice at one depth came by the same moves.
        ordered = self._orderable and len(set(values)) == 1
        frontier: dict[tuple[bytes, tuple[int, ...]],
                       tuple[_State, tuple[_Step, ...], int, int]]
        frontier = {(stage_key(start), values): (start, steps, 0, POOL)}
        by_depth: list[dict[bytes, tuple[_State, tuple[_Step, ...], tuple[int, ...], int]]] = [
            {stage_key(start): (start, steps, values, 0)}] + [{} for _ in dice]
        finished: _Found = {}
        for depth in range(1, len(values) + 1):
            reached: dict[tuple[bytes, tuple[int, ...]],
                          tuple[_State, tuple[_Step, ...], int, int]] = {}
            for (_, left), (state, path, first, last) in frontier.items():
                _spend(len(left))
                for index, die in enumerate(left):
                    if die in left[:index]:
                        continue
                    rest = left[:index] + left[index + 1:]
                    for step in self.steps(state, die, last if ordered else POOL):
                        rank = step[0] if step[0] != POOL else BAR
                        if ordered and rank > last:
                            continue
                        moved = self.apply(state, step)
                        key = stage_key(moved)
                        if key in finished or (key, rest) in reached:
                            continue
                        if self.outcome(moved) is not Outcome.PLAYING:
                            finished[key] = (moved, (*path, step))
                        else:
                            reached[(key, rest)] = (moved, (*path, step), first or die,
                                                    rank)
            for (key, rest), (moved, path, first, _) in reached.items():
                by_depth[depth].setdefault(key, (moved, path, rest, first))
            if not reached:
                break
            frontier = reached
        full = len(values)
        for depth in range(full, -1, -1):
            legal = {key: value for key, value in by_depth[depth].items()
                     if depth == 0 or not self._ends_badly(value[0])}
            if depth == full:
                legal.update({key: (*value, (), 0) for key, value in finished.items()})
            if not legal:
                continue
            left = next(iter(legal.values()))[2]
            if depth == 1 and full == 2 and values[0] != values[1]:
                # Only one of two different values can be played: the larger if it can.
                larger = {key: value for key, value in legal.items() if value[3] == values[0]}
                if larger:
                    legal, left = larger, (values[1],)
                else:
                    left = (values[0],)
            return {key: (value[0], value[1]) for key, value in legal.items()}, left
        return {}, values  # unreachable: depth 0 always holds the start

    def _can_complete(self, state: _State, dice: tuple[int, ...],
                      failed: set[tuple[bytes, tuple[int, ...]]]) -> bool:
        """Whether some play from ``state`` uses every value of ``dice`` (or ends the
        game on the way); ``failed`` remembers searches that found none."""
        if not dice:
            return not self._ends_badly(state)
        _spend(1)
        key = (self._stage_key(state), dice)
        if key in failed:
            return False
        for index, die in enumerate(dice):
            if die in dice[:index]:
                continue
            rest = dice[:index] + dice[index + 1:]
            for step in self.steps(state, die):
                moved = self.apply(state, step)
                if self.outcome(moved) is not Outcome.PLAYING or \
                        self._can_complete(moved, rest, failed):
                    return True
        failed.add(key)
        return False

    def _complete_from_many(self, starts: list[tuple[_State, tuple[_Step, ...]]],
                            die: int) -> _Found:
        """Every play of four ``die`` from any of ``starts``, each of which can play all
        four: one search over all of them, since what follows a state does not depend
        on where it came from."""
        stage_key = self._stage_key
        ordered = self._orderable
        # Each state with the highest origin its moves may still start from: states
        # from different starts may have come by different moves (see _stage).
        frontier: dict[bytes, tuple[_State, tuple[_Step, ...], int]] = {}
        for state, path in starts:
            frontier.setdefault(stage_key(state), (state, path, POOL))
        finished: _Found = {}
        for _ in range(4):
            reached: dict[bytes, tuple[_State, tuple[_Step, ...], int]] = {}
            for state, path, last in frontier.values():
                _spend(1)
                for step in self.steps(state, die, last if ordered else POOL):
                    # The move's place in the one order of origins, highest first; an entry
                    # from the pool ranks with one from the bar (the bar goes first anyway).
                    rank = step[0] if step[0] != POOL else BAR
                    if ordered and rank > last:
                        continue
                    moved = self.apply(state, step)
                    key = stage_key(moved)
                    if key in finished:
                        continue
                    seen = reached.get(key)
                    if seen is not None:
                        if seen[2] < rank:
                            reached[key] = (seen[0], seen[1], rank)
                        continue
                    if self.outcome(moved) is not Outcome.PLAYING:
                        finished[key] = (moved, (*path, step))
                    else:
                        reached[key] = (moved, (*path, step), rank)
            frontier = reached
        found = {key: (state, path) for key, (state, path, _) in frontier.items()
                 if not self._ends_badly(state)}
        found.update(finished)
        return found

    def _ends_badly(self, state: _State) -> bool:
        """Whether a turn may not end in ``state`` (Fevga's starting-table ban,
        Moultezim's limit in the opponent's starting table)."""
        if self.rules.start_table_ban and all(state[0][19:25]):
            return True
        return bool(self.rules.opponent_start_limit) and _over_opponent_start_limit(
            state[0], self.rules.opponent_start_limit)

    def _trapping_primes(self, state: _State) -> list[tuple[int, ...]]:
        """Six consecutive own points (in the opponent's way round) with every opposing
        checker on the board on the point directly behind them."""
        mine, theirs = state[0], state[1]
        back = self._opposite  # our point -> theirs; walk the opponent's own numbering
        ours_at = [0] * 25
        for point in range(1, 25):
            ours_at[back[point]] = point
        on_board = [q for q in range(1, 25) if theirs[q]]
        if len(on_board) != 1 or theirs[BAR] or theirs[POOL]:
            return []
        behind = on_board[0]
        window = tuple(ours_at[q] for q in range(behind - 1, behind - 7, -1) if q >= 1)
        if len(window) == 6 and all(mine[point] for point in window):
            return [window]
        return []

    def stages(self, position: TablesPosition, roll: Roll) -> list[tuple[int, ...]]:
        """The stages ``roll`` gives the mover: the dice, four moves of a doublet, a
        doublet and its opposite, or a cascade of doublets up to 6-6."""
        rules = self.rules
        if not roll.is_doublet:
            return [roll.moves]
        if rules.doublet_two_moves:
            return [roll.dice]
        die = roll.first
        if rules.complement and (rules.complement_with_pool or not position.mover[POOL]):
            return [roll.moves, (7 - die,) * 4]
        if rules.cascade_from_turn and position.turns[0] + 1 >= rules.cascade_from_turn:
            return [(value,) * 4 for value in range(die, 7)]
        return [roll.moves]

    def stage_choices(self, position: TablesPosition, roll: Roll
                      ) -> list[list[tuple[int, ...]]]:
        """Every list of stages the mover may play ``roll`` as: one, or one per double
        the roller may name after a special roll (Matador's 4-3)."""
        special = self.rules.chosen_double_roll
        if special and sorted(roll.dice) == sorted(special):
            return _chosen_double_stages(roll)
        return [self.stages(position, roll)]

    def legal(self, position: TablesPosition, roll: Roll, *, before_transfer: bool = False
              ) -> _Found:
        """Distinct results of every legal turn of ``roll``, each with one step list
        (the opponent's steps with transferred values are not listed; with
        ``before_transfer`` the results stop before them, where a record checks the
        mover's own play)."""
        engine = self.for_roll(roll)
        if engine is not self:
            return engine.legal(position, roll, before_transfer=before_transfer)
        choices = self.stage_choices(position, roll)
        chosen_doublet = self.is_special_roll(roll)
        transfer = self.rules.transfer and (roll.is_doublet or
                                            not self.rules.transfer_doubles_only)
        if len(choices) == 1:
            return self._legal_stages(position, choices[0], before_transfer, chosen_doublet,
                                      transfer)
        found: _Found = {}
        for stages in choices:
            for key, value in self._legal_stages(position, stages, before_transfer,
                                                 chosen_doublet, transfer).items():
                found.setdefault(key, value)
        return found

    def _legal_stages(self, position: TablesPosition, stages: list[tuple[int, ...]],
                      before_transfer: bool, chosen_doublet: bool = False,
                      transfer: bool = False) -> _Found:
        """Distinct results of playing ``stages`` in turn, then with ``chosen_doublet``
        four of a number the player names (see :meth:`legal`)."""
        start: _State = (list(position.mover), list(position.opponent), *position.pins)
        # Each result with whether later stages are still played.
        results: dict[bytes, tuple[_State, tuple[_Step, ...], bool]] = {
            _key(start): (start, (), True)}
        for number, dice in enumerate(stages):
            following: dict[bytes, tuple[_State, tuple[_Step, ...], bool]] = {}
            batch: list[tuple[_State, tuple[_Step, ...]]] = []
            failed: set[tuple[bytes, tuple[int, ...]]] = set()
            for key, (state, path, going_on) in results.items():
                if not going_on or self.outcome(state) is not Outcome.PLAYING:
                    following.setdefault(key, (state, path, False))
                    continue
                if number and self._can_complete(state, dice, failed):
                    # A later stage of four equal values that this state can complete:
                    # searched together with every other such state below.
                    batch.append((state, path))
                    continue
                found, left = self._stage(state, path, dice)
                if left and transfer:
                    # TRANSFER: the rest of this stage and every later stage go to the
                    # opponent, who plays what he can of them with his own checkers.
                    given = left + tuple(v for later in stages[number + 1:] for v in later)
                    for reached, steps in found.values():
                        # Under transfer_requires_play a roller who moved nothing loses
                        # the values instead.
                        kept = self.rules.transfer_requires_play and not steps
                        passing = [reached] if before_transfer or kept else \
                            self._transferred(reached, given)
                        for passed in passing:
                            following.setdefault(_key(passed), (passed, steps, False))
                    continue
                # END_TURN: a stage left incomplete ends the turn; LOSE plays on.
                going = not left or not self.rules.end_turn
                for reached, steps in found.values():
                    following.setdefault(_key(reached), (reached, steps, going))
            if batch:
                for reached, steps in self._complete_from_many(batch, dice[0]).values():
                    following.setdefault(_key(reached), (reached, steps, True))
            results = following
        if chosen_doublet:
            results = self._chosen_doublet_stage(results)
        if self.rules.maximise_across_stages and len(results) > 1:
            results = _most_values_used(self, results)
        traps = self._trapping_primes(start) if self.rules.prime_release else []
        if traps:
            broken = {key: value for key, value in results.items()
                      if not any(all(value[0][0][p] for p in window) for window in traps)}
            results = broken or results
        return {key: (state, path) for key, (state, path, _) in results.items()}

    # --- acey-deucey's special roll and Asodio's entry permission -----------------------

    def is_special_roll(self, roll: Roll) -> bool:
        """Whether ``roll`` is the rules' special roll (acey-deucey's 1-2)."""
        special = self.rules.special_roll
        return bool(special) and sorted(roll.dice) == sorted(special)

    def chosen_doublets(self, roll: Roll) -> tuple[int, ...]:
        """The numbers the player may name after playing ``roll``: 1-6 after the special
        roll, none otherwise."""
        return (1, 2, 3, 4, 5, 6) if self.is_special_roll(roll) else ()

    def _chosen_doublet_stage(self, results: dict[bytes, tuple[_State, tuple[_Step, ...], bool]]
                              ) -> dict[bytes, tuple[_State, tuple[_Step, ...], bool]]:
        """After the special roll's own stage, four of a number the player names, each
        number's stage maximised on its own. A special roll left incomplete ends the
        turn there (VARIANTS.md 9.1), as does a game over."""
        following: dict[bytes, tuple[_State, tuple[_Step, ...], bool]] = {}
        playing: list[tuple[_State, tuple[_Step, ...]]] = []
        for key, (state, path, going_on) in results.items():
            if not going_on or self.outcome(state) is not Outcome.PLAYING:
                following.setdefault(key, (state, path, False))
            else:
                playing.append((state, path))
        for named in range(1, 7):
            if self.rules.named_with_complement:
                self._named_with_complement(playing, named, following)
                continue
            dice = (named,) * 4
            failed: set[tuple[bytes, tuple[int, ...]]] = set()
            # The states that can play all four are searched together (see legal).
            batch = [(state, path) for state, path in playing
                     if self._can_complete(state, dice, failed)]
            found: _Found = self._complete_from_many(batch, named) if batch else {}
            for state, path in playing:
                if (self._stage_key(state), dice) in failed:
                    found.update(self._stage(state, path, dice)[0])
            for reached, steps in found.values():
                following.setdefault(_key(reached), (reached, steps, False))
        return following

    def _named_with_complement(self, playing: list[tuple[_State, tuple[_Step, ...]]],
                               named: int,
                               following: dict[bytes, tuple[_State, tuple[_Step, ...], bool]]
                               ) -> None:
        """The encyclopedia's European named doublet: two of the named number, then two
        of its opposite, each a stage; one left incomplete ends the turn."""
        for state, path in playing:
            first, left = self._stage(state, path, (named, named))
            for reached, steps in first.values():
                if left or self.outcome(reached) is not Outcome.PLAYING:
                    following.setdefault(_key(reached), (reached, steps, False))
                    continue
                second, _ = self._stage(reached, steps, (7 - named, 7 - named))
                for ended, all_steps in second.values():
                    following.setdefault(_key(ended), (ended, all_steps, False))

    def named_values(self, named: int) -> tuple[int, ...]:
        """The values a named number gives after the special roll: four of it, or two
        of it and two of its opposite under the encyclopedia's European rule."""
        if self.rules.named_with_complement:
            return (named, named, 7 - named, 7 - named)
        return (named,) * 4

    def gives_more_than_its_dice(self, position: TablesPosition, roll: Roll) -> bool:
        """Whether ``roll`` gives later stages: a complement, a cascade or a named
        doublet after a special roll."""
        return self.is_special_roll(roll) or self._is_chosen_double_roll(roll) or \
            len(self.stages(position, roll)) > 1

    def _is_chosen_double_roll(self, roll: Roll) -> bool:
        special = self.rules.chosen_double_roll
        return special is not None and sorted(roll.dice) == sorted(special)

    def grants_extra_roll(self, position: TablesPosition, roll: Roll,
                          after: TablesPosition) -> bool:
        """Whether the mover rolls again after playing ``roll`` from ``position`` to
        ``after`` (VARIANTS.md 0.4 step 4): never once the game is over; under
        ``after-stages`` after a roll that gave more than its dice, under
        ``after-doublets`` after any doublet or special roll; and where an incomplete
        stage ends the turn, only if the play used every value."""
        kind = self.rules.extra_roll
        if kind == "none" or tables_outcome(self, after) is not Outcome.PLAYING:
            return False
        special = self.is_special_roll(roll) or self._is_chosen_double_roll(roll)
        if kind == "after-stages":
            eligible = self.gives_more_than_its_dice(position, roll)
        else:
            eligible = special or roll.is_doublet
        if not eligible:
            return False
        if not (self.rules.end_turn or self.rules.transfer):
            return True  # the chase games roll again whatever was played
        engine = self.for_roll(roll)
        target = _key((list(after.mover), list(after.opponent), *after.pins))
        found = engine.legal(position, roll)
        if target not in found:
            return False
        return any(len(steps) == sum(len(stage) for stage in stages) + (4 if named else 0)
                   for stages in engine.stage_choices(position, roll)
                   for named in (engine.chosen_doublets(roll) or (0,))
                   for steps in (found[target][1],))

    def for_roll(self, roll: Roll) -> TablesEngine:
        """The engine that plays ``roll``: under Asodio's entry permission, a roll that is
        neither a doublet nor the special roll gets one that enters from the pool only
        while an own checker stands on 19-24."""
        if self._without_entry_permission is None or roll.is_doublet or \
                self.is_special_roll(roll):
            return self
        return self._without_entry_permission

    def play_ends(self, state: _State, moves: Sequence[Move], dice: tuple[int, ...]
                  ) -> list[_State]:
        """Every state the written ``moves`` can reach with some of ``dice``."""
        return _walks(self, state, moves, dice)

    def _transferred(self, state: _State, given: tuple[int, ...]) -> list[_State]:
        """The states after the opponent plays as many of ``given`` as he can."""
        if self.outcome(state) is not Outcome.PLAYING:
            return [state]
        turned: _State = (state[1], state[0], state[3], state[2])
        found, _ = self._stage(turned, (), given)
        return [(mine, theirs, my_pins, their_pins)
                for theirs, mine, their_pins, my_pins in (value[0] for value in found.values())]

def _most_values_used(engine: TablesEngine,
                      results: dict[bytes, tuple[_State, tuple[_Step, ...], bool]]
                      ) -> dict[bytes, tuple[_State, tuple[_Step, ...], bool]]:
    """The results that use the most values over the whole turn; a result that ends the
    game counts as using them all."""
    def used(value: tuple[_State, tuple[_Step, ...], bool]) -> int:
        over = engine.outcome(value[0]) is not Outcome.PLAYING
        return 1 << 16 if over else len(value[1])

    most = max(used(value) for value in results.values())
    return {key: value for key, value in results.items() if used(value) == most}


def _engine_for_rolls_without_entry(rules: EngineRules) -> TablesEngine:
    """Asodio's engine for a roll that is neither a doublet nor the special roll: it
    enters from the pool only while an own checker stands on 19-24 (under strict entry,
    never)."""
    engine = TablesEngine(replace(rules, entry_needs_permission=False))
    engine._pool_needs_home_checker = True
    engine._pool_closed = rules.strict_entry
    return engine


# --- checking a written play -------------------------------------------------------------


def _dice_paths(dice: tuple[int, ...], distance: int, bearing_off: bool
                ) -> list[tuple[int, ...]]:
    """Orders of some of ``dice`` that move a checker ``distance`` pips (a bear-off may
    overshoot with its last value)."""
    paths: set[tuple[int, ...]] = set()

    def extend(path: tuple[int, ...], left: tuple[int, ...], total: int) -> None:
        for value in set(left):
            reached = total + value
            if reached == distance or (bearing_off and reached > distance):
                paths.add((*path, value))
            elif reached < distance:
                rest = list(left)
                rest.remove(value)
                extend((*path, value), tuple(rest), reached)

    extend((), dice, 0)
    return sorted(paths)


def _walks(engine: TablesEngine, state: _State, moves: Sequence[Move],
           dice: tuple[int, ...]) -> list[_State]:
    """Every state the written moves can reach, each touch-down a legal single move."""
    if not moves:
        return [state]
    move, rest = moves[0], moves[1:]
    origin = move.origin
    if origin == BAR and not state[0][BAR] and state[0][POOL]:
        origin = POOL  # "bar/22" also writes an entry from the pool
    reached: list[_State] = []
    for path in _dice_paths(dice, origin - move.destination if origin != POOL else
                            25 - move.destination, move.destination == OFF):
        current, point, ok = state, origin, True
        for die in path:
            target = 25 - die if point in (BAR, POOL) else max(point - die, OFF)
            if (point, target) not in engine.steps(current, die):
                ok = False
                break
            current, point = engine.apply(current, (point, target)), target
        if ok:
            left = list(dice)
            for die in path:
                left.remove(die)
            reached.extend(_walks(engine, current, rest, tuple(left)))
    return reached


def check_tables_play(engine: TablesEngine, position: TablesPosition, roll: Roll,
                      play: Play) -> TablesPosition:
    """The position after ``play`` if it is a legal turn of ``roll``: the mover's own
    play (values it leaves to the opponent under TRANSFER are the opponent's to play).

    Raises:
        IllegalPlayError: no legal turn reaches where the play does.
    """
    _check_origins(position, play)
    engine = engine.for_roll(roll)
    found = engine.legal(position, roll, before_transfer=True)
    start: _State = (list(position.mover), list(position.opponent), *position.pins)
    ends = [end for stages in engine.stage_choices(position, roll)
            for named in (engine.chosen_doublets(roll) or (0,))
            for end in engine.play_ends(start, play.moves,
                                        tuple(value for stage in stages for value in stage)
                                        + (engine.named_values(named) if named else ()))]
    if not ends:
        raise IllegalPlayError(f"{format_play(play)} cannot be played with "
                               f"{roll.first}-{roll.second} here: a point on its way is "
                               "closed or the dice do not make it", PlayRule.NOT_A_LEGAL_RESULT)
    for end in ends:
        if _key(end) in found:
            return _position(end, _turns_after(engine, position))
    example = format_play(_play(next(iter(found.values()))[1])) or "no move"
    raise IllegalPlayError(f"{format_play(play)} is not a legal play of "
                           f"{roll.first}-{roll.second} here (for example {example})",
                           PlayRule.NOT_A_LEGAL_RESULT)


def _check_origins(position: TablesPosition, play: Play) -> None:
    """Refuse a play that moves a checker from a point where the mover has none (counting
    the checkers the play's earlier moves bring there), before any search.

    Raises:
        IllegalPlayError: the first such move, named.
    """
    counts = list(position.mover)
    for move in play.moves:
        origin = move.origin
        if origin == BAR and not counts[BAR] and counts[POOL]:
            origin = POOL  # "bar/22" also writes an entry from the pool
        if 1 <= origin <= 24 and not counts[origin]:
            raise IllegalPlayError(f"there is no checker on the {origin} point to move "
                                   f"({format_play(play)})", PlayRule.NO_CHECKER)
        if counts[origin]:
            counts[origin] -= 1
        if 1 <= move.destination <= 24:
            counts[move.destination] += 1


def _position(state: _State, turns: tuple[int, int] = (0, 0)) -> TablesPosition:
    return TablesPosition._trusted(tuple(state[0]), tuple(state[1]), (state[2], state[3]),
                                   turns)


def _turns_after(engine: TablesEngine, position: TablesPosition) -> tuple[int, int]:
    """Turns played once the mover's turn is over (counted only where rules use them)."""
    if not (engine.rules.cascade_from_turn or engine.rules.counts_turns):
        return position.turns
    return (position.turns[0] + 1, position.turns[1])


def _play(steps: Sequence[_Step]) -> Play:
    return Play(tuple(Move(BAR if origin == POOL else origin, target)
                      for origin, target in steps))


def legal_tables_play_map(engine: TablesEngine, position: TablesPosition, roll: Roll
                          ) -> dict[TablesPosition, Play]:
    """Each distinct legal result of ``roll`` with one play reaching it."""
    turns = _turns_after(engine, position)
    return {_position(state, turns): _play(steps)
            for state, steps in engine.legal(position, roll).values()}


def legal_tables_positions(engine: TablesEngine, position: TablesPosition, roll: Roll
                           ) -> frozenset[TablesPosition]:
    """Every distinct legal result of ``roll``."""
    turns = _turns_after(engine, position)
    return frozenset(_position(state, turns) for state, _ in engine.legal(position, roll).values())


def tables_outcome(engine: TablesEngine, position: TablesPosition) -> Outcome:
    """How the game stands in ``position``."""
    return engine.outcome((list(position.mover), list(position.opponent), *position.pins))


def tables_winning_level(engine: TablesEngine, position: TablesPosition) -> Level | None:
    """The level the mover has won at: single, gammon (the loser has borne off nothing,
    or a mother pin) or backgammon (a gammon with a loser's checker on its bar, in its
    pool or on its points 19-24); ``None`` while playing, after a draw or a loss. Under
    misère's rule the loser is the side that bore everything off, so a win is single.

    >>> engine = TablesEngine(EngineRules(15, tuple(range(25)), "pin", False, 0, False,
    ...                                   False, False, False, False, True))
    >>> tables_winning_level(engine, TablesPosition.from_points({}, {3: 1}))
    <Level.SINGLE: 1>
    """
    if tables_outcome(engine, position) is not Outcome.MOVER_WON:
        return None
    if engine.rules.levels_by_colour:
        # Once its turn is over, the side that moved first has played one turn more.
        return Level.GAMMON if position.turns[0] > position.turns[1] else Level.SINGLE
    loser = position.opponent
    if engine.rules.mars_in_start_table:
        return Level.GAMMON if any(loser[19:25]) else Level.SINGLE
    if loser[OFF]:
        return Level.SINGLE
    if any(position.mover[1:]):
        return Level.GAMMON  # a mother pin
    if loser[BAR] or loser[POOL] or any(loser[19:25]):
        return Level.BACKGAMMON
    return Level.GAMMON


# --- diagrams ---------------------------------------------------------------------------


def _board_cell(position: TablesPosition, point: int, opposite: tuple[int, ...]) -> str:
    """One absolute point: ``X3``, ``O15``, or a pin as ``X2/o`` (X on top of a pinned O)."""
    mine, theirs = position.mover[point], position.opponent[opposite[point]]
    if mine and theirs:
        if (position.pins[0] >> point) & 1:
            return f"O{theirs}/x"
        return f"X{mine}/o"
    if mine:
        return f"X{mine}"
    return f"O{theirs}" if theirs else "."


def format_tables_board(position: TablesPosition, opposite: tuple[int, ...]) -> str:
    """Draw the board by absolute points (A1-A24 = the side on roll's own points), with
    each side's bar, pool and borne-off checkers.

    >>> contrary = (0, *range(24, 0, -1))
    >>> pinned = TablesPosition.from_points({7: 2}, {18: 1}, pins=(0, 1 << 18))
    >>> print(format_tables_board(pinned, contrary).splitlines()[3])
     bottom     .     .     .     .     .  X2/o     .     .     .     .     .     .
    """
    top = "".join(f"{_board_cell(position, p, opposite):>6}" for p in range(13, 25))
    bottom = "".join(f"{_board_cell(position, p, opposite):>6}" for p in range(12, 0, -1))
    lines = [f" Position ID: {position.to_id()}",
             "       " + "".join(f"{f'A{p}':>6}" for p in range(13, 25)),
             f" top   {top}", f" bottom{bottom}",
             "       " + "".join(f"{f'A{p}':>6}" for p in range(12, 0, -1))]
    for name, counts in (("X (on roll)", position.mover), ("O", position.opponent)):
        lines.append(f" {name}: bar {counts[BAR]}, pool {counts[POOL]}, off {counts[OFF]}")
    return "\n".join(lines)


# --- the chase games: a circular track, capture, and the lone checker ---------------------

CORNERS = (24, 19, 18, 13, 12, 7, 6, 1)
"""The first and last point of each quarter, in the order a checker passes them
(VARIANTS.md 6.4): alternately 5 and 1 pips apart, so two corners on is 6 pips."""
_NEXT_CORNER = {corner: CORNERS[(index + 1) % len(CORNERS)]
                for index, corner in enumerate(CORNERS)}
_COUNTED = (1, 6)
"""The only numbers of a non-doublet roll that count in the chase games."""


def _ahead(point: int, pips: int) -> int:
    """The A-point ``pips`` ahead of ``point`` round the circular track A24 -> A1 -> A24."""
    return (point - pips - 1) % 24 + 1


def _lone_point(counts: Sequence[int]) -> int:
    """The point of a side's only checker on the board; 0 if it has more or none."""
    found = 0
    for point in range(1, 25):
        if counts[point]:
            if found:
                return 0
            found = point
    return found


def _nearest_corner(point: int) -> int:
    """The first corner ahead of ``point`` (1-5 pips on)."""
    target = _ahead(point, 1)
    while target not in _NEXT_CORNER:
        target = _ahead(target, 1)
    return target


class ChaseEngine(TablesEngine):
    """The chase games (Icelandic, Chase, Ad elta stelpur; VARIANTS.md 6).

    Both sides count the absolute points A1-A24 and run round the same way; a side holds
    a point with one checker. A checker landing on its own goes on past every own
    checker in a row and captures an opposing checker where it stops; a captured
    checker is out for good (kept in the side's *off* tray). Only 1s and 6s count in a
    roll of two numbers; 6-6 gives four 6s, any other doublet two moves. A side down to
    one checker, under the lone-checker rule, first goes to the nearest corner ahead
    (the roll is lost), then hops from corner to corner (a 1 one corner on, a 6 two),
    and can be captured only on a corner with no attacker on both points beside it.
    The game ends when a side has no checker left.
    """

    def __init__(self, rules: EngineRules) -> None:
        super().__init__(rules)
        # Captures change the opponent's counts, and a circular track has no highest
        # origin to order moves by.
        self._stage_key = _block2_key
        self._orderable = False

    def _lone_corner_rule(self, counts: Sequence[int]) -> int:
        """The lone checker's point where the lone-checker rule applies to it, else 0."""
        return _lone_point(counts) if self.rules.lone_checker_corners else 0

    def _capturable(self, state: _State, point: int, origin: int) -> bool:
        """Whether the opponent's checker on ``point`` may be captured by the mover's
        checker leaving ``origin``: always, but for a lone checker under the
        lone-checker rule, only on a corner and not between two of the mover's."""
        if not self._lone_corner_rule(state[1]):
            return True
        if point not in _NEXT_CORNER:
            return False
        mine = state[0]
        behind, ahead = _ahead(point, -1), _ahead(point, 1)
        return not (mine[behind] and behind != origin and mine[ahead] and ahead != origin)

    def steps(self, state: _State, die: int, top: int = POOL) -> list[_Step]:
        """Every single move ``die`` allows: ``(origin, where the checker stops)``; no
        order of origins on a circular track, so ``top`` is not used."""
        mine, theirs = state[0], state[1]
        lone = self._lone_corner_rule(mine)
        if lone:
            if lone not in _NEXT_CORNER or die not in _COUNTED:
                return []
            target = _NEXT_CORNER[lone]
            if die == 6:
                target = _NEXT_CORNER[target]
            if theirs[target] and not self._capturable(state, target, lone):
                return []
            return [(lone, target)]
        found: list[_Step] = []
        for origin in range(24, 0, -1):
            if not mine[origin]:
                continue
            target = _ahead(origin, die)
            if mine[target] and target != origin:
                # Bumped on past an own checker: to the first point without one, or under
                # bump_to_empty to the first empty point, past opposing checkers too.
                target = _ahead(target, 1)
                while target != origin and (
                        mine[target] or (self.rules.bump_to_empty and theirs[target])):
                    target = _ahead(target, 1)
            if theirs[target] and not self._capturable(state, target, origin):
                continue
            found.append((origin, target))
        return found

    def apply(self, state: _State, step: _Step) -> _State:
        """The state after one single move, capturing where it stops."""
        mine, theirs = state[0].copy(), state[1]
        origin, target = step
        mine[origin] -= 1
        mine[target] += 1
        if theirs[target]:
            theirs = theirs.copy()
            theirs[target] -= 1
            theirs[OFF] += 1
        return (mine, theirs, state[2], state[3])

    def outcome(self, state: _State) -> Outcome:
        """Over when a side has no checker left on the board."""
        if not any(state[1][1:BAR]):
            return Outcome.MOVER_WON
        if not any(state[0][1:BAR]):
            return Outcome.OPPONENT_WON
        return Outcome.PLAYING

    def stages(self, position: TablesPosition, roll: Roll) -> list[tuple[int, ...]]:
        """One stage of the counted values: the 1s and 6s of a roll of two numbers;
        four 6s for 6-6 and two moves for any other doublet, or for a lone checker on a
        corner two hops for 1-1 and 6-6 and nothing for other doublets."""
        if not roll.is_doublet:
            return [tuple(value for value in roll.dice if value in _COUNTED)]
        die = roll.first
        lone = self._lone_corner_rule(position.mover)
        if lone:
            return [(die, die) if die in _COUNTED else ()]
        return [(die,) * (4 if die == 6 else 2)]

    def _corner_entry(self, state: _State) -> _Step | None:
        """The lone checker's compulsory move to the nearest corner ahead, when it stands
        off a corner (VARIANTS.md 6.4, rule 1); ``None`` if it stands on one, or the
        corner holds an opposing checker it may not capture."""
        lone = self._lone_corner_rule(state[0])
        if not lone or lone in _NEXT_CORNER:
            return None
        target = _nearest_corner(lone)
        if state[1][target] and not self._capturable(state, target, lone):
            return None
        return (lone, target)

    def legal(self, position: TablesPosition, roll: Roll, *, before_transfer: bool = False
              ) -> _Found:
        """Distinct results of every legal turn of ``roll``."""
        start: _State = (list(position.mover), list(position.opponent), *position.pins)
        lone = self._lone_corner_rule(start[0])
        if lone and lone not in _NEXT_CORNER and self.outcome(start) is Outcome.PLAYING:
            step = self._corner_entry(start)
            if step is None:
                return {_key(start): (start, ())}
            moved = self.apply(start, step)
            return {_key(moved): (moved, (step,))}
        return super().legal(position, roll, before_transfer=before_transfer)

    def grants_extra_roll(self, position: TablesPosition, roll: Roll,
                          after: TablesPosition) -> bool:
        """As :meth:`TablesEngine.grants_extra_roll` (any doublet rolls again); under
        ``reroll_only_lone_checker`` only a side down to its lone checker rolls again, and
        only after a doublet that does not move it (BKGM-CTG: 1-1 and 6-6 move the
        cornerrattler, "any other double allows the player to roll again")."""
        if self.rules.reroll_only_lone_checker and not (
                roll.is_doublet and roll.first not in _COUNTED
                and self._lone_corner_rule(position.mover)):
            return False
        return super().grants_extra_roll(position, roll, after)

    def play_ends(self, state: _State, moves: Sequence[Move], dice: tuple[int, ...]
                  ) -> list[_State]:
        """Every state the written ``moves`` can reach: each move one checker's hops with
        some of ``dice`` (or the lone checker's compulsory move to a corner)."""
        entry = self._corner_entry(state)
        if entry is not None:
            wanted = [(move.origin, move.destination) for move in moves]
            return [self.apply(state, entry)] if wanted == [entry] else []
        if not moves:
            return [state]
        move, rest = moves[0], moves[1:]
        ends: list[_State] = []

        def follow(current: _State, point: int, left: tuple[int, ...]) -> None:
            for index, die in enumerate(left):
                if die in left[:index]:
                    continue
                remaining = left[:index] + left[index + 1:]
                for step in self.steps(current, die):
                    if step[0] != point:
                        continue
                    moved = self.apply(current, step)
                    if step[1] == move.destination:
                        ends.extend(self.play_ends(moved, rest, remaining))
                    elif self.outcome(moved) is Outcome.PLAYING:
                        follow(moved, step[1], remaining)

        follow(state, move.origin, dice)
        return ends


# --- crazy narde's head and six-block rules ----------------------------------------------

HEAD = 24
"""A side's head under crazy narde's rules: its 24 point, where its checkers start."""


class HeadRuleEngine(TablesEngine):
    """The common engine under crazy narde's long-nardy rules (Gul bara's option
    ``crazy_narde_head_rule``, VARIANTS.md 4.2).

    Head rule: one checker leaves the head in a turn, two in a turn rolled as a doublet,
    whose whole cascade is the one turn; the opponent playing values passed over to him
    takes one checker from his own head. Nothing ever lands on a side's head, so the
    checkers left on it say how many have gone this turn: each turn is played by a copy
    of the engine that knows how many its head must keep (``_head_floor``).

    Six-block rule: no stage ends with six points in a row held in front of the opponent
    (consecutive along the opponent's way round) unless an opposing checker is past them.
    """

    def __init__(self, rules: EngineRules) -> None:
        super().__init__(rules)
        self._head_floor: int | None = None
        """Fewest checkers the mover's head may keep this turn; ``None``: no turn under
        way, no limit."""
        ours = [0] * 25
        for point in range(1, 25):
            ours[rules.opposite[point]] = point
        self._ours_at = tuple(ours)
        """The opponent's point q as ours (the inverse of ``rules.opposite``)."""

    def _limited(self, head: int, allowed: int) -> HeadRuleEngine:
        """A copy of the engine for a play that may take ``allowed`` checkers from a head
        of ``head`` checkers."""
        if not self.rules.head_rule:
            return self
        limited = copy.copy(self)
        limited._head_floor = head - allowed
        return limited

    def steps(self, state: _State, die: int, top: int = POOL) -> list[_Step]:
        """As :meth:`TablesEngine.steps`, none from the head once it keeps no more than
        this turn allows."""
        found = super().steps(state, die, top)
        floor = self._head_floor
        if floor is None or state[0][HEAD] > floor:
            return found
        return [step for step in found if step[0] != HEAD]

    def legal(self, position: TablesPosition, roll: Roll, *, before_transfer: bool = False
              ) -> _Found:
        """As :meth:`TablesEngine.legal`, one checker from the head (two on a doublet)."""
        if self._head_floor is not None:
            return super().legal(position, roll, before_transfer=before_transfer)
        turn = self._limited(position.mover[HEAD], 2 if roll.is_doublet else 1)
        return TablesEngine.legal(turn, position, roll, before_transfer=before_transfer)

    def _transferred(self, state: _State, given: tuple[int, ...]) -> list[_State]:
        """As :meth:`TablesEngine._transferred`, the receiver taking one checker from his
        head: the values are not a roll of his."""
        return TablesEngine._transferred(self._limited(state[1][HEAD], 1), state, given)

    def _ends_badly(self, state: _State) -> bool:
        """As :meth:`TablesEngine._ends_badly`, and a six-block no opposing checker has
        passed."""
        return super()._ends_badly(state) or (self.rules.six_block and
                                              self._holds_unpassed_block(state))

    def _holds_unpassed_block(self, state: _State) -> bool:
        """Whether the mover holds six points in a row, walked in the opponent's
        numbering, with no opposing checker on a lower point of it or borne off."""
        mine, theirs = state[0], state[1]
        run = 0
        for point in range(24, 0, -1):
            if not mine[self._ours_at[point]]:
                run = 0
                continue
            run += 1
            if run >= 6 and not any(theirs[OFF:point]):
                return True
        return False


def tables_engine(rules: EngineRules) -> TablesEngine:
    """The generic engine for ``rules``: the chase games' own, crazy narde's, or the
    common one."""
    if rules.chase:
        return ChaseEngine(rules)
    if rules.head_rule or rules.six_block:
        return HeadRuleEngine(rules)
    return TablesEngine(rules)
