"""The worked examples of VARIANTS.md section 18 for Dutch backgammon: every checker starts
in the pool and enters first, and a side may hit only with a checker in its home board."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tables_builders import position, side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.variants import DUTCH


def results(at: object, dice: str) -> list[tuple[list[tuple[int, int]], int, int]]:
    """(mover's points, mover's pool, opponent's bar) after each legal play, sorted."""
    found = DUTCH.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    return sorted((sorted(DUTCH.position_layout(p).mover.points.items()),
                   DUTCH.position_layout(p).mover.pool, DUTCH.position_layout(p).opponent.bar)
                  for p in found)


def test_the_last_pool_checker_enters_before_a_board_checker_moves() -> None:
    # E-DUTCH-1: X {13:14}, P1; Y 2 on X's 22 (Y's 3), 13 in Y's pool. 6-3: the 3 cannot
    # enter (22 closed) nor move a board checker while P is not empty; enter/19 with the
    # 6, then the 3: 19/16 or 13/10.
    at = position(DUTCH, side({13: 14}, pool=1), side({3: 2}, pool=13))

    assert results(at, "63") == [([(10, 1), (13, 13), (19, 1)], 0, 0),
                                 ([(13, 14), (16, 1)], 0, 0)]
    for written in ("13/7 13/10", "13/10"):
        with pytest.raises(IllegalPlayError):
            DUTCH.check_play(at, Roll(6, 3), parse_play(written))


def test_a_hit_needs_a_checker_home_at_that_moment() -> None:
    # E-DUTCH-2: X {13:13, 10:1, 8:1}, nothing home, none off; Y a lone checker on X's 7
    # (Y's 18), the rest on Y's 6 (X's 19). 3-2: sixes 13/10, 8/5 (10/7* refused), twos
    # 13/11, 10/8, 8/6. Results: 13/10 13/11, 13/10/8, 13/10 8/6, 8/5 13/11, 8/5 10/8,
    # 8/5/3, and 8/6 10/7* (the 2 first puts a checker on 6): seven, one hitting.
    at = position(DUTCH, side({13: 13, 10: 1, 8: 1}), side({18: 1, 6: 14}))

    found = results(at, "32")
    hit = DUTCH.check_play(at, Roll(3, 2), parse_play("8/6 10/7*"))

    assert len(found) == 7
    assert [entry for entry in found if entry[2]] == [([(6, 1), (7, 1), (13, 13)], 0, 1)]
    assert DUTCH.position_layout(hit).opponent.bar == 1
    for written in ("10/7* 13/11", "10/7*"):
        with pytest.raises(IllegalPlayError):
            DUTCH.check_play(at, Roll(3, 2), parse_play(written))


def test_dutch_scores_a_checker_in_the_pool_as_a_backgammon() -> None:
    won = position(DUTCH, side({}), side({6: 14}, pool=1))

    assert DUTCH.winning_level(won) == Level.BACKGAMMON
    assert (DUTCH.level_points(Level.BACKGAMMON), DUTCH.uses_cube()) == (3, True)
    assert DUTCH.can_open_with_doublet


def test_rules_legal_and_show_from_the_dutch_start() -> None:
    # Everything in the pool: 3-1 enters on 22 and 24.
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "dutch", "--json",
                                      "start", "31"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "dutch", "start"])

    assert (result.exit_code, shown.exit_code) == (0, 0)
    assert [json.loads(line)["x"] for line in result.stdout.splitlines()] == [
        {"bar": 0, "off": 0, "points": {"22": 1, "24": 1}, "pool": 13}]
    assert "pool 15" in shown.stdout
