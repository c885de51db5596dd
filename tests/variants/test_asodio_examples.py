"""The worked examples of VARIANTS.md section 18 for Asodio (E-ASO-1), its 1-2, its exact
bear-off and levels, and the rules CLI from its start."""

from __future__ import annotations

from tables_builders import layouts, position, rules_cli_from_start, side

from tourney.rules import Level
from tourney.rules.variants import ASODIO


def test_no_entry_without_a_doublet_a_one_two_or_a_checker_in_the_entry_table() -> None:
    # E-ASO-1: from the start 6-3 is no play; 3-3 enters four on 22.
    start = ASODIO.initial()

    assert layouts(ASODIO, start, "63") == [({}, 15, 0)]
    assert layouts(ASODIO, start, "33") == [({22: 4}, 11, 0)]


def test_with_a_checker_on_twenty_two_any_roll_enters_and_nothing_else_moves() -> None:
    # E-ASO-1: X {22:1}, 14 in the pool, 5-4: enter/20 enter/21 only (enter all first).
    at = position(ASODIO, side({22: 1}, pool=14), side({}, pool=15))

    assert layouts(ASODIO, at, "54") == [({20: 1, 21: 1, 22: 1}, 12, 0)]


def test_a_checker_entered_from_the_bar_opens_the_pool_for_the_other_die() -> None:
    # X's only board checker was hit: bar 1, 14 in the pool, 6-3. The bar enters on 19
    # (bar checkers need no permission), then the 3 may enter from the pool on 22.
    at = position(ASODIO, side({}, bar=1, pool=14), side({}, pool=15))

    assert layouts(ASODIO, at, "63") == [({19: 1, 22: 1}, 13, 0)]


def test_the_asodio_one_two_enters_two_then_four_of_the_named_number() -> None:
    # 9.3: enter/24 enter/23 (enter all first), then four enter/(25 - c), c = 1..6.
    assert layouts(ASODIO, ASODIO.initial(), "12") == [
        ({19: 4, 23: 1, 24: 1}, 9, 0), ({20: 4, 23: 1, 24: 1}, 9, 0),
        ({21: 4, 23: 1, 24: 1}, 9, 0), ({22: 4, 23: 1, 24: 1}, 9, 0),
        ({23: 1, 24: 5}, 9, 0), ({23: 5, 24: 1}, 9, 0)]


def test_asodio_bears_off_by_the_exact_number_and_scores_one_or_two() -> None:
    # E-AD-4's position under Asodio's exact bear-off: no play.
    at = position(ASODIO, side({4: 1, 2: 1}), side({6: 15}))
    gammon = position(ASODIO, side({}), side({6: 14}, pool=1))
    single = position(ASODIO, side({}), side({6: 14}))

    assert layouts(ASODIO, at, "65") == [({2: 1, 4: 1}, 0, 13)]
    assert ASODIO.winning_level(gammon) == Level.GAMMON
    assert ASODIO.winning_level(single) == Level.SINGLE
    assert ASODIO.level_points(Level.GAMMON) == 2 and not ASODIO.uses_cube()


def test_rules_cli_from_the_asodio_start() -> None:
    # 3-1 is neither a doublet nor a 1-2 and nothing stands on 19-24: no entry.
    positions, shown, ids = rules_cli_from_start("asodio", "31")

    assert [found["x"]["pool"] for found in positions] == [15]
    assert "pool 15" in shown and len(ids) == 1
