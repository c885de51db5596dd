"""Nackgammon and hypergammon legal plays against gnubg's legal-move lists.

The recorded data (tests/data/variants/gnubg_legal_*.json) were made with the command each
file names (tests/variants/make_gnubg_legal_data.py): gnubg's ``hint`` lists every legal
play of a roll, one per distinct resulting position; for nackgammon gnubg also made each
move and showed the Position ID after it. A live run repeats the check on fresh positions
where gnubg is installed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from make_gnubg_legal_data import SCRIPT, cases
from oracles import GNUBG, run_gnubg_python

from tourney.rules import Roll, check_play, legal_positions, parse_play
from tourney.rules.variants import backgammon_variant_named

DATA = Path(__file__).resolve().parent.parent / "data" / "variants"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"gnubg_legal_{name}.json").read_text())
    return data


def _disagreements(variant_name: str, rows: list[dict[str, Any]]) -> list[str]:
    variant = backgammon_variant_named(variant_name)
    found = []
    for row in rows:
        position = variant.decode_position_id(row["position"])
        roll = Roll(*row["dice"])
        ours = legal_positions(position, roll)
        # gnubg lists no move where the roll cannot be played; ours is then the
        # position itself, unchanged.
        theirs = {check_play(position, roll, parse_play(move)) for move in row["moves"]}
        expected = theirs or {position}
        if ours != expected or len(expected) != max(len(row["moves"]), 1):
            found.append(f"{row['position']} {roll}: ours {len(ours)}, gnubg {len(row['moves'])}")
        if row["after"] and sorted(p.turned().to_id() for p in ours) != sorted(row["after"]):
            found.append(f"{row['position']} {roll}: Position IDs after the move differ")
    return found


@pytest.mark.parametrize("variant_name", ["nackgammon", "hypergammon"])
def test_legal_plays_agree_with_recorded_gnubg_lists(variant_name: str) -> None:
    data = _load(variant_name)

    found = _disagreements(variant_name, data["cases"])

    assert data["variant"] == variant_name
    assert len(data["cases"]) == 300
    assert found == []


def test_recorded_nackgammon_data_includes_ids_after_each_move() -> None:
    rows = _load("nackgammon")["cases"]

    assert all(len(row["after"]) == len(row["moves"]) for row in rows)
    assert sum(len(row["moves"]) for row in rows) > 3000


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
@pytest.mark.parametrize(("variant_name", "variation"), [
    ("nackgammon", "nackgammon"), ("hypergammon", "3-chequer-hypergammon"),
])
def test_legal_plays_agree_with_live_gnubg(variant_name: str, variation: str) -> None:
    payload = {"variation": variation, "make_moves": variant_name == "nackgammon",
               "cases": cases(variant_name, 40, seed=97)}

    rows = [json.loads(line) for line in run_gnubg_python(SCRIPT, payload)]

    assert len(rows) == 40
    assert _disagreements(variant_name, rows) == []
