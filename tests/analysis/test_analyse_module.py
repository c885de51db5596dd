"""``tourney analyse`` against the gnubg module's own ``analyse match``.

The gnubg package tourney analyses with also runs GNU Backgammon's commands: its own
``import mat``, ``analyse match`` and ``show statistics match`` at 0 plies are the oracle
here, with the very evaluator tourney uses. The figures must be the same to the decimal
gnubg prints: the error rate and the luck rate (0.1 mEMG), the unforced moves and the
close cube decisions. The four records whose figures differ from the gnubg 1.07 program's
(see test_analyse.py) run in every suite; all the others under ``-m slow``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tourney.analysis import analyse_record
from tourney.analysis.engine import in_engine_thread, load_gnubg, run_commands
from tourney.rules.records import validate_mat

DATA = Path(__file__).resolve().parent.parent / "data" / "analysis"
DIFFERING_FROM_1_07 = {
    "gnubg_L01_s1042.mat", "gnubg_L03_s1031.mat", "gnubg_L03_s1055.mat", "gnubg_L05_s1008.mat",
}
RECORDS = sorted(DATA.glob("*.mat")) + sorted((DATA / "more").glob("*.mat"))


def _statistics_reader() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_expected", DATA / "make_expected.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _module_statistics(path: Path) -> dict[str, Any]:
    """The gnubg module's own analysis of the record, as ``show statistics`` prints it."""
    gnubg = load_gnubg()
    out = in_engine_thread(run_commands, gnubg, [
        "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0",
        "set analysis luckanalysis plies 0",
        "set output mwc off",
        f"import mat {path}",
        "analyse match",
        "show statistics match",
    ])
    statistics: dict[str, Any] = _statistics_reader().parse_statistics(out)
    return statistics


def _param(path: Path) -> Any:
    marks = [] if path.name in DIFFERING_FROM_1_07 else [pytest.mark.slow]
    return pytest.param(path, marks=marks, id=path.name)


@pytest.mark.parametrize("path", [_param(path) for path in RECORDS])
def test_figures_are_the_gnubg_modules_own(path: Path) -> None:
    theirs = _module_statistics(path)
    figures = analyse_record(validate_mat(path.read_bytes())).figures
    ours = {
        "unforced_moves": [float(f.unforced_moves) for f in figures],
        "close_cube": [float(f.close_cube) for f in figures],
        "error_rate": [f.error_rate for f in figures],
        "luck_rate": [f.luck_rate for f in figures],
    }
    expected = {
        "unforced_moves": theirs["unforced_moves"],
        "close_cube": theirs["close_cube"],
        "error_rate": [abs(rate) for rate in theirs["error_rate"]],
        "luck_rate": theirs["luck_rate"],
    }
    for key in ("unforced_moves", "close_cube"):
        assert ours[key] == expected[key], key
    for key in ("error_rate", "luck_rate"):
        # gnubg prints one decimal: ours, unrounded, is within half of it and a hair.
        assert ours[key] == pytest.approx(expected[key], abs=0.051), key
