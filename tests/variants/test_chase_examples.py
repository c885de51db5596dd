"""Chase (the seed's Verfolgungsjagd): the same game as Icelandic backgammon from the same
adjacent layout; the worked examples E-ICE-1 and E-ICE-2 of VARIANTS.md section 18 under
its own name, and the rules CLI."""

from __future__ import annotations

import json

from click.testing import CliRunner
from tables_builders import chase_results as results
from tables_builders import chase_side, position

from tourney.cli import cli
from tourney.rules.variants import CHASE, ICELANDIC


def test_chase_starts_as_icelandic_backgammon_does() -> None:
    layout = CHASE.position_layout(CHASE.initial())

    assert (sorted(layout.mover.points), sorted(layout.opponent.points)) == (
        [1, 2, 3, 4, 5, 6], [19, 20, 21, 22, 23, 24])
    assert CHASE.movement == ICELANDIC.movement


def test_chase_one_three_captures_on_a24() -> None:
    # E-ICE-1: six plays, each capturing U's A24 checker.
    found = results(CHASE, CHASE.initial(), "31")

    assert len(found) == 6 and all(24 in mine and 24 not in theirs for mine, theirs in found)


def test_chase_dice_filter() -> None:
    # E-ICE-2: 5-2 is no move; 6-4 plays one 6 only.
    at = position(CHASE, chase_side(12, 10), chase_side(1, 20))

    assert results(CHASE, at, "52") == [([10, 12], [1, 20])]
    assert results(CHASE, at, "64") == [([4, 12], [1, 20]), ([6, 10], [1, 20])]


def test_rules_cli_from_the_chase_start() -> None:
    runner = CliRunner()
    legal = runner.invoke(cli, ["rules", "legal", "--variant", "chase", "--json", "start",
                                "31"])
    shown = runner.invoke(cli, ["rules", "show", "--variant", "chase", "start"])
    plain = runner.invoke(cli, ["rules", "legal", "--variant", "chase", "start", "52"])

    assert (legal.exit_code, shown.exit_code, plain.exit_code) == (0, 0, 0)
    assert len(legal.stdout.splitlines()) == 6
    assert all("24" in json.loads(line)["x"]["points"] for line in legal.stdout.splitlines())
    assert len(plain.stdout.splitlines()) == 1
