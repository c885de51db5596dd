"""Our legal plays against OpenSpiel's, position by position and roll by roll.

For positions reached by random play in OpenSpiel's own backgammon, the set of positions
every legal play of each of the 21 rolls reaches must be the same for both engines.
"""

from __future__ import annotations

import importlib.util
import random

import pytest
from oracles import require

from tourney.rules import legal_positions

require(
    importlib.util.find_spec("pyspiel") is not None,
    "OpenSpiel (pip install open-spiel) is missing",
)

from openspiel_oracle import random_samples, results_after_roll, rolls_from  # noqa: E402


def _disagreements(seed: int, count: int, rolls: int = 21) -> tuple[int, list[str]]:
    compared, found = 0, []
    rng = random.Random(seed)
    for sample in random_samples(seed, count):
        for roll, rolled in rolls_from(sample, rng, rolls):
            ours = frozenset((p.mover, p.opponent) for p in legal_positions(sample.position, roll))
            if ours != results_after_roll(rolled):
                found.append(f"{sample.position.to_id()} {roll}")
            compared += 1
    return compared, found


def test_legal_positions_agree_with_openspiel_on_2000_positions() -> None:
    # Four rolls of the 21 for each position keeps the everyday run short; the slow run
    # below compares every roll.
    compared, found = _disagreements(seed=2026, count=2000, rolls=4)
    assert compared == 2000 * 4
    assert found == []


@pytest.mark.slow
def test_legal_positions_agree_with_openspiel_on_50000_positions() -> None:
    compared, found = _disagreements(seed=7, count=50_000)
    assert compared == 50_000 * 21
    assert found == []
