"""The worked examples of VARIANTS.md section 18 for European acey-deucey (E-AD-3 and
E-AD-4): every doublet plays its opposite, and bearing off is by the exact number only."""

from __future__ import annotations

from tables_builders import layouts, pips_moved, position, rules_cli_from_start, side

from tourney.rules import Roll, parse_play
from tourney.rules.variants import ACEY_DEUCEY, ACEY_DEUCEY_EUROPEAN


def test_a_european_doublet_plays_its_opposite_too() -> None:
    # E-AD-3: 3-3 plays four 3s then four 4s. From the start, 12 + 16 pips.
    found = ACEY_DEUCEY_EUROPEAN.legal_positions(ACEY_DEUCEY_EUROPEAN.initial(), Roll(3, 3))
    entered = ACEY_DEUCEY_EUROPEAN.check_play(
        ACEY_DEUCEY_EUROPEAN.initial(), Roll(3, 3), parse_play("bar/22(4) bar/21(4)"))

    assert {pips_moved(ACEY_DEUCEY_EUROPEAN, after) for after in found} == {28}
    assert ACEY_DEUCEY_EUROPEAN.position_layout(entered).mover.points == {22: 4, 21: 4}


def test_three_of_the_four_opposites_are_played_and_the_turn_ends() -> None:
    # E-AD-3: X {24:1, 1:1}, 13 off, 3-3. Four 3s: only 24/21/18/15/12 (the 1 cannot bear
    # off with a checker out). Four 4s: 12/8/4, then everything is home and 4/off by the
    # exact 4; the last 4 cannot take the checker on 1 (exact bear-off). Three played.
    at = position(ACEY_DEUCEY_EUROPEAN, side({24: 1, 1: 1}), side({6: 15}))

    assert layouts(ACEY_DEUCEY_EUROPEAN, at, "33") == [({1: 1}, 0, 14)]


def test_a_european_doublet_incomplete_has_no_opposite() -> None:
    # END_TURN: Y holds X's 21 (Y's 4): X {24:1}, 14 off cannot play a 3 at all.
    at = position(ACEY_DEUCEY_EUROPEAN, side({24: 1}), side({4: 2, 6: 13}))

    assert layouts(ACEY_DEUCEY_EUROPEAN, at, "33") == [({24: 1}, 0, 14)]


def test_european_bear_off_is_by_the_exact_number_only() -> None:
    # E-AD-4: X {4:1, 2:1}, 13 off, 6-5: no checker on 6 or 5 -> no play (the American
    # game bears both off).
    at = position(ACEY_DEUCEY_EUROPEAN, side({4: 1, 2: 1}), side({6: 15}))

    assert layouts(ACEY_DEUCEY_EUROPEAN, at, "65") == [({2: 1, 4: 1}, 0, 13)]
    assert layouts(ACEY_DEUCEY, at, "65") == [({}, 0, 15)]


def test_the_european_one_two_names_a_doublet_without_its_opposite() -> None:
    # 9.2: the 1-2 stays as in 9.1, four of the named number and no complement.
    found = ACEY_DEUCEY_EUROPEAN.legal_positions(ACEY_DEUCEY_EUROPEAN.initial(), Roll(1, 2))

    assert {pips_moved(ACEY_DEUCEY_EUROPEAN, after) for after in found} == {
        7, 11, 15, 19, 23, 27}


def test_rules_cli_takes_the_european_start() -> None:
    positions, shown, ids = rules_cli_from_start("acey-deucey-european", "31")

    assert [found["x"]["points"] for found in positions] == [{"21": 1}, {"22": 1, "24": 1}]
    assert "pool 15" in shown and len(ids) == 2
