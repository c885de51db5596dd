"""Hand-worked match scores: every expected value is worked out in the comment beside it."""

from __future__ import annotations

from match_builders import O, X, backgammon, drop, gammon, resigned, single

from tourney.match import GameKind, MatchRules, add_game, format_score, score_match
from tourney.rules import Level


def test_score_match_five_point_table_scores_each_game():
    # Arrange: the 5-point table of the issue.
    games = [
        single(X, 2),  # 0-0: X wins 1 x 2           -> 2-0
        single(O),  # 2-0: O wins 1 x 1              -> 2-1
        single(X, 2),  # 2-1: X wins 1 x 2           -> 4-1, X at N-1 = 4
        single(O),  # 4-1: Crawford game, O wins 1   -> 4-2
        single(O, 2),  # 4-2: post-Crawford, O 1 x 2 -> 4-4, double match point
        single(X, 2),  # 4-4: DMP, X wins 1 x 2      -> 6-4, overshoots 5
    ]

    # Act
    state = score_match(MatchRules(5), games)

    # Assert
    assert [game.score_after for game in state.games] == [
        (2, 0), (2, 1), (4, 1), (4, 2), (4, 4), (6, 4)
    ]
    assert [game.points for game in state.games] == [2, 1, 2, 1, 2, 2]
    assert [game.kind for game in state.games] == [
        GameKind.NORMAL,
        GameKind.NORMAL,
        GameKind.NORMAL,
        GameKind.CRAWFORD,
        GameKind.POST_CRAWFORD,
        GameKind.POST_CRAWFORD,
    ]
    assert [game.double_match_point for game in state.games] == [
        False, False, False, False, False, True
    ]


def test_score_match_five_point_table_ends_with_overshoot():
    # 4-4 and X wins 1 x 2 = 2 -> 6-4; the actual points are kept, not capped at 5.
    state = score_match(
        MatchRules(5),
        [single(X, 2), single(O), single(X, 2), single(O), single(O, 2), single(X, 2)],
    )

    assert state.score == (6, 4)
    assert state.is_over is True
    assert state.winner == X
    assert state.next_kind is None
    assert state.crawford_game == 4
    assert state.double_match_point is False


def test_score_match_five_point_table_announces_each_next_game():
    # Before game 4 (4-1) the Crawford game is next; before game 6 (4-4) DMP is next.
    rules = MatchRules(5)
    before_crawford = score_match(rules, [single(X, 2), single(O), single(X, 2)])
    before_dmp = score_match(
        rules, [single(X, 2), single(O), single(X, 2), single(O), single(O, 2)]
    )

    assert (before_crawford.next_kind, before_crawford.crawford_game) == (GameKind.CRAWFORD, 4)
    assert before_crawford.away == (1, 4)  # 5-4, 5-1
    assert (before_dmp.next_kind, before_dmp.double_match_point) == (
        GameKind.POST_CRAWFORD,
        True,
    )


def test_score_match_gammon_on_two_cube_overshoots_seven_point_match():
    # 7-point match at 5-3 (X first wins 5 singles, O 3); X wins a gammon on a 2-cube:
    # 2 (cube) x 2 (gammon) = 4, so 5 + 4 = 9 -> 9-3.
    games = [single(X)] * 5 + [single(O)] * 3 + [gammon(X, 2)]

    state = score_match(MatchRules(7), games)

    assert state.games[-1].score_before == (5, 3)
    assert state.games[-1].points == 4
    assert state.score == (9, 3)
    assert state.winner == X


def test_score_match_refused_initial_double_scores_one():
    # O doubles at 1, X drops: O scores the cube before the double, 1 -> 0-1.
    state = score_match(MatchRules(7), [drop(O)])

    assert state.games[0].points == 1
    assert state.score == (0, 1)


def test_score_match_refused_redouble_scores_cube_before_it():
    # Cube on 4, the owner redoubles to 8 and it is dropped: 4 points, not 8 -> 4-0.
    state = score_match(MatchRules(7), [drop(X, 4)])

    assert state.score == (4, 0)


def test_score_match_crawford_game_gammon_by_trailer():
    # 5-point match: X reaches 4 with two 2-cube wins (4-0). Game 3 is the Crawford game,
    # cube 1; O (the trailer) wins a gammon: 1 x 2 = 2 -> 4-2.
    state = score_match(MatchRules(5), [single(X, 2), single(X, 2), gammon(O)])

    assert state.games[2].kind == GameKind.CRAWFORD
    assert state.games[2].points == 2
    assert state.score == (4, 2)
    assert state.next_kind == GameKind.POST_CRAWFORD
    assert state.crawford_game == 3


def test_score_match_backgammon_and_resignation_levels():
    # 11-point match: backgammon on 2 = 2 x 3 = 6 -> 6-0; O resigns a gammon to X on 1
    # = 1 x 2 = 2 -> 8-0.
    state = score_match(
        MatchRules(11), [backgammon(X, 2), resigned(X, 1, Level.GAMMON)]
    )

    assert state.score == (8, 0)


def test_score_match_crawford_game_is_first_game_after_reaching_n_minus_one_only():
    # 5-point: X wins three singles (3-0), O one (3-1), X one in game 5 (4-1): X first
    # reaches N-1 = 4 there, so game 6 is the Crawford game; O wins it -> 4-2.
    games = [single(X), single(X), single(X), single(O), single(X), single(O)]

    state = score_match(MatchRules(5), games)

    assert state.crawford_game == 6
    assert [game.kind for game in state.games][4:] == [GameKind.NORMAL, GameKind.CRAWFORD]
    assert state.next_kind == GameKind.POST_CRAWFORD


def test_score_match_jump_past_n_minus_one_has_no_crawford_game():
    # 5-point: X at 2-0 wins a gammon on a 2-cube: 2 + 4 = 6 -> match over, no Crawford.
    state = score_match(MatchRules(5), [single(X, 2), gammon(X, 2)])

    assert state.score == (6, 0)
    assert state.crawford_game is None


def test_score_match_trailer_reaching_n_minus_one_after_crawford_starts_nothing():
    # 5-point: X 4-0 (two 2-cube wins), Crawford game 3 to O (4-1), then O wins 2 x 1 on
    # a 2-cube (4-3) and 1 (4-4): never a second Crawford game.
    state = score_match(
        MatchRules(5), [single(X, 2), single(X, 2), single(O), single(O, 2), single(O)]
    )

    assert state.score == (4, 4)
    assert [game.kind for game in state.games].count(GameKind.CRAWFORD) == 1
    assert state.next_kind == GameKind.POST_CRAWFORD
    assert state.double_match_point is True


def test_score_match_crawford_off_has_no_crawford_game():
    # Crawford off, 5-point: X 2 + 2 = 4-0; game 3 is an ordinary game where the cube
    # may be turned: O wins 1 x 2 on a 2-cube -> 4-2.
    state = score_match(MatchRules(5, crawford=False), [single(X, 2), single(X, 2), single(O, 2)])

    assert state.crawford_game is None
    assert [game.kind for game in state.games] == [GameKind.NORMAL] * 3
    assert state.score == (4, 2)


def test_score_match_crawford_off_still_notes_double_match_point():
    # 3-point, Crawford off: X 2-0 (2-cube), O 2-2 (2-cube): both at N-1 = 2.
    state = score_match(MatchRules(3, crawford=False), [single(X, 2), single(O, 2)])

    assert (state.double_match_point, state.next_kind) == (True, GameKind.NORMAL)


def test_score_match_one_point_match_single_game():
    # 1-point match: one single -> 1-0, over.
    state = score_match(MatchRules(1), [single(O)])

    assert (state.score, state.winner, state.crawford_game) == ((0, 1), O, None)
    assert state.games[0].kind == GameKind.NORMAL
    assert state.games[0].double_match_point is False


def test_score_match_one_point_match_gammon_scores_two():
    # 1-point match: the cube is not used but a gammon still counts 1 x 2 = 2 -> 2-0.
    state = score_match(MatchRules(1), [gammon(X)])

    assert state.score == (2, 0)


def test_score_match_handicap_start_adds_to_starting_score():
    # 7-point match starting 1-0; O wins 2 on a 2-cube -> 1-2; X single -> 2-2.
    state = score_match(MatchRules(7), [single(O, 2), single(X)], start=(1, 0))

    assert state.start == (1, 0)
    assert state.games[0].score_before == (1, 0)
    assert state.score == (2, 2)


def test_score_match_handicap_start_at_n_minus_one_makes_game_one_crawford():
    # 5-point match starting 4-0: X is already at N-1, so game 1 is the Crawford game.
    state = score_match(MatchRules(5), [], start=(4, 0))

    assert (state.next_kind, state.crawford_game) == (GameKind.CRAWFORD, 1)


def test_score_match_resumed_after_crawford_is_post_crawford():
    # A match resumed at 4-3 in a 5-point match after its Crawford game was played.
    state = score_match(MatchRules(5), [single(O, 2)], start=(4, 3), after_crawford=True)

    assert state.games[0].kind == GameKind.POST_CRAWFORD
    assert state.crawford_game is None
    assert state.score == (4, 5)  # 3 + 1 x 2 = 5
    assert state.winner == O


def test_score_match_start_at_double_match_point_is_post_crawford():
    # 3-point starting 2-2: no Crawford game can happen; DMP is next.
    state = score_match(MatchRules(3), [], start=(2, 2))

    assert (state.next_kind, state.double_match_point, state.crawford_game) == (
        GameKind.POST_CRAWFORD,
        True,
        None,
    )


def test_score_match_jacoby_gammon_with_cube_centred_counts_single():
    # House-rule Jacoby: gammon on an unturned cube = 1, gammon on a 2-cube = 2 x 2 = 4.
    state = score_match(MatchRules(9, jacoby=True), [gammon(X), gammon(O, 2)])

    assert [game.points for game in state.games] == [1, 4]
    assert state.score == (1, 4)


def test_score_match_jacoby_does_not_apply_in_crawford_game():
    # 5-point with Jacoby: X 4-0 (two 2-cube wins); the Crawford game cannot have the
    # cube turned, so O's gammon there counts 1 x 2 = 2 -> 4-2.
    state = score_match(MatchRules(5, jacoby=True), [single(X, 2), single(X, 2), gammon(O)])

    assert state.score == (4, 2)


def test_add_game_extends_state_like_score_match():
    # 7-point: 0-0 -> X single 1-0 -> O gammon on 2 = 4 -> 1-4.
    rules = MatchRules(7)
    state = add_game(add_game(score_match(rules, []), single(X)), gammon(O, 2))

    assert state == score_match(rules, [single(X), gammon(O, 2)])
    assert state.score == (1, 4)
    assert state.next_number == 3


def test_match_state_entries_returns_games_in_order():
    games = [single(X), drop(O, 2)]

    state = score_match(MatchRules(7), games)

    assert state.entries == tuple(games)


def test_format_score_writes_x_first():
    assert format_score((7, 4)) == "7-4"
