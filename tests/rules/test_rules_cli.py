"""The ``tourney rules`` commands (DESIGN §5 contract)."""

from __future__ import annotations

from click.testing import CliRunner

from tourney.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_legal_opening_3_1_lists_sixteen_sorted_ids_including_8_5_6_5() -> None:
    code, out, _ = run("rules", "legal", "4HPwATDgc/ABMA", "31")
    lines = out.splitlines()
    assert code == 0
    assert len(lines) == 16
    assert lines == sorted(lines)
    # gnubg shows sGfwATDgc/ABMA after "move 8/5 6/5" from the opening with 3-1.
    assert "sGfwATDgc/ABMA" in lines


def test_legal_accepts_dice_as_two_arguments() -> None:
    assert run("rules", "legal", "4HPwATDgc/ABMA", "3", "1")[1] == run(
        "rules", "legal", "4HPwATDgc/ABMA", "31"
    )[1]


def test_legal_with_no_play_prints_the_position_turned() -> None:
    # One checker on the bar against a closed board: the only result is the same
    # position with the opponent on roll.
    from tourney.rules import Position

    closed = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3})
    code, out, _ = run("rules", "legal", closed.to_id(), "65")
    assert code == 0
    assert out.splitlines() == [closed.turned().to_id()]


def test_malformed_id_is_one_line_and_exit_2() -> None:
    code, out, err = run("rules", "legal", "nonsense", "31")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "Position ID" in err


def test_bad_dice_is_one_line_and_exit_2() -> None:
    for dice in ("07", "7", "3x"):
        code, _, err = run("rules", "legal", "4HPwATDgc/ABMA", dice)
        assert code == 2
        assert err.startswith("tourney: dice must be two digits from 1 to 6")


def test_unknown_variant_is_exit_2() -> None:
    code, _, err = run("rules", "legal", "--variant", "chess", "4HPwATDgc/ABMA", "31")
    assert code == 2
    assert "unknown variant" in err


def test_show_draws_the_opening_like_gnubg() -> None:
    code, out, _ = run("rules", "show", "4HPwATDgc/ABMA")
    assert code == 0
    # gnubg's top row for the opening with X on roll.
    assert " | X           O    |   | O              X |" in out.splitlines()
