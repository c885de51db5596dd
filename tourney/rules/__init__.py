"""The game of backgammon: positions, dice, legal plays, the cube, game results.

This package imports nothing else of tourney's. Its public names are re-exported here.
"""

from tourney.rules.board import BAR, CHECKERS, OFF, Position, Side
from tourney.rules.cube import CubeState
from tourney.rules.dice import ALL_ROLLS, Roll
from tourney.rules.errors import (
    CubeActionError,
    IllegalPlayError,
    NotationError,
    PlayRule,
    RulesError,
)
from tourney.rules.game import GameEnd, Level, game_points, winning_level
from tourney.rules.moves import (
    Move,
    Play,
    apply_play,
    check_play,
    format_play,
    legal_plays,
    legal_positions,
    parse_play,
)
from tourney.rules.position_id import decode_position_id, encode_position_id

__all__ = [
    "ALL_ROLLS",
    "BAR",
    "CHECKERS",
    "OFF",
    "CubeActionError",
    "CubeState",
    "GameEnd",
    "IllegalPlayError",
    "Level",
    "Move",
    "NotationError",
    "Play",
    "PlayRule",
    "Position",
    "Roll",
    "RulesError",
    "Side",
    "apply_play",
    "check_play",
    "decode_position_id",
    "encode_position_id",
    "format_play",
    "game_points",
    "legal_plays",
    "legal_positions",
    "parse_play",
    "winning_level",
]
