"""A director uploads a match record as .sgf (GNU Backgammon) as well as .mat, and every
match with games can be downloaded as .mat and .sgf from its page.

The record is gnubg_L03_s1037 of the gnubg self-play corpus: gnubg's own .mat and .sgf of
one 3-point match, which gnubg scores GnubgA 4, GnubgB 2 after 4 games (two
dropped doubles, a gammon in the Crawford game, a resigned gammon)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.rules.records import ActionKind, read_mat, read_sgf, replay
from tourney.store import draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

SGF_DIR = Path(__file__).resolve().parents[1] / "data" / "sgf"
XG_DIR = Path(__file__).resolve().parents[1] / "data" / "records" / "xg"
STEM = "gnubg_L03_s1037"
PASSWORD = "correct horse battery staple"


def _match(client: FlaskClient, engine: Engine,
           build_event: Callable[..., BuiltEvent]) -> int:
    built = build_event(["GnubgA", "GnubgB"],
                        [{"name": "Main", "format": "knockout", "match_length": 3}],
                        is_public=True, slug="records-night")
    with transaction(engine) as session:
        actor = built.director.actor
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    return board.rounds[0].matches[0].id


def _version(client: FlaskClient, match_id: int) -> str:
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def _upload(client: FlaskClient, match_id: int, name: str, data: bytes) -> str:
    response = client.post(
        f"/director/matches/{match_id}/upload",
        data={"version": _version(client, match_id), "record": (io.BytesIO(data), name)},
        content_type="multipart/form-data", follow_redirects=True,
    )
    assert response.status_code in (200, 400), response.status_code
    return response.get_data(as_text=True)


def _plays(text: str, reader: Callable[[bytes], object]) -> list[object]:
    report = replay(reader(text.encode()))  # type: ignore[arg-type]
    return [
        (a.kind, a.side, sorted(a.dice) if a.dice else None,
         sorted((m.origin, m.destination) for m in a.play.moves) if a.play else None)
        for game in report.record.games for a in game.actions if a.kind is not ActionKind.WIN
    ]


def test_an_sgf_upload_fills_the_match_and_both_downloads_tell_the_same_match(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _match(client, engine, build_event)

    _upload(client, match_id, "final.sgf", (SGF_DIR / f"{STEM}.sgf").read_bytes())

    page = client.get(f"/events/records-night/matches/{match_id}").get_data(as_text=True)
    # The moves list reads the .sgf too: game 1 opens 5-2 13/8 24/22 (gnubg's .mat line
    # "1) 52: 13/8 24/22"), written here in the order of gnubg's .sgf.
    moves = page.split("<h2>Moves</h2>", 1)[1]
    first = re.search(r"<td class=\"roll\">5-2</td><td>(.*?)</td>", moves)
    assert first is not None and sorted(first.group(1).split()) == ["13/8", "24/22"]
    assert "Download as GNU Backgammon match (.sgf)" in page
    assert "Download as Jellyfish / gnubg match (.mat)" in page
    as_mat = client.get(f"/events/records-night/matches/{match_id}/record.mat")
    as_sgf = client.get(f"/events/records-night/matches/{match_id}/record.sgf")
    assert as_mat.status_code == as_sgf.status_code == 200
    assert 'filename="match-' in as_sgf.headers["Content-Disposition"]
    assert as_sgf.headers["Content-Disposition"].endswith('.sgf"')
    gnubg_mat = (SGF_DIR / f"{STEM}.mat").read_text()
    gnubg_sgf = (SGF_DIR / f"{STEM}.sgf").read_text()
    assert _plays(as_mat.get_data(as_text=True), read_mat) == _plays(gnubg_mat, read_mat)
    assert _plays(as_sgf.get_data(as_text=True), read_sgf) == _plays(gnubg_sgf, read_sgf)
    scores = replay(read_mat(as_mat.get_data())).final_score
    assert scores == (4, 2)


def test_an_xg_upload_fills_the_match_and_is_kept_as_the_mat_it_reads_as(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """The .xg holds the same match as gnubg's .mat (tests/records/xg_build.py wrote it
    from that file): the games, the moves list and the downloads must tell that match."""
    match_id = _match(client, engine, build_event)

    _upload(client, match_id, "final.xg", (XG_DIR / f"{STEM}.xg").read_bytes())

    page = client.get(f"/events/records-night/matches/{match_id}").get_data(as_text=True)
    moves = page.split("<h2>Moves</h2>", 1)[1]
    first = re.search(r"<td class=\"roll\">5-2</td><td>(.*?)</td>", moves)
    assert first is not None and sorted(first.group(1).split()) == ["13/8", "24/22"]
    assert "final.xg.mat" in client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    as_mat = client.get(f"/events/records-night/matches/{match_id}/record.mat")
    assert as_mat.status_code == 200
    gnubg_mat = (SGF_DIR / f"{STEM}.mat").read_text()
    assert _plays(as_mat.get_data(as_text=True), read_mat) == _plays(gnubg_mat, read_mat)
    assert replay(read_mat(as_mat.get_data())).final_score == (4, 2)


def test_games_entered_by_hand_download_as_a_record_without_moves(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _match(client, engine, build_event)
    # GnubgB wins a dropped initial double (1), then GnubgA a gammon on a 2-cube (4).
    for game in ({"winner": "b", "end": "dropped", "cube": "1", "level": ""},
                 {"winner": "a", "end": "played", "cube": "2", "level": "gammon"}):
        saved = client.post(f"/director/matches/{match_id}/games",
                            data={**game, "version": _version(client, match_id)})
        assert saved.status_code == 302

    sgf = client.get(f"/events/records-night/matches/{match_id}/record.sgf")
    text = sgf.get_data(as_text=True)

    trees = text.strip().split("\n(")
    assert trees[0].split("\n")[1:] == [";B[double]", ";W[drop])"]
    assert "MI[length:3][game:0][ws:0][bs:0]PW[GnubgA]PB[GnubgB]" in trees[0]
    assert "RE[B+1]" in trees[0]
    assert "MI[length:3][game:1][ws:0][bs:1]" in trees[1]
    assert trees[1].split("\n")[1:] == [";B[double]", ";W[take])"]
    assert "RE[W+4R]" in trees[1]
    mat = client.get(f"/events/records-night/matches/{match_id}/record.mat").get_data(
        as_text=True)
    assert " Game 2\n GnubgA : 0                     GnubgB : 1\n" in mat
    assert "Wins 4 points" in mat


def test_bad_and_binary_uploads_are_refused_with_the_reason(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _match(client, engine, build_event)
    truncated = (SGF_DIR / f"{STEM}.sgf").read_bytes()[:700]

    refused = _upload(client, match_id, "cut.sgf", truncated)
    binary = _upload(client, match_id, "match.xg", b"RGMH" + bytes(9000))

    assert "the file ends inside" in refused or "ends inside a game tree" in refused
    assert "a damaged .xg file" in binary
    assert client.get(f"/events/records-night/matches/{match_id}/record.sgf").status_code \
        == 404
