"""A mixed flight ranked also by division, through the web app: the director's checkbox on
the divisions page, then each division's table on the public standings page, the
director's flight page, the standings PDF, the workbook and the API.

The flight is a round robin of six (every pair meets, so the draw does not matter): Open
A1, A2, A3 and Novice N1, N2, N3, the player listed first winning each match except that
N3 beats A2; no tiebreaks. Worked by hand: A1 5 wins, A2 3, A3 3, N1 2, N2 1, N3 1, so

    overall  1 A1, =2 A2, =2 A3, 4 N1, =5 N2, =5 N3
    Open     1 A1, =2 A2, =2 A3
    Novice   1 N1, =2 N2, =2 N3
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from openpyxl import load_workbook
from sqlalchemy.engine import Engine
from sqlmodel import Session
from test_web_variant_options import login

from tourney.store import divisions, draws, results
from tourney.store.db import transaction
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PLAYERS = ["A1", "A2", "A3", "N1", "N2", "N3"]
DIVISION = {"A1": "Open", "A2": "Open", "A3": "Open",
            "N1": "Novice", "N2": "Novice", "N3": "Novice"}
UPSET = frozenset({"N3", "A2"})
OVERALL = [("1", "A1"), ("=2", "A2"), ("=2", "A3"), ("4", "N1"), ("=5", "N2"), ("=5", "N3")]
OPEN = [("1", "A1"), ("=2", "A2"), ("=2", "A3")]
NOVICE = [("1", "N1"), ("=2", "N2"), ("=2", "N3")]


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def ranked(html: str) -> list[tuple[str, str]]:
    """(rank, name) of each row of a standings table's HTML."""
    return [(rank, name) for rank, name in re.findall(
        r'<td class="num rank">([^<]*)</td>\s*<th scope="row">(?:<a [^>]*>)?([^<]*)', html)]


def tables_after(html: str, heading: str) -> str:
    """The HTML from a heading to the next heading (or the end)."""
    start = html.index(heading)
    following = re.search(r"<h[23][ >]", html[start + len(heading):])
    return html[start:start + len(heading) + following.start()] if following else html[start:]


def played_out(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(PLAYERS, [{"name": "Mixed", "format": "roundrobin", "match_length": 1}],
                        is_public=True, slug="club-night")
    actor, flight_id = built.director.actor, built.flights["Mixed"]
    with transaction(engine) as session:
        divisions.set_divisions(session, actor=actor, event_id=built.event_id,
                                text="Open\nNovice")
        divisions.set_entry_divisions(
            session, actor=actor, event_id=built.event_id,
            chosen={built.entries[name]: DIVISION[name] for name in PLAYERS})
        draws.draw_flight(session, actor=actor, flight_id=flight_id, seed=7)
        draws.publish_flight(session, actor=actor, flight_id=flight_id)
    with Session(engine) as session:
        board = flight_board(session, actor, flight_id)
    for rnd in board.rounds:
        for match in rnd.matches:
            if match.a is None or match.b is None:
                continue
            a_wins = PLAYERS.index(match.a.name) < PLAYERS.index(match.b.name)
            if frozenset({match.a.name, match.b.name}) == UPSET:
                a_wins = not a_wins
            with transaction(engine) as session:
                results.record_final_score(session, actor=actor, match_id=match.id,
                                           score_a=int(a_wins), score_b=int(not a_wins))
    return built


def rank_separately(client: FlaskClient, built: BuiltEvent, checked: bool) -> str:
    data = {"division": "", "handicap": "0"}
    if checked:
        data["division_standings"] = "1"
    return client.post(
        f"/director/events/{built.event_id}/divisions/flights/{built.flights['Mixed']}",
        data=data, follow_redirects=True).get_data(as_text=True)


def test_the_checkbox_adds_each_division_table_to_the_public_and_director_pages(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = played_out(engine, build_event)
    login(client, built)
    flight_id = built.flights["Mixed"]
    public_url = f"/events/club-night/flights/{flight_id}/standings"
    before = client.get(public_url).get_data(as_text=True)

    saved = rank_separately(client, built, checked=True)
    public = client.get(public_url).get_data(as_text=True)
    director = client.get(f"/director/flights/{flight_id}").get_data(as_text=True)

    assert "Division Open" not in before
    assert re.search(r'<input type="checkbox" name="division_standings" value="1" checked', saved)
    assert ranked(public.split("Division Open")[0]) == OVERALL
    assert ranked(tables_after(public, "Division Open")) == OPEN
    assert ranked(tables_after(public, "Division Novice")) == NOVICE
    assert "Division Open" in text_of(director) and "Division Novice" in text_of(director)
    assert text_of(director).index("Division Open") < text_of(director).index("Division Novice")

    unchecked = rank_separately(client, built, checked=False)
    assert 'name="division_standings" value="1" checked' not in unchecked
    assert "Division Open" not in client.get(public_url).get_data(as_text=True)


def test_the_api_adds_each_division_and_keeps_the_overall_rows(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = played_out(engine, build_event)
    login(client, built)
    plain = client.get(f"/api/v1/events/{built.event_id}/standings").get_json()
    rank_separately(client, built, checked=True)

    answer = client.get(f"/api/v1/events/{built.event_id}/standings").get_json()

    flight = answer["flights"][0]
    assert plain["flights"][0]["divisions"] == []
    assert flight["standings"] == plain["flights"][0]["standings"]
    assert [(r["display_rank"], r["player"]["name"]) for r in flight["standings"]] == OVERALL
    assert [(d["name"], [(r["display_rank"], r["player"]["name"]) for r in d["standings"]])
            for d in flight["divisions"]] == [("Open", OPEN), ("Novice", NOVICE)]
    assert [(r["rank"], r["tied"], r["wins"]) for r in flight["divisions"][1]["standings"]] == [
        (1, False, 2), (2, True, 1), (2, True, 1)]


def test_the_standings_pdf_and_workbook_print_each_division(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent],
    tmp_path: Path,
) -> None:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    built = played_out(engine, build_event)
    login(client, built)
    rank_separately(client, built, checked=True)
    downloads = f"/director/events/{built.event_id}/downloads"

    pdf = client.get(f"{downloads}/standings.pdf")
    workbook = client.get(f"{downloads}/workbook.xlsx")

    (tmp_path / "s.pdf").write_bytes(pdf.data)
    subprocess.run([tool, "-layout", str(tmp_path / "s.pdf"), str(tmp_path / "s.txt")],
                   check=True)
    lines = [line.split() for line in (tmp_path / "s.txt").read_text().splitlines()]
    printed = [(words[0], words[1]) for words in lines
               if len(words) > 1 and re.fullmatch(r"=?\d+", words[0]) and words[1] in DIVISION]
    headings = [" ".join(words) for words in lines if words[:1] == ["Division"]]
    assert printed == OVERALL + OPEN + NOVICE
    assert headings == ["Division Open", "Division Novice"]

    book = load_workbook(io.BytesIO(workbook.data), read_only=True)
    sheets = {ws.title: [row[:4] for row in ws.iter_rows(min_row=2, values_only=True)]
              for ws in book.worksheets if ws.title.startswith("Standings")}
    assert sheets == {
        "Standings Mixed": [(p, int(p.lstrip("=")), p.startswith("="), n) for p, n in OVERALL],
        "Standings Mixed Open": [(p, int(p.lstrip("=")), p.startswith("="), n) for p, n in OPEN],
        "Standings Mixed Novice": [
            (p, int(p.lstrip("=")), p.startswith("="), n) for p, n in NOVICE],
    }
