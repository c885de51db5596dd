"""Record long-nardy-engine's legal turns for long nardy positions.

long-nardy-engine (the MIT-licensed TypeScript project DmitriiNov/long-nardy-engine, an
npm package) implements long nardy's moves: ``src/engine/long-nardy/engine.ts`` builds a
tree of single moves that pass the validators of ``moveValidators.ts`` (no landing on an
opposing checker, bearing off only with all home and from below only when no checker
stands higher, one checker from the head a turn except on the first roll with 6-6, 4-4 or
3-3, no six-point block without an opposing checker past it) and ``movesTree.ts`` keeps
the branches of the greatest pip sum. Nothing of it is copied into tourney or installed:
this script, run by hand, gives positions met in random games of our engine to our Node
driver ``tests/variants/long_nardy_engine_driver.js``, which loads the project's compiled
code by path from a built copy, and writes what it answers (facts about its code on our
positions) to ``tests/data/variants/long_nardy_engine.json``.

Board mapping: the engine keeps one array per side, index 0 the side's head (its own 24
point) to index 23 (its own 1 point), and sees the other side's checker at its own index
``(i + 12) % 24``; our own point p is index ``24 - p``. The side on roll is the engine's
White; the turn is its first roll (moveNumber 1) when all fifteen checkers are on the head.

Each case is a row ``[position ID, roll, theirs]``, ``theirs`` the set of positions the
turn may end on as ``"<size>:<digest>"`` (``oracle_sets.summary``). Where it differs from
ours when recorded, ``details`` (by case index) keeps the difference, each position as its
change from the start (``oracle_sets.change_text``): ``missing``, ours that the engine
does not allow, and ``extra``, the engine's that ours does not; the test rebuilds the
engine's set from ours and checks it against the digest.

Run from the project root with a built copy of the project (with its compiled ``dist/``),
e.g.::

    .venv/bin/python tests/variants/make_long_nardy_engine_data.py --checkout DIR \\
        --commit 1c6a55ebd4e10e712c9a4092ce7d36ee793697af --count 4000
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from oracle_sets import DATA, change_text, changed_layout, layout_text, summary, text_layout

from tourney.rules.dice import Roll
from tourney.rules.layout import BoardLayout, SideLayout
from tourney.rules.variant_protocol import VariantPosition
from tourney.rules.variants import variant_named

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "long_nardy_engine_driver.js"
VARIANT = "long-nardy"


def their_board(side: SideLayout) -> list[int]:
    """A side as the engine's 24 counts, index 0 the head."""
    counts = [0] * 24
    for point, count in side.points.items():
        counts[24 - point] = count
    return counts


def our_side(counts: list[int]) -> SideLayout:
    """The engine's 24 counts as a side; every checker not on the board is off."""
    return SideLayout({24 - index: count for index, count in enumerate(counts) if count},
                      0, 0, 15 - sum(counts))


def random_turns(count: int, seed: int) -> Iterator[tuple[VariantPosition, Roll]]:
    """``count`` (position, roll) pairs met in random games of our engine."""
    variant = variant_named(VARIANT)
    rng = random.Random(seed)
    at = variant.initial()
    for _ in range(count):
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        yield at, roll
        chosen = rng.choice(sorted(variant.legal_positions(at, roll), key=lambda p: p.to_id()))
        at = variant.initial() if variant.position_layout(chosen).mover.off == 15 \
            else chosen.turned()


def first_rolls(seed: int) -> Iterator[tuple[VariantPosition, Roll]]:
    """Each side's first roll, where the head rule's exception lives: White's 21 rolls
    from the start, then after each of White's plays Black's 6-6, 4-4 and 3-3 and three
    other random rolls."""
    variant = variant_named(VARIANT)
    rng = random.Random(seed)
    start = variant.initial()
    rolls = [Roll(high, low) for high in range(1, 7) for low in range(1, high + 1)]
    for roll in rolls:
        yield start, roll
    for roll in rolls:
        for after in sorted(variant.legal_positions(start, roll), key=lambda p: p.to_id()):
            black = after.turned()
            for answer in [Roll(6, 6), Roll(4, 4), Roll(3, 3), *rng.sample(rolls, 3)]:
                yield black, answer


def holds_six_in_a_row(mine: dict[int, int]) -> bool:
    """Whether ``mine`` (own points) holds six points in a row along the other side's
    way: its points 24 down to 1 are our 12 down to 1, then our 24 down to 13."""
    run = 0
    for point in [*range(12, 0, -1), *range(24, 12, -1)]:
        run = run + 1 if mine.get(point) else 0
        if run >= 6:
            return True
    return False


def block_turns(count: int, seed: int) -> Iterator[tuple[VariantPosition, Roll]]:
    """``count`` positions where the side on roll holds five points in a row (all in one
    half, so that they are in a row for the other side too) with spare checkers behind
    them, so that many rolls can make, or pass through, a six-point block (but none held
    yet). The other side's fifteen checkers stand in front of the block, and now and then
    one is past it.
    Nobody has borne off (in long nardy that needs all fifteen home)."""
    variant = variant_named(VARIANT)
    rng = random.Random(seed)
    made = 0
    while made < count:
        top = rng.choice([*range(5, 11), *range(17, 23)])
        run = range(top, top - 5, -1)
        mine = {point: rng.randint(1, 2) for point in run}
        behind = [24, *range(top + 2, 25)]
        for _ in range(15 - sum(mine.values())):
            point = rng.choice(behind)
            mine[point] = mine.get(point, 0) + 1
        # The other side's numbering: its point q is our q + 12 or q - 12.
        held = {point + 12 if point <= 12 else point - 12 for point in mine}
        lowest = min(point + 12 if point <= 12 else point - 12 for point in run)
        front = [q for q in range(lowest + 1, 25) if q not in held]
        past = [q for q in range(1, lowest) if q not in held]
        if not front or holds_six_in_a_row(mine):
            continue  # no room, or a block already there (no play could have made it)
        theirs: dict[int, int] = {}
        if past and rng.random() < 0.3:
            theirs[rng.choice(past)] = 1
        for _ in range(15 - sum(theirs.values())):
            q = rng.choice(front)
            theirs[q] = theirs.get(q, 0) + 1
        layout = BoardLayout(SideLayout(mine), SideLayout(theirs))
        made += 1
        yield variant.position_from_layout(layout), Roll(rng.randint(1, 6), rng.randint(1, 6))


def all_turns(count: int, seed: int) -> Iterator[tuple[VariantPosition, Roll]]:
    """The recorded cases: first rolls, block positions (a quarter of ``count``), and
    turns of random games for the rest."""
    first = list(first_rolls(seed))
    yield from first
    blocks = count // 4
    yield from block_turns(blocks, seed + 1)
    yield from random_turns(count - len(first) - blocks, seed + 2)


def run_driver(checkout: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The driver's answer for ``cases``."""
    done = subprocess.run(["node", str(DRIVER), str(checkout)], check=True, text=True,
                          capture_output=True, input=json.dumps({"cases": cases}))
    answer: list[dict[str, Any]] = json.loads(done.stdout)
    return answer


def record(checkout: Path, commit: str, count: int, seed: int, batch: int = 200
           ) -> dict[str, Any]:
    """The data file's content for ``count`` turns."""
    variant = variant_named(VARIANT)
    rows: list[list[Any]] = []
    details: dict[str, dict[str, list[str]]] = {}
    pending: list[tuple[VariantPosition, Roll]] = []

    def flush() -> None:
        cases = []
        for at, roll in pending:
            layout = variant.position_layout(at)
            cases.append({"mover": their_board(layout.mover),
                          "opponent": their_board(layout.opponent),
                          "first": layout.mover.points.get(24) == 15,
                          "dice": [roll.first, roll.second]})
        for (at, roll), answer in zip(pending, run_driver(checkout, cases), strict=True):
            layout = variant.position_layout(at)
            ends = [BoardLayout(our_side(counts), layout.opponent) for counts in answer["ends"]]
            theirs = {layout_text(end) for end in ends}
            ours = {layout_text(variant.position_layout(after))
                    for after in variant.legal_positions(at, roll)}
            if ours != theirs:
                missing = sorted(change_text(layout, text_layout(text)) for text in ours - theirs)
                extra = sorted(change_text(layout, text_layout(text)) for text in theirs - ours)
                rebuilt = ours - {layout_text(changed_layout(layout, change)) for change in missing}
                rebuilt |= {layout_text(changed_layout(layout, change)) for change in extra}
                if rebuilt != theirs:
                    raise ValueError(f"case {len(rows)}: the difference does not read back")
                details[str(len(rows))] = {"missing": missing, "extra": extra}
            rows.append([at.to_id(), f"{roll.first}{roll.second}", summary(theirs)])
        pending.clear()
        print(f"long nardy: {len(rows)} cases", file=sys.stderr)

    for turn in all_turns(count, seed):
        pending.append(turn)
        if len(pending) == batch:
            flush()
    if pending:
        flush()
    command = (f".venv/bin/python tests/variants/make_long_nardy_engine_data.py --checkout DIR "
               f"--commit {commit} --count {count} --seed {seed}")
    return {"variant": VARIANT, "long_nardy_engine": f"DmitriiNov/long-nardy-engine {commit}",
            "command": command, "columns": ["position", "roll", "theirs"],
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
    parser.add_argument("--checkout", type=Path, required=True,
                        help="a built copy of long-nardy-engine (with dist/)")
    parser.add_argument("--commit", default="unknown", help="the copy's commit, recorded")
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=91)
    args = parser.parse_args()
    data = record(args.checkout, args.commit, args.count, args.seed)
    out = DATA / "long_nardy_engine.json"
    write(data, out)
    if json.loads(out.read_text()) != data:
        raise ValueError(f"{out} does not read back")


if __name__ == "__main__":
    main()
