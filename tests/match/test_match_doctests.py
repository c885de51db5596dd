"""The examples in tourney.match's docstrings are part of its specification."""

from __future__ import annotations

import doctest

import tourney.match


def test_match_doctests_pass():
    failures, tried = doctest.testmod(tourney.match, optionflags=doctest.ELLIPSIS)

    assert (failures, tried > 0) == (0, True)
