"""Fixtures of the analysis tests: records with gnubg's own figures, and the evaluator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "analysis"


@pytest.fixture(scope="session")
def gnubg_figures() -> dict[str, Any]:
    """gnubg 1.07's statistics of each record (``make_expected.py`` wrote them)."""
    document: dict[str, Any] = json.loads((DATA / "expected.json").read_text())
    return document["records"]


@pytest.fixture
def without_gnubg(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import gnubg`` fail, as on a server without the analysis extra."""
    import sys

    from tourney.analysis import engine

    monkeypatch.setitem(sys.modules, "gnubg", None)
    monkeypatch.setattr(engine, "_loaded", {})
