"""The engine agrees with the naive enumerator (``naive_tables``) on positions from random
games: the same set of end boards for every (position, roll), compared as physical boards
(stacks on A1-A24, bars, pools, trays).

Russian doublets play eight values (four d, then four 7 - d) and Gul bara's cascades up to
twenty-four, reaching tens of thousands of distinct boards, which the naive recursion takes
seconds (Gul bara's longest cascades, minutes) over: their full 1,000-position runs are
marked slow (``-m slow``); Russian has a shorter run in the default suite too. So do the
acey-deucey games: a 1-2 followed by four of each named number, with checkers entering
freely, reaches up to some 80,000 boards. So has Gioul, whose doublets cascade from the
first turn (compared on sparse positions: see ``tables_builders.SPARSE_ONLY``); a cascade
of 1-1 alone takes the naive recursion seconds. And so has Matador, whose 4-3 is played
six ways (one per named double): its full run takes over two minutes.
"""

from __future__ import annotations

import pytest
from naive_tables import X, naive_legal
from tables_builders import NAIVE_RULES, naive_board, rules_at, sample_turns

from tourney.rules.variants import variant_named

POSITIONS = 1000
LONG_TURNS = ("gul-bara", "russian", "acey-deucey", "acey-deucey-european", "asodio", "gioul",
              "matador")
SHORT_RUN = {"russian": 25, "acey-deucey": 6, "acey-deucey-european": 8, "asodio": 15,
             "gioul": 20, "matador": 100}
"""Positions of the long-turn games compared in the default run. Gul bara has none there:
a single cascade of its naive recursion can take minutes, so it is compared in the slow
run only (its worked examples and properties run by default)."""
RUNS = [
    *((name, POSITIONS) for name in sorted(NAIVE_RULES) if name not in LONG_TURNS),
    *SHORT_RUN.items(),
    *(pytest.param(name, POSITIONS, marks=pytest.mark.slow) for name in LONG_TURNS),
]


@pytest.mark.parametrize(("name", "positions"), RUNS)
def test_engine_agrees_with_the_naive_enumerator_on_random_positions(
        name: str, positions: int) -> None:
    variant, rules = variant_named(name), NAIVE_RULES[name]
    disagreements = []
    compared = 0

    for at, roll in sample_turns(name, positions, seed=7):
        here = rules_at(rules, variant, at)
        engine = {naive_board(variant, here, after).frozen()
                  for after in variant.legal_positions(at, roll)}
        turn = variant.position_layout(at).turns_played[0] + 1
        naive = naive_legal(naive_board(variant, here, at), here, X, roll.dice, turn)
        compared += 1
        if engine != naive:
            disagreements.append((at.to_id(), str(roll), len(engine), len(naive)))

    assert (compared, disagreements[:3]) == (positions, [])
