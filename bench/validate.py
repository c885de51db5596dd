"""Validate a folder of .mat files with tourney and import the same files into gnubg.

Usage: python bench/validate.py [FOLDER]   (default tests/data/records)

Both run in the same process run: ours replays every game under the full rules; gnubg
imports every file in one process (`import mat` per file). gnubg's start-up time is
measured separately (a run with no imports) and taken off, so the ratio compares the
work per file only; to keep that difference well above the noise, both sides go through
the files several times and the fastest of three runs counts. Target: ours at least 5x
faster.

Ours runs through the compiled replay of clean records when it is built (the bench says
whether it was used, and for how many files); our pure-Python speed, with that path
switched off (``compiled.enabled = False``, or TOURNEY_PURE_PYTHON=1 for any run), is
measured too, on one pass over the files since it is slower.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from tourney.rules.records import compiled, validate_mat
from tourney.rules.records.compiled import CompiledReport

PASSES = 20
PURE_PYTHON_PASSES = 1
RUNS = 3


def _gnubg_seconds(gnubg: str, files: list[Path]) -> float:
    commands = ["set confirm new off"] + [f'import mat "{path}"' for path in files]
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([gnubg, "-t", "-q", "-r"], input="\n".join(commands) + "\n",
                       text=True, capture_output=True, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def _our_seconds(files: list[Path]) -> tuple[float, int]:
    best, invalid = float("inf"), 0
    for _ in range(RUNS):
        start = time.perf_counter()
        invalid = sum(not validate_mat(path.read_bytes()).ok for path in files)
        best = min(best, time.perf_counter() - start)
    return best, invalid


def _compiled_use(files: list[Path]) -> str:
    if not compiled.is_compiled_available():
        return "not built: pure Python only"
    if not compiled.enabled:
        return "built, switched off (TOURNEY_PURE_PYTHON)"
    taken = sum(isinstance(validate_mat(path.read_bytes()), CompiledReport) for path in files)
    return (f"used: {taken} of {len(files)} files replayed compiled, {len(files) - taken} "
            "by the Python path")


def _pure_python_seconds(files: list[Path]) -> tuple[float, int]:
    enabled = compiled.enabled
    compiled.enabled = False
    try:
        return _our_seconds(files)
    finally:
        compiled.enabled = enabled


def main() -> int:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/records")
    files = sorted(folder.rglob("*.mat"))
    if not files:
        print(f"no .mat files under {folder}", file=sys.stderr)
        return 2
    print(f"compiled fast path: {_compiled_use(files)}")
    pure_files = files * PURE_PYTHON_PASSES
    pure, pure_invalid = _pure_python_seconds(pure_files)
    print(f"tourney validate, pure Python: {len(pure_files)} files in {pure:.2f} s = "
          f"{len(pure_files) / pure:.1f} files/s ({pure_invalid} invalid)")
    files = files * PASSES
    ours, invalid = _our_seconds(files)
    print(f"tourney validate: {len(files)} files in {ours:.2f} s = {len(files) / ours:.1f} "
          f"files/s ({invalid} invalid)")
    gnubg = shutil.which("gnubg") or "/usr/games/gnubg"
    if not Path(gnubg).exists():
        print("gnubg not installed: no reference measured")
        return 0
    startup = _gnubg_seconds(gnubg, [])
    total = _gnubg_seconds(gnubg, files)
    theirs = max(total - startup, 1e-9)
    print(f"gnubg import mat: {len(files)} files in {theirs:.2f} s (+{startup:.2f} s start-up) "
          f"= {len(files) / theirs:.1f} files/s")
    pure_per_file = pure / len(pure_files)
    print(f"ratio: tourney is {theirs / ours:.1f}x gnubg's speed "
          f"({total / ours:.1f}x counting gnubg's start-up); pure Python is "
          f"{theirs / len(files) / pure_per_file:.2f}x gnubg's speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
