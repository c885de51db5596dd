"""Condoned plays (VARIANTS.md 16.7): under tournament rules that let the opponent accept
a wrong move, an illegal play stands once the opponent rolls or doubles after it. Where
the event allows it the validator reports it as a warning and goes on from the position
the play reached as written; otherwise, or when the opponent did not play on, it is an
error at its line.

The games start from the standard position: Anna 3-1 13/8 moves five pips with four
(illegal, but every checker can be moved as written); Boris 4-2 8/4 6/4 is legal.
"""

from __future__ import annotations

import json
from typing import Any

from tourney.rules.records import MatchRules, validate_record
from tourney.rules.records.model import ErrorKind

WRONG = {"line": 2, "kind": "roll", "side": "X", "text": "31: 13/8", "dice": [3, 1],
         "form": "moved", "play": [[13, 8, False]]}
FROM_NOWHERE = {"line": 2, "kind": "roll", "side": "X", "text": "31: 20/17", "dice": [3, 1],
                "form": "moved", "play": [[20, 17, False]]}
BORIS_42 = {"line": 3, "kind": "roll", "side": "O", "text": "42: 8/4 6/4", "dice": [4, 2],
            "form": "moved", "play": [[8, 4, False], [6, 4, False]]}


def _record(*actions: dict[str, Any]) -> bytes:
    lines = [dict(a, line=n) for n, a in enumerate(actions, start=2)]
    return json.dumps({
        "schema": "tourney.match-record", "version": 1, "match_length": 1,
        "players": ["Anna", "Boris"],
        "games": [{"number": 1, "line": 1, "score": None, "actions": lines}],
    }).encode()


ANNA_RESIGNS_THEN = (
    {"kind": "resign", "side": "X", "text": "Resigns"},
    {"kind": "win", "side": "O", "text": "Wins 1 point", "value": 1},
)
CONDONED = MatchRules(allow_condoned=True)


def test_a_wrong_play_the_opponent_rolled_after_stands_as_a_warning() -> None:
    report = validate_record("c.json", _record(WRONG, BORIS_42, *ANNA_RESIGNS_THEN), rules=CONDONED)

    assert report.ok and report.final_score == (0, 1)
    (warning,) = [w for w in report.warnings if "condoned" in w.message]
    assert warning.line == 2 and "13/8" in warning.message and "Boris played on" in warning.message


def test_without_the_option_the_same_play_is_an_error_at_its_line() -> None:
    report = validate_record("c.json", _record(WRONG, BORIS_42, *ANNA_RESIGNS_THEN))

    assert [(e.line, e.kind) for e in report.errors] == [(2, ErrorKind.ILLEGAL_PLAY)]


def test_the_game_goes_on_from_where_the_play_was_moved() -> None:
    # After 13/8 Anna has four checkers on her 8 point (three at the start): 6-6 8/2(4)
    # moves all four, which only the position the condoned play reached allows.
    anna_66 = {"kind": "roll", "side": "X", "text": "66: 8/2(4)", "dice": [6, 6],
               "form": "moved", "play": [[8, 2, False]] * 4}
    moved_on = _record(WRONG, BORIS_42, anna_66, *ANNA_RESIGNS_THEN)
    report = validate_record("c.json", moved_on, rules=CONDONED)
    unmoved = validate_record(
        "c.json",
        _record(dict(WRONG, text="31: 8/5 6/5", play=[[8, 5, False], [6, 5, False]]),
                BORIS_42, anna_66, *ANNA_RESIGNS_THEN),
    )

    assert report.ok, [str(e) for e in report.errors]
    assert [(e.line, e.kind) for e in unmoved.errors] == [(4, ErrorKind.ILLEGAL_PLAY)]


def test_a_wrong_play_nobody_played_on_from_is_not_condoned() -> None:
    # Boris resigns straight after it: he never accepted it by rolling or doubling.
    record = _record(
        WRONG,
        {"kind": "resign", "side": "O", "text": "Resigns"},
        {"kind": "win", "side": "X", "text": "Wins 1 point", "value": 1},
    )
    report = validate_record("c.json", record, rules=CONDONED)

    assert [(e.line, e.kind) for e in report.errors] == [(2, ErrorKind.ILLEGAL_PLAY)]
    assert "did not play on" in report.errors[0].message


def test_a_play_the_board_cannot_show_stays_an_error() -> None:
    # Anna has no checker on her 20 point: there is nothing to move, condoned or not.
    report = validate_record(
        "c.json", _record(FROM_NOWHERE, BORIS_42, *ANNA_RESIGNS_THEN), rules=CONDONED
    )

    assert [(e.line, e.kind) for e in report.errors] == [(2, ErrorKind.ILLEGAL_PLAY)]
