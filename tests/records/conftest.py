"""Fixtures for the record tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from records_data import GNUBG


@pytest.fixture
def corpus_file() -> Path:
    """A 3-point match with a redouble, a take and several games."""
    return GNUBG / "gnubg_L03_s1001.mat"
