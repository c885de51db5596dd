"""Record Ludii's legal turns for Portes, Plakoto and Fevga positions.

Ludii (the general game system Ludeme/Ludii, Java, CC BY-NC-ND) describes each game in its
own language: ``Common/res/lud/board/race/escape/Portes.lud``, ``Plakoto.lud`` and
``Fevga.lud``. Nothing of it is copied into tourney or installed: this script, run by
hand, compiles our Java driver ``tests/variants/ludii_driver/LudiiTurns.java`` against a
compiled copy of Ludii given by ``--classpath`` (the classes of its Common, Language and
Core modules with ``Common/res``, Java 17) in a temporary directory, lets it play random
games of Ludii's game, and writes what Ludii answers (facts about its code on its own
positions) to ``tests/data/variants/ludii_<variant>.json``.

Ludii plays a turn as a chain of single-die moves, the mover moving again while a die is
unused and a move exists. The driver follows every chain from the turn's start and lists
every distinct position the turn can end on, with the dice each chain used. Ludii's
``max Distance`` (its filter towards the longest play) computes the distances and then
returns every move, so its chains may stop before the dice are used as far as possible;
this script keeps, as Ludii's *full* set, the results that pass VARIANTS.md 0.4 rules 1-2
on the dice their chains used (the most values; when only one of two different values
can be played, the larger if a chain used it; a chain that ends the game counts as using
every value). The raw set is kept too where it differs.

Board mapping: the driver reads each player's Ludii track (24 sites, or 25 with the bar
first in Portes): its first site is the player's own 24 point, its last its own 1 point.
The side on roll is written first; a pinned checker is the bottom of a mixed stack.

Each case is a row ``[position ID, roll, Ludii player (1 or 2), carried, full, raw]``:
our position ID of the position (the side on roll to move), the roll as two digits, the
value of a doublet Ludii carries into this turn (0: none; see the test), the full set and,
if different, the raw set, each as ``"<size>:<digest>"`` (``oracle_sets.summary``). Where
the full set differs from ours when recorded, ``details`` keeps it whole (by case index,
each position as its change from the turn's start, ``oracle_sets.change_text``), so that
the test and a reader see what Ludii allows.

Run from the project root with a compiled Ludii (Ludeme/Ludii at the commit given), e.g.::

    .venv/bin/python tests/variants/make_ludii_data.py --classpath LUDII_CLASSPATH \\
        --commit 93ed32184d8cb94e9c9fe2a06a606ca967317e6d --variant portes --count 3000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from oracle_sets import DATA, change_text, changed_layout, layout_text, summary

from tourney.rules.dice import Roll
from tourney.rules.layout import BoardLayout, SideLayout
from tourney.rules.variants import variant_named

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "ludii_driver" / "LudiiTurns.java"

GAMES = {"portes": "Portes", "plakoto": "Plakoto", "fevga": "Fevga"}
"""Our variant and the Ludii game (``Common/res/lud/board/race/escape/<name>.lud``)."""

SEEDS = {"portes": 81, "plakoto": 82, "fevga": 83}

RESTART_WHEN_STUCK = {"plakoto", "fevga"}
"""Games where a side can reach its home board and never bear off under Ludii's rules
(see the test): a new game starts once that happens."""


def _side(document: dict[str, Any]) -> SideLayout:
    return SideLayout({int(point): count for point, count in document["points"].items()},
                      document["bar"], 0, document["off"], tuple(document["pins"]))


def ludii_layout(document: dict[str, Any]) -> BoardLayout:
    """The driver's position as a layout, the side on roll first."""
    return BoardLayout(_side(document["x"]), _side(document["o"]))


def full_results(results: list[dict[str, Any]], roll: tuple[int, int]) -> list[dict[str, Any]]:
    """The results whose chains pass VARIANTS.md 0.4 rules 1-2 on the dice they used."""
    values = 4 if roll[0] == roll[1] else 2

    def counts(result: dict[str, Any]) -> list[int]:
        return [values if result["over"] else len(used) for used in result["used"]]

    most = max(max(counts(result)) for result in results)
    kept = [result for result in results if most in counts(result)]
    if values == 2 and most == 1:
        larger = [result for result in kept
                  if result["over"] or any(max(roll) in used for used in result["used"])]
        kept = larger or kept
    return kept


def driver_lines(classpath: str, variant_name: str, count: int, seed: int
                 ) -> Iterator[dict[str, Any]]:
    """The driver's turns, compiled and run in a temporary directory."""
    with tempfile.TemporaryDirectory() as build:
        subprocess.run(["javac", "-nowarn", "-d", build, "-cp", classpath, str(DRIVER)],
                       check=True)
        command = ["java", "-cp", f"{build}:{classpath}", "LudiiTurns",
                   f"/lud/board/race/escape/{GAMES[variant_name]}.lud", str(count), str(seed)]
        if variant_name in RESTART_WHEN_STUCK:
            command.append("restart-when-stuck")
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            for line in process.stdout:
                yield json.loads(line)
        if process.returncode:
            raise subprocess.CalledProcessError(process.returncode, command)


def record(variant_name: str, classpath: str, commit: str, count: int, seed: int
           ) -> dict[str, Any]:
    """The data file's content for ``count`` turns of Ludii's game."""
    variant = variant_named(variant_name)
    rows: list[list[Any]] = []
    details: dict[str, list[str]] = {}
    for index, turn in enumerate(driver_lines(classpath, variant_name, count, seed)):
        layout = ludii_layout(turn["position"])
        at = variant.position_from_layout(layout)
        if layout_text(variant.position_layout(at)) != layout_text(layout):
            raise ValueError(f"turn {index}: the position does not read back")
        roll = (turn["roll"][0], turn["roll"][1])
        raw = {layout_text(ludii_layout(result["position"])) for result in turn["results"]}
        full_layouts = [ludii_layout(result["position"])
                        for result in full_results(turn["results"], roll)]
        full = {layout_text(end) for end in full_layouts}
        carried = max(turn["carried"], 0)
        ours = {layout_text(variant.position_layout(after))
                for after in variant.legal_positions(at, Roll(*roll))}
        if ours != full and not carried:
            changes = sorted(change_text(layout, end) for end in full_layouts)
            if {layout_text(changed_layout(layout, change)) for change in changes} != full:
                raise ValueError(f"turn {index}: a change does not read back")
            details[str(index)] = changes
        rows.append([at.to_id(), f"{roll[0]}{roll[1]}", turn["mover"], carried, summary(full),
                     summary(raw) if raw != full else ""])
        if (index + 1) % 250 == 0:
            print(f"{variant_name}: {index + 1} turns", file=sys.stderr)
    command = (f".venv/bin/python tests/variants/make_ludii_data.py --classpath LUDII "
               f"--commit {commit} --variant {variant_name} --count {count} --seed {seed}")
    return {"variant": variant_name,
            "ludii": f"Ludeme/Ludii {commit} Common/res/lud/board/race/escape/"
                     f"{GAMES[variant_name]}.lud",
            "command": command,
            "columns": ["position", "roll", "ludii_player", "carried", "full", "raw"],
            "cases": rows, "details": details}


def write(data: dict[str, Any], out: Path) -> None:
    """The data as JSON, one case per line."""
    head = {key: value for key, value in data.items() if key not in ("cases", "details")}
    lines = [json.dumps(head)[:-1] + ', "cases": [']
    lines += [json.dumps(row, separators=(",", ":")) + "," for row in data["cases"]]
    lines[-1] = lines[-1].rstrip(",")
    lines.append('], "details": {')
    details = [f"{json.dumps(key)}: {json.dumps(texts, separators=(',', ':'))},"
               for key, texts in data["details"].items()]
    if details:
        details[-1] = details[-1].rstrip(",")
    lines += details
    lines.append("}}")
    out.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classpath", required=True,
                        help="a compiled Ludii: its classes and Common/res, joined by ':'")
    parser.add_argument("--commit", default="unknown", help="Ludii's commit, recorded")
    parser.add_argument("--variant", choices=sorted(GAMES), required=True)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    seed = SEEDS[args.variant] if args.seed is None else args.seed
    data = record(args.variant, args.classpath, args.commit, args.count, seed)
    out = DATA / f"ludii_{args.variant}.json"
    write(data, out)
    if json.loads(out.read_text()) != data:
        raise ValueError(f"{out} does not read back")


if __name__ == "__main__":
    main()
