"""The worked examples of VARIANTS.md section 18 for Snake (the seed's Schlange): Black in
backgammon's start, White with six checkers on its 24, 23 and 22 points and nine in the
pool, which it must enter before moving; backgammon's rules otherwise."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tables_builders import position, side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.variants import SNAKE


def layout(at: object) -> tuple[dict[int, int], int, int]:
    """(mover's points, pool, bar)."""
    read = SNAKE.position_layout(at).mover  # type: ignore[arg-type]
    return dict(read.points), read.pool, read.bar


def test_the_start_puts_white_on_roll_with_nine_in_the_pool() -> None:
    start = SNAKE.position_layout(SNAKE.initial())

    assert (dict(start.mover.points), start.mover.pool) == ({24: 2, 23: 2, 22: 2}, 9)
    assert (dict(start.opponent.points), start.opponent.pool) == (
        {24: 2, 13: 5, 8: 3, 6: 5}, 0)


def test_white_enters_before_moving_and_loses_a_six_that_cannot_enter() -> None:
    # E-SNAKE-1: White 6-4: enter/19 is Black's 6 point (5 checkers), enter/21 is Black's
    # 4, empty. The pool is not empty, so the 6 may not move a board checker: one result.
    found = SNAKE.legal_positions(SNAKE.initial(), Roll(6, 4))

    assert [layout(p) for p in found] == [({24: 2, 23: 2, 22: 2, 21: 1}, 8, 0)]
    with pytest.raises(IllegalPlayError):
        SNAKE.check_play(SNAKE.initial(), Roll(6, 4), parse_play("bar/21 24/18"))


def test_a_hit_white_checker_enters_from_the_bar_before_the_pool() -> None:
    # E-SNAKE-2: Black 2-1 6/4* 24/23 hits White's checker on W21 (= B4). White 5-3: the
    # bar first, bar/20 (B5, empty) or bar/22; then the other die enters from the pool
    # (enter/22 or enter/20): both end on {24:2, 23:2, 22:3, 20:1}, pool 7.
    white = SNAKE.check_play(SNAKE.initial(), Roll(6, 4), parse_play("bar/21"))
    black = SNAKE.check_play(white.turned(), Roll(2, 1), parse_play("6/4* 24/23"))

    assert layout(black.turned()) == ({24: 2, 23: 2, 22: 2}, 8, 1)
    assert [layout(p) for p in SNAKE.legal_positions(black.turned(), Roll(5, 3))] == [
        ({24: 2, 23: 2, 22: 3, 20: 1}, 7, 0)]


def test_snake_scores_as_backgammon() -> None:
    # White has borne off all; Black none, with a checker on the bar.
    won = position(SNAKE, side({}), side({6: 14}, bar=1))

    assert SNAKE.winning_level(won) == Level.BACKGAMMON
    assert (SNAKE.level_points(Level.BACKGAMMON), SNAKE.uses_cube()) == (3, True)


def test_rules_legal_and_show_from_the_snake_start() -> None:
    # 3-1: White enters bar/22 and bar/24 (B3, B1: Black's 1 point holds none).
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "snake", "--json",
                                      "start", "31"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "snake", "start"])

    assert (result.exit_code, shown.exit_code) == (0, 0)
    assert [json.loads(line)["x"] for line in result.stdout.splitlines()] == [
        {"bar": 0, "off": 0, "points": {"22": 3, "23": 2, "24": 3}, "pool": 7}]
    assert "pool 9" in shown.stdout
