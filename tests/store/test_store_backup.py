"""`tourney backup` and `tourney restore`: a SQLite round trip, and plain refusals."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from tourney.cli import cli
from tourney.store.db import make_engine
from tourney.web import create_app


def _env(tmp_path: Path, url: str) -> dict[str, str]:
    return {
        "TOURNEY_DATABASE_URL": url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
        "TOURNEY_SECRET_KEY": "test-secret",
    }


def _event_names(url: str) -> list[str]:
    engine = make_engine(url)
    with engine.connect() as connection:
        names = connection.execute(text("SELECT name FROM events ORDER BY name")).scalars().all()
    engine.dispose()
    return list(names)


def test_a_restore_brings_back_the_database_as_it_was_at_the_backup(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = _env(tmp_path, url)
    runner = CliRunner()
    runner.invoke(cli, ["db", "upgrade"], env=env)
    runner.invoke(cli, ["demo"], env=env)
    at_backup = _event_names(url)
    copy = tmp_path / "saved" / "club-backup.db"
    copy.parent.mkdir()

    saved = runner.invoke(cli, ["backup", str(copy)], env=env)
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE events SET name = 'Renamed after the backup'"))
    engine.dispose()
    restored = runner.invoke(cli, ["restore", str(copy), "--yes"], env=env)

    assert (saved.exit_code, restored.exit_code) == (0, 0)
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert len(at_backup) >= 2
    assert _event_names(url) == at_backup
    app = create_app({key.removeprefix("TOURNEY_"): value for key, value in env.items()})
    page = app.test_client().get("/")
    assert page.status_code == 200
    assert at_backup[0] in page.get_data(as_text=True)


def test_restore_refuses_a_file_that_is_not_a_tourney_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = _env(tmp_path, url)
    runner = CliRunner()
    runner.invoke(cli, ["db", "upgrade"], env=env)
    runner.invoke(cli, ["demo"], env=env)
    before = _event_names(url)
    junk = tmp_path / "notes.txt"
    junk.write_text("shopping list\n" * 200, encoding="utf-8")

    refused = runner.invoke(cli, ["restore", str(junk), "--yes"], env=env)

    assert refused.exit_code == 2
    assert "not a SQLite database" in refused.stderr
    assert _event_names(url) == before


def test_restore_asks_before_it_replaces_anything(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    refused = CliRunner().invoke(cli, ["restore", str(tmp_path / "x.db")], input="n\n",
                                 env=_env(tmp_path, url))

    assert refused.exit_code == 1
    assert "Replace the whole database" in refused.output


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_postgresql_without_its_client_programs_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    backup_file = tmp_path / "club.sql"
    backup_file.write_text("-- dump\n", encoding="utf-8")
    env = _env(tmp_path, "postgresql+psycopg://postgres@127.0.0.1:5432/club")
    args = [command, str(backup_file)] + (["--yes"] if command == "restore" else [])

    failed = CliRunner().invoke(cli, args, env=env)

    program = "pg_dump" if command == "backup" else "psql"
    assert failed.exit_code == 2
    assert failed.stderr.count("\n") == 1
    assert f"{program} is not installed" in failed.stderr
