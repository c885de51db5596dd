"""The worked examples of VARIANTS.md section 18 for Portes, Plakoto and Fevga (the three
games of Tavli), each worked by hand there; expected values come from the rules text.

Positions are written as in the examples: each side's points in its own numbering, the
side on roll first; checkers not placed are borne off.
"""

from __future__ import annotations

import pytest
from tables_builders import mover_points, position, side

from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.tables import Outcome, TablesPosition, tables_outcome
from tourney.rules.variants import FEVGA, PLAKOTO, PORTES, STANDARD, Variant

START = {24: 2, 13: 5, 8: 3, 6: 5}


def results(variant: Variant, at: object, dice: str) -> list[dict[int, int]]:
    """The mover's points after each legal play, sorted."""
    found = variant.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    return sorted((mover_points(variant, after) for after in found),
                  key=lambda points: sorted(points.items()))


def layout_of(variant: Variant, at: object) -> tuple[dict[int, int], tuple[int, ...],
                                                      dict[int, int], tuple[int, ...]]:
    """(mover points, mover pins, opponent points, opponent pins)."""
    layout = variant.position_layout(at)  # type: ignore[arg-type]
    return (dict(layout.mover.points), layout.mover.pins, dict(layout.opponent.points),
            layout.opponent.pins)


def outcome(variant: Variant, at: object) -> Outcome:
    engine = variant.engine.engine  # type: ignore[attr-defined]
    assert isinstance(at, TablesPosition)
    return tables_outcome(engine, at)


# --- Portes --------------------------------------------------------------------------------


def test_portes_opening_six_six_has_eleven_plays() -> None:
    # E-STD-1: a moves 24/18 (a <= 2), b 13/7 (b <= 5), c 8/2 (c <= 3), a + b + c = 4:
    # a = 0 -> 4 ways, a = 1 -> 4, a = 2 -> 3.
    found = PORTES.legal_positions(PORTES.initial(), Roll(6, 6))

    assert len(found) == 11
    with pytest.raises(IllegalPlayError):
        PORTES.check_play(PORTES.initial(), Roll(6, 6), parse_play("24/12 13/7 13/7"))
    with pytest.raises(IllegalPlayError):
        PORTES.check_play(PORTES.initial(), Roll(6, 6), parse_play("13/1 13/7"))


def test_portes_bears_off_with_the_lower_die_first() -> None:
    # E-STD-2: 6 takes the 5 off, 4 the 2 -> all off; or 5/1 with the 4, 6 takes the 2.
    at = position(PORTES, side({5: 1, 2: 1}), side({6: 15}))

    assert results(PORTES, at, "64") == [{}, {1: 1}]


def test_portes_scores_a_backgammon_as_a_gammon() -> None:
    # E-PORTES-3: X bears off its 15th; Y has borne off none and has a checker on the bar.
    won = {"mover": side({}), "opponent": side({6: 14}, bar=1)}

    portes = PORTES.winning_level(position(PORTES, won["mover"], won["opponent"]))
    standard = STANDARD.winning_level(position(STANDARD, won["mover"], won["opponent"]))

    assert (portes, PORTES.level_points(Level.GAMMON)) == (Level.GAMMON, 2)
    assert (standard, STANDARD.level_points(Level.BACKGAMMON)) == (Level.BACKGAMMON, 3)
    assert PORTES.levels() == (Level.SINGLE, Level.GAMMON)
    assert (PORTES.uses_cube(), PORTES.can_open_with_doublet) == (False, True)


# --- Plakoto -------------------------------------------------------------------------------


def test_plakoto_pin_holds_the_checker_and_blocks_its_point() -> None:
    # E-PLK-1: X {24:10, 10:1, 6:4}; Y {24:14, 18:1} (Y's 18 is X's 7). 3-1: 10/7* pins.
    at = position(PLAKOTO, side({24: 10, 10: 1, 6: 4}), side({24: 14, 18: 1}))

    pinned = PLAKOTO.check_play(at, Roll(3, 1), parse_play("10/7 6/5"))
    through = PLAKOTO.check_play(at, Roll(3, 1), parse_play("10/7/6"))

    assert layout_of(PLAKOTO, pinned) == ({24: 10, 7: 1, 6: 3, 5: 1}, (),
                                           {24: 14, 18: 1}, (18,))
    # 10/7*/6 touches down on 7 and leaves again: no pin remains.
    assert layout_of(PLAKOTO, through) == ({24: 10, 6: 5}, (), {24: 14, 18: 1}, ())
    # Y on roll: its pinned checker never moves and no Y checker may land on its 18 (X
    # on top). With 6-6 every 6 from Y's 24 lands there: nothing can be played.
    assert results(PLAKOTO, pinned.turned(), "66") == [{24: 14, 18: 1}]
    # With 5-1 every 5 is stopped (24/19 lands on X's 6, three checkers; 23/18 on the
    # pin): only the 1 is played, 24/23.
    assert results(PLAKOTO, pinned.turned(), "51") == [{24: 13, 23: 1, 18: 1}]
    # X may put more checkers on its 7, on top of its own pin (here 8/7 with the 1).
    more = position(PLAKOTO, side({24: 10, 8: 1, 7: 1, 6: 3}),
                    side({24: 14, 18: 1}, pins=(18,)))
    stacked = PLAKOTO.check_play(more, Roll(2, 1), parse_play("8/7 6/4"))
    assert layout_of(PLAKOTO, stacked)[0] == {24: 10, 7: 2, 6: 2, 4: 1}


def test_plakoto_mother_pin_ends_the_game_at_once() -> None:
    # E-PLK-2: X {24:1 (mother), 5:14}; Y {3:1, 6:14}, none on Y's 24. Y rolls 2-5.
    # Y's 1 is X's 24. 3/1* with the 2 ends it; 6/1* with the 5 ends it; 6/4 then 6/1*.
    at = position(PLAKOTO, side({3: 1, 6: 14}), side({24: 1, 5: 14}))

    found = PLAKOTO.legal_positions(at, Roll(2, 5))

    assert sorted((mover_points(PLAKOTO, p) for p in found), key=lambda p: sorted(p.items())) \
        == [{1: 1, 3: 1, 4: 1, 6: 12}, {1: 1, 3: 1, 6: 13}, {1: 1, 6: 14}]
    assert {PLAKOTO.winning_level(p) for p in found} == {Level.GAMMON}
    assert PLAKOTO.level_points(Level.GAMMON) == 2


def test_plakoto_mother_pin_with_the_pinners_mother_at_home_plays_on() -> None:
    # E-PLK-2, variant: Y {24:1, 3:1, 6:13}. 3/1* 6/1: X's mother pinned, Y's still home.
    at = position(PLAKOTO, side({24: 1, 3: 1, 6: 13}), side({24: 1, 5: 14}))

    on = PLAKOTO.check_play(at, Roll(2, 5), parse_play("3/1 6/1"))
    # 3/1* 24/19 empties Y's own 24 after the second move: X loses 2 at that moment.
    off = PLAKOTO.check_play(at, Roll(2, 5), parse_play("3/1 24/19"))

    assert (outcome(PLAKOTO, on), PLAKOTO.winning_level(on)) == (Outcome.PLAYING, None)
    assert (outcome(PLAKOTO, off), PLAKOTO.winning_level(off)) == (Outcome.MOVER_WON,
                                                                   Level.GAMMON)
    # Later X rolls 4-1 and plays 5/1* (X's 1 is Y's 24, Y's lone mother): a draw.
    drawn = PLAKOTO.check_play(on.turned(), Roll(4, 1), parse_play("5/1"))
    assert outcome(PLAKOTO, drawn) == Outcome.DRAWN
    assert (PLAKOTO.winning_level(drawn), PLAKOTO.winning_level(drawn.turned())) == (None, None)


def test_plakoto_no_bear_off_while_a_home_checker_is_pinned() -> None:
    # E-PLK-3: X {6:5, 5:5, 4:4, 3:1 pinned}; Y's checker on its 22 (X's 3) on top, Y's
    # other 14 on its 1 (X's 24). 6-5: every 6 would bear off; the only 5 is 6/1.
    at = position(PLAKOTO, side({6: 5, 5: 5, 4: 4, 3: 1}, pins=(3,)), side({22: 1, 1: 14}))

    assert results(PLAKOTO, at, "65") == [{6: 4, 5: 5, 4: 4, 3: 1, 1: 1}]


def test_plakoto_no_landing_on_an_opponent_pinning_our_checker() -> None:
    # E-TAPA-1 (the same pin rule in Plakoto): X pinned on its 9 under one Y checker (Y's
    # 16), an X checker on 12. 3-1: 12/9 is illegal; 12/11 and 11/8 or 12/8 are not.
    at = position(PLAKOTO, side({24: 13, 12: 1, 9: 1}, pins=(9,)), side({24: 14, 16: 1}))

    with pytest.raises(IllegalPlayError):
        PLAKOTO.check_play(at, Roll(3, 1), parse_play("12/9 24/23"))
    assert all(points.get(9) == 1 for points in results(PLAKOTO, at, "31"))
    # Y may add checkers onto the pin: Y's 24/16 with 4-4 (two touch-downs, 20 and 16).
    y_after = PLAKOTO.check_play(at.turned(), Roll(4, 4), parse_play("24/16 24/16"))
    assert layout_of(PLAKOTO, y_after)[0] == {24: 12, 16: 3}


def test_plakoto_pin_lasts_until_the_last_pinner_leaves() -> None:
    # E-TAPA-2: two Y checkers (Y's 16) on X's pinned 9. Y moves one away: still pinned;
    # the last one leaves: free, and a lone X checker there can be pinned again.
    at = position(PLAKOTO, side({24: 13, 16: 2}), side({24: 14, 9: 1}, pins=(9,)))

    one_left = PLAKOTO.check_play(at, Roll(2, 1), parse_play("16/14 24/23"))
    none_left = PLAKOTO.check_play(one_left.turned().turned(), Roll(2, 1),
                                   parse_play("16/14 24/23"))
    # 24/20/16 with two 4s lands on the lone X checker again (Y's 20, X's 5, is open).
    pinned_again = PLAKOTO.check_play(none_left, Roll(4, 4),
                                      parse_play("24/16 24/20 24/20"))

    assert layout_of(PLAKOTO, one_left)[3] == (9,)
    assert layout_of(PLAKOTO, none_left)[3] == ()
    assert layout_of(PLAKOTO, pinned_again)[3] == (9,)


# --- Fevga ---------------------------------------------------------------------------------


def test_fevga_opening_six_six_moves_one_checker_once() -> None:
    # E-FEV-1: 24/18; 18/12 lands on Y's 15 (X's 12); no other checker may leave 24.
    assert results(FEVGA, FEVGA.initial(), "66") == [{24: 14, 18: 1}]


def test_fevga_opening_five_three_moves_one_checker() -> None:
    # E-FEV-2: 24/19/16 or 24/21/16; 24/19 24/21 is illegal.
    assert results(FEVGA, FEVGA.initial(), "53") == [{24: 14, 16: 1}]
    with pytest.raises(IllegalPlayError):
        FEVGA.check_play(FEVGA.initial(), Roll(5, 3), parse_play("24/19 24/21"))


@pytest.mark.parametrize(("play", "legal"), [
    ("24/19 5/4", False),  # all of 19-24 occupied at the end
    ("24/19 20/19", True),  # 20 empties
    ("24/18", True),
    ("24/23/18", True),
    ("20/15 5/4", True),
    ("24/19 24/23", False),
])
def test_fevga_starting_table_may_not_be_filled(play: str, legal: bool) -> None:
    # E-FEV-3: X {24:10, 23:1, 22:1, 21:1, 20:1, 5:1}; Y {24:15} (X's 12). Roll 5-1.
    at = position(FEVGA, side({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}), side({24: 15}))

    if legal:
        FEVGA.check_play(at, Roll(5, 1), parse_play(play))
    else:
        with pytest.raises(IllegalPlayError):
            FEVGA.check_play(at, Roll(5, 1), parse_play(play))


def test_fevga_prime_with_every_opponent_behind_it_must_be_broken() -> None:
    # X holds its 7 (two checkers) down to 2; all fifteen Y checkers stand on Y's 20,
    # which is X's 8, directly behind that prime. 2-1: 7/6 6/4 would keep all six points
    # and is illegal; 3/1 2/1 breaks it; every legal play leaves one of 2-7 empty.
    at = position(FEVGA, side({7: 2, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1}), side({20: 15}))

    with pytest.raises(IllegalPlayError):
        FEVGA.check_play(at, Roll(2, 1), parse_play("7/6 6/4"))
    FEVGA.check_play(at, Roll(2, 1), parse_play("3/1 2/1"))
    assert all(not all(points.get(p) for p in range(2, 8))
               for points in results(FEVGA, at, "21"))
