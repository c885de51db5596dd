"""The luck of each roll: the dominant part of an analysis, shared between two processes.

gnubg judges a roll by the equity of its best play less the average over every roll the
player could have thrown (21, doublets counting once and the others twice; at the
opening 30, the 15 of each player, as the opening roll is never a doublet). Each roll
therefore needs the best play of 20 other rolls, all at 0 plies: about twenty times
the work of the rest of the analysis, and each roll's figure stands alone. Where the
machine has a second processor, a copy of the process (``fork``, which shares gnubg's
loaded evaluator) works through a little over half of the rolls while this one judges
the plays and cube decisions and then the other rolls. The figures are the same either
way (up to gnubg's float rounding, about 1e-6 EMG over a match).
"""

from __future__ import annotations

import contextlib
import os
import signal
import warnings
from array import array
from dataclasses import dataclass

from tourney.analysis.equities import ROLLS, Board, CubeState, Evaluator
from tourney.rules.board import Position, Side

_OPENING = tuple(roll for roll in ROLLS if roll[0] != roll[1])
_WEIGHTS = tuple(1 if high == low else 2 for high, low in ROLLS)
MIN_SHARED = 24
"""Fewer rolls than this are not worth a second process."""
_CHUNK = 4
"""Rolls handed out together, so that each process keeps neighbouring positions."""
_THEIR_CHUNKS = (0, 2, 4, 6, 8)
"""The chunks (of every 9) the copy takes: 5 of 9."""


@dataclass(frozen=True)
class Roll:
    """A roll to judge: the position, who rolled and what, in the cube of the moment."""

    position: Position
    """The position before the roll, its mover on roll."""
    board: Board
    cube: CubeState
    side: Side
    dice: tuple[int, int]
    opening: bool
    """The game's first roll (never a doublet), judged against the 30 opening rolls."""


def luck(evaluator: Evaluator, roll: Roll) -> float:
    """gnubg's luck of one roll (EMG of the roller, positive for good dice)."""
    board, cube, side = roll.board, roll.cube, roll.side
    dance: float | None = None

    def value(score: float | None) -> float:
        nonlocal dance
        if score is not None:
            return score
        if dance is None:
            # No legal play: the opponent's equity before their roll, turned round.
            dance = -evaluator.pre_roll_board((board[1], board[0]), roll.position.turned(),
                                              side.opposite, cube)
        return dance

    rolled = 0.0
    if roll.opening:
        own = 0.0
        for dice in _OPENING:
            score = value(evaluator.best_score(board, cube, side, dice))
            own += score
            if dice == roll.dice:
                rolled = score
        theirs = sum(value(evaluator.best_score(board, cube, side.opposite, dice))
                     for dice in _OPENING)
        return rolled - (own - theirs) / 30
    total = 0.0
    for dice, weight in zip(ROLLS, _WEIGHTS, strict=True):
        score = value(evaluator.best_score(board, cube, side, dice))
        total += weight * score
        if dice == roll.dice:
            rolled = score
    return rolled - total / 36


class Luck:
    """The luck of a match's rolls, worked out while the rest of the analysis runs.

    Made before the rest of the analysis: where the rolls are many and the machine has
    a second processor, a copy of the process starts at once on its share (a little
    over half, as this process also judges the plays and cube decisions).
    """

    def __init__(self, evaluator: Evaluator, rolls: list[Roll]) -> None:
        self.evaluator = evaluator
        self.rolls = rolls
        self.theirs: list[int] = []
        self.pending: _Pending | None = None
        if _can_share(evaluator, len(rolls)):
            theirs = [index for index in range(len(rolls))
                      if index // _CHUNK % 9 in _THEIR_CHUNKS]
            self.pending = _in_child(evaluator, [rolls[index] for index in theirs])
            if self.pending is not None:
                self.theirs = theirs

    def cancel(self) -> None:
        """Stop the other process (the analysis failed before its figures were read)."""
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None

    def values(self) -> list[float]:
        """Every roll's luck, in order (this process's share is worked out now)."""
        evaluator, rolls = self.evaluator, self.rolls
        theirs = set(self.theirs)
        values = [0.0 if index in theirs else luck(evaluator, roll)
                  for index, roll in enumerate(rolls)]
        if self.pending is not None:
            found = self.pending()
            if found is None:
                # The other process did not finish its share: do it here.
                found = [luck(evaluator, rolls[index]) for index in self.theirs]
            for index, value in zip(self.theirs, found, strict=True):
                values[index] = value
        return values


def _can_share(evaluator: Evaluator, count: int) -> bool:
    # The copy may only use gnubg's functions, never its commands: those wait on a
    # worker thread that a forked process does not have.
    if count < MIN_SHARED or evaluator.native is None or not hasattr(os, "fork"):
        return False
    try:
        processors = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - systems without affinity masks
        processors = os.cpu_count() or 1
    return processors >= 2


def _in_child(evaluator: Evaluator, rolls: list[Roll]) -> _Pending | None:
    """Start a copy of this process that works out ``rolls``' luck; ``None`` when the
    system will not make one."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        with warnings.catch_warnings():
            # Newer Pythons warn that forking a process with threads may deadlock the
            # copy; it only runs this thread's code and gnubg's functions.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # pragma: no cover - runs in the copy, which coverage does not follow
        status = 1
        try:
            os.close(read_end)
            data = array("d", (luck(evaluator, roll) for roll in rolls)).tobytes()
            while data:
                data = data[os.write(write_end, data):]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return _Pending(pid, read_end, len(rolls))


class _Pending:
    """The other process's share, read once this one has done its own."""

    def __init__(self, pid: int, read_end: int, count: int) -> None:
        self.pid, self.read_end, self.count = pid, read_end, count

    def cancel(self) -> None:
        """End the other process and wait for it."""
        os.close(self.read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)

    def __call__(self) -> list[float] | None:
        chunks = []
        with os.fdopen(self.read_end, "rb") as pipe:
            while chunk := pipe.read(65536):
                chunks.append(chunk)
        _, status = os.waitpid(self.pid, 0)
        data = b"".join(chunks)
        if status != 0 or len(data) != 8 * self.count:
            return None
        return list(array("d", data))
