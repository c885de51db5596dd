"""A drawn Swiss's field from its entries and recorded matches, and when a round is due."""

from __future__ import annotations

import pytest

from tourney.formats import swiss
from tourney.formats.errors import FormatUserError
from tourney.formats.model import EntrantId, MatchOutcome

E = EntrantId


def field_after_one_round(**rules: bool) -> swiss.SwissField:
    """1 beat 2 5-3; 3 had the bye; 4 joined late with one win; 1 v 3 of round 2 is on."""
    entries = [
        swiss.FieldEntry(E(1)),
        swiss.FieldEntry(E(2)),
        swiss.FieldEntry(E(3)),
        swiss.FieldEntry(E(4), wins=1),
    ]
    matches = [
        swiss.RoundMatch(1, E(1), E(2), E(1), (5, 3), 5),
        swiss.RoundMatch(1, E(3), None, E(3), length=5),
        swiss.RoundMatch(2, E(1), E(3), None, length=5),
    ]
    return swiss.swiss_field(entries, matches, **rules)


def records(field: swiss.SwissField) -> list[tuple[int, int, int, bool]]:
    return [(r.entrant, r.wins, r.losses, r.had_bye) for r in field.records]


def test_field_counts_wins_losses_the_bye_and_a_late_start() -> None:
    field = field_after_one_round(bye_is_win=True)

    assert records(field) == [(1, 1, 0, False), (2, 0, 1, False), (3, 1, 0, True), (4, 1, 0, False)]
    # Pairs drawn count as met even before a result: 1 v 3 of round 2 is not repeated.
    assert field.played == {frozenset((1, 2)), frozenset((1, 3))}
    assert field.outcomes == (
        MatchOutcome(0, E(4), None, E(4)),
        MatchOutcome(1, E(1), E(2), E(1), (5, 3), 5),
        MatchOutcome(1, E(3), None, E(3), (0, 0), 5),
    )


def test_bye_that_is_no_win_still_marks_its_player() -> None:
    field = field_after_one_round(bye_is_win=False)

    assert records(field)[2] == (3, 0, 0, True)
    assert [o.round for o in field.outcomes] == [0, 1]


def test_bye_of_a_round_still_being_played_counts_no_win_yet() -> None:
    # Five players, round 2 published: 1 v 2 and 3 v 4 unplayed, 5 has the bye.
    entries = [swiss.FieldEntry(E(n)) for n in range(1, 6)]
    round_one = [
        swiss.RoundMatch(1, E(1), E(5), E(1), (3, 1), 3),
        swiss.RoundMatch(1, E(2), E(3), E(2), (3, 0), 3),
        swiss.RoundMatch(1, E(4), None, E(4), length=3),
    ]
    round_two = [
        swiss.RoundMatch(2, E(1), E(2), None, length=3),
        swiss.RoundMatch(2, E(3), E(4), None, length=3),
        swiss.RoundMatch(2, E(5), None, E(5), length=3),
    ]

    before = swiss.swiss_field(entries, round_one + round_two, bye_is_win=True)
    played = [
        swiss.RoundMatch(2, E(1), E(2), E(1), (3, 2), 3),
        swiss.RoundMatch(2, E(3), E(4), E(4), (0, 3), 3),
        round_two[2],
    ]
    after = swiss.swiss_field(entries, round_one + played, bye_is_win=True)

    # 5 lost round 1 and has the round-2 bye: still 0-1 until round 2 is played, and
    # marked as having had the bye so that no later round gives it another.
    assert records(before)[4] == (5, 0, 1, True)
    assert [o.round for o in before.outcomes] == [1, 1, 1]
    assert records(after)[4] == (5, 1, 1, True)


def test_round_robin_byes_mark_nobody() -> None:
    field = field_after_one_round(bye_is_win=True, byes_recorded=False)

    assert records(field)[2] == (3, 0, 0, False)


def test_pairing_field_leaves_out_the_withdrawn_and_those_out_of_lives() -> None:
    records = [
        swiss.SwissRecord(E(1), 2, 0, False, True),
        swiss.SwissRecord(E(2), 0, 2, False, True),
        swiss.SwissRecord(E(3), 1, 1, True, False),
    ]

    assert [e.id for e in swiss.swiss_entrants(records, None)] == [1, 2]
    assert [e.id for e in swiss.swiss_entrants(records, 2)] == [1]


@pytest.mark.parametrize(
    ("rounds", "lives", "players", "limit"),
    [
        (None, 3, 12, None),
        (4, None, 12, 4),
        (None, None, 5, 3),
        (None, None, 8, 3),
        (None, None, 1, 1),
    ],
)
def test_round_limit_is_set_or_ceil_log2_or_none_on_lives(
    rounds: int | None, lives: int | None, players: int, limit: int | None
) -> None:
    assert swiss.round_limit(rounds=rounds, lives=lives, players=players) == limit


def test_next_round_is_due_until_the_rounds_are_drawn() -> None:
    # Four players: ceil(log2 4) = 2 rounds.
    field = field_after_one_round(bye_is_win=True)

    due = [
        swiss.is_next_round_due(field, rounds_drawn=n, rounds=None, lives=None) for n in (1, 2)
    ]

    assert due == [True, False]


def test_lives_swiss_goes_on_while_two_players_have_a_life() -> None:
    # One life each: 2 has lost, so 1, 3 and 4 are still in, however many rounds were drawn.
    field = field_after_one_round(bye_is_win=True)
    last_two = swiss.SwissField(
        tuple(r for r in field.records if r.entrant in (1, 2)), field.played, field.outcomes
    )

    assert swiss.is_next_round_due(field, rounds_drawn=9, rounds=None, lives=1) is True
    assert swiss.is_next_round_due(last_two, rounds_drawn=1, rounds=None, lives=1) is False


def test_next_round_pairs_within_records_without_rematches() -> None:
    # After round 1 (1 beat 2, 3 beat 4): winners 1 and 3 meet, losers 2 and 4 meet.
    field = swiss.swiss_field(
        [swiss.FieldEntry(E(n)) for n in (1, 2, 3, 4)],
        [
            swiss.RoundMatch(1, E(1), E(2), E(1), (3, 0), 3),
            swiss.RoundMatch(1, E(3), E(4), E(3), (3, 1), 3),
        ],
        bye_is_win=True,
    )

    paired = swiss.pair_field(
        field, ranking=[E(1), E(3), E(2), E(4)], ratings={}, seed=7, by_rating=False, lives=None
    )

    assert {frozenset(p) for p in paired.pairings} == {frozenset((1, 3)), frozenset((2, 4))}
    assert paired.bye is None


def test_next_round_needs_two_players_still_in() -> None:
    field = swiss.swiss_field(
        [swiss.FieldEntry(E(1)), swiss.FieldEntry(E(2), active=False)], [], bye_is_win=True
    )

    with pytest.raises(FormatUserError, match="two players still in; there are 1"):
        swiss.pair_field(field, ranking=[], ratings={}, seed=0, by_rating=False, lives=None)
