"""``tourney export`` over the demo event, through the CLI runner."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from click.testing import CliRunner
from openpyxl import load_workbook

from tourney.cli import cli

REPO = Path(__file__).resolve().parents[2]


def _env(url: str, tmp_path: Path) -> dict[str, str]:
    return {
        "TOURNEY_DATABASE_URL": url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
    }


def test_export_demo_event_writes_every_file(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    assert runner.invoke(cli, ["db", "upgrade"], env=env).exit_code == 0
    demo = runner.invoke(cli, ["demo", "--directory", str(REPO / "sample_events")], env=env)
    assert demo.exit_code == 0, demo.output
    out = tmp_path / "out"
    result = runner.invoke(
        cli,
        [
            "export",
            "thursday-club-night",
            "--pdf",
            "drawsheets",
            str(tmp_path / "draw.pdf"),
            "--pdf",
            "pairings",
            str(tmp_path / "pairings.pdf"),
            "--xlsx",
            str(tmp_path / "event.xlsx"),
            "--csv",
            str(out),
        ],
        env=env,
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "draw.pdf").read_bytes()[:5] == b"%PDF-"
    assert (tmp_path / "pairings.pdf").read_bytes()[:5] == b"%PDF-"
    workbook = load_workbook(io.BytesIO((tmp_path / "event.xlsx").read_bytes()))
    assert workbook.sheetnames[:5] == ["Event", "Players", "Pairings", "Matches", "Games"]
    players = list(
        csv.DictReader(
            io.StringIO((out / "thursday-club-night-players.csv").read_text(encoding="utf-8"))
        )
    )
    assert sorted(p["Name"] for p in players) == sorted(
        [
            "Bjørn Ødegård",
            "Ingrid Solheim",
            "Lars-Erik Haugen",
            "Mette Kjær",
            "Jürgen Weiß",
            "Åsa Lindqvist",
            "Sean O'Brien",
            "Zoë Martin",
        ]
    )


def test_export_unknown_event_is_a_usage_error(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    runner.invoke(cli, ["db", "upgrade"], env=env)
    result = runner.invoke(cli, ["export", "nope", "--xlsx", str(tmp_path / "x.xlsx")], env=env)
    assert result.exit_code == 2
    assert "No event 'nope'" in result.output


def test_export_without_a_target_is_a_usage_error(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    result = runner.invoke(cli, ["export", "x"], env=_env(empty_database_url, tmp_path))
    assert result.exit_code == 2


def test_export_in_russian_writes_russian_sheet_names_and_headings(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    assert runner.invoke(cli, ["db", "upgrade"], env=env).exit_code == 0
    demo = runner.invoke(cli, ["demo", "--directory", str(REPO / "sample_events")], env=env)
    assert demo.exit_code == 0, demo.output
    out = tmp_path / "out"

    result = runner.invoke(
        cli,
        [
            "export", "thursday-club-night", "--lang", "ru",
            "--xlsx", str(tmp_path / "event.xlsx"), "--csv", str(out),
        ],
        env=env,
    )

    assert result.exit_code == 0, result.output
    workbook = load_workbook(io.BytesIO((tmp_path / "event.xlsx").read_bytes()))
    assert workbook.sheetnames[:5] == ["Турнир", "Игроки", "Пары", "Матчи", "Партии"]
    header = (out / "thursday-club-night-players.csv").read_text(encoding="utf-8-sig")
    assert header.splitlines()[0] == "ID,Имя,Страна,Рейтинг,Посев,Клуб"


def test_export_in_an_unknown_language_is_a_usage_error(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    result = runner.invoke(
        cli,
        ["export", "x", "--lang", "xx", "--xlsx", str(tmp_path / "x.xlsx")],
        env=_env(empty_database_url, tmp_path),
    )

    assert result.exit_code == 2
    assert "'xx' is not one of 'en', 'de', 'ru', 'el', 'tr'" in result.output
