"""The worked example of VARIANTS.md section 18 for Ad elta stelpur (E-AES-1, bkgm's
diagonal layout: one checker through two touch-downs, and a bump), and the rules CLI."""

from __future__ import annotations

import pytest
from tables_builders import chase_results, rules_cli_from_start

from tourney.rules import IllegalPlayError, Roll
from tourney.rules.moves import Move, Play
from tourney.rules.variants import AD_ELTA_STELPUR

START = AD_ELTA_STELPUR.initial()


def test_the_diagonal_start() -> None:
    layout = AD_ELTA_STELPUR.position_layout(START)

    assert (sorted(layout.mover.points), sorted(layout.opponent.points)) == (
        [19, 20, 21, 22, 23, 24], [7, 8, 9, 10, 11, 12])


def test_one_checker_plays_both_numbers_and_captures_on_its_second_touch_down() -> None:
    # E-AES-1: 6-1, A19->A13 then A13->A12* captures P2's A12 checker.
    after = AD_ELTA_STELPUR.check_play(START, Roll(6, 1), Play((Move(19, 13), Move(13, 12))))
    layout = AD_ELTA_STELPUR.position_layout(after)

    assert sorted(layout.mover.points) == [12, 20, 21, 22, 23, 24]
    assert (sorted(layout.opponent.points), layout.opponent.off) == ([7, 8, 9, 10, 11], 1)


def test_a_one_from_a24_is_bumped_past_every_own_checker_to_a18() -> None:
    # E-AES-1: A24->A23 lands on an own checker and goes on past A23..A19 to A18; the 6
    # then moves A20->A14.
    after = AD_ELTA_STELPUR.check_play(START, Roll(6, 1), Play((Move(24, 18), Move(20, 14))))

    assert sorted(AD_ELTA_STELPUR.position_layout(after).mover.points) == [
        14, 18, 19, 21, 22, 23]
    with pytest.raises(IllegalPlayError):  # a 1 does not stop on A23
        AD_ELTA_STELPUR.check_play(START, Roll(6, 1), Play((Move(24, 23), Move(20, 14))))


def test_every_six_one_capture_from_the_diagonal_start() -> None:
    # A capture needs a checker on A12: the 6 then the 1 from A19 (A19->A13->A12*), or the
    # 1 to A18 first (A19->A18, or bumped there from any of A20-A24) and the 6 A18->A12*.
    # No 6 alone reaches A7-A12 from A19-A24. So one capture for each checker that moved.
    found = chase_results(AD_ELTA_STELPUR, START, "61")
    captured = [mine for mine, theirs in found if len(theirs) == 5]

    assert captured == sorted(sorted({12, *range(19, 25)} - {moved})
                              for moved in range(19, 25))


def test_rules_cli_from_the_ad_elta_stelpur_start() -> None:
    # Only the 1: A19->A18, or bumped to A18 from A20-A24 -> six plays.
    positions, shown, ids = rules_cli_from_start("ad-elta-stelpur", "31")

    assert sorted(sorted(map(int, found["x"]["points"])) for found in positions) == sorted(
        sorted({18, *range(19, 25)} - {moved}) for moved in range(19, 25))
    assert "X1" in shown and len(ids) == 6
