"""Settings: defaults, then the TOURNEY_* environment, then an explicit mapping."""

from __future__ import annotations

from pathlib import Path

import pytest

from tourney.config import DEFAULT_DATABASE_URL, load_settings


def test_settings_default_database_is_sqlite_under_instance() -> None:
    settings = load_settings(environ={})

    assert settings.database_url == DEFAULT_DATABASE_URL == "sqlite:///instance/tourney.db"


def test_settings_environment_overrides_default() -> None:
    settings = load_settings(
        environ={"TOURNEY_DATABASE_URL": "postgresql+psycopg://x/y", "TOURNEY_CSRF_ENABLED": "no"}
    )

    assert (settings.database_url, settings.csrf_enabled) == ("postgresql+psycopg://x/y", False)


def test_settings_mapping_overrides_environment() -> None:
    settings = load_settings(
        {"database_url": "sqlite://", "LOGIN_MAX_FAILURES": "3"},
        environ={"TOURNEY_DATABASE_URL": "postgresql+psycopg://x/y"},
    )

    assert (settings.database_url, settings.login_max_failures) == ("sqlite://", 3)


def test_settings_unknown_key_is_refused() -> None:
    with pytest.raises(KeyError, match="DATABSE_URL"):
        load_settings({"DATABSE_URL": "sqlite://"}, environ={})


def test_settings_bad_boolean_is_refused() -> None:
    with pytest.raises(ValueError, match="testing"):
        load_settings(environ={"TOURNEY_TESTING": "maybe"})


def test_secret_key_is_created_once_and_reused(tmp_path: Path) -> None:
    settings = load_settings({"instance_path": str(tmp_path)}, environ={})

    first = settings.resolved_secret_key()
    second = settings.resolved_secret_key()

    assert (first, len(first) >= 32) == (second, True)
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
