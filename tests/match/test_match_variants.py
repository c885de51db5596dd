"""Match scoring follows the event's variant: what a level scores, whether the cube and the
Crawford rule are used, and the words a refusal uses (oin and mars in long nardy)."""

from __future__ import annotations

import pytest
from match_builders import O, X, backgammon, drop, gammon, resigned, single

from tourney.match import (
    GameEntry,
    GameKind,
    MatchEntryError,
    MatchRules,
    check_final_score,
    doubling_restriction,
    score_match,
)
from tourney.rules import GameEnd, Level
from tourney.rules.variants import (
    HYPERGAMMON,
    LONG_NARDY,
    NACKGAMMON,
    STANDARD,
    VariantOptions,
    variant_named,
)

# Long nardy's words for the builders: an oin is entered as a single game, a mars as a
# gammon and a koks as a backgammon (which the seeds count as a mars).
oin = single
mars = gammon
koks = backgammon

NARDY_CUBE = VariantOptions(cube=True)
NARDY_CUBE_CRAWFORD = VariantOptions(cube=True, crawford=True)


def refusal(rules: MatchRules, games: list[GameEntry]) -> MatchEntryError:
    """The error scoring ``games`` raises (the test fails if none is raised)."""
    with pytest.raises(MatchEntryError) as caught:
        score_match(rules, games)
    return caught.value


# --- standard and nackgammon ------------------------------------------------------------


def test_score_match_standard_variant_is_the_default():
    rules = MatchRules(7)

    assert (rules.variant, rules.uses_cube, rules.uses_crawford) == (STANDARD, True, True)


def test_score_match_nackgammon_scores_like_standard():
    # Gammon on a 2-cube: 2 x 2 = 4; backgammon on 1: 3 x 1 = 3 -> 4-3.
    state = score_match(MatchRules(7, variant=NACKGAMMON), [gammon(X, 2), backgammon(O)])

    assert state.score == (4, 3)


def test_match_rules_options_can_turn_crawford_off_for_standard():
    # 5-point, X wins 2 + 2 = 4-0: with Crawford off the next game is a normal game.
    rules = MatchRules(5, options=VariantOptions(crawford=False))

    state = score_match(rules, [single(X, 2), single(X, 2)])

    assert (rules.uses_crawford, state.next_kind, state.crawford_game) == (
        False, GameKind.NORMAL, None)


# --- hypergammon ----------------------------------------------------------------------


def test_score_match_hypergammon_counts_every_win_single_by_default():
    # Gammon on 1: 1 x 1 = 1; backgammon on a 2-cube: 1 x 2 = 2; resigned gammon on 4:
    # 1 x 4 = 4. X 1 + 4 = 5, O 2 -> 5-2 in a 7-point match.
    games = [gammon(X), backgammon(O, 2), resigned(X, 4, Level.GAMMON)]

    state = score_match(MatchRules(7, variant=HYPERGAMMON), games)

    assert [game.points for game in state.games] == [1, 2, 4]
    assert state.score == (5, 2)


def test_score_match_hypergammon_counts_gammons_when_the_event_does():
    # gnubg's scoring: gammon on 2 = 2 x 2 = 4, backgammon on 1 = 3 -> 4-3.
    rules = MatchRules(7, variant=HYPERGAMMON, options=VariantOptions(gammons=True))

    state = score_match(rules, [gammon(X, 2), backgammon(O)])

    assert state.score == (4, 3)


def test_score_match_hypergammon_asks_for_a_single_when_gammons_do_not_count():
    error = refusal(MatchRules(3, variant=HYPERGAMMON),
                    [GameEntry(X, GameEnd.PLAYED, 1, None)])

    assert str(error) == "Game 1 was played out, so it needs a result: single."


def test_score_match_hypergammon_keeps_crawford():
    # 3-point, X wins 1 + 1 = 2-0 = N-1: game 3 is the Crawford game, no cube.
    error = refusal(MatchRules(3, variant=HYPERGAMMON), [single(X), single(X), single(O, 2)])

    assert str(error) == (
        "Game 3 is the Crawford game: no doubling is allowed, so the cube must stay at 1."
    )


# --- long nardy without the cube (the default) ----------------------------------------


def test_score_match_long_nardy_scores_oin_one_mars_two():
    # 5-point: X mars 2 (2-0), O oin 1 (2-1), X oin 1 (3-1), O mars 2 (3-3),
    # X mars 2 -> 5-3, X wins.
    games = [mars(X), oin(O), oin(X), mars(O), mars(X)]

    state = score_match(MatchRules(5, variant=LONG_NARDY), games)

    assert [game.points for game in state.games] == [2, 1, 1, 2, 2]
    assert (state.score, state.winner) == ((5, 3), X)


def test_score_match_long_nardy_counts_koks_as_mars_by_default():
    # The seeds: there is no koks in long nardy, it is a mars: 2 points.
    state = score_match(MatchRules(5, variant=LONG_NARDY), [koks(X)])

    assert state.score == (2, 0)


def test_score_match_long_nardy_scores_koks_three_with_the_option():
    # Koks option: 3 points; then a mars 2 -> 5-0, match over.
    rules = MatchRules(5, variant=LONG_NARDY, options=VariantOptions(koks=True))

    state = score_match(rules, [koks(X), mars(X)])

    assert (state.score, state.is_over) == ((5, 0), True)


def test_score_match_long_nardy_has_no_crawford_game_without_the_cube():
    # 5-point: mars + mars = 4-0 = N-1, but without the cube there is no Crawford game.
    state = score_match(MatchRules(5, variant=LONG_NARDY), [mars(X), mars(X)])

    assert (state.next_kind, state.crawford_game) == (GameKind.NORMAL, None)


def test_score_match_long_nardy_refuses_a_turned_cube():
    error = refusal(MatchRules(5, variant=LONG_NARDY), [oin(X), mars(O, 2)])

    assert error.game_number == 2
    assert str(error) == (
        "This long nardy event is played without the doubling cube, so in game 2 "
        "the cube must stay at 1."
    )


def test_score_match_long_nardy_refuses_a_dropped_double():
    error = refusal(MatchRules(5, variant=LONG_NARDY), [drop(O)])

    assert str(error) == (
        "This long nardy event is played without the doubling cube, so in game 1 "
        "no double can have been dropped."
    )


def test_score_match_long_nardy_asks_for_oin_or_mars():
    error = refusal(MatchRules(5, variant=LONG_NARDY), [GameEntry(X, GameEnd.PLAYED, 1, None)])

    assert str(error) == "Game 1 was played out, so it needs a result: oin or mars."


def test_score_match_long_nardy_with_koks_asks_for_oin_mars_or_koks():
    rules = MatchRules(5, variant=LONG_NARDY, options=VariantOptions(koks=True))

    error = refusal(rules, [GameEntry(X, GameEnd.RESIGNED, 1, None)])

    assert str(error) == "Game 1 was resigned, so it needs a result: oin, mars or koks."


def test_doubling_restriction_long_nardy_says_no_cube():
    state = score_match(MatchRules(5, variant=LONG_NARDY), [])

    assert doubling_restriction(state) == "the cube is not used in this long nardy event"


def test_doubling_restriction_one_point_long_nardy_names_the_one_point_match():
    state = score_match(MatchRules(1, variant=LONG_NARDY), [])

    assert doubling_restriction(state) == "the cube is not used in a 1-point match"


def test_score_match_long_nardy_jacoby_has_no_purpose_without_the_cube():
    # Jacoby would count a mars on an unturned cube single; with no cube at all the rule
    # has nothing to encourage, so the mars scores its full 2.
    rules = MatchRules(5, jacoby=True, variant=LONG_NARDY)

    state = score_match(rules, [mars(X)])

    assert state.score == (2, 0)


def test_check_final_score_long_nardy_reaches_six_not_seven():
    # 5-point without the cube a game scores 1 or 2, so from 4 the winner ends at 5 or
    # 6: 6-0 is reachable (2 + 2 + 2), 7-0 is not.
    rules = MatchRules(5, variant=LONG_NARDY)

    assert check_final_score(rules, (6, 0)) == X
    with pytest.raises(MatchEntryError):
        check_final_score(rules, (7, 0))


def test_check_final_score_long_nardy_koks_reaches_seven():
    # Koks option: 2 + 2 = 4, then a koks 3 -> 7-0.
    rules = MatchRules(5, variant=LONG_NARDY, options=VariantOptions(koks=True))

    assert check_final_score(rules, (7, 0)) == X


# --- long nardy with the cube (event option) ------------------------------------------


def test_score_match_long_nardy_with_cube_multiplies_by_the_cube():
    # Mars on a 2-cube: 2 x 2 = 4; O drops an initial double: 1 -> 4-1.
    rules = MatchRules(7, variant=LONG_NARDY, options=NARDY_CUBE)

    state = score_match(rules, [mars(X, 2), drop(O)])

    assert state.score == (4, 1)


def test_score_match_long_nardy_with_cube_has_no_crawford_by_default():
    # 5-point: mars on a 2-cube = 4-0 = N-1; Crawford is off by default in long nardy, so
    # the next game may be doubled: O oin on 2 -> 4-2.
    rules = MatchRules(5, variant=LONG_NARDY, options=NARDY_CUBE)

    state = score_match(rules, [mars(X, 2), oin(O, 2)])

    assert [game.kind for game in state.games] == [GameKind.NORMAL, GameKind.NORMAL]
    assert state.score == (4, 2)


def test_score_match_long_nardy_with_cube_and_crawford_refuses_cube_in_crawford_game():
    # 5-point: mars on 2 = 4-0 = N-1, so game 2 is the Crawford game.
    rules = MatchRules(5, variant=LONG_NARDY, options=NARDY_CUBE_CRAWFORD)

    error = refusal(rules, [mars(X, 2), oin(O, 2)])

    assert str(error) == (
        "Game 2 is the Crawford game: no doubling is allowed, so the cube must stay at 1."
    )


def test_score_match_long_nardy_crawford_needs_the_event_crawford_flag_too():
    rules = MatchRules(5, crawford=False, variant=LONG_NARDY, options=NARDY_CUBE_CRAWFORD)

    assert rules.uses_crawford is False


def test_score_match_long_nardy_drop_cannot_also_be_a_mars():
    rules = MatchRules(5, variant=LONG_NARDY, options=NARDY_CUBE)

    error = refusal(rules, [GameEntry(X, GameEnd.DROPPED, 1, Level.GAMMON)])

    assert str(error) == (
        "Game 1 ended with a dropped double, which scores the cube value only, "
        "so it cannot also be a mars."
    )


# --- the rules object ------------------------------------------------------------------


def test_match_rules_level_name_uses_the_variant_words():
    rules = MatchRules(5, variant=LONG_NARDY)

    assert [rules.level_name(level) for level in Level] == ["oin", "mars", "koks"]


def test_match_rules_repr_names_a_non_standard_variant():
    rules = MatchRules(5, variant=LONG_NARDY, options=VariantOptions(koks=True))

    assert repr(rules) == (
        "MatchRules(length=5, crawford=True, holland=False, cube_limit=None, jacoby=False, "
        "variant=variant_named('long-nardy'), options=VariantOptions(koks=True))"
    )
    # The repr pastes back into Python.
    assert eval(repr(rules), {
        "MatchRules": MatchRules, "VariantOptions": VariantOptions,
        "variant_named": variant_named}) == rules


def test_match_rules_refuses_a_variant_name_instead_of_a_variant():
    with pytest.raises(ValueError, match="is not a variant of the game"):
        MatchRules(5, variant="long-nardy")  # type: ignore[arg-type]


# --- long nardy's last-roll draw -----------------------------------------------------------

LAST_ROLL = VariantOptions(last_roll_draw=True)


def test_score_match_long_nardy_last_roll_draw_scores_nothing():
    # 3-point: X mars 2 (2-0), a draw (still 2-0), O oin 1 (2-1), X oin 1 -> 3-1.
    games = [mars(X), GameEntry.drawn(), oin(O), oin(X)]

    state = score_match(MatchRules(3, variant=LONG_NARDY, options=LAST_ROLL), games)

    assert [game.points for game in state.games] == [2, 0, 1, 1]
    assert [game.score_after for game in state.games] == [(2, 0), (2, 0), (2, 1), (3, 1)]
    assert state.games[1].winner is None
    assert (state.winner, state.is_over) == (X, True)


def test_score_match_refuses_a_draw_without_the_last_roll_option():
    error = refusal(MatchRules(5, variant=LONG_NARDY), [oin(X), GameEntry.drawn()])

    assert error.game_number == 2
    assert str(error) == (
        "Game 2 cannot be a draw: only an event with the last-roll rule has drawn games, "
        "and this long nardy event does not use it."
    )


def test_score_match_refuses_a_draw_in_standard_backgammon():
    options = VariantOptions(last_roll_draw=True)

    error = refusal(MatchRules(5, options=options), [GameEntry.drawn()])

    assert "this backgammon event has none" in str(error)


def test_score_match_refuses_a_draw_with_a_winner_or_a_level():
    rules = MatchRules(5, variant=LONG_NARDY, options=LAST_ROLL)

    with_winner = refusal(rules, [GameEntry(X, GameEnd.DRAWN, 1, None)])
    with_level = refusal(rules, [GameEntry(None, GameEnd.DRAWN, 1, Level.GAMMON)])

    assert str(with_winner) == "Game 1 is entered as drawn, so it cannot also have a winner."
    assert str(with_level) == "Game 1 is entered as drawn, so it cannot also be a mars."


def test_score_match_refuses_a_game_without_a_winner_that_is_not_drawn():
    rules = MatchRules(5, variant=LONG_NARDY, options=LAST_ROLL)

    error = refusal(rules, [GameEntry(None, GameEnd.PLAYED, 1, Level.SINGLE)])

    assert str(error) == "Game 1 needs a winner (X or O), not None."


def test_score_match_long_nardy_draw_with_the_cube_keeps_the_score():
    rules = MatchRules(5, variant=LONG_NARDY,
                       options=VariantOptions(cube=True, last_roll_draw=True))

    state = score_match(rules, [GameEntry.drawn(cube=2), oin(O, 2)])

    assert state.score == (0, 2)


def test_score_match_draw_refuses_a_cube_without_the_cube_option():
    error = refusal(MatchRules(5, variant=LONG_NARDY, options=LAST_ROLL),
                    [GameEntry.drawn(cube=2)])

    assert str(error) == (
        "This long nardy event is played without the doubling cube, so in game 1 the "
        "cube must stay at 1."
    )
