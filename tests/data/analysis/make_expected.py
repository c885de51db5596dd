"""Write expected.json: GNU Backgammon's own analysis figures for the records here.

Run by hand when records are added (needs the ``gnubg`` program, Debian package
``gnubg``; it is not a test):

    python3 tests/data/analysis/make_expected.py [--plies 0] [FILE.mat ...]

For each record gnubg imports it, analyses the match with chequer play, cube decisions
at the given plies (luck at 0 plies, its default), and shows the match statistics; the figures
kept are per player (in the file's order): the overall "Error rate mEMG", the "Luck
rate mEMG", the unforced moves and close cube decisions behind the error rate.
``tests/analysis`` compares ``tourney analyse`` with them.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GNUBG = "/usr/games/gnubg"
NUMBER = r"([-+]?\d+(?:\.\d+)?)"


def gnubg_statistics(path: Path, plies: int) -> dict[str, object]:
    """Run gnubg on one record and read its match statistics."""
    commands = "\n".join(
        [
            f"set analysis chequerplay evaluation plies {plies}",
            f"set analysis cubedecision evaluation plies {plies}",
            # Luck is always judged at 0 plies (gnubg's default, and tourney's).
            "set analysis luckanalysis plies 0",
            "set output mwc off",
            f"import mat {path}",
            "analyse match",
            "show statistics match",
            "",
        ]
    )
    with tempfile.TemporaryDirectory() as home:
        out = subprocess.run(
            [GNUBG, "-t", "-q"],
            input=commands,
            capture_output=True,
            text=True,
            check=True,
            timeout=900,
            env={"HOME": home, "PATH": "/usr/bin:/bin"},
        ).stdout
    return parse_statistics(out)


def _pair(text: str, label: str) -> list[float]:
    """The two players' figures on the line that starts with ``label``."""
    for line in text.splitlines():
        if line.startswith(label):
            figures = re.sub(r"\([^)]*\)", " ", line[len(label):])
            return [float(number) for number in re.findall(NUMBER, figures)[:2]]
    raise ValueError(f"gnubg printed no {label!r} line")


def parse_statistics(out: str) -> dict[str, object]:
    """The figures of ``show statistics match`` (both players, gnubg's column order)."""
    table = out[out.rfind("Chequerplay statistics") :]
    chequer, _, rest = table.partition("Luck statistics")
    luck, _, rest = rest.partition("Cube statistics")
    cube, _, overall = rest.partition("Overall statistics")
    players = out[out.rfind("Player ", 0, out.rfind("Chequerplay statistics")) :].split("\n")[0]
    return {
        "players": players.split()[1:3],
        "unforced_moves": _pair(chequer, "Unforced moves"),
        "close_cube": _pair(cube, "Close or actual cube decisions"),
        "luck_rate": _pair(luck, "Luck rate mEMG (MWC)"),
        "error_rate": _pair(overall, "Error rate mEMG (MWC)"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--output", type=Path, default=HERE / "expected.json")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or sorted(HERE.glob("*.mat"))
    expected = {}
    for path in files:
        expected[path.name] = gnubg_statistics(path.resolve(), args.plies)
        print(path.name, expected[path.name], file=sys.stderr)
    document = {"gnubg": "1.07.001", "plies": args.plies, "records": expected}
    args.output.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
