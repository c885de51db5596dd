"""Chase (the seed's Verfolgungsjagd): the same game as Icelandic backgammon from the same
adjacent layout; the worked examples E-ICE-1 and E-ICE-2 of VARIANTS.md section 18 under
its own name, and the rules CLI."""

from __future__ import annotations

from tables_builders import chase_results, chase_side, position, rules_cli_from_start

from tourney.rules.variants import CHASE, ICELANDIC


def test_chase_starts_as_icelandic_backgammon_does() -> None:
    layout = CHASE.position_layout(CHASE.initial())

    assert (sorted(layout.mover.points), sorted(layout.opponent.points)) == (
        [1, 2, 3, 4, 5, 6], [19, 20, 21, 22, 23, 24])
    assert CHASE.movement == ICELANDIC.movement


def test_chase_one_three_captures_on_a24() -> None:
    # E-ICE-1: six plays, each capturing U's A24 checker.
    found = chase_results(CHASE, CHASE.initial(), "31")

    assert len(found) == 6 and all(24 in mine and 24 not in theirs for mine, theirs in found)


def test_chase_dice_filter() -> None:
    # E-ICE-2: 5-2 is no move; 6-4 plays one 6 only.
    at = position(CHASE, chase_side(12, 10), chase_side(1, 20))

    assert chase_results(CHASE, at, "52") == [([10, 12], [1, 20])]
    assert chase_results(CHASE, at, "64") == [([4, 12], [1, 20]), ([6, 10], [1, 20])]


def test_rules_cli_from_the_chase_start() -> None:
    positions, shown, ids = rules_cli_from_start("chase", "31")

    assert len(positions) == len(ids) == 6 and "X1" in shown
    assert all("24" in found["x"]["points"] for found in positions)
