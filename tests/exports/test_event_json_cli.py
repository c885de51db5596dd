"""``tourney export EVENT --json FILE`` and ``tourney import FILE.json [--as-copy]``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tourney.cli import cli

REPO = Path(__file__).resolve().parents[2]


def _env(url: str, tmp_path: Path, name: str) -> dict[str, str]:
    return {
        "TOURNEY_DATABASE_URL": url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / name),
    }


def _demo_env(runner: CliRunner, url: str, tmp_path: Path) -> dict[str, str]:
    env = _env(url, tmp_path, "source")
    assert runner.invoke(cli, ["db", "upgrade"], env=env).exit_code == 0
    demo = runner.invoke(cli, ["demo", "--directory", str(REPO / "sample_events")], env=env)
    assert demo.exit_code == 0, demo.output
    return env


def test_event_json_cli_export_import_export_is_byte_identical(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    source = _demo_env(runner, empty_database_url, tmp_path)
    target = _env(f"sqlite:///{tmp_path / 'target.db'}", tmp_path, "target")
    runner.invoke(cli, ["db", "upgrade"], env=target)
    first, second = tmp_path / "first.json", tmp_path / "second.json"

    exported = runner.invoke(
        cli, ["export", "fjordside-spring-open", "--json", str(first)], env=source
    )
    imported = runner.invoke(cli, ["import", str(first)], env=target)
    again = runner.invoke(
        cli, ["export", "fjordside-spring-open", "--json", str(second)], env=target
    )

    assert (exported.exit_code, imported.exit_code, again.exit_code) == (0, 0, 0), imported.output
    assert imported.stdout.startswith("Imported 'Fjordside Spring Open' as fjordside-spring-open")
    assert second.read_bytes() == first.read_bytes()
    assert json.loads(first.read_bytes())["format"] == "tourney-event"


def test_event_json_cli_import_of_an_existing_event_needs_as_copy(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _demo_env(runner, empty_database_url, tmp_path)
    path = tmp_path / "swiss.json"
    runner.invoke(cli, ["export", "monday-swiss", "--json", str(path)], env=env)

    refused = runner.invoke(cli, ["import", str(path)], env=env)
    copied = runner.invoke(cli, ["import", str(path), "--as-copy"], env=env)

    assert refused.exit_code == 2
    assert refused.stderr == (
        f"tourney: {path}: An event with the web address 'monday-swiss' exists already; "
        "import with --as-copy to add this one as a copy.\n"
    )
    assert copied.exit_code == 0, copied.output
    assert "as monday-swiss-copy" in copied.stdout


def test_event_json_cli_newer_version_is_one_line_exit_2(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path, "db")
    runner.invoke(cli, ["db", "upgrade"], env=env)
    path = tmp_path / "future.json"
    path.write_text(json.dumps({"format": "tourney-event", "version": 99, "tables": {}}))

    result = runner.invoke(cli, ["import", str(path)], env=env)

    assert result.exit_code == 2
    assert result.stderr == (
        f"tourney: {path}: This file is event JSON version 99; this tourney reads versions "
        "up to 1. Import it with a newer tourney.\n"
    )


def test_event_json_cli_malformed_file_is_one_line_without_traceback(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path, "db")
    runner.invoke(cli, ["db", "upgrade"], env=env)
    path = tmp_path / "broken.json"
    path.write_text('{"format": "tourney-event", "version": 1, "tables": []}')

    result = runner.invoke(cli, ["import", str(path)], env=env)
    missing = runner.invoke(cli, ["import", str(tmp_path / "nope.json")], env=env)

    assert (result.exit_code, result.stderr) == (
        2,
        f"tourney: {path}: tables: expected an object of tables\n",
    )
    assert missing.exit_code == 2 and "Traceback" not in missing.output


def test_event_json_cli_export_of_unknown_event_is_a_usage_error(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path, "db")
    runner.invoke(cli, ["db", "upgrade"], env=env)

    result = runner.invoke(cli, ["export", "nope", "--json", str(tmp_path / "x.json")], env=env)

    assert result.exit_code == 2
    assert not (tmp_path / "x.json").exists()


def test_event_json_cli_file_nested_without_end_is_one_line_exit_2(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path, "db")
    runner.invoke(cli, ["db", "upgrade"], env=env)
    path = tmp_path / "deep.json"
    path.write_text('{"format": "tourney-event", "tables": ' + "[" * 100_000 + "]" * 100_000 + "}")

    result = runner.invoke(cli, ["import", str(path)], env=env)

    assert (result.exit_code, result.stderr) == (
        2,
        f"tourney: {path}: The file is not JSON: it nests deeper than 64 levels.\n",
    )
