"""Record backgammonjs's legal turns for Portes, Tapa and Gul bara positions.

backgammonjs (the MIT-licensed JavaScript project quasoft/backgammonjs, a browser game
with a Node server) has three rule files: ``lib/rules/RuleBgCasual.js`` (backgammon
without the cube), ``RuleBgTapa.js`` and ``RuleBgGulbara.js``. Nothing of it is copied
into tourney or installed: this script, run by hand, gives positions met in random games
of our engine (``tables_builders.sample_turns``) to our own Node driver,
``tests/variants/backgammonjs_driver.js``, which loads their rule code by path from an
extracted copy and lists every completed turn it allows. What it answers (facts about
their code on our positions) is written to ``tests/data/variants/backgammonjs_<variant>.json``.

Which of their functions decide legality (all in their ``lib/rules/rule.js`` unless the
rule file overrides them):

* the values to play: the rule's ``rollDice`` (``Rule.rollDice``; Gul bara's own), which
  keeps in ``turnDice.movesLeft`` the moves of the heaviest branch that
  ``calculateMoveWeights`` finds (weight = pips used, so both dice, else the larger die,
  else as many of a doublet as can be played);
* each single move: ``validateMove`` (turn and dice checks, then
  ``isMoveActionRestricted``: the moved checker must start a branch of the greatest
  weight that ``calculateMoveWeights`` finds), then the rule's ``getMoveActions`` (where
  a checker may land, hits and pins, bearing off), applied by ``applyMoveActions`` and
  ``markAsPlayed`` as their server does;
* a turn is complete when ``movesLeft`` is empty (``validateConfirm``); sequences the
  validator lets a player start but not finish (their game then only allows undo) are
  counted as ``dead_ends`` and give no result;
* Gul bara: after each completed stage the rule's ``nextTurn`` says whether the same
  player plays the next doublet of the cascade (then ``rollDice`` of that doublet) or the
  turn leaves him (the rest goes to the opponent, or the cascade is over). The roller's
  turn number is given as their ``game.turnNumber``: 1 for his first three turns, 7 from
  the fourth (their counter counts both players' turns, so ``> 6`` is a player's fourth).

Board mapping (their points are indexes 0-23, white moving down to 0, the roller is always
their white): the roller's own point p is index p - 1; the other side's own point q is
index 24 - q (Portes, Tapa: CONTRARY) or, in Gul bara (PARALLEL-12), index q + 11 for
q <= 12 and q - 13 above. A pinned checker is the bottom of its stack. Results are written
in our JSON position form, the roller as ``x`` and on roll (short: no ``turns_played``,
and no key whose value is 0 or empty).

Run from the project root with an extracted copy of backgammonjs, e.g.::

    git -C MIRROR archive HEAD | tar -x -C /tmp/bgjs
    .venv/bin/python tests/variants/make_backgammonjs_data.py --checkout /tmp/bgjs \\
        --commit 2b733653e6ba8a17fdaf80596c7c58180832f7d2 --variant portes --count 600
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

from naive_tables import X, game_over
from tables_builders import NAIVE_RULES, naive_board, random_sparse_positions, sample_turns, side

from tourney.rules.dice import Roll
from tourney.rules.layout import BoardLayout, SideLayout, format_position_json
from tourney.rules.variant_protocol import VariantPosition
from tourney.rules.variants import variant_named

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "variants"
DRIVER = HERE / "backgammonjs_driver.js"

RULES = {"portes": "RuleBgCasual", "tapa": "RuleBgTapa", "gul-bara": "RuleBgGulbara"}
"""Our variant and the backgammonjs rule it is compared with."""

SEEDS = {"portes": 71, "tapa": 72, "gul-bara": 73}


def other_index(variant_name: str, point: int) -> int:
    """Their index of the other side's own ``point``."""
    if variant_name == "gul-bara":
        return point + 11 if point <= 12 else point - 13
    return 24 - point


def other_point(variant_name: str, index: int) -> int:
    """The other side's own point at their ``index``."""
    if variant_name == "gul-bara":
        return index - 11 if index >= 12 else index + 13
    return 24 - index


def their_board(variant_name: str, layout: BoardLayout) -> dict[str, Any]:
    """A layout as the driver's board: 24 stacks of piece types, bottom first."""
    if layout.mover.pool or layout.opponent.pool:
        raise ValueError("backgammonjs has no pool")
    stacks: list[list[int]] = [[] for _ in range(24)]
    sides = ((0, layout.mover, lambda p: p - 1),
             (1, layout.opponent, lambda p: other_index(variant_name, p)))
    for kind, own, index in sides:
        for point in own.pins:
            stacks[index(point)].append(kind)
    for kind, own, index in sides:
        for point, count in own.points.items():
            stacks[index(point)].extend([kind] * (count - (point in own.pins)))
    return {"points": stacks, "bar": [layout.mover.bar, layout.opponent.bar],
            "outside": [layout.mover.off, layout.opponent.off]}


def our_json(variant_name: str, board: dict[str, Any]) -> str:
    """The driver's board in our JSON position form, the roller as ``x`` on roll."""
    points: tuple[dict[int, int], dict[int, int]] = ({}, {})
    pins: tuple[list[int], list[int]] = ([], [])
    for index, stack in enumerate(board["points"]):
        for kind in (0, 1):
            count = stack.count(kind)
            if not count:
                continue
            point = index + 1 if kind == 0 else other_point(variant_name, index)
            points[kind][point] = count
            if stack[0] == kind and len(set(stack)) == 2:
                pins[kind].append(point)
    mover, opponent = (SideLayout(points[kind], board["bar"][kind], 0, board["outside"][kind],
                                  tuple(sorted(pins[kind]))) for kind in (0, 1))
    document = json.loads(format_position_json(BoardLayout(mover, opponent), "x", (0, 0)))
    # Short: no turns, and none of the keys the form lets a reader take as 0 or empty.
    del document["turns_played"]
    for name in ("x", "o"):
        document[name] = {key: value for key, value in document[name].items()
                          if value or key == "points"}
    document["pins"] = {name: pins for name, pins in document["pins"].items() if pins}
    if not document["pins"]:
        del document["pins"]
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def turn_number(variant_name: str, layout: BoardLayout) -> int:
    """Their ``game.turnNumber`` for the roller's turn: it only matters to Gul bara,
    whose doublets cascade once it is above 6 (a player's fourth turn)."""
    return 7 if variant_name == "gul-bara" and layout.turns_played[0] >= 3 else 1


def gul_bara_turns(count: int, seed: int) -> Iterator[tuple[VariantPosition, Roll]]:
    """Gul bara cases: half from random games, half on sparse boards with cascades.

    From a full board one cascading doublet (a low one from a side's fourth turn) has
    more results than our engine lists in reasonable memory, so the random games here
    never roll one: such a roll is thrown again. The other half are
    ``random_sparse_positions`` (at most six checkers a side) at both sides' fourth turn,
    every other one with its roll made a doublet, so that cascades are met."""
    variant, rules = variant_named("gul-bara"), NAIVE_RULES["gul-bara"]
    rng = random.Random(seed)
    at = variant.initial()
    for _ in range(count // 2):
        cascades = variant.position_layout(at).turns_played[0] >= 3
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        while cascades and roll.is_doublet:
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        yield at, roll
        results = sorted(variant.legal_positions(at, roll), key=lambda p: p.to_id())
        chosen = rng.choice(results)
        if game_over(naive_board(variant, rules, chosen), rules, X):
            at = variant.initial()
        else:
            at = chosen.turned()
    sparse = random_sparse_positions(variant, rules, count - count // 2, seed, turns=(3, 3))
    for index, (at, roll) in enumerate(sparse):
        yield at, (Roll(roll.first, roll.first) if index % 2 else roll)


EXAMPLES: dict[str, list[tuple[str, BoardLayout, tuple[int, int]]]] = {
    "portes": [],
    "tapa": [
        ("VARIANTS.md E-PLK-3: every checker home, the one on 3 pinned; 6-5",
         BoardLayout(side({6: 5, 5: 5, 4: 4, 3: 1}, pins=(3,)), side({22: 1, 6: 14})), (6, 5)),
    ],
    "gul-bara": [
        ("a fourth-turn 1-1 whose 1s are all blocked (the other side on the roller's 9)",
         BoardLayout(side({10: 1}), side({21: 1}), (3, 3)), (1, 1)),
    ],
}
"""Hand-made positions that show a known rule difference, recorded after the random
cases as ``examples``."""


def run_driver(checkout: Path, rule: str, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The driver's answer for ``cases``."""
    done = subprocess.run(["node", str(DRIVER), str(checkout)], check=True, text=True,
                          capture_output=True,
                          input=json.dumps({"rule": rule, "cases": cases}))
    answer: list[dict[str, Any]] = json.loads(done.stdout)
    return answer


def record(variant_name: str, checkout: Path, commit: str, count: int, seed: int,
           batch: int = 25) -> dict[str, Any]:
    """The data file's content for ``count`` cases of ``variant_name``."""
    variant = variant_named(variant_name)
    rows = []
    pending: list[tuple[str, list[int], dict[str, Any]]] = []

    def flush() -> None:
        answers = run_driver(checkout, RULES[variant_name], [case for *_, case in pending])
        for (position_id, dice, _), answer in zip(pending, answers, strict=True):
            rows.append({"position": position_id, "roll": dice,
                         "theirs": sorted(our_json(variant_name, end)
                                          for end in answer["ends"]),
                         "dead_ends": answer["dead_ends"]})
        pending.clear()
        print(f"{variant_name}: {len(rows)} cases", file=sys.stderr)

    turns = gul_bara_turns(count, seed) if variant_name == "gul-bara" \
        else sample_turns(variant_name, count, seed)
    for position, roll in turns:
        layout = variant.position_layout(position)
        dice = [roll.first, roll.second]
        pending.append((position.to_id(), dice,
                        {"dice": dice, "turn_number": turn_number(variant_name, layout),
                         **their_board(variant_name, layout)}))
        if len(pending) == batch:
            flush()
    if pending:
        flush()
    examples = []
    for text, layout, dice in EXAMPLES[variant_name]:
        board = {"dice": list(dice), "turn_number": turn_number(variant_name, layout),
                 **their_board(variant_name, layout)}
        answer = run_driver(checkout, RULES[variant_name], [board])[0]
        examples.append({"example": text,
                         "position": variant.position_from_layout(layout).to_id(),
                         "roll": list(dice),
                         "theirs": sorted(our_json(variant_name, end) for end in answer["ends"]),
                         "dead_ends": answer["dead_ends"]})
    command = (f".venv/bin/python tests/variants/make_backgammonjs_data.py --checkout DIR "
               f"--commit {commit} --variant {variant_name} --count {count} --seed {seed}")
    return {"variant": variant_name, "rule": RULES[variant_name],
            "backgammonjs": f"quasoft/backgammonjs {commit}", "command": command,
            "cases": rows, "examples": examples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, required=True,
                        help="an extracted copy of backgammonjs (with lib/rules/)")
    parser.add_argument("--commit", default="unknown", help="the copy's commit, recorded")
    parser.add_argument("--variant", choices=sorted(RULES), required=True)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    seed = SEEDS[args.variant] if args.seed is None else args.seed
    data = record(args.variant, args.checkout, args.commit, args.count, seed)
    out = DATA / f"backgammonjs_{args.variant.replace('-', '_')}.json"
    with out.open("w") as stream:
        json.dump(data, stream, indent=0)
        stream.write("\n")


if __name__ == "__main__":
    main()
