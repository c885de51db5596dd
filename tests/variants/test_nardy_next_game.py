"""Who opens each game after the first in a long-nardy record: the previous winner by
default (the seeds' rule), in turn where the event says so, or whoever wins the roll."""

from __future__ import annotations

import pytest
from nardy_games import (
    RacedGame,
    checkers_left,
    find_game,
    finished,
    match_record,
    racer,
    swapped,
)

from tourney.rules import Side
from tourney.rules.records import replay


@pytest.fixture(scope="module")
def x_wins() -> RacedGame:
    """X opens and wins; O still has more than four checkers, so no roll could draw."""
    return find_game(racer, lambda o: checkers_left(o) > 4)


def test_the_winner_opens_the_next_game(x_wins: RacedGame) -> None:
    game = finished(x_wins)

    report = replay(match_record([game, game], 7))

    assert report.errors == ()
    assert [g.winner for g in report.games] == [Side.X, Side.X]


def test_the_loser_opening_the_next_game_is_an_error(x_wins: RacedGame) -> None:
    game = finished(x_wins)
    record = match_record([game, swapped(game)], 7)

    report = replay(record)

    second = record.games[1]
    assert [(e.game, e.line, e.message) for e in report.errors] == [(
        2, second.actions[0].line,
        "O opens game 2, but X should: the winner of a game opens the next one")]


def test_alternate_openers_where_the_event_says_so(x_wins: RacedGame) -> None:
    game = finished(x_wins)
    alternate = (("NextGame", "alternate"),)

    in_turn = replay(match_record([game, swapped(game)], 7, tags=alternate))
    same_again = replay(match_record([game, game], 7, tags=alternate))

    assert in_turn.errors == ()
    assert [e.message for e in same_again.errors] == [
        "X opens game 2, but O should: the players take turns to open a game"]


def test_a_roll_for_the_opener_leaves_either_free(x_wins: RacedGame) -> None:
    game = finished(x_wins)

    report = replay(match_record([game, swapped(game)], 7, tags=(("NextGame", "roll"),)))

    assert report.errors == ()
