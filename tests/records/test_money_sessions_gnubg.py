"""GNU Backgammon's own money sessions (``tests/data/money_sessions``, made by its
``make_sessions.py``): half played with the Jacoby rule, half without, none tagged, as
gnubg writes them. Each must validate and total exactly what gnubg printed after its last
game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tourney.rules.records import validate_mat

FOLDER = Path(__file__).resolve().parent.parent / "data" / "money_sessions"
SESSIONS = json.loads((FOLDER / "sessions.json").read_text())


@pytest.mark.parametrize("session", SESSIONS, ids=[s["file"] for s in SESSIONS])
def test_a_gnubg_money_session_totals_as_gnubg_does(session: dict[str, object]) -> None:
    report = validate_mat((FOLDER / str(session["file"])).read_bytes())

    assert [str(e) for e in report.errors] == []
    assert list(report.final_score) == session["totals"]
    assert report.jacoby in ("", f"{'on' if session['jacoby'] else 'off'} (from the score lines)")


def test_the_sessions_include_gammons_on_a_centred_cube_under_both_readings() -> None:
    """The fixtures exercise the rule: some session of each kind has a game it changes."""
    readings = set()
    for session in SESSIONS:
        report = validate_mat((FOLDER / str(session["file"])).read_bytes())
        if report.jacoby:
            readings.add(report.jacoby)
    assert readings == {"on (from the score lines)", "off (from the score lines)"}
