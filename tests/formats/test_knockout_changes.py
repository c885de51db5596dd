"""Moving a drawn bracket on: the matches a result can change, walkovers, who is out of
which flights, and late entrants placed in a first-round bye.

The brackets are small seeded draws whose plans are written out in each builder, so every
expected value can be checked against the plan by hand.
"""

from __future__ import annotations

import pytest
from knockout_builders import E, M, play, players, sides

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatUserError


def plan(bracket: ko.Bracket) -> dict[str, tuple[ko.Source, ko.Source]]:
    return {m.id: (m.a, m.b) for m in bracket.matches}


def five_with_consolation() -> ko.Bracket:
    """Seeded 5 in 8, consolation of round-1 losers and first-match losers after a bye.

    main/1/1 1-bye, 1/2 4 v 5, 1/3 2-bye, 1/4 3-bye; 2/1 W1/1 v W1/2, 2/2 W1/3 v W1/4.
    consolation/1/1 L1/2 - bye; 1/2 first-match L2/2 v first-match L2/1; 2/1 the final.
    """
    feed = ko.Feed("main", (1,), first_match_losers=True)
    return ko.plan_knockout(
        ko.seeded_positions(players(5)),
        seed=1,
        lengths=ko.RoundLengths(5),
        fed=[ko.FlightSpec("consolation", ko.RoundLengths(3), feed)],
    )


def six_with_consolation(first_match_losers: bool = True) -> ko.Bracket:
    """Seeded 6 in 8: main/1/1 1-bye, 1/2 4 v 5, 1/3 2-bye, 1/4 3 v 6.

    With first-match losers: consolation/1/1 L1/2 v first-match L2/2, 1/2 first-match
    L2/1 v L1/4. Without: one consolation match, L1/2 v L1/4.
    """
    feed = ko.Feed("main", (1,), first_match_losers=first_match_losers)
    return ko.plan_knockout(
        ko.seeded_positions(players(6)),
        seed=1,
        lengths=ko.RoundLengths(5),
        fed=[ko.FlightSpec("consolation", ko.RoundLengths(3), feed)],
    )


def test_builders_plan_what_their_docstrings_say() -> None:
    five = plan(five_with_consolation())
    assert five["consolation/1/1"] == (ko.LoserOf(M("main/1/2")), ko.Empty())
    assert five["consolation/1/2"] == (
        ko.LoserOf(M("main/2/2"), first_match=True),
        ko.LoserOf(M("main/2/1"), first_match=True),
    )
    assert plan(six_with_consolation())["consolation/1/1"] == (
        ko.LoserOf(M("main/1/2")),
        ko.LoserOf(M("main/2/2"), first_match=True),
    )
    assert plan(six_with_consolation(first_match_losers=False))["consolation/1/1"] == (
        ko.LoserOf(M("main/1/2")),
        ko.LoserOf(M("main/1/4")),
    )


# --- the matches a result can change ---------------------------------------------------


def test_dependents_follow_the_winner_and_the_loser_in_plan_order() -> None:
    bracket = five_with_consolation()

    # 4 v 5: its winner plays main/2/1 and then the final; its loser enters consolation/1/1;
    # the loser of main/2/1 (if it was their first match) enters consolation/1/2; both
    # consolation matches lead to the consolation final.
    assert ko.dependents(bracket, M("main/1/2")) == (
        "main/2/1",
        "main/3/1",
        "consolation/1/1",
        "consolation/1/2",
        "consolation/2/1",
    )


def test_dependents_of_a_bye_follow_its_player() -> None:
    # 3's bye: 3 plays main/2/2, whose first-match loser enters consolation/1/2.
    assert ko.dependents(five_with_consolation(), M("main/1/4")) == (
        "main/2/2",
        "main/3/1",
        "consolation/1/2",
        "consolation/2/1",
    )


def test_nothing_depends_on_a_final() -> None:
    assert ko.dependents(five_with_consolation(), M("main/3/1")) == ()


def test_a_grand_final_decides_its_reset() -> None:
    bracket = ko.plan_double_elimination(
        ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(5), reset=True
    )
    assert ko.dependents(bracket, M("final/1/1")) == ("final/2/1",)


def test_shape_is_fixed_unless_a_fresh_draw_waits() -> None:
    fresh = ko.FlightSpec("last-chance", ko.RoundLengths(1), ko.FreshDraw((("main", (1,)),)))
    waiting = ko.plan_knockout(
        ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(5), fed=[fresh]
    )
    assert (ko.has_fixed_shape(five_with_consolation()), ko.has_fixed_shape(waiting)) == (
        True,
        False,
    )


# --- walkovers -------------------------------------------------------------------------


def test_withdrawn_player_loses_a_ready_match_by_walkover() -> None:
    bracket, walked = ko.walk_over_withdrawn(six_with_consolation(), {E(5)})

    assert walked == ("main/1/2",)
    assert sides(bracket, "main/2/1") == (1, 4)


def test_walkovers_run_on_through_the_matches_they_make_ready() -> None:
    # 4 and 5 both withdrew: side a (4) goes through main/1/2, then loses main/2/1 to 1.
    bracket, walked = ko.walk_over_withdrawn(six_with_consolation(), {E(4), E(5)})

    assert walked == ("main/1/2", "main/2/1")
    assert sides(bracket, "main/3/1") == (1, None)


def test_match_in_play_or_outside_the_changed_ones_is_not_walked_over() -> None:
    bracket = six_with_consolation()
    in_play = ko.walk_over_withdrawn(bracket, {E(5)}, in_play={M("main/1/2")})
    elsewhere = ko.walk_over_withdrawn(bracket, {E(5)}, among={M("main/1/4")})

    assert (in_play[1], elsewhere[1]) == ((), ())


# --- who is out --------------------------------------------------------------------------


def test_loser_sent_to_another_flight_is_out_of_this_one() -> None:
    # 5 beats 4: 4 is out of the main draw (into the consolation, a flight of its own).
    bracket = play(five_with_consolation(), ("main/1/2", 5))

    assert ko.knocked_out(bracket, {"main": 10, "consolation": 20}) == {10: {4}}


def test_double_elimination_player_is_out_after_the_second_loss() -> None:
    # Seeded 4: 1 beats 4 and 2 beats 3 in the winners' bracket; 3 beats 4 in the losers'.
    bracket = ko.plan_double_elimination(
        ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(5)
    )
    bracket = play(bracket, ("main/1/1", 1), ("main/1/2", 2), ("losers/1/1", 3))

    one_flight = ko.knocked_out(bracket, {"main": 1, "losers": 1, "final": 1})
    apart = ko.knocked_out(bracket, {"main": 1, "losers": 2, "final": 3})

    assert one_flight == {1: {4}}
    assert apart == {1: {3, 4}, 2: {4}}


# --- late entrants -----------------------------------------------------------------------


def test_late_entrant_takes_the_place_kept_for_the_bye_holder() -> None:
    # 1's bye: 1 would meet the 4-5 winner, who played round 1, so the consolation place
    # for losing main/2/1 as a first match was 1's alone; the loser of 1 v 6 takes it.
    placed = ko.place_late_entrant(five_with_consolation(), M("main/1/1"), E(6))

    after = plan(placed.bracket)
    assert after["main/1/1"] == (ko.Seat(E(1)), ko.Seat(E(6)))
    assert after["consolation/1/2"] == (
        ko.LoserOf(M("main/2/2"), first_match=True),
        ko.LoserOf(M("main/1/1")),
    )
    assert placed.consolation_slot == "consolation/1/2"


def test_late_entrant_beside_another_bye_takes_a_consolation_bye() -> None:
    # 2's bye: 2 would meet 3, who had a bye too, so the first-match place stays for 3;
    # the loser of 2 v 6 takes the bye of consolation/1/1 beside 4-5's loser.
    placed = ko.place_late_entrant(five_with_consolation(), M("main/1/3"), E(6))

    after = plan(placed.bracket)
    assert after["consolation/1/1"] == (ko.LoserOf(M("main/1/2")), ko.LoserOf(M("main/1/3")))
    assert after["consolation/1/2"] == plan(five_with_consolation())["consolation/1/2"]
    assert placed.consolation_slot == "consolation/1/1"


def test_late_entrant_in_six_takes_the_first_match_place() -> None:
    # 2's bye: 2 would meet the 3-6 winner, so consolation/1/1's first-match place for
    # the loser of main/2/2 goes to the loser of 2 v 7.
    placed = ko.place_late_entrant(six_with_consolation(), M("main/1/3"), E(7))

    assert plan(placed.bracket)["consolation/1/1"] == (
        ko.LoserOf(M("main/1/2")),
        ko.LoserOf(M("main/1/3")),
    )
    assert placed.consolation_slot == "consolation/1/1"


def test_full_consolation_has_no_place_for_the_late_entrants_loser() -> None:
    # Round-1 losers only: the consolation is 4-5's loser against 3-6's, no bye to take.
    with pytest.raises(FormatUserError, match="“consolation” takes first-round losers"):
        ko.place_late_entrant(six_with_consolation(first_match_losers=False), M("main/1/1"), E(7))


def test_without_a_consolation_only_the_bye_is_filled() -> None:
    bracket = ko.plan_knockout(ko.seeded_positions(players(5)), seed=1, lengths=ko.RoundLengths(5))
    placed = ko.place_late_entrant(bracket, M("main/1/4"), E(6))

    assert (sides(placed.bracket, "main/1/4"), placed.consolation_slot) == ((3, 6), None)


def test_double_elimination_loser_of_a_filled_bye_already_has_a_place() -> None:
    # Seeded 3 in 4: 1 has a bye; the losers' bracket takes every round-1 loser anyway.
    bracket = ko.plan_double_elimination(
        ko.seeded_positions(players(3)), seed=0, lengths=ko.RoundLengths(5)
    )
    placed = ko.place_late_entrant(bracket, M("main/1/1"), E(4))

    assert placed.consolation_slot is None
    assert plan(placed.bracket)["losers/1/1"] == plan(bracket)["losers/1/1"]


@pytest.mark.parametrize(
    ("match_id", "message"),
    [
        ("main/1/2", "not a bye"),
        ("main/2/1", "first round only"),
        ("consolation/1/1", "first round only"),
        ("main/9/9", "first round only"),
    ],
)
def test_late_entrant_only_fills_a_first_round_bye_of_the_main_draw(
    match_id: str, message: str
) -> None:
    with pytest.raises(FormatUserError, match=message):
        ko.place_late_entrant(five_with_consolation(), M(match_id), E(6))


def test_players_changed_names_matches_whose_sides_the_late_entry_moves() -> None:
    # 4 beats 5, so main/2/1 is 1 v 4; filling 1's bye leaves 1 still to come there.
    before = play(
        ko.plan_knockout(ko.seeded_positions(players(5)), seed=1, lengths=ko.RoundLengths(5)),
        ("main/1/2", 4),
    )
    after = ko.place_late_entrant(before, M("main/1/1"), E(6)).bracket

    assert sides(after, "main/2/1") == (None, 4)
    assert ko.players_changed(before, after, {M("main/1/2"), M("main/2/1")}) == ("main/2/1",)
    assert ko.players_changed(before, after, {M("main/1/2")}) == ()


def test_double_elimination_table_ranks_by_the_last_bracket_reached() -> None:
    # Seeded 4, no reset: 1 beats 4, 2 beats 3; 3 beats 4; 1 beats 2; 2 beats 3; 1 wins.
    bracket = ko.plan_double_elimination(
        ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(5), reset=False
    )
    bracket = play(
        bracket,
        ("main/1/1", 1),
        ("main/1/2", 2),
        ("losers/1/1", 3),
        ("main/2/1", 1),
        ("losers/2/1", 2),
        ("final/1/1", 1),
    )

    table = ko.double_elimination_standings(bracket)

    # The final's two first, then the losers' bracket: 3 went out in its round 2, 4 in 1.
    assert [s.entrant for s in table] == [1, 2, 3, 4]
    assert [(s.rank, s.tied) for s in table[:2]] == [(1, False), (2, False)]


def seven_with_consolation() -> ko.Bracket:
    """Seeded 7 in 8: main/1/1 1-bye, 1/2 4 v 5, 1/3 2 v 7, 1/4 3 v 6; the consolation
    takes the three round-1 losers in a draw of 4, so one first-round side is empty."""
    return ko.plan_knockout(
        ko.seeded_positions(players(7)),
        seed=1,
        lengths=ko.RoundLengths(5),
        fed=[ko.FlightSpec("consolation", ko.RoundLengths(3), ko.Feed("main", (1,)))],
    )


def _semifinals_played() -> ko.Bracket:
    return play(
        seven_with_consolation(),
        ("main/1/2", 4),
        ("main/1/3", 2),
        ("main/1/4", 3),
        ("main/2/1", 1),
        ("main/2/2", 2),
    )


def _the_bye() -> str:
    """The consolation's first-round match with an empty side."""
    (bye,) = [
        str(m.id)
        for m in seven_with_consolation().flight_matches("consolation")
        if m.round == 1 and ko.Empty() in (m.a, m.b)
    ]
    return bye


def test_buy_back_takes_the_empty_consolation_side() -> None:
    # 4 lost the semifinal to 1; the semifinal feeds no flight, so 4 may buy back.
    bought = ko.place_buyback(_semifinals_played(), "consolation", E(4))

    assert str(bought.match) == _the_bye()
    assert sides(bought.bracket, _the_bye()).count(4) == 1
    assert ko.status(bought.bracket, bought.bracket.match(bought.match)) is ko.MatchStatus.READY
    assert sorted(ko.entrants(bought.bracket, "consolation")) == [4, 5, 6, 7]


@pytest.mark.parametrize(
    ("entrant", "flight", "message"),
    [
        (5, "consolation", "in “consolation” already"),
        (1, "consolation", "still playing in “main”"),
        (4, "main", "not “main”"),
    ],
)
def test_buy_back_refused_with_the_reason(entrant: int, flight: str, message: str) -> None:
    with pytest.raises(FormatUserError, match=message):
        ko.place_buyback(_semifinals_played(), flight, E(entrant))


def test_buy_back_refused_once_the_bye_holder_has_moved_on() -> None:
    # The bye's holder is already playing the consolation final: seating the buyer in
    # front of them would change a match under way.
    played = _semifinals_played()
    final = next(m for m in played.flight_matches("consolation") if m.round == 2)

    with pytest.raises(FormatUserError, match="no free place"):
        ko.place_buyback(played, "consolation", E(4), under_way={final.id})


def test_a_second_buy_back_finds_no_place() -> None:
    bought = ko.place_buyback(_semifinals_played(), "consolation", E(4))

    with pytest.raises(FormatUserError, match="no free place"):
        ko.place_buyback(bought.bracket, "consolation", E(3))
