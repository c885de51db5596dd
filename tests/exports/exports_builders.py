"""Builders for the export tests: a hand-made four-player event and simulated events.

The hand-made event is small enough to reason about by hand: seeds 1-4 in the standard
order (1 v 4, 2 v 3), then a final.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tourney.exports.documents import (
    EventDocument,
    PlayerDocument,
    documents_from_bracket,
    documents_from_simulation,
)
from tourney.formats import knockout as ko
from tourney.formats.model import EntrantId, MatchId
from tourney.formats.simulation import SimulationOptions
from tourney.match import GameEntry, MatchRules, MatchState, score_match
from tourney.rules import GameEnd, Level, Side

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


def hand_event(*, played: bool = True, names: dict[int, str] | None = None) -> EventDocument:
    """Four seeded players: 1 beats 4 5-3, 3 beats 2 5-2, 3 beats 1 in the final 7-6.

    ``names`` replaces the players' names (ids 1-4).
    """
    names = names or HAND_NAMES
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
        names=names,
        states=states,
        seeds={i: i for i in names},
        match_url="https://club.example/e/hand/matches",
    )
    return EventDocument(
        name="Hand-made Cup",
        slug="hand-made-cup",
        players=tuple(PlayerDocument(i, n, seed=i) for i, n in names.items()),
        flights=flights,
        url="https://club.example/e/hand",
    )


def knockout_event(players: int, *, played: bool = True, seed: int = 1) -> EventDocument:
    """A simulated knockout with consolation and last chance."""
    options = SimulationOptions("knockout", players, consolation=True, last_chance=True, seed=seed)
    return documents_from_simulation(options, played=played)
