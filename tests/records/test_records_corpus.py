"""Every corpus file validates, and what the replay derives equals gnubg's own record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from records_data import GNUBG_FILES, gnubg_json

from tourney.rules import GameEnd, Side
from tourney.rules.records import (
    format_mat,
    read_mat,
    record_from_json,
    record_to_json,
    validate_mat,
)


def _expected(path: Path) -> tuple[list[tuple[Side, int, bool, bool | None]], list[int]]:
    games = []
    score = [0, 0]
    for game in gnubg_json(path)["games"]:
        info = game["info"]
        winner = Side.X if info["winner"] == "X" else Side.O
        games.append((winner, info["points-won"], info["resigned"], info.get("crawford")))
        score[winner] += info["points-won"]
    return games, score


def test_corpus_subset_is_large_enough() -> None:
    assert len(GNUBG_FILES) >= 40


@pytest.mark.parametrize("path", GNUBG_FILES, ids=lambda p: p.stem)
def test_corpus_file_validates_with_gnubg_results(path: Path) -> None:
    expected_games, expected_score = _expected(path)
    info = gnubg_json(path)["match-info"]

    report = validate_mat(path.read_bytes())

    assert [str(e) for e in report.errors] == []
    assert [str(w) for w in report.warnings] == []
    assert report.match_length == info["match-length"]
    assert report.players == (info["X"]["name"], info["O"]["name"])
    assert len(report.games) == len(expected_games)
    derived = [
        (g.winner, g.points, g.end is GameEnd.RESIGNED, g.crawford) for g in report.games
    ]
    # gnubg marks the Crawford flag only from the first game at which it can apply.
    assert [(w, p, r) for w, p, r, _ in derived] == [(w, p, r) for w, p, r, _ in expected_games]
    assert [c for (_, _, _, c), (_, _, _, e) in zip(derived, expected_games, strict=True)
            if e is not None] == [e for *_, e in expected_games if e is not None]
    assert list(report.final_score) == expected_score
    assert report.finished
    assert report.winner == (Side.X if expected_score[0] > expected_score[1] else Side.O)


@pytest.mark.parametrize("path", GNUBG_FILES, ids=lambda p: p.stem)
def test_corpus_file_writes_back_byte_identical(path: Path) -> None:
    text = path.read_text()

    written = format_mat(validate_mat(text))

    assert written == text


@pytest.mark.parametrize("path", GNUBG_FILES[:10], ids=lambda p: p.stem)
def test_corpus_record_json_round_trips(path: Path) -> None:
    record = read_mat(path.read_bytes())

    document = json.loads(json.dumps(record_to_json(record)))

    assert document["version"] == 1
    assert record_from_json(document) == record


def test_corpus_moves_match_gnubg_actions(corpus_file: Path) -> None:
    games = gnubg_json(corpus_file)["games"]
    record = read_mat(corpus_file.read_bytes())

    ours = [
        [(a.kind.value, a.side.name if a.side is not None else None) for a in g.actions
         if a.kind.value != "win"]
        for g in record.games
    ]

    theirs = [
        [(a["action"].replace("move", "roll"), a["player"]) for a in g["game"]
         if a["action"] != "resign"]
        for g in games
    ]
    assert ours == theirs
