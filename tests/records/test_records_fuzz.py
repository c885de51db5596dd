"""Fuzzing the reader and validator: whatever the bytes, a report comes back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_data import GNUBG_FILES

from tourney.rules.records import format_mat, validate_mat

SEEDS = [path.read_bytes() for path in GNUBG_FILES[:6]]
TOKENS = [b" Game 1\n", b" 3 point match\n", b"Doubles => 2", b"Takes", b"Drops", b"Beavers => 4",
          b"Wins 2 points", b"33: ???", b"bar/22", b"6/off", b"13/7*/4", b"8/7(2)", b"\r\n",
          b"\xef\xbb\xbf", b"; comment\n", b"Cannot Move", b"A : 0   B : 9\n", b"  7) 66: ",
          b"25/0", b"\xff\xfe", b"0 point match\n"]


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        choice = draw(st.integers(0, 3))
        if choice == 0:
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif choice == 1:
            data[at:at + draw(st.integers(1, 40))] = b""
        elif choice == 2:
            data[at:at] = draw(st.binary(max_size=12))
        else:
            del data[at:]
    return bytes(data)


inputs = st.one_of(mutated_records(), st.binary(max_size=400),
                   st.lists(st.sampled_from(TOKENS), max_size=30).map(b"".join))


def _check(data: bytes) -> None:
    report = validate_mat(data)
    report.to_json("fuzz.mat")
    for error in report.errors:
        assert error.message
    if report.ok:
        format_mat(report)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs)
def test_fuzz_reader_and_validator_never_raise(data: bytes) -> None:
    _check(data)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs)
def test_fuzz_reader_and_validator_never_raise_long(data: bytes) -> None:
    _check(data)
