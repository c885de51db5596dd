"""Round names: counted from the end of a knockout, numbered elsewhere."""

from __future__ import annotations

import doctest

import pytest

from tourney.formats import rounds
from tourney.formats.rounds import (
    FINAL,
    NAMED_ROUNDS,
    QUARTERFINAL,
    SEMIFINAL,
    bracket_round_name,
    named_round,
    named_round_spelled,
    numbered_round_name,
    round_name,
    the_round,
)


@pytest.mark.parametrize(
    ("rounds_in_flight", "names"),
    [
        (1, ["Final"]),
        (2, ["Semifinal", "Final"]),
        (3, ["Quarterfinal", "Semifinal", "Final"]),
        (5, ["Round 1", "Round 2", "Quarterfinal", "Semifinal", "Final"]),
    ],
)
def test_knockout_rounds_are_named_from_the_end(rounds_in_flight: int, names: list[str]) -> None:
    assert [round_name(n, rounds_in_flight) for n in range(1, rounds_in_flight + 1)] == names


def test_a_consolation_names_its_own_last_round_the_final() -> None:
    # A 16-player main draw (4 rounds) feeding its round-1 losers into an 8-player
    # consolation (3 rounds): each flight counts from its own end.
    main = [bracket_round_name("main", n, 4, double_elimination=False) for n in (1, 2, 3, 4)]
    consolation = [
        bracket_round_name("consolation", n, 3, double_elimination=False) for n in (1, 2, 3)
    ]

    assert main == ["Round 1", "Quarterfinal", "Semifinal", "Final"]
    assert consolation == ["Quarterfinal", "Semifinal", "Final"]


def test_double_elimination_numbers_both_brackets_and_names_the_grand_final() -> None:
    names = [
        bracket_round_name("main", 3, 3, double_elimination=True),
        bracket_round_name("losers", 4, 4, double_elimination=True),
        bracket_round_name("final", 1, 2, double_elimination=True),
        bracket_round_name("final", 2, 2, double_elimination=True),
    ]

    assert names == ["Winners round 3", "Losers round 4", "Final", "Final (reset)"]


def test_swiss_and_round_robin_rounds_are_numbered() -> None:
    assert [numbered_round_name(n) for n in (1, 7)] == ["Round 1", "Round 7"]


def test_named_rounds_carry_the_round_length_keys() -> None:
    assert [(r.key, r.title, r.from_end) for r in NAMED_ROUNDS] == [
        ("final", "Final", 1),
        ("semifinal", "Semifinal", 2),
        ("quarterfinal", "Quarterfinal", 3),
    ]
    assert [named_round("semifinal"), named_round("3"), named_round("last")] == [
        SEMIFINAL,
        None,
        None,
    ]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Final", FINAL),
        ("finals", FINAL),
        ("Semis", SEMIFINAL),
        ("semi-final", SEMIFINAL),
        ("QF", QUARTERFINAL),
        ("quarter final", QUARTERFINAL),
        ("last sixteen", None),
    ],
)
def test_director_spellings_of_named_rounds(typed: str, meant: object) -> None:
    assert named_round_spelled(typed) is meant


def test_sentences_put_the_before_named_rounds_only() -> None:
    said = [the_round(name) for name in ("Semifinal", "Final (reset)", "Round 2", "Losers round 1")]

    assert said == ["the Semifinal", "the Final (reset)", "Round 2", "Losers round 1"]


def test_docstring_examples() -> None:
    failures, attempted = doctest.testmod(rounds)

    assert (failures, attempted > 0) == (0, True)
