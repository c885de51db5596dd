"""Long nardy's last-roll rule in the replay: the second player's final roll draws the game
by bearing off every remaining checker, and can turn a mars into an oin.

The games are raced to the end by a simple policy with seeded dice; each test picks the
final roll itself and states the expected result from the rule and the board it finds
(how many checkers the second player has left, and where), never from the replay.
"""

from __future__ import annotations

import pytest
from nardy_games import (
    RacedGame,
    bears_everything_off,
    checkers_left,
    find_game,
    keeper,
    racer,
    record,
    roll_action,
    win,
)

from tourney.rules import GameEnd, Level, Roll, Side
from tourney.rules.nardy import legal_nardy_play_map
from tourney.rules.records import MatchRecord, MatchRules, replay
from tourney.rules.variants import VariantOptions

LAST_ROLL = MatchRules(variant="long-nardy", options=VariantOptions(last_roll_draw=True))
NO_LAST_ROLL = MatchRules(variant="long-nardy")

@pytest.fixture(scope="module")
def close_race() -> RacedGame:
    """X finishes while O has at most four checkers left, all able to come off with 6-6."""
    return find_game(racer, lambda o: 0 < checkers_left(o) <= 4
                     and bears_everything_off(o, Roll(6, 6)) is not None
                     and bears_everything_off(o, Roll(2, 1)) is None)


def test_last_roll_that_bears_everything_off_draws(close_race: RacedGame) -> None:
    final = bears_everything_off(close_race.second_player, Roll(6, 6))
    assert final is not None
    play = legal_nardy_play_map(close_race.second_player, Roll(6, 6))[final]
    actions = [*close_race.actions, roll_action(len(close_race.actions) + 2, Side.O,
                                                Roll(6, 6), play)]

    report = replay(record(actions), LAST_ROLL)

    assert report.errors == ()
    game = report.games[0]
    assert (game.winner, game.end, game.points) == (None, GameEnd.DRAWN, 0)
    assert report.final_score == (0, 0)


def test_last_roll_that_falls_short_leaves_the_opener_an_oin(close_race: RacedGame) -> None:
    # O has borne off checkers already, so X's win is an oin (1 point) either way.
    o = close_race.second_player
    choices = legal_nardy_play_map(o, Roll(2, 1))
    final = min(choices, key=lambda after: -after.mover[0])
    line = len(close_race.actions) + 2
    actions = [*close_race.actions, roll_action(line, Side.O, Roll(2, 1), choices[final]),
               win(line + 1, Side.X, 1)]

    report = replay(record(actions), LAST_ROLL)

    assert report.errors == ()
    game = report.games[0]
    assert (game.winner, game.end, game.level, game.points) == (Side.X, GameEnd.PLAYED,
                                                                 Level.SINGLE, 1)


def test_a_wins_line_after_a_drawing_last_roll_is_an_error(close_race: RacedGame) -> None:
    final = bears_everything_off(close_race.second_player, Roll(6, 6))
    assert final is not None
    play = legal_nardy_play_map(close_race.second_player, Roll(6, 6))[final]
    line = len(close_race.actions) + 2
    actions = [*close_race.actions, roll_action(line, Side.O, Roll(6, 6), play),
               win(line + 1, Side.X, 1)]

    report = replay(record(actions), LAST_ROLL)

    assert [(e.line, e.message) for e in report.errors] == [(
        line + 1, "the Wins line credits X, but the game is drawn (O bore off every checker "
        "with the last roll)")]


def test_a_wins_line_that_skips_a_last_roll_that_could_draw_is_an_error(
        close_race: RacedGame) -> None:
    line = len(close_race.actions) + 2
    actions = [*close_race.actions, win(line, Side.X, 1)]

    report = replay(record(actions), LAST_ROLL)

    assert [(e.line, e.message) for e in report.errors] == [(
        line, "the Wins line comes before O's last roll, which could still bear off every "
        "checker and draw the game")]


def test_without_the_option_the_opener_wins_at_once(close_race: RacedGame) -> None:
    line = len(close_race.actions) + 2
    actions = [*close_race.actions, win(line, Side.X, 1)]

    report = replay(record(actions), NO_LAST_ROLL)

    assert report.errors == ()
    assert (report.games[0].winner, report.games[0].points) == (Side.X, 1)


@pytest.fixture(scope="module")
def mars_race() -> RacedGame:
    """X finishes while O has all fifteen checkers home and none borne off."""
    return find_game(keeper, lambda o: o.mover[0] == 0 and sum(o.mover[1:7]) == 15)


def test_last_roll_that_bears_one_checker_off_turns_a_mars_into_an_oin(
        mars_race: RacedGame) -> None:
    o = mars_race.second_player
    roll = Roll(6, 5)
    choices = legal_nardy_play_map(o, roll)
    final = max(choices, key=lambda after: after.mover[0])
    # All fifteen are home, so a six or a five comes off from the highest point at least.
    assert final.mover[0] >= 1
    line = len(mars_race.actions) + 2
    with_oin = [*mars_race.actions, roll_action(line, Side.O, roll, choices[final]),
                win(line + 1, Side.X, 1)]

    report = replay(record(with_oin), LAST_ROLL)

    assert report.errors == ()
    assert (report.games[0].level, report.games[0].points) == (Level.SINGLE, 1)


def test_a_mars_needs_no_last_roll_when_nothing_can_draw(mars_race: RacedGame) -> None:
    # Fifteen checkers left: no roll bears them all off, so the Wins line may follow at
    # once, and the win is a mars (2 points).
    line = len(mars_race.actions) + 2
    actions = [*mars_race.actions, win(line, Side.X, 2)]

    report = replay(record(actions), LAST_ROLL)

    assert report.errors == ()
    assert (report.games[0].level, report.games[0].points) == (Level.GAMMON, 2)


def test_header_tag_turns_the_last_roll_rule_on(close_race: RacedGame) -> None:
    final = bears_everything_off(close_race.second_player, Roll(6, 6))
    assert final is not None
    play = legal_nardy_play_map(close_race.second_player, Roll(6, 6))[final]
    actions = [*close_race.actions, roll_action(len(close_race.actions) + 2, Side.O,
                                                Roll(6, 6), play)]
    base = record(actions)
    tagged = MatchRecord(base.match_length, base.players, base.games,
                         tags=(("LastRollDraw", "On"),), variant="long-nardy")

    report = replay(tagged)

    assert report.games[0].end is GameEnd.DRAWN

