"""The equities the analysis needs, asked of gnubg's evaluator as few times as possible.

gnubg's Python module scores *plays*: ``findbestmoves`` returns every legal play of a
roll with its cubeful equity, which is the equity of the position after the play with
the other side on roll, read from the mover's side. That gives the checker-play error
(the best play's score less the played one's) and the luck of a roll (its best play's
score less the average roll's).

A cube decision and the equity of a position before a roll (after a dance, the
opponent's) are asked of gnubg's own C functions, the ones its ``analyse match`` calls
(``GeneralCubeDecisionE``, ``FindCubeDecision``, ``GeneralEvaluationE``), which the
module's library exports: one network evaluation each, and exactly gnubg's numbers.

Where a build of the module does not export them, the same figures come from plays:
the equity before a roll is the score of the play that reached the position (the
previous turn's, or one made up: a checker of the side not on roll put back a few
points, or back on the bar), turned round; with the cube doubled and turned, the same
list gives the "double, take" equity. Only what no play gives is then asked of gnubg's
``eval`` command, which waits on gnubg's worker thread (about 10 ms a call): the "no
double" equity where doubling was right and the player did not double, and positions no
play can reach.

Terminology: a *board* is gnubg's pair (checkers of the side not on roll, checkers of
the side on roll), 25 counts each, points 1-24 then the bar. Equities are *EMG*
(equivalent money game, gnubg's normalised match equity) of one side, normalised to the
cube of the cube information they were found with.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from typing import Any

from tourney.analysis.engine import run_commands, size_cache
from tourney.rules.board import BAR, Position, Side

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""gnubg's board: (side not on roll, side on roll), each points 1-24 then the bar."""

ROLLS = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 rolls, higher die first."""

_PREDECESSOR_DICE = ((2, 1), (3, 1), (4, 1), (3, 2), (5, 1), (4, 2), (6, 1), (5, 2))
SAME_DOUBLE = 1e-5
"""Two equities (EMG) this close are the same number found along two routes."""


def board_of(position: Position) -> Board:
    """gnubg's board of a position, its mover on roll."""
    return (position.opponent[1:], position.mover[1:])


def play_result(board: Board, move: tuple[int, ...]) -> Board:
    """The board after gnubg's move tuple, seen from the same side.

    The module's tuple is 1-based pairs (from, to) and stops at the first checker borne
    off, whose origin stands alone at the end: what came after it is not told. The board
    returned is then the one after the steps told; it equals a legal play's board only
    when nothing was left out, since every legal play of a roll moves as many dice.
    """
    theirs, mine = list(board[0]), list(board[1])
    count = len(move)
    index = 0
    while index + 1 < count:
        origin, destination = move[index], move[index + 1]
        mine[origin - 1] -= 1
        mine[destination - 1] += 1
        hit = 24 - destination
        if theirs[hit] == 1:
            theirs[hit] = 0
            theirs[24] += 1
        index += 2
    if index < count:
        mine[move[index] - 1] -= 1
    return (tuple(theirs), tuple(mine))


@dataclass(frozen=True)
class CubeState:
    """The match and cube a decision is taken in (gnubg's cube information)."""

    length: int
    score: tuple[int, int]
    crawford: bool
    value: int
    owner: Side | None

    def doubled(self, taker: Side) -> CubeState:
        """The cube after a double taken by ``taker``."""
        return CubeState(self.length, self.score, self.crawford, 2 * self.value, taker)

    def can_double(self, side: Side) -> bool:
        """gnubg's test that ``side`` may double now (its ``GetDPEq``)."""
        if self.crawford or self.length == 0:
            return False
        if self.owner is not None and self.owner != side:
            return False
        mine, theirs = self.score[side], self.score[side.opposite]
        if self.length - 1 in (mine, theirs) and mine == self.length - 1:
            return False
        return mine + self.value < self.length


@dataclass(frozen=True)
class CubeEquities:
    """A cube decision's equities for the side on roll, EMG of the cube in play."""

    optimal: float
    """The best of no double and double (take or pass, whichever the taker prefers)."""
    take: float
    """Double, take."""
    drop: float
    """Double, pass: winning the cube in play (1, give or take float rounding)."""
    no_double: float | None
    """No double; ``None`` while only known to be below ``optimal`` (doubling right)."""

    @property
    def double_is_right(self) -> bool:
        """Whether doubling is at least as good as not doubling."""
        return self.optimal - min(self.take, self.drop) < SAME_DOUBLE


class _Native:
    """gnubg's own C functions for a position before the roll, called in the module.

    The module's Python functions score plays only; its shared library also exports the
    functions gnubg's analysis calls for the equity before a roll and for a cube
    decision. They are called here through ``ctypes`` on the evaluator's thread (the
    only one that uses gnubg), with gnubg's structures as the module's version lays them
    out: a board is two rows of 25 unsigned ints, the cube information is filled by
    gnubg's ``SetCubeInfo``, an evaluation context is a word of bit fields (cubeful,
    plies, prune, deterministic) and a float (noise).
    """

    OUTPUTS = 7
    """Floats per evaluation: five chances, cubeless and cubeful equity."""
    CUBEFUL = 6

    def __init__(self, library: ctypes.CDLL) -> None:
        self._evaluate = library.GeneralEvaluationENoLocking
        self._cube_decision = library.GeneralCubeDecisionENoLocking
        self._find_cube_decision = library.FindCubeDecision
        self._set_cube_info = library.SetCubeInfo
        self._mwc2eq = library.mwc2eq
        self._mwc2eq.restype = ctypes.c_float
        self._mwc2eq.argtypes = [ctypes.c_float, ctypes.c_void_p]
        self._cubeinfos: dict[tuple[CubeState, Side], ctypes.Array[ctypes.c_char]] = {}
        self._contexts: dict[int, _EvalContext] = {}
        # gnubg's analysis passes its evaluation setup along; this version does not read
        # it, zeros are a valid one all the same.
        self._setup = ctypes.create_string_buffer(1024)

    @classmethod
    def load(cls, gnubg: Any) -> _Native | None:
        """The functions of the loaded module, or ``None`` where it does not export them."""
        path = getattr(getattr(gnubg, "_gnubg_ext", None), "__file__", None)
        if not path:
            return None
        try:
            native = cls(ctypes.CDLL(path))
        except (OSError, AttributeError):
            return None
        return native if native._agrees_with(gnubg) else None

    def _agrees_with(self, gnubg: Any) -> bool:
        """Whether these functions read gnubg's structures as this module lays them out:
        after the opening 3-1 (8/5 6/5) of a 7-point match, the equity of the other side
        on roll must be the one the module scores the play with."""
        cube = CubeState(7, (0, 0), False, 1, None)
        opening = Position.initial()
        board = board_of(opening)
        ci = gnubg.cubeinfo(1, -1, 0, 7, (0, 0), 0, 0)
        plays = gnubg.findbestmoves(board, ci, gnubg.evalcontext(1, 0, 0, 0, 0.0), (3, 1))
        after = play_result(board, (8, 5, 6, 5))
        scores = [float(play["score"]) for play in plays
                  if play_result(board, play["move"]) == after]
        if not scores:
            return False
        turned = (after[1], after[0])
        try:
            equity = self.pre_roll(turned, cube, Side.O, 0)
            decision = self.cube_decision(turned, cube, Side.O, 0)
        except (RuntimeError, ValueError):
            return False
        return abs(equity + scores[0]) < SAME_DOUBLE and abs(
            decision.optimal - equity) < SAME_DOUBLE

    def cubeinfo(self, cube: CubeState, side: Side) -> ctypes.Array[ctypes.c_char]:
        key = (cube, side)
        found = self._cubeinfos.get(key)
        if found is None:
            found = ctypes.create_string_buffer(256)
            owner = -1 if cube.owner is None else int(cube.owner)
            score = (ctypes.c_int * 2)(*cube.score)
            if self._set_cube_info(found, cube.value, owner, int(side), cube.length, score,
                                   int(cube.crawford), 0, 0, 0):
                raise ValueError(f"gnubg has no cube information for {cube}")
            self._cubeinfos[key] = found
        return found

    def context(self, plies: int) -> _EvalContext:
        found = self._contexts.get(plies)
        if found is None:
            # Cubeful, the plies, no pruning, deterministic; no noise.
            found = _EvalContext(1 | plies << 1 | 1 << 6, 0.0)
            self._contexts[plies] = found
        return found

    def pre_roll(self, board: Board, cube: CubeState, side: Side, plies: int) -> float:
        """The cubeful equity of ``side`` on roll, its cube options included (EMG)."""
        out = (ctypes.c_float * self.OUTPUTS)()
        ci = self.cubeinfo(cube, side)
        if self._evaluate(out, _c_board(board), ci, ctypes.byref(self.context(plies))):
            raise RuntimeError("gnubg could not evaluate the position")
        return float(self._mwc2eq(out[self.CUBEFUL], ci))

    def cube_decision(self, board: Board, cube: CubeState, side: Side, plies: int
                      ) -> CubeEquities:
        """gnubg's cube decision of ``side`` on roll (its analysis's own numbers)."""
        outputs = (ctypes.c_float * (2 * self.OUTPUTS))()
        ci = self.cubeinfo(cube, side)
        if self._cube_decision(outputs, _c_board(board), ci,
                               ctypes.byref(self.context(plies)), self._setup):
            raise RuntimeError("gnubg could not evaluate the cube decision")
        equities = (ctypes.c_float * 4)()
        self._find_cube_decision(equities, outputs, ci)
        optimal, no_double, take, drop = (float(value) for value in equities)
        return CubeEquities(optimal, take, drop, no_double)


class _EvalContext(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint), ("noise", ctypes.c_float)]


def _c_board(board: Board) -> ctypes.Array[ctypes.c_uint]:
    return (ctypes.c_uint * 50)(*board[0], *board[1])


class Evaluator:
    """gnubg's equities for one match, with the lists and positions already asked."""

    def __init__(self, gnubg: Any, plies: int) -> None:
        size_cache(gnubg)
        self.gnubg = gnubg
        self.plies = plies
        self.context = gnubg.evalcontext(1, plies, 0, 0, 0.0)
        self.luck_context = gnubg.evalcontext(1, 0, 0, 0, 0.0) if plies else self.context
        self._find = gnubg.findbestmoves
        self._cubeinfos: dict[tuple[CubeState, Side], Any] = {}
        self._pre_roll: dict[tuple[object, ...], float] = {}
        self.native = _Native.load(gnubg)
        self.commands = 0
        """How many times gnubg's ``eval`` command was needed (each waits ~10 ms)."""

    # --- gnubg's building blocks ---------------------------------------------------

    def cubeinfo(self, cube: CubeState, side: Side) -> Any:
        """gnubg's cube information with ``side`` on roll."""
        key = (cube, side)
        found = self._cubeinfos.get(key)
        if found is None:
            owner = -1 if cube.owner is None else int(cube.owner)
            found = self.gnubg.cubeinfo(cube.value, owner, int(side), cube.length,
                                        cube.score, int(cube.crawford), 0)
            self._cubeinfos[key] = found
        return found

    def plays(self, board: Board, cube: CubeState, side: Side, dice: tuple[int, int],
              context: Any) -> list[dict[str, Any]]:
        """Every legal play of ``dice``, best first, each {"move": tuple, "score": EMG}."""
        result: list[dict[str, Any]] = self._find(board, self.cubeinfo(cube, side), context,
                                                  dice)
        return result

    def best_score(self, board: Board, cube: CubeState, side: Side, dice: tuple[int, int]
                   ) -> float | None:
        """The best play's score of ``dice`` at 0 plies; ``None`` when none is legal."""
        plays = self._find(board, self.cubeinfo(cube, side), self.luck_context, dice)
        return float(plays[0]["score"]) if plays else None

    def pre_roll_board(self, board: Board, position: Position, side: Side, cube: CubeState
                       ) -> float:
        """``pre_roll`` at 0 plies of a position given both as gnubg's board and ours."""
        if self.native is not None:
            return self.native.pre_roll(board, cube, side, 0)
        return self.pre_roll(position, side, cube, self.luck_context)

    def to_emg(self, equity: float, found_with: tuple[CubeState, Side],
               wanted: tuple[CubeState, Side]) -> float:
        """An equity (EMG of one side, one cube) as EMG of another side or cube."""
        if found_with == wanted:
            return equity
        mwc = float(self.gnubg.eq2mwc(equity, self.cubeinfo(*found_with)))
        if found_with[1] != wanted[1]:
            mwc = 1.0 - mwc
        return float(self.gnubg.mwc2eq(mwc, self.cubeinfo(*wanted)))

    # --- equity before a roll --------------------------------------------------------

    def pre_roll(self, position: Position, side: Side, cube: CubeState, context: Any
                 ) -> float:
        """The cubeful equity (its cube options included) of ``side`` on roll in
        ``position`` (its mover), EMG of ``cube``."""
        key = (position, side, cube, context["plies"])
        found = self._pre_roll.get(key)
        if found is None and self.native is not None:
            found = self.native.pre_roll(board_of(position), cube, side, context["plies"])
            self._pre_roll[key] = found
        if found is None:
            found = self._reached_equity(position, side, cube, context)
            if found is None:
                found = self._eval(position, side, cube, context["plies"]).optimal
            self._pre_roll[key] = found
        return found

    def _reached_equity(self, position: Position, side: Side, cube: CubeState,
                        context: Any) -> float | None:
        """The equity from a made-up play of the other side that reaches ``position``."""
        other = side.opposite
        target = (position.mover[1:], position.opponent[1:])
        for earlier, dice in _plays_reaching(position):
            for play in self.plays(earlier, cube, other, dice, context):
                if play_result(earlier, play["move"]) == target:
                    return -float(play["score"])
        return None

    # --- cube decisions ---------------------------------------------------------------

    def cube_equities(self, position: Position, side: Side, cube: CubeState,
                      optimal: float | None, previous: Turn | None) -> CubeEquities:
        """The cube decision of ``side`` on roll in ``position``.

        ``optimal`` is the equity before the roll when the previous play gave it;
        ``previous`` is that play, whose list with the cube doubled gives the "double,
        take" equity.
        """
        if self.native is not None:
            return self.native.cube_decision(board_of(position), cube, side, self.plies)
        context = self.context
        if optimal is None:
            optimal = self.pre_roll(position, side, cube, context)
        taken = cube.doubled(side.opposite)
        take = None
        if previous is not None and previous.after is not None:
            for play in self.plays(previous.board, taken, previous.side, previous.dice,
                                   context):
                if play_result(previous.board, play["move"]) == previous.after:
                    take = self.to_emg(-float(play["score"]), (taken, side), (cube, side))
                    break
        if take is None:
            found = self.pre_roll(position, side, taken, context)
            take = self.to_emg(found, (taken, side), (cube, side))
        equities = CubeEquities(optimal, take, 1.0, None)
        if equities.double_is_right:
            return equities
        return CubeEquities(optimal, take, 1.0, optimal)

    def no_double(self, position: Position, side: Side, cube: CubeState) -> CubeEquities:
        """The cube decision with its "no double" equity, from gnubg's ``eval``."""
        if self.native is not None:
            return self.native.cube_decision(board_of(position), cube, side, self.plies)
        return self._eval(position, side, cube, self.plies)

    def _eval(self, position: Position, side: Side, cube: CubeState, plies: int
              ) -> CubeEquities:
        """gnubg's ``eval`` of the position, ``side`` on roll, before the roll."""
        self.commands += 1
        ci = self.cubeinfo(cube, side)
        match_id = self.gnubg.matchid(ci, self.gnubg.posinfo(int(side), 0, 0, 1, (0, 0)))
        out = run_commands(self.gnubg, [
            f"set evaluation chequerplay evaluation plies {plies}",
            f"set evaluation cubedecision evaluation plies {plies}",
            f"set matchid {match_id}",
            f"set board {position.to_id()}",
            "eval",
        ])
        found = {}
        for label in ("No double", "Double, take", "Double, pass"):
            match = re.search(r"\d\. " + re.escape(label) + r"\s+([-+]?\d+\.\d+)", out)
            if match is not None:
                found[label] = float(match.group(1))
        if len(found) == 3:
            no_double, take = found["No double"], found["Double, take"]
            optimal = max(no_double, min(take, found["Double, pass"]))
            return CubeEquities(optimal, take, found["Double, pass"], no_double)
        # No cube decision to make: the table's cubeful equity (the deepest ply last).
        tables = re.findall(r"Equity\s+Cubeful\s*\n((?:.*\d.*\n)+)", out)
        rows = tables[-1].strip().splitlines() if tables else []
        numbers = re.findall(r"[-+]?\d+\.\d+", rows[-1]) if rows else []
        if not numbers:
            raise RuntimeError(f"gnubg's eval printed no equity for {position.to_id()}")
        equity = float(numbers[-1])
        return CubeEquities(equity, equity, 1.0, equity)


@dataclass(frozen=True)
class Turn:
    """A checker play as the evaluator saw it, for the turn after it."""

    board: Board
    side: Side
    dice: tuple[int, int]
    after: Board | None
    """The board the play reached (same point of view); ``None`` after a dance."""


def _plays_reaching(position: Position) -> list[tuple[Board, tuple[int, int]]]:
    """Boards and rolls of the side not on roll from which one legal play reaches
    ``position`` (that side's point of view, as gnubg's ``findbestmoves`` takes it).

    Off the bar, one of its checkers is put back by both dice (the points passed and
    left free of the other side's checkers, so the play hits nothing). On the bar, one
    checker that stands in the entry board goes back to the bar, with a roll whose
    other die is shut out: entering is then the only legal play.
    """
    mine, theirs = list(position.opponent), list(position.mover)
    found: list[tuple[Board, tuple[int, int]]] = []
    if mine[BAR]:
        shut = [die for die in range(1, 7) if theirs[die] >= 2]
        for point in range(19, 25):
            if not mine[point]:
                continue
            entering = 25 - point
            for die in shut:
                if die == entering:
                    continue
                before = mine.copy()
                before[point] -= 1
                before[BAR] += 1
                dice = (max(entering, die), min(entering, die))
                found.append(((tuple(theirs[1:]), tuple(before[1:])), dice))
                return found
        return found
    for point in range(1, 25):
        if not mine[point]:
            continue
        for high, low in _PREDECESSOR_DICE:
            start, middle = point + high + low, point + low
            if start > 24 or theirs[25 - start] or theirs[25 - middle]:
                continue
            before = mine.copy()
            before[point] -= 1
            before[start] += 1
            found.append(((tuple(theirs[1:]), tuple(before[1:])), (high, low)))
            if len(found) >= 2:
                return found
    return found
