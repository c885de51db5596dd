"""Printing the matches ready to play: the pairings and score sheets of just the matches
the players can sit down to now (both players known, not finished, round published)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from test_web_tournament import login

from tourney.store import draws, results
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

# Seeds 1..8: the seeded draw pairs 1-8, 4-5, 2-7 and 3-6.
FIELD = ["Anna Ek", "Ben Olsen", "Cara Diaz", "Dan Moe", "Eva Lind", "Finn Holm", "Gry Berg",
         "Hans Roe"]


def _text(data: bytes, tmp_path: Path, name: str) -> str:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(data)
    return subprocess.run(
        [tool, str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def _names_in(text: str) -> set[str]:
    return {name for name in FIELD if re.search(re.escape(name), text)}


def _first_match_played(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> BuiltEvent:
    """A knockout of eight, published, with Anna Ek beating Hans Roe 3-1 in match 1."""
    built = build_event(FIELD, [{"name": "Main", "format": "knockout", "match_length": 3}])
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
        results.record_final_score(
            session, actor=actor, match_id=board.rounds[0].matches[0].id, score_a=3, score_b=1
        )
    return built


@pytest.mark.parametrize("document", ["pairings.pdf", "scoresheets.pdf"])
def test_matches_ready_to_play_are_printed_and_no_other(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    tmp_path: Path,
    document: str,
) -> None:
    built = _first_match_played(engine, build_event)
    login(client, built)

    response = client.get(
        f"/director/events/{built.event_id}/downloads/{document}?ready=1&flight=Main"
    )
    text = _text(response.data, tmp_path, "ready")

    assert response.status_code == 200
    # Match 1 is finished; the semifinal waits for Dan Moe or Eva Lind: neither prints.
    assert _names_in(text) == {
        "Dan Moe", "Eva Lind", "Ben Olsen", "Gry Berg", "Cara Diaz", "Finn Holm"
    }


def test_no_match_ready_to_play_in_a_draw_not_published(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    tmp_path: Path,
) -> None:
    built = build_event(FIELD, [{"name": "Main", "format": "knockout", "match_length": 3}])
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"], method="seeded"
        )
    login(client, built)

    response = client.get(f"/director/events/{built.event_id}/downloads/pairings.pdf?ready=1")

    assert _names_in(_text(response.data, tmp_path, "draft")) == set()


def test_flight_and_event_pages_offer_the_matches_ready_to_play(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _first_match_played(engine, build_event)
    login(client, built)

    flight = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)
    event = client.get(f"/director/events/{built.event_id}").get_data(as_text=True)

    base = f"/director/events/{built.event_id}/downloads"
    assert re.findall(r'href="([^"]*ready=1[^"]*)"', flight) == [
        f"{base}/pairings.pdf?ready=1&amp;flight=Main",
        f"{base}/scoresheets.pdf?ready=1&amp;flight=Main",
    ]
    assert re.findall(r'href="([^"]*ready=1[^"]*)"', event) == [
        f"{base}/pairings.pdf?ready=1", f"{base}/scoresheets.pdf?ready=1"
    ]
