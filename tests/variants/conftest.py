"""The variant tests share the rules tests' oracle helpers (tests/rules)."""

from __future__ import annotations

import sys
from pathlib import Path

_RULES_TESTS = str(Path(__file__).resolve().parent.parent / "rules")
if _RULES_TESTS not in sys.path:
    sys.path.insert(0, _RULES_TESTS)
