"""Variants of the game as declarative definitions, and the one registry of them.

Terminology: a variant is defined by one :class:`Variant` value (VARIANTS.md section 17,
one row): its rules of movement (:class:`~tourney.rules.movement.MovementRules`, played by
the engine :func:`~tourney.rules.movement.movement_for` picks), its scoring levels
(:class:`ScoringLevel`), its defaults for the event options (:class:`VariantOptions`),
the options an event may change (:class:`OptionSpec`), its opening rule and its names. A
``Variant`` answers :class:`GameVariant`, the protocol every layer outside the rules core
uses. The *registry* holds every variant tourney knows: :func:`register_variant` adds
one, :func:`variant_named` finds one by name or alias, :func:`variant_for_mat` by a
``.mat`` file's ``[Variation "..."]`` header, and :func:`registered_variants` lists them.
Adding a variant is adding one definition and registering it.

>>> variant_named("hypergammon").level_points(Level.GAMMON)
1
>>> str(variant_named("long-nardy").level_names[Level.GAMMON])
'mars'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from types import MappingProxyType
from typing import Any

from tourney.rules.dice import Roll
from tourney.rules.errors import NotationError
from tourney.rules.game import Level
from tourney.rules.layout import BoardLayout
from tourney.rules.messages import N_, ListMessage
from tourney.rules.movement import (
    BackgammonMovement,
    BearOff,
    Doubles,
    Ending,
    Entry,
    EntryPermission,
    ExtraRoll,
    FailurePolicy,
    Geometry,
    Landing,
    Movement,
    MovementRules,
    PoolEntry,
    Restriction,
    SpecialRoll,
    movement_for,
)
from tourney.rules.moves import Play, format_play
from tourney.rules.variant_protocol import (
    DEFAULT_OPTIONS,
    GameVariant,
    NextGameStarter,
    OptionChoice,
    OptionSpec,
    OptionValue,
    VariantOptions,
    VariantPosition,
    flag_option,
)

__all__ = [
    "ACEY_DEUCEY",
    "ACEY_DEUCEY_EUROPEAN",
    "AD_ELTA_STELPUR",
    "AMERICAN",
    "AMERICAN_LEVELS",
    "ASODIO",
    "BACKGAMMON_DEFAULTS",
    "BACKGAMMON_LEVELS",
    "CHASE",
    "DEFAULT_OPTIONS",
    "DEFAULT_VARIANT",
    "DUTCH",
    "FEVGA",
    "GAMMONS_TAG",
    "GIOUL",
    "GUL_BARA",
    "HOUSE_RULE_CHANGES",
    "HOUSE_RULE_OPTIONS",
    "HYPERGAMMON",
    "ICELANDIC",
    "JACQUET",
    "LONG_NARDY",
    "MATADOR",
    "MISERE",
    "MOULTEZIM",
    "NACKGAMMON",
    "PLAKOTO",
    "PORTES",
    "RUSSIAN",
    "SNAKE",
    "STANDARD",
    "TAPA",
    "TAVLI_DEFAULTS",
    "TAVLI_LEVELS",
    "GameVariant",
    "NextGameStarter",
    "Opening",
    "RecordTag",
    "RuleChange",
    "ScoringLevel",
    "Variant",
    "VariantOptions",
    "backgammon_variant_named",
    "is_registered",
    "register_variant",
    "registered_variants",
    "tag_flag",
    "unregister_variant",
    "variant_for_mat",
    "variant_named",
]


class Opening(Enum):
    """How the first game of a match opens."""

    HIGHER_DIE_PLAYS = "higher-die-plays"
    """Each player rolls one die; the higher plays the two dice as rolled, so a game
    never opens with a doublet."""
    HIGHER_DIE_ROLLS_AGAIN = "higher-die-rolls-again"
    """Each player rolls one die; the higher rolls both dice afresh for the first move,
    which may be a doublet."""
    WHITE_ROLLS = "white-rolls"
    """A lot gives the colours; White rolls both dice for the first move, which may be a
    doublet (the seed's American game, VARIANTS.md 2.3)."""
    LOWER_DIE_ROLLS_AGAIN = "lower-die-rolls-again"
    """Each player rolls one die; the lower rolls both dice afresh for the first move
    (the chase games, VARIANTS.md 6.3)."""


@dataclass(frozen=True, slots=True)
class ScoringLevel:
    """One result level of a variant: its word and points, and the event option that
    decides whether it counts at all."""

    level: Level
    word: str
    """The variant's word for it: ``gammon``, or ``mars`` in long nardy."""
    points: int
    """What it scores before the cube where it counts."""
    option: str | None = None
    """The :class:`VariantOptions` flag that must be on for it to count (``None``:
    always counts)."""
    otherwise: Level = Level.SINGLE
    """The level it counts as where ``option`` is off (a koks as a mars)."""
    counted: bool = True
    """Whether it is ever a level of its own; if not it always counts as ``otherwise``
    (a backgammon in Portes counts as a gammon)."""


def tag_flag(value: str) -> bool:
    """Whether a record's header tag says on (``[Crawford "On"]``).

    >>> tag_flag(" On"), tag_flag("off"), tag_flag("maybe")
    (True, False, False)
    """
    return value.strip().lower() in ("on", "yes", "true", "1")


def _starter_tag(value: str) -> NextGameStarter | None:
    """The ``[NextGame "winner"]`` tag's rule; ``None`` for a value it does not name."""
    try:
        return NextGameStarter(value.strip().lower())
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class RecordTag:
    """A record header tag that sets an event option where the caller gives none."""

    option: str
    """The :class:`VariantOptions` field it sets."""
    tag: str
    """The tag's name: ``[Koks "On"]`` -> ``Koks``."""
    absent: OptionValue | None = None
    """The option's value when the record has no such tag."""
    parse: Callable[[str], OptionValue | None] = tag_flag
    """The tag's value as the option's."""


@dataclass(frozen=True, slots=True)
class RuleChange:
    """An offered option that changes the rules of movement where it is on."""

    option: str
    """The :class:`VariantOptions` flag."""
    change: Callable[[MovementRules], MovementRules]
    """The rules of movement with the option on, from the variant's own."""
    when: bool = True
    """The flag's value that makes the change: off for an option whose default is on
    (the chase games' ``chase_reroll_after_double``)."""


MAXIMISE_ACROSS_STAGES = flag_option(
    "maximise_across_stages", N_("Most values over the whole turn"),
    N_("On: a turn of several stages must use the most values over all of them, so an early "
    "stage is played so that later ones can be completed. Off: each stage is played as "
    "fully as it can be on its own."),
    on_phrase=N_("most values over the turn"),
    on_rule=N_("A turn uses the most values over all its stages"))
"""The option of VARIANTS.md D-STAGE, for the variants whose turns have stages."""

FREE_ENTRY = flag_option(
    "free_entry", N_("Enter or move as the player likes"),
    N_("On: once a checker is in, each value may enter another or move one on the board. "
    "Off: every checker enters before any moves."),
    on_phrase=N_("free entry"), on_rule=N_("Checkers enter or move as the player likes"))
"""The entry discipline's option (VARIANTS.md 3 and 8: ``FREE_ENTRY``)."""

FREE_ENTRY_CHANGE = RuleChange(
    "free_entry", lambda rules: replace(rules, pool_entry=PoolEntry.FREE))

MAXIMISE_ACROSS_STAGES_CHANGE = RuleChange(
    "maximise_across_stages", lambda rules: replace(rules, maximise_across_stages=True))

LAST_ROLL_DRAW = flag_option(
    "last_roll_draw", N_("Last-roll draw"),
    N_("The second player gets a last roll; bearing everything off with it draws the "
       "game."),
    on_phrase=N_("last-roll draw"), on_rule=N_("Last-roll draw"))
"""The "with draw" option (VARIANTS.md 16.5): when the side that moved first bears off
its last checker, the other side rolls once more, and finishing with it is a draw."""

COMPENSATION_EXTRA_ROLLS = flag_option(
    "compensation_includes_extra_rolls", N_("Extra rolls on the last roll"),
    N_("Only with the last-roll draw: the second player's last roll earns the extra rolls "
       "of the game (a doublet played in full, a 1-2), so the draw may take several rolls. "
       "Off: the one roll only."),
    on_phrase=N_("extra rolls on the last roll"),
    on_rule=N_("The last roll earns the game's extra rolls"), requires="last_roll_draw",
    conflict=N_("Extra rolls on the last roll belong to the last-roll draw: turn the "
                "last-roll draw on too, or leave this option off."))
"""VARIANTS.md 16.5's ``compensation_includes_extra_rolls``, for the variants that grant
extra rolls."""

LAST_ROLL_DRAW_CHANGE = RuleChange(
    "last_roll_draw", lambda rules: replace(rules, last_roll=True))
"""The last-roll draw in the generic engine: the second player's last roll is played
although the first has borne off every checker (long nardy's own engine always plays
it, and picks these rules all the same)."""

NO_DOUBLE_ON_FIRST_TURN = flag_option(
    "no_double_on_first_turn", N_("No double before a player's first roll"),
    N_("On: neither player may double before his own first roll of a game (the second "
       "player may not double on his first turn). Off: from his first turn on."),
    on_phrase=N_("no double on the first turn"),
    on_rule=N_("No double before a player's first roll of a game"))
"""S000's cube option (VARIANTS.md 16.6), for the variants that always use the cube."""

NO_DOUBLE_ON_FIRST_TURN_WITH_CUBE = replace(
    NO_DOUBLE_ON_FIRST_TURN, requires="cube",
    conflict=N_("The first-turn rule is about doubling: turn the doubling cube on too, or "
                "leave the first-turn rule off."))
"""The same, for the variants where the cube is an option."""

JACQUET_1840_HITTING = flag_option(
    "jacquet_1840_hitting", N_("Hitting, as in 1840"),
    N_("On: a single opposing checker is hit to the bar and re-enters in its side's first "
       "quarter (Ludii's Jacquet after Moulidars, 1840). Off: one checker holds a point."),
    on_phrase=N_("hitting (1840)"),
    on_rule=N_("A single checker is hit and re-enters in the first quarter"))
"""Jacquet's option of VARIANTS.md 7.2 (Q-JAC-2)."""

JACQUET_1840_HITTING_CHANGE = RuleChange(
    "jacquet_1840_hitting",
    lambda rules: replace(rules, landing=Landing.BLOCK2, entry=Entry.BAR_FIRST))


HOUSE_RULE_OPTIONS = (
    flag_option(
        "five_checker_limit", "At most five checkers on a point",
        N_("The British house rule: no point may hold more than five of a side's checkers, "
        "and a checker may not land, even on its way, where five of its side stand."),
        on_phrase=N_("five-checker limit"), on_rule=N_("At most five checkers on a point")),
    flag_option(
        "no_hit_and_run_at_home", N_("No hit-and-run in the home board"),
        N_("The Middle Eastern house rule: a checker that hits a blot on one of its own "
        "home-board points (1-6) stops there for the rest of the turn; other checkers "
        "move freely."),
        on_phrase=N_("no hit-and-run at home"),
        on_rule=N_("No hit-and-run: a checker that hits in its home board stops there")),
    flag_option(
        "opening_higher_total", N_("Opening by the higher total of two dice"),
        N_("Each player rolls both dice; ties roll again; the higher total starts by playing "
        "its own two dice, so a game may open with a doublet."),
        on_phrase=N_("opening by the higher total"),
        on_rule=N_("Each player rolls two dice to open; the higher total plays them")),
)
"""Local restrictions an event may play in backgammon (VARIANTS.md 1, S003's "only
allowing a maximum of five checkers on any point" and "disallowing hit-and-run in the
home board", S002's opening by both dice)."""

HOUSE_RULE_CHANGES = (
    RuleChange("five_checker_limit", lambda rules: replace(
        rules, restrictions=(*rules.restrictions, Restriction.FIVE_CHECKER_LIMIT))),
    RuleChange("no_hit_and_run_at_home", lambda rules: replace(
        rules, restrictions=(*rules.restrictions, Restriction.NO_HIT_AND_RUN_AT_HOME))),
)
"""How the house-rule options change backgammon's rules of movement (the opening rule
changes no move: the record validator asks :meth:`Variant.opening_allows_doublet`)."""


BACKGAMMON_LEVELS = (
    ScoringLevel(Level.SINGLE, N_("single"), 1),
    ScoringLevel(Level.GAMMON, N_("gammon"), 2, option="gammons"),
    ScoringLevel(Level.BACKGAMMON, N_("backgammon"), 3, option="gammons"),
)
"""Single 1, gammon 2, backgammon 3; every level single where gammons do not count."""

BACKGAMMON_DEFAULTS = VariantOptions(
    gammons=True, cube=True, crawford=True, next_game_starter=NextGameStarter.ROLL)
"""Gammons count, the cube and the Crawford rule are used, a roll opens each game."""

GAMMONS_TAG = RecordTag("gammons", "Gammons", absent=True)
"""``[Gammons "Off"]``: gnubg and its kin count gammons unless a file says not."""

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True, eq=False)
class Variant:
    """A variant as one declarative definition, interpreted for :class:`GameVariant`.

    Options the variant does not offer still apply where a caller sets them (a gnubg
    record's ``[Gammons "Off"]`` in standard backgammon, a match without the cube),
    except the last-roll draw and who opens the next game: only a variant that offers
    those has them.

    Raises:
        ValueError: the definition contradicts itself (see ``__post_init__``), or no
            engine plays its rules of movement yet.
    """

    name: str
    """The registry key, lower case with dashes: ``long-nardy``."""
    title: str
    description: str
    """One line for ``tourney rules variants``."""
    short_name: str
    """Unique among variants; prefixes names made per variant (``nardy_cube``)."""
    movement: MovementRules
    scoring: tuple[ScoringLevel, ...] = BACKGAMMON_LEVELS
    """Single, gammon and backgammon, in that order."""
    defaults: VariantOptions = BACKGAMMON_DEFAULTS
    """The value of every option where an event sets none (no ``None`` in it)."""
    options: tuple[OptionSpec, ...] = ()
    """The options an event may set, in the order pages word them."""
    opening: Opening = Opening.HIGHER_DIE_PLAYS
    record_tags: tuple[RecordTag, ...] = (GAMMONS_TAG,)
    """The header tags a record sets options by."""
    aliases: tuple[str, ...] = ()
    mat_variation: str | None = None
    """The ``[Variation]`` header gnubg writes for it (none for standard backgammon)."""
    mat_variations: tuple[str, ...] = ()
    """Every ``[Variation]`` value read as this variant, the one messages name first."""
    rule_changes: tuple[RuleChange, ...] = ()
    """The offered options that change the rules of movement, and how."""
    engine: Movement = field(init=False, repr=False)
    """The engine that plays ``movement``."""
    _engines: dict[frozenset[str], Movement] = field(init=False, repr=False)
    """The engines of ``movement`` as options change it, by the options on."""
    level_names: Mapping[Level, str] = field(init=False, repr=False)
    """The word for each level."""

    def __post_init__(self) -> None:
        """Check the definition and pick its engine.

        Raises:
            ValueError: a name that is not lower case with dashes, scoring that is not
                single, gammon and backgammon in order, a default left unset, an option
                or tag of no :class:`VariantOptions` field, a ``requires`` that names no
                offered option, or rules of movement no engine plays.
        """
        if not _NAME.fullmatch(self.name) or not self.short_name:
            raise ValueError(f"variant name {self.name!r} must be lower case words joined by "
                             "dashes, with a short name")
        if tuple(entry.level for entry in self.scoring) != tuple(Level):
            raise ValueError(f"{self.name}: scoring must define single, gammon and "
                             "backgammon, in that order")
        known = {f.name for f in fields(VariantOptions)}
        unset = [name for name in sorted(known) if getattr(self.defaults, name) is None]
        if unset:
            raise ValueError(f"{self.name}: the defaults leave {', '.join(unset)} unset")
        offered = [spec.key for spec in self.options]
        named = [*offered, *(tag.option for tag in self.record_tags),
                 *(entry.option for entry in self.scoring if entry.option is not None)]
        if not set(named) <= known:
            raise ValueError(f"{self.name}: {sorted(set(named) - known)} are not options")
        if any(spec.requires is not None and spec.requires not in offered
               for spec in self.options):
            raise ValueError(f"{self.name}: an option requires one the variant does not offer")
        if self.mat_variation is not None and self.mat_variation not in self.mat_variations:
            raise ValueError(f"{self.name}: mat_variations must include {self.mat_variation!r}")
        if not {change.option for change in self.rule_changes} <= set(offered):
            raise ValueError(f"{self.name}: a rule change names an option not offered")
        object.__setattr__(self, "engine", movement_for(self.movement))
        object.__setattr__(self, "_engines", {frozenset(): self.engine})
        # Every combination of rule changes must have an engine: found now, not in play.
        for change in self.rule_changes:
            movement_for(change.change(self.movement))
        object.__setattr__(self, "level_names", MappingProxyType(
            {entry.level: entry.word for entry in self.scoring}))

    def __repr__(self) -> str:
        return f"variant_named({self.name!r})"

    @property
    def checkers(self) -> int:
        """Checkers a side."""
        return self.movement.checkers

    @property
    def can_open_with_doublet(self) -> bool:
        """Whether the first roll of a game may be a doublet."""
        return self.opening is not Opening.HIGHER_DIE_PLAYS

    def opening_allows_doublet(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the first roll of a game may be a doublet under ``options``: by the
        variant's opening, or where the event opens by the higher total of two dice.

        >>> STANDARD.opening_allows_doublet(VariantOptions(opening_higher_total=True))
        True
        """
        return self.can_open_with_doublet or (
            self.offers("opening_higher_total") and options.opening_higher_total)

    # --- scoring ---------------------------------------------------------------------

    def _counted(self, level: Level, options: VariantOptions) -> ScoringLevel:
        """The entry ``level`` scores as: itself, or what it counts as where its option
        is off."""
        entry = self.scoring[level - 1]
        while not entry.counted or (
                entry.option is not None and not self.option_value(entry.option, options)):
            entry = self.scoring[entry.otherwise - 1]
        return entry

    def levels(self, options: VariantOptions = DEFAULT_OPTIONS) -> tuple[Level, ...]:
        """The result levels a game can end at under ``options``.

        >>> LONG_NARDY.levels(), LONG_NARDY.levels(VariantOptions(koks=True))[-1].name
        ((<Level.SINGLE: 1>, <Level.GAMMON: 2>), 'BACKGAMMON')
        """
        return tuple(entry.level for entry in self.scoring
                     if self._counted(entry.level, options) is entry)

    def level_points(self, level: Level, options: VariantOptions = DEFAULT_OPTIONS) -> int:
        """The points a level scores before the cube.

        >>> LONG_NARDY.level_points(Level.BACKGAMMON), HYPERGAMMON.level_points(Level.GAMMON)
        (2, 1)
        """
        return self._counted(level, options).points

    def counts_gammons(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether a gammon (mars) is a level of its own."""
        return Level.GAMMON in self.levels(options)

    def uses_cube(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the doubling cube is used."""
        return bool(self.option_value("cube", options))

    def uses_crawford(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the Crawford rule applies in matches (never without the cube)."""
        return self.uses_cube(options) and bool(self.option_value("crawford", options))

    def can_draw(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether a game can end drawn by the last-roll rule."""
        return self.offers("last_roll_draw") and bool(
            self.option_value("last_roll_draw", options))

    def next_game_starter(self, options: VariantOptions = DEFAULT_OPTIONS) -> NextGameStarter:
        """Who opens each game after the first.

        >>> STANDARD.next_game_starter(), LONG_NARDY.next_game_starter()
        (<NextGameStarter.ROLL: 'roll'>, <NextGameStarter.WINNER: 'winner'>)
        """
        chosen = options if self.offers("next_game_starter") else DEFAULT_OPTIONS
        starter = self.option_value("next_game_starter", chosen)
        assert isinstance(starter, NextGameStarter)
        return starter

    # --- event options ---------------------------------------------------------------

    def offers(self, key: str) -> bool:
        """Whether an event may set the option ``key``."""
        return any(spec.key == key for spec in self.options)

    def option_value(self, key: str, options: VariantOptions) -> OptionValue:
        """The value of option ``key``: as ``options`` set it, else the default."""
        value: OptionValue | None = getattr(options, key)
        if value is None:
            default: OptionValue = getattr(self.defaults, key)
            return default
        return value

    def _in_force(self, spec: OptionSpec, options: VariantOptions) -> OptionValue:
        """An option's value where it acts: off while the option it requires is off."""
        if spec.requires is not None and not self.option_value(spec.requires, options):
            return False
        return self.option_value(spec.key, options)

    def option_problems(self, options: VariantOptions) -> tuple[tuple[str, str], ...]:
        """``(key, reason)`` for each option on while the option it requires is off.

        >>> LONG_NARDY.option_problems(VariantOptions(crawford=True))[0][0]
        'crawford'
        """
        return tuple(
            (spec.key, spec.conflict) for spec in self.options
            if spec.requires is not None and self.option_value(spec.key, options)
            and not self.option_value(spec.requires, options)
        )

    def option_phrases(self, options: VariantOptions) -> tuple[str, ...]:
        """The options as short phrases after the title; an option that requires another
        is worded after it ("cube on, Crawford").

        >>> phrases = LONG_NARDY.option_phrases(VariantOptions(cube=True, crawford=True, koks=True))
        >>> [str(phrase) for phrase in phrases]
        ['cube on, Crawford', 'koks scores 3']
        """
        phrases: list[str] = []
        placed: dict[str, int] = {}
        for spec in self.options:
            phrase = spec.choice(self._in_force(spec, options)).phrase
            if not phrase:
                continue
            if spec.requires in placed:
                # Each phrase keeps its own translation: "cube on, Crawford".
                at = placed[spec.requires]
                phrases[at] = ListMessage((phrases[at], phrase))
            else:
                placed[spec.key] = len(phrases)
                phrases.append(phrase)
        return tuple(phrases)

    def option_rules(self, options: VariantOptions) -> tuple[str, ...]:
        """The options as rule tags for an event page.

        >>> [str(rule) for rule in HYPERGAMMON.option_rules(DEFAULT_OPTIONS)]
        ['No gammons: every game scores single']
        """
        words = (spec.choice(self._in_force(spec, options)).rule for spec in self.options)
        return tuple(word for word in words if word)

    def options_from_tags(self, tag: Callable[[str], str | None]) -> VariantOptions:
        """The options a record's header tags set.

        >>> LONG_NARDY.options_from_tags({"Koks": "On"}.get).koks
        True
        """
        values: dict[str, Any] = {}
        for record_tag in self.record_tags:
            text = tag(record_tag.tag)
            values[record_tag.option] = (
                record_tag.absent if text is None else record_tag.parse(text))
        return replace(DEFAULT_OPTIONS, **values)

    # --- positions and plays ---------------------------------------------------------

    def engine_for(self, options: VariantOptions) -> Movement:
        """The engine of the rules of movement as ``options`` change them.

        >>> RUSSIAN.engine_for(VariantOptions(russian_no_contact=True)) is RUSSIAN.engine
        False
        """
        on = frozenset(change.option for change in self.rule_changes
                       if bool(self.option_value(change.option, options)) is change.when)
        found = self._engines.get(on)
        if found is None:
            movement = self.movement
            for change in self.rule_changes:
                if change.option in on:
                    movement = change.change(movement)
            found = self._engines[on] = movement_for(movement)
        return found

    def initial(self, options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The starting position, either side on roll, of the game ``options`` play.

        >>> LONG_NARDY.initial(VariantOptions(nard_himly=True)).to_id()
        '4HPwATDgc/ABMA'
        """
        return self.engine_for(options).initial()

    def decode_position_id(self, position_id: str,
                           options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The position an ID stands for.

        Raises:
            NotationError: the ID is malformed or not a position of this variant.
        """
        return self.engine_for(options).decode_position_id(position_id)

    def encode_position_id(self, position: VariantPosition) -> str:
        """The position's ID, the side on roll first."""
        return position.to_id()

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions = DEFAULT_OPTIONS) -> frozenset[VariantPosition]:
        """Every distinct position a legal play of ``roll`` reaches."""
        return self.engine_for(options).legal_positions(position, roll, options)

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions = DEFAULT_OPTIONS) -> dict[VariantPosition, Play]:
        """Each distinct legal result of ``roll`` with one play reaching it."""
        return self.engine_for(options).legal_play_map(position, roll, options)

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """Check ``play`` and apply it.

        Raises:
            IllegalPlayError: the play breaks a rule; the message names it.
        """
        return self.engine_for(options).check_play(position, roll, play, options)

    def apply_as_written(self, position: VariantPosition, play: Play,
                         options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The position after ``play`` moved as written, whatever the dice (a play the
        opponent condoned).

        Raises:
            IllegalPlayError: the board cannot show it, or this variant cannot apply a
                play unchecked.
        """
        return self.engine_for(options).apply_as_written(position, play)

    def winning_level(self, position: VariantPosition,
                      options: VariantOptions = DEFAULT_OPTIONS) -> Level | None:
        """The level the mover has won at, as the options score it, once the game is over
        on the board."""
        level = self.engine_for(options).winning_level(position)
        return None if level is None else self._counted(level, options).level

    def grants_extra_roll(self, position: VariantPosition, roll: Roll, after: VariantPosition,
                          options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the mover rolls again after playing ``roll`` from ``position`` to
        ``after`` (a Russian doublet played with its complement, acey-deucey's 1-2)."""
        return self.engine_for(options).grants_extra_roll(position, roll, after)

    def format_board(self, position: VariantPosition,
                     options: VariantOptions = DEFAULT_OPTIONS) -> str:
        """A text diagram of the position."""
        return self.engine_for(options).format_board(position)

    def format_play(self, play: Play) -> str:
        """A play as records write it."""
        return format_play(play)

    def position_layout(self, position: VariantPosition,
                        options: VariantOptions = DEFAULT_OPTIONS) -> BoardLayout:
        """Where each side's checkers are, in its own numbering."""
        return self.engine_for(options).to_layout(position)

    def position_from_layout(self, layout: BoardLayout,
                             options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The position a layout describes.

        Raises:
            NotationError: the layout is no position of this variant.
        """
        return self.engine_for(options).from_layout(layout)


# --- the variants ----------------------------------------------------------------------

STANDARD = Variant(
    name="standard",
    title=N_("Backgammon"),
    description=N_("Backgammon: 15 checkers a side from 24:2 13:5 8:3 6:5, hitting, the "
    "doubling cube"),
    short_name="standard",
    movement=MovementRules(15, ((24, 2), (13, 5), (8, 3), (6, 5))),
    options=(*HOUSE_RULE_OPTIONS, NO_DOUBLE_ON_FIRST_TURN),
    rule_changes=HOUSE_RULE_CHANGES,
    aliases=("backgammon",),
    mat_variations=("backgammon", "standard"),
)

NACKGAMMON = Variant(
    name="nackgammon",
    title=N_("Nackgammon"),
    description=N_("Backgammon from the nackgammon start: 24:2 23:2 13:4 8:3 6:4"),
    short_name="nack",
    movement=MovementRules(15, ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))),
    options=(*HOUSE_RULE_OPTIONS, NO_DOUBLE_ON_FIRST_TURN),
    rule_changes=HOUSE_RULE_CHANGES,
    aliases=("nack",),
    mat_variation="NackGammon",
    mat_variations=("NackGammon",),
)

HYPERGAMMON = Variant(
    name="hypergammon",
    title=N_("Hypergammon"),
    description=N_("Backgammon with 3 checkers a side on the 24, 23 and 22 points; no "
    "gammons unless the event counts them"),
    short_name="hyper",
    movement=MovementRules(3, ((24, 1), (23, 1), (22, 1))),
    # The seed rules count no gammons or backgammons; gnubg counts them (an option).
    defaults=replace(BACKGAMMON_DEFAULTS, gammons=False),
    options=(
        flag_option(
            "gammons", N_("Gammons and backgammons count"),
            N_("Off: every game scores single, as hypergammon is usually played."),
            on_phrase=N_("gammons count"), off_phrase=N_("no gammons"),
            on_rule=N_("Gammons and backgammons count"),
            off_rule=N_("No gammons: every game scores single"),
        ),
        NO_DOUBLE_ON_FIRST_TURN,
    ),
    aliases=("hyper", "hypergammon3"),
    mat_variation="HyperGammon (3)",
    mat_variations=("HyperGammon (3)", "HyperGammon"),
)

NARD_HIMLY_RULES = MovementRules(
    15, ((24, 2), (13, 5), (8, 3), (6, 5)), doubles=Doubles.TWO_MOVES,
    ending=Ending.ALL_OFF_START_TABLE_MARS,
)
"""Persian nard as Ludii's "Nard" (after Himly 1879) plays it, the game long nardy's
``nard_himly`` option puts on the board (VARIANTS.md 15.1): backgammon's start and
contrary movement, a single checker hit to the bar and entered before anything else
moves, a doublet played as its two dice (Ludii's Nard, unlike its Backgammon, does not
replay a doublet), and the winner's 2 points where the loser still has a checker in its
starting table, whatever it has borne off. Bearing off by backgammon's rule."""

LONG_NARDY = Variant(
    name="long-nardy",
    title=N_("Long nardy"),
    description=N_("Long nardy: 15 checkers on the head, no hitting, the head and six-block "
    "rules; oin 1, mars 2, no cube"),
    short_name="nardy",
    movement=MovementRules(
        15, ((24, 15),), geometry=Geometry.PARALLEL_12, landing=Landing.BLOCK1,
        entry=Entry.NONE, restrictions=(Restriction.HEAD_RULE, Restriction.SIX_BLOCK),
    ),
    scoring=(
        ScoringLevel(Level.SINGLE, N_("oin"), 1),
        ScoringLevel(Level.GAMMON, N_("mars"), 2),
        # The seeds count a koks as a mars; an event may score it 3.
        ScoringLevel(Level.BACKGAMMON, N_("koks"), 3, option="koks", otherwise=Level.GAMMON),
    ),
    defaults=VariantOptions(gammons=True, cube=False, crawford=False,
                            next_game_starter=NextGameStarter.WINNER),
    options=(
        flag_option("cube", N_("Doubling cube"),
                    N_("Off: every game is played at 1, as the usual rules say."),
                    on_phrase=N_("cube on"), off_phrase=N_("no cube")),
        flag_option(
            "crawford", N_("Crawford rule"),
            N_("Only with the doubling cube: no doubling in the first game after a player "
            "reaches N−1."),
            on_phrase=N_("Crawford"), requires="cube",
            conflict=N_("The Crawford rule is about doubling: turn the doubling cube on too, "
            "or leave the Crawford rule off."),
        ),
        flag_option("koks", N_("A koks scores 3"), N_("Off: a koks counts as a mars, 2 points."),
                    on_phrase=N_("koks scores 3"), on_rule=N_("Koks scores 3"),
                    off_rule=N_("Koks scores 2, as a mars")),
        LAST_ROLL_DRAW,
        flag_option("strict_block", N_("Strict six-block rule"),
                    N_("A block of six points only once an opposing checker has reached its "
                    "home."),
                    on_phrase=N_("strict six-block"), on_rule=N_("Strict six-block rule")),
        OptionSpec("next_game_starter", N_("Who opens the next game"), (
            OptionChoice(NextGameStarter.WINNER, N_("The winner of the previous game"),
                         rule=N_("Winner opens the next game")),
            OptionChoice(NextGameStarter.ROLL, N_("Both players roll one die"),
                         N_("players roll to open each game"),
                         N_("Players roll to open each game")),
            OptionChoice(NextGameStarter.ALTERNATE, N_("The players take turns"),
                         N_("players take turns to open"), N_("Players take turns to open")),
        )),
        NO_DOUBLE_ON_FIRST_TURN_WITH_CUBE,
        flag_option(
            "nard_himly", N_("Persian nard (Himly 1879)"),
            N_("On: the event plays Persian nard as Ludii reconstructs it after Himly (1879): "
               "backgammon's start, the sides in opposite ways round, a single checker hit "
               "to the bar, a doublet played as its two dice, and a mars (2) where the "
               "loser still has a checker in its starting table. Off: long nardy."),
            on_phrase=N_("Persian nard (Himly)"),
            on_rule=N_("Persian nard after Himly: backgammon's start, hitting, a doublet "
                       "played as two moves")),
    ),
    # Persian nard's engine then plays the last roll under the draw option too.
    rule_changes=(RuleChange("nard_himly", lambda rules: NARD_HIMLY_RULES),
                  LAST_ROLL_DRAW_CHANGE),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(
        RecordTag("cube", "Cube"),
        RecordTag("crawford", "Crawford"),
        RecordTag("koks", "Koks", absent=False),
        RecordTag("last_roll_draw", "LastRollDraw", absent=False),
        RecordTag("strict_block", "StrictBlock", absent=False),
        RecordTag("next_game_starter", "NextGame", parse=_starter_tag),
    ),
    aliases=("long", "nardy", "long_nardy", "longnardy"),
)


TAVLI_LEVELS = (
    ScoringLevel(Level.SINGLE, N_("single"), 1),
    ScoringLevel(Level.GAMMON, N_("gammon"), 2),
    # Tavli has no 3-point level: a backgammon on the board scores as a gammon.
    ScoringLevel(Level.BACKGAMMON, N_("backgammon"), 2, counted=False, otherwise=Level.GAMMON),
)
"""Single 1 and gammon 2 (the loser has borne off nothing); no backgammon level."""

TAVLI_DEFAULTS = VariantOptions(gammons=True, cube=False, crawford=False,
                                next_game_starter=NextGameStarter.WINNER)
"""No cube; the winner of the previous game opens the next (VARIANTS.md 1.2, 11, 12.1)."""

PORTES = Variant(
    name="portes",
    title=N_("Portes"),
    description=N_("Portes: backgammon's start and hitting, no cube; a backgammon counts as a "
    "gammon (2)"),
    short_name="portes",
    movement=MovementRules(15, ((24, 2), (13, 5), (8, 3), (6, 5))),
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)

PLAKOTO = Variant(
    name="plakoto",
    title=N_("Plakoto"),
    description=N_("Plakoto: 15 checkers on the 24 point, a lone checker is pinned, not hit; "
    "pinning the last checker at home (the mother) wins 2"),
    short_name="plakoto",
    movement=MovementRules(15, ((24, 15),), landing=Landing.PIN, entry=Entry.NONE,
                           ending=Ending.MOTHER_PIN),
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)

TAPA = Variant(
    name="tapa",
    title=N_("Tapa"),
    description=N_("Tapa: Plakoto's pinning game from 15 checkers on the 24 point, played in "
    "the Tabla, Gul bara, Tapa rotation; the mother rule as in Plakoto"),
    short_name="tapa",
    # The sources read do not state a mother rule; Tapa is the game the Greeks call
    # Plakoto, so it plays by Plakoto's (VARIANTS.md 10, Q-TAPA-1).
    movement=PLAKOTO.movement,
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    options=(
        flag_option(
            "tapa_no_mother_rule", N_("No mother rule"),
            N_("On: pinning a last checker at home decides nothing; a game ends only when a "
            "side has borne off every checker. Off: the mother rule as in Plakoto."),
            on_phrase=N_("no mother rule"), on_rule=N_("No mother rule")),
    ),
    rule_changes=(
        RuleChange("tapa_no_mother_rule", lambda rules: replace(rules, ending=Ending.ALL_OFF)),
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)

GUL_BARA = Variant(
    name="gul-bara",
    title=N_("Gul bara"),
    description=N_("Gul bara: 15 checkers on the 24 point, both sides the same way round, no "
    "hitting; from the fourth turn a doublet climbs to 6-6; what cannot be played goes to "
    "the opponent"),
    short_name="gulbara",
    movement=MovementRules(
        15, ((24, 15),), geometry=Geometry.PARALLEL_12, landing=Landing.BLOCK1,
        entry=Entry.NONE, doubles=Doubles.CASCADE, cascade_from_turn=4,
        failure=FailurePolicy.TRANSFER,
    ),
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    options=(
        flag_option(
            "transfer_doubles_only", N_("Only doublets pass to the opponent"),
            N_("On: values of a doublet that cannot be played go to the opponent; those of "
            "any other roll are lost. Off: every roll's unplayable values go over."),
            on_phrase=N_("only doublets pass over"),
            on_rule=N_("Only a doublet's unplayable values go to the opponent")),
        flag_option(
            "transfer_requires_partial_play", N_("Values pass over only after a move"),
            N_("On: a roller who can move no checker at all loses the roll; the opponent gets "
            "nothing. Off: the opponent plays whatever the roller could not."),
            on_phrase=N_("pass over only after a move"),
            on_rule=N_("Unplayable values pass over only if the roller moved")),
        flag_option(
            "gulbar_seed_reroll", N_("A doublet rolls again instead of climbing"),
            N_("On: a doublet is four moves, and played in full it earns a fresh roll. Off: "
            "from the fourth turn a doublet climbs to 6-6."),
            on_phrase=N_("doublets roll again"),
            on_rule=N_("A doublet played in full rolls again (no climb to 6-6)")),
        MAXIMISE_ACROSS_STAGES,
        flag_option(
            "crazy_narde_head_rule", N_("Crazy narde's head and six-block rules"),
            N_("On: one checker leaves the 24 point in a turn (two in a turn rolled as a "
               "doublet), and no play ends with six points in a row held while no opposing "
               "checker has passed them, as in long nardy. Off: any number leave, and "
               "blocks of any length stand."),
            on_phrase=N_("crazy narde's head rule"),
            on_rule=N_("One checker leaves the 24 point a turn (two on a doublet); no "
                       "six-point block with no opposing checker past it")),
    ),
    rule_changes=(
        RuleChange("transfer_doubles_only",
                   lambda rules: replace(rules, transfer_doubles_only=True)),
        RuleChange("transfer_requires_partial_play",
                   lambda rules: replace(rules, transfer_requires_play=True)),
        RuleChange("gulbar_seed_reroll", lambda rules: replace(
            rules, doubles=Doubles.FOUR_MOVES, extra_roll=ExtraRoll.AFTER_DOUBLETS)),
        MAXIMISE_ACROSS_STAGES_CHANGE,
        RuleChange("crazy_narde_head_rule", lambda rules: replace(rules, restrictions=(
            *rules.restrictions, Restriction.CRAZY_NARDE_HEAD, Restriction.SIX_BLOCK))),
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
    aliases=("gulbara", "gulbar"),
)

FEVGA = Variant(
    name="fevga",
    title=N_("Fevga"),
    description=N_("Fevga: 15 checkers on the 24 point, both sides the same way round, one "
    "checker holds a point, no hitting; the first checker must pass the opponent's start"),
    short_name="fevga",
    movement=MovementRules(
        15, ((24, 15),), geometry=Geometry.PARALLEL_12, landing=Landing.BLOCK1,
        entry=Entry.NONE, restrictions=(Restriction.FIRST_CHECKER_PASSES,
                                        Restriction.START_TABLE_NOT_FULL,
                                        Restriction.PRIME_RELEASE),
    ),
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    options=(
        flag_option(
            "fevga_release_at_own_half", N_("Others move once the first leaves its half"),
            N_("On: the other checkers may leave the 24 point once the first stands on the 12 "
            "point or lower. Off: only once it has passed the opponent's start (the 11)."),
            on_phrase=N_("release at own half"),
            on_rule=N_("The others move once the first checker leaves its own half")),
    ),
    rule_changes=(
        RuleChange("fevga_release_at_own_half", lambda rules: replace(
            rules, restrictions=tuple(
                Restriction.FIRST_CHECKER_LEAVES_OWN_HALF
                if r is Restriction.FIRST_CHECKER_PASSES else r for r in rules.restrictions))),
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)

RUSSIAN = Variant(
    name="russian",
    title=N_("Russian backgammon"),
    description=N_("Russian backgammon: all 15 enter first, both sides run the same track; a "
    "doublet also plays its opposite and rolls again"),
    short_name="russian",
    movement=MovementRules(
        15, (), geometry=Geometry.SHARED, pool=15, doubles=Doubles.COMPLEMENT,
        failure=FailurePolicy.END_TURN, extra_roll=ExtraRoll.AFTER_STAGES,
    ),
    defaults=VariantOptions(gammons=True, cube=False, crawford=False,
                            next_game_starter=NextGameStarter.ROLL),
    options=(
        flag_option(
            "russian_complement_always", N_("Complements while entering"),
            N_("On: a doublet plays its opposite and rolls again even while checkers wait to "
            "enter. Off: only four of the doublet until every checker is in."),
            on_phrase=N_("complements while entering"),
            on_rule=N_("A doublet plays its opposite even while checkers wait to enter")),
        flag_option(
            "russian_no_contact", N_("No hitting"),
            N_("On: a single checker holds a point and nothing is hit. Off: hitting as in "
            "backgammon."),
            on_phrase=N_("no hitting"), on_rule=N_("No hitting: one checker holds a point")),
        FREE_ENTRY,
        MAXIMISE_ACROSS_STAGES,
        LAST_ROLL_DRAW,
        COMPENSATION_EXTRA_ROLLS,
    ),
    rule_changes=(
        RuleChange("russian_complement_always",
                   lambda rules: replace(rules, doubles=Doubles.COMPLEMENT_ALWAYS)),
        RuleChange("russian_no_contact",
                   lambda rules: replace(rules, landing=Landing.BLOCK1, entry=Entry.NONE)),
        FREE_ENTRY_CHANGE,
        MAXIMISE_ACROSS_STAGES_CHANGE,
        LAST_ROLL_DRAW_CHANGE,
    ),
    # The opening winner plays the two opening numbers or rolls both dice again.
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
)


ACEY_DEUCEY_DEFAULTS = VariantOptions(gammons=True, cube=False, crawford=False,
                                      next_game_starter=NextGameStarter.ROLL)
"""No cube (VARIANTS.md 9.1); a roll of one die each opens every game."""

ACEY_DEUCEY = Variant(
    name="acey-deucey",
    title=N_("Acey-deucey"),
    description=N_("Acey-deucey: all 15 start off the board and enter into the opponent's "
    "home as they like; a 1-2 plays the 1 and the 2, then four of a number the player names"),
    short_name="acey",
    movement=MovementRules(
        15, (), pool=15, pool_entry=PoolEntry.FREE, special_roll=(1, 2),
        failure=FailurePolicy.END_TURN, extra_roll=ExtraRoll.AFTER_STAGES,
    ),
    defaults=ACEY_DEUCEY_DEFAULTS,
    options=(
        flag_option(
            "ad_reroll_on_doubles", N_("Roll again after a doublet"),
            N_("On: every doublet played in full earns another roll, as after the 1-2. Off: "
            "only the 1-2 does."),
            on_phrase=N_("doublets roll again"),
            on_rule=N_("A doublet played in full rolls again")),
        flag_option(
            "acey_encyclopedia", N_("All enter first; hit only from home"),
            N_("On: all fifteen enter before any moves on, and a side hits only once it has a "
            "checker home. Off: entering and moving mix, and anyone may hit."),
            on_phrase=N_("encyclopedia rules"),
            on_rule=N_("All checkers enter first, and a side hits only with a checker home")),
        LAST_ROLL_DRAW,
        COMPENSATION_EXTRA_ROLLS,
    ),
    rule_changes=(
        RuleChange("ad_reroll_on_doubles",
                   lambda rules: replace(rules, extra_roll=ExtraRoll.AFTER_DOUBLETS)),
        RuleChange("acey_encyclopedia", lambda rules: replace(
            rules, pool_entry=PoolEntry.ENTER_ALL_FIRST,
            restrictions=(*rules.restrictions, Restriction.HIT_ONLY_WITH_A_CHECKER_HOME))),
        LAST_ROLL_DRAW_CHANGE,
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    aliases=("aceydeucey", "acey-deucey-american"),
)

ACEY_DEUCEY_EUROPEAN = replace(
    ACEY_DEUCEY,
    name="acey-deucey-european",
    title=N_("European acey-deucey"),
    description=N_("European acey-deucey: acey-deucey where every doublet also plays its "
    "opposite, and a checker bears off only by the exact number"),
    short_name="aceyeu",
    movement=replace(ACEY_DEUCEY.movement, doubles=Doubles.COMPLEMENT_ALWAYS,
                     bear_off=BearOff.EXACT),
    # Every doublet already plays its opposite and rolls again.
    options=(
        flag_option(
            "eu_ad_encyclopedia", N_("The named number with its opposite"),
            N_("On: after a 1-2 the named number is played twice, then its opposite twice. "
            "Off: the named number four times."),
            on_phrase=N_("named number with its opposite"),
            on_rule=N_("After a 1-2: two of the named number, then two of its opposite")),
        MAXIMISE_ACROSS_STAGES,
        LAST_ROLL_DRAW,
        COMPENSATION_EXTRA_ROLLS,
    ),
    rule_changes=(
        RuleChange("eu_ad_encyclopedia",
                   lambda rules: replace(rules, named_with_complement=True)),
        MAXIMISE_ACROSS_STAGES_CHANGE,
        LAST_ROLL_DRAW_CHANGE,
    ),
    aliases=("acey-deucey-eu", "european-acey-deucey"),
)

ASODIO = Variant(
    name="asodio",
    title=N_("Asodio"),
    description=N_("Asodio: Greek acey-deucey; all 15 enter first, the first on a doublet or "
    "a 1-2, bearing off by the exact number; single 1, gammon 2, no cube"),
    short_name="asodio",
    movement=MovementRules(
        15, (), pool=15, pool_entry=PoolEntry.ENTER_ALL_FIRST, special_roll=(1, 2),
        entry_permission=EntryPermission.DOUBLET_OR_SPECIAL_ROLL,
        failure=FailurePolicy.END_TURN, bear_off=BearOff.EXACT,
        extra_roll=ExtraRoll.AFTER_DOUBLETS,
    ),
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    options=(
        flag_option(
            "asodio_strict_entry", N_("Enter only on a doublet or 1-2"),
            N_("On: every checker enters on a doublet or a 1-2 only. Off: any roll enters "
            "once a checker stands on the side's 19-24 points."),
            on_phrase=N_("strict entry"), on_rule=N_("Checkers enter only on a doublet or a 1-2")),
        LAST_ROLL_DRAW,
        COMPENSATION_EXTRA_ROLLS,
    ),
    rule_changes=(
        RuleChange("asodio_strict_entry", lambda rules: replace(
            rules, entry_permission=EntryPermission.DOUBLET_OR_SPECIAL_ROLL_ONLY)),
        LAST_ROLL_DRAW_CHANGE,
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
    aliases=("assodio", "asso-dio"),
)


CHASE_LEVELS = (
    ScoringLevel(Level.SINGLE, N_("single"), 1),
    ScoringLevel(Level.GAMMON, N_("gammon"), 1, counted=False),
    ScoringLevel(Level.BACKGAMMON, N_("backgammon"), 1, counted=False),
)
"""One game won, nothing more: the loser has no checker left (VARIANTS.md 6.3)."""

CHASE_DEFAULTS = VariantOptions(gammons=False, cube=False, crawford=False,
                                next_game_starter=NextGameStarter.ROLL)
"""No cube; a roll of one die each opens every game."""

_ADJACENT = tuple((point, 1) for point in range(1, 7))
"""The seed's layout: the side on roll (the attacker) one checker on each of A1-A6..."""
_ADJACENT_OTHER = tuple((point, 1) for point in range(19, 25))
"""... and the other side one on each of A19-A24, just ahead of it."""


def _chase_rules(start: tuple[tuple[int, int], ...],
                 opponent_start: tuple[tuple[int, int], ...]) -> MovementRules:
    """The chase games' rules of movement from a start (VARIANTS.md 6.3 and 6.4)."""
    return MovementRules(
        6, start, opponent_start=opponent_start, geometry=Geometry.CIRCULAR,
        landing=Landing.CAPTURE, entry=Entry.NONE, doubles=Doubles.CHASE,
        restrictions=(Restriction.LONE_CHECKER_CORNERS,), bear_off=BearOff.NONE,
        ending=Ending.ALL_CAPTURED, extra_roll=ExtraRoll.AFTER_DOUBLETS,
    )


ICELANDIC = Variant(
    name="icelandic",
    title=N_("Icelandic backgammon"),
    description=N_("Icelandic backgammon: 6 checkers a side from A1-A6 and A19-A24 chase each "
    "other round the board; only 1s and 6s count; a capture is for good; last one standing "
    "wins"),
    short_name="icelandic",
    movement=_chase_rules(_ADJACENT, _ADJACENT_OTHER),
    scoring=CHASE_LEVELS,
    defaults=CHASE_DEFAULTS,
    options=(
        flag_option(
            "bump_to_empty", N_("A bumped checker goes on to an empty point"),
            N_("On: a checker bumped past its own goes on to the first empty point, past "
            "opposing checkers too, and captures nothing. Off: it stops on the first point "
            "without an own checker and captures an opposing checker there."),
            on_phrase=N_("bumped to an empty point"),
            on_rule=N_("A bumped checker goes on to the first empty point")),
        flag_option(
            "chase_reroll_after_double", N_("Roll again after a doublet"),
            N_("On: a side that rolls a doublet rolls again, as the seed's rules say. Off: "
               "only a side down to its lone checker rolls again, after a doublet that does "
               "not move it (neither 1-1 nor 6-6), as the bkgm rules word it."),
            off_phrase=N_("re-roll only for the lone checker"),
            off_rule=N_("Only the lone checker rolls again, after a doublet other than 1-1 "
                        "or 6-6")),
    ),
    rule_changes=(
        RuleChange("bump_to_empty", lambda rules: replace(rules, bump_to_empty=True)),
        RuleChange("chase_reroll_after_double",
                   lambda rules: replace(rules, reroll_only_lone_checker=True), when=False),
    ),
    opening=Opening.LOWER_DIE_ROLLS_AGAIN,
    record_tags=(),
)

CHASE = replace(
    ICELANDIC,
    name="chase",
    title=N_("Chase"),
    description=N_("Chase (Verfolgungsjagd): the seed's write-up of Icelandic backgammon, the "
    "same game from A1-A6 against A19-A24"),
    short_name="chase",
    aliases=("verfolgungsjagd",),
)

AD_ELTA_STELPUR = replace(
    ICELANDIC,
    name="ad-elta-stelpur",
    title=N_("Ad elta stelpur"),
    description=N_("Ad elta stelpur (chasing the girls): the chase game from diagonally "
    "opposite quarters, A19-A24 against A7-A12"),
    short_name="aes",
    movement=_chase_rules(tuple((point, 1) for point in range(19, 25)),
                          tuple((point, 1) for point in range(7, 13))),
    aliases=("chasing-the-girls", "ad_elta_stelpur"),
)

GIOUL = Variant(
    name="gioul",
    title=N_("Gioul"),
    description=N_("Gioul: 15 checkers on the 24 point, the sides in opposite ways round, no "
    "hitting or pinning; every doublet climbs to 6-6 and what cannot be played goes to "
    "the opponent"),
    short_name="gioul",
    # VARIANTS.md 13: doublets cascade from the first turn (no three-turn grace, Q-GIOUL-1).
    movement=MovementRules(
        15, ((24, 15),), landing=Landing.BLOCK1, entry=Entry.NONE, doubles=Doubles.CASCADE,
        cascade_from_turn=1, failure=FailurePolicy.TRANSFER,
    ),
    scoring=TAVLI_LEVELS,
    defaults=TAVLI_DEFAULTS,
    options=(
        flag_option(
            "gioul_first_three_plain", N_("Plain doublets for three turns"),
            N_("On: a side's doublets cascade only from its fourth turn, as in Gul bara. "
            "Off: from the first."),
            on_phrase=N_("cascades from the fourth turn"),
            on_rule=N_("Doublets cascade from a side's fourth turn")),
        MAXIMISE_ACROSS_STAGES,
    ),
    rule_changes=(
        RuleChange("gioul_first_three_plain",
                   lambda rules: replace(rules, cascade_from_turn=4)),
        MAXIMISE_ACROSS_STAGES_CHANGE,
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)


MOULTEZIM = Variant(
    name="moultezim",
    title=N_("Moultezim"),
    description=N_("Moultezim: Fevga's parallel game from 15 checkers on the 24 point, one "
    "checker holds a point; never more than four points of the opponent's starting table"),
    short_name="moultezim",
    # VARIANTS.md 12.2: the 3MG rule (at most four of own 7-12) by default; no Fevga
    # starting-table or prime-release rule.
    movement=MovementRules(
        15, ((24, 15),), geometry=Geometry.PARALLEL_12, landing=Landing.BLOCK1,
        entry=Entry.NONE, restrictions=(Restriction.FIRST_CHECKER_PASSES,
                                        Restriction.FOUR_POINTS_IN_OPPONENT_START),
    ),
    scoring=TAVLI_LEVELS,
    # The sources name no opener for later games: a fresh opening roll.
    defaults=replace(TAVLI_DEFAULTS, next_game_starter=NextGameStarter.ROLL),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)


JACQUET = Variant(
    name="jacquet",
    title=N_("Jacquet"),
    description=N_("Jacquet: 15 checkers on the 24 point (the talon), both sides the same way "
    "round, no hitting; no second checker leaves the talon until the first is home"),
    short_name="jacquet",
    # VARIANTS.md 7.2: single-colour points (BLOCK1) by default (Q-JAC-2); the courier
    # must reach the fourth quarter before the talon opens; levels 1/2 (Q-JAC-1).
    movement=MovementRules(
        15, ((24, 15),), geometry=Geometry.PARALLEL_12, landing=Landing.BLOCK1,
        entry=Entry.NONE, restrictions=(Restriction.COURIER_REACHES_HOME,),
    ),
    scoring=TAVLI_LEVELS,
    defaults=replace(TAVLI_DEFAULTS, next_game_starter=NextGameStarter.ROLL),
    options=(JACQUET_1840_HITTING,),
    rule_changes=(JACQUET_1840_HITTING_CHANGE,),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)


DUTCH = Variant(
    name="dutch",
    title=N_("Dutch backgammon"),
    description=N_("Dutch backgammon: all 15 checkers start off the board and enter first; a "
    "side may hit only with a checker in its home board"),
    short_name="dutch",
    # VARIANTS.md 3: enter all first (the seed; free entry an option); the hit rule
    # judged at the moment of the hit (Q-DUTCH-HIT); the bar before the pool.
    movement=MovementRules(
        15, (), pool=15, restrictions=(Restriction.HIT_ONLY_WITH_A_CHECKER_HOME,),
        remembers_home=True,
    ),
    options=(
        flag_option("cube", N_("Doubling cube"), N_("Off: every game is played at 1."),
                    on_phrase=N_("cube on"), off_phrase=N_("no cube")),
        NO_DOUBLE_ON_FIRST_TURN_WITH_CUBE,
        FREE_ENTRY,
        flag_option(
            "hit_enable_historical", N_("Hitting stays allowed once a checker was home"),
            N_("On: once a side has had a checker in its home board it may hit for the rest "
            "of the game. Off: only while a checker is home or borne off."),
            on_phrase=N_("hitting once home"),
            on_rule=N_("Once a checker was home, hitting stays allowed")),
    ),
    rule_changes=(
        FREE_ENTRY_CHANGE,
        RuleChange("hit_enable_historical", lambda rules: replace(rules, restrictions=(
            Restriction.HIT_ONCE_A_CHECKER_WAS_HOME,))),
    ),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
)


SNAKE = Variant(
    name="snake",
    title=N_("Snake"),
    description=N_("Snake (Schlange): Black from backgammon's start, White with 2 each on its "
    "24, 23 and 22 points and 9 to enter first; backgammon's rules otherwise"),
    short_name="snake",
    # VARIANTS.md 5: White (on roll in the start position) enters all nine from the pool
    # into Black's home board before moving; the seed's "einer auf Zeile VIII" is three.
    movement=MovementRules(
        15, ((24, 2), (23, 2), (22, 2)), pool=9,
        opponent_start=((24, 2), (13, 5), (8, 3), (6, 5)), opponent_pool=0,
    ),
    options=(
        flag_option("cube", N_("Doubling cube"), N_("Off: every game is played at 1."),
                    on_phrase=N_("cube on"), off_phrase=N_("no cube")),
        NO_DOUBLE_ON_FIRST_TURN_WITH_CUBE,
    ),
    aliases=("schlange",),
)

AMERICAN_LEVELS = (
    ScoringLevel(Level.SINGLE, N_("win as Black"), 1),
    ScoringLevel(Level.GAMMON, N_("win as White"), 3),
    # No gammons (the seed names none): the third level is White's win again.
    ScoringLevel(Level.BACKGAMMON, N_("win as White"), 3, counted=False, otherwise=Level.GAMMON),
)
"""The seed's American stakes: Black's win 1, White's win 3, whatever the loser has borne
off (the level a win counts at is the winner's colour)."""

AMERICAN = Variant(
    name="american",
    title=N_("American backgammon"),
    description=N_("American backgammon (the seed's): both sides the same way round from "
    "starts a quarter apart, White with 6 on the board and 9 to enter; no hitting, one "
    "checker holds a point; Black's win 1, White's win 3"),
    short_name="american",
    # VARIANTS.md 2: White (first on roll) 24:2 23:2 22:2 and a pool of 9; Black
    # 22:2 21:5 20:3 19:5 in its own numbering, which is White's + 6.
    movement=MovementRules(
        15, ((24, 2), (23, 2), (22, 2)), geometry=Geometry.PARALLEL_6,
        landing=Landing.BLOCK1, entry=Entry.NONE, pool=9, pool_entry=PoolEntry.FREE,
        opponent_start=((22, 2), (21, 5), (20, 3), (19, 5)), opponent_pool=0,
        ending=Ending.ALL_OFF_BY_COLOUR,
    ),
    scoring=AMERICAN_LEVELS,
    defaults=VariantOptions(gammons=True, cube=False, crawford=False,
                            next_game_starter=NextGameStarter.ROLL),
    options=(
        flag_option(
            "american_enter_all_first", N_("White enters every checker first"),
            N_("On: White enters all nine checkers of its pool before moving one on the "
            "board. Off: entering and moving mix."),
            on_phrase=N_("White enters all first"),
            on_rule=N_("White enters every checker before moving one")),
    ),
    rule_changes=(
        RuleChange("american_enter_all_first",
                   lambda rules: replace(rules, pool_entry=PoolEntry.ENTER_ALL_FIRST)),
    ),
    opening=Opening.WHITE_ROLLS,
    record_tags=(),
    aliases=("amerikanisch",),
)


MATADOR = Variant(
    name="matador",
    title=N_("Matador"),
    description=N_("Matador: Jacquet, where a 4-3 (the matador) is played, then four of any "
    "number the roller names, then the roller rolls again"),
    short_name="matador",
    # VARIANTS.md 7.3: an incomplete stage of the matador ends the turn (Q-MAT-1); the
    # courier rule binds every stage.
    movement=replace(JACQUET.movement, special=SpecialRoll.MATADOR,
                     failure=FailurePolicy.END_TURN, extra_roll=ExtraRoll.AFTER_STAGES),
    scoring=TAVLI_LEVELS,
    defaults=replace(TAVLI_DEFAULTS, next_game_starter=NextGameStarter.ROLL),
    options=(JACQUET_1840_HITTING, LAST_ROLL_DRAW, COMPENSATION_EXTRA_ROLLS),
    rule_changes=(JACQUET_1840_HITTING_CHANGE, LAST_ROLL_DRAW_CHANGE),
    opening=Opening.HIGHER_DIE_ROLLS_AGAIN,
    record_tags=(),
)


MISERE_LEVELS = (
    ScoringLevel(Level.SINGLE, N_("single"), 1),
    # Misère counts no gammons or backgammons (VARIANTS.md 14): every win is single.
    ScoringLevel(Level.GAMMON, N_("gammon"), 1, counted=False),
    ScoringLevel(Level.BACKGAMMON, N_("backgammon"), 1, counted=False),
)
"""Every win scores 1 times the cube."""

MISERE = Variant(
    name="misere",
    title=N_("Misère"),
    description=N_("Misère (backgammon to lose): backgammon's start, moves and cube; the first "
    "side to bear off every checker loses, and every game scores single"),
    short_name="misere",
    movement=MovementRules(15, ((24, 2), (13, 5), (8, 3), (6, 5)),
                           ending=Ending.ALL_OFF_LOSES),
    scoring=MISERE_LEVELS,
    options=(NO_DOUBLE_ON_FIRST_TURN,),
    record_tags=(),
    aliases=("misère", "backgammon-to-lose", "deadgammon"),
)


# --- the registry ----------------------------------------------------------------------

_REGISTRY: dict[str, GameVariant] = {}
_KEYS: dict[str, str] = {}
"""Every name and alias, lower case, to the registry key it finds."""


def register_variant(variant: GameVariant) -> GameVariant:
    """Add ``variant`` to the registry, found from now on by its name and aliases.

    Raises:
        ValueError: its name, an alias or its short name is taken.
    """
    keys = [key.lower() for key in (variant.name, *variant.aliases)]
    taken = [key for key in keys if key in _KEYS]
    if taken:
        raise ValueError(f"variant names already taken: {', '.join(taken)}")
    if any(other.short_name == variant.short_name for other in _REGISTRY.values()):
        raise ValueError(f"short name {variant.short_name!r} already taken")
    _REGISTRY[variant.name] = variant
    _KEYS.update(dict.fromkeys(keys, variant.name))
    return variant


def unregister_variant(name: str) -> None:
    """Remove the variant called ``name`` (its registry key) from the registry.

    Raises:
        NotationError: no variant is registered under that name.
    """
    variant = _REGISTRY.pop(name, None)
    if variant is None:
        raise NotationError(f"no variant {name!r} is registered")
    for key in (variant.name, *variant.aliases):
        del _KEYS[key.lower()]


def is_registered(variant: object) -> bool:
    """Whether ``variant`` is a registered variant: the one its name finds.

    >>> is_registered(LONG_NARDY), is_registered("long-nardy")
    (True, False)
    """
    name = getattr(variant, "name", None)
    return isinstance(name, str) and _REGISTRY.get(name) is variant


def registered_variants() -> tuple[GameVariant, ...]:
    """Every registered variant, in the order they were registered."""
    return tuple(_REGISTRY.values())


def variant_named(name: str) -> GameVariant:
    """The variant called ``name`` or an alias of it (``long`` for ``long-nardy``).

    >>> variant_named("long").name
    'long-nardy'

    Raises:
        NotationError: no variant has that name.
    """
    key = _KEYS.get(name.strip().lower())
    if key is None:
        known = ", ".join(_REGISTRY)
        raise NotationError(f"unknown variant {name!r}; choose one of {known}")
    return _REGISTRY[key]


def backgammon_variant_named(name: str) -> Variant:
    """Like :func:`variant_named`, for callers that need backgammon's rules of movement
    (and its ``Position``).

    Raises:
        NotationError: no such variant, or it moves by other rules.
    """
    variant = variant_named(name)
    if not (isinstance(variant, Variant) and isinstance(variant.engine, BackgammonMovement)):
        raise NotationError(f"{variant.name} is not played with backgammon's rules")
    return variant


def _mat_key(text: str) -> str:
    return text.strip().lower().replace(" ", "")


def variant_for_mat(variation: str | None) -> GameVariant:
    """The variant a ``.mat`` header's ``[Variation "..."]`` value names (none or empty:
    the default variant).

    >>> variant_for_mat("HyperGammon (3)").name
    'hypergammon'

    Raises:
        NotationError: a variation no registered variant reads (e.g. 1-checker
            hypergammon).
    """
    if variation is None or not _mat_key(variation):
        return DEFAULT_VARIANT
    wanted = _mat_key(variation)
    for variant in _REGISTRY.values():
        if any(_mat_key(name) == wanted for name in variant.mat_variations):
            return variant
    supported = ", ".join(v.mat_variations[0] for v in _REGISTRY.values() if v.mat_variations)
    raise NotationError(f"variation {variation!r} is not supported ({supported})")


for _variant in (STANDARD, NACKGAMMON, HYPERGAMMON, LONG_NARDY, PORTES, PLAKOTO, FEVGA,
                 RUSSIAN, TAPA, GUL_BARA, ACEY_DEUCEY, ACEY_DEUCEY_EUROPEAN, ASODIO, ICELANDIC,
                 CHASE, AD_ELTA_STELPUR, MISERE, GIOUL, MOULTEZIM, JACQUET, MATADOR, DUTCH,
                 SNAKE, AMERICAN):
    register_variant(_variant)

DEFAULT_VARIANT: GameVariant = STANDARD
"""The variant of an event or record that names none."""
