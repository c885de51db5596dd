"""The worked examples of VARIANTS.md section 18 for Tapa (E-TAPA-1 and E-TAPA-2), Tapa's
start, its levels, and the rules CLI from its start."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tables_builders import mover_points, position, side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.variants import TAPA


def pins_of(at: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover's pinned points, opponent's pinned points)."""
    layout = TAPA.position_layout(at)  # type: ignore[arg-type]
    return layout.mover.pins, layout.opponent.pins


def test_tapa_no_landing_on_a_pinner() -> None:
    # E-TAPA-1: X pinned on its 9 under one Y checker (Y's 16); X's checker on 12 may not
    # play 12/9 with a 3; every play keeps the pinned checker where it is.
    at = position(TAPA, side({24: 13, 12: 1, 9: 1}, pins=(9,)), side({24: 14, 16: 1}))

    with pytest.raises(IllegalPlayError):
        TAPA.check_play(at, Roll(3, 2), parse_play("12/9 24/22"))
    assert {mover_points(TAPA, p).get(9) for p in TAPA.legal_positions(at, Roll(3, 2))} == {1}
    # Y adds a checker onto its own pin with 4-4: 24/20/16 (Y's 20 is X's 5, open).
    added = TAPA.check_play(at.turned(), Roll(4, 4), parse_play("24/16 24/20 24/20"))
    assert (mover_points(TAPA, added), pins_of(added)) == ({24: 11, 20: 2, 16: 2}, ((), (9,)))


def test_tapa_pin_stays_until_the_last_checker_on_top_leaves() -> None:
    # E-TAPA-2: two Y checkers (its 16) on X's pinned 9. One leaves: still pinned; the
    # second leaves: free.
    at = position(TAPA, side({24: 13, 16: 2}), side({24: 14, 9: 1}, pins=(9,)))

    one_left = TAPA.check_play(at, Roll(2, 1), parse_play("16/14 24/23"))
    both_left = TAPA.check_play(one_left, Roll(2, 1), parse_play("16/14 23/22"))

    assert pins_of(one_left) == ((), (9,))
    assert pins_of(both_left) == ((), ())


def test_tapa_scores_one_or_two_without_a_cube() -> None:
    assert (TAPA.levels(), TAPA.level_points(Level.BACKGAMMON), TAPA.uses_cube()) == (
        (Level.SINGLE, Level.GAMMON), 2, False)


def test_rules_legal_from_the_tapa_start() -> None:
    # 6-5 from 15 on the 24 point: 24/18 24/19 or 24/18/13 (24/19/13 the same result).
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "tapa", "start", "65"])

    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 2
