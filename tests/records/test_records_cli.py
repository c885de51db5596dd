"""The `tourney validate` command (DESIGN §5)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from records_data import GNUBG

from tourney.cli import cli

GOOD = GNUBG / "gnubg_L03_s1007.mat"


def _bad_file(tmp_path: Path) -> Path:
    lines = GOOD.read_text().split("\n")
    lines[9] = lines[9].replace("51: 13/8 6/5", "51: 13/8 6/4")
    path = tmp_path / "bad.mat"
    path.write_text("\n".join(lines))
    return path


def test_validate_json_valid_file_exit_0() -> None:
    result = CliRunner().invoke(cli, ["validate", "--json", str(GOOD)])

    assert result.exit_code == 0
    assert json.loads(result.output) == {
        "file": str(GOOD), "ok": True, "match_length": 3, "players": ["GnubgA", "GnubgB"],
        "final_score": [1, 8], "winner": "GnubgB", "games": 3, "errors": [], "warnings": [],
    }


def test_validate_json_invalid_file_exit_1(tmp_path: Path) -> None:
    bad = _bad_file(tmp_path)

    result = CliRunner().invoke(cli, ["validate", "--json", str(GOOD), str(bad)])

    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 1
    assert [line["ok"] for line in lines] == [True, False]
    assert [(e["game"], e["line"]) for e in lines[1]["errors"]] == [(1, 10)]


def test_validate_readable_report_verdict_then_errors(tmp_path: Path) -> None:
    bad = _bad_file(tmp_path)

    result = CliRunner().invoke(cli, ["validate", str(bad)])

    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert lines[0].startswith(f"{bad}: INVALID (1 error)")
    assert lines[1].startswith("  game 1, line 10: 13/8 6/4 with 5-1: ")


def test_validate_missing_file_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(GOOD), str(tmp_path / "nope.mat")])

    assert result.exit_code == 2
    assert "cannot read" in result.stderr


def test_validate_no_files_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["validate"])

    assert result.exit_code == 2


def test_validate_size_limit_option(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", "--json", "--max-bytes", "100", str(GOOD)])

    line = json.loads(result.output)
    assert result.exit_code == 1
    assert line["errors"][0]["message"].endswith("over the limit of 100 bytes; not read")


def _long_length(tmp_path: Path) -> Path:
    path = tmp_path / "long.mat"
    games = "\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n"
    path.write_text(" " + "9" * 5000 + " point match\n" + games)
    return path


def _deep_record(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


def test_validate_match_length_of_thousands_of_digits_is_one_line_exit_2(tmp_path: Path) -> None:
    path = _long_length(tmp_path)

    result = CliRunner().invoke(cli, ["validate", str(path)])

    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"tourney: {path}: the match length has 5,000 digits, more than any match needs; "
        "not read\ntourney: 1 file could not be read\n"
    )


def test_validate_json_record_nested_without_end_is_one_line_exit_2(tmp_path: Path) -> None:
    path = _deep_record(tmp_path)

    result = CliRunner().invoke(cli, ["validate", "--json", str(path), str(GOOD)])

    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 2
    assert [(line["file"], line["ok"]) for line in lines] == [(str(path), False), (str(GOOD), True)]
    assert lines[0]["errors"] == [
        {"game": None, "line": None,
         "message": "not a JSON match record: it nests deeper than 64 levels"}
    ]
    assert result.stderr == (
        f"tourney: {path}: not a JSON match record: it nests deeper than 64 levels\n"
        "tourney: 1 file could not be read\n"
    )
