"""OpenSpiel's backgammon as an independent oracle for legal plays.

OpenSpiel numbers the board absolutely: player 0 (X) moves from index 0 towards 23, so
X's own point p is index 24 - p; player 1 (O) moves the other way, its point p is index
p - 1. A doublet is two turns of two moves for the same player; the second half's
positions are the results of the roll. Bar and borne-off counts are read from the
state's text form, which is the only place the Python binding exposes them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pyspiel

from tourney.rules import Position, Roll

GAME = pyspiel.load_game("backgammon")
_BAR = re.compile(r"^Bar:[ \t]*(\S*)", re.MULTILINE)
_SCORES = re.compile(r"Scores, X: (\d+), O: (\d+)")
_DICE = re.compile(r"^Dice: (\d)(\d)", re.MULTILINE)


_INDEX = {0: [24 - point for point in range(1, 25)], 1: [point - 1 for point in range(1, 25)]}


def _side(state: pyspiel.State, player: int, text: str) -> tuple[int, ...]:
    board = state.board
    counts = [0, *(board(player, index) for index in _INDEX[player]), 0]
    bar = _BAR.search(text)
    counts[25] = (bar.group(1) if bar else "").count("x" if player == 0 else "o")
    scores = _SCORES.search(text)
    assert scores is not None
    counts[0] = int(scores.group(1 + player))
    return tuple(counts)


Checkers = tuple[tuple[int, ...], tuple[int, ...]]


def checkers_of(state: pyspiel.State, mover: int) -> Checkers:
    """The state's checkers as (mover, opponent) counts in our layout."""
    text = str(state)
    return (_side(state, mover, text), _side(state, 1 - mover, text))


def position_of(state: pyspiel.State, mover: int) -> Position:
    """The state's checkers as our Position, ``mover`` on roll."""
    return Position(*checkers_of(state, mover))


def roll_of(state: pyspiel.State) -> Roll:
    """The dice of a state just after the chance node."""
    match = _DICE.search(str(state))
    assert match is not None
    return Roll(int(match.group(1)), int(match.group(2)))


def results_after_roll(rolled: pyspiel.State) -> frozenset[Checkers]:
    """Every position OpenSpiel lets the player on roll reach with the dice rolled."""
    mover = rolled.current_player()
    results = set()
    for action in rolled.legal_actions():
        half = rolled.clone()
        half.apply_action(action)
        if not half.is_terminal() and not half.is_chance_node() and half.current_player() == mover:
            # The second half of a doublet.
            for second in half.legal_actions():
                full = half.clone()
                full.apply_action(second)
                results.add(checkers_of(full, mover))
        else:
            results.add(checkers_of(half, mover))
    return frozenset(results)


@dataclass(frozen=True)
class Sample:
    """A position before the dice, with OpenSpiel's state for it and who is to roll."""

    position: Position
    state: pyspiel.State
    mover: int


def random_samples(seed: int, count: int) -> Iterator[Sample]:
    """Positions reached by random play, each at the chance node before a turn's dice."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        state = GAME.new_initial_state()
        # The opening roll decides the first mover; skip to the first real turn.
        state.apply_action(rng.choice(state.legal_actions()))
        while not state.is_terminal() and produced < count:
            if state.is_chance_node():
                outcomes = [action for action, _ in state.chance_outcomes()]
                after = state.clone()
                after.apply_action(outcomes[0])
                mover = after.current_player()
                yield Sample(position_of(state, mover), state.clone(), mover)
                produced += 1
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def rolls_from(
    sample: Sample, rng: random.Random | None = None, count: int = 21
) -> Iterator[tuple[Roll, pyspiel.State]]:
    """The 21 rolls from a sample (or ``count`` of them chosen with ``rng``), each with
    OpenSpiel's state after rolling it.

    OpenSpiel lists 3-1 and 1-3 as separate outcomes; they are the same roll."""
    seen = set()
    outcomes = [action for action, _ in sample.state.chance_outcomes()]
    if rng is not None:
        rng.shuffle(outcomes)
    for action in outcomes:
        if len(seen) == count:
            return
        rolled = sample.state.clone()
        rolled.apply_action(action)
        roll = roll_of(rolled)
        if (roll.high, roll.low) not in seen:
            seen.add((roll.high, roll.low))
            yield roll, rolled
