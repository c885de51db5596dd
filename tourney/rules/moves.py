"""Moves, plays, and which plays the rules allow.

Terminology: a *move* takes one checker from one point to another; as written by players
a move may use one die (``13/7`` with a 6) or several (``13/7`` with 4-2). A *play* is
everything the mover does with one roll. Two plays that reach the same position are the
same play. Points are in the mover's numbering: 25 is the bar and 0 is off.

The rules (DESIGN §2): a checker on the bar enters before anything else moves; a checker
may not land on a point the opponent holds with two or more; bearing off only with all
checkers home, by the exact number or, with a higher number, from the highest occupied
point; the mover uses as many dice as any legal sequence can (all four of a doublet),
and when only one of two dice can be used, the larger one if it can be.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise, permutations

from tourney.rules.board import BAR, OFF, Position
from tourney.rules.dice import Roll
from tourney.rules.errors import IllegalPlayError, NotationError, PlayRule
from tourney.rules.messages import Message, PluralMessage


@dataclass(frozen=True, slots=True)
class Move:
    """One checker from ``origin`` to ``destination``; ``hit`` marks a blot hit there.

    >>> str(Move(25, 22, hit=True))
    '25/22*'
    """

    origin: int
    destination: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{self.origin}/{self.destination}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """The moves of one roll, in the order they are made. No moves means a dance.

    >>> str(parse_play("bar/22 13/7*/4"))
    '25/22 13/7* 7/4'
    """

    moves: tuple[Move, ...] = ()

    def __str__(self) -> str:
        return format_play(self)

    def __repr__(self) -> str:
        return f"parse_play({format_play(self)!r})"


# --- notation -----------------------------------------------------------------------

_STEP_TOKEN = re.compile(r"(?:\d+|bar|b|off|o)\*?(?:/(?:\d+|bar|b|off|o)\*?)+(?:\((\d)\))?")


def _point_value(text: str) -> int:
    word = text.rstrip("*")
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    value = int(word)
    if not 0 <= value <= BAR:
        raise NotationError(Message("point %(value)s is not on the board (0-25)", value=value))
    return value


def parse_play(text: str) -> Play:
    """Read a play as players and match files write it.

    Accepts ``8/5 6/5``, ``bar/22``, ``25/22``, ``6/off``, ``6/0``, chains with
    intermediate hits (``13/7*/4``), repeat counts (``6/4(2)``), commas between moves,
    and any letter case. A chain becomes one move per link; a link may span several
    dice, which :func:`check_play` resolves.

    >>> parse_play("6/4(2) 24/18*").moves
    (Move(origin=6, destination=4, hit=False), Move(origin=6, destination=4, hit=False), \
Move(origin=24, destination=18, hit=True))

    Raises:
        NotationError: the text is not a play.
    """
    moves: list[Move] = []
    for token in text.replace(",", " ").lower().split():
        match = _STEP_TOKEN.fullmatch(token)
        if match is None:
            raise NotationError(Message(
                "cannot read %(token)s as a move (expected e.g. 13/7 or bar/22)",
                token=repr(token),
            ))
        chain = token.split("(")[0]
        points = chain.split("/")
        links: list[Move] = []
        for start, end in pairwise(points):
            origin, destination = _point_value(start), _point_value(end)
            if destination >= origin:
                raise NotationError(
                    Message(
                        "%(token)s: a checker moves from a higher point to a lower one",
                        token=repr(token),
                    )
                )
            if origin == OFF or destination == BAR:
                raise NotationError(Message(
                    "%(token)s: nothing moves out of the tray or onto the bar",
                    token=repr(token),
                ))
            links.append(Move(origin, destination, end.endswith("*")))
        repeat = int(match.group(1)) if match.group(1) else 1
        if not 1 <= repeat <= 4:
            raise NotationError(Message(
                "%(token)s: a move repeats 1 to 4 times",
                token=repr(token),
            ))
        moves.extend(links * repeat)
    if len(moves) > 8:
        raise NotationError(Message(
            "%(text)s has more moves than any roll allows",
            text=repr(text),
        ))
    return Play(tuple(moves))


def format_play(play: Play, *, words: bool = False) -> str:
    """Write a play as gnubg does (``25/22 6/0``) or, with ``words``, as ``bar/22 6/off``.

    >>> format_play(parse_play("bar/22 6/0"), words=True)
    'bar/22 6/off'
    """
    if not words:
        return " ".join(str(move) for move in play.moves)
    parts = []
    for move in play.moves:
        origin = "bar" if move.origin == BAR else str(move.origin)
        destination = "off" if move.destination == OFF else str(move.destination)
        parts.append(f"{origin}/{destination}{'*' if move.hit else ''}")
    return " ".join(parts)


# --- the move generator ---------------------------------------------------------------
# Internally one side is a list of 26 counts (index 0 off, 25 bar). A state is the pair
# (mover, opponent); the opponent's count on the mover's point p is opponent[25 - p].

_Step = tuple[int, int, bool]
_State = tuple[list[int], list[int]]
_Results = dict[bytes, tuple[_State, tuple[_Step, ...]]]


def _steps_for_die(mine: list[int], theirs: list[int], die: int) -> list[_Step]:
    """Every single-checker move ``die`` allows: (origin, destination, hits)."""
    if mine[BAR]:
        # A checker on the bar must enter before anything else moves.
        blockers = theirs[die]  # the entry point 25 - die is the opponent's point ``die``
        return [] if blockers >= 2 else [(BAR, BAR - die, blockers == 1)]
    highest = 24
    while highest and not mine[highest]:
        highest -= 1
    bearing_off = highest <= 6
    steps: list[_Step] = []
    for origin in range(highest, 0, -1):
        if not mine[origin]:
            continue
        destination = origin - die
        if destination > 0:
            blockers = theirs[25 - destination]
            if blockers < 2:
                steps.append((origin, destination, blockers == 1))
        elif bearing_off and (destination == 0 or origin == highest):
            # A higher number bears off only from the highest occupied point.
            steps.append((origin, OFF, False))
    return steps


def _apply_step(mine: list[int], theirs: list[int], step: _Step) -> _State:
    origin, destination, hit = step
    moved = mine.copy()
    moved[origin] -= 1
    moved[destination] += 1
    if not hit:
        return moved, theirs
    struck = theirs.copy()
    struck[25 - destination] -= 1
    struck[BAR] += 1
    return moved, struck


def _state_key(state: _State) -> bytes:
    return bytes(state[0]) + bytes(state[1])


def _generate(position: Position, roll: Roll) -> tuple[_Results, int]:
    """Distinct legal results keyed by state, each with one sequence of steps reaching it,
    and how many dice every legal play uses."""
    start: _State = (list(position.mover), list(position.opponent))
    if roll.is_doublet:
        return _generate_doublet(start, roll.first)
    high, low = roll.high, roll.low
    full: _Results = {}
    partial_high: _Results = {}
    partial_low: _Results = {}
    for first, second, partial in ((high, low, partial_high), (low, high, partial_low)):
        for step in _steps_for_die(start[0], start[1], first):
            after = _apply_step(start[0], start[1], step)
            follow_ups = _steps_for_die(after[0], after[1], second)
            if not follow_ups:
                partial.setdefault(_state_key(after), (after, (step,)))
                continue
            for step2 in follow_ups:
                final = _apply_step(after[0], after[1], step2)
                full.setdefault(_state_key(final), (final, (step, step2)))
    if full:
        return full, 2
    # Only one die can be played: the larger one whenever it can be (DESIGN §2).
    if partial_high:
        return partial_high, 1
    if partial_low:
        return partial_low, 1
    return {_state_key(start): (start, ())}, 0


def _generate_doublet(start: _State, die: int) -> tuple[_Results, int]:
    # Breadth first over distinct positions: how a position was reached does not change
    # what can follow it, so each is expanded once per depth.
    frontier: _Results = {_state_key(start): (start, ())}
    used = 0
    for _ in range(4):
        reached: _Results = {}
        for state, steps in frontier.values():
            mine, theirs = state
            for step in _steps_for_die(mine, theirs, die):
                after = _apply_step(mine, theirs, step)
                key = _state_key(after)
                if key not in reached:
                    reached[key] = (after, (*steps, step))
        if not reached:
            break
        frontier = reached
        used += 1
    return frontier, used


def _position(state: _State) -> Position:
    return Position._trusted(tuple(state[0]), tuple(state[1]))


def _play(steps: Sequence[_Step]) -> Play:
    return Play(tuple(Move(origin, destination, hit) for origin, destination, hit in steps))


def legal_positions(position: Position, roll: Roll) -> frozenset[Position]:
    """Every distinct position a legal play of ``roll`` reaches, the mover still on roll.

    Where nothing can be played the only result is the position itself.

    >>> len(legal_positions(Position.initial(), Roll(3, 1)))
    16
    """
    results, _ = _generate(position, roll)
    return frozenset(_position(state) for state, _ in results.values())


def legal_plays(position: Position, roll: Roll) -> list[Play]:
    """One play for each distinct legal result of ``roll``, as single-die moves.

    A dance is the one empty play.

    >>> [str(play) for play in legal_plays(Position.from_points({25: 1}, {1: 2, 2: 2}), Roll(2, 1))]
    ['']
    """
    results, _ = _generate(position, roll)
    return [_play(steps) for _, steps in results.values()]


def legal_play_map(position: Position, roll: Roll) -> dict[Position, Play]:
    """Each distinct legal result of ``roll`` with one play reaching it."""
    results, _ = _generate(position, roll)
    return {_position(state): _play(steps) for state, steps in results.values()}


def max_dice_playable(position: Position, roll: Roll) -> int:
    """How many of the roll's moves (2, or 4 for a doublet) a legal play uses."""
    return _generate(position, roll)[1]


# --- checking a play as written ---------------------------------------------------------


def _point_name(point: int) -> str:
    return Message("the bar") if point == BAR else Message("the %(point)s point", point=point)


def _roll_text(roll: Roll) -> str:
    return f"{roll.first}-{roll.second}"


def _die_paths(
    dice: tuple[int, ...], distance: int, bearing_off: bool
) -> Iterator[tuple[int, ...]]:
    """Sequences of the remaining dice that could carry one checker ``distance`` pips
    (or at least that far when bearing off)."""
    seen: set[tuple[int, ...]] = set()
    for count in range(1, len(dice) + 1):
        for combo in permutations(dice, count):
            if combo in seen:
                continue
            seen.add(combo)
            total = sum(combo)
            if total == distance or (bearing_off and total > distance > sum(combo[:-1])):
                yield combo


def _remove_dice(dice: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    left = list(dice)
    for die in used:
        left.remove(die)
    return tuple(left)


def _single_step(state: _State, origin: int, die: int) -> _Step | None:
    """The move of one checker from ``origin`` by ``die`` if the rules allow it."""
    mine, theirs = state
    if not mine[origin] or (mine[BAR] and origin != BAR):
        return None
    destination = origin - die
    if destination > 0:
        blockers = theirs[25 - destination]
        return None if blockers >= 2 else (origin, destination, blockers == 1)
    highest = 24
    while highest and not mine[highest]:
        highest -= 1
    if highest > 6 or mine[BAR]:
        return None
    # A higher number bears off only from the highest occupied point.
    if destination == 0 or origin == highest:
        return (origin, OFF, False)
    return None


def _walk(
    state: _State, origin: int, path: tuple[int, ...], destination: int
) -> tuple[_State, list[_Step]] | None:
    """Move one checker along ``path`` if every die of it is a legal single move."""
    steps: list[_Step] = []
    point = origin
    for index, die in enumerate(path):
        step = _single_step(state, point, die)
        if step is None:
            return None
        if index == len(path) - 1 and step[1] != destination:
            return None
        state = _apply_step(state[0], state[1], step)
        steps.append(step)
        point = step[1]
    return state, steps


def _play_die_by_die(state: _State, play: Play, dice: tuple[int, ...]) -> _State | None:
    """The common case of a play written one die per move (as gnubg writes every play):
    each move must match a die exactly and be legal in turn."""
    remaining = list(dice)
    for move in play.moves:
        distance = move.origin - move.destination
        if distance not in remaining:
            return None
        step = _single_step(state, move.origin, distance)
        if step is None:
            return None
        remaining.remove(distance)
        state = _apply_step(state[0], state[1], step)
    return state


def _assignments(
    state: _State, moves: tuple[Move, ...], dice: tuple[int, ...]
) -> Iterator[tuple[_State, int, int]]:
    """Ways to play the written moves in order with the dice: (result, dice used, hit
    marks that disagree with the board)."""
    if not moves:
        yield state, 0, 0
        return
    move, rest = moves[0], moves[1:]
    bearing_off = move.destination == OFF
    for path in _die_paths(dice, move.origin - move.destination, bearing_off):
        walked = _walk(state, move.origin, path, move.destination)
        if walked is None:
            continue
        after, steps = walked
        # A hit on the way is written as a mark inside the chain (20/16*/14): a move
        # written as one link that hits on the way does not match that writing.
        mismatch = int(steps[-1][2] != move.hit) + sum(step[2] for step in steps[:-1])
        for final, used, mismatches in _assignments(after, rest, _remove_dice(dice, path)):
            yield final, used + len(path), mismatches + mismatch


def _distance_mismatch(roll: Roll, play: Play) -> IllegalPlayError | None:
    """The first written move no die of ``roll``, nor dice added up, carries one checker.

    Such a move is wrong on any board, so it is the fault to name before a blocked point
    or an empty starting point: a record whose dice or moves were miscopied reads as
    "24/17 moves 7 pips; a 6-2 moves a checker 6, 2 or 8".
    """
    for move in play.moves:
        distance = move.origin - move.destination
        if next(_die_paths(roll.moves, distance, move.destination == OFF), None) is None:
            # One die at a time, then the dice added up in turn: 6, 2, 8 or 3, 6, 9, 12.
            spans = [str(span) for span in dict.fromkeys((*roll.moves, *accumulate(roll.moves)))]
            return IllegalPlayError(
                Message(
                    "%(move)s moves %(pips)s; a %(roll_text)s moves a checker %(spans)s or "
                    "%(spans2)s",
                    move=move, pips=_pips(distance), roll_text=_roll_text(roll),
                    spans=', '.join(spans[:-1]), spans2=spans[-1],
                ),
                PlayRule.DIE_MISMATCH,
            )
    return None


def _diagnose(position: Position, roll: Roll, play: Play) -> IllegalPlayError:
    """The first rule the written moves break: a move the roll cannot make at all, else
    the first fault in the order written."""
    mismatch = _distance_mismatch(roll, play)
    if mismatch is not None:
        return mismatch
    state: _State = (list(position.mover), list(position.opponent))
    dice = roll.moves
    for number, move in enumerate(play.moves, start=1):
        mine, theirs = state
        if not dice:
            return IllegalPlayError(
                Message(
                    "%(roll_text)s gives %(count)s moves, and the play makes more",
                    roll_text=_roll_text(roll), count=len(roll.moves),
                ),
                PlayRule.TOO_MANY_MOVES,
            )
        if mine[move.origin] == 0:
            if move.origin != BAR and theirs[25 - move.origin]:
                nothing = Message(
                    "there is no checker on %(point_name)s to move (checkers there belong to "
                    "the opponent)",
                    point_name=_point_name(move.origin),
                )
            else:
                nothing = Message(
                    "there is no checker on %(point_name)s to move",
                    point_name=_point_name(move.origin),
                )
            return IllegalPlayError(
                nothing,
                PlayRule.NO_CHECKER,
            )
        if mine[BAR] and move.origin != BAR:
            return IllegalPlayError(
                Message(
                    "%(move)s moves while a checker is on the bar: it must enter first",
                    move=move,
                ),
                PlayRule.BAR_FIRST,
            )
        if move.destination == OFF:
            outside = max(p for p in range(1, BAR + 1) if mine[p])
            if outside > 6:
                return IllegalPlayError(
                    Message(
                        "%(move)s bears off while a checker stands on %(point_name)s, outside "
                        "the home board",
                        move=move, point_name=_point_name(outside),
                    ),
                    PlayRule.NOT_ALL_HOME,
                )
            exact = move.origin
            if exact not in dice and max(dice) > exact and outside > move.origin:
                return IllegalPlayError(
                    Message(
                        "%(move)s bears off with a %(max)s from the %(origin)s point while a "
                        "checker stands on the higher %(outside)s point",
                        move=move, max=max(dice), origin=move.origin, outside=outside,
                    ),
                    PlayRule.HIGHER_POINT_OCCUPIED,
                )
        elif move.destination > 0 and theirs[25 - move.destination] >= 2:
            return IllegalPlayError(
                Message(
                    "%(point_name)s is blocked (%(theirs)s checkers)",
                    point_name=_point_name(move.destination), theirs=theirs[25 - move.destination],
                ),
                PlayRule.BLOCKED,
            )
        paths = list(_die_paths(dice, move.origin - move.destination, move.destination == OFF))
        if not paths:
            left = "-".join(str(d) for d in dice)
            return IllegalPlayError(
                Message(
                    "%(move)s moves %(pips)s, which the dice left (%(left)s) cannot make",
                    move=move, pips=_pips(move.origin - move.destination), left=left,
                ),
                PlayRule.DIE_MISMATCH,
            )
        for path in paths:
            walked = _walk(state, move.origin, path, move.destination)
            if walked is not None:
                state = walked[0]
                dice = _remove_dice(dice, path)
                break
        else:
            blocked = [
                point
                for path in paths
                for point in _path_points(move.origin, path)
                if 0 < point < BAR and theirs[25 - point] >= 2
            ]
            if blocked:
                names = sorted({_point_name(p) for p in blocked}, reverse=True)
                where = names[0] if len(names) == 1 else " and ".join(names)
                if len(set(blocked)) == 1:
                    why = Message(
                        "%(move)s cannot be played with %(roll_text)s: %(where)s is blocked on "
                        "the way",
                        move=move, roll_text=_roll_text(roll), where=where,
                    )
                else:
                    why = Message(
                        "%(move)s cannot be played with %(roll_text)s: %(where)s are blocked on "
                        "the way",
                        move=move, roll_text=_roll_text(roll), where=where,
                    )
                return IllegalPlayError(why, PlayRule.BLOCKED)
            return IllegalPlayError(
                Message(
                    "move %(number)s (%(move)s) is not a legal move with %(roll_text)s",
                    number=number, move=move, roll_text=_roll_text(roll),
                ),
                PlayRule.NOT_A_LEGAL_RESULT,
            )
    return IllegalPlayError(
        Message("the moves cannot be played in any order with these dice"),
        PlayRule.NOT_A_LEGAL_RESULT,
    )


def _path_points(origin: int, path: tuple[int, ...]) -> list[int]:
    points, point = [], origin
    for die in path[:-1]:
        point -= die
        points.append(point)
    return points


def _example(results: _Results) -> str:
    steps = next(iter(results.values()))[1]
    return format_play(_play(steps), words=True)


def _described_result(start: _State, play: Play, results: _Results) -> _State | None:
    """The legal result whose checkers the written moves account for, if exactly one.

    Some plays cannot be walked one written move at a time yet describe a legal play:
    gnubg writes ``bar/17(2)`` for 4-4 with two checkers on the bar, where both must enter
    before either moves on. A written play is taken as the legal result whose mover's
    checkers it accounts for; where hits on the way tell two such results apart, the
    ``*`` marks choose.
    """
    mine = start[0].copy()
    for move in play.moves:
        mine[move.origin] -= 1
        mine[move.destination] += 1
    if min(mine) < 0:
        return None
    matches = [state for state, _ in results.values() if state[0] == mine]
    if len(matches) > 1:
        marks = sum(move.hit for move in play.moves)
        matches = [state for state in matches if state[1][BAR] - start[1][BAR] == marks]
    return matches[0] if len(matches) == 1 else None


def check_play(position: Position, roll: Roll, play: Play) -> Position:
    """The position after ``play``, if it is legal with ``roll``; the mover stays on roll.

    A play that uses every die and whose moves are each legal in turn is accepted at once,
    with no search of alternatives. Moves written out of order are tried in other orders.

    >>> check_play(Position.initial(), Roll(3, 1), parse_play("8/5 6/5")).mover[5]
    2
    >>> check_play(Position.initial(), Roll(6, 5), parse_play("13/7 13/7"))
    Traceback (most recent call last):
    ...
    tourney.rules.errors.IllegalPlayError: 13/7 moves 6 pips, which the dice left (5) cannot make
    >>> check_play(Position.initial(), Roll(6, 2), parse_play("24/17 13/11"))
    Traceback (most recent call last):
    ...
    tourney.rules.errors.IllegalPlayError: 24/17 moves 7 pips; a 6-2 moves a checker 6, 2 or 8

    Raises:
        IllegalPlayError: the play is not legal; the message names the rule.
    """
    start: _State = (list(position.mover), list(position.opponent))
    dice = roll.moves
    if len(play.moves) == len(dice):
        quick = _play_die_by_die(start, play, dice)
        if quick is not None:
            return _position(quick)
    if len(play.moves) > len(dice):
        raise IllegalPlayError(
            Message(
                "%(roll_text)s gives %(count)s moves, and the play makes %(count2)s",
                roll_text=_roll_text(roll), count=len(dice), count2=len(play.moves),
            ),
            PlayRule.TOO_MANY_MOVES,
        )
    best: tuple[_State, int, int] | None = None
    # The order written first; players sometimes write moves in an order that only works
    # the other way round (6/off before bringing the last checker home).
    orders = [play.moves, *(order for order in permutations(play.moves) if order != play.moves)]
    for order in orders:
        for candidate in _assignments(start, order, dice):
            if best is None or (candidate[1], -candidate[2]) > (best[1], -best[2]):
                best = candidate
            if candidate[1] == len(dice) and candidate[2] == 0:
                return _position(candidate[0])
        if best is not None and best[1] == len(dice):
            return _position(best[0])
    results, most = _generate(position, roll)
    described = _described_result(start, play, results)
    if described is not None:
        return _position(described)
    if best is None:
        raise _diagnose(position, roll, play)
    # Fewer dice than the roll: legal only if no legal play does better (maximum use).
    reached = _state_key(best[0])
    if reached in results:
        return _position(best[0])
    used = best[1]
    if used == 0:
        raise IllegalPlayError(
            Message(
                "%(roll_text)s can be played (for example %(example)s), so the roll may not be "
                "passed",
                roll_text=_roll_text(roll), example=_example(results),
            ),
            PlayRule.MORE_DICE_PLAYABLE,
        )
    if most > used:
        if not roll.is_doublet:
            what = "both dice" if most == 2 else "a die"
        else:
            what = f"{most} of the four {roll.first}s"
        raise IllegalPlayError(
            Message(
                "%(what)s could have been played, and the play uses %(used)s (for example "
                "%(example)s)",
                what=what, used=used, example=_example(results),
            ),
            PlayRule.MORE_DICE_PLAYABLE,
        )
    if used == 1 and most == 1 and not roll.is_doublet:
        raise IllegalPlayError(
            Message(
                "only one die can be played, so it must be the larger: the %(high)s can be "
                "played (for example %(example)s)",
                high=roll.high, example=_example(results),
            ),
            PlayRule.LARGER_DIE,
        )
    raise IllegalPlayError(
        Message("the play does not reach a position any legal play reaches"),
        PlayRule.NOT_A_LEGAL_RESULT,
    )


def apply_play(position: Position, play: Play) -> Position:
    """Move checkers as written, single-die moves, without checking the dice.

    For building positions by hand; checks only that each checker exists and lands on an
    open point.

    Raises:
        IllegalPlayError: a move starts where the mover has no checker or lands on a
            point the opponent holds.
    """
    mine, theirs = list(position.mover), list(position.opponent)
    for move in play.moves:
        if not mine[move.origin]:
            raise IllegalPlayError(
                Message(
                    "there is no checker on %(point_name)s to move",
                    point_name=_point_name(move.origin),
                ), PlayRule.NO_CHECKER
            )
        blockers = theirs[25 - move.destination] if move.destination else 0
        if blockers >= 2:
            raise IllegalPlayError(
                Message(
                    "%(point_name)s is blocked (%(blockers)s checkers)",
                    point_name=_point_name(move.destination), blockers=blockers,
                ),
                PlayRule.BLOCKED,
            )
        mine, theirs = _apply_step(mine, theirs, (move.origin, move.destination, blockers == 1))
    return _position((mine, theirs))


def _pips(count: int) -> str:
    return PluralMessage("%(count)s pip", "%(count)s pips", count)
