"""Properties of every turn the engine generates for the Tavli variants, on positions
from random games: no checker appears or vanishes, no checker stands where the landing
rule forbids it, and each generated play checks as legal and reaches its own result
(five plays a position, drawn at random)."""

from __future__ import annotations

import random

import pytest
from tables_builders import NAIVE_RULES, sample_turns

from tourney.rules.movement import Geometry, Landing
from tourney.rules.variants import Variant, variant_named

POSITIONS = 300
FEWER = {"russian": 60, "gul-bara": 30, "acey-deucey": 10, "acey-deucey-european": 10,
         "asodio": 10, "gioul": 100, "matador": 60}
SLOW_ONLY = ("gul-bara", "gioul")
"""Gul bara's and Gioul's doublet cascades make a turn's results run to tens of
thousands, and a cascade that fails early hands up to 23 values to the opponent, whose
search over them takes minutes: their properties are checked in the slow suite
(``-m slow``)."""
VARIANT_PARAMS = [
    pytest.param(name, marks=pytest.mark.slow) if name in SLOW_ONLY else name
    for name in sorted(NAIVE_RULES)
]
"""Russian doublets and acey-deucey's 1-2 reach tens of thousands of boards each: fewer
positions."""


def _count(name: str) -> int:
    return FEWER.get(name, POSITIONS)


def _variant(name: str) -> Variant:
    variant = variant_named(name)
    assert isinstance(variant, Variant)
    return variant


def _opposite_after(variant: Variant, after: object) -> tuple[int, ...]:
    """The mover's points as the opponent's, once the mover has played: in the American
    game by the mover's colour (White has then played one turn more than Black)."""
    geometry = Geometry(variant.movement.geometry)
    played = variant.position_layout(after).turns_played  # type: ignore[arg-type]
    if geometry.by_colour and played[0] <= played[1]:
        return geometry.opposite_for_second()
    return geometry.opposite()


def _shared_points(variant: Variant, at: object) -> list[tuple[int, int, int]]:
    """(mover's point, mover's count, opponent's count) wherever both sides stand."""
    layout = variant.position_layout(at)  # type: ignore[arg-type]
    opposite = _opposite_after(variant, at)
    return [(point, count, layout.opponent.points.get(opposite[point], 0))
            for point, count in layout.mover.points.items()
            if layout.opponent.points.get(opposite[point], 0)]


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_every_result_keeps_every_checker_of_a_side(name: str) -> None:
    variant = _variant(name)
    totals = set()

    for at, roll in sample_turns(name, _count(name), seed=11):
        for after in variant.legal_positions(at, roll):
            layout = variant.position_layout(after)
            for side in (layout.mover, layout.opponent):
                totals.add(sum(side.points.values()) + side.bar + side.pool + side.off)

    assert totals == {variant.checkers}


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_no_result_puts_both_sides_on_a_point_unless_one_is_pinned(name: str) -> None:
    variant = _variant(name)
    pins_allowed = variant.movement.landing is Landing.PIN
    wrong = []

    for at, roll in sample_turns(name, _count(name), seed=12):
        for after in variant.legal_positions(at, roll):
            layout = variant.position_layout(after)
            opposite = _opposite_after(variant, after)
            for point, mine, theirs in _shared_points(variant, after):
                pinned = point in layout.mover.pins or opposite[point] in layout.opponent.pins
                lone = mine == 1 if point in layout.mover.pins else theirs == 1
                if not (pins_allowed and pinned and lone):
                    wrong.append((after.to_id(), point))

    assert wrong == []


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_every_generated_play_checks_as_legal_and_reaches_its_result(name: str) -> None:
    variant = _variant(name)
    mismatched = []

    rng = random.Random(13)
    for at, roll in sample_turns(name, _count(name), seed=13):
        found = sorted(variant.legal_play_map(at, roll).items(), key=lambda item: item[0].to_id())
        for after, play in rng.sample(found, min(len(found), 5)):
            if variant.check_play(at, roll, play) != after:
                mismatched.append((at.to_id(), str(roll), str(play)))

    assert mismatched == []


STAGED_ENTRY_AND_CHASE = ("acey-deucey", "acey-deucey-european", "asodio", "icelandic",
                          "chase", "ad-elta-stelpur")
"""The variants whose plays of one stage are checked for maximum usage below."""


@pytest.mark.parametrize("name", STAGED_ENTRY_AND_CHASE)
def test_every_play_of_a_one_stage_roll_uses_as_many_values_as_any_other(name: str) -> None:
    # Maximum usage: within a roll of one stage (no special roll, no opposite), every play
    # that does not end the game moves a checker as many times as any other play.
    variant = _variant(name)
    engine = variant.engine.engine  # type: ignore[attr-defined]
    uneven = []

    for at, roll in sample_turns(name, _count(name), seed=14):
        if len(engine.stages(at, roll)) != 1 or engine.is_special_roll(roll):
            continue
        lengths = {len(play.moves) for after, play in variant.legal_play_map(at, roll).items()
                   if variant.winning_level(after) is None}
        if len(lengths) > 1:
            uneven.append((at.to_id(), str(roll), sorted(lengths)))

    assert uneven == []


@pytest.mark.parametrize("name", ["icelandic", "chase", "ad-elta-stelpur"])
def test_no_chase_result_puts_two_checkers_of_a_side_on_a_point(name: str) -> None:
    variant = _variant(name)
    crowded = []

    for at, roll in sample_turns(name, _count(name), seed=15):
        for after in variant.legal_positions(at, roll):
            layout = variant.position_layout(after)
            if any(count > 1 for side in (layout.mover, layout.opponent)
                   for count in side.points.values()):
                crowded.append(after.to_id())

    assert crowded == []
