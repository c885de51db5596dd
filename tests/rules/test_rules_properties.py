"""Properties every position and play must have, over positions from random legal play."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.rules import (
    CHECKERS,
    Position,
    Roll,
    Side,
    check_play,
    decode_position_id,
)
from tourney.rules.moves import legal_play_map, max_dice_playable
from tourney.rules.position_id import Xgid, decode_xgid, encode_xgid

rolls = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda dice: Roll(*dice))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position reached from the opening by 0-150 random legal plays."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    position = Position.initial()
    for _ in range(draw(st.integers(0, 150))):
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        results = sorted(legal_play_map(position, roll), key=lambda p: p.to_id())
        position = rng.choice(results)
        if not any(position.mover[1:]):
            break
        position = position.turned()
    return position


@settings(max_examples=150, deadline=None)
@given(positions(), rolls)
def test_every_result_keeps_fifteen_checkers_a_side(position: Position, roll: Roll) -> None:
    for result in legal_play_map(position, roll):
        assert sum(result.mover) == CHECKERS
        assert sum(result.opponent) == CHECKERS


@settings(max_examples=150, deadline=None)
@given(positions(), rolls)
def test_pip_count_drops_by_the_pips_the_play_uses(position: Position, roll: Roll) -> None:
    before, _ = position.pips()
    for result, play in legal_play_map(position, roll).items():
        used = sum(move.origin - move.destination for move in play.moves)
        assert result.pips()[0] == before - used


@settings(max_examples=150, deadline=None)
@given(positions(), rolls)
def test_every_legal_play_uses_the_same_number_of_dice(position: Position, roll: Roll) -> None:
    plays = legal_play_map(position, roll).values()
    most = max_dice_playable(position, roll)
    assert {len(play.moves) for play in plays} == {most}


@settings(max_examples=150, deadline=None)
@given(positions(), rolls)
def test_each_generated_play_passes_check_play(position: Position, roll: Roll) -> None:
    for result, play in legal_play_map(position, roll).items():
        assert check_play(position, roll, play) == result


@settings(max_examples=200, deadline=None)
@given(positions())
def test_turning_twice_is_the_identity(position: Position) -> None:
    assert position.turned().turned() == position


@settings(max_examples=200, deadline=None)
@given(positions())
def test_position_id_round_trips(position: Position) -> None:
    assert decode_position_id(position.to_id()) == position
    assert decode_position_id(position.turned().to_id()) == position.turned()


@settings(max_examples=200, deadline=None)
@given(positions(), st.booleans(), st.integers(0, 6), st.sampled_from(["00", "31", "66", "D"]))
def test_xgid_round_trips(position: Position, x_on_turn: bool, cube: int, dice: str) -> None:
    state = Xgid(
        position,
        turn=Side.X if x_on_turn else Side.O,
        cube_value=1 << cube,
        cube_owner=None if cube == 0 else Side.O,
        dice=None if dice in ("00", "D") else (int(dice[0]), int(dice[1])),
        cube_action="D" if dice == "D" else "",
        score=(3, 1),
        match_length=7,
    )
    assert decode_xgid(encode_xgid(state)) == state
