"""Numbers too long to be any match's are findings of the report, never a crash."""

from __future__ import annotations

import pytest

from tourney.rules.records import ErrorKind, validate_mat

HUGE = "9" * 5000
HEAD = " 3 point match\n\n Game 1\n A : 0   B : 0\n"


def test_a_match_length_of_thousands_of_digits_is_not_read() -> None:
    report = validate_mat(f" {HUGE} point match\n\n Game 1\n A : 0   B : 0\n")

    assert [(e.line, e.message, e.kind) for e in report.errors] == [
        (1, "the match length has 5,000 digits, more than any match needs; not read",
         ErrorKind.BOUNDS)
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (f" 3 point match\n\n Game {HUGE}\n A : 0   B : 0\n  1) 31: 8/5 6/5\n", 3),
        (f" 3 point match\n\n Game 1\n A : {HUGE}   B : 0\n  1) 31: 8/5 6/5\n", 4),
        (HEAD + f"  1) 31: 8/5 6/5      Doubles => {HUGE}\n", 5),
        (HEAD + f"  1) 31: 8/5 6/5\n  2)  Wins {HUGE} points\n", 6),
    ],
    ids=["game number", "score", "cube", "points won"],
)
def test_a_number_of_thousands_of_digits_is_a_finding_on_its_line(text: str, line: int) -> None:
    report = validate_mat(text)

    assert report.ok is False
    assert line in [e.line for e in report.errors]
