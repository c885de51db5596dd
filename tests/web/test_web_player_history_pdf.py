"""A player's rating history printed as a PDF from their page: the chart as an image
and every rated match. Club Night is worked by hand in ``club_ratings_builders``: Ben
beats Cid (+26.46, 1526.46), then loses the final to Ann (-26.09, 1500.37)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from club_ratings_builders import PASSWORD, club_night
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} (poppler-utils) is not installed")
    return found


def _run(tool: str, path: Path, *args: str) -> str:
    return subprocess.run(
        [_tool(tool), *args, str(path), "-"] if tool == "pdftotext" else
        [_tool(tool), *args, str(path)],
        check=True, capture_output=True, text=True,
    ).stdout


def test_the_players_page_links_a_pdf_with_the_chart_and_every_match(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
    tmp_path: Path,
) -> None:
    club = club_night(engine, build_event, into_club)
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})
    listing = client.get(f"/director/clubs/{club.club_id}/ratings").text
    ben = re.search(r'href="(/director/clubs/\d+/players/\d+)">Ben<', listing)
    assert ben is not None
    page = client.get(ben.group(1)).text
    link = re.search(r'href="([^"]+/history\.pdf)">Print the history \(PDF\)<', page)
    assert link is not None

    pdf = client.get(link.group(1))
    path = tmp_path / "history.pdf"
    path.write_bytes(pdf.data)
    text = " ".join(_run("pdftotext", path, "-layout").split())
    images = _run("pdfimages", path, "-list").splitlines()[2:]

    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.headers["Content-Disposition"] == (
        "attachment; filename=fjordside-bg-ben-rating-history.pdf"
    )
    assert "Ben at Fjordside BG" in text
    assert ("Rating 1500.37 · Experience 14 · 2 rated matches at the club · Started at "
            "1500.00 · Nemesis: Ann (0-1)") in text
    day = r"\d{4}-\d{2}-\d{2}"
    assert re.search(
        rf"Date Event Opponent Result Change Rating {day} Club Night Ann Lost 0-7 -26\.09 "
        rf"1500\.37 {day} Club Night Cid Won 7-0 \+26\.46 1526\.46 Head to head", text
    )
    assert "Head to head Opponent Won Lost Ann 0 1 Cid 1 0" in text
    # One picture, the chart, 6.4 by 2.6 inches at 200 dpi (its transparency comes
    # as a mask beside it).
    assert [line.split()[2:5] for line in images if line.split()[2] == "image"] == [
        ["image", "1280", "520"]
    ]


def test_no_pdf_for_a_player_without_a_rated_match(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club)
    client.post("/login", data={"email": club.director_email, "password": PASSWORD})

    missing = client.get(f"/director/clubs/{club.club_id}/players/999999/history.pdf")

    assert missing.status_code == 404
