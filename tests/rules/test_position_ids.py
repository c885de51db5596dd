"""gnubg Position IDs and XGIDs against GNU Backgammon itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from oracles import run_gnubg_python

from tourney.rules import NotationError, Position, Roll, decode_position_id, legal_positions
from tourney.rules.board import Side
from tourney.rules.position_id import Xgid, decode_xgid, encode_position_id, encode_xgid

DATA = Path(__file__).parent.parent / "data" / "rules"


def _gnubg_board_to_position(counts: list[int]) -> Position:
    """gnubg's board: the side not on roll's 25 counts (points 1-24, bar), then the side on
    roll's; checkers not on the board are borne off."""
    opponent, mover = counts[:25], counts[25:]
    as_ours = [(15 - sum(side), *side) for side in (mover, opponent)]
    return Position(*as_ours)


def _recorded() -> list[tuple[str, Position]]:
    rows = []
    for line in (DATA / "gnubg_positions.txt").read_text().splitlines():
        position_id, *counts = line.split()
        rows.append((position_id, _gnubg_board_to_position([int(c) for c in counts])))
    return rows


def test_recorded_gnubg_positions_encode_to_gnubgs_ids() -> None:
    # 2,302 distinct positions gnubg showed while stepping through eight 11-point matches
    # (tests/data/rules/record_gnubg_positions.py says how they were recorded).
    rows = _recorded()
    assert len(rows) >= 1000
    mismatches = [(pid, p) for pid, p in rows if encode_position_id(p) != pid]
    assert mismatches == []


def test_recorded_gnubg_ids_decode_to_gnubgs_boards() -> None:
    rows = _recorded()
    mismatches = [pid for pid, position in rows if decode_position_id(pid) != position]
    assert mismatches == []


def test_opening_position_id_is_gnubgs() -> None:
    assert Position.initial().to_id() == "4HPwATDgc/ABMA"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("nonsense", "14 characters"),
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/AB!A", "14 characters"),
        ("//////////////", "more than 15"),
        # One checker a side on its 6 point (IAAAgAAAAAAAAA) with the key's last bit set.
        ("IAAAgAAAAAAAgA", "bits set past the last point"),
    ],
)
def test_malformed_position_id_is_refused_with_reason(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        decode_position_id(text)


def test_position_id_with_both_sides_on_one_point_is_refused() -> None:
    # gnubg's own example of an illegal board: 15 checkers of the side not on roll on its
    # ace point, which is the side on roll's 24 point where two of its checkers stand.
    with pytest.raises(NotationError, match="not a legal position"):
        decode_position_id("/38AAADgc/ABMA")


def _random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.initial()
        for _ in range(rng.randrange(1, 120)):
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            results = sorted(legal_positions(position, roll), key=encode_position_id)
            position = rng.choice(results)
            if any(position.mover[1:]) is False:
                break
            position = position.turned()
        positions.append(position)
    return positions


_ENCODE_SCRIPT = """
import json, os
import gnubg
for board in json.load(open(os.environ["TOURNEY_PAYLOAD"])):
    print("RESULT " + gnubg.positionid((tuple(board[0]), tuple(board[1]))))
"""


def test_random_positions_encode_like_live_gnubg() -> None:
    positions = _random_positions(1000, seed=11)
    boards = [[list(p.opponent[1:]), list(p.mover[1:])] for p in positions]
    gnubg_ids = run_gnubg_python(_ENCODE_SCRIPT, boards)
    ours = [p.to_id() for p in positions]
    assert ours == gnubg_ids


_XGID_SCRIPT = """
import json, os
import gnubg
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
for xgid in json.load(open(os.environ["TOURNEY_PAYLOAD"])):
    gnubg.command("set xgid " + xgid)
    print("RESULT " + gnubg.positionid())
"""


def test_our_xgids_read_back_by_gnubg_give_the_same_position() -> None:
    positions = _random_positions(200, seed=12)
    states = [
        Xgid(p, turn=Side.X if i % 2 else Side.O, match_length=7, score=(i % 7, (i // 7) % 7))
        for i, p in enumerate(positions)
    ]
    gnubg_ids = run_gnubg_python(_XGID_SCRIPT, [encode_xgid(s) for s in states])
    assert gnubg_ids == [p.to_id() for p in positions]


def test_xgid_round_trips_every_field() -> None:
    text = "XGID=aa--BBBB----dE---d-e----B-:1:-1:-1:00:2:3:1:7:10"
    assert encode_xgid(decode_xgid(text)) == text


def test_xgid_of_opening_is_xgs_standard_form() -> None:
    assert encode_xgid(Xgid(Position.initial())) == (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    )


def test_xgid_top_player_on_turn_is_seen_from_the_top() -> None:
    # The top player (lower case) has one checker on the bar and its 24 point holds one
    # checker (character 1 is the bottom player's ace point = the top player's 24).
    state = decode_xgid("XGID=aa--BBBB----dE---d-e----B-:1:-1:-1:00:2:3:1:7:10")
    assert state.turn is Side.O
    assert state.position.mover[25] == 1
    assert state.position.mover[24] == 1
    assert state.cube_value == 2
    assert state.cube_owner is Side.O


@pytest.mark.parametrize(
    "text",
    ["XGID=", "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
     "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
     "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10"],
)
def test_malformed_xgid_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        decode_xgid(text)
