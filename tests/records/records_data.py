"""Where the record tests find their data: the gnubg corpus subset under tests/data/records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"
GNUBG = RECORDS / "gnubg"
GNUBG_FILES = sorted(GNUBG.glob("*.mat"))


def gnubg_json(path: Path) -> dict[str, Any]:
    """gnubg's own record of the match in ``path`` (the .json beside it)."""
    data: dict[str, Any] = json.loads(path.with_suffix(".json").read_text())
    return data["gnubg_match"]


