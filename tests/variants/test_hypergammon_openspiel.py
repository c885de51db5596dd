"""Hypergammon legal plays against OpenSpiel's backgammon with ``hyper_backgammon``."""

from __future__ import annotations

import importlib.util
import random

from oracles import require

from tourney.rules import Position, legal_positions

require(importlib.util.find_spec("pyspiel") is not None,
        "OpenSpiel (pip install open-spiel) is missing")

import pyspiel  # noqa: E402
from openspiel_oracle import checkers_of, results_after_roll, roll_of  # noqa: E402

HYPER = pyspiel.load_game("backgammon(hyper_backgammon=true)")


def test_hypergammon_plays_agree_with_openspiel_on_1500_turns() -> None:
    rng = random.Random(5)
    compared, found = 0, []
    while compared < 1500:
        state = HYPER.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))  # the opening roll
        while not state.is_terminal() and compared < 1500:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            mover = state.current_player()
            position = Position(*checkers_of(state, mover))
            ours = frozenset((p.mover, p.opponent)
                             for p in legal_positions(position, roll_of(state)))
            if ours != results_after_roll(state):
                found.append(f"{position.to_id()} {roll_of(state)}")
            compared += 1
            # Play one of OpenSpiel's results by applying random actions to the turn end.
            while not state.is_terminal() and not state.is_chance_node() and \
                    state.current_player() == mover:
                state.apply_action(rng.choice(state.legal_actions()))
    assert found == []
