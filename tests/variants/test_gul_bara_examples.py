"""The worked examples of VARIANTS.md section 18 for Gul bara: no cascade in a side's first
three turns, the cascade from the fourth, and the transfer of values the roller cannot
play to the opponent."""

from __future__ import annotations

import json

from click.testing import CliRunner
from tables_builders import side

from tourney.cli import cli
from tourney.rules import Roll
from tourney.rules.layout import BoardLayout
from tourney.rules.variants import GUL_BARA


def at_turn(mover: dict[int, int], opponent: dict[int, int], turns: tuple[int, int]
            ) -> object:
    layout = BoardLayout(side(mover), side(opponent), turns)
    return GUL_BARA.position_from_layout(layout)


def both(after: object) -> tuple[dict[int, int], dict[int, int]]:
    layout = GUL_BARA.position_layout(after)  # type: ignore[arg-type]
    return dict(layout.mover.points), dict(layout.opponent.points)


def test_a_doublet_in_the_first_three_turns_is_four_moves() -> None:
    # E-GB-1: X's second turn, 3-3 from the start: four 3s only (24/21/18/15 at most; 12
    # is Y's start). Four ways to share four 3s among checkers from 24.
    start = at_turn({24: 15}, {24: 15}, (1, 1))

    found = GUL_BARA.legal_positions(start, Roll(3, 3))  # type: ignore[arg-type]

    assert sorted(sorted(both(p)[0].items()) for p in found) == [
        [(15, 1), (21, 1), (24, 13)], [(18, 1), (21, 2), (24, 12)], [(18, 2), (24, 13)],
        [(21, 4), (24, 11)]]


def test_a_doublet_from_the_fourth_turn_cascades_and_transfers_what_fails() -> None:
    # E-GB-2: X {20:2}, 13 off; Y {16:1, 1:14} (X's 4 and 13). 5-5 in X's fourth turn:
    # fives end on {10:2} or {15:1, 5:1}. From {10:2} no six (10/4 is Y's): four 6s go to
    # Y: 16/10, 10/4, 4/off, 1/off. From {15:1, 5:1}: 15/9/3, 5/off, 3/off: X wins.
    at = at_turn({20: 2}, {16: 1, 1: 14}, (3, 3))

    found = GUL_BARA.legal_positions(at, Roll(5, 5))  # type: ignore[arg-type]

    assert sorted((sorted(both(p)[0].items()), sorted(both(p)[1].items())) for p in found) == [
        ([], [(1, 14), (16, 1)]), ([(10, 2)], [(1, 13)])]


def test_a_die_the_roller_cannot_play_goes_to_the_opponent() -> None:
    # E-GB-3: X {14:1, 4:1}, 13 off; Y {20:1, 18:1, 1:13} (X's 8, 6, 13). 6-2: only the 2
    # (14/12 or 4/2); Y plays the 6: 18/12, or 20/14 unless X played 4/2 (Y's 14 is X's 2).
    at = at_turn({14: 1, 4: 1}, {20: 1, 18: 1, 1: 13}, (5, 5))

    found = GUL_BARA.legal_positions(at, Roll(6, 2))  # type: ignore[arg-type]

    assert sorted((sorted(both(p)[0].items()), sorted(both(p)[1].items())) for p in found) == [
        ([(2, 1), (14, 1)], [(1, 13), (12, 1), (20, 1)]),
        ([(4, 1), (12, 1)], [(1, 13), (12, 1), (20, 1)]),
        ([(4, 1), (12, 1)], [(1, 13), (14, 1), (18, 1)])]


def test_rules_legal_from_the_gul_bara_start() -> None:
    # 3-1 from 15 on the 24 point: 24/21 24/23 or 24/21/20 (Y's start is our 12).
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "gul-bara", "--json",
                                      "start", "31"])

    assert result.exit_code == 0
    points = [json.loads(line)["x"]["points"] for line in result.stdout.splitlines()]
    assert sorted(points, key=str) == [{"20": 1, "24": 14}, {"21": 1, "23": 1, "24": 13}]
