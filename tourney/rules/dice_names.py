"""The names players give the 21 rolls (VARIANTS.md section 19), per language.

In Russia, the Caucasus, Iran and Turkey the rolls have names built from Persian
numerals with a few Turkish ones (du ek for 2-1, dubara for 2-2, shesh besh for 6-5).
They have no effect on the rules; pages show them beside rolls where an event asks.

The *registry* holds every naming: :func:`dice_names_named` finds one by its key and
:func:`registered_dice_names` lists them. The Russian forms are reconstructed from the
seeds' transliterations (neither seed prints Cyrillic); the Turkish ones are tavla's.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.dice import Roll
from tourney.rules.messages import N_
from tourney.rules.registry import Registry

ROLLS = (
    (1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (4, 4), (5, 1),
    (5, 2), (5, 3), (5, 4), (5, 5), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (6, 6),
)
"""The 21 distinct rolls, higher die first, in the order the names are listed below."""


@dataclass(frozen=True)
class DiceNames:
    """One language's names of the 21 rolls.

    >>> RUSSIAN_LATIN.name_of(Roll(6, 5))
    'sheshu besh'
    >>> RUSSIAN.name_of(Roll(1, 2))
    'ду-ек'
    """

    key: str
    title: str
    language: str
    """The language tag of the names (``ru``, ``ru-Latn``, ``tr``), for pages' ``lang``."""
    names: tuple[str, ...]
    """The names of :data:`ROLLS`, in that order."""

    def __post_init__(self) -> None:
        if len(self.names) != len(ROLLS):
            raise ValueError(f"{self.key}: {len(self.names)} names for {len(ROLLS)} rolls")

    def name_of(self, roll: Roll) -> str:
        """The name of ``roll`` (the order of its dice does not matter)."""
        high, low = max(roll.dice), min(roll.dice)
        return self.names[ROLLS.index((high, low))]


RUSSIAN = DiceNames(
    key="ru",
    title=N_("Russian (зары)"),
    language="ru",
    names=(
        "ягана", "ду-ек", "дубара", "се-ек", "се-ба-ду", "ду-се", "чару-ек", "чару-ду",
        "чару-се", "дёрт-чар", "пенджу-ек", "пенджу-ду", "пенджу-се", "пенджу-чар", "ду-беш",
        "шешу-ек", "шешу-ду", "шешу-се", "шешу-чар", "шешу-беш", "ду-шеш",
    ),
)
RUSSIAN_LATIN = DiceNames(
    key="ru-latn",
    title=N_("Russian, in Latin letters"),
    language="ru-Latn",
    names=(
        "yagana", "du ek", "dubara", "se ek", "se ba du", "du se", "charu ek", "charu du",
        "charu se", "dort char", "panju ek", "panju du", "panju se", "panju char", "du besh",
        "sheshu ek", "sheshu du", "sheshu se", "sheshu char", "sheshu besh", "du shesh",
    ),
)
TURKISH = DiceNames(
    key="tr",
    title=N_("Turkish (tavla)"),
    language="tr",
    names=(
        "hep yek", "yek-i dü", "dü bara", "se yek", "seba-i dü", "dü se", "cihar-ı yek",
        "cihar-i dü", "cihar-ü se", "dört cihar", "penc-i yek", "penc-i dü", "penc-ü se",
        "cihar-ü penc", "dü beş", "şeş-i yek", "şeş-i dü", "şeş-ü se", "şeş cihar", "şeş beş",
        "düşeş",
    ),
)

_REGISTRY = Registry[DiceNames]("dice names", key=lambda item: item.key)


def register_dice_names(item: DiceNames) -> DiceNames:
    """Add one to the registry; returns it.

    Raises:
        NotationError: another is registered under that key.
    """
    return _REGISTRY.register(item)


def registered_dice_names() -> tuple[DiceNames, ...]:
    """Every registered one, in the order they were registered."""
    return _REGISTRY.all()


def dice_names_named(key: str) -> DiceNames:
    """The registered one called ``key``.

    Raises:
        NotationError: none has that key; the message lists those that do.
    """
    return _REGISTRY.named(key)


def dice_names_for(key: str, language: str) -> DiceNames | None:
    """The names to show a reader of ``language`` for an event that asked for ``key``
    (empty: none): the registered names in the reader's own language where the seeds
    give some (Russian, Turkish), else the event's choice.

    >>> dice_names_for("ru-latn", "ru") is RUSSIAN, dice_names_for("ru", "tr") is TURKISH
    (True, True)
    >>> dice_names_for("ru", "de") is RUSSIAN, dice_names_for("", "ru")
    (True, None)
    """
    if not key:
        return None
    chosen = dice_names_named(key)
    own = next((item for item in registered_dice_names() if item.language == language), None)
    return own or chosen


for _item in (RUSSIAN, RUSSIAN_LATIN, TURKISH):
    register_dice_names(_item)
