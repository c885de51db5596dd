"""Extra rolls and the turn's stages as a whole (VARIANTS.md 0.4 step 4 and D-STAGE): who
rolls again after a turn, in the engine and in a replayed record. Each case is one of
section 18's worked examples or worked by hand from the rule it names."""

from __future__ import annotations

import json
from typing import Any

from tables_builders import mover_points, position, side

from tourney.rules import Roll, parse_play
from tourney.rules.records import validate_record
from tourney.rules.variant_protocol import VariantOptions
from tourney.rules.variants import (
    ACEY_DEUCEY,
    ASODIO,
    CHASE,
    GUL_BARA,
    MATADOR,
    PORTES,
    RUSSIAN,
)

E_RU_1 = ({20: 1, 10: 1}, {14: 2, 4: 2, 22: 11})
"""X's and Y's points in E-RU-1 (same numbering; X has 13 off)."""


def russian_after(play: str) -> tuple[object, object]:
    at = position(RUSSIAN, side(E_RU_1[0]), side(E_RU_1[1]))
    return at, RUSSIAN.check_play(at, Roll(1, 1), parse_play(play))


def test_a_russian_doublet_played_in_full_rolls_again() -> None:
    # E-RU-1, (19,7): four 1s 20/19 10/9/8/7, then four 6s 19/13/7 7/1 7/1: extra roll.
    at, full = russian_after("20/19 10/7 19/13 13/7 7/1 7/1")

    assert mover_points(RUSSIAN, full) == {1: 2}
    assert RUSSIAN.grants_extra_roll(at, Roll(1, 1), full)


def test_a_russian_doublet_cut_short_ends_the_turn() -> None:
    # E-RU-1, (20,6): four 1s 10/6, then no 6 can be played: the turn ends.
    at, short = russian_after("10/6")

    assert mover_points(RUSSIAN, short) == {20: 1, 6: 1}
    assert not RUSSIAN.grants_extra_roll(at, Roll(1, 1), short)


def test_maximise_across_stages_keeps_the_plays_that_complete_the_turn() -> None:
    # E-RU-1 with the option: only (19,7), (18,8) and (17,9) play all eight values.
    at = position(RUSSIAN, side(E_RU_1[0]), side(E_RU_1[1]))
    across = VariantOptions(maximise_across_stages=True)

    found = RUSSIAN.legal_positions(at, Roll(1, 1), across)
    assert sorted(sorted(mover_points(RUSSIAN, p).items()) for p in found) == [
        [(1, 2)], [(2, 1)], [(3, 1)]]


def test_a_russian_doublet_while_entering_gives_no_complement_and_no_extra_roll() -> None:
    # E-RU-3: five in the pool, 3-3 with 22 open: four enter/22, nothing more.
    at = position(RUSSIAN, side({13: 5, 8: 5}, pool=5), side({}, pool=15))
    after = RUSSIAN.check_play(at, Roll(3, 3), parse_play("bar/22(4)"))

    assert not RUSSIAN.grants_extra_roll(at, Roll(3, 3), after)


def test_acey_deucey_rolls_again_after_the_one_two_and_not_after_a_doublet() -> None:
    # E-AD-1: from the start 1-2 enters (bar/24 24/22), then four 6s named: bar/19(4).
    start = ACEY_DEUCEY.initial()
    one_two = ACEY_DEUCEY.check_play(start, Roll(1, 2), parse_play("bar/23 23/22 bar/19(4)"))
    doublet = ACEY_DEUCEY.check_play(start, Roll(3, 3), parse_play("bar/22(4)"))
    reroll = VariantOptions(ad_reroll_on_doubles=True)

    assert ACEY_DEUCEY.grants_extra_roll(start, Roll(1, 2), one_two)
    assert not ACEY_DEUCEY.grants_extra_roll(start, Roll(3, 3), doublet)
    assert ACEY_DEUCEY.grants_extra_roll(start, Roll(3, 3), doublet, reroll)
    assert not ACEY_DEUCEY.grants_extra_roll(start, Roll(3, 1), ACEY_DEUCEY.check_play(
        start, Roll(3, 1), parse_play("bar/22 bar/24")), reroll)


def test_asodio_rolls_again_after_a_doublet() -> None:
    # A doublet opens the pool: four enter/22, then the same player rolls again.
    start = ASODIO.initial()
    after = ASODIO.check_play(start, Roll(3, 3), parse_play("bar/22(4)"))

    assert ASODIO.grants_extra_roll(start, Roll(3, 3), after)


def test_the_matador_rolls_again_only_when_its_named_double_is_played_in_full() -> None:
    # E-MAT-1: c = 5: 20/16/13/8/3 24/19 24/19 is complete (extra roll); c = 1: 13/12 is
    # Y's talon, so 20/17/13 alone ends the turn.
    at = position(MATADOR, side({24: 14, 20: 1}), side({24: 14, 19: 1}))
    full = MATADOR.check_play(at, Roll(4, 3), parse_play("20/16/13/8/3 24/19 24/19"))
    short = MATADOR.check_play(at, Roll(4, 3), parse_play("20/17/13"))

    assert MATADOR.grants_extra_roll(at, Roll(4, 3), full)
    assert not MATADOR.grants_extra_roll(at, Roll(4, 3), short)


def test_chase_rolls_again_after_any_doublet() -> None:
    # E-ICE-2: 4-4 gives two moves of 4, then roll again; 6-4 one 6 and no more.
    start = CHASE.initial()
    after_doublet = next(iter(CHASE.legal_positions(start, Roll(4, 4))))
    after_six = next(iter(CHASE.legal_positions(start, Roll(6, 4))))

    assert CHASE.grants_extra_roll(start, Roll(4, 4), after_doublet)
    assert not CHASE.grants_extra_roll(start, Roll(6, 4), after_six)


def test_portes_never_rolls_again() -> None:
    start = PORTES.initial()
    after = PORTES.check_play(start, Roll(6, 6), parse_play("24/18(2) 13/7(2)"))

    assert not PORTES.grants_extra_roll(start, Roll(6, 6), after)


def test_gul_bara_passes_only_a_doublets_values_where_the_event_says_so() -> None:
    # X's only checker on the board is on its 20 (14 off); Y holds X's 14, 15 and 9 (Y's
    # 2, 3 and 21). 6-5: 20/14 and 20/15 are closed and 11 lands on 9: nothing plays.
    # By default Y plays the 6 and the 5 with its own checkers (21/15/10 or 21/16/10);
    # with the option they are lost and Y stands as it was.
    at = position(GUL_BARA, side({20: 1}), side({2: 1, 3: 1, 21: 1}))
    doubles_only = VariantOptions(transfer_doubles_only=True)

    def yours(options: VariantOptions) -> list[dict[int, int]]:
        return [dict(GUL_BARA.position_layout(p).opponent.points)
                for p in GUL_BARA.legal_positions(at, Roll(6, 5), options)]

    assert yours(VariantOptions()) == [{2: 1, 3: 1, 10: 1}]
    assert yours(doubles_only) == [{2: 1, 3: 1, 21: 1}]


def _roll(line: int, side_name: str, dice: tuple[int, int], moves: list[list[Any]]
          ) -> dict[str, Any]:
    text = " ".join(f"{a}/{b}" for a, b, _ in moves)
    return {"line": line, "kind": "roll", "side": side_name, "dice": list(dice),
            "text": f"{dice[0]}{dice[1]}: {text}", "form": "moved", "play": moves}


def _russian_record(third_roller: str) -> bytes:
    """Ann enters four on 19 with 6-6, Bob two with 2-1, Ann four on 22 with 3-3; then
    ``third_roller`` rolls 2-1."""
    game = {"number": 1, "line": 1, "score": None, "actions": [
        _roll(2, "X", (6, 6), [[25, 19, False]] * 4),
        _roll(3, "O", (2, 1), [[25, 23, False], [25, 24, False]]),
        _roll(4, "X", (3, 3), [[25, 22, False]] * 4),
        _roll(5, third_roller, (2, 1), [[25, 23, False], [25, 24, False]]),
    ]}
    return json.dumps({"schema": "tourney.match-record", "version": 1, "match_length": 0,
                       "players": ["Ann", "Bob"], "variant": "russian",
                       "games": [game]}).encode()


def test_a_record_lets_the_player_roll_again_only_after_a_full_complement() -> None:
    # Both of Ann's doublets come while checkers wait to enter: no complement, no
    # extra roll, so Bob rolls next and Ann's third roll is out of turn.
    in_turn = validate_record("r.json", _russian_record("O"))
    out_of_turn = validate_record("r.json", _russian_record("X"))

    assert [e.message for e in in_turn.errors if "turn" in e.message] == []
    assert [(e.line, e.message.split(";")[0]) for e in out_of_turn.errors] == [
        (5, "Ann rolls, but it is Bob's turn")]


def test_a_record_says_who_rolls_again_after_a_one_two_played_in_full() -> None:
    # Ann's 1-2 from the start: bar/24 24/22, then four 6s named (bar/19 four times);
    # she rolls again, so Bob's roll is out of turn and the message says why.
    game = {"number": 1, "line": 1, "score": None, "actions": [
        _roll(2, "X", (1, 2), [[25, 24, False], [24, 22, False]] + [[25, 19, False]] * 4),
        _roll(3, "O", (3, 1), [[25, 22, False], [25, 24, False]]),
    ]}
    record = {"schema": "tourney.match-record", "version": 1, "match_length": 0,
              "players": ["Ann", "Bob"], "variant": "acey-deucey", "games": [game]}
    report = validate_record("a.json", json.dumps(record).encode())

    assert [(e.line, e.message.split(";")[0]) for e in report.errors] == [
        (3, "Bob rolls, but it is Ann's turn (they roll again after 1-2 played in full)")]
