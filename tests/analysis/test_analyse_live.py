"""``tourney analyse`` against the gnubg program run live (``-m slow``).

Runs ``tests/data/analysis/make_expected.py``'s gnubg session on more records than the
stored figures cover and counts the records that agree (error rate within 5% or 1 mEMG,
luck within 8% or 1.5 mEMG, for both players).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from tourney.analysis import analyse_record
from tourney.rules.records import validate_mat

DATA = Path(__file__).resolve().parent.parent / "data" / "analysis"
RECORDS = sorted((DATA / "more").glob("*.mat"))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("/usr/games/gnubg") is None, reason="needs gnubg"),
]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_expected", DATA / "make_expected.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _close(ours: float, theirs: float, percent: float, absolute: float) -> bool:
    return abs(ours - theirs) <= max(absolute, abs(theirs) * percent / 100)


def test_most_records_agree_with_gnubg_run_live() -> None:
    generator = _generator()
    error_agrees = luck_agrees = 0
    for path in RECORDS:
        theirs = generator.gnubg_statistics(path, 0)
        figures = analyse_record(validate_mat(path.read_bytes())).figures
        error_agrees += all(
            _close(f.error_rate, abs(t), 5, 1.0)
            for f, t in zip(figures, theirs["error_rate"], strict=True)
        )
        luck_agrees += all(
            _close(f.luck_rate, t, 8, 1.5)
            for f, t in zip(figures, theirs["luck_rate"], strict=True)
        )
    print(f"error rate agrees on {error_agrees} of {len(RECORDS)}, luck on {luck_agrees}")
    # Measured: 5 of these 6 agree on the error rate (gnubg_L07_s1009's GnubgB: 52.9
    # against 56.5 mEMG, 62 close cube decisions against gnubg 1.07's 68: see
    # test_analyse.py on the two gnubg versions), 6 on luck (10 and 12 of the 13 stored
    # records).
    assert (2 * error_agrees >= len(RECORDS), 4 * luck_agrees >= 3 * len(RECORDS)) == (
        True, True), (error_agrees, luck_agrees, len(RECORDS))
