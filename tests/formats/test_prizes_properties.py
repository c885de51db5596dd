"""Property: over random events from ``tourney simulate``, with random fees, retention,
sponsors, payout tables, side pools and refunds, every flight's money adds up: the
payouts, the house's retention and the refunds are exactly the money taken plus the
sponsor's, and a better place is never paid less than a worse one."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.formats.prizes import PayoutRow, PayoutTable, pay_fund, pool_places
from tourney.formats.simulation import SimulationOptions, simulate


@st.composite
def events(draw: st.DrawFn) -> dict[str, Any]:
    """A simulated event's document."""
    fmt = draw(st.sampled_from(["knockout", "swiss", "roundrobin"]))
    players = draw(st.integers(2, 20))
    options = SimulationOptions(
        format=fmt,
        players=players,
        consolation=fmt == "knockout" and players >= 4 and draw(st.booleans()),
        match_length=1,
        seed=draw(st.integers(0, 10_000)),
    )
    return simulate(options)


@st.composite
def tables(draw: st.DrawFn) -> PayoutTable:
    """A valid payout table: whole percentages, best place first, adding up to 100."""
    rows: list[PayoutRow] = []
    field = 1
    for _ in range(draw(st.integers(1, 3))):
        cuts = sorted(draw(st.lists(st.integers(1, 99), max_size=5, unique=True)))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
        rows.append(PayoutRow(field, tuple(sorted(parts, reverse=True))))
        field += draw(st.integers(1, 10))
    return PayoutTable(tuple(rows))


def _amounts_by_place(payouts: list[tuple[int, int]]) -> list[int]:
    return [amount for _, amount in sorted(payouts)]


@settings(max_examples=60, deadline=None)
@given(
    event=events(),
    table=tables(),
    pool_table=tables(),
    fee=st.integers(0, 100_000),
    pool_fee=st.integers(1, 10_000),
    retention_percent=st.integers(0, 100),
    sponsor=st.integers(0, 1_000_000),
    refunds=st.integers(0, 5),
    data=st.data(),
)
def test_every_flight_pays_out_exactly_what_it_took(
    event: dict[str, Any],
    table: PayoutTable,
    pool_table: PayoutTable,
    fee: int,
    pool_fee: int,
    retention_percent: int,
    sponsor: int,
    refunds: int,
    data: st.DataObject,
) -> None:
    for flight in event["flights"]:
        standings = [(row["player"], row["rank"]) for row in flight["standings"]]
        if not standings:
            continue
        # Everyone ranked paid; some more paid and withdrew before the draw, refunded.
        paid = fee * (len(standings) + refunds)
        refunded = fee * refunds

        result = pay_fund(
            taken=paid - refunded,
            retention_percent=retention_percent,
            sponsor=sponsor,
            table=table,
            field=len(standings),
            standings=standings,
        )

        paid_out = sum(p.amount for p in result.payouts)
        assert paid_out + result.retained + refunded == paid + sponsor
        by_place = [p.amount for p in sorted(result.payouts, key=lambda p: p.place)]
        assert by_place == sorted(by_place, reverse=True)
        members = set(data.draw(st.lists(st.sampled_from([p for p, _ in standings]), unique=True)))
        if members:
            pool = pay_fund(
                taken=pool_fee * len(members),
                retention_percent=0,
                sponsor=0,
                table=pool_table,
                field=len(members),
                standings=pool_places(standings, members),
            )
            assert sum(p.amount for p in pool.payouts) == pool_fee * len(members)
            assert {p.player for p in pool.payouts} <= members
