"""Importing roster players from CSV and XLSX: a preview with each row's problems, then
the save through ``register_player``; and ``tourney players import FILE [--apply]``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import Workbook
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.cli import cli
from tourney.store import services
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.player_import import (
    PlayerImportError,
    apply_player_import,
    preview_player_import,
)
from tourney.store.tables import AuditEntry, Player

CSV = (
    "Name,Country,Rating,E-mail\n"
    "Bjørn Ødegård,no,1712.5,bjorn@example.org\n"
    ",DE,1500,\n"
    "Jürgen Weiß,GER,1600,\n"
    "Дмитрий Иванов,RU,lots,\n"
    "Zoë Martin,FR,9000,zoe@\n"
    "bjørn ødegård,NO,,\n"
    "\n"
    "Mette Kjær,DK,,\n"
    "Sean O'Brien,IE,1550,\n"
)
EXPECTED = [
    (2, "Bjørn Ødegård", ()),
    (3, "", ("the name is missing",)),
    (4, "Jürgen Weiß", ("country 'GER' is not a two-letter code (NO, DE, US)",)),
    (5, "Дмитрий Иванов", ("rating 'lots' is not a number",)),
    (
        6,
        "Zoë Martin",
        ("rating 9000 is not between 0 and 5000", "e-mail address 'zoe@' is not valid"),
    ),
    (7, "bjørn ødegård", ("duplicate of row 2",)),
    (9, "Mette Kjær", ("Mette Kjær (DK) is on the roster already",)),
    (10, "Sean O'Brien", ()),
]


def add_roster_player(engine: Engine, name: str, country: str) -> None:
    with transaction(engine) as session:
        services.register_player(
            session, actor=Actor.cli(), fields=services.PlayerFields(name=name, country=country)
        )


def test_player_import_csv_preview_lists_each_rows_problems(engine: Engine) -> None:
    add_roster_player(engine, "Mette Kjær", "DK")

    with Session(engine) as session:
        preview = preview_player_import(session, CSV.encode(), filename="club.csv")

    assert [(r.line, r.name, r.problems) for r in preview.rows] == EXPECTED
    assert preview.columns == ("name", "country", "rating", "email")
    first = preview.rows[0]
    assert (first.country, first.rating, first.email) == ("NO", 1712.5, "bjorn@example.org")


def test_player_import_preview_saves_nothing(engine: Engine) -> None:
    with Session(engine) as session:
        preview_player_import(session, CSV.encode(), filename="club.csv")
        assert session.exec(select(Player)).all() == []


def test_player_import_xlsx_preview_matches_the_csv(engine: Engine) -> None:
    add_roster_player(engine, "Mette Kjær", "DK")
    workbook = Workbook()
    sheet = workbook.active
    for line in CSV.splitlines():
        cells = line.split(",") if line else []
        sheet.append(
            [float(c) if c.replace(".", "").isdigit() else (c or None) for c in cells] or [None]
        )
    buffer = io.BytesIO()
    workbook.save(buffer)

    with Session(engine) as session:
        preview = preview_player_import(session, buffer.getvalue(), filename="club.xlsx")

    assert [(r.line, r.name, r.problems) for r in preview.rows] == EXPECTED
    assert preview.rows[-1].rating == 1550.0


def test_player_import_apply_registers_only_good_rows_with_audit_entries(
    engine: Engine,
) -> None:
    with Session(engine) as session:
        preview = preview_player_import(session, CSV.encode(), filename="club.csv")

    with transaction(engine) as session:
        result = apply_player_import(session, preview)

    assert [p.name for p in result.created] == ["Bjørn Ødegård", "Mette Kjær", "Sean O'Brien"]
    assert [r.line for r in result.skipped] == [3, 4, 5, 6, 7]
    with Session(engine) as session:
        actions = session.exec(select(AuditEntry.action)).all()
        again = preview_player_import(session, CSV.encode(), filename="club.csv")
    assert actions == ["player.create"] * 3
    assert again.rows[0].problems == ("Bjørn Ødegård (NO) is on the roster already",)


def test_player_import_apply_skips_a_row_that_reached_the_roster_since_the_preview(
    engine: Engine,
) -> None:
    with Session(engine) as session:
        preview = preview_player_import(session, CSV.encode(), filename="club.csv")
    add_roster_player(engine, "Sean O'Brien", "IE")

    with transaction(engine) as session:
        result = apply_player_import(session, preview)

    assert [p.name for p in result.created] == ["Bjørn Ødegård", "Mette Kjær"]
    assert result.skipped[-1].problems == ("Sean O'Brien (IE) is on the roster already",)


@pytest.mark.parametrize(
    ("data", "filename", "message"),
    [
        (b"Player;Land\nAnna;SE\n", "a.csv", None),
        (b"\xef\xbb\xbfname\tcountry\nAnna\tSE\n", "a.csv", None),
        (b"Country,Rating\nSE,1500\n", "a.csv", "a.csv: the first row must name the columns"),
        (b"PK\x03\x04 not really", "a.xlsx", "The file is not an XLSX workbook."),
        (b"name\nAnna\n", "a.pdf", "a.pdf: use a .csv or .xlsx file."),
        (b"name\n\xff\n", "a.csv", "The file is not UTF-8 text"),
    ],
)
def test_player_import_reads_delimiters_and_refuses_unreadable_files(
    engine: Engine, data: bytes, filename: str, message: str | None
) -> None:
    with Session(engine) as session:
        if message is None:
            preview = preview_player_import(session, data, filename=filename)
            assert [(r.name, r.country) for r in preview.rows] == [("Anna", "SE")]
            return
        with pytest.raises(PlayerImportError) as caught:
            preview_player_import(session, data, filename=filename)
    assert caught.value.message.startswith(message)


def _env(url: str, tmp_path: Path) -> dict[str, str]:
    return {
        "TOURNEY_DATABASE_URL": url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
    }


def test_player_import_cli_previews_then_applies(
    runner: CliRunner, empty_database_url: str, tmp_path: Path
) -> None:
    env = _env(empty_database_url, tmp_path)
    runner.invoke(cli, ["db", "upgrade"], env=env)
    path = tmp_path / "club.csv"
    path.write_text(CSV, encoding="utf-8")

    preview = runner.invoke(cli, ["players", "import", str(path)], env=env)
    applied = runner.invoke(cli, ["players", "import", str(path), "--apply"], env=env)
    clean = tmp_path / "clean.csv"
    clean.write_text("name,country\nAnna Berg,SE\n", encoding="utf-8")
    ok = runner.invoke(cli, ["players", "import", str(clean), "--apply"], env=env)

    assert preview.exit_code == 1
    assert preview.stdout == "3 row(s) ready, 5 with problems; run with --apply to save.\n"
    assert preview.stderr.splitlines()[0] == f"{path}: row 3: the name is missing"
    assert (applied.exit_code, applied.stdout) == (
        1,
        "Added 3 player(s); skipped 5 row(s) with problems.\n",
    )
    assert (ok.exit_code, ok.stdout) == (0, "Added 1 player(s); skipped 0 row(s) with problems.\n")
