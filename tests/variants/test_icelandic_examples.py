"""The worked examples of VARIANTS.md section 18 for Icelandic backgammon (E-ICE-1 to
E-ICE-3, the seed's adjacent layout), the lone-checker rule of 6.4, the end of the game,
and the rules CLI, whose JSON form names the points of both sides by A-labels."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tables_builders import chase_results, chase_side, position, rules_cli_from_start, side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, NotationError, Roll
from tourney.rules.moves import Move, Play
from tourney.rules.variant_protocol import VariantOptions
from tourney.rules.variants import ICELANDIC


def test_the_one_of_a_one_three_captures_on_a24_whichever_checker_plays_it() -> None:
    # E-ICE-1: L on A1-A6, U on A19-A24, 1-3: only the 1 counts. A1->A24* captures; from
    # A2..A6 the 1 lands on an own checker and is bumped on past A1 to A24*.
    expected = sorted(([p for p in range(1, 7) if p != moved] + [24], [19, 20, 21, 22, 23])
                      for moved in range(1, 7))

    assert chase_results(ICELANDIC, ICELANDIC.initial(), "13") == expected


def test_only_ones_and_sixes_count_and_doublets_give_two_moves_but_six_six_four() -> None:
    # E-ICE-2 on X {A12, A10}, O {A1, A20}: 5-2 no move; 6-4 only one 6 (A12->A6 or
    # A10->A4); 4-4 two 4s: {4,10}, {6,8}, {2,12}; 6-6 four 6s, a pips to A12's checker
    # and 4 - a to A10's: 24 pips brings a checker round to where it started.
    at = position(ICELANDIC, chase_side(12, 10), chase_side(1, 20))

    assert chase_results(ICELANDIC, at, "52") == [([10, 12], [1, 20])]
    assert chase_results(ICELANDIC, at, "64") == [([4, 12], [1, 20]), ([6, 10], [1, 20])]
    assert chase_results(ICELANDIC, at, "44") == [
        ([2, 12], [1, 20]), ([4, 10], [1, 20]), ([6, 8], [1, 20])]
    assert chase_results(ICELANDIC, at, "66") == [
        ([4, 18], [1, 20]), ([6, 16], [1, 20]), ([10, 12], [1, 20]), ([22, 24], [1, 20])]


def test_a_lone_checker_on_a_corner_hops_with_a_six_and_a_one_to_a1() -> None:
    # E-ICE-3: L's only checker on A12, 6-1: 6 = two corners (A7, A6), 1 = one corner;
    # either order ends on A1, capturing U's checker there.
    at = position(ICELANDIC, chase_side(12), chase_side(20, 15))
    capture = position(ICELANDIC, chase_side(12), chase_side(1, 20))

    assert chase_results(ICELANDIC, at, "61") == [([1], [15, 20])]
    assert chase_results(ICELANDIC, capture, "61") == [([1], [20])]
    assert chase_results(ICELANDIC, at, "11") == [([6], [15, 20])]  # A12 -> A7 -> A6
    assert chase_results(ICELANDIC, at, "66") == [([24], [15, 20])]  # A12 -> A6 -> A24
    assert chase_results(ICELANDIC, at, "33") == [([12], [15, 20])]  # no movement


def test_a_lone_checker_between_two_attackers_cannot_be_captured() -> None:
    # E-ICE-3: the lone checker on A1 with U on A2 and A24: U's A7->A1 with the 6 of 6-5
    # is refused; the other 6s are played. Without U on A24 the capture ends the game.
    guarded = position(ICELANDIC, chase_side(2, 24, 7), chase_side(1))
    open_ = position(ICELANDIC, chase_side(2, 13, 7), chase_side(1))

    assert chase_results(ICELANDIC, guarded, "65") == [([2, 7, 18], [1]), ([7, 20, 24], [1])]
    with pytest.raises(IllegalPlayError):
        ICELANDIC.check_play(guarded, Roll(6, 5), Play((Move(7, 1),)))
    won = ICELANDIC.check_play(open_, Roll(6, 5), Play((Move(7, 1),)))
    assert ICELANDIC.winning_level(won) == Level.SINGLE


def test_a_lone_checker_off_a_corner_goes_to_the_nearest_corner_whatever_the_roll() -> None:
    # 6.4 rule 1 (compulsory): on A10 it moves to A7 and the roll is lost.
    at = position(ICELANDIC, chase_side(10), chase_side(3, 20))

    assert chase_results(ICELANDIC, at, "52") == [([7], [3, 20])]
    assert chase_results(ICELANDIC, at, "66") == [([7], [3, 20])]
    assert {ICELANDIC.check_play(at, Roll(5, 2), Play((Move(10, 7),)))} == \
        ICELANDIC.legal_positions(at, Roll(5, 2))


def test_a_lone_checker_is_safe_off_a_corner() -> None:
    # X's A10->A4 with a 6 would land on O's last checker, not on a corner: refused.
    at = position(ICELANDIC, chase_side(10, 20), chase_side(4))

    assert chase_results(ICELANDIC, at, "64") == [([10, 14], [4])]


def test_the_game_is_won_by_the_side_with_checkers_left_and_scores_one() -> None:
    won = position(ICELANDIC, chase_side(3, 9), chase_side())

    assert ICELANDIC.winning_level(won) == Level.SINGLE
    assert ICELANDIC.levels() == (Level.SINGLE,)
    assert [ICELANDIC.level_points(level) for level in Level] == [1, 1, 1]
    assert not ICELANDIC.uses_cube()


def test_a_side_holds_a_point_with_one_checker() -> None:
    with pytest.raises(NotationError):
        position(ICELANDIC, side({3: 2, 9: 1}, checkers=6), chase_side(1))


def test_rules_legal_json_uses_a_labels_for_both_sides() -> None:
    # U (o) on roll with A2, A24, A7 against X's lone A1 (off 5 = captured): 6-5.
    text = json.dumps({"on_roll": "o", "x": {"points": {"1": 1}, "off": 5},
                       "o": {"points": {"2": 1, "24": 1, "7": 1}, "off": 3}})
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "icelandic", "--json",
                                      text, "65"])

    assert result.exit_code == 0
    assert sorted(sorted(json.loads(line)["o"]["points"], key=int)
                  for line in result.stdout.splitlines()) == [["2", "7", "18"], ["7", "20", "24"]]


def test_rules_cli_from_the_icelandic_start() -> None:
    positions, shown, ids = rules_cli_from_start("icelandic", "31")

    assert {found["o"]["off"] for found in positions} == {1}
    assert len(ids) == 6 and "X1" in shown and "O1" in shown


def test_a_bumped_checker_goes_on_to_an_empty_point_where_the_event_says_so() -> None:
    # E-ICE-1 with bump_to_empty: A1->A24* still captures (it lands there directly); the
    # five bumped from A2..A6 go past A1 and U's A24..A19 to A18, capturing nothing.
    to_empty = VariantOptions(bump_to_empty=True)
    found = ICELANDIC.legal_positions(ICELANDIC.initial(), Roll(1, 3), to_empty)
    results = sorted((sorted(ICELANDIC.position_layout(p).mover.points),
                      sorted(ICELANDIC.position_layout(p).opponent.points)) for p in found)

    assert results == sorted(
        [([2, 3, 4, 5, 6, 24], [19, 20, 21, 22, 23])]
        + [([p for p in range(1, 7) if p != moved] + [18], [19, 20, 21, 22, 23, 24])
           for moved in range(2, 7)])
