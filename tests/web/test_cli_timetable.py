"""`tourney timetable EVENT`: the planner's estimates for the demo's undrawn club night."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tourney.cli import cli


def test_timetable_of_the_demo_club_night_before_its_draw(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    """Thursday Club Night: eight players, main 5, 5, final 7; consolation to 3 of the
    first round's four losers. At 19:00 with 8 minutes a point: 40 + 40 + 56 minutes for
    the main draw (ends 21:16), the consolation 19:40-20:04-20:28."""
    env = {
        "TOURNEY_DATABASE_URL": empty_database_url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
    }
    assert runner.invoke(cli, ["db", "upgrade"], env=env).exit_code == 0
    assert runner.invoke(cli, ["demo"], env=env).exit_code == 0

    shown = runner.invoke(
        cli, ["timetable", "thursday-club-night", "--at", "2026-11-26T19:00"], env=env
    )
    wrong = runner.invoke(cli, ["timetable", "thursday-club-night", "--at", "soon"], env=env)

    lines = [" ".join(line.split()) for line in shown.output.splitlines()]
    assert shown.exit_code == 0
    assert lines == [
        "Thursday Club Night at 2026-11-26 19:00 UTC: 8 min a point (default)",
        "Main (clock 2 min a point, 12 s delay)",
        "Quarterfinal to 5 19:00-19:40 40 min to come",
        "Semifinal to 5 19:40-20:20 40 min to come",
        "Final to 7 20:20-21:16 56 min to come",
        "final expected 20:20-21:16",
        "Consolation (clock 2 min a point, 12 s delay)",
        "Semifinal to 3 19:40-20:04 24 min to come",
        "Final to 3 20:04-20:28 24 min to come",
        "final expected 20:04-20:28",
        "expected end 21:16",
    ]
    assert wrong.exit_code == 2
    assert "is not an ISO time" in wrong.output
