"""Player names match however people type them: accents, case, apostrophes, word order."""

from __future__ import annotations

import pytest

from tourney.store.names import name_matches, person_key, search_key


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("obrien", "Sean O'Brien"),
        ("obrien", "Sean O’Brien"),
        ("O'BRIEN", "Sean O’Brien"),
        ("zoe", "Zoë Martin"),
        ("jurgen weiss", "Jürgen Weiss"),
        ("asa", "Åsa Lindqvist"),
    ],
)
def test_search_finds_the_name_whatever_accents_case_and_apostrophes(typed: str, name: str) -> None:
    assert name_matches(typed, name) is True


def test_search_does_not_find_another_name() -> None:
    assert name_matches("zoe", "Åsa Lindqvist") is False


def test_search_key_folds_to_plain_lower_case_words() -> None:
    assert search_key("  Zoë   O’Brien ") == "zoe obrien"


def test_surname_first_with_a_comma_is_the_same_person() -> None:
    assert person_key("O’Brien, Seán") == person_key("Sean O'Brien") == ("obrien", "sean")


def test_different_people_have_different_keys() -> None:
    assert person_key("Sean O'Brien") != person_key("Sean Brien")
