"""Drawsheets of a club night run in the app: a main draw, its consolation and last chance.

Twelve players, seeded 1-12, in a 16-slot main draw: seeds 1-4 have byes, round 1 is
8 v 9, 5 v 12, 7 v 10 and 6 v 11. The consolation takes the round-1 losers and anyone
who loses their first match after a bye; the last chance takes the losers of consolation
rounds 1 and 2. Side a (the better seed in the main draw) wins every match.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from exports_builders import first_page_png, pdf_text
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.exports.pdf import render_drawsheets_pdf, render_standings_pdf
from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.event_documents import event_document
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PLAYERS = [f"P{n:02d}" for n in range(1, 13)]
FLIGHTS = [
    {"name": "Main", "format": "knockout", "match_length": 5},
    {
        "name": "Consolation",
        "format": "knockout",
        "match_length": 3,
        "feeds_from": "Main",
        "feed_rounds": (1,),
        "feed_bye_losers": True,
    },
    {
        "name": "Last chance",
        "format": "knockout",
        "match_length": 1,
        "feeds_from": "Consolation",
        "feed_rounds": (1, 2),
    },
]
PASSWORD = "correct horse battery staple"
PLACEHOLDER = re.compile(r"(?:Winner|Loser)(?: \(if their first match\))? of [A-Za-z ]+ match \d")


def _club_night(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(PLAYERS, FLIGHTS)
    with transaction(engine) as session:
        flight = built.flights["Main"]
        draws.make_draw(
            session, actor=built.director.actor, flight_id=flight, method="seeded", seed=7
        )
        draws.publish_draw(session, actor=built.director.actor, flight_id=flight)
    return built


def _play_everything(engine: Engine, built: BuiltEvent) -> None:
    """Side a wins every match, flight by flight, until no match is left to play."""
    while _play_ready(engine, built, lambda flight, number: True):
        pass


def _play_round(engine: Engine, built: BuiltEvent, flight: str, number: int) -> None:
    """Side a wins the matches of one round that are ready to play."""
    _play_ready(engine, built, lambda f, n: (f, n) == (flight, number))


def _play_ready(engine: Engine, built: BuiltEvent, wanted: Callable[[str, int], bool]) -> int:
    """Side a wins every match ready to play in a ``wanted`` (flight, round); how many."""
    actor = built.director.actor
    with Session(engine) as session:
        ready = [
            m
            for name, flight in built.flights.items()
            for rnd in flight_board(session, actor, flight).rounds
            if wanted(name, rnd.number)
            for m in rnd.matches
            if m.status == "ready"
        ]
    for m in ready:
        with transaction(engine) as session:
            results.record_final_score(
                session,
                actor=actor,
                match_id=m.id,
                score_a=m.length,
                score_b=0,
                expected_version=m.version,
            )
    return len(ready)


def _drawsheets(engine: Engine, built: BuiltEvent) -> bytes:
    with Session(engine) as session:
        return render_drawsheets_pdf(event_document(session, str(built.event_id))).content


def test_last_chance_slots_before_play_name_their_source_or_a_bye(
    engine: Engine, build_event: Callable[..., BuiltEvent], tmp_path: Path
) -> None:
    built = _club_night(engine, build_event)

    data = _drawsheets(engine, built)

    text = pdf_text(data, tmp_path)
    last_chance = text[text.index("Last chance — drawsheet") :]
    first_round = re.findall(r"Loser of Consolation \w+ match \d|\bbye\b", last_chance)
    # Four consolation first-round losers and two semifinal losers in 8 slots: 2 byes.
    assert sorted(first_round) == sorted(
        [
            *(f"Loser of Consolation Quarterfinal match {n}" for n in (1, 2, 3, 4)),
            "Loser of Consolation Semifinal match 1",
            "Loser of Consolation Semifinal match 2",
            "bye",
            "bye",
        ]
    )


def test_finished_club_night_drawsheets_show_names_and_byes_only(
    engine: Engine, build_event: Callable[..., BuiltEvent], tmp_path: Path
) -> None:
    # The bye holders (seeds 1-4) win their first matches, so the consolation holds only
    # the four round-1 losers (P09, P10, P11, P12) in 8 slots; its matches against
    # nobody are byes or empty, and the last chance is P10 (lost to P09) against P12
    # (lost to P09 in the semifinal).
    built = _club_night(engine, build_event)
    _play_everything(engine, built)

    data = _drawsheets(engine, built)

    text = pdf_text(data, tmp_path)
    assert PLACEHOLDER.findall(text) == []
    last_chance = text[text.index("Last chance — drawsheet") :]
    assert sorted(set(re.findall(r"P\d\d", last_chance))) == ["P10", "P12"]
    first_page_png(data, "drawsheet-club-night-finished")


def test_finished_knockout_standings_name_the_champion_and_the_round_each_went_out_in(
    engine: Engine, build_event: Callable[..., BuiltEvent], tmp_path: Path
) -> None:
    # Side a wins everything: seeds 8, 5, 7 and 6 win round 1 (9-12 out), seeds 1-4 the
    # quarterfinals, 1 and 2 the semifinals, and seed 1 the final.
    built = _club_night(engine, build_event)
    _play_everything(engine, built)

    with Session(engine) as session:
        data = render_standings_pdf(event_document(session, str(built.event_id))).content

    text = pdf_text(data, tmp_path)
    main = text[text.index("Main — final standings") : text.index("Consolation —")]
    # Each row ends with the round its player went out in ("Eliminated in the" wraps
    # onto the line above in the narrow column).
    went_out = dict(re.findall(r"(P\d\d) +\d+ +\d+ +([A-Za-z0-9 ]+)", main))
    assert "active" not in main.lower()
    assert went_out["P01"] == "Champion"
    assert went_out["P02"] == "Final"
    assert went_out["P03"] == went_out["P04"] == "Semifinal"
    assert went_out["P08"] == "Quarterfinal"
    assert went_out["P12"] == "Round 1"
    assert main.count("Eliminated in") == 11


def test_print_this_round_on_the_flight_page_prints_only_that_rounds_players(
    engine: Engine, build_event: Callable[..., BuiltEvent], client: FlaskClient, tmp_path: Path
) -> None:
    # Round 1 of the main draw (8 v 9, 5 v 12, 7 v 10, 6 v 11) is played by side a; the
    # quarterfinals are then seeds 1-4 against the round-1 winners 5-8.
    built = _club_night(engine, build_event)
    _play_round(engine, built, "Main", 1)
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    page = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)

    links = re.findall(r'href="([^"]+round=2)"', page)
    printed = {
        name: pdf_text(client.get(html.unescape(link)).data, tmp_path, name)
        for name, link in zip(("pairings", "scoresheets"), links, strict=True)
    }

    for text in printed.values():
        assert sorted(set(re.findall(r"P\d\d", text))) == [f"P0{n}" for n in range(1, 9)]
    heading = re.compile(r"^(\w[\w ]*) — (\w[\w ]*) — pairings by table", re.M)
    headings = heading.findall(printed["pairings"])
    assert set(headings) == {("Main", "Quarterfinal")}


def test_printed_documents_carry_the_configured_public_address(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_app: Callable[..., Flask],
    tmp_path: Path,
) -> None:
    built = _club_night(engine, build_event)
    client = make_app(PUBLIC_URL="http://192.168.1.20:5000").test_client()
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})

    pairings = client.get(f"/director/events/{built.event_id}/downloads/pairings.pdf")

    assert "http://192.168.1.20:5000/e/club-night" in pdf_text(pairings.data, tmp_path)
