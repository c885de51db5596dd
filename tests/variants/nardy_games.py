"""Long-nardy games raced to the end by simple policies, with seeded dice, for tests that
need a game's last rolls: the tests choose those rolls and reason about the board."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from tourney.rules import Roll, Side
from tourney.rules.moves import Play
from tourney.rules.nardy import NardyPosition, legal_nardy_play_map, nardy_winning_level
from tourney.rules.records import Action, ActionKind, GameRecord, MatchRecord, PlayForm

Policy = Callable[[dict[NardyPosition, Play]], NardyPosition]


def racer(choices: dict[NardyPosition, Play]) -> NardyPosition:
    """Bear off as much as possible, then run: the fewest pips left."""
    return min(choices, key=lambda after: (-after.mover[0], after.pips()[0], after.to_id()))


def keeper(choices: dict[NardyPosition, Play]) -> NardyPosition:
    """Run home but never bear off (long nardy lets a player move inside home instead)."""
    return min(choices, key=lambda after: (after.mover[0], after.pips()[0], after.to_id()))


@dataclass
class RacedGame:
    """A game raced until the opener (X) has borne off every checker."""

    actions: list[Action]
    second_player: NardyPosition
    """O's position, O on roll, when X has just finished."""


def race(seed: int, second_policy: Policy) -> RacedGame:
    dice = random.Random(seed)
    board = NardyPosition.initial()
    actions: list[Action] = []
    side = Side.X
    while True:
        roll = Roll(dice.randint(1, 6), dice.randint(1, 6))
        choices = legal_nardy_play_map(board, roll)
        after = (racer if side is Side.X else second_policy)(choices)
        actions.append(roll_action(len(actions) + 2, side, roll, choices[after]))
        if side is Side.X and nardy_winning_level(after) is not None:
            return RacedGame(actions, after.turned())
        board = after.turned()
        side = side.opposite


def roll_action(line: int, side: Side, roll: Roll, play: Play) -> Action:
    form = PlayForm.MOVED if play.moves else PlayForm.DANCE
    return Action(line, ActionKind.ROLL, side, f"{roll.first}{roll.second}: {play}",
                  (roll.first, roll.second), form, play)


def win(line: int, side: Side, points: int) -> Action:
    return Action(line, ActionKind.WIN, side, f"Wins {points} point", value=points)


def record(actions: list[Action]) -> MatchRecord:
    return MatchRecord(5, ("X", "O"), (GameRecord(1, 1, (0, 0), 1, None, tuple(actions)),))


def swapped(actions: list[Action]) -> list[Action]:
    """The same game with the players' places exchanged (O opens)."""
    return [replace(a, side=None if a.side is None else a.side.opposite) for a in actions]


def bears_everything_off(position: NardyPosition, roll: Roll) -> NardyPosition | None:
    for after in legal_nardy_play_map(position, roll):
        if after.mover[0] == 15:
            return after
    return None


def find_game(second_policy: Policy, wanted: Callable[[NardyPosition], bool]) -> RacedGame:
    for seed in range(200):
        game = race(seed, second_policy)
        if wanted(game.second_player):
            return game
    pytest.fail("no seed gives the position the test needs")


def checkers_left(position: NardyPosition) -> int:
    return 15 - position.mover[0]


def finished(game: RacedGame) -> list[Action]:
    """The game with the opener's Wins line (oin 1, mars 2) and no last roll."""
    level = nardy_winning_level(game.second_player.turned())
    assert level is not None
    return [*game.actions, win(0, Side.X, min(int(level), 2))]


def match_record(games: list[list[Action]], length: int, *,
                 tags: tuple[tuple[str, str], ...] = ()) -> MatchRecord:
    """A long-nardy match of ``games``, each action on a line of its own."""
    records, line = [], 1
    for number, actions in enumerate(games, start=1):
        numbered = [replace(a, line=line + 1 + i) for i, a in enumerate(actions)]
        records.append(GameRecord(number, line, actions=tuple(numbered)))
        line += len(actions) + 1
    return MatchRecord(length, ("X", "O"), tuple(records), tags=tags, variant="long-nardy")
