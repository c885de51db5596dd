"""What every variant of the game answers: the ``GameVariant`` protocol and event options.

Terminology:

- A *variant* is a set of rules a game is played by (standard backgammon, nackgammon,
  long nardy, ...). The rest of tourney asks a variant through :class:`GameVariant` only:
  its names and words, its result levels and what they score, whether the cube and the
  Crawford rule are used, the event options it understands, and its positions and plays.
  It never tests which variant it holds.
- *Event options* (:class:`VariantOptions`) are the choices the sources leave to an event:
  whether gammons count in hypergammon, whether the cube is used in long nardy, how a koks
  scores, and so on. ``None`` (or ``False``) everywhere means "the variant's defaults".
  An *offered* option is one the variant lets an event set (:class:`OptionSpec`); pages
  and sheets word every offered option through its :class:`OptionChoice`.
- A *position* is the variant's own value type (a backgammon ``Position``, a long-nardy
  ``NardyPosition``); callers only turn it round, print its ID and count what is borne
  off (:class:`VariantPosition`), and hand it back to the same variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, Self, TypeAlias, runtime_checkable

from tourney.rules.dice import Roll
from tourney.rules.game import Level
from tourney.rules.layout import BoardLayout
from tourney.rules.moves import Play


class NextGameStarter(Enum):
    """Who opens the next game of a match."""

    ROLL = "roll"
    """Both players roll one die, as in backgammon."""
    WINNER = "winner"
    """The previous game's winner."""
    ALTERNATE = "alternate"
    """Colours alternate from game to game."""


@dataclass(frozen=True, slots=True, repr=False)
class VariantOptions:
    """The choices an event makes for its variant; ``None`` means the variant's default.

    >>> VariantOptions(koks=True)
    VariantOptions(koks=True)
    """

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
    american_enter_all_first: bool = False
    """The seed's American game: White enters every checker of its pool before moving
    one on the board (VARIANTS.md 2.3; by default entering and moving mix)."""
    russian_complement_always: bool = False
    """Russian backgammon: a doublet plays its complement and rolls again even while
    checkers wait to enter (VARIANTS.md 8)."""
    russian_no_contact: bool = False
    """Russian backgammon: a single checker holds a point and nothing is hit (GP-RU's
    "only to an unoccupied point", VARIANTS.md 8)."""
    tapa_no_mother_rule: bool = False
    """Tapa: no mother rule; a game ends only when a side has borne off every checker
    (VARIANTS.md 10, Q-TAPA-1)."""
    gioul_first_three_plain: bool = False
    """Gioul: doublets cascade only from a side's fourth turn, as in Gul bara
    (VARIANTS.md 13)."""
    asodio_strict_entry: bool = False
    """Asodio: a checker enters from the pool only on a doublet or a 1-2, even beside an
    own checker on 19-24 (VARIANTS.md 9.3)."""
    ad_reroll_on_doubles: bool = False
    """Acey-deucey: every doublet played in full earns another roll, not only the 1-2
    (VARIANTS.md 9.1)."""
    free_entry: bool = False
    """Dutch and Russian backgammon: once a checker is in, a value may enter another or
    move one on the board, as the player likes (by default all enter first)."""
    hit_enable_historical: bool = False
    """Dutch backgammon: once a side has had a checker home, it may hit for the rest of
    the game (by default only while a checker is home or borne off, VARIANTS.md 3)."""
    transfer_doubles_only: bool = False
    """Gul bara: only a doublet's unplayable values go to the opponent; any other roll's
    are lost (VARIANTS.md 4)."""
    fevga_release_at_own_half: bool = False
    """Fevga: the others may leave the 24 point once the first checker is out of its own
    half (on the 12 point or lower), not only past the opponent's start (VARIANTS.md 12.1)."""
    transfer_requires_partial_play: bool = False
    """Gul bara: unplayable values go to the opponent only if the roller moved at least
    one checker (as backgammon.js plays it, VARIANTS.md 4.2)."""
    gulbar_seed_reroll: bool = False
    """Gul bara: no cascade; a doublet played in full earns a fresh roll instead (the
    seed's "würfelt noch einmal", VARIANTS.md 4.1 R2)."""
    acey_encyclopedia: bool = False
    """Acey-deucey as the encyclopedia gives it: all fifteen enter before any moves on, and
    no hitting until the hitter has a checker home (VARIANTS.md 9.1)."""
    eu_ad_encyclopedia: bool = False
    """European acey-deucey: the number named after a 1-2 is played twice, then its
    opposite twice, as the encyclopedia gives it (VARIANTS.md 9.2)."""
    bump_to_empty: bool = False
    """The chase games: a checker bumped past its own goes on to the first empty point,
    past opposing checkers too, and captures nothing (VARIANTS.md 6.3, D-BUMP)."""
    five_checker_limit: bool = False
    """Backgammon house rule (Britain): no point holds more than five of a side's
    checkers; a checker may not land, even on its way, where five of its side stand."""
    no_hit_and_run_at_home: bool = False
    """Backgammon house rule (Middle East): a checker that hits a blot on one of its own
    home-board points (1-6) stops there for the rest of the turn."""
    opening_higher_total: bool = False
    """Backgammon house rule (the travel-set booklet's "Wer mit den beiden Würfeln die
    höchste Augenzahl würfelt, darf beginnen"): each player rolls both dice, ties roll
    again, and the higher total starts by playing its own two dice, so the first roll of
    a game may be a doublet."""
    maximise_across_stages: bool = False
    """A turn of several stages (complements, cascades) must use the most values over
    all of them (VARIANTS.md D-STAGE; by default each stage on its own)."""
    crazy_narde_head_rule: bool = False
    """Gul bara with crazy narde's long-nardy rules: one checker leaves the 24 point in a
    turn (two in a turn rolled as a doublet), and no turn ends with six points in a row
    held with no opposing checker past them (VARIANTS.md 4.2)."""
    nard_himly: bool = False
    """Long nardy's event plays Persian nard as Ludii reconstructs it from Himly (1879):
    backgammon's start and contrary movement, hitting, a doublet played as its two dice,
    and 2 points where the loser still has a checker in its starting table (VARIANTS.md
    15.1)."""
    chase_reroll_after_double: bool = True
    """The chase games: the side that rolled a doublet rolls again (the seed's rule, on by
    default). Off: only a side down to its lone checker rolls again, after a doublet that
    does not move it (neither 1-1 nor 6-6), as BKGM-CTG words it (VARIANTS.md 6.3)."""
    compensation_includes_extra_rolls: bool = False
    """The last-roll draw: the second player's last roll earns the extra rolls the variant
    grants (a doublet with its complement, a 1-2), so a draw may take several rolls
    (VARIANTS.md 16.5; by default the one roll only)."""
    jacquet_1840_hitting: bool = False
    """Jacquet and Matador: a single opposing checker is hit to the bar and re-enters in
    its side's first quarter, as in Ludii's Jacquet after Moulidars (1840) (VARIANTS.md
    7.2; by default one checker holds a point)."""
    no_double_on_first_turn: bool = False
    """No player doubles before his own first roll of a game (S000's "Es ist verboten,
    gleich im ersten Spielzug zu verdoppeln", VARIANTS.md 16.6)."""

    def __repr__(self) -> str:
        """Only the choices made, so that a repr stays readable as options grow."""
        made = (f"{name}={getattr(self, name)!r}"
                for name, spec in self.__dataclass_fields__.items()
                if getattr(self, name) != spec.default)
        return f"VariantOptions({', '.join(made)})"


DEFAULT_OPTIONS = VariantOptions()
"""No choice made: every option at its variant's default."""

OptionValue: TypeAlias = bool | NextGameStarter
"""The value of one event option: on/off, or who opens the next game."""


@dataclass(frozen=True, slots=True)
class OptionChoice:
    """One value of an event option, with its words wherever the option is shown."""

    value: OptionValue
    label: str = ""
    """The choice as the event form lists it (choice options only)."""
    phrase: str = ""
    """Its phrase in the one-line summary after the variant's title ("koks scores 3");
    empty: the summary says nothing."""
    rule: str = ""
    """Its tag in the event page's list of rules ("Koks scores 3"); empty: no tag."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An event option a variant offers: its key, its words and how it is checked.

    >>> spec = flag_option("koks", "A koks scores 3", on_phrase="koks scores 3")
    >>> spec.choice(True).phrase, spec.choice(False).phrase
    ('koks scores 3', '')
    """

    key: str
    """The :class:`VariantOptions` field it sets."""
    label: str
    """The option as the event form labels it."""
    choices: tuple[OptionChoice, ...]
    """Every value it can take (a flag: on, then off)."""
    description: str = ""
    """The form's help line under the field."""
    requires: str | None = None
    """The key of an option that must be in force for this one to act (the Crawford rule
    needs the cube); the summary words this option after that one."""
    conflict: str = ""
    """Why this option cannot be on while ``requires`` is off, as a director reads it."""

    @property
    def is_flag(self) -> bool:
        """Whether the option is on or off (else one of several choices)."""
        return all(isinstance(choice.value, bool) for choice in self.choices)

    def choice(self, value: OptionValue) -> OptionChoice:
        """The choice for ``value``.

        Raises:
            ValueError: the option has no such value.
        """
        for choice in self.choices:
            if choice.value == value:
                return choice
        raise ValueError(f"option {self.key} has no value {value!r}")


def flag_option(
    key: str, label: str, description: str = "", *, on_phrase: str = "",
    off_phrase: str = "", on_rule: str = "", off_rule: str = "",
    requires: str | None = None, conflict: str = "",
) -> OptionSpec:
    """An on/off option with its summary phrases and rule tags for either value."""
    return OptionSpec(
        key, label,
        (OptionChoice(True, phrase=on_phrase, rule=on_rule),
         OptionChoice(False, phrase=off_phrase, rule=off_rule)),
        description, requires, conflict,
    )


class VariantPosition(Protocol):
    """What callers do with a variant's position without knowing its type."""

    def to_id(self) -> str:
        """The position's ID, the side on roll first."""
        ...

    def turned(self) -> Self:
        """The same position with the other side on roll."""
        ...

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by (mover, opponent)."""
        ...


@runtime_checkable
class GameVariant(Protocol):
    """A variant of the game, as every layer outside the rules core asks it.

    Options default to :data:`DEFAULT_OPTIONS` (the variant's own defaults). Positions
    are the variant's own type and go back only to the variant they came from, under the
    options they were made with (an option may play another game on the board: long
    nardy's ``nard_himly``).
    """

    @property
    def name(self) -> str:
        """The registry key, stored with events and records: ``long-nardy``."""
        ...

    @property
    def title(self) -> str:
        """The name pages and sheets show: ``Long nardy``."""
        ...

    @property
    def description(self) -> str:
        """One line on what sets the variant apart (``tourney rules variants``)."""
        ...

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names it is found by (``long``, ``nardy``)."""
        ...

    @property
    def short_name(self) -> str:
        """A short key, unique among variants, for names made per variant (the event
        form's option fields: ``nardy`` -> ``nardy_cube``)."""
        ...

    @property
    def checkers(self) -> int:
        """Checkers a side."""
        ...

    @property
    def level_names(self) -> Mapping[Level, str]:
        """The variant's word for each result level (single/gammon/backgammon, or
        oin/mars/koks), whether or not its options score the level."""
        ...

    @property
    def mat_variation(self) -> str | None:
        """The ``[Variation "..."]`` header gnubg writes for it in ``.mat`` files (none for
        standard backgammon, or where gnubg does not play it)."""
        ...

    @property
    def mat_variations(self) -> tuple[str, ...]:
        """Every ``[Variation "..."]`` header value read as this variant, the one to name
        in messages first."""
        ...

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        """The event options it offers, in the order pages word them."""
        ...

    @property
    def can_open_with_doublet(self) -> bool:
        """Whether a game may open with a doublet (the opening roll is a fresh roll of
        both dice, not the two single dice the players rolled)."""
        ...

    def opening_allows_doublet(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether a game may open with a doublet under the event's options."""
        ...

    # --- scoring ---------------------------------------------------------------------

    def levels(self, options: VariantOptions = DEFAULT_OPTIONS) -> tuple[Level, ...]:
        """The result levels a game can end at under ``options``."""
        ...

    def level_points(self, level: Level, options: VariantOptions = DEFAULT_OPTIONS) -> int:
        """The points a level scores before the cube (a level the options do not score
        counts as the level below it)."""
        ...

    def counts_gammons(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether a gammon (mars) scores more than a single game."""
        ...

    def uses_cube(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the doubling cube is used."""
        ...

    def uses_crawford(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the Crawford rule applies in matches."""
        ...

    def can_draw(self, options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether a game can end drawn (long nardy's last-roll draw)."""
        ...

    def next_game_starter(self, options: VariantOptions = DEFAULT_OPTIONS) -> NextGameStarter:
        """Who opens each game after the first."""
        ...

    # --- event options ---------------------------------------------------------------

    def offers(self, key: str) -> bool:
        """Whether an event may set the option ``key``."""
        ...

    def option_value(self, key: str, options: VariantOptions) -> OptionValue:
        """The value of option ``key`` under ``options``, the variant's default where
        they leave it open."""
        ...

    def option_problems(self, options: VariantOptions) -> tuple[tuple[str, str], ...]:
        """``(key, reason)`` for each offered option set in a way the rules refuse."""
        ...

    def option_phrases(self, options: VariantOptions) -> tuple[str, ...]:
        """The offered options as short phrases after the variant's title."""
        ...

    def option_rules(self, options: VariantOptions) -> tuple[str, ...]:
        """The offered options as rule tags for an event page."""
        ...

    def options_from_tags(self, tag: Callable[[str], str | None]) -> VariantOptions:
        """The options a record's header tags give (``tag(name)`` is a tag's value or
        ``None``), where the caller has none of its own."""
        ...

    # --- positions and plays ---------------------------------------------------------

    def initial(self, options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The starting position, either side on roll (of the game ``options`` play, where
        an option plays another game on the same board)."""
        ...

    def decode_position_id(self, position_id: str,
                           options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The position an ID stands for.

        Raises:
            NotationError: the ID is malformed or not a position of this variant.
        """
        ...

    def encode_position_id(self, position: VariantPosition) -> str:
        """The position's ID, the side on roll first."""
        ...

    def legal_positions(self, position: VariantPosition, roll: Roll,
                        options: VariantOptions = DEFAULT_OPTIONS) -> frozenset[VariantPosition]:
        """Every distinct position a legal play of ``roll`` reaches (the mover still on
        roll); the position itself where nothing can be played."""
        ...

    def legal_play_map(self, position: VariantPosition, roll: Roll,
                       options: VariantOptions = DEFAULT_OPTIONS) -> dict[VariantPosition, Play]:
        """Each distinct legal result of ``roll`` with one play reaching it."""
        ...

    def check_play(self, position: VariantPosition, roll: Roll, play: Play,
                   options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """Check ``play`` and apply it: the position after it, the mover still on roll.

        Raises:
            IllegalPlayError: the play breaks a rule; the message names it.
        """
        ...

    def apply_as_written(self, position: VariantPosition, play: Play,
                         options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The position after ``play`` moved as written, whatever the dice and the rules
        of a turn: where the opponent condoned an illegal play, the game goes on from it.

        Raises:
            IllegalPlayError: the board cannot show it, or the variant has no way to
                apply a play unchecked.
        """
        ...

    def winning_level(self, position: VariantPosition,
                      options: VariantOptions = DEFAULT_OPTIONS) -> Level | None:
        """The level the mover has won at, once the game is over on the board."""
        ...

    def grants_extra_roll(self, position: VariantPosition, roll: Roll, after: VariantPosition,
                          options: VariantOptions = DEFAULT_OPTIONS) -> bool:
        """Whether the mover rolls again after playing ``roll`` from ``position`` to
        ``after``."""
        ...

    def format_board(self, position: VariantPosition,
                     options: VariantOptions = DEFAULT_OPTIONS) -> str:
        """A text diagram of the position, the side on roll at the bottom."""
        ...

    def format_play(self, play: Play) -> str:
        """A play as records write it (``24/18 13/8``)."""
        ...

    def position_layout(self, position: VariantPosition,
                        options: VariantOptions = DEFAULT_OPTIONS) -> BoardLayout:
        """Where each side's checkers are, in its own numbering (the JSON form)."""
        ...

    def position_from_layout(self, layout: BoardLayout,
                             options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
        """The position a layout describes.

        Raises:
            NotationError: the layout is no position of this variant.
        """
        ...
