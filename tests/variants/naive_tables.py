"""A deliberately plain legal-turn enumerator for the tables variants, written from
VARIANTS.md alone and sharing nothing with the engine in ``tourney.rules.tables``.

The board is physical: 24 absolute points A1-A24, each a stack of checkers listed bottom
to top (``["o", "x", "x"]`` is an O checker pinned under two X checkers). Each side's own
point p is an absolute point by the variant's geometry. A turn is enumerated by plain
recursion over single checker moves, every value of the roll in every order; the legal
turns are then picked by the rules' own words: the most values used, the larger die when
only one of two can be used, the restrictions of the variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

X, O = "x", "o"  # noqa: E741 - the backgammon name of the second side


def other(side: str) -> str:
    return O if side == X else X


@dataclass(frozen=True)
class NaiveRules:
    """What the enumerator needs to know of a variant, in VARIANTS.md's words."""

    geometry: str  # "contrary", "parallel", "shared", "circular" (the chase games) or
    # "quarter" (the seed's American game: White's p is Black's p + 6)
    landing: str  # "block2", "block1", "pin" or "capture"
    pool_enter_all_first: bool = True
    first_checker_must_pass: bool = False  # Fevga: pass the opponent's start first
    first_checker_until: int = 11  # ... reach this own point or lower (Jacquet: 6, home)
    no_full_start_table: bool = False  # Fevga: never all of own 19-24 at a turn's end
    prime_release: bool = False  # Fevga
    mother_rule: bool = False  # Plakoto
    exact_bear_off: bool = False
    complement_doubles: bool = False  # Russian: four d then four 7-d, stop if incomplete
    cascade_from_turn: int = 0  # Gul bara: d-d gives four d, four d+1, ... four 6s
    transfer: bool = False  # Gul bara: what the mover cannot play, the opponent plays
    most_points_in_opponent_start: int = 0  # Moultezim: at most 4 of own 7-12 at the end
    hit_needs_home: bool = False  # Dutch: hit only with a checker on own 1-6 or off
    matador: bool = False  # 4-3: play it, then four of a named c; stop if incomplete
    checkers: int = 15
    complement_always: bool = False  # European acey-deucey: complements with a pool too
    named_doublet_after_one_two: bool = False  # acey-deucey: 1-2, then four of any number
    asodio_entry: bool = False  # Asodio: the pool opens on a doublet or a 1-2 ...
    pool_needs_own_checker_on_19_to_24: bool = False  # ... else only beside such a checker
    x_is_white: bool = True  # "quarter": whether X is White, the side that moved first


@dataclass
class Board:
    """Stacks on A1-A24 (index 0 unused), and per side its bar, pool and off tray."""

    stacks: list[list[str]]
    bar: dict[str, int] = field(default_factory=lambda: {X: 0, O: 0})
    pool: dict[str, int] = field(default_factory=lambda: {X: 0, O: 0})
    off: dict[str, int] = field(default_factory=lambda: {X: 0, O: 0})

    def copy(self) -> Board:
        return Board([list(s) for s in self.stacks], dict(self.bar), dict(self.pool),
                     dict(self.off))

    def frozen(self) -> tuple[object, ...]:
        return (tuple(tuple(s) for s in self.stacks), tuple(sorted(self.bar.items())),
                tuple(sorted(self.pool.items())), tuple(sorted(self.off.items())))


def absolute(rules: NaiveRules, side: str, point: int) -> int:
    """The absolute A-number of ``side``'s own ``point`` (VARIANTS.md 0.3)."""
    if rules.geometry == "quarter":
        # VARIANTS.md 2.2: White's 24 is hole 1 (A12), Black's 24 is hole 7 (A6); both
        # run on to A1, then from A24 down.
        if (side == X) == rules.x_is_white:
            return point - 12 if point > 12 else point + 12
        return point - 18 if point > 18 else point + 6
    if side == X or rules.geometry in ("shared", "circular"):
        return point
    if rules.geometry == "contrary":
        return 25 - point
    return point + 12 if point <= 12 else point - 12


def own_count(board: Board, rules: NaiveRules, side: str, point: int) -> int:
    return board.stacks[absolute(rules, side, point)].count(side)


def is_pinned(stack: list[str], side: str) -> bool:
    """A checker of ``side`` lies under one of the other side."""
    return side in stack and stack[-1] != side


def may_land(rules: NaiveRules, stack: list[str], side: str) -> bool:
    enemies = stack.count(other(side))
    if rules.landing == "block2":
        return enemies < 2
    if rules.landing == "block1":
        return enemies == 0
    # pin: empty, ours on top, or exactly one lone enemy checker
    return not stack or stack[-1] == side or stack == [other(side)]


def may_land_now(rules: NaiveRules, board: Board, side: str, target: int) -> bool:
    """The landing rule, and Dutch's: no hit without a checker home (or off) now."""
    stack = board.stacks[target]
    if not may_land(rules, stack, side):
        return False
    if rules.hit_needs_home and stack == [other(side)]:
        return board.off[side] > 0 or any(own_count(board, rules, side, p)
                                           for p in range(1, 7))
    return True


def land(rules: NaiveRules, board: Board, side: str, target: int) -> None:
    stack = board.stacks[target]
    if rules.landing == "block2" and stack == [other(side)]:
        stack.clear()
        board.bar[other(side)] += 1
    stack.append(side)


def all_home_and_free(board: Board, rules: NaiveRules, side: str) -> bool:
    if board.bar[side] or board.pool[side]:
        return False
    for point in range(1, 25):
        stack = board.stacks[absolute(rules, side, point)]
        if side in stack and (point > 6 or is_pinned(stack, side)):
            return False
    return True


def game_over(board: Board, rules: NaiveRules, side: str) -> bool:
    """Whether the game ended after a move by ``side``."""
    if rules.geometry == "circular":
        return not chase_checkers(board, other(side))
    if board.off[side] == rules.checkers:
        return True
    if not rules.mother_rule:
        return False
    enemy_home = board.stacks[absolute(rules, other(side), 24)]
    my_home = board.stacks[absolute(rules, side, 24)]
    enemy_mother_pinned = enemy_home.count(other(side)) == 1 and is_pinned(enemy_home, other(side))
    my_mother_pinned = my_home.count(side) == 1 and is_pinned(my_home, side)
    return enemy_mother_pinned and (my_mother_pinned or side not in my_home)


def single_moves(board: Board, rules: NaiveRules, side: str, die: int) -> list[Board]:
    """Every board one checker of ``side`` moving ``die`` can make."""
    if rules.geometry == "circular":
        return chase_single_moves(board, side, die)
    results: list[Board] = []
    entry = absolute(rules, side, 25 - die)
    if board.bar[side]:
        if may_land_now(rules, board, side, entry):
            after = board.copy()
            after.bar[side] -= 1
            land(rules, after, side, entry)
            results.append(after)
        return results
    if board.pool[side]:
        shut = rules.pool_needs_own_checker_on_19_to_24 and not any(
            own_count(board, rules, side, p) for p in range(19, 25))
        if not shut and may_land_now(rules, board, side, entry):
            after = board.copy()
            after.pool[side] -= 1
            land(rules, after, side, entry)
            results.append(after)
        if rules.pool_enter_all_first:
            return results
    until = rules.first_checker_until
    released = board.off[side] > 0 or any(
        own_count(board, rules, side, p) for p in range(1, until + 1))
    runner_out = any(own_count(board, rules, side, p) for p in range(until + 1, 24))
    highest = max((p for p in range(1, 25) if own_count(board, rules, side, p)), default=0)
    for point in range(1, 25):
        here = absolute(rules, side, point)
        stack = board.stacks[here]
        if not stack or stack[-1] != side:
            continue  # nothing of ours on top to move
        if rules.first_checker_must_pass and point == 24 and not released and runner_out:
            continue
        if point - die >= 1:
            target = absolute(rules, side, point - die)
            if not may_land_now(rules, board, side, target):
                continue
            after = board.copy()
            after.stacks[here].pop()
            land(rules, after, side, target)
            results.append(after)
        elif all_home_and_free(board, rules, side):
            exact = point - die == 0
            if exact or (not rules.exact_bear_off and point == highest):
                after = board.copy()
                after.stacks[here].pop()
                after.off[side] += 1
                results.append(after)
    return results


def sequences(board: Board, rules: NaiveRules, side: str, dice: tuple[int, ...],
              found: dict[tuple[object, ...], tuple[Board, int, int]], used: int,
              first_die: int, seen: set[tuple[object, ...]]) -> None:
    """Record every board reachable by playing some of ``dice`` in any order:
    ``found[key] = (board, values used, first value played)``; a board where the game
    ended counts as using every value."""
    key = (board.frozen(), used, first_die)
    if key in seen:
        return
    seen.add(key)
    found.setdefault((board.frozen(), used, first_die), (board, used, first_die))
    if used and game_over(board, rules, side):
        return
    for index, die in enumerate(dice):
        if die in dice[:index]:
            continue
        rest = dice[:index] + dice[index + 1:]
        for after in single_moves(board, rules, side, die):
            if game_over(after, rules, side):
                total = used + len(dice)
                found.setdefault((after.frozen(), total, first_die or die),
                                 (after, total, first_die or die))
                continue
            sequences(after, rules, side, rest, found, used + 1, first_die or die, seen)


def start_table_full(board: Board, rules: NaiveRules, side: str) -> bool:
    return all(own_count(board, rules, side, p) for p in range(19, 25))


def too_many_in_opponent_start(board: Board, rules: NaiveRules, side: str) -> bool:
    """More of own points 7-12 held than Moultezim allows at a turn's end."""
    if not rules.most_points_in_opponent_start:
        return False
    held = sum(1 for p in range(7, 13) if own_count(board, rules, side, p))
    return held > rules.most_points_in_opponent_start


def trapping_windows(board: Board, rules: NaiveRules, side: str) -> list[list[int]]:
    """Six own points in a row in front of the one point holding every enemy checker
    on the board (counted along the enemy's own way)."""
    enemy = other(side)
    if board.bar[enemy] or board.pool[enemy]:
        return []
    held = [q for q in range(1, 25) if own_count(board, rules, enemy, q)]
    if len(held) != 1 or held[0] - 6 < 1:
        return []
    window = [absolute(rules, enemy, q) for q in range(held[0] - 6, held[0])]
    if all(side in board.stacks[a] for a in window):
        return [window]
    return []


def one_stage(board: Board, rules: NaiveRules, side: str, dice: tuple[int, ...]
              ) -> tuple[list[Board], bool]:
    """The legal end boards of one stage, and whether they use every value."""
    ends, left = stage_and_rest(board, rules, side, dice)
    return ends, not left


def stage_and_rest(board: Board, rules: NaiveRules, side: str, dice: tuple[int, ...]
                   ) -> tuple[list[Board], tuple[int, ...]]:
    """The legal end boards of one stage, and the values its plays leave unplayed."""
    found: dict[tuple[object, ...], tuple[Board, int, int]] = {}
    sequences(board, rules, side, dice, found, 0, 0, set())
    candidates = [(b, used, first) for b, used, first in found.values()
                  if used == 0 or (used == len(dice) and game_over(b, rules, side))
                  or not ((rules.no_full_start_table and start_table_full(b, rules, side))
                          or too_many_in_opponent_start(b, rules, side))]
    most = max(used for _, used, _ in candidates)
    best = [(b, first) for b, used, first in candidates if used == most]
    left = tuple(sorted(dice))[most:] if len(set(dice)) == 1 else ()
    if most == 0:
        left = tuple(dice)
    elif most == 1 and len(dice) == 2 and dice[0] != dice[1]:
        larger = [(b, first) for b, first in best if first == max(dice)]
        best = larger or best
        left = (min(dice),) if larger else (max(dice),)
    return [b for b, _ in best], left


def naive_legal(board: Board, rules: NaiveRules, side: str, roll: tuple[int, int],
                turn: int = 1) -> set[tuple[object, ...]]:
    """Every distinct board a legal turn of ``roll`` by ``side`` ends on (``turn`` is the
    side's own turn number, for cascades)."""
    doublet = roll[0] == roll[1]
    one_two = sorted(roll) == [1, 2]
    if rules.geometry == "circular":
        return chase_turn(board, rules, side, roll)
    if rules.transfer:
        return transfer_turn(board, rules, side, roll, turn)
    if rules.asodio_entry and not doublet and not one_two:
        rules = replace(rules, pool_needs_own_checker_on_19_to_24=True)
    if rules.matador and sorted(roll) == [3, 4]:
        return matador_turn(board, rules, side)
    dice = (roll[0],) * 4 if doublet else roll
    ends, complete = one_stage(board, rules, side, dice)
    complements = rules.complement_always or not board.pool[side]
    if rules.named_doublet_after_one_two and one_two and complete:
        named_ends: list[Board] = []
        for end in ends:
            if game_over(end, rules, side):
                named_ends.append(end)
                continue
            for named in range(1, 7):
                named_ends.extend(one_stage(end, rules, side, (named,) * 4)[0])
        ends = named_ends
    if doublet and rules.complement_doubles and complements and complete:
        later: list[Board] = []
        for end in ends:
            if game_over(end, rules, side):
                later.append(end)
            else:
                later.extend(one_stage(end, rules, side, (7 - roll[0],) * 4)[0])
        ends = later
    elif doublet and rules.complement_doubles and complements:
        pass  # the first stage was incomplete: the turn ends there
    if rules.prime_release:
        windows = trapping_windows(board, rules, side)
        if windows:
            broken = [b for b in ends
                      if not any(all(side in b.stacks[a] for a in w) for w in windows)]
            ends = broken or ends
    return {b.frozen() for b in ends}


def transfer_turn(board: Board, rules: NaiveRules, side: str, roll: tuple[int, int],
                  turn: int) -> set[tuple[object, ...]]:
    """A turn under the transfer rule: each stage played as far as possible; the first
    stage not completed hands its rest and every later stage to the opponent."""
    if roll[0] != roll[1]:
        stages = [roll]
    elif rules.cascade_from_turn and turn >= rules.cascade_from_turn:
        stages = [(value,) * 4 for value in range(roll[0], 7)]
    else:
        stages = [(roll[0],) * 4]
    finals: dict[tuple[object, ...], Board] = {}
    visited: set[tuple[object, ...]] = set()

    def play_from(current: Board, number: int) -> None:
        # A board met again at the same stage has the same continuations.
        if (current.frozen(), number) in visited:
            return
        visited.add((current.frozen(), number))
        if number == len(stages) or game_over(current, rules, side):
            finals[current.frozen()] = current
            return
        ends, left = stage_and_rest(current, rules, side, tuple(stages[number]))
        for end in ends:
            if not left or game_over(end, rules, side):
                play_from(end, number + 1)
                continue
            given = left + tuple(v for later in stages[number + 1:] for v in later)
            for passed in one_stage(end, rules, other(side), given)[0]:
                finals[passed.frozen()] = passed

    play_from(board, 0)
    return set(finals)


# --- the chase games (VARIANTS.md 6): a circular track, one checker a point, capture -----

CORNER_ORDER = [24, 19, 18, 13, 12, 7, 6, 1]
"""The corners in the order a checker running A24 -> A1 -> A24 meets them."""


def around(point: int, pips: int) -> int:
    """The point ``pips`` further on round the circle (negative: back)."""
    target = point - pips
    while target < 1:
        target += 24
    while target > 24:
        target -= 24
    return target


def chase_checkers(board: Board, side: str) -> list[int]:
    return [a for a in range(1, 25) if side in board.stacks[a]]


def capturable(board: Board, attacker: str, point: int) -> bool:
    """A defender down to its last checker is safe off the corners, and on a corner
    while the attacker stands on both points beside it."""
    if len(chase_checkers(board, other(attacker))) != 1:
        return True
    if point not in CORNER_ORDER:
        return False
    beside = (around(point, 1), around(point, -1))
    return not all(attacker in board.stacks[a] for a in beside)


def chase_land(board: Board, side: str, target: int) -> bool:
    """Put a lifted checker of ``side`` on ``target``, capturing; False if it may not."""
    enemy = other(side)
    if enemy in board.stacks[target]:
        if not capturable(board, side, target):
            return False
        board.stacks[target].remove(enemy)
        board.off[enemy] += 1
    board.stacks[target].append(side)
    return True


def chase_single_moves(board: Board, side: str, die: int) -> list[Board]:
    mine = chase_checkers(board, side)
    results = []
    if len(mine) == 1:
        # The lone checker hops from its corner: a 1 to the next corner, a 6 two on.
        here = mine[0]
        if here not in CORNER_ORDER or die not in (1, 6):
            return []
        hops = 1 if die == 1 else 2
        target = CORNER_ORDER[(CORNER_ORDER.index(here) + hops) % len(CORNER_ORDER)]
        after = board.copy()
        after.stacks[here].remove(side)
        return [after] if chase_land(after, side, target) else []
    for here in mine:
        after = board.copy()
        after.stacks[here].remove(side)
        target = around(here, die)
        while side in after.stacks[target]:
            target = around(target, 1)  # bumped past our own checker
        if chase_land(after, side, target):
            results.append(after)
    return results


def chase_turn(board: Board, rules: NaiveRules, side: str, roll: tuple[int, int]
               ) -> set[tuple[object, ...]]:
    mine = chase_checkers(board, side)
    if not mine or not chase_checkers(board, other(side)):
        return {board.frozen()}
    if len(mine) == 1 and mine[0] not in CORNER_ORDER:
        # Off a corner: to the nearest corner ahead, whatever the roll.
        target = around(mine[0], 1)
        while target not in CORNER_ORDER:
            target = around(target, 1)
        after = board.copy()
        after.stacks[mine[0]].remove(side)
        return {after.frozen()} if chase_land(after, side, target) else {board.frozen()}
    if roll[0] != roll[1]:
        dice = tuple(value for value in roll if value in (1, 6))
    elif len(mine) == 1:
        dice = (roll[0],) * 2 if roll[0] in (1, 6) else ()
    else:
        dice = (roll[0],) * (4 if roll[0] == 6 else 2)
    if not dice:
        return {board.frozen()}
    return {end.frozen() for end in one_stage(board, rules, side, dice)[0]}
def matador_turn(board: Board, rules: NaiveRules, side: str) -> set[tuple[object, ...]]:
    """A 4-3 in Matador: the 4 and the 3, then, for each value c the roller may name, four
    c's; a stage not played in full ends the turn there."""
    finals: set[tuple[object, ...]] = set()
    first_ends, left = stage_and_rest(board, rules, side, (4, 3))
    for end in first_ends:
        if left or game_over(end, rules, side):
            finals.add(end.frozen())
            continue
        for named in range(1, 7):
            finals.update(b.frozen() for b in one_stage(end, rules, side, (named,) * 4)[0])
    return finals
