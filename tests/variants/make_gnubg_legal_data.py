"""Record gnubg's legal-move lists for nackgammon and hypergammon positions.

The positions are reached by random legal play from each variant's start (seeded), and
gnubg lists every legal play of the roll with ``hint`` (0-ply, all moves): one entry per
distinct resulting position. For nackgammon it also makes each move and records the
Position ID it shows afterwards (Debian's gnubg cannot start a hypergammon game, so there
only the move list is recorded).

Run from the project root (gnubg installed)::

    .venv/bin/python tests/variants/make_gnubg_legal_data.py nackgammon 300 41 \\
        > tests/data/variants/gnubg_legal_nackgammon.json
    .venv/bin/python tests/variants/make_gnubg_legal_data.py hypergammon 300 42 \\
        > tests/data/variants/gnubg_legal_hypergammon.json
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))

from oracles import run_gnubg_python

from tourney.rules import Roll, legal_positions
from tourney.rules.variants import backgammon_variant_named

GNUBG_VARIATION = {"nackgammon": "nackgammon", "hypergammon": "3-chequer-hypergammon"}

SCRIPT = """
import json, os
import gnubg
payload = json.load(open(os.environ["TOURNEY_PAYLOAD"]))
gnubg.command("set variation " + payload["variation"])
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("new game")
for pid, dice in payload["cases"]:
    gnubg.command("set board " + pid)
    gnubg.command("set dice %d %d" % (dice[0], dice[1]))
    moves = [entry["move"] for entry in gnubg.hint(10000)["hint"]]
    after = []
    if payload["make_moves"]:
        for move in moves:
            gnubg.command("set board " + pid)
            gnubg.command("set dice %d %d" % (dice[0], dice[1]))
            gnubg.command("move " + move)
            after.append(gnubg.positionid())
    print("RESULT " + json.dumps({"position": pid, "dice": dice, "moves": moves,
                                  "after": after}))
"""


def cases(variant_name: str, count: int, seed: int) -> list[tuple[str, list[int]]]:
    """``count`` (position ID, dice) pairs from random legal play, none game-ending."""
    variant = backgammon_variant_named(variant_name)
    rng = random.Random(seed)
    found: list[tuple[str, list[int]]] = []
    while len(found) < count:
        position = variant.initial()
        for _ in range(rng.randrange(1, 80)):
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(sorted(legal_positions(position, roll), key=repr))
            if not any(position.mover[1:]):
                break
            position = position.turned()
        else:
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            # Making a move that ends the game ends gnubg's game too, so where moves are
            # made (nackgammon) no position that a roll could end is kept.
            if variant.checkers == 3 or sum(position.mover[1:]) > 4:
                found.append((position.to_id(), sorted(dice, reverse=True)))
    return found


def main() -> None:
    variant_name, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    payload = {
        "variation": GNUBG_VARIATION[variant_name],
        "make_moves": variant_name == "nackgammon",
        "cases": cases(variant_name, count, seed),
    }
    rows = [json.loads(line) for line in run_gnubg_python(SCRIPT, payload)]
    command = (f".venv/bin/python tests/variants/make_gnubg_legal_data.py {variant_name} "
               f"{count} {seed}")
    json.dump({"variant": variant_name, "gnubg": "GNU Backgammon 1.07.001",
               "command": command, "cases": rows}, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
