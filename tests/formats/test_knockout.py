"""Knockout draws: seeding, byes, advancing, feeding rules, double elimination."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from knockout_builders import E, M, play, players, sides

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatUserError
from tourney.formats.model import EntrantId


def ranks(bracket: ko.Bracket, flight: str) -> list[tuple[int, str]]:
    return [(r.entrant, r.display_rank) for r in ko.knockout_standings(bracket, flight)]


# --- draws -------------------------------------------------------------------------


def test_seeding_order_matches_the_standard_tables() -> None:
    assert ko.seeding_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert ko.seeding_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


def test_seeding_order_doubles_recursively() -> None:
    # In 32, each seed s of the 16-table is followed by 33 - s.
    order = ko.seeding_order(32)
    assert order[:4] == (1, 32, 16, 17)
    assert all(order[2 * i] + order[2 * i + 1] == 33 for i in range(16))


@pytest.mark.parametrize(("n", "size"), [(2, 2), (3, 4), (5, 8), (8, 8), (9, 16), (37, 64)])
def test_bracket_size_is_next_power_of_two(n: int, size: int) -> None:
    assert ko.bracket_size(n) == size


def test_bracket_size_refuses_one_player() -> None:
    with pytest.raises(FormatUserError, match="at least 2 players"):
        ko.bracket_size(1)


def test_seeded_draw_gives_byes_to_top_seeds() -> None:
    # 5 players in 8: seeds 6, 7, 8 are missing, so 1, 2 and 3 (who would meet them) have byes.
    assert ko.seeded_positions(players(5)) == (1, None, 4, 5, 2, None, 3, None)


def test_random_draw_is_reproducible_from_its_seed() -> None:
    assert ko.random_positions(players(11), seed=3) == ko.random_positions(players(11), seed=3)
    assert ko.random_positions(players(11), seed=3) != ko.random_positions(players(11), seed=4)


# --- one flight ----------------------------------------------------------------------


def test_winners_advance_and_the_champion_ranks_first() -> None:
    bracket = ko.plan_knockout(ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(7))
    # Seeded 4: 1 v 4, 2 v 3; 1 and 3 win; 3 wins the final.
    bracket = play(bracket, ("main/1/1", 1), ("main/1/2", 3))
    assert sides(bracket, "main/2/1") == (1, 3)
    bracket = play(bracket, ("main/2/1", 3))
    assert ko.champion(bracket, "main") == 3
    assert ranks(bracket, "main") == [(3, "1"), (1, "2"), (2, "=3"), (4, "=3")]
    assert ko.eliminated_to(bracket, "main") == {1: None, 2: None, 4: None}


def test_final_can_be_longer() -> None:
    lengths = ko.RoundLengths(7, ((-1, 11),))
    bracket = ko.plan_knockout(ko.seeded_positions(players(8)), seed=0, lengths=lengths)
    assert [m.length for m in bracket.matches] == [7, 7, 7, 7, 7, 7, 11]


def test_a_bye_is_not_a_match_won() -> None:
    # 3 players seeded: 1 has a bye, 2 beats 3, 1 beats 2 in the final: one win for 1.
    bracket = ko.plan_knockout(ko.seeded_positions(players(3)), seed=0, lengths=ko.RoundLengths(5))
    assert ko.view(bracket, bracket.match(M("main/1/1"))).status is ko.MatchStatus.BYE
    bracket = play(bracket, ("main/1/2", 2), ("main/2/1", 1))
    top = ko.knockout_standings(bracket, "main")[0]
    assert (top.entrant, top.metric("wins")) == (1, 1)


def test_record_result_refuses_what_a_director_can_fix() -> None:
    bracket = ko.plan_knockout(ko.seeded_positions(players(3)), seed=0, lengths=ko.RoundLengths(5))
    with pytest.raises(FormatUserError, match="is bye"):
        ko.record_result(bracket, M("main/1/1"), E(1))
    with pytest.raises(FormatUserError, match="is pending"):
        ko.record_result(bracket, M("main/2/1"), E(1))
    with pytest.raises(FormatUserError, match="not in match"):
        ko.record_result(bracket, M("main/1/2"), E(1))
    with pytest.raises(FormatUserError, match="no match"):
        ko.record_result(bracket, M("main/9/9"), E(1))
    decided = play(bracket, ("main/1/2", 2))
    with pytest.raises(FormatUserError, match="is decided"):
        ko.record_result(decided, M("main/1/2"), E(3))


def test_recording_leaves_the_earlier_bracket_unchanged() -> None:
    bracket = ko.plan_knockout(ko.seeded_positions(players(2)), seed=0, lengths=ko.RoundLengths(5))
    after = play(bracket, ("main/1/1", 2))
    assert ko.champion(bracket, "main") is None
    assert ko.champion(after, "main") == 2


# --- consolation and last chance -------------------------------------------------------


def _five_with_consolation() -> ko.Bracket:
    # Seeded 5 in 8: R1 1-bye, 4 v 5, 2-bye, 3-bye; R2 1 v (4/5), 2 v 3.
    consolation = ko.FlightSpec(
        "consolation", ko.RoundLengths(3), ko.Feed("main", (1,), first_match_losers=True)
    )
    return ko.plan_knockout(
        ko.seeded_positions(players(5)), seed=1, lengths=ko.RoundLengths(5), fed=[consolation]
    )


def test_consolation_takes_first_round_and_first_match_losers() -> None:
    # 5 beats 4 (R1 loser: consolation); 5 beats 1 (1 had a bye, so it was 1's first
    # match: consolation); 2 beats 3 (3's first match: consolation).
    bracket = play(_five_with_consolation(), ("main/1/2", 5), ("main/2/1", 5), ("main/2/2", 2))
    assert ko.eliminated_to(bracket, "main") == {
        1: "consolation",
        3: "consolation",
        4: "consolation",
    }
    assert sorted(ko.entrants(bracket, "consolation")) == [1, 3, 4]


def test_consolation_skips_a_second_round_loser_who_had_played() -> None:
    # 5 beats 4, then 1 beats 5: 5 had already played in round 1, so 5 is out.
    bracket = play(_five_with_consolation(), ("main/1/2", 5), ("main/2/1", 1), ("main/2/2", 3))
    assert ko.eliminated_to(bracket, "main") == {2: "consolation", 4: "consolation", 5: None}
    assert sorted(ko.entrants(bracket, "consolation")) == [2, 4]


def test_progressive_consolation_takes_later_losers_through_byes() -> None:
    # 8 players: 4 round-1 losers enter round 1; the 2 round-2 losers enter round 2,
    # each behind a round-1 bye: 4 + 2 * 2 = 8 places, 3 rounds.
    feed = ko.Feed("main", (1, 2), progressive=True)
    bracket = ko.plan_knockout(
        ko.seeded_positions(players(8)),
        seed=5,
        lengths=ko.RoundLengths(5),
        fed=[ko.FlightSpec("consolation", ko.RoundLengths(3), feed)],
    )
    assert bracket.flight("consolation").rounds == 3
    # Main round 1: the top seeds win; the consolation's first round is ready at once.
    bracket = play(bracket, ("main/1/1", 1), ("main/1/2", 4), ("main/1/3", 2), ("main/1/4", 3))
    first = [m for m in bracket.flight_matches("consolation") if m.round == 1]
    statuses = sorted(ko.status(bracket, m).value for m in first)
    assert statuses == ["pending", "pending", "ready", "ready"]
    bracket = play(bracket, ("main/2/1", 1), ("main/2/2", 2))
    # Losers 4 and 3 of main round 2 get consolation byes into round 2.
    byes = [ko.view(bracket, m).a for m in first if ko.status(bracket, m) is ko.MatchStatus.BYE]
    assert sorted(byes) == [3, 4]
    assert ko.eliminated_to(bracket, "main")[4] == "consolation"


def test_last_chance_fresh_draw_waits_for_its_pool() -> None:
    # 4 players; last chance is a fresh draw of main round-1 and round-2 losers.
    spec = ko.FlightSpec("last-chance", ko.RoundLengths(1), ko.FreshDraw((("main", (1, 2)),)))
    bracket = ko.plan_knockout(
        ko.seeded_positions(players(4)), seed=9, lengths=ko.RoundLengths(5), fed=[spec]
    )
    bracket = play(bracket, ("main/1/1", 1), ("main/1/2", 2))
    assert not bracket.flight("last-chance").drawn
    assert ko.eliminated_to(bracket, "main") == {3: "last-chance", 4: "last-chance"}
    bracket = play(bracket, ("main/2/1", 1))
    # Pool: 4, 3 and the runner-up 2; three players draw into a bracket of 4 with one bye.
    assert bracket.flight("last-chance").drawn
    assert sorted(ko.entrants(bracket, "last-chance")) == [2, 3, 4]
    assert len(bracket.flight_matches("last-chance")) == 3


def test_feeding_from_an_unknown_flight_is_a_user_error() -> None:
    spec = ko.FlightSpec("consolation", ko.RoundLengths(3), ko.Feed("nowhere"))
    with pytest.raises(FormatUserError, match="nowhere"):
        ko.plan_knockout(
            ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(5), fed=[spec]
        )


# --- double elimination ----------------------------------------------------------------


def _double(reset: bool = True) -> ko.Bracket:
    return ko.plan_double_elimination(
        ko.seeded_positions(players(4)), seed=0, lengths=ko.RoundLengths(5), reset=reset
    )


def test_double_elimination_losers_bracket_by_round_of_first_loss() -> None:
    bracket = play(_double(), ("main/1/1", 1), ("main/1/2", 2))
    # Round-1 losers 4 and 3 meet; the winner meets the main final's loser.
    assert sides(bracket, "losers/1/1") == (4, 3)
    bracket = play(bracket, ("losers/1/1", 3), ("main/2/1", 1))
    assert sides(bracket, "losers/2/1") == (3, 2)
    assert ko.eliminated_to(bracket, "main") == {2: "losers", 3: "losers", 4: "losers"}


def test_grand_final_reset_is_played_only_if_losers_winner_wins() -> None:
    base = play(_double(), ("main/1/1", 1), ("main/1/2", 2), ("losers/1/1", 3))
    base = play(base, ("main/2/1", 1), ("losers/2/1", 2))
    assert sides(base, "final/1/1") == (1, 2)
    # 1 wins the final: 2 has now lost twice; no reset.
    won = play(base, ("final/1/1", 1))
    assert ko.status(won, won.match(M("final/2/1"))) is ko.MatchStatus.VOID
    assert ko.champion(won, "final") == 1
    # 2 wins: each has lost once, so the reset decides.
    reset = play(base, ("final/1/1", 2))
    assert ko.champion(reset, "final") is None
    reset = play(reset, ("final/2/1", 1))
    assert ko.champion(reset, "final") == 1
    assert ko.eliminated_to(reset, "final") == {2: None}


def test_double_elimination_without_reset_ends_after_one_final() -> None:
    bracket = play(_double(reset=False), ("main/1/1", 1), ("main/1/2", 2), ("losers/1/1", 3))
    bracket = play(bracket, ("main/2/1", 1), ("losers/2/1", 2), ("final/1/1", 2))
    assert ko.champion(bracket, "final") == 2


# --- properties ----------------------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> tuple[ko.Bracket, int]:
    n = draw(st.integers(2, 70))
    seed = draw(st.integers(0, 10**6))
    seeded = draw(st.booleans())
    positions = (
        ko.seeded_positions(players(n)) if seeded else ko.random_positions(players(n), seed=seed)
    )
    if draw(st.booleans()) and n >= 3:
        return (
            ko.plan_double_elimination(
                positions, seed=seed, lengths=ko.RoundLengths(3), reset=draw(st.booleans())
            ),
            seed,
            None,
        )
    rounds = ko.bracket_size(n).bit_length() - 1
    fed: list[ko.FlightSpec] = []
    feed = None
    if draw(st.booleans()):
        fed_rounds = tuple(sorted(draw(st.sets(st.integers(1, rounds), min_size=1, max_size=2))))
        feed = ko.Feed("main", fed_rounds, draw(st.booleans()), draw(st.booleans()))
        fed.append(ko.FlightSpec("consolation", ko.RoundLengths(3), feed))
        if draw(st.booleans()):
            last: ko.Feed | ko.FreshDraw = ko.Feed("consolation", (1,), draw(st.booleans()))
        else:
            last = ko.FreshDraw((("main", (1, 2)), ("consolation", (1,))))
        fed.append(ko.FlightSpec("last-chance", ko.RoundLengths(1), last))
    bracket = ko.plan_knockout(positions, seed=seed, lengths=ko.RoundLengths(3), fed=fed)
    return bracket, seed, feed


def _play_out(bracket: ko.Bracket, seed: int) -> ko.Bracket:
    rng = random.Random(seed)
    while ready := ko.ready_matches(bracket):
        for match in ready:
            shown = ko.view(bracket, match)
            bracket = ko.record_result(bracket, match.id, rng.choice([shown.a, shown.b]))  # type: ignore[list-item]
    return bracket


def _check_event(bracket: ko.Bracket, seed: int, feed: ko.Feed | None) -> None:
    bracket = _play_out(bracket, seed)
    arrivals: dict[str, list[EntrantId]] = {}
    for flight in bracket.flights:
        flight_matches = bracket.flight_matches(flight.name)
        views = [ko.view(bracket, m) for m in flight_matches]
        # Every match is finished: decided, a bye, or void; the main draw has no void.
        for shown in views:
            assert shown.status in (ko.MatchStatus.DECIDED, ko.MatchStatus.BYE, ko.MatchStatus.VOID)
            if shown.status is not ko.MatchStatus.VOID:
                assert shown.a is not None
                assert (shown.b is None) == (shown.status is ko.MatchStatus.BYE)
            elif flight.name == "main" and flight.format == "knockout":
                raise AssertionError("bye against bye in the main draw")
        people = set(ko.entrants(bracket, flight.name))
        if not people:
            continue
        winner = ko.champion(bracket, flight.name)
        assert winner is not None
        # The champion won every match they played in the flight.
        for shown in views:
            # (In the final of a double elimination the champion may lose the first
            # match and win the reset.)
            played = shown.status is ko.MatchStatus.DECIDED and winner in (shown.a, shown.b)
            if played and flight.name != "final":
                assert shown.winner == winner
        # Everyone but the champion is eliminated exactly once.
        out = ko.eliminated_to(bracket, flight.name)
        assert set(out) == people - {winner}
        if flight.name != "final":
            for entrant in people:
                losses = [
                    v
                    for v in views
                    if v.status is ko.MatchStatus.DECIDED
                    and entrant in (v.a, v.b)
                    and v.winner != entrant
                ]
                assert len(losses) == (0 if entrant == winner else 1)
        for entrant, destination in out.items():
            if destination is not None:
                arrivals.setdefault(destination, []).append(entrant)
    # Each fed flight holds exactly the players the feeding rules sent there.
    for flight in bracket.flights:
        if flight.name in ("main",):
            continue
        people = sorted(ko.entrants(bracket, flight.name))
        sent = sorted(arrivals.get(flight.name, []))
        if flight.name == "final":
            # The main-draw winner enters the final as a winner, not a loser.
            sent = sorted([*sent, ko.champion(bracket, "main"), ko.champion(bracket, "losers")])  # type: ignore[list-item]
            people = sorted(set(people))
            sent = sorted({s for s in sent if s is not None})
        elif flight.name == "losers":
            sent = sorted(set(sent))
        if len(sent) == 1 and not people:
            continue  # a fed flight of one player is not played
        assert people == sent
    _check_feed_rules(bracket, feed)


def _check_feed_rules(bracket: ko.Bracket, feed: ko.Feed | None) -> None:
    """Main-draw losers go to the consolation exactly as its Feed says."""
    if feed is None:
        return
    out = ko.eliminated_to(bracket, "main")
    for entrant, destination in out.items():
        played = [
            m
            for m in bracket.flight_matches("main")
            if ko.status(bracket, m) is ko.MatchStatus.DECIDED
            and entrant in (ko.view(bracket, m).a, ko.view(bracket, m).b)
        ]
        last = played[-1]
        # Fed: lost in a fed round, or (first-match losers) lost the only match played,
        # in a round after the first fed round.
        expected = last.round in feed.rounds or (
            feed.first_match_losers and len(played) == 1 and last.round > min(feed.rounds)
        )
        assert (destination == "consolation") == expected, (entrant, last.id, destination)


@settings(max_examples=200, deadline=None)
@given(events())
def test_knockout_events_hold_their_invariants(
    event: tuple[ko.Bracket, int, ko.Feed | None],
) -> None:
    _check_event(*event)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(events())
def test_knockout_events_hold_their_invariants_many(
    event: tuple[ko.Bracket, int, ko.Feed | None],
) -> None:
    _check_event(*event)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 300), st.integers(0, 10**6))
def test_random_draw_never_puts_bye_against_bye(n: int, seed: int) -> None:
    positions = ko.random_positions(players(n), seed=seed)
    assert sorted(p for p in positions if p is not None) == players(n)
    assert all(
        positions[i] is not None or positions[i + 1] is not None
        for i in range(0, len(positions), 2)
    )


def _byes_into_consolation_and_last_chance() -> ko.Bracket:
    # Six players in 8, seeds 1 and 2 with byes: main R1 1-bye, 4 v 5, 2-bye, 3 v 6.
    # The consolation pairs the two bye players' first-match losses with each other and
    # the round-1 losers with each other; the last chance takes the consolation's losers.
    lengths = ko.RoundLengths(1)
    seat, empty = ko.Seat, ko.Empty()

    def match(key: str, a: ko.Source, b: ko.Source) -> ko.BracketMatch:
        flight, rnd, index = key.split("/")
        return ko.BracketMatch(M(key), flight, int(rnd), int(index), a, b, 1)

    def winner(key: str) -> ko.WinnerOf:
        return ko.WinnerOf(M(key))

    def loser(key: str, first_match: bool | None = None) -> ko.LoserOf:
        return ko.LoserOf(M(key), first_match)

    matches = (
        match("main/1/1", seat(E(1)), empty),
        match("main/1/2", seat(E(4)), seat(E(5))),
        match("main/1/3", seat(E(2)), empty),
        match("main/1/4", seat(E(3)), seat(E(6))),
        match("main/2/1", winner("main/1/1"), winner("main/1/2")),
        match("main/2/2", winner("main/1/3"), winner("main/1/4")),
        match("main/3/1", winner("main/2/1"), winner("main/2/2")),
        match("cons/1/1", loser("main/2/1", True), loser("main/2/2", True)),
        match("cons/1/2", loser("main/1/2"), loser("main/1/4")),
        match("cons/2/1", winner("cons/1/1"), winner("cons/1/2")),
        match("last/1/1", loser("cons/1/1"), loser("cons/1/2")),
    )
    flights = (
        ko.Flight("main", "knockout", 3, lengths),
        ko.Flight("cons", "knockout", 2, lengths),
        ko.Flight("last", "knockout", 1, lengths),
    )
    return ko.Bracket(1, flights, matches)


def test_last_chance_slot_fed_by_a_consolation_bye_to_be_is_empty_at_once() -> None:
    # 4 and 3 win round 1; 1 beats 4, whose loss was not a first match, so cons/1/1 can
    # at most be a bye and never has a loser. 6 beats 5 in the consolation: 5 goes to
    # the last chance and has a bye there without waiting for main/2/2.
    bracket = play(
        _byes_into_consolation_and_last_chance(),
        ("main/1/2", 4),
        ("main/1/4", 3),
        ("main/2/1", 1),
        ("cons/1/2", 6),
    )

    last = ko.view(bracket, bracket.match(M("last/1/1")))
    assert (last.status, last.a, last.winner) == (ko.MatchStatus.BYE, 5, 5)
    assert ko.view(bracket, bracket.match(M("cons/1/1"))).status is ko.MatchStatus.PENDING


def test_consolation_match_with_both_sides_to_come_keeps_its_loser_pending() -> None:
    # Nothing is known of cons/1/1 yet: its loser may still be a real player.
    bracket = play(
        _byes_into_consolation_and_last_chance(),
        ("main/1/2", 4),
        ("main/1/4", 3),
        ("cons/1/2", 6),
    )

    assert ko.view(bracket, bracket.match(M("last/1/1"))).status is ko.MatchStatus.PENDING
