"""Variants of the game as objects: one class per variant, one engine underneath.

Terminology: a *variant* is a set of rules a game is played by. Standard backgammon,
nackgammon and hypergammon share every rule of movement and differ in where the checkers
start and how many there are (``Variant`` and its subclasses; plays come from
``tourney.rules.moves``). Long nardy has its own movement rules (``LongNardy``, plays from
``tourney.rules.nardy``). *Event options* (:class:`VariantOptions`) are the choices the
sources leave to an event: whether gammons count in hypergammon, whether the cube is used
in long nardy, how a koks scores, and so on.

What the match and web layers need is here as plain attributes and functions:
``title``, ``level_names``, ``levels(options)``, ``level_points(level, options)``,
``uses_cube(options)``, ``uses_crawford(options)``, ``mat_variation`` and
``variant_named()`` / ``variant_for_mat()``.

>>> variant_named("hypergammon").level_points(Level.GAMMON)
1
>>> variant_named("long-nardy").level_names[Level.GAMMON]
'mars'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, TypeAlias

from tourney.rules.board import Position
from tourney.rules.errors import NotationError
from tourney.rules.game import Level
from tourney.rules.nardy import NardyPosition, NardyRules
from tourney.rules.position_id import decode_position_id


class NextGameStarter(Enum):
    """Who opens the next game of a match (a long-nardy event option)."""

    ROLL = "roll"
    """Both players roll one die, as in backgammon."""
    WINNER = "winner"
    """The previous game's winner."""
    ALTERNATE = "alternate"
    """Colours alternate from game to game."""


@dataclass(frozen=True, slots=True)
class VariantOptions:
    """The choices an event makes for its variant; ``None`` means the variant's default."""

    gammons: bool | None = None
    """Whether gammons and backgammons count (hypergammon: off by default, as the seed
    rules say; gnubg counts them, so its files are validated with them on)."""
    cube: bool | None = None
    """Whether the doubling cube is used (off by default in long nardy)."""
    crawford: bool | None = None
    """Whether the Crawford rule applies (with the cube; off by default in long nardy)."""
    koks: bool = False
    """Long nardy: score a koks 3 points (the seeds count it as a mars, 2)."""
    last_roll_draw: bool = False
    """Long nardy: the second player gets a last roll, and bearing everything off with it
    draws the game."""
    strict_block: bool = False
    """Long nardy: a six-point block only once an opposing checker has reached its home."""
    next_game_starter: NextGameStarter | None = None
    """Who opens the next game (backgammon: a roll of one die each; long nardy default:
    the previous game's winner)."""

    def nardy_rules(self) -> NardyRules:
        """The long-nardy move and scoring rules these options select."""
        return NardyRules(strict_block=self.strict_block, koks=self.koks)


DEFAULT_OPTIONS = VariantOptions()

_BACKGAMMON_WORDS = {Level.SINGLE: "single", Level.GAMMON: "gammon",
                     Level.BACKGAMMON: "backgammon"}


@dataclass(frozen=True)
class Variant:
    """A backgammon-family variant: its name, checkers a side and starting layout (own
    numbering); every rule of movement is standard backgammon's."""

    name: str
    checkers: int
    start: tuple[tuple[int, int], ...]
    title: str = ""
    """The name to show on pages and sheets."""
    mat_variation: str | None = None
    """The ``[Variation "..."]`` header gnubg writes for it in ``.mat`` files."""
    gammons_by_default: bool = True
    level_names: dict[Level, str] = field(
        default_factory=lambda: dict(_BACKGAMMON_WORDS), compare=False, repr=False)
    """The words for the result levels (single/gammon/backgammon)."""

    family: ClassVar[str] = "backgammon"
    """``backgammon`` (moves from ``tourney.rules.moves``) or ``nardy``."""

    def initial(self) -> Position:
        """The starting position, either side on roll."""
        layout = dict(self.start)
        return Position.from_points(layout, layout, checkers=self.checkers)

    def decode_position_id(self, position_id: str) -> Position:
        """Decode a gnubg Position ID, counting missing checkers as borne off.

        Raises:
            NotationError: the ID is malformed or holds too many checkers.
        """
        return decode_position_id(position_id, checkers=self.checkers)

    def counts_gammons(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether gammons and backgammons score more than a single game."""
        return self.gammons_by_default if options.gammons is None else options.gammons

    def levels(self, options: VariantOptions = DEFAULT_OPTIONS) -> tuple[Level, ...]:
        """The result levels a game can end at under ``options``."""
        if not self.counts_gammons(options):
            return (Level.SINGLE,)
        return (Level.SINGLE, Level.GAMMON, Level.BACKGAMMON)

    def level_points(self, level: Level, options: VariantOptions = DEFAULT_OPTIONS) -> int:
        """The points a level scores before the cube (1 for every level when gammons do
        not count)."""
        return int(level) if self.counts_gammons(options) else 1

    def uses_cube(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the doubling cube is used."""
        return True if options.cube is None else options.cube

    def uses_crawford(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the Crawford rule applies in matches."""
        if not self.uses_cube(options):
            return False
        return True if options.crawford is None else options.crawford


@dataclass(frozen=True)
class StandardBackgammon(Variant):
    """Backgammon as DESIGN §2 states it."""

    name: str = "standard"
    checkers: int = 15
    start: tuple[tuple[int, int], ...] = ((24, 2), (13, 5), (8, 3), (6, 5))
    title: str = "Backgammon"


@dataclass(frozen=True)
class Nackgammon(Variant):
    """Standard rules; start 2 on the 24 point, 2 on the 23, 4 on the 13, 3 on the 8 and
    4 on the 6."""

    name: str = "nackgammon"
    checkers: int = 15
    start: tuple[tuple[int, int], ...] = ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))
    title: str = "Nackgammon"
    mat_variation: str | None = "NackGammon"


@dataclass(frozen=True)
class Hypergammon(Variant):
    """Standard rules with three checkers a side, on the 24, 23 and 22 points. The seed
    rules count no gammons or backgammons; gnubg counts them (an event option)."""

    name: str = "hypergammon"
    checkers: int = 3
    start: tuple[tuple[int, int], ...] = ((24, 1), (23, 1), (22, 1))
    title: str = "Hypergammon"
    mat_variation: str | None = "HyperGammon (3)"
    gammons_by_default: bool = False


@dataclass(frozen=True)
class LongNardy:
    """Long nardy (``tourney.rules.nardy``): fifteen checkers on the head, no hitting, the
    head and six-block rules; oin 1, mars 2; no cube unless the event uses one."""

    name: str = "long-nardy"
    checkers: int = 15
    title: str = "Long nardy"
    mat_variation: str | None = None
    level_names: dict[Level, str] = field(default_factory=lambda: {
        Level.SINGLE: "oin", Level.GAMMON: "mars", Level.BACKGAMMON: "koks"},
        compare=False, repr=False)
    """The words for the result levels: oin, mars, koks."""

    family: ClassVar[str] = "nardy"

    def initial(self) -> NardyPosition:
        """Both sides' fifteen checkers on their heads."""
        return NardyPosition.initial()

    def decode_position_id(self, position_id: str) -> NardyPosition:
        """Decode a long-nardy position ID.

        Raises:
            NotationError: the ID is malformed or not a legal long-nardy position.
        """
        return NardyPosition.from_id(position_id)

    def counts_gammons(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """A mars always counts double."""
        return True

    def levels(self, options: VariantOptions = DEFAULT_OPTIONS) -> tuple[Level, ...]:
        """Oin and mars, and koks where the event scores it."""
        if options.koks:
            return (Level.SINGLE, Level.GAMMON, Level.BACKGAMMON)
        return (Level.SINGLE, Level.GAMMON)

    def level_points(self, level: Level, options: VariantOptions = DEFAULT_OPTIONS) -> int:
        """Oin 1, mars 2, koks 3 when scored (else a mars, 2)."""
        if level is Level.BACKGAMMON and not options.koks:
            return 2
        return int(level)

    def uses_cube(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """The cube only where the event turns it on (the Russian sport rules use it)."""
        return bool(options.cube)

    def uses_crawford(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Crawford only with the cube, and only where the event asks for it."""
        return self.uses_cube(options) and bool(options.crawford)

    def next_game_starter(self, options: VariantOptions = DEFAULT_OPTIONS) -> NextGameStarter:
        """Who opens the next game: the previous winner unless the event says otherwise."""
        return options.next_game_starter or NextGameStarter.WINNER


AnyVariant: TypeAlias = Variant | LongNardy

STANDARD: Variant = StandardBackgammon()
NACKGAMMON: Variant = Nackgammon()
HYPERGAMMON: Variant = Hypergammon()
LONG_NARDY = LongNardy()

VARIANTS: dict[str, AnyVariant] = {
    variant.name: variant for variant in (STANDARD, NACKGAMMON, HYPERGAMMON, LONG_NARDY)
}
_ALIASES = {"backgammon": "standard", "long": "long-nardy", "nardy": "long-nardy",
            "long_nardy": "long-nardy", "longnardy": "long-nardy", "nack": "nackgammon",
            "hyper": "hypergammon", "hypergammon3": "hypergammon"}


def variant_named(name: str) -> AnyVariant:
    """The variant called ``name``: ``standard``, ``nackgammon``, ``hypergammon`` or
    ``long-nardy`` (also ``long``, ``nardy``).

    >>> variant_named("long").name
    'long-nardy'

    Raises:
        NotationError: no variant has that name.
    """
    key = name.strip().lower()
    try:
        return VARIANTS[_ALIASES.get(key, key)]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise NotationError(f"unknown variant {name!r}; choose one of {known}") from None


def backgammon_variant_named(name: str) -> Variant:
    """Like :func:`variant_named`, for callers that need a backgammon-family variant.

    Raises:
        NotationError: no such variant, or it is long nardy.
    """
    variant = variant_named(name)
    if not isinstance(variant, Variant):
        raise NotationError(f"{variant.name} is not played with backgammon's rules")
    return variant


def variant_for_mat(variation: str | None) -> Variant:
    """The variant a ``.mat`` header's ``[Variation "..."]`` value names (none: standard).

    >>> variant_for_mat("HyperGammon (3)").name
    'hypergammon'

    Raises:
        NotationError: a variation the rules core does not play (e.g. 1-checker
            hypergammon).
    """
    if variation is None:
        return STANDARD
    text = variation.strip().lower().replace(" ", "")
    if text in ("", "backgammon", "standard"):
        return STANDARD
    if text == "nackgammon":
        return NACKGAMMON
    if text in ("hypergammon(3)", "hypergammon"):
        return HYPERGAMMON
    raise NotationError(f"variation {variation!r} is not supported (backgammon, "
                        "NackGammon, HyperGammon (3))")
