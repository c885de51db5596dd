"""How the analysis asks gnubg for its equities: same figures along every route.

The analysis reads gnubg's cube decisions and the equity before a roll from gnubg's own
functions in the module's library, and shares the rolls' luck with a second process
where one is free. Without those functions it falls back on the plays that reach a
position and on gnubg's ``eval`` command. Each route must give the figures of the
others; the expected values are the other route's, both being gnubg's evaluator.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from tourney.analysis import MatchAnalysis, analyse_record, equities, luck
from tourney.analysis.equities import Evaluator, board_of, play_result
from tourney.rules.board import Position
from tourney.rules.records import validate_mat

DATA = Path(__file__).resolve().parent.parent / "data" / "analysis"


@cache
def _default(name: str) -> MatchAnalysis:
    return analyse_record(validate_mat((DATA / name).read_bytes()))


def _figures(analysis: MatchAnalysis) -> list[tuple[int, int, int, float, float, float]]:
    return [
        (f.unforced_moves, f.close_cube, f.moves, f.chequer_error, f.cube_error, f.luck)
        for f in analysis.figures
    ]


def _same(ours: MatchAnalysis, theirs: MatchAnalysis) -> None:
    """The same counts and, up to gnubg's float rounding, the same equities.

    gnubg evaluates sibling plays incrementally from the previous network inputs, and
    its cache decides which evaluations run: the last digits of an equity depend on
    what was evaluated before (a few 1e-6 EMG over a match).
    """
    for mine, other in zip(_figures(ours), _figures(theirs), strict=True):
        assert mine[:3] == other[:3]
        assert mine[3:] == pytest.approx(other[3:], abs=1e-5)


def test_one_process_gives_the_figures_of_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1-point match of 54 rolls: its luck worked out in this process alone is the
    same as shared with a second process."""
    name = "gnubg_L01_s1018.mat"
    monkeypatch.setattr(luck, "_can_share", lambda evaluator, count: False)
    alone = analyse_record(validate_mat((DATA / name).read_bytes()))
    _same(alone, _default(name))


def test_without_gnubgs_functions_the_figures_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 3-point match with 15 close cube decisions, analysed without gnubg's library
    functions (plays reaching the position, gnubg's ``eval`` printing 3 decimals): the
    same counts, the error and luck rates within 0.5 mEMG."""
    name = "more/gnubg_L03_s1079.mat"
    monkeypatch.setattr(equities._Native, "load", classmethod(lambda cls, gnubg: None))
    fallback = analyse_record(validate_mat((DATA / name).read_bytes()))
    native = _default(name)
    for ours, theirs in zip(fallback.figures, native.figures, strict=True):
        assert (ours.unforced_moves, ours.close_cube, ours.moves) == (
            theirs.unforced_moves, theirs.close_cube, theirs.moves)
        assert ours.error_rate == pytest.approx(theirs.error_rate, abs=0.5)
        assert ours.luck_rate == pytest.approx(theirs.luck_rate, abs=0.5)


def test_a_hit_puts_the_checker_on_the_bar() -> None:
    """From the opening position, 8/5 6/5 then 24/20 for the other side: gnubg's tuple
    (24, 20) read back; nothing is hit. Then a blot hit: the opponent's checker on the
    mover's 20 point (its own 5) goes to its bar."""
    start = Position.initial()
    board = board_of(start)
    after = play_result(board, (24, 20))
    assert (after[1][23], after[1][19], after[0]) == (1, 1, board[0])
    blot = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {5: 1, 6: 4, 8: 3, 13: 5, 24: 2})
    hit = play_result(board_of(blot), (24, 20))
    # The opponent's 5 point is the mover's 20: the blot goes to the opponent's bar.
    assert (hit[0][4], hit[0][24], hit[1][19]) == (0, 1, 1)


def test_a_bear_off_tuple_cut_short_reaches_no_legal_play() -> None:
    """Checkers on the 6 and 5 points, 6-5 to play: gnubg's tuple stops at the first
    checker borne off, (6,); read alone it moves one checker only, so it matches neither
    legal play (6/off 5/off) nor any other."""
    position = Position.from_points({6: 1, 5: 1}, {6: 15})
    board = board_of(position)
    told = play_result(board, (6,))
    assert (sum(told[1]), told == play_result(board, (6, 5))) == (1, False)


def _sharing(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the second processes started (none on a machine with one processor)."""
    started: list[int] = []
    start = luck._in_child

    def recording(evaluator: Evaluator, rolls: list[luck.Roll]) -> luck._Pending | None:
        pending = start(evaluator, rolls)
        if pending is not None:
            started.append(pending.pid)
        return pending

    monkeypatch.setattr(luck, "_in_child", recording)
    return started


def test_a_second_process_that_fails_is_made_good(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the second process's share does not arrive, this process works it out: the
    figures are those of an analysis that went well."""
    name = "gnubg_L01_s1018.mat"
    started = _sharing(monkeypatch)
    read = luck._Pending.__call__

    def lost(pending: luck._Pending) -> None:
        read(pending)
        return None

    monkeypatch.setattr(luck._Pending, "__call__", lost)
    again = analyse_record(validate_mat((DATA / name).read_bytes()))
    _same(again, _default(name))
    if not started:
        pytest.skip("one processor: no second process was started")


def test_a_failed_analysis_leaves_no_second_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """An analysis that stops on an error ends the second process it started and waits
    for it (no process is left behind by the worker that runs analyses)."""
    from tourney.analysis import match_analysis

    started = _sharing(monkeypatch)

    def broken(*args: object) -> None:
        raise RuntimeError("stopped")

    monkeypatch.setattr(match_analysis._GameAnalysis, "_play", broken)
    with pytest.raises(RuntimeError, match="stopped"):
        analyse_record(validate_mat((DATA / "gnubg_L01_s1018.mat").read_bytes()))
    if not started:
        pytest.skip("one processor: no second process was started")
    with pytest.raises(ChildProcessError):
        os.waitpid(started[0], os.WNOHANG)


def test_gnubgs_own_functions_are_found_and_read_the_same() -> None:
    """With the pinned gnubg module, the analysis calls gnubg's own cube and position
    functions (no ``eval`` command): they pass the check that the equity after the
    opening 3-1 is the one the module scores the play with."""
    from tourney.analysis.engine import in_engine_thread, load_gnubg

    gnubg = load_gnubg()
    assert in_engine_thread(equities._Native.load, gnubg) is not None
