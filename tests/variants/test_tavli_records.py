"""JSON records of tavli matches: each game is replayed by its turn's variant (Portes,
then Plakoto, then Fevga), so a play legal in one game can be refused in the next.

The games below end by resignation after one roll; the positions were worked by hand:
Portes starts as backgammon (8/5 6/5 makes the 5 point), Plakoto with all fifteen
checkers on the 24 point (24/21 24/23 moves two of them; there is no checker on 8)."""

from __future__ import annotations

import json
from typing import Any

from tourney.rules.records import MatchRules, validate_record


def _game(number: int, play_text: str, play: list[list[Any]], first_line: int) -> dict[str, Any]:
    """Game ``number``: Ann rolls 3-1 and plays, Bob resigns a single game."""
    return {
        "number": number,
        "line": first_line,
        "score": None,
        "actions": [
            {"line": first_line + 1, "kind": "roll", "side": "X", "text": f"31: {play_text}",
             "dice": [3, 1], "form": "moved", "play": play},
            {"line": first_line + 2, "kind": "resign", "side": "O", "text": "Resigns"},
            {"line": first_line + 3, "kind": "win", "side": "X", "text": "Wins 1 point",
             "value": 1},
        ],
    }


def _record(second_play_text: str, second_play: list[list[Any]], **extra: Any) -> bytes:
    document = {
        "schema": "tourney.match-record",
        "version": 1,
        "match_length": 2,
        "players": ["Ann", "Bob"],
        "games": [
            _game(1, "8/5 6/5", [[8, 5, False], [6, 5, False]], 1),
            _game(2, second_play_text, second_play, 5),
        ],
        **extra,
    }
    return json.dumps(document).encode()


PLAKOTO_OPENING = ("24/21 24/23", [[24, 21, False], [24, 23, False]])
PORTES_OPENING = ("8/5 6/5", [[8, 5, False], [6, 5, False]])


def test_a_tavli_record_plays_its_second_game_from_plakotos_start() -> None:
    report = validate_record("tavli.json", _record(*PLAKOTO_OPENING, match_form="tavli"))

    assert [e.message for e in report.errors] == []
    assert report.final_score == (2, 0) and report.winner_name == "Ann"


def test_a_portes_play_in_the_plakoto_game_is_refused_at_its_game_and_line() -> None:
    report = validate_record("tavli.json", _record(*PORTES_OPENING, match_form="tavli"))

    assert [(e.game, e.line) for e in report.errors] == [(2, 6)]
    assert "8/5" in report.errors[0].message


def test_the_event_decides_the_match_form_when_the_record_names_none() -> None:
    as_tavli = validate_record("m.json", _record(*PORTES_OPENING),
                               rules=MatchRules(match_form="tavli"))
    as_portes = validate_record("m.json", _record(*PORTES_OPENING, variant="portes"))

    assert [e.game for e in as_tavli.errors] == [2]
    assert as_portes.errors == ()


def test_an_unknown_match_form_is_a_header_error() -> None:
    report = validate_record("m.json", _record(*PLAKOTO_OPENING, match_form="chouette"))

    assert report.errors[0].message.startswith("Unknown match form 'chouette'")
    assert report.errors[0].message.endswith("; no game is checked")
