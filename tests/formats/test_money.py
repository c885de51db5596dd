"""Money play: stakes per game, running totals, settlement (DESIGN section 7)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.formats.errors import FormatUserError
from tourney.formats.money import (
    STAKE_MODES,
    CubeOptions,
    MoneyEnd,
    MoneyGame,
    Payment,
    StakeMode,
    check_game,
    game_units,
    running_totals,
    session_over,
    settlement,
    stake_mode,
    stake_mode_choices,
)
from tourney.rules.game import Level

PER_POINT = stake_mode("per-point")
PER_GAME = stake_mode("per-game")
PER_CHECKER = stake_mode("per-checker")
PLAIN = CubeOptions()
JACOBY = CubeOptions(jacoby=True)


def game(
    winner: int = 0,
    end: MoneyEnd = MoneyEnd.PLAYED,
    level: Level = Level.SINGLE,
    cube: int = 1,
    *,
    centred: bool | None = None,
    left: int = 0,
) -> MoneyGame:
    """A game; the cube counts as centred at 1 and as taken above 1 unless told."""
    return MoneyGame(
        winner=winner,
        end=end,
        level=level,
        cube=cube,
        centred=cube == 1 if centred is None else centred,
        checkers_left=left,
    )


# Stake modes


def test_stake_modes_are_registered_in_form_order() -> None:
    assert [mode.key for mode in STAKE_MODES.all()] == ["per-point", "per-game", "per-checker"]
    assert stake_mode_choices() == (
        ("per-point", "Per point"),
        ("per-game", "Per game"),
        ("per-checker", "Per checker (Tiflis)"),
    )


def test_stake_mode_unknown_key_names_the_known_keys() -> None:
    with pytest.raises(FormatUserError) as raised:
        stake_mode("per-pip")
    assert str(raised.value) == (
        "Unknown stake mode 'per-pip'; choose one of per-point, per-game, per-checker."
    )


# Per point


@pytest.mark.parametrize(
    ("entered", "units"),
    [
        # A single on a cube never turned: 1 x 1.
        (game(level=Level.SINGLE), 1),
        # A gammon with the cube on 2: 2 x 2 = 4, the seed's "vier ursprüngliche Wetten".
        (game(level=Level.GAMMON, cube=2), 4),
        # A backgammon with the cube on 4: 3 x 4 = 12.
        (game(level=Level.BACKGAMMON, cube=4), 12),
        # A gammon on a centred cube counts double without the Jacoby rule: 2 x 1.
        (game(level=Level.GAMMON), 2),
        # A resigned gammon with the cube on 8: the level accepted times the cube, 2 x 8.
        (game(end=MoneyEnd.RESIGNED, level=Level.GAMMON, cube=8), 16),
        # A refused redouble to 4 scores the cube before it, 2, never multiplied.
        (game(end=MoneyEnd.DROPPED, cube=2), 2),
        # A refused initial double scores 1.
        (game(end=MoneyEnd.DROPPED, cube=1), 1),
    ],
)
def test_per_point_is_cube_times_level(entered: MoneyGame, units: int) -> None:
    assert game_units(entered, PER_POINT, PLAIN) == units


def test_jacoby_gammon_on_centred_cube_counts_single() -> None:
    # Nobody doubled: under Jacoby the gammon is worth 1 x 1; without it 2 x 1.
    gammon = game(level=Level.GAMMON)
    assert game_units(gammon, PER_POINT, JACOBY) == 1
    assert game_units(gammon, PER_POINT, PLAIN) == 2


def test_jacoby_backgammon_on_turned_cube_counts_in_full() -> None:
    # The cube was taken at 2: Jacoby no longer applies, 3 x 2 = 6.
    assert game_units(game(level=Level.BACKGAMMON, cube=2), PER_POINT, JACOBY) == 6


def test_jacoby_ignores_automatic_doubles() -> None:
    # One automatic double put the cube on 2 in the middle; nobody doubled, so under
    # Jacoby the backgammon counts single: 1 x 2 = 2. Without Jacoby: 3 x 2 = 6.
    backgammon = game(level=Level.BACKGAMMON, cube=2, centred=True)
    assert game_units(backgammon, PER_POINT, CubeOptions(jacoby=True, automatic_doubles=1)) == 2
    assert game_units(backgammon, PER_POINT, CubeOptions(automatic_doubles=1)) == 6


def test_jacoby_does_not_change_a_drop() -> None:
    # A drop is single anyway; the refused redouble from 4 to 8 scores 4.
    assert game_units(game(end=MoneyEnd.DROPPED, cube=4), PER_POINT, JACOBY) == 4


# Per game


@pytest.mark.parametrize(
    "entered",
    [
        game(level=Level.SINGLE),
        game(level=Level.BACKGAMMON, cube=8),
        game(end=MoneyEnd.DROPPED, cube=4),
        game(end=MoneyEnd.RESIGNED, level=Level.GAMMON, cube=2),
    ],
)
def test_per_game_counts_every_win_once(entered: MoneyGame) -> None:
    # "Mars und Cola zählen als 1 Punkt": whatever the cube and level, one stake.
    assert game_units(entered, PER_GAME, PLAIN) == 1


# Per checker (Tiflis), the cases of VARIANTS E-TIFLIS-1


def test_per_checker_counts_the_checkers_left_only() -> None:
    # The loser bore off 8 and has 7 left: 7 stakes; the cube on 2 does not count.
    assert game_units(game(cube=2, left=7), PER_CHECKER, PLAIN) == 7
    # A gammon leaves 15: 15 stakes, the gammon not counted.
    assert game_units(game(level=Level.GAMMON, left=15), PER_CHECKER, PLAIN) == 15


def test_per_checker_times_level_and_cube_when_agreed() -> None:
    level = CubeOptions(tiflis_times_level=True)
    both = CubeOptions(tiflis_times_level=True, tiflis_times_cube=True)
    # 7 left on a single: 7 x 1 = 7; with the cube on 2 as well: 14.
    assert game_units(game(cube=2, left=7), PER_CHECKER, level) == 7
    assert game_units(game(cube=2, left=7), PER_CHECKER, both) == 14
    # 15 left on a gammon: 15 x 2 = 30; with the cube on 2 as well: 60.
    assert game_units(game(level=Level.GAMMON, left=15), PER_CHECKER, level) == 30
    assert game_units(game(level=Level.GAMMON, cube=2, left=15), PER_CHECKER, both) == 60


def test_per_checker_level_follows_jacoby() -> None:
    # A gammon on a centred cube counts single under Jacoby: 15 x 1.
    options = CubeOptions(jacoby=True, tiflis_times_level=True)
    assert game_units(game(level=Level.GAMMON, left=15), PER_CHECKER, options) == 15


def test_per_checker_drop_pays_the_checkers_on_the_board() -> None:
    # The loser refused a double with 12 checkers still on the board: 12 stakes.
    assert game_units(game(end=MoneyEnd.DROPPED, left=12), PER_CHECKER, PLAIN) == 12


def test_per_checker_needs_the_checkers_left() -> None:
    with pytest.raises(FormatUserError, match="checkers left"):
        game_units(game(), PER_CHECKER, PLAIN)


# Impossible games


@pytest.mark.parametrize(
    ("entered", "options", "problem"),
    [
        (game(cube=3), PLAIN, "power of two"),
        (game(cube=0, centred=False), PLAIN, "power of two"),
        (game(cube=8), CubeOptions(cube_limit=4), "above the session's cube limit of 4"),
        (game(cube=2, centred=True), PLAIN, "stands at 1 without automatic doubles"),
        (game(cube=4, centred=True), CubeOptions(automatic_doubles=1), "more automatic doubles"),
        (game(cube=1, centred=False), PLAIN, "taken stands at 2 or more"),
        (game(end=MoneyEnd.DROPPED, level=Level.GAMMON), PLAIN, "dropped double scores single"),
        (game(left=16), PLAIN, "0 to 15 checkers left, not 16"),
        (game(left=-1), PLAIN, "0 to 15 checkers left, not -1"),
        (game(winner=2), PLAIN, "winner must be side 0 or side 1, not 2"),
        (game(level=Level.GAMMON, left=10), PLAIN, "gammon leaves the loser all 15"),
        (game(left=15), PLAIN, "with 15 it is a gammon"),
        (game(), CubeOptions(raccoons=True), "Raccoons need beavers"),
        (game(), CubeOptions(cube_limit=3), "cube limit must be a power of two"),
        (game(), CubeOptions(automatic_doubles=-1), "cannot be negative"),
    ],
)
def test_check_game_refuses_the_impossible(
    entered: MoneyGame, options: CubeOptions, problem: str
) -> None:
    with pytest.raises(FormatUserError) as raised:
        check_game(entered, options)
    assert problem in str(raised.value)


@pytest.mark.parametrize(
    ("entered", "options"),
    [
        # Two automatic doubles can leave the cube in the middle at 4.
        (game(cube=4, centred=True), CubeOptions(automatic_doubles=2)),
        # A cube exactly at the limit is allowed.
        (game(cube=4), CubeOptions(cube_limit=4)),
        # A passed beaver: the cube was taken at 2, the doubler loses 2.
        (game(end=MoneyEnd.DROPPED, cube=2), CubeOptions(beavers=True, raccoons=True)),
        # A single resigned before the loser bore anything off.
        (game(end=MoneyEnd.RESIGNED, left=15), PLAIN),
    ],
)
def test_check_game_accepts_the_possible(entered: MoneyGame, options: CubeOptions) -> None:
    check_game(entered, options)


# Running totals and the end of a session


def test_running_totals_follow_each_game() -> None:
    games = [
        game(winner=0, level=Level.GAMMON, cube=2),  # seat 0 +4: 4, -4
        game(winner=1, end=MoneyEnd.DROPPED, cube=1),  # seat 1 +1: 3, -3
        game(winner=1, level=Level.BACKGAMMON, cube=4),  # seat 1 +12: -9, 9
        game(winner=0, level=Level.GAMMON),  # Jacoby, centred: +1: -8, 8
    ]
    assert running_totals(games, PER_POINT, JACOBY) == ((4, -4), (3, -3), (-9, 9), (-8, 8))


def test_running_totals_name_the_impossible_game() -> None:
    with pytest.raises(FormatUserError, match=r"^Game 2: The cube must be a power of two"):
        running_totals([game(), game(cube=6)], PER_POINT, PLAIN)


def test_session_over_at_the_difference() -> None:
    assert session_over((10, -10), difference=10)
    assert session_over((-12, 12), difference=10)
    assert not session_over((9, -9), difference=10)
    assert not session_over((500, -500), difference=None)


# Settlement


def test_settlement_of_two_players_is_one_payment() -> None:
    assert settlement({7: 1500, 3: -1500}) == (Payment(payer=3, payee=7, amount=1500),)


def test_settlement_of_nothing_owed_is_no_payment() -> None:
    assert settlement({1: 0, 2: 0}) == ()


def test_settlement_of_five_players_uses_the_fewest_payments() -> None:
    # 4 owes exactly what 5 is owed, so {4, 5} settle apart and {1, 2, 3} apart:
    # 2 + 1 = 3 payments. Paying largest to largest over everyone would take 4
    # (1->3 20, 1->5 10, 4->5 5, 4->2 10). The group with the largest debtor (1, -30) comes
    # first: 1 pays the largest creditor 3 their 20, then 2 the remaining 10.
    balances = {1: -30, 2: 10, 3: 20, 4: -15, 5: 15}
    assert settlement(balances) == (
        Payment(payer=1, payee=3, amount=20),
        Payment(payer=1, payee=2, amount=10),
        Payment(payer=4, payee=5, amount=15),
    )


def test_settlement_ties_go_to_the_lower_id() -> None:
    # One group (no two or three balances sum to 0): 2 and 4 both owe 10, the lower id 2
    # pays first, to 1 (owed 12, the largest): 10. Now 3 is owed the most (8 against 1's
    # 2), so 4 pays 3 its 8 and then 1 the remaining 2.
    assert settlement({1: 12, 2: -10, 3: 8, 4: -10}) == (
        Payment(payer=2, payee=1, amount=10),
        Payment(payer=4, payee=3, amount=8),
        Payment(payer=4, payee=1, amount=2),
    )


def test_settlement_refuses_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(FormatUserError, match="sum to 0, not 5"):
        settlement({1: 10, 2: -5})


# Properties


@st.composite
def money_games(draw: st.DrawFn, automatic_doubles: int) -> MoneyGame:
    end = draw(st.sampled_from(list(MoneyEnd)))
    level = Level.SINGLE if end is MoneyEnd.DROPPED else draw(st.sampled_from(list(Level)))
    centred = draw(st.booleans())
    exponent = draw(st.integers(0, automatic_doubles) if centred else st.integers(1, 6))
    if level is not Level.SINGLE:
        left = 15
    elif end is MoneyEnd.PLAYED:
        left = draw(st.integers(1, 14))
    else:
        left = draw(st.integers(1, 15))
    return MoneyGame(
        winner=draw(st.integers(0, 1)),
        end=end,
        level=level,
        cube=2**exponent,
        centred=centred,
        checkers_left=left,
    )


@st.composite
def sessions(draw: st.DrawFn) -> tuple[list[MoneyGame], CubeOptions]:
    options = CubeOptions(
        jacoby=draw(st.booleans()),
        automatic_doubles=draw(st.integers(0, 2)),
        tiflis_times_level=draw(st.booleans()),
        tiflis_times_cube=draw(st.booleans()),
    )
    return draw(st.lists(money_games(options.automatic_doubles), max_size=20)), options


@given(sessions(), st.sampled_from(STAKE_MODES.all()))
def test_running_totals_are_zero_sum_and_move_by_each_game(
    session: tuple[list[MoneyGame], CubeOptions], mode: StakeMode
) -> None:
    games, options = session
    totals = running_totals(games, mode, options)
    previous = 0
    for entered, (seat0, seat1) in zip(games, totals, strict=True):
        units = game_units(entered, mode, options)
        assert units > 0
        assert seat0 == -seat1
        assert seat0 - previous == (units if entered.winner == 0 else -units)
        previous = seat0


@st.composite
def balance_sheets(draw: st.DrawFn) -> dict[int, int]:
    players = draw(st.lists(st.integers(1, 40), min_size=1, max_size=18, unique=True))
    amounts = [draw(st.integers(-500, 500)) for _ in players[1:]]
    return dict(zip(players, [-sum(amounts), *amounts], strict=True))


@given(balance_sheets())
def test_settlement_pays_off_every_balance_exactly(balances: dict[int, int]) -> None:
    payments = settlement(balances)
    received: Counter[int] = Counter()
    for payment in payments:
        assert payment.amount > 0
        assert balances[payment.payer] < 0 < balances[payment.payee]
        received[payment.payee] += payment.amount
        received[payment.payer] -= payment.amount
    assert {p: received[p] for p in balances} == balances
    open_ = sum(1 for amount in balances.values() if amount)
    assert len(payments) <= max(open_ - 1, 0)
    # The same balances in another order give the same payments.
    assert settlement(dict(reversed(list(balances.items())))) == payments


def most_zero_sum_groups(amounts: tuple[int, ...]) -> int:
    """By brute force: the most groups the amounts split into that each sum to 0."""
    if not amounts:
        return 0
    first, rest = amounts[0], amounts[1:]
    best = 0
    for mask in range(1 << len(rest)):
        chosen = [a for i, a in enumerate(rest) if mask >> i & 1]
        if first + sum(chosen) == 0:
            others = tuple(a for i, a in enumerate(rest) if not mask >> i & 1)
            best = max(best, 1 + most_zero_sum_groups(others))
    return best


@given(st.lists(st.integers(-6, 6).filter(bool), min_size=1, max_size=6))
def test_settlement_needs_no_more_payments_than_the_best_split(amounts: list[int]) -> None:
    # Each zero-sum group of k open balances needs k - 1 payments, and no settlement can do
    # better than splitting into the most such groups.
    balances = {player: amount for player, amount in enumerate(amounts, start=1)}
    balances[len(amounts) + 1] = -sum(amounts)
    values = tuple(amount for amount in balances.values() if amount)
    assert len(settlement(balances)) == len(values) - most_zero_sum_groups(values)
