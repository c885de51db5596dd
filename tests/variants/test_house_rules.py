"""Backgammon's local restrictions as event options (the five-checker limit, no
hit-and-run in the home board, the opening by the higher total): each position's legal
plays worked out by hand from the rule, with backgammon's own set beside it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Position, Roll, parse_play
from tourney.rules.errors import PlayRule
from tourney.rules.variants import DEFAULT_OPTIONS, NACKGAMMON, STANDARD, VariantOptions

FIVE = VariantOptions(five_checker_limit=True)
NO_HIT_AND_RUN = VariantOptions(no_hit_and_run_at_home=True)


def results(position: Position, dice: str,
            options: VariantOptions = DEFAULT_OPTIONS) -> set[Position]:
    return set(STANDARD.legal_positions(position, Roll.parse(dice), options))


def at(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position.from_points(mover, opponent)


def test_five_checker_limit_keeps_a_sixth_checker_off_the_six_point() -> None:
    # X: 8:3 6:5; O's two checkers on X's 1 point. 2-1 by hand: the 2 from 8 would make a
    # sixth on the 6, so it plays only after a checker has left the 6 (6/5 8/6).
    # Legal: 8/7 6/4, 6/4 6/5, 6/4/3, 8/7/5 (= 6/5 8/6). Backgammon alone also allows
    # 8/6 8/7 with six on the 6.
    position = at({8: 3, 6: 5}, {24: 2})
    limited = {
        at({8: 2, 7: 1, 6: 4, 4: 1}, {24: 2}),
        at({8: 3, 6: 3, 5: 1, 4: 1}, {24: 2}),
        at({8: 3, 6: 4, 3: 1}, {24: 2}),
        at({8: 2, 6: 5, 5: 1}, {24: 2}),
    }

    assert results(position, "21", FIVE) == limited
    assert results(position, "21") == limited | {at({8: 1, 7: 1, 6: 6}, {24: 2})}


def test_five_checker_limit_with_a_doublet_counts_the_checkers_as_they_move() -> None:
    # X: 9:2 6:5, 3-3. 9/6 needs a checker gone from the 6 first; nothing bears off while
    # a checker stands on the 9. By hand, four 3s reach 9:0 6:5 3:2, 9:1 6:3 3:3 and
    # 9:2 6:1 3:4, and nothing else.
    position = at({9: 2, 6: 5}, {24: 2})

    assert results(position, "33", FIVE) == {
        at({6: 5, 3: 2}, {24: 2}),
        at({9: 1, 6: 3, 3: 3}, {24: 2}),
        at({9: 2, 6: 1, 3: 4}, {24: 2}),
    }


def test_five_checker_limit_can_leave_a_roll_unplayable() -> None:
    # X: 8:2 6:5; O holds X's 4 point. 2-2: 8/6 makes a sixth, 6/4 is blocked: a dance.
    # Backgammon alone plays 8/6(2).
    position = at({8: 2, 6: 5}, {21: 2})

    assert results(position, "22", FIVE) == {position}
    assert results(position, "22") == {at({6: 7}, {21: 2})}


def test_five_checker_limit_refuses_the_play_and_names_the_rule() -> None:
    position = at({8: 3, 6: 5}, {24: 2})

    with pytest.raises(IllegalPlayError) as refused:
        STANDARD.check_play(position, Roll(2, 1), parse_play("8/6 8/7"), FIVE)

    assert refused.value.rule is PlayRule.HOUSE_RULE
    assert str(refused.value) == ("8/6: the 6 point already holds five checkers "
                                  "(at most five checkers on a point)")
    # The same position by a route that respects the limit is the same play.
    after = STANDARD.check_play(position, Roll(2, 1), parse_play("8/7 7/5"), FIVE)
    assert after == at({8: 2, 6: 5, 5: 1}, {24: 2})


def test_no_hit_and_run_stops_the_hitter_on_its_home_point() -> None:
    # X: 8:1 6:2; O's blot on X's 4 point. 4-2 by hand: 8/4* 6/4, 6/2 8/6, 6/4* 6/2;
    # backgammon alone also allows 8/4*/2, hitting at home and running on.
    position = at({8: 1, 6: 2}, {21: 1, 6: 14})
    on_bar = {25: 1, 6: 14}
    allowed = {
        at({6: 1, 4: 2}, on_bar),
        at({6: 2, 2: 1}, {21: 1, 6: 14}),
        at({8: 1, 4: 1, 2: 1}, on_bar),
    }

    assert results(position, "42", NO_HIT_AND_RUN) == allowed
    assert results(position, "42") == allowed | {at({6: 2, 2: 1}, on_bar)}
    with pytest.raises(IllegalPlayError) as refused:
        STANDARD.check_play(position, Roll(4, 2), parse_play("8/4*/2"), NO_HIT_AND_RUN)
    assert str(refused.value) == ("4/2: the checker that hit on the 4 point must stay "
                                  "there this turn (no hit-and-run in the home board)")


def test_no_hit_and_run_lets_a_hit_outside_home_run_on() -> None:
    # X: 13:1; O's blot on X's 9 point. 4-3: 13/9*/6 hits outside the home board and
    # may run on, with the option as without it.
    position = at({13: 1}, {16: 1, 1: 14})

    assert results(position, "43", NO_HIT_AND_RUN) == results(position, "43")
    assert at({6: 1}, {25: 1, 1: 14}) in results(position, "43", NO_HIT_AND_RUN)


def test_house_rules_leave_backgammon_and_its_engine_alone_when_off() -> None:
    assert STANDARD.engine_for(VariantOptions()) is STANDARD.engine
    assert STANDARD.engine_for(FIVE) is not STANDARD.engine
    assert NACKGAMMON.offers("no_hit_and_run_at_home")


def test_every_house_rule_has_its_words() -> None:
    on = VariantOptions(five_checker_limit=True, no_hit_and_run_at_home=True,
                        opening_higher_total=True)

    assert STANDARD.option_phrases(on) == (
        "five-checker limit", "no hit-and-run at home", "opening by the higher total")
    assert STANDARD.option_phrases(VariantOptions()) == ()


def test_opening_by_the_higher_total_allows_an_opening_doublet() -> None:
    assert not STANDARD.opening_allows_doublet(VariantOptions())
    assert STANDARD.opening_allows_doublet(VariantOptions(opening_higher_total=True))


def test_rules_legal_takes_a_house_rule_by_option() -> None:
    position = at({8: 2, 6: 5}, {21: 2})
    runner = CliRunner()

    limited = runner.invoke(cli, ["rules", "legal", position.to_id(), "22",
                                  "--option", "five_checker_limit"])
    plain = runner.invoke(cli, ["rules", "legal", position.to_id(), "22"])

    assert limited.exit_code == 0
    assert limited.output.split() == [position.turned().to_id()]
    assert plain.output.split() == [at({6: 7}, {21: 2}).turned().to_id()]
