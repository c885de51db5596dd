"""Chouettes: the box against the team, each member's own cube, rotation, totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.formats.chouette import (
    ChouetteOutcome,
    ChouetteState,
    MemberResult,
    play_game,
    running_chouette_totals,
    start,
    team_cube_results,
)
from tourney.formats.errors import FormatUserError
from tourney.formats.money import CubeOptions, MoneyEnd, MoneyGame, Payment, settlement, stake_mode
from tourney.rules.game import Level

PER_POINT = stake_mode("per-point")
JACOBY = CubeOptions(jacoby=True)
BOX, MEMBER = 0, 1


def played(winner: int, level: Level = Level.SINGLE, cube: int = 1) -> MoneyGame:
    return MoneyGame(winner=winner, end=MoneyEnd.PLAYED, level=level, cube=cube, centred=cube == 1)


def dropped(winner: int, cube: int = 1) -> MoneyGame:
    return MoneyGame(
        winner=winner, end=MoneyEnd.DROPPED, level=Level.SINGLE, cube=cube, centred=cube == 1
    )


def resigned(winner: int, level: Level, cube: int) -> MoneyGame:
    return MoneyGame(winner=winner, end=MoneyEnd.RESIGNED, level=level, cube=cube, centred=False)


def results(**games: MoneyGame) -> list[MemberResult]:
    """Results by player: ``results(p2=..., p3=...)``."""
    return [MemberResult(member=int(name[1:]), game=g) for name, g in games.items()]


def test_start_places_box_captain_and_line() -> None:
    state = start([1, 2, 3, 4, 5])
    assert state == ChouetteState(box=1, captain=2, line=(3, 4, 5))
    assert state.members == (2, 3, 4, 5)


@pytest.mark.parametrize(
    ("players", "problem"),
    [
        ([1, 2], "3 to 8 players, not 2"),
        (list(range(1, 10)), "3 to 8 players, not 9"),
        ([1, 2, 3, 2], "named twice: 2"),
    ],
)
def test_start_refuses_a_table_that_cannot_play(players: list[int], problem: str) -> None:
    with pytest.raises(FormatUserError) as raised:
        start(players)
    assert problem in str(raised.value)


def test_five_player_chouette_by_hand() -> None:
    # Players 1-5, per point, Jacoby on. Totals after each game are worked out below.
    state = start([1, 2, 3, 4, 5])
    outcomes: list[ChouetteOutcome] = []

    # Game 1: box 1, captain 2, line 3 4 5. The box wins a single on a centred cube
    # against everyone: each member -1, the box +4. The box beat the captain: 2 goes to
    # the end of the line, 3 becomes captain.
    outcome = play_game(
        state,
        results(p2=played(BOX), p3=played(BOX), p4=played(BOX), p5=played(BOX)),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {1: 4, 2: -1, 3: -1, 4: -1, 5: -1}
    assert outcome.after == ChouetteState(box=1, captain=3, line=(4, 5, 2))
    outcomes.append(outcome)

    # Game 2: box 1, captain 3, line 4 5 2. The box doubles everyone; 3 and 4 take,
    # 5 and 2 drop (1 each, the cube before the double). The team wins a gammon on the
    # cube at 2: 3 and 4 win 2 x 2 = 4 each. Box: -(4 + 4 - 1 - 1) = -6. The captain beat
    # the box: 3 becomes the box, 1 goes to the end of the line, 4 becomes captain.
    outcome = play_game(
        outcome.after,
        results(
            p3=played(MEMBER, Level.GAMMON, cube=2),
            p4=played(MEMBER, Level.GAMMON, cube=2),
            p5=dropped(BOX),
            p2=dropped(BOX),
        ),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {1: -6, 3: 4, 4: 4, 5: -1, 2: -1}
    assert outcome.after == ChouetteState(box=3, captain=4, line=(5, 2, 1))
    outcomes.append(outcome)

    # Game 3: box 3, captain 4, line 5 2 1, one team cube this game. The box takes the
    # team's double and wins a backgammon on 2: each member -3 x 2 = -6, the box +24. The
    # box beat captain 4: 4 to the end of the line, 5 captain.
    state3 = outcome.after
    outcome = play_game(
        state3,
        team_cube_results(state3, played(BOX, Level.BACKGAMMON, cube=2)),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {3: 24, 4: -6, 5: -6, 2: -6, 1: -6}
    assert outcome.after == ChouetteState(box=3, captain=5, line=(2, 1, 4))
    outcomes.append(outcome)

    # Game 4: box 3, captain 5, line 2 1 4. The box doubles; captain 5 drops (-1), the
    # others take at 2. Member 2 later redoubles to 4 and the box drops that cube: 2 wins
    # 2. Members 1 and 4 play on and win a single on 2: +2 each. Box: -(2 + 2 + 2 - 1) = -5.
    # The box beat the captain (5 dropped): 5 to the end of the line, 2 captain.
    outcome = play_game(
        outcome.after,
        results(
            p5=dropped(BOX),
            p2=dropped(MEMBER, cube=2),
            p1=played(MEMBER, cube=2),
            p4=played(MEMBER, cube=2),
        ),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {3: -5, 5: -1, 2: 2, 1: 2, 4: 2}
    assert outcome.after == ChouetteState(box=3, captain=2, line=(1, 4, 5))
    outcomes.append(outcome)

    # Game 5: box 3, captain 2, line 1 4 5. The team wins a single on a centred cube:
    # each member +1, the box -4. Captain 2 becomes the box, 3 goes to the end of the
    # line, 1 becomes captain.
    outcome = play_game(
        outcome.after,
        results(p2=played(MEMBER), p1=played(MEMBER), p4=played(MEMBER), p5=played(MEMBER)),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {3: -4, 2: 1, 1: 1, 4: 1, 5: 1}
    assert outcome.after == ChouetteState(box=2, captain=1, line=(4, 5, 3))
    outcomes.append(outcome)

    # Game 6: box 2, captain 1, line 4 5 3. The box wins a gammon with the cube never
    # turned: under Jacoby it counts single, each member -1, the box +4. Captain 1 to the
    # end of the line, 4 captain.
    outcome = play_game(
        outcome.after,
        results(
            p1=played(BOX, Level.GAMMON),
            p4=played(BOX, Level.GAMMON),
            p5=played(BOX, Level.GAMMON),
            p3=played(BOX, Level.GAMMON),
        ),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {2: 4, 1: -1, 4: -1, 5: -1, 3: -1}
    assert outcome.after == ChouetteState(box=2, captain=4, line=(5, 3, 1))
    outcomes.append(outcome)

    # Game 7: box 2, captain 4, line 5 3 1. Everyone takes the box's double at 2. The box
    # resigns a single on 2 to member 3 (+2); the others play on and win a gammon on 2:
    # 2 x 2 = +4 each. Box: -(4 + 4 + 2 + 4) = -14. Captain 4 becomes the box, 2 goes to
    # the end of the line, 5 becomes captain.
    outcome = play_game(
        outcome.after,
        results(
            p4=played(MEMBER, Level.GAMMON, cube=2),
            p5=played(MEMBER, Level.GAMMON, cube=2),
            p3=resigned(MEMBER, Level.SINGLE, cube=2),
            p1=played(MEMBER, Level.GAMMON, cube=2),
        ),
        PER_POINT,
        JACOBY,
    )
    assert outcome.units == {2: -14, 4: 4, 5: 4, 3: 2, 1: 4}
    assert outcome.after == ChouetteState(box=4, captain=5, line=(3, 1, 2))
    outcomes.append(outcome)

    # Running totals, summing the games above player by player:
    #   player 1:  4, -6,  -6,  2, 1,  -1,   4
    #   player 2: -1, -1,  -6,  2, 1,   4, -14
    #   player 3: -1,  4,  24, -5, -4, -1,   2
    #   player 4: -1,  4,  -6,  2, 1,  -1,   4
    #   player 5: -1, -1,  -6, -1, 1,  -1,   4
    assert running_chouette_totals([1, 2, 3, 4, 5], outcomes) == (
        {1: 4, 2: -1, 3: -1, 4: -1, 5: -1},
        {1: -2, 2: -2, 3: 3, 4: 3, 5: -2},
        {1: -8, 2: -8, 3: 27, 4: -3, 5: -8},
        {1: -6, 2: -6, 3: 22, 4: -1, 5: -9},
        {1: -5, 2: -5, 3: 18, 4: 0, 5: -8},
        {1: -6, 2: -1, 3: 17, 4: -1, 5: -9},
        {1: -2, 2: -15, 3: 19, 4: 3, 5: -5},
    )

    # At 100 minor units a point: no part of the table sums to 0, so one group of five
    # and four payments. 2 (owes 1500) pays 3 (owed 1900) 1500; 5 (owes 500) pays 3 the
    # 400 still owed. Now 1 owes 200 and 5 only 100: 1 pays 4 (owed 300) 200, then 5 pays
    # 4 the last 100.
    final = {
        player: 100 * units
        for player, units in running_chouette_totals([1, 2, 3, 4, 5], outcomes)[-1].items()
    }
    assert settlement(final) == (
        Payment(payer=2, payee=3, amount=1500),
        Payment(payer=5, payee=3, amount=400),
        Payment(payer=1, payee=4, amount=200),
        Payment(payer=5, payee=4, amount=100),
    )


def test_three_player_rotation_both_ways() -> None:
    # Box 1, captain 2, line 3. Box wins: 2 to the end, 3 captain.
    state = start([1, 2, 3])
    lost = play_game(state, team_cube_results(state, played(BOX)), PER_POINT, CubeOptions())
    assert lost.after == ChouetteState(box=1, captain=3, line=(2,))
    # Captain 3 wins: 3 the box, 1 to the end of the line, 2 captain.
    won = play_game(
        lost.after, team_cube_results(lost.after, played(MEMBER)), PER_POINT, CubeOptions()
    )
    assert won.after == ChouetteState(box=3, captain=2, line=(1,))


def test_team_cube_gives_every_member_the_captains_game() -> None:
    state = start([7, 8, 9, 10])
    game = played(MEMBER, Level.GAMMON, cube=4)
    assert team_cube_results(state, game) == (
        MemberResult(member=8, game=game),
        MemberResult(member=9, game=game),
        MemberResult(member=10, game=game),
    )
    # Each of the three wins 2 x 4 = 8 from the box.
    outcome = play_game(state, team_cube_results(state, game), PER_POINT, CubeOptions())
    assert outcome.units == {7: -24, 8: 8, 9: 8, 10: 8}


@pytest.mark.parametrize(
    ("entered", "problem"),
    [
        (results(p2=played(BOX), p3=played(BOX)), "missing: 4"),
        (
            results(p2=played(BOX), p3=played(BOX), p4=played(BOX), p1=played(BOX)),
            "Player 1 is not on the team",
        ),
        (
            [MemberResult(2, played(BOX)), MemberResult(2, played(BOX))],
            "Player 2 has more than one result",
        ),
        (
            results(p2=played(BOX), p3=played(BOX, cube=3), p4=played(BOX)),
            "Player 3: The cube must be a power of two",
        ),
        (
            results(p2=played(BOX), p3=played(MEMBER), p4=played(BOX)),
            "Players 2 and 3 both played the game out",
        ),
        (
            results(p2=played(BOX), p3=played(BOX, Level.GAMMON, cube=2), p4=played(BOX)),
            "Players 2 and 3 both played the game out",
        ),
    ],
)
def test_play_game_refuses_wrong_results(entered: list[MemberResult], problem: str) -> None:
    state = start([1, 2, 3, 4])
    with pytest.raises(FormatUserError) as raised:
        play_game(state, entered, PER_POINT, CubeOptions())
    assert problem in str(raised.value)


def test_running_totals_refuse_a_stranger() -> None:
    outcome = ChouetteOutcome(after=start([1, 2, 3]), units={1: 2, 2: -1, 9: -1})
    with pytest.raises(FormatUserError, match="Game 1: player 9 is not in the chouette"):
        running_chouette_totals([1, 2, 3], [outcome])


@st.composite
def member_games(draw: st.DrawFn) -> MoneyGame:
    if draw(st.booleans()):
        return dropped(draw(st.integers(0, 1)), cube=2 ** draw(st.integers(0, 4)))
    return resigned(
        draw(st.integers(0, 1)),
        draw(st.sampled_from(list(Level))),
        cube=2 ** draw(st.integers(1, 4)),
    )


@given(st.integers(3, 8), st.data())
def test_every_game_and_every_total_is_zero_sum(size: int, data: st.DataObject) -> None:
    players = list(range(1, size + 1))
    state = start(players)
    outcomes = []
    for _ in range(data.draw(st.integers(1, 10))):
        entered = [MemberResult(m, data.draw(member_games())) for m in state.members]
        outcome = play_game(state, entered, PER_POINT, CubeOptions())
        assert sum(outcome.units.values()) == 0
        assert sorted(outcome.after.players) == players
        outcomes.append(outcome)
        state = outcome.after
    for totals in running_chouette_totals(players, outcomes):
        assert sum(totals.values()) == 0
