"""Builders for the export tests: a hand-made four-player event and simulated events.

The hand-made event is small enough to reason about by hand: seeds 1-4 in the standard
order (1 v 4, 2 v 3), then a final.
"""

from __future__ import annotations

import html
import os
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tourney.exports.documents import (
    documents_from_bracket,
    documents_from_simulation,
    sample_names,
)
from tourney.formats import knockout as ko
from tourney.formats.model import EntrantId, MatchId
from tourney.formats.simulation import SimulationOptions, play_bracket
from tourney.match import GameEntry, MatchRules, MatchState, score_match
from tourney.rules import GameEnd, Level, Side
from tourney.store.documents import EventDocument, PlayerDocument

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

HAND_NAMES = {1: "Bjørn Ødegård", 2: "Дмитрий Иванов", 3: "Αλέξανδρος", 4: "Şükrü Çağlar"}


def need_tool(name: str) -> str:
    """The path of a command-line tool, or a skip (a failure under TOURNEY_REQUIRE_ORACLES)."""
    path = shutil.which(name)
    if path is None:
        reason = f"{name} is not installed"
        if os.environ.get("TOURNEY_REQUIRE_ORACLES"):
            pytest.fail(f"{reason}, and TOURNEY_REQUIRE_ORACLES is set")
        pytest.skip(reason)
    return path


def pdf_text(data: bytes, tmp_path: Path, name: str = "doc") -> str:
    """The text of a PDF as ``pdftotext`` reads it."""
    tool = need_tool("pdftotext")
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(data)
    return subprocess.run(
        [tool, "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


@dataclass(frozen=True)
class PdfWord:
    """A word of a PDF page as ``pdftotext -bbox`` finds it, in points from the top left."""

    text: str
    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: PdfWord) -> bool:
        """Whether the two words' boxes share any area."""
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )


_BBOX_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


def pdf_words(data: bytes, tmp_path: Path, page: int = 1) -> list[PdfWord]:
    """The words of one page with their boxes, as ``pdftotext -bbox`` reads them."""
    tool = need_tool("pdftotext")
    path = tmp_path / "words.pdf"
    path.write_bytes(data)
    page_text = str(page)
    out = subprocess.run(
        [tool, "-bbox", "-f", page_text, "-l", page_text, str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [
        PdfWord(html.unescape(text), float(x0), float(y0), float(x1), float(y1))
        for x0, y0, x1, y1, text in _BBOX_WORD.findall(out)
    ]


def pdf_pages(data: bytes, tmp_path: Path) -> int:
    """The page count as ``pdfinfo`` reads it."""
    tool = need_tool("pdfinfo")
    path = tmp_path / "count.pdf"
    path.write_bytes(data)
    out = subprocess.run([tool, str(path)], check=True, capture_output=True, text=True).stdout
    return int(next(line.split()[1] for line in out.splitlines() if line.startswith("Pages:")))


def first_page_png(data: bytes, name: str) -> Path:
    """Render the first page to ``test-artifacts/<name>.png`` for a person to look at."""
    tool = need_tool("pdftoppm")
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(data)
    subprocess.run(
        [
            tool,
            "-png",
            "-r",
            "90",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(ARTIFACTS / name),
        ],
        check=True,
    )
    return ARTIFACTS / f"{name}.png"


def crawford_match() -> MatchState:
    """A match to 5 won 5-3 by side A, game by game.

    A gammon (2-0); B a 2-cube single (2-2); A wins a dropped 2-cube (4-2): A is at N-1,
    so game 4 is the Crawford game, which B wins single (4-3); A wins game 5 (5-3).
    """
    return score_match(
        MatchRules(5),
        [
            GameEntry(Side.X, GameEnd.PLAYED, 1, Level.GAMMON),
            GameEntry(Side.O, GameEnd.PLAYED, 2, Level.SINGLE),
            GameEntry.dropped(Side.X, 2),
            GameEntry(Side.O, GameEnd.PLAYED, 1, Level.SINGLE),
            GameEntry(Side.X, GameEnd.RESIGNED, 1, Level.SINGLE),
        ],
    )


def hand_event(*, played: bool = True) -> EventDocument:
    """Four seeded players: 1 beats 4 5-3, 3 beats 2 5-2, 3 beats 1 in the final 7-6."""
    positions = ko.seeded_positions([EntrantId(i) for i in (1, 2, 3, 4)])
    bracket = ko.plan_knockout(
        positions,
        seed=7,
        lengths=ko.RoundLengths(5, ((-1, 7),)),
    )
    states: dict[MatchId, MatchState] = {}
    if played:
        bracket = ko.record_result(bracket, MatchId("main/1/1"), EntrantId(1), (5, 3))
        bracket = ko.record_result(bracket, MatchId("main/1/2"), EntrantId(3), (2, 5))
        bracket = ko.record_result(bracket, MatchId("main/2/1"), EntrantId(3), (6, 7))
        states = {MatchId("main/1/1"): crawford_match()}
    flights = documents_from_bracket(
        bracket,
        names=HAND_NAMES,
        states=states,
        seeds={i: i for i in HAND_NAMES},
        match_url="https://club.example/e/hand/matches",
    )
    return EventDocument(
        name="Hand-made Cup",
        slug="hand-made-cup",
        players=tuple(PlayerDocument(i, n, seed=i) for i, n in HAND_NAMES.items()),
        flights=flights,
        url="https://club.example/e/hand",
    )


def knockout_event(players: int, *, played: bool = True, seed: int = 1) -> EventDocument:
    """A simulated knockout with consolation and last chance."""
    options = SimulationOptions("knockout", players, consolation=True, last_chance=True, seed=seed)
    return documents_from_simulation(options, played=played)


def fed_knockout_event(players: int, *, played: bool, seed: int = 2) -> EventDocument:
    """A random knockout whose fed flights are wired as the director's app wires them.

    The consolation takes the losers of main round 1 and those who lost their first match
    after a bye; the last chance takes the losers of consolation rounds 1 and 2; each
    loser has a fixed slot (no fresh draw). ``played`` plays every match to the end.
    """
    positions = ko.random_positions([EntrantId(i) for i in range(1, players + 1)], seed=seed)
    fed = [
        ko.FlightSpec(
            "consolation", ko.RoundLengths(3), ko.Feed("main", (1,), first_match_losers=True)
        ),
        ko.FlightSpec("last-chance", ko.RoundLengths(1), ko.Feed("consolation", (1, 2))),
    ]
    bracket = ko.plan_knockout(positions, seed=seed, lengths=ko.RoundLengths(5), fed=fed)
    states: dict[MatchId, MatchState] = {}
    if played:
        bracket, states = play_bracket(bracket, random.Random(seed))
    names = sample_names(players)
    return EventDocument(
        name="Club night",
        slug="club-night",
        players=tuple(PlayerDocument(i, n) for i, n in names.items()),
        flights=documents_from_bracket(bracket, names=names, states=states),
    )
