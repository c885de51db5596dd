"""gnubg's nackgammon matches validate, with the results gnubg recorded for them.

The files were made with ``python3 ../shared/tools/gen_gnubg_matches.py --variation
nackgammon --no-sgf --jobs 2 --plies 0 --noise 0.05 --prefix gnubg_nack OUT 12 1,3,5
4001``; each ``.json`` beside a ``.mat`` is gnubg's own record of the match.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tourney.rules import Side
from tourney.rules.records import MatchRules, validate_mat

CORPUS = Path(__file__).resolve().parent.parent / "data" / "variants" / "nackgammon"
FILES = sorted(CORPUS.glob("*.mat"))


def test_nackgammon_corpus_has_twelve_matches() -> None:
    assert len(FILES) == 12


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_nackgammon_file_validates_with_gnubg_results(path: Path) -> None:
    match = json.loads(path.with_suffix(".json").read_text())["gnubg_match"]
    expected = [(Side.X if g["info"]["winner"] == "X" else Side.O, g["info"]["points-won"])
                for g in match["games"]]

    report = validate_mat(path.read_bytes())

    assert [str(e) for e in report.errors] == []
    assert match["match-info"]["variation"] == "Nackgammon"
    assert [(g.winner, g.points) for g in report.games] == expected
    assert report.finished


@pytest.mark.parametrize("path", FILES[:4], ids=lambda p: p.stem)
def test_nackgammon_file_replayed_as_standard_fails(path: Path) -> None:
    report = validate_mat(path.read_bytes(), rules=MatchRules(variant="standard"))

    assert not report.ok
