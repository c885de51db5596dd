"""The variant registry: every variant is found, listed and played through it, and a new
definition registered here works everywhere without another line of code."""

from __future__ import annotations

import doctest
import importlib
from collections.abc import Iterator
from dataclasses import replace

import pytest
from click.testing import CliRunner

from tourney.cli import cli
from tourney.match import GameEntry, MatchEntryError, MatchRules, score_match
from tourney.rules import GameEnd, Level, NotationError, Side
from tourney.rules.movement import Entry, MovementRules
from tourney.rules.variant_protocol import flag_option
from tourney.rules.variants import (
    BACKGAMMON_DEFAULTS,
    BACKGAMMON_LEVELS,
    DEFAULT_OPTIONS,
    LONG_NARDY,
    GameVariant,
    NextGameStarter,
    ScoringLevel,
    Variant,
    VariantOptions,
    register_variant,
    registered_variants,
    unregister_variant,
    variant_for_mat,
    variant_named,
)
from tourney.store.variant_options import options_for, result_choices, variant_summary

# Two checkers a side on the 6 point, backgammon's moves; a backgammon scores 2 (as in
# Portes), no cube unless the event turns it on, the winner opens the next game.
TOY = Variant(
    name="toy-gammon",
    title="Toy gammon",
    description="Two checkers a side on the 6 point; a backgammon scores 2, no cube",
    short_name="toy",
    movement=MovementRules(2, ((6, 2),)),
    scoring=(*BACKGAMMON_LEVELS[:2], ScoringLevel(Level.BACKGAMMON, "backgammon", 2)),
    defaults=replace(BACKGAMMON_DEFAULTS, cube=False, crawford=False,
                     next_game_starter=NextGameStarter.WINNER),
    options=(flag_option("cube", "Doubling cube", on_phrase="cube on", off_phrase="no cube"),),
    aliases=("toy",),
    mat_variation="ToyGammon",
    mat_variations=("ToyGammon",),
)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def toy() -> Iterator[GameVariant]:
    """The toy variant, registered for one test."""
    yield register_variant(TOY)
    unregister_variant(TOY.name)


# --- the built-in variants -------------------------------------------------------------


LISTED = [
    ("standard",
     "Backgammon: 15 checkers a side from 24:2 13:5 8:3 6:5, hitting, the doubling "
     "cube"),
    ("nackgammon",
     "Backgammon from the nackgammon start: 24:2 23:2 13:4 8:3 6:4"),
    ("hypergammon",
     "Backgammon with 3 checkers a side on the 24, 23 and 22 points; no gammons unless "
     "the event counts them"),
    ("long-nardy",
     "Long nardy: 15 checkers on the head, no hitting, the head and six-block rules; "
     "oin 1, mars 2, no cube"),
    ("portes",
     "Portes: backgammon's start and hitting, no cube; a backgammon counts as a gammon "
     "(2)"),
    ("plakoto",
     "Plakoto: 15 checkers on the 24 point, a lone checker is pinned, not hit; pinning "
     "the last checker at home (the mother) wins 2"),
    ("fevga",
     "Fevga: 15 checkers on the 24 point, both sides the same way round, one checker "
     "holds a point, no hitting; the first checker must pass the opponent's start"),
    ("russian",
     "Russian backgammon: all 15 enter first, both sides run the same track; a doublet "
     "also plays its opposite and rolls again"),
    ("tapa",
     "Tapa: Plakoto's pinning game from 15 checkers on the 24 point, played in the "
     "Tabla, Gul bara, Tapa rotation; the mother rule as in Plakoto"),
    ("gul-bara",
     "Gul bara: 15 checkers on the 24 point, both sides the same way round, no "
     "hitting; from the fourth turn a doublet climbs to 6-6; what cannot be played "
     "goes to the opponent"),
    ("acey-deucey",
     "Acey-deucey: all 15 start off the board and enter into the opponent's home as "
     "they like; a 1-2 plays the 1 and the 2, then four of a number the player names"),
    ("acey-deucey-european",
     "European acey-deucey: acey-deucey where every doublet also plays its opposite, "
     "and a checker bears off only by the exact number"),
    ("asodio",
     "Asodio: Greek acey-deucey; all 15 enter first, the first on a doublet or a 1-2, "
     "bearing off by the exact number; single 1, gammon 2, no cube"),
    ("icelandic",
     "Icelandic backgammon: 6 checkers a side from A1-A6 and A19-A24 chase each other "
     "round the board; only 1s and 6s count; a capture is for good; last one standing "
     "wins"),
    ("chase",
     "Chase (Verfolgungsjagd): the seed's write-up of Icelandic backgammon, the same game "
     "from A1-A6 against A19-A24"),
    ("ad-elta-stelpur",
     "Ad elta stelpur (chasing the girls): the chase game from diagonally opposite "
     "quarters, A19-A24 against A7-A12"),
    ("misere",
     "Misère (backgammon to lose): backgammon's start, moves and cube; the first side to "
     "bear off every checker loses, and every game scores single"),
    ("gioul",
     "Gioul: 15 checkers on the 24 point, the sides in opposite ways round, no hitting or "
     "pinning; every doublet climbs to 6-6 and what cannot be played goes to the opponent"),
    ("moultezim",
     "Moultezim: Fevga's parallel game from 15 checkers on the 24 point, one checker holds "
     "a point; never more than four points of the opponent's starting table"),
    ("jacquet",
     "Jacquet: 15 checkers on the 24 point (the talon), both sides the same way round, no "
     "hitting; no second checker leaves the talon until the first is home"),
    ("matador",
     "Matador: Jacquet, where a 4-3 (the matador) is played, then four of any number the "
     "roller names, then the roller rolls again"),
    ("dutch",
     "Dutch backgammon: all 15 checkers start off the board and enter first; a side may "
     "hit only with a checker in its home board"),
    ("snake",
     "Snake (Schlange): Black from backgammon's start, White with 2 each on its 24, 23 and "
     "22 points and 9 to enter first; backgammon's rules otherwise"),
    ("american",
     "American backgammon (the seed's): both sides the same way round from starts a quarter "
     "apart, White with 6 on the board and 9 to enter; no hitting, one checker holds a "
     "point; Black's win 1, White's win 3"),
]
"""Every built-in variant in registry order, with its one-line description."""


def test_rules_variants_lists_every_name_with_its_description() -> None:
    code, out, _ = run("rules", "variants")
    width = max(len(name) for name, _ in LISTED)

    assert code == 0
    assert out.splitlines() == [f"{name:<{width}}  {text}" for name, text in LISTED]


def test_every_registered_variant_answers_the_protocol() -> None:
    variants = registered_variants()

    assert [isinstance(variant, GameVariant) for variant in variants] == [True] * len(LISTED)
    assert [variant.name for variant in variants] == [name for name, _ in LISTED]


def test_variant_named_finds_aliases_in_any_case() -> None:
    assert [variant_named(name).name for name in (" Long ", "NARDY", "hyper", "backgammon")] == [
        "long-nardy", "long-nardy", "hypergammon", "standard"]


def test_long_nardy_options_word_the_crawford_rule_after_the_cube() -> None:
    chosen = VariantOptions(cube=True, crawford=True, next_game_starter=NextGameStarter.ROLL)

    assert LONG_NARDY.option_phrases(chosen) == (
        "cube on, Crawford", "players roll to open each game")
    # Without the cube the Crawford rule has nothing to act on, and is refused.
    assert LONG_NARDY.option_phrases(VariantOptions(crawford=True)) == ("no cube",)
    assert LONG_NARDY.option_problems(VariantOptions(crawford=True)) == ((
        "crawford", "The Crawford rule is about doubling: turn the doubling cube on too, or "
        "leave the Crawford rule off."),)


def test_a_taken_name_or_alias_is_refused() -> None:
    taken = replace(TOY, aliases=("nardy",))

    with pytest.raises(ValueError, match="already taken: nardy"):
        register_variant(taken)
    assert [variant.name for variant in registered_variants()][-1] == LISTED[-1][0]


def test_a_definition_no_engine_plays_is_refused() -> None:
    # Hitting with no bar to send the hit checker to: no engine plays that.
    rules = MovementRules(15, ((24, 2), (13, 5), (8, 3), (6, 5)), entry=Entry.NONE)

    with pytest.raises(ValueError, match="no engine plays these rules of movement yet"):
        replace(TOY, movement=rules)


# --- a variant added by one definition ---------------------------------------------------


def test_registered_variant_appears_in_rules_variants(toy: GameVariant) -> None:
    code, out, _ = run("rules", "variants")

    assert code == 0
    width = max(len(name) for name, _ in LISTED)
    assert out.splitlines()[-1] == (
        f"{'toy-gammon':<{width}}  Two checkers a side on the 6 point; a backgammon scores 2, "
        "no cube")


def test_registered_variant_plays_from_its_start(toy: GameVariant) -> None:
    start = toy.encode_position_id(toy.initial())

    code, out, _ = run("rules", "legal", "--variant", "toy", start, "21")

    def layout(position_id: str) -> dict[int, int]:
        """The points of the side that just moved (the ID has the opponent on roll)."""
        moved = toy.decode_position_id(position_id).turned().mover  # type: ignore[attr-defined]
        return {point: count for point, count in enumerate(moved) if count and 1 <= point <= 24}

    # By hand: 2-1 from two checkers on the 6 point either splits them (6/5 6/4) or moves
    # one checker 3 (6/3); the opponent, on its own 6 point (our 19), is never reached.
    assert code == 0
    assert sorted((layout(line) for line in out.splitlines()), key=sorted) == [
        {3: 1, 6: 1}, {4: 1, 5: 1}]


def test_registered_variant_is_found_by_its_mat_header(toy: GameVariant) -> None:
    assert variant_for_mat("Toy Gammon") is toy


def test_registered_variant_scores_matches_by_its_own_levels(toy: GameVariant) -> None:
    rules = MatchRules(3, variant=toy)

    state = score_match(rules, [GameEntry(Side.X, GameEnd.PLAYED, 1, Level.BACKGAMMON)])
    with pytest.raises(MatchEntryError) as refused:
        score_match(rules, [GameEntry(Side.O, GameEnd.PLAYED, 2, Level.SINGLE)])

    assert state.score == (2, 0)
    assert str(refused.value) == (
        "This toy gammon event is played without the doubling cube, so in game 1 the cube "
        "must stay at 1.")


def test_registered_variant_words_its_options_and_levels_in_the_store(
        toy: GameVariant) -> None:
    turned_on = options_for("toy-gammon", VariantOptions(cube=True, koks=True))

    assert turned_on == VariantOptions(cube=True)
    assert variant_summary("toy-gammon", DEFAULT_OPTIONS) == "Toy gammon · no cube"
    assert result_choices("toy-gammon", turned_on) == (
        ("single", "Single"), ("gammon", "Gammon"), ("backgammon", "Backgammon"),
        ("", "— (dropped)"))


def test_unregistered_variant_is_no_longer_found() -> None:
    register_variant(TOY)
    unregister_variant("toy-gammon")

    with pytest.raises(NotationError, match="unknown variant 'toy'"):
        variant_named("toy")


@pytest.mark.parametrize("name", [
    "tourney.rules.variants", "tourney.rules.variant_protocol", "tourney.rules.movement"])
def test_docstring_examples(name: str) -> None:
    failures, attempted = doctest.testmod(importlib.import_module(name))

    assert (failures, attempted > 0) == (0, True)
