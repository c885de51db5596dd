"""The app commands: db upgrade, demo (twice), create-director, and the schema refusal."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session

from tourney.cli import cli
from tourney.store import schema
from tourney.store.db import make_engine
from tourney.store.demo import demo_counts
from tourney.store.schema import SchemaOutOfDateError
from tourney.web import create_app


def _env(url: str, tmp_path: Path) -> dict[str, str]:
    return {
        "TOURNEY_DATABASE_URL": url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
    }


def test_upgrade_then_demo_twice_is_idempotent(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)

    upgraded = runner.invoke(cli, ["db", "upgrade"], env=env)
    first = runner.invoke(cli, ["demo"], env=env)
    engine = make_engine(empty_database_url)
    with Session(engine) as session:
        counts = demo_counts(session)
    second = runner.invoke(cli, ["demo"], env=env)
    with Session(engine) as session:
        counts_again = demo_counts(session)
    engine.dispose()

    assert (upgraded.exit_code, first.exit_code, second.exit_code) == (0, 0, 0)
    assert "Database upgraded to revision" in upgraded.output
    assert (
        "Demo loaded: 4 event(s) (thursday-club-night, fjordside-spring-open, monday-swiss, "
        "tuesday-long-nardy)" in first.output
    )
    assert "Demo data already loaded; nothing changed." in second.output
    assert "Demo director login: director@example.org / password: demo-director" in second.output
    assert counts_again == counts


def test_demo_login_works_in_the_app(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    runner.invoke(cli, ["db", "upgrade"], env=env)
    runner.invoke(cli, ["demo"], env=env)
    app = create_app(
        {
            "DATABASE_URL": empty_database_url,
            "TESTING": True,
            "CSRF_ENABLED": False,
            "SECRET_KEY": "x",
        }
    )
    client = app.test_client()

    login = client.post(
        "/login", data={"email": "director@example.org", "password": "demo-director"}
    )
    events = client.get("/director/").get_data(as_text=True)
    app.extensions["tourney"].engine.dispose()

    assert login.status_code == 302
    assert "Thursday Club Night" in events


def test_app_refuses_out_of_date_schema_naming_the_command(
    empty_database_url: str, tmp_path: Path
) -> None:
    with pytest.raises(SchemaOutOfDateError, match=r"Run `tourney db upgrade` first\."):
        create_app({"DATABASE_URL": empty_database_url, "SECRET_KEY": "x"})


@pytest.mark.parametrize(
    "command", [["demo"], ["serve", "--port", "5999"], ["create-director", "a@example.org"]]
)
def test_commands_refuse_out_of_date_schema(
    runner: CliRunner, empty_database_url: str, tmp_path: Path, command: list[str]
) -> None:
    result = runner.invoke(cli, command, env=_env(empty_database_url, tmp_path))

    assert result.exit_code == 1
    assert "Run `tourney db upgrade` first." in result.output


def test_create_director_with_password_option_and_prompt(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    runner.invoke(cli, ["db", "upgrade"], env=env)

    scripted = runner.invoke(
        cli, ["create-director", "d@example.org", "--password", "long enough pw"], env=env
    )
    prompted = runner.invoke(
        cli,
        ["create-director", "s@example.org", "--role", "scorer"],
        env=env,
        input="long enough pw\nlong enough pw\n",
    )
    duplicate = runner.invoke(
        cli, ["create-director", "D@example.org", "--password", "long enough pw"], env=env
    )

    assert (scripted.exit_code, scripted.output) == (0, "Created director account d@example.org.\n")
    assert (prompted.exit_code, "Created scorer account s@example.org." in prompted.output) == (
        0,
        True,
    )
    assert duplicate.exit_code == 2
    assert "An account with this e-mail address exists." in duplicate.output


def test_db_upgrade_twice_says_up_to_date(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    runner.invoke(cli, ["db", "upgrade"], env=env)

    again = runner.invoke(cli, ["db", "upgrade"], env=env)

    (head,) = schema.head_revisions()
    assert (again.exit_code, again.output) == (
        0,
        f"Database already up to date (revision {head}).\n",
    )


def _serve_banner(env: dict[str, str], tmp_path: Path) -> str:
    """What ``tourney serve`` prints before it serves (read until it listens, then stopped)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with subprocess.Popen(
        [sys.executable, "-m", "tourney", "serve", "--port", str(port)],
        env={**os.environ, **env},
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as server:
        assert server.stdout is not None
        lines = []
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline:
                line = server.stdout.readline()
                if not line or "Starting gunicorn" in line:
                    break
                lines.append(line)
        finally:
            server.terminate()
            server.wait(timeout=30)
    return "".join(lines)


def test_serve_ends_with_the_address_and_the_demo_login_until_its_password_changes(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = {**_env(empty_database_url, tmp_path), "TOURNEY_PUBLIC_URL": "http://192.168.1.20:5000"}
    runner.invoke(cli, ["db", "upgrade"], env=env)
    runner.invoke(cli, ["demo"], env=env)

    with_demo = _serve_banner(env, tmp_path)
    app = create_app(
        {"DATABASE_URL": empty_database_url, "TESTING": True, "CSRF_ENABLED": False}
        | {"SECRET_KEY": "x", "PASSWORD_HASH_PROFILE": "fast"}
    )
    client = app.test_client()
    client.post("/login", data={"email": "director@example.org", "password": "demo-director"})
    changed = client.post(
        "/account/password",
        data={
            "current_password": "demo-director",
            "password": "a club secret of our own",
            "confirm": "a club secret of our own",
        },
    )
    app.extensions["tourney"].engine.dispose()
    after_change = _serve_banner(env, tmp_path)

    assert changed.status_code == 302
    assert with_demo.splitlines()[-3:] == [
        "Players' address (QR codes and printed links): http://192.168.1.20:5000",
        "Directors log in at http://192.168.1.20:5000/login",
        "Demo director: director@example.org / password demo-director",
    ]
    assert "tourney is serving on http://127.0.0.1:" in with_demo
    assert "Directors log in at http://192.168.1.20:5000/login" in after_change
    assert "Demo director" not in after_change and "demo-director" not in after_change
