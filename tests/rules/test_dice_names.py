"""The names of the 21 rolls, checked against the table of VARIANTS.md section 19."""

from __future__ import annotations

import pytest

from tourney.rules import NotationError, Roll
from tourney.rules.dice_names import (
    RUSSIAN,
    RUSSIAN_LATIN,
    TURKISH,
    dice_names_named,
    registered_dice_names,
)


@pytest.mark.parametrize(
    ("dice", "russian", "latin", "turkish"),
    [
        ((1, 1), "ягана", "yagana", "hep yek"),
        ((1, 2), "ду-ек", "du ek", "yek-i dü"),
        ((2, 2), "дубара", "dubara", "dü bara"),
        ((4, 3), "чару-се", "charu se", "cihar-ü se"),
        ((4, 4), "дёрт-чар", "dort char", "dört cihar"),
        ((5, 4), "пенджу-чар", "panju char", "cihar-ü penc"),
        ((5, 5), "ду-беш", "du besh", "dü beş"),
        ((6, 5), "шешу-беш", "sheshu besh", "şeş beş"),
        ((6, 6), "ду-шеш", "du shesh", "düşeş"),
    ],
)
def test_a_roll_has_the_same_name_whichever_die_is_written_first(
    dice: tuple[int, int], russian: str, latin: str, turkish: str
) -> None:
    for roll in (Roll(*dice), Roll(dice[1], dice[0])):
        assert (RUSSIAN.name_of(roll), RUSSIAN_LATIN.name_of(roll), TURKISH.name_of(roll)) == (
            russian, latin, turkish)


def test_every_language_names_all_21_rolls_differently() -> None:
    rolls = [Roll(high, low) for high in range(1, 7) for low in range(1, high + 1)]

    for naming in registered_dice_names():
        assert len({naming.name_of(roll) for roll in rolls}) == 21, naming.key


def test_an_unknown_language_is_refused_naming_the_known_ones() -> None:
    assert dice_names_named("tr") is TURKISH
    with pytest.raises(NotationError, match=r"Unknown dice names 'de'; choose one of ru, "):
        dice_names_named("de")
