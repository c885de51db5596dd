"""``tourney simulate`` is reproducible across releases: fixed arguments and seeds print
the very documents kept in ``tests/data/simulate`` (made before the format engines were
reorganised), byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tourney.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "simulate"

CASES = {
    "knockout_37_consolation_last_chance_s7.json":
        "--format knockout --players 37 --consolation --last-chance --seed 7",
    "knockout_16_double_s3.json":
        "--format knockout --players 16 --double-elimination --match-length 5 --seed 3",
    "knockout_12_consolation_s1.json": "--format knockout --players 12 --consolation --seed 1",
    "knockout_8_long_s2.json": "--format knockout --players 8 --variant long --seed 2",
    "swiss_101_lives3_s7.json": "--format swiss --players 101 --lives 3 --seed 7",
    "swiss_24_rounds5_s11.json": "--format swiss --players 24 --rounds 5 --seed 11",
    "roundrobin_9_s5.json": "--format roundrobin --players 9 --match-length 3 --seed 5",
    "roundrobin_6_hypergammon_s4.json":
        "--format roundrobin --players 6 --variant hypergammon --seed 4",
}


@pytest.mark.parametrize("filename", sorted(CASES))
def test_simulate_document_unchanged_for_fixed_seed(filename: str) -> None:
    expected = (DATA / filename).read_text(encoding="utf-8")

    result = CliRunner().invoke(cli, ["simulate", *CASES[filename].split(), "--json"])

    assert result.exit_code == 0, result.output
    assert result.output == expected
