"""The compiled fast path of ``validate_mat``: clean ``.mat`` records replayed in C.

Terminology: a record is *clean* when the Python reader and replay would find no error
and no warning in it. The extension module ``_fastmat`` (built from ``_fastmat.c`` at
install time) replays a decoded ``.mat`` text under the full rules of standard
backgammon and returns the match's results only for a clean record; for anything else
(an error, a warning, a variant, a money session, a form it does not read) it returns
``None`` and ``validate_mat`` runs the Python path, which explains what is wrong. Both
paths give the same report for every record the compiled one accepts; the report's
``record`` is read by ``read_mat`` only when someone asks for it.

Where the extension could not be built (no C compiler at install time) everything runs
in Python with the same results. ``TOURNEY_PURE_PYTHON=1`` in the environment, or
``compiled.enabled = False``, turns the fast path off (for benchmarks and for
comparing the two paths).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from tourney.rules.board import Side
from tourney.rules.errors import NotationError
from tourney.rules.game import GameEnd, Level
from tourney.rules.records.mat import read_mat
from tourney.rules.records.model import MatchRecord, RecordError
from tourney.rules.records.replay import GameResult, MatchRules, RecordReport
from tourney.rules.variants import STANDARD, variant_named

if TYPE_CHECKING:
    from tourney.rules.records._fastmat import Accepted


def _load_accept() -> Callable[[str, int, int], Accepted | None] | None:
    try:
        from tourney.rules.records._fastmat import accept
    except ImportError:  # built without a C compiler: the Python path does everything
        return None
    return accept


_ACCEPT = _load_accept()

enabled: bool = os.environ.get("TOURNEY_PURE_PYTHON", "").strip() in ("", "0")
"""Whether ``validate_mat`` tries the compiled replay first (when it is built)."""

_BOM = b"\xef\xbb\xbf"
_SIDES = (Side.X, Side.O)
_ENDS = (GameEnd.PLAYED, GameEnd.DROPPED, GameEnd.RESIGNED)
_LEVELS = (None, Level.SINGLE, Level.GAMMON, Level.BACKGAMMON)
_NO_TAG = -1
"""Tells the compiled replay to follow the record's [Crawford]/[Holland] tags."""


def is_compiled_available() -> bool:
    """Whether the compiled replay was built and can be imported."""
    return _ACCEPT is not None


class CompiledReport(RecordReport):
    """The report of a clean record replayed by the compiled path.

    It equals the report the Python path gives; its ``record`` is read with
    ``read_mat`` on first access, since most callers never look at it.
    """

    _source: bytes | str
    _read_options: tuple[int, int | None]
    _record: MatchRecord | None = None
    _players: tuple[str, str]
    _match_length: int
    # What every clean report says, shared by all of them.
    errors: tuple[RecordError, ...] = ()
    warnings: tuple[RecordError, ...] = ()
    finished: bool = True

    def __init__(
        self,
        source: bytes | str,
        read_options: tuple[int, int | None],
        players: tuple[str, str],
        match_length: int,
        games: tuple[GameResult, ...],
        final_score: tuple[int, int],
        winner: Side,
    ) -> None:
        # A frozen dataclass refuses attribute assignment; its fields live in __dict__.
        self.__dict__.update({
            "_source": source,
            "_read_options": read_options,
            "_players": players,
            "_match_length": match_length,
            "games": games,
            "final_score": final_score,
            "winner": winner,
        })

    @property
    def record(self) -> MatchRecord:
        """The record as ``read_mat`` reads it, read on first access."""
        record = self._record
        if record is None:
            max_bytes, size = self._read_options
            record = read_mat(self._source, max_bytes=max_bytes, size=size)
            object.__setattr__(self, "_record", record)
        return record

    @property
    def players(self) -> tuple[str, str]:
        """The players' names as the score lines give them."""
        return self._players

    @property
    def match_length(self) -> int:
        """The match length from the header."""
        return self._match_length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordReport):
            return NotImplemented
        return _fields(self) == _fields(other)

    __hash__ = RecordReport.__hash__


def _fields(report: RecordReport) -> tuple[object, ...]:
    return (report.record, report.errors, report.warnings, report.games, report.final_score,
            report.winner, report.finished)


def _rule_flags(rules: MatchRules | None) -> tuple[int, int] | None:
    """The Crawford and Holland arguments of the compiled replay, or ``None`` when the
    rules ask for something it does not do (a variant, event options)."""
    if rules is None:
        return _NO_TAG, _NO_TAG
    if rules.options is not None or rules.start not in (None, (0, 0)) or \
            rules.match_form not in (None, "single"):
        # Event options and handicap starts are the Python replay's.
        return None
    if rules.variant is not None:
        try:
            if variant_named(rules.variant) is not STANDARD:
                return None
        except NotationError:
            return None
    crawford = _NO_TAG if rules.crawford is None else int(rules.crawford)
    holland = _NO_TAG if rules.holland is None else int(rules.holland)
    return crawford, holland


def replay_compiled(
    data: bytes | str, rules: MatchRules | None, max_bytes: int, size: int | None
) -> RecordReport | None:
    """The report of a clean record from the compiled replay, or ``None`` when the
    Python path must read it (not clean, not plain UTF-8, too large, fast path off)."""
    accept = _ACCEPT
    if accept is None or not enabled:
        return None
    flags = (_NO_TAG, _NO_TAG) if rules is None else _rule_flags(rules)
    if flags is None:
        return None
    if isinstance(data, str):
        total = len(data) if data.isascii() else len(data.encode("utf-8"))
        text = data.removeprefix("\ufeff")
    else:
        total = len(data)
        try:
            text = (data[len(_BOM):] if data.startswith(_BOM) else data).decode("utf-8")
        except UnicodeDecodeError:
            return None
    if max(size or 0, total) > max_bytes:
        return None
    accepted = accept(text, *flags)
    if accepted is None:
        return None
    length, first, second, rows, score = accepted
    winner = Side.X if score[0] >= length else Side.O
    return CompiledReport(data, (max_bytes, size), (first, second), length,
                          tuple(map(_game_result, rows)), score, winner)


@lru_cache(maxsize=4096)
def _game_result(row: tuple[int, int, int, int, int, int, bool]) -> GameResult:
    # Results are immutable and the same few recur in every match: build each once.
    number, winner, end, level, cube, points, crawford = row
    return GameResult(number, _SIDES[winner], _ENDS[end], _LEVELS[level], cube, points,
                      crawford)
