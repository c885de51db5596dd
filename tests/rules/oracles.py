"""Finding the external oracles the rules tests compare against.

A missing oracle skips its tests with the reason, unless TOURNEY_REQUIRE_ORACLES is set
(as CI sets it), where a missing oracle is a failure: CI must really run them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)


def require(available: bool, reason: str) -> None:
    """Skip (or, when oracles are required, fail) unless the oracle is available."""
    if available:
        return
    if os.environ.get("TOURNEY_REQUIRE_ORACLES"):
        pytest.fail(f"{reason}, and TOURNEY_REQUIRE_ORACLES is set")
    pytest.skip(reason)


def run_gnubg_python(script: str, payload: Any) -> list[str]:
    """Run ``script`` in gnubg's embedded Python with ``payload`` as JSON in a file named
    by TOURNEY_PAYLOAD; return the lines it printed that start with ``RESULT ``."""
    require(GNUBG is not None, "GNU Backgammon (apt-get install gnubg) is not installed")
    assert GNUBG is not None
    with tempfile.TemporaryDirectory() as folder:
        script_path = Path(folder, "script.py")
        script_path.write_text(script)
        payload_path = Path(folder, "payload.json")
        payload_path.write_text(json.dumps(payload))
        completed = subprocess.run(
            [GNUBG, "-t", "-q", "-p", str(script_path)],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "TOURNEY_PAYLOAD": str(payload_path), "HOME": folder},
            check=False,
        )
    lines = [line[7:] for line in completed.stdout.splitlines() if line.startswith("RESULT ")]
    if not lines:
        raise AssertionError(f"gnubg printed no results:\n{completed.stdout}\n{completed.stderr}")
    return lines
