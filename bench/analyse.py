"""Analyse a 7-point match at 0 plies: tourney against gnubg's own ``analyse match``.

Both are measured in this run on the same record (a 7-point gnubg self-play match from
``tests/data/analysis/more``): ``tourney analyse FILE --json`` as a command (start-up
included), ``analyse_record`` in-process (after the first run with gnubg's evaluation cache
warm), and the gnubg program
(``gnubg -t -q``: import mat, analyse match, show statistics match at 0 plies, start-up
included), each the fastest of ``--runs``. Prints the wall-clock times, the processor
time of that run (user and system, the process and its children: tourney's analysis may
share the rolls' luck with a second process) and tourney's ratio to gnubg.

tourney's modules are compiled to bytecode first, as an installed package has them: an
editable checkout run with ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every
module again at each start.

Run: ``.venv/bin/python -P bench/analyse.py [--runs 2] [FILE.mat]``
"""

from __future__ import annotations

import argparse
import compileall
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tourney.analysis import analyse_record
from tourney.rules.records import validate_mat

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "analysis" / "more" / "gnubg_L07_s1021.mat"
GNUBG = "/usr/games/gnubg"


def _processor_time() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _fastest(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """The fastest run's wall-clock time and the processor time it took."""
    best = (float("inf"), 0.0)
    for _ in range(runs):
        start, processor = time.perf_counter(), _processor_time()
        work()
        best = min(best, (time.perf_counter() - start, _processor_time() - processor))
    return best


def _gnubg(path: Path) -> None:
    commands = "\n".join([
        "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0",
        "set analysis luckanalysis plies 0",
        f"import mat {path}",
        "analyse match",
        "show statistics match",
        "",
    ])
    with tempfile.TemporaryDirectory() as home:
        subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True,
                       check=True, env={"HOME": home, "PATH": "/usr/bin:/bin"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("record", nargs="?", type=Path, default=RECORD)
    args = parser.parse_args()
    if shutil.which(GNUBG) is None:
        print("gnubg is not installed (apt-get install gnubg): nothing to compare with")
        return 1
    compileall.compile_dir(ROOT / "tourney", quiet=1)
    command = [sys.executable, "-m", "tourney", "analyse", str(args.record), "--json"]
    data = args.record.read_bytes()
    reference = _fastest(args.runs, lambda: _gnubg(args.record))
    whole = _fastest(args.runs, lambda: subprocess.run(command, check=True,
                                                        capture_output=True))
    inside = _fastest(args.runs, lambda: analyse_record(validate_mat(data)))
    print(f"record: {args.record.name}")
    for label, (wall, processor) in (
        ("gnubg analyse match (start-up included)", reference),
        ("tourney analyse --json (start-up included)", whole),
        ("analyse_record in-process", inside),
    ):
        ratio = "(reference)" if label.startswith("gnubg") else f"ratio {wall / reference[0]:5.2f}"
        print(f"{label:44} {wall:6.2f} s  processor {processor:5.2f} s  {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
