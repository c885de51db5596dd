"""The cube options of money play in records (DESIGN section 7), each verdict worked by
hand: a beaver leaves the cube with the beaverer, who may redouble later; a beaver can be
passed (losing the value doubled) or answered with a raccoon; nobody doubles before the
opening roll; beavers are refused in matches and where the record turns them off; the
Jacoby rule counts a gammon on a centred cube single, read from a tag or from the score
lines.

Every game opens the same way, with plays legal from the starting position: Anna 3-1
8/5 6/5, Boris 3-1 8/5 6/5, then 4-2 8/4 6/4 each.
"""

from __future__ import annotations

import json
from typing import Any

from tourney.rules.records import MatchRules, validate_record
from tourney.rules.records.model import ErrorKind

OPEN_31 = ("31: 8/5 6/5", [3, 1], [[8, 5, False], [6, 5, False]])
NEXT_42 = ("42: 8/4 6/4", [4, 2], [[8, 4, False], [6, 4, False]])


class Game:
    """A game written action by action, one line each."""

    def __init__(self, number: int, first_line: int, score: list[int] | None = None) -> None:
        self.number = number
        self.first_line = first_line
        self.score = score
        self.actions: list[dict[str, Any]] = []

    @property
    def next_line(self) -> int:
        return self.first_line + 1 + len(self.actions)

    def roll(self, side: str, move: tuple[str, list[int], list[list[Any]]]) -> Game:
        text, dice, play = move
        self.actions.append({"line": self.next_line, "kind": "roll", "side": side,
                             "text": text, "dice": dice, "form": "moved", "play": play})
        return self

    def cube(self, side: str, kind: str, value: int | None = None) -> Game:
        action: dict[str, Any] = {"line": self.next_line, "kind": kind, "side": side,
                                  "text": kind.capitalize()}
        if value is not None:
            action["value"] = value
            action["text"] = f"{kind.capitalize()}s => {value}"
        self.actions.append(action)
        return self

    def wins(self, side: str, points: int, *, resigned_by: str | None = None) -> Game:
        if resigned_by:
            self.actions.append({"line": self.next_line, "kind": "resign", "side": resigned_by,
                                 "text": "Resigns"})
        self.actions.append({"line": self.next_line, "kind": "win", "side": side,
                             "text": f"Wins {points} points", "value": points})
        return self

    def opened(self) -> Game:
        return self.roll("X", OPEN_31).roll("O", OPEN_31)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "line": self.first_line, "score": self.score,
                "actions": self.actions}


def record(*games: Game, length: int = 0, tags: list[list[str]] | None = None) -> bytes:
    return json.dumps({
        "schema": "tourney.match-record",
        "version": 1,
        "match_length": length,
        "players": ["Anna", "Boris"],
        "tags": tags or [],
        "games": [g.to_json() for g in games],
    }).encode()


def test_the_beaverer_keeps_the_cube_and_may_redouble_later() -> None:
    # 2 Anna doubles, Boris beavers to 4 and keeps it; Anna's roll accepts (gnubg writes no
    # Takes); Boris, owning the cube at 4, redoubles to 8; Anna takes and later resigns a
    # single game: Boris wins 8.
    game = (
        Game(1, 1).opened().cube("X", "double", 2).cube("O", "beaver", 4).roll("X", NEXT_42)
        .cube("O", "double", 8).cube("X", "take").roll("O", NEXT_42)
        .wins("O", 8, resigned_by="X")
    )
    report = validate_record("beaver.json", record(game))

    assert [e.message for e in report.errors] == []
    assert report.final_score == (0, 8)


def test_a_passed_beaver_loses_the_value_doubled() -> None:
    game = Game(1, 1).opened().cube("X", "double", 2).cube("O", "beaver", 4).cube("X", "drop")
    report = validate_record("passed.json", record(game.wins("O", 2)))

    assert [e.message for e in report.errors] == []
    assert report.final_score == (0, 2)


def test_a_passed_beaver_written_as_four_points_is_an_error() -> None:
    game = Game(1, 1).opened().cube("X", "double", 2).cube("O", "beaver", 4).cube("X", "drop")
    report = validate_record("passed.json", record(game.wins("O", 4)))

    assert [(e.line, e.kind) for e in report.errors] == [(7, ErrorKind.RESULT)]


def test_a_raccoon_keeps_the_cube_at_eight_with_the_doubler() -> None:
    # Anna doubles, Boris beavers (4), Anna raccoons (8, hers); Boris takes; Anna later
    # redoubles to 16 and Boris drops: Anna wins 8.
    game = (
        Game(1, 1).opened().cube("X", "double", 2).cube("O", "beaver", 4)
        .cube("X", "raccoon", 8).cube("O", "take").roll("X", NEXT_42).roll("O", NEXT_42)
        .cube("X", "double", 16).cube("O", "drop").wins("X", 8)
    )
    report = validate_record("raccoon.json", record(game))

    assert [e.message for e in report.errors] == []
    assert report.final_score == (8, 0)


def test_after_a_raccoon_the_beaverer_may_not_double() -> None:
    game = (
        Game(1, 1).opened().cube("X", "double", 2).cube("O", "beaver", 4)
        .cube("X", "raccoon", 8).roll("X", NEXT_42).cube("O", "double", 16)
    )
    report = validate_record("raccoon.json", record(game.cube("X", "drop").wins("O", 8)))

    assert (8, ErrorKind.ILLEGAL_DOUBLE) in [(e.line, e.kind) for e in report.errors]
    assert any("owned by the other side" in e.message for e in report.errors)


def test_a_raccoon_without_a_beaver_is_refused() -> None:
    game = Game(1, 1).opened().cube("X", "double", 2).cube("O", "raccoon", 4)
    report = validate_record("raccoon.json", record(game.cube("X", "drop").wins("O", 1)))

    assert (6, ErrorKind.CUBE_RESPONSE) in [(e.line, e.kind) for e in report.errors]


def test_nobody_doubles_before_the_opening_roll() -> None:
    game = (
        Game(1, 1).cube("X", "double", 2).cube("O", "take").opened()
        .wins("X", 2, resigned_by="O")
    )
    report = validate_record("early.json", record(game))

    assert [(e.line, e.kind) for e in report.errors] == [(2, ErrorKind.ILLEGAL_DOUBLE)]
    assert "before the first roll" in report.errors[0].message


def test_beavers_are_refused_in_a_match_and_where_the_record_turns_them_off() -> None:
    game = Game(1, 1).opened().cube("X", "double", 2).cube("O", "beaver", 4).cube("X", "drop")
    in_match = validate_record("match.json", record(game.wins("O", 2), length=5))
    turned_off = validate_record(
        "off.json", record(game, tags=[["Beaver", "Off"]])
    )

    assert [(e.line, e.kind) for e in in_match.errors] == [(5, ErrorKind.ILLEGAL_DOUBLE)]
    assert [(e.line, e.kind) for e in turned_off.errors] == [(5, ErrorKind.ILLEGAL_DOUBLE)]
    assert 'Beaver "Off"' in turned_off.errors[0].message


def _gammon_then_single(second_score: list[int] | None) -> tuple[Game, Game]:
    # Game 1: Boris resigns a gammon on a centred cube (2 points as written). Game 2: Boris
    # resigns a single game.
    first = Game(1, 1).opened().wins("X", 2, resigned_by="O")
    second = Game(2, 10, score=second_score).opened().wins("X", 1, resigned_by="O")
    return first, second


def test_the_jacoby_tag_counts_a_gammon_on_a_centred_cube_single() -> None:
    on = validate_record("on.json", record(*_gammon_then_single(None), tags=[["Jacoby", "On"]]))
    off = validate_record("off.json", record(*_gammon_then_single(None), tags=[["Jacoby", "Off"]]))

    assert on.ok and on.final_score == (2, 0) and on.jacoby == "on"
    assert off.ok and off.final_score == (3, 0) and off.jacoby == "off"


def test_an_untagged_session_follows_its_score_lines_and_says_so() -> None:
    jacoby = validate_record("s.json", record(*_gammon_then_single([1, 0])))
    plain = validate_record("s.json", record(*_gammon_then_single([2, 0])))

    assert jacoby.ok and jacoby.final_score == (2, 0)
    assert jacoby.jacoby == "on (from the score lines)"
    assert plain.ok and plain.final_score == (3, 0)
    assert plain.jacoby == "off (from the score lines)"


def test_a_score_line_neither_reading_gives_is_an_error() -> None:
    report = validate_record("s.json", record(*_gammon_then_single([5, 0])))

    assert [e.kind for e in report.errors] == [ErrorKind.SCORE_LINE]


def test_automatic_doubles_let_the_first_double_start_from_a_turned_centred_cube() -> None:
    # One automatic double (equal opening dice) left the cube at 2 in the middle: Anna's
    # first double turns it to 4; Boris takes and later resigns a single game: 4 points.
    game = (
        Game(1, 1).opened().cube("X", "double", 4).cube("O", "take").roll("X", NEXT_42)
        .wins("X", 4, resigned_by="O")
    )
    allowed = validate_record("auto.json", record(game), rules=MatchRules(automatic_doubles=1))
    plain = validate_record("auto.json", record(game))
    beyond = validate_record(
        "auto.json",
        record(
            Game(1, 1).opened().cube("X", "double", 8).cube("O", "take").roll("X", NEXT_42)
            .wins("X", 8, resigned_by="O")
        ),
        rules=MatchRules(automatic_doubles=1),
    )

    assert [e.message for e in allowed.errors] == [] and allowed.final_score == (4, 0)
    assert (4, ErrorKind.CUBE_VALUE) in [(e.line, e.kind) for e in plain.errors]
    assert (4, ErrorKind.CUBE_VALUE) in [(e.line, e.kind) for e in beyond.errors]
