"""The worked example of VARIANTS.md section 18 for Gioul, and hand-worked cases of its
rules: contrary movement with no hitting or pinning, a doublet that climbs to 6-6 from
the first turn, and the values the roller cannot play handed to the opponent."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tables_builders import side

from tourney.cli import cli
from tourney.rules import Level, Roll
from tourney.rules.layout import BoardLayout
from tourney.rules.variants import GIOUL


def both(after: object) -> tuple[dict[int, int], int, dict[int, int]]:
    """(mover's points, mover's off, opponent's points)."""
    layout = GIOUL.position_layout(after)  # type: ignore[arg-type]
    return dict(layout.mover.points), layout.mover.off, dict(layout.opponent.points)


def test_a_first_turn_doublet_cascades_and_hands_an_unplayable_rest_over() -> None:
    # X {24:1, 20:1}, 13 off; Y {24:14 (X's 1), 14:1 (X's 11)}. X's first turn, 5-5:
    # four 5s, then four 6s. Fives a (from 24) + b (from 20) = 4, nobody on 1 and no
    # bearing off with a checker out: (4,0) {20,4}, (3,1) {15,9}, (2,2) {14,10},
    # (1,3) {19,5}. Sixes: {20,4}: 20/14/8/2 then the 6 bears off the 4 -> {2}.
    # {15,9}: 15/9/3 9/3, then 3/off -> {3}. {14,10}: 14/8/2 10/4, 4/off -> {2}.
    # {19,5}: 19/13/7, then 7/1 is Y's and 5 cannot bear off: two 6s go to Y, whose
    # 24/18 lands on X's 7: Y plays 14/8/2 (X's 17 and 23).
    at = GIOUL.position_from_layout(BoardLayout(side({24: 1, 20: 1}), side({24: 14, 14: 1})))

    found = GIOUL.legal_positions(at, Roll(5, 5))

    assert sorted((sorted(m.items()), off, sorted(o.items()))
                  for m, off, o in map(both, found)) == [
        ([(2, 1)], 14, [(14, 1), (24, 14)]),
        ([(3, 1)], 14, [(14, 1), (24, 14)]),
        ([(5, 1), (7, 1)], 13, [(2, 1), (24, 14)]),
    ]


def test_a_die_the_roller_cannot_play_goes_to_the_opponent() -> None:
    # X {8:1}, 14 off; Y {24:14 (X's 1), 21:1 (X's 4)}. 4-2: the 4 lands on Y's checker
    # (BLOCK1); 8/6 then 6/2 plays both. 2 first, then 6/2: both dice, one result.
    # With 4-3: 8/4 and 8/5/1 are closed, 8/5 plays the 3; the 4 goes to Y: 24/20 lands
    # on X's 5 where X now stands, 21/17 on X's 8, empty once X has moved.
    at = GIOUL.position_from_layout(BoardLayout(side({8: 1}), side({24: 14, 21: 1})))

    played = [both(p) for p in GIOUL.legal_positions(at, Roll(4, 2))]
    handed = sorted((sorted(m.items()), sorted(o.items()))
                    for m, _, o in map(both, GIOUL.legal_positions(at, Roll(4, 3))))

    assert played == [({2: 1}, 14, {24: 14, 21: 1})]
    assert handed == [([(5, 1)], [(17, 1), (24, 14)])]


def test_gioul_scores_one_or_two_with_no_cube() -> None:
    won = GIOUL.position_from_layout(BoardLayout(side({}), side({6: 14, 20: 1})))

    assert GIOUL.winning_level(won) == Level.GAMMON
    assert GIOUL.levels() == (Level.SINGLE, Level.GAMMON)
    assert (GIOUL.level_points(Level.GAMMON), GIOUL.uses_cube()) == (2, False)
    assert GIOUL.can_open_with_doublet


@pytest.mark.slow
def test_an_opening_doublet_plays_twenty_moves() -> None:
    # E-GIOUL-1: from the start (Y's 15 on X's 1), 2-2 on X's first turn: four each of
    # 2, 3, 4, 5 and 6, 80 pips, all playable while no checker is sent onto X's 1; no
    # value is left, so Y's 15 stay where they are.
    found = GIOUL.legal_positions(GIOUL.initial(), Roll(2, 2))

    pips = {sum(point * count for point, count in both(p)[0].items()) for p in found}
    assert pips == {24 * 15 - 80}
    assert {json.dumps(both(p)[2]) for p in found} == {json.dumps({24: 15})}
    assert all(1 not in both(p)[0] for p in found)


def test_rules_legal_and_show_from_the_gioul_start() -> None:
    # 3-1 from 15 on the 24 point: 24/21 24/23, or 24/20 (through 21 or 23).
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "gioul", "--json",
                                      "start", "31"])
    plain = CliRunner().invoke(cli, ["rules", "legal", "--variant", "gioul", "start", "31"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "gioul", "start"])

    assert (result.exit_code, plain.exit_code, shown.exit_code) == (0, 0, 0)
    points = [json.loads(line)["x"]["points"] for line in result.stdout.splitlines()]
    assert sorted(points, key=str) == [{"20": 1, "24": 14}, {"21": 1, "23": 1, "24": 13}]
    assert len(plain.stdout.splitlines()) == 2
    assert "Position ID" in shown.stdout
