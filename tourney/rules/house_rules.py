"""Local house rules of backgammon's movement, played where an event sets them.

Terminology:

- The *five-checker limit* (played in Britain): no point may hold more than five of one
  side's checkers. A checker may not land on a point (1-24) where five of its side
  already stand; this holds for every point a checker touches down on, so ``13/7/1``
  with 6-6 needs room on the 7 as well as on the 1. Borne-off checkers and the bar do
  not count.
- *No hit-and-run at home* (played in the Middle East): a checker that hits a blot on
  one of its own home-board points (its 1-6 points) stops there for the rest of the
  turn. It may not continue with another number of the same roll, nor move again with a
  later number of a doublet. Other checkers, including others on that point, move
  freely; hitting outside the home board, and hitting in the home board as a checker's
  last move, are allowed.

Both are limits on single moves; the maximum-use rule and the larger-die rule then apply
to the plays that respect them (a player must use as many numbers as the house rules let
any play use, and the larger number where only one can be played).

Standard backgammon without these rules never comes here: its engine
(``tourney.rules.moves``) stays as it is, and an event that sets neither pays nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.board import BAR, OFF, Position
from tourney.rules.dice import Roll
from tourney.rules.errors import IllegalPlayError, PlayRule
from tourney.rules.moves import Move, Play, apply_play, format_play
from tourney.rules.moves import check_play as check_unrestricted

FIVE_CHECKER_LIMIT = 5
"""The most checkers of one side a point may hold under the British limit."""

HOME_BOARD_HIGHEST = 6
"""A side's home board is its points 1-6."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Which local restrictions an event plays.

    >>> HouseRules(five_checker_limit=True).any
    True
    """

    five_checker_limit: bool = False
    no_hit_and_run_at_home: bool = False

    @property
    def any(self) -> bool:
        """Whether any restriction is on."""
        return self.five_checker_limit or self.no_hit_and_run_at_home


# A step is (origin, destination, hits); a state is the mover's and opponent's counts
# (index 0 off, 25 bar) and how many checkers on each point hit at home this turn and
# must stay there.
_Step = tuple[int, int, bool]
_Counts = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _State:
    mine: _Counts
    theirs: _Counts
    stopped: _Counts


def _steps(rules: HouseRules, state: _State, die: int) -> list[_Step]:
    """Every single move ``die`` allows under backgammon's rules and the house rules."""
    mine, theirs = state.mine, state.theirs
    limit = rules.five_checker_limit
    if mine[BAR]:
        destination = BAR - die
        blockers = theirs[die]
        if blockers >= 2 or (limit and mine[destination] >= FIVE_CHECKER_LIMIT):
            return []
        return [(BAR, destination, blockers == 1)]
    highest = 24
    while highest and not mine[highest]:
        highest -= 1
    bearing_off = highest <= HOME_BOARD_HIGHEST
    found: list[_Step] = []
    for origin in range(highest, 0, -1):
        # A checker that hit at home this turn stays where it hit.
        if mine[origin] <= state.stopped[origin]:
            continue
        destination = origin - die
        if destination > 0:
            blockers = theirs[25 - destination]
            if blockers >= 2 or (limit and mine[destination] >= FIVE_CHECKER_LIMIT):
                continue
            found.append((origin, destination, blockers == 1))
        elif bearing_off and (destination == 0 or origin == highest):
            found.append((origin, OFF, False))
    return found


def _apply(rules: HouseRules, state: _State, step: _Step) -> _State:
    origin, destination, hit = step
    mine = list(state.mine)
    mine[origin] -= 1
    mine[destination] += 1
    theirs = state.theirs
    stopped = state.stopped
    if hit:
        struck = list(theirs)
        struck[25 - destination] -= 1
        struck[BAR] += 1
        theirs = tuple(struck)
        if rules.no_hit_and_run_at_home and destination <= HOME_BOARD_HIGHEST:
            held = list(stopped)
            held[destination] += 1
            stopped = tuple(held)
    return _State(tuple(mine), theirs, stopped)


def _orders(roll: Roll) -> list[tuple[int, ...]]:
    return [roll.moves] if roll.is_doublet else [(roll.high, roll.low), (roll.low, roll.high)]


def _generate(rules: HouseRules, position: Position,
              roll: Roll) -> dict[tuple[_Counts, _Counts], tuple[_Step, ...]]:
    """Each distinct legal result (mover's and opponent's counts) with one sequence of
    single moves reaching it."""
    start = _State(position.mover, position.opponent, (0,) * 26)
    by_used: dict[int, dict[tuple[_Counts, _Counts], tuple[_Step, ...]]] = {}
    used_high = False
    for order in _orders(roll):
        frontier: dict[_State, tuple[_Step, ...]] = {start: ()}
        for depth, die in enumerate(order, start=1):
            reached: dict[_State, tuple[_Step, ...]] = {}
            for state, steps in frontier.items():
                for step in _steps(rules, state, die):
                    reached.setdefault(_apply(rules, state, step), (*steps, step))
            if not reached:
                break
            frontier = reached
            bucket = by_used.setdefault(depth, {})
            if depth == 1 and not roll.is_doublet:
                # Remember which die a single-die play used: the larger die rule.
                if die == roll.high:
                    used_high = True
                else:
                    bucket = by_used.setdefault(-1, {})
            for state, steps in reached.items():
                bucket.setdefault((state.mine, state.theirs), steps)
    most = max((used for used in by_used if used > 0), default=0)
    if most == 0:
        return {(start.mine, start.theirs): ()}
    if most == 1 and not roll.is_doublet and not used_high:
        return by_used[-1]
    return by_used[most]


def legal_play_map(rules: HouseRules, position: Position, roll: Roll) -> dict[Position, Play]:
    """Each distinct legal result of ``roll`` under the house rules, with one play.

    >>> at = Position.from_points({6: 5, 8: 3}, {24: 2})
    >>> len(legal_play_map(HouseRules(five_checker_limit=True), at, Roll(2, 1)))
    4
    """
    return {Position._trusted(mine, theirs): Play(tuple(Move(*step) for step in steps))
            for (mine, theirs), steps in _generate(rules, position, roll).items()}


def legal_positions(rules: HouseRules, position: Position, roll: Roll) -> frozenset[Position]:
    """Every distinct position a legal play of ``roll`` reaches under the house rules."""
    return frozenset(legal_play_map(rules, position, roll))


def _breach(rules: HouseRules, position: Position, play: Play) -> str | None:
    """Which house rule the written ``play`` breaks, walked move by move, if any."""
    mine = list(position.mover)
    stopped = [0] * 26
    for move in play.moves:
        if rules.no_hit_and_run_at_home and mine[move.origin] <= stopped[move.origin] \
                and move.origin != BAR:
            return (f"{move}: the checker that hit on the {move.origin} point must stay "
                    "there this turn (no hit-and-run in the home board)")
        mine[move.origin] -= 1
        if move.destination != OFF:
            if rules.five_checker_limit and mine[move.destination] >= FIVE_CHECKER_LIMIT:
                return (f"{move}: the {move.destination} point already holds five checkers "
                        "(at most five checkers on a point)")
            if rules.no_hit_and_run_at_home and move.hit and \
                    move.destination <= HOME_BOARD_HIGHEST:
                stopped[move.destination] += 1
        mine[move.destination] += 1
    return None


def check_play(rules: HouseRules, position: Position, roll: Roll, play: Play) -> Position:
    """The position after ``play`` if it is legal with ``roll`` under the house rules.

    Raises:
        IllegalPlayError: the play breaks backgammon's rules or a house rule; the
            message names which.
    """
    legal = legal_play_map(rules, position, roll)
    try:
        reached = check_unrestricted(position, roll, play)
    except IllegalPlayError as error:
        # Fewer numbers than backgammon alone would need may be all the house rules allow.
        try:
            reached = apply_play(position, play)
        except IllegalPlayError:
            raise error from None
        if reached not in legal:
            raise error from None
    if reached in legal:
        # Two plays that reach the same position are the same play.
        return reached
    breach = _breach(rules, position, play)
    if breach is not None:
        raise IllegalPlayError(breach, PlayRule.HOUSE_RULE)
    example = format_play(next(iter(legal.values())), words=True) if legal else "nothing"
    raise IllegalPlayError(
        f"the house rules leave other plays only (for example {example})",
        PlayRule.HOUSE_RULE)


NO_HOUSE_RULES = HouseRules()
"""No local restriction: backgammon as DESIGN section 2 gives it."""
