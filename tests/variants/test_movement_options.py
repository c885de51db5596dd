"""Event options that change how checkers move (VARIANTS.md sections 2, 8, 9.3, 10 and 13):
each example worked by hand from the option's rule, with the variant's default beside it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from tables_builders import side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.layout import BoardLayout
from tourney.rules.variant_protocol import DEFAULT_OPTIONS, VariantOptions, VariantPosition
from tourney.rules.variants import (
    ACEY_DEUCEY,
    ACEY_DEUCEY_EUROPEAN,
    ASODIO,
    DUTCH,
    FEVGA,
    GIOUL,
    GUL_BARA,
    RUSSIAN,
    TAPA,
    Variant,
)


def mover_after(variant: Variant, at: VariantPosition, dice: str,
                options: VariantOptions = DEFAULT_OPTIONS) -> list[tuple[dict[int, int], int]]:
    """(mover's points, pool) after each legal turn, sorted."""
    found = variant.legal_positions(at, Roll.parse(dice), options)
    read = [(dict(layout.mover.points), layout.mover.pool)
            for layout in (variant.position_layout(after) for after in found)]
    return sorted(read, key=lambda item: (sorted(item[0].items()), item[1]))


def test_russian_doublets_play_their_complement_while_entering_only_by_option() -> None:
    # From the start every checker waits to enter. 1-1: four checkers enter on the 24;
    # with the option the complement follows, four 6s entering on the 19.
    always = VariantOptions(russian_complement_always=True)

    assert mover_after(RUSSIAN, RUSSIAN.initial(), "11") == [({24: 4}, 11)]
    assert mover_after(RUSSIAN, RUSSIAN.initial(), "11", always) == [({24: 4, 19: 4}, 7)]


def test_russian_without_contact_a_single_checker_holds_its_point() -> None:
    # Both sides run the same track: the opponent's single checker on 7 is ours too.
    # 3-2 from 10: by default 10/7*/5 hits on the way (and 10/8/5 does not); without
    # contact 7 is closed and only 10/8/5 plays.
    at = RUSSIAN.position_from_layout(BoardLayout(side({10: 1}), side({7: 1})))
    no_contact = VariantOptions(russian_no_contact=True)

    default = {(tuple(sorted(RUSSIAN.position_layout(p).mover.points.items())),
                RUSSIAN.position_layout(p).opponent.bar)
               for p in RUSSIAN.legal_positions(at, Roll(3, 2))}
    assert default == {(((5, 1),), 0), (((5, 1),), 1)}
    assert mover_after(RUSSIAN, at, "32", no_contact) == [({5: 1}, 0)]
    with pytest.raises(IllegalPlayError):
        RUSSIAN.check_play(at, Roll(3, 2), parse_play("10/7 7/5"), no_contact)


def test_tapa_without_the_mother_rule_a_pinned_mother_decides_nothing() -> None:
    # Our checker on our 1 pins the opponent's last checker on its 24 (its mother); ours
    # has left our 24. By the mother rule we have won 2; without it the game goes on.
    at = TAPA.position_from_layout(BoardLayout(
        side({1: 1, 6: 14}), side({24: 1, 12: 14}, pins=(24,))))

    assert TAPA.winning_level(at) == Level.GAMMON
    assert TAPA.winning_level(at, VariantOptions(tapa_no_mother_rule=True)) is None


def test_gioul_doublets_stay_plain_for_three_turns_by_option() -> None:
    # A side's first turn, two checkers on its 24: 5-5 cascades (four 5s, then four 6s)
    # by default; with the option it is four 5s only, 20 pips.
    at = GIOUL.position_from_layout(BoardLayout(side({24: 2}), side({24: 2})))
    plain = VariantOptions(gioul_first_three_plain=True)

    def pips(points: dict[int, int]) -> int:
        return sum(point * count for point, count in points.items())

    moved_plain = {48 - pips(points) for points, _ in mover_after(GIOUL, at, "55", plain)}
    moved_cascade = {48 - pips(points) for points, _ in mover_after(GIOUL, at, "55")}
    assert moved_plain == {20}
    assert min(moved_cascade) > 20


def test_asodio_strict_entry_needs_a_doublet_or_one_two_even_beside_a_checker() -> None:
    # One checker already stands on our 20 (in 19-24), fourteen wait. 3-1 enters beside
    # it by default (22 and 24); under strict entry nothing enters, and with checkers
    # waiting nothing on the board moves either.
    at = ASODIO.position_from_layout(BoardLayout(side({20: 1}, pool=14),
                                                 side({}, pool=15)))
    strict = VariantOptions(asodio_strict_entry=True)

    assert mover_after(ASODIO, at, "31") == [({24: 1, 22: 1, 20: 1}, 12)]
    assert mover_after(ASODIO, at, "31", strict) == [({20: 1}, 14)]
    assert mover_after(ASODIO, at, "33", strict) == [({22: 4, 20: 1}, 10)]


@pytest.mark.parametrize(("variant", "key"), [
    (RUSSIAN, "russian_complement_always"), (RUSSIAN, "russian_no_contact"),
    (TAPA, "tapa_no_mother_rule"), (GIOUL, "gioul_first_three_plain"),
    (ASODIO, "asodio_strict_entry")])
def test_each_option_is_offered_with_its_words(variant: Variant, key: str) -> None:
    on = VariantOptions(**{key: True})

    assert variant.offers(key)
    assert variant.option_phrases(on) != variant.option_phrases(VariantOptions())
    assert variant.engine_for(on) is not variant.engine


def test_dutch_hitting_stays_allowed_once_a_checker_was_home_by_option() -> None:
    # X's only checker that reached home was hit and stands on 13 with the rest; none is
    # home now. Y's single checker is on X's 10. 3-1 13/10* hits only under the option.
    x = side({13: 15})
    y = side({15: 1, 1: 14})
    historical = VariantOptions(hit_enable_historical=True)
    was_home = DUTCH.position_from_layout(BoardLayout(replace(x, been_home=True), y))
    never_home = DUTCH.position_from_layout(BoardLayout(x, y))

    def hits(at: VariantPosition, options: VariantOptions) -> set[int]:
        return {DUTCH.position_layout(p).opponent.bar
                for p in DUTCH.legal_positions(at, Roll(3, 1), options)}

    assert hits(was_home, VariantOptions()) == {0}
    assert hits(never_home, historical) == {0}
    assert hits(was_home, historical) == {0, 1}


def test_dutch_remembers_a_checker_reaching_home() -> None:
    # 7/6 brings X's first checker home: the position remembers it (under either rule,
    # so that a position is the same whichever the event plays), and its ID keeps it.
    at = DUTCH.position_from_layout(BoardLayout(side({7: 1, 13: 14}), side({13: 15})))
    historical = VariantOptions(hit_enable_historical=True)

    after = DUTCH.check_play(at, Roll(1, 2), parse_play("7/6 13/11"), historical)

    assert not DUTCH.position_layout(at).mover.been_home
    assert DUTCH.position_layout(after).mover.been_home
    assert DUTCH.check_play(at, Roll(1, 2), parse_play("7/6 13/11")) == after
    assert DUTCH.decode_position_id(after.to_id()) == after


def test_free_entry_lets_a_board_checker_move_while_others_wait() -> None:
    # E-RU-2: five in the pool, 6-4 with 19 and 21 open: by default enter/19 enter/21
    # only; with free entry a board checker may move too (13/7 8/4 among others).
    at = RUSSIAN.position_from_layout(BoardLayout(side({13: 5, 8: 5}, pool=5),
                                                  side({}, pool=15)))
    free = VariantOptions(free_entry=True)

    assert mover_after(RUSSIAN, at, "64") == [({21: 1, 19: 1, 13: 5, 8: 5}, 3)]
    found = mover_after(RUSSIAN, at, "64", free)
    assert ({13: 4, 8: 4, 7: 1, 4: 1}, 5) in found
    assert ({21: 1, 19: 1, 13: 5, 8: 5}, 3) in found


def test_rules_legal_turns_on_an_option_the_variant_offers_and_names_the_rest() -> None:
    runner = CliRunner()
    entered = runner.invoke(cli, ["rules", "legal", "--variant", "american", "--option",
                                  "american_enter_all_first", "--json", "start", "62"])
    refused = runner.invoke(cli, ["rules", "legal", "--variant", "portes", "--option",
                                  "free_entry", "start", "31"])

    assert entered.exit_code == 0
    assert [json.loads(line)["x"]["pool"] for line in entered.stdout.splitlines()] == [7]
    assert refused.exit_code == 2
    assert "--option free_entry: portes offers none" in refused.stderr


def test_fevga_frees_the_others_once_the_first_leaves_its_half_by_option() -> None:
    # The first checker stands on X's 12: out of its own half, but not past the
    # opponent's start (their 24 is X's 12; they stand on their 1, X's 13). 3-1: by
    # default no second checker leaves the 24 until the first stands on 11 or lower, so
    # 24/21 24/23 is illegal; with the option it is legal.
    at = FEVGA.position_from_layout(BoardLayout(side({24: 14, 12: 1}), side({1: 15})))
    half = VariantOptions(fevga_release_at_own_half=True)
    both_from_24 = ({24: 12, 23: 1, 21: 1, 12: 1}, 0)

    assert both_from_24 not in mover_after(FEVGA, at, "31")
    assert both_from_24 in mover_after(FEVGA, at, "31", half)
    with pytest.raises(IllegalPlayError):
        FEVGA.check_play(at, Roll(3, 1), parse_play("24/21 24/23"))


def test_gul_bara_seed_reroll_plays_a_doublet_plainly_then_rolls_again() -> None:
    # A side's fourth turn (three played each), two checkers on its 24, the opponent's
    # two on their 24 (X's 12). 5-5: by default four 5s then four 6s; with the seed's
    # reroll only four 5s (20 pips), after which the same side rolls again.
    at = GUL_BARA.position_from_layout(BoardLayout(side({24: 2}), side({24: 2}),
                                                   turns_played=(3, 3)))
    reroll = VariantOptions(gulbar_seed_reroll=True)

    def pips(points: dict[int, int]) -> int:
        return 48 - sum(point * count for point, count in points.items())

    assert {pips(points) for points, _ in mover_after(GUL_BARA, at, "55", reroll)} == {20}
    assert min(pips(points) for points, _ in mover_after(GUL_BARA, at, "55")) > 20
    after = next(iter(GUL_BARA.legal_positions(at, Roll(5, 5), reroll)))
    assert GUL_BARA.grants_extra_roll(at, Roll(5, 5), after, reroll)
    assert not GUL_BARA.grants_extra_roll(at, Roll(5, 5), after)


def test_acey_encyclopedia_enters_everything_first_and_hits_only_from_home() -> None:
    # One checker on X's 20, fourteen to enter; the opponent's blot on X's 17. 3-1: by
    # default 20/17* hits (or the 20 moves on, or checkers enter); under the encyclopedia
    # rules every value enters (bar/22 bar/24) and nothing is hit.
    at = ACEY_DEUCEY.position_from_layout(BoardLayout(side({20: 1}, pool=14),
                                                      side({8: 1}, pool=14)))
    encyclopedia = VariantOptions(acey_encyclopedia=True)

    default = {ACEY_DEUCEY.position_layout(p).opponent.bar
               for p in ACEY_DEUCEY.legal_positions(at, Roll(3, 1))}
    assert default == {0, 1}
    assert mover_after(ACEY_DEUCEY, at, "31", encyclopedia) == [({24: 1, 22: 1, 20: 1}, 12)]


def test_the_european_named_number_plays_with_its_opposite_by_the_encyclopedia() -> None:
    # From the start 1-2 enters bar/23 23/22; named 6: by default four 6s (bar/19 four
    # times); by the encyclopedia two 6s (bar/19 twice) then two 1s (bar/24 twice).
    start = ACEY_DEUCEY_EUROPEAN.initial()
    encyclopedia = VariantOptions(eu_ad_encyclopedia=True)
    four_sixes = parse_play("bar/23 23/22 bar/19(4)")
    with_opposite = parse_play("bar/23 23/22 bar/19(2) bar/24(2)")

    after = ACEY_DEUCEY_EUROPEAN.check_play(start, Roll(1, 2), with_opposite, encyclopedia)
    assert mover_after(ACEY_DEUCEY_EUROPEAN, start, "12", encyclopedia).count(
        ({24: 2, 22: 1, 19: 2}, 10)) == 1
    assert dict(ACEY_DEUCEY_EUROPEAN.position_layout(after).mover.points) == {
        24: 2, 22: 1, 19: 2}
    ACEY_DEUCEY_EUROPEAN.check_play(start, Roll(1, 2), four_sixes)
    with pytest.raises(IllegalPlayError):
        ACEY_DEUCEY_EUROPEAN.check_play(start, Roll(1, 2), four_sixes, encyclopedia)
    with pytest.raises(IllegalPlayError):
        ACEY_DEUCEY_EUROPEAN.check_play(start, Roll(1, 2), with_opposite)


def test_gul_bara_passes_values_over_only_after_a_move_by_option() -> None:
    # The position of the transfer example (test_extra_rolls): X can move nothing with
    # 6-5. By default Y plays both values (21/15/10 or 21/16/10); when values pass over
    # only after a move, they are lost and Y stands as it was.
    at = GUL_BARA.position_from_layout(BoardLayout(side({20: 1}), side({2: 1, 3: 1, 21: 1})))
    after_a_move = VariantOptions(transfer_requires_partial_play=True)

    def yours(options: VariantOptions) -> list[dict[int, int]]:
        return [dict(GUL_BARA.position_layout(p).opponent.points)
                for p in GUL_BARA.legal_positions(at, Roll(6, 5), options)]

    assert yours(VariantOptions()) == [{2: 1, 3: 1, 10: 1}]
    assert yours(after_a_move) == [{2: 1, 3: 1, 21: 1}]
