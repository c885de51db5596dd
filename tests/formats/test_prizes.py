"""Prize funds and payouts by place, worked by hand."""

from __future__ import annotations

import doctest

import pytest

from tourney.formats import prizes
from tourney.formats.errors import FormatUserError
from tourney.formats.prizes import (
    abt_points,
    format_money,
    parse_money,
    parse_payout_table,
    pay_fund,
    pool_places,
    split_by_places,
)

FIFTY_THIRTY_TWENTY = parse_payout_table("50/30/20")


def test_prizes_doctests_pass() -> None:
    assert doctest.testmod(prizes).failed == 0


def test_pay_fund_37_entries_at_20_with_10_percent_retention() -> None:
    # 37 × €20.00 = €740.00; the house keeps 10% = €74.00; the fund is €666.00:
    # 50% = €333.00, 30% = €199.80, 20% = €133.20.
    standings = [(p, p) for p in range(1, 38)]

    result = pay_fund(
        taken=37 * 2000,
        retention_percent=10,
        sponsor=0,
        table=FIFTY_THIRTY_TWENTY,
        field=37,
        standings=standings,
    )

    assert (result.taken, result.retained, result.fund) == (74000, 7400, 66600)
    assert [(p.player, p.amount) for p in result.payouts] == [(1, 33300), (2, 19980), (3, 13320)]


def test_pay_fund_two_at_equal_third_split_third_and_fourth_prizes() -> None:
    # Fund €666.00 on 40/30/20/10: €266.40, €199.80, €133.20, €66.60; two players at =3
    # share €133.20 + €66.60 = €199.80, €99.90 each.
    standings = [(11, 1), (12, 2), (13, 3), (14, 3), (15, 5)]

    result = pay_fund(
        taken=74000,
        retention_percent=10,
        sponsor=0,
        table=parse_payout_table("40/30/20/10"),
        field=37,
        standings=standings,
    )

    assert [(p.player, p.place, p.tied, p.amount) for p in result.payouts] == [
        (11, 1, False, 26640),
        (12, 2, False, 19980),
        (13, 3, True, 9990),
        (14, 3, True, 9990),
    ]


def test_split_by_places_odd_cent_goes_to_first_listed_of_a_shared_place() -> None:
    assert split_by_places((500, 300, 201), [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3)]) == {
        1: 500,
        2: 300,
        3: 67,
        4: 67,
        5: 67,
    }
    assert split_by_places((500, 300, 101, 100), [(1, 1), (2, 2), (3, 3), (4, 3)]) == {
        1: 500,
        2: 300,
        3: 101,
        4: 100,
    }


def test_pay_fund_side_pool_of_11_players_without_retention() -> None:
    # 11 × €5.00 = €55.00, no retention, 70/30: €38.50 and €16.50, paid by places
    # among the pool's members (flight places 4 and 9 are the pool's 1st and 2nd).
    flight = [(p, p) for p in range(1, 38)]
    members = {4, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36}

    result = pay_fund(
        taken=11 * 500,
        retention_percent=0,
        sponsor=0,
        table=parse_payout_table("70/30"),
        field=11,
        standings=pool_places(flight, members),
    )

    assert [(p.player, p.place, p.amount) for p in result.payouts] == [(4, 1, 3850), (9, 2, 1650)]


def test_pay_fund_adds_sponsor_after_retention() -> None:
    # 10 × €10.00 = €100.00, 10% retention leaves €90.00, plus €50.00 sponsor = €140.00.
    result = pay_fund(
        taken=10000,
        retention_percent=10,
        sponsor=5000,
        table=parse_payout_table("1+: 100; 8+: 70/30"),
        field=10,
        standings=[(1, 1), (2, 2)],
    )

    assert (result.fund, [p.amount for p in result.payouts]) == (14000, [9800, 4200])


def test_payout_table_by_field_size_picks_the_largest_row_served() -> None:
    table = parse_payout_table("1+: 100\n8+: 70/30\n16+: 50/30/20")

    assert [table.percents_for(n) for n in (1, 7, 8, 16, 200)] == [
        (100,),
        (100,),
        (70, 30),
        (50, 30, 20),
        (50, 30, 20),
    ]
    assert table.format() == "1+: 100; 8+: 70/30; 16+: 50/30/20"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("50/30", "add up to 80, not 100"),
        ("50/x/50", "whole percentages"),
        ("30/70", "cannot be paid less"),
        ("8+: 70/30", "must serve fields from 1 player"),
        ("1+: 100; 8: 60/40; 4+: 50/50", "grow from row to row"),
        ("", "Give the payout percentages"),
    ],
)
def test_parse_payout_table_refuses_with_a_message(text: str, message: str) -> None:
    with pytest.raises(FormatUserError) as raised:
        parse_payout_table(text)

    assert message in str(raised.value)


@pytest.mark.parametrize("text", ["-5", "20.555", "abc", "1e5", "9999999999999"])
def test_parse_money_refuses_what_is_not_an_amount(text: str) -> None:
    with pytest.raises(FormatUserError):
        parse_money(text)


def test_format_money_writes_each_currency_its_way() -> None:
    assert [format_money(2000, c) for c in ("EUR", "USD", "GBP", "NOK")] == [
        "€20.00",
        "$20.00",
        "£20.00",
        "20.00 kr",
    ]


def test_abt_points_share_players_times_factor_with_ties() -> None:
    # 37 unique players × 100% = 37 points on 50/30/20: 18.5 → 18, 11.1 → 11, 7.4 → 7,
    # the odd point to 1st (19); two at =2 share 11 + 7 = 18, 9 each.
    points = abt_points(
        unique_players=37,
        factor_percent=100,
        table=(50, 30, 20),
        standings=[(1, 1), (2, 2), (3, 2)],
    )

    assert points == {1: 19, 2: 9, 3: 9}
