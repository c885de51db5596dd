"""The examples in the rules modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "tourney.rules.board",
    "tourney.rules.cube",
    "tourney.rules.dice",
    "tourney.rules.diagram",
    "tourney.rules.game",
    "tourney.rules.layout",
    "tourney.rules.moves",
    "tourney.rules.position_id",
    "tourney.rules.records",
    "tourney.rules.records.mat_writer",
    "tourney.rules.records.sgf",
    "tourney.rules.records.sgf_writer",
    "tourney.rules.records.summary",
    "tourney.rules.records.xg",
    "tourney.rules.tables",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failures, attempted = doctest.testmod(
        importlib.import_module(name), optionflags=doctest.ELLIPSIS
    )
    assert attempted > 0
    assert failures == 0
