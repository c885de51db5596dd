"""Match forms: which variant each game of a match is played in, and how the match ends.

Most matches play every game in one variant, first to N points; a club may instead play
first to N games, each game counting 1 (``GAMES``). Some traditions play
several variants in turn (VARIANTS.md section 16):

- *Tavli* (Greece): Portes, Plakoto, Fevga, then Portes again, until a player reaches
  the target (3, 5 or 7); no cube; each game scores 1 or 2 by its own rules.
- *Tabla* (Bulgaria, North Macedonia): backgammon without the cube, Gul bara, Tapa, in
  turn, to 5 or 7.
- *The seeds' mixed match*: hypergammon, long nardy, short backgammon, one game each;
  the match is the sum of their points, and when the three games end level a fourth
  game of hypergammon decides.

The *registry* holds every match form; :func:`match_form_named` finds one by name and
:func:`registered_match_forms` lists them. A form names its variants by their registry
names and never looks inside them: what a game scores is its variant's business.

Terminology:
    rotation   the variants of games 1, 2, 3 ... in turn; empty for a one-variant match,
               whose games are all in the event's variant.
    fixed      a match of the rotation's games only (plus the decider on a tie), not
               first to N.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.messages import N_
from tourney.rules.registry import Registry


@dataclass(frozen=True)
class MatchForm:
    """One way to make a match of games (see the module's terminology).

    >>> TAVLI.variant_of_game(4, "standard")
    'portes'
    >>> SINGLE.variant_of_game(4, "long-nardy")
    'long-nardy'
    >>> MIXED.variant_of_game(4, "standard")
    'hypergammon'
    """

    name: str
    title: str
    description: str
    rotation: tuple[str, ...] = ()
    fixed: bool = False
    decider: str | None = None
    """The variant of the game played when a fixed match ends level."""
    uses_cube: bool = True
    """Whether the cube may be used in any game (where the game's variant uses it)."""
    counts_games: bool = False
    """Whether every game counts 1 (first to N games: no cube, no gammons), not the
    points its result scores."""

    def length_words(self, length: int) -> str:
        """The match length as pages and sheets word it.

        >>> SINGLE.length_words(7), GAMES.length_words(1), GAMES.length_words(3)
        ('7 points', 'first to 1 game', 'first to 3 games')
        """
        if self.counts_games:
            return f"first to {length} game" + ("" if length == 1 else "s")
        return f"{length} point" + ("" if length == 1 else "s")

    @property
    def is_single(self) -> bool:
        """Every game in the event's variant."""
        return not self.rotation

    def variant_of_game(self, number: int, event_variant: str) -> str:
        """The variant name of game ``number`` (from 1) of a match of an event that plays
        ``event_variant``."""
        if not self.rotation:
            return event_variant
        if self.fixed and number > len(self.rotation) and self.decider is not None:
            return self.decider
        return self.rotation[(number - 1) % len(self.rotation)]


SINGLE = MatchForm(
    name="single",
    title=N_("One variant"),
    description=N_("Every game in the event's variant, first to the match length"),
)
GAMES = MatchForm(
    name="games",
    title=N_("First to N games"),
    description=N_("Every game in the event's variant, each game counting 1 (no cube, no "
    "gammons); the first to win the match length in games wins"),
    uses_cube=False,
    counts_games=True,
)
TAVLI = MatchForm(
    name="tavli",
    title=N_("Tavli"),
    description=N_("Portes, Plakoto and Fevga in turn, first to the match length, no cube"),
    rotation=("portes", "plakoto", "fevga"),
    uses_cube=False,
)
TABLA = MatchForm(
    name="tabla",
    title=N_("Tabla rotation"),
    description=N_("Backgammon without the cube, Gul bara and Tapa in turn, first to the match "
    "length"),
    rotation=("standard", "gul-bara", "tapa"),
    uses_cube=False,
)
MIXED = MatchForm(
    name="mixed",
    title=N_("Mixed match"),
    description=N_("One game each of hypergammon, long nardy and backgammon; a hypergammon "
    "game decides a tie"),
    rotation=("hypergammon", "long-nardy", "standard"),
    fixed=True,
    decider="hypergammon",
    uses_cube=False,
)

_REGISTRY = Registry[MatchForm]("match form", key=lambda item: item.name)


def register_match_form(item: MatchForm) -> MatchForm:
    """Add one to the registry; returns it.

    Raises:
        NotationError: another is registered under that name.
    """
    return _REGISTRY.register(item)


def registered_match_forms() -> tuple[MatchForm, ...]:
    """Every registered one, in the order they were registered."""
    return _REGISTRY.all()


def match_form_named(name: str) -> MatchForm:
    """The registered one called ``name``.

    Raises:
        NotationError: none has that name; the message lists those that do.
    """
    return _REGISTRY.named(name)


for _item in (SINGLE, TAVLI, TABLA, MIXED, GAMES):
    register_match_form(_item)
