"""gnubg re-imports what our writer produces and re-exports the same match it exports
from the original file. Skipped where gnubg is not installed, unless
TOURNEY_REQUIRE_ORACLES=1 (CI), where a missing gnubg fails the test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from records_data import GNUBG_FILES
from test_mat_producers import XG_BOM_CRLF

from tourney.rules.records import format_mat, validate_mat

GNUBG_BINARY = shutil.which("gnubg") or "/usr/games/gnubg"


def _gnubg() -> str:
    if Path(GNUBG_BINARY).exists():
        return GNUBG_BINARY
    if os.environ.get("TOURNEY_REQUIRE_ORACLES") == "1":
        pytest.fail("gnubg is required (TOURNEY_REQUIRE_ORACLES=1) but not installed")
    pytest.skip("gnubg is not installed (apt-get install gnubg); round trip not checked")


def _reexport(gnubg: str, pairs: list[tuple[Path, Path]]) -> None:
    commands = ["set confirm new off", "set confirm save off"]
    for source, target in pairs:
        commands += [f'import mat "{source}"', f'export match mat "{target}"']
    subprocess.run([gnubg, "-t", "-q", "-r"], input="\n".join(commands) + "\n", text=True,
                   capture_output=True, timeout=300, check=False)


def test_gnubg_reexports_our_output_identically(tmp_path: Path) -> None:
    gnubg = _gnubg()
    sources = {path.stem: path.read_bytes() for path in GNUBG_FILES}
    sources["xg_bom_crlf"] = XG_BOM_CRLF.encode("utf-8")
    pairs = []
    for stem, data in sources.items():
        original = tmp_path / f"{stem}.orig.mat"
        original.write_bytes(data)
        ours = tmp_path / f"{stem}.ours.mat"
        ours.write_text(format_mat(validate_mat(data)))
        pairs += [(original, tmp_path / f"{stem}.orig.re.mat"),
                  (ours, tmp_path / f"{stem}.ours.re.mat")]

    _reexport(gnubg, pairs)

    mismatches = [
        stem for stem in sources
        if not (tmp_path / f"{stem}.ours.re.mat").exists()
        or (tmp_path / f"{stem}.ours.re.mat").read_text()
        != (tmp_path / f"{stem}.orig.re.mat").read_text()
    ]
    assert mismatches == []
    assert len(sources) == len(GNUBG_FILES) + 1
