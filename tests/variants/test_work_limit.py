"""A record whose turn has millions of possible plays is refused at that turn, not
checked for minutes: Gioul's doublets climb to 6-6 from the first turn, and a 2-2 from the
start reaches some 600,000 distinct positions (VARIANTS.md 13)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tourney.rules.dice import Roll
from tourney.rules.errors import IllegalPlayError, TooManyPlaysError
from tourney.rules.moves import parse_play
from tourney.rules.records import validate_record
from tourney.rules.records.model import ErrorKind
from tourney.rules.variants import DEFAULT_OPTIONS, variant_named
from tourney.rules.work_limit import spend, work_limit


def _roll(
    line: int, side: str, dice: list[int], text: str, play: list[list[Any]]
) -> dict[str, Any]:
    return {
        "line": line,
        "kind": "roll",
        "side": side,
        "text": text,
        "dice": dice,
        "form": "moved",
        "play": play,
    }


def _gioul_record() -> bytes:
    """Ann opens 3-1 (24/21 24/23); Bob rolls 2-2, his first turn: a cascade 2-2 to 6-6."""
    cascade = [[24, 22, False], [24, 22, False], [22, 20, False], [22, 20, False]]
    document = {
        "schema": "tourney.match-record",
        "version": 1,
        "match_length": 1,
        "variant": "gioul",
        "players": ["Ann", "Bob"],
        "games": [
            {
                "number": 1,
                "line": 1,
                "score": None,
                "actions": [
                    _roll(2, "X", [3, 1], "31: 24/21 24/23", [[24, 21, False], [24, 23, False]]),
                    _roll(3, "O", [2, 2], "22: 24/22(2) 22/20(2)", cascade),
                    {"line": 4, "kind": "win", "side": "X", "text": "Wins 1 point", "value": 1},
                ],
            }
        ],
    }
    return json.dumps(document).encode()


def test_a_gioul_cascade_is_refused_at_its_line_as_too_many_plays_to_check() -> None:
    report = validate_record("gioul.json", _gioul_record())

    limited = [e for e in report.errors if e.kind is ErrorKind.WORK_LIMIT]
    assert [(e.game, e.line) for e in limited] == [(1, 3)]
    assert "too many to check" in limited[0].message
    assert "250,000 positions" in limited[0].message
    assert not report.ok


def test_limits_nest_and_the_tighter_one_refuses() -> None:
    with work_limit(100, scope="the record"):
        with work_limit(10, scope="one turn"):
            spend(10)
            with pytest.raises(TooManyPlaysError, match="one turn may explore at most 10"):
                spend(1)
        with work_limit(1_000, scope="the next turn"):
            spend(80)
            with pytest.raises(TooManyPlaysError, match="the record may explore at most 100"):
                spend(20)


def test_without_a_limit_nothing_is_counted() -> None:
    spend(10**12)


def test_a_play_from_an_empty_point_is_named_so_before_any_search() -> None:
    # Plakoto starts with all fifteen on the 24 point: there is nothing on the 13 point.
    # The Gioul cascade's millions of plays are not searched for such a play either.
    for name, dice in (("plakoto", (3, 1)), ("gioul", (2, 2))):
        variant = variant_named(name)
        with work_limit(1_000, scope="this check"), pytest.raises(
            IllegalPlayError, match="there is no checker on the 13 point"
        ):
            variant.check_play(variant.initial(), Roll(*dice), parse_play("13/11 13/11"),
                               DEFAULT_OPTIONS)
