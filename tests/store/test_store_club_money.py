"""Club money through the store: fees, side pools, a buy-back, a refund, and payouts from
a knockout's final places. Every amount is worked by hand.

The knockout: players P01 … P37 seeded in name order, the better seed always wins, so P01
is 1st, P02 2nd, P03 and P04 =3 (the losing semifinalists), P05 … P08 =5.

* Main: 37 × €20.00 = €740.00 taken; 10% retention €74.00; fund €666.00 on 50/30/20:
  P01 €333.00, P02 €199.80, P03 and P04 share the 3rd prize €133.20 (the 4th place pays
  nothing): €66.60 each.
* Side pool "Pool" (€5.00, 70/30, no retention): 11 buy in (P02, P05 and P17 … P25):
  €55.00; P02 is the pool's 1st (€38.50), P05 its 2nd (€16.50).
* P05, out in the quarterfinal (a round that feeds no flight), buys back into the last
  chance for €10.00 and keeps the side pool entry: the last chance takes €10.00, keeps
  €1.00 (10%) and has a fund of €9.00.
* P38 pays €20.00 and the side pool €5.00, then withdraws before the draw: €25.00 back.
  Paid in to Main: 38 × €20.00 + 12 × €5.00 = €820.00; still due: 37 × €20.00 + 11 × €5.00
  = €795.00.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from knockout_play import play_ready
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import club_money as cm
from tourney.store import draws, results, roster, seasons
from tourney.store.audit_views import audit_page
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import AuditEntry, MoneyItem
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

POOL_MEMBERS = ["P02", "P05", *(f"P{n}" for n in range(17, 26))]


def _payouts(engine: Engine, event_id: int) -> cm.PayoutSheet:
    with Session(engine) as session:
        return cm.payout_sheet(session, event_id)


def _lines(fund: cm.FundView) -> list[tuple[str, str, int]]:
    return [(p.place, p.name, p.amount_minor) for p in fund.payouts]


@pytest.fixture
def club_event(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    names = [f"P{n:02d}" for n in range(1, 39)]
    built = build_event(
        names,
        [
            {"name": "Main", "format": "knockout", "match_length": 5},
            {
                "name": "Last chance",
                "format": "knockout",
                "match_length": 3,
                "feeds_from": "Main",
                "feed_rounds": (1, 2),
            },
        ],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Main"],
            fields=cm.MoneyFields(
                currency="EUR",
                entry_fee=2000,
                retention_percent=10,
                payout_table="50/30/20",
                side_pools=(cm.SidePoolFields("Pool", 500, "70/30"),),
            ),
        )
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Last chance"],
            fields=cm.MoneyFields(buyback_fee=1000, retention_percent=10, payout_table="100"),
        )
    for name in names:
        with transaction(engine) as session:
            cm.take_fee(
                session,
                actor=actor,
                flight_id=built.flights["Main"],
                entry_id=built.entries[name],
                kind="entry",
                method="cash" if name < "P20" else "transfer",
            )
    for name in [*POOL_MEMBERS, "P38"]:
        with transaction(engine) as session:
            cm.take_fee(
                session,
                actor=actor,
                flight_id=built.flights["Main"],
                entry_id=built.entries[name],
                kind="pool",
                pool="Pool",
                method="cash",
            )
    with transaction(engine) as session:
        # The default refund policy gives it back as the player withdraws.
        roster.withdraw(session, actor=actor, entry_id=built.entries["P38"])
    return built


def test_payouts_37_entries_at_20_with_retention_ties_and_a_side_pool(
    engine: Engine, club_event: BuiltEvent
) -> None:
    actor = club_event.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=club_event.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=club_event.flights["Main"])
    play_ready(engine, actor, club_event.flights["Main"])

    sheet = _payouts(engine, club_event.event_id)

    main, pool = sheet.flights[0].funds
    assert (main.taken_minor, main.retained_minor, main.fund_minor) == (74000, 7400, 66600)
    assert (main.taken, main.fund, main.structure) == ("€740.00", "€666.00", "50%/30%/20%")
    assert _lines(main) == [
        ("1", "P01", 33300),
        ("2", "P02", 19980),
        ("=3", "P03", 6660),
        ("=3", "P04", 6660),
    ]
    assert (pool.title, pool.taken_minor, pool.retained_minor) == ("Main side pool Pool", 5500, 0)
    assert _lines(pool) == [("1", "P02", 3850), ("2", "P05", 1650)]
    assert sheet.flights[0].finished is True
    assert sheet.flights[0].owed == ""


def test_buy_back_goes_to_the_last_chance_and_keeps_the_side_pool(
    engine: Engine, club_event: BuiltEvent
) -> None:
    # P05 goes out in the quarterfinal (round 4), which feeds no flight.
    actor = club_event.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=club_event.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=club_event.flights["Main"])
    play_ready(engine, actor, club_event.flights["Main"])

    with transaction(engine) as session:
        cm.take_fee(
            session,
            actor=actor,
            flight_id=club_event.flights["Last chance"],
            entry_id=club_event.entries["P05"],
            kind="buyback",
            method="cash",
        )

    sheet = _payouts(engine, club_event.event_id)
    main, pool = sheet.flights[0].funds
    (last_chance,) = sheet.flights[1].funds
    assert (last_chance.taken_minor, last_chance.retained_minor, last_chance.fund_minor) == (
        1000,
        100,
        900,
    )
    assert (main.taken_minor, pool.taken_minor) == (74000, 5500)
    with Session(engine) as session:
        line = next(
            x for x in cm.ledger(session, actor, club_event.event_id).lines if x.name == "P05"
        )
        board = flight_board(session, actor, club_event.flights["Last chance"])
    assert [(i.flight, i.label, i.paid, i.owed) for i in line.items] == [
        ("Main", "Entry fee", "€20.00", ""),
        ("Main", "Side pool Pool", "€5.00", ""),
        ("Last chance", "Buy-back", "€10.00", ""),
    ]
    first_round = [
        name
        for m in board.rounds[0].matches
        for name in (m.a.name if m.a else None, m.b.name if m.b else None)
    ]
    assert first_round.count("P05") == 1


def test_refund_on_withdrawal_before_the_draw_returns_what_was_paid(
    engine: Engine, club_event: BuiltEvent
) -> None:
    with Session(engine) as session:
        ledger = cm.ledger(session, club_event.director.actor, club_event.event_id)
        actions = session.exec(
            select(AuditEntry.action).where(AuditEntry.event_id == club_event.event_id)
        ).all()

    line = next(x for x in ledger.lines if x.name == "P38")
    assert (line.withdrawn, line.owed, line.can_refund) == (True, "", False)
    assert [(i.label, i.paid, i.refunded) for i in line.items] == [
        ("Entry fee", "€20.00", "€20.00"),
        ("Side pool Pool", "€5.00", "€5.00"),
    ]
    main = ledger.totals[0]
    assert (main.due, main.paid, main.refunded, main.owed) == (
        "€795.00",
        "€820.00",
        "€25.00",
        "€0.00",
    )
    assert actions.count("money.refund") == 2
    assert actions.count("money.pay") == 38 + 12
    assert actions.count("money.settings") == 2


def test_owed_counts_every_active_entry_until_paid(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Ben", "Cid"],
        [{"name": "Main", "format": "swiss", "match_length": 3, "swiss_rounds": 2}],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Main"],
            fields=cm.MoneyFields(currency="GBP", entry_fee=1500, payout_table="100"),
        )
        cm.take_fee(
            session,
            actor=actor,
            flight_id=built.flights["Main"],
            entry_id=built.entries["Ben"],
            kind="entry",
            method="transfer",
        )

    with Session(engine) as session:
        ledger = cm.ledger(session, actor, built.event_id)
    sheet = _payouts(engine, built.event_id)

    assert [(x.name, x.owed) for x in ledger.lines] == [
        ("Ann", "£15.00"),
        ("Ben", ""),
        ("Cid", "£15.00"),
    ]
    assert (sheet.flights[0].owed, sheet.flights[0].funds[0].taken) == ("£30.00", "£15.00")


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        (cm.MoneyFields(currency="XYZ"), "currency", "Unknown currency"),
        (cm.MoneyFields(payout_table="60/30"), "payout_table", "add up to 90"),
        (cm.MoneyFields(retention_percent=101), "retention_percent", "0 to 100"),
        (cm.MoneyFields(entry_fee=-1), "entry_fee", "cannot be negative"),
        (
            cm.MoneyFields(side_pools=(cm.SidePoolFields("A", 500, "100"),) * 2),
            "side_pools",
            "two side pools",
        ),
    ],
)
def test_set_flight_money_refuses_with_a_field_error(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    fields: cm.MoneyFields,
    field: str,
    message: str,
) -> None:
    built = build_event(["Ann", "Ben"], [{"name": "Main", "format": "knockout", "match_length": 3}])

    with pytest.raises(StoreUserError) as raised, transaction(engine) as session:
        cm.set_flight_money(
            session, actor=built.director.actor, flight_id=built.flights["Main"], fields=fields
        )

    assert (raised.value.field, message in raised.value.message) == (field, True)


def test_a_fee_is_taken_once(engine: Engine, club_event: BuiltEvent) -> None:
    with pytest.raises(StoreUserError) as raised, transaction(engine) as session:
        cm.take_fee(
            session,
            actor=club_event.director.actor,
            flight_id=club_event.flights["Main"],
            entry_id=club_event.entries["P01"],
            kind="entry",
            method="cash",
        )

    assert raised.value.message == "Entry fee of Main is already taken."


def test_points_per_place_feed_a_season(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> None:
    # Four players × a factor of 1000% = 40 points on 50/30/20: Ann 20, Ben 12, and Cid
    # and Dee (=3) share the 3rd place's 8 and the 4th's nothing: 4 each.
    built = build_event(
        ["Ann", "Ben", "Cid", "Dee"], [{"name": "Main", "format": "knockout", "match_length": 5}]
    )
    actor = built.director.actor
    club_id = into_club(built)
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Main"],
            fields=cm.MoneyFields(points_factor=1000, points_table="50/30/20"),
        )
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    play_ready(engine, actor, built.flights["Main"])
    with transaction(engine) as session:
        season_id = (
            seasons.create_season(
                session,
                actor=actor,
                club_id=club_id,
                fields=seasons.SeasonFields(
                    name="Spring", event_ids=(built.event_id,), scoring="points"
                ),
            ).id
            or 0
        )

    with Session(engine) as session:
        view = seasons.season_view(session, season_id)
        sheet = cm.payout_sheet(session, built.event_id)

    assert [(line.display_rank, line.name, line.total) for line in view.lines] == [
        ("1", "Ann", 20.0),
        ("2", "Ben", 12.0),
        ("=3", "Cid", 4.0),
        ("=3", "Dee", 4.0),
    ]
    # No fees: the payout sheet lists the points alone.
    assert [(p.place, p.name, p.amount, p.points) for p in sheet.flights[0].funds[0].payouts] == [
        ("1", "Ann", "", 20),
        ("2", "Ben", "", 12),
        ("=3", "Cid", "", 4),
        ("=3", "Dee", "", 4),
    ]


def _statements(engine: Engine, read: Callable[[Session], object]) -> int:
    """How many SQL statements ``read`` sends."""
    sent: list[str] = []

    def count(*args: object) -> None:
        sent.append(str(args[2]))

    sqlalchemy_event.listen(engine, "before_cursor_execute", count)
    try:
        with Session(engine) as session:
            read(session)
    finally:
        sqlalchemy_event.remove(engine, "before_cursor_execute", count)
    return len(sent)


def test_ledger_and_payouts_read_the_same_number_of_times_for_any_field(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    def statements(size: int) -> tuple[int, int]:
        built = build_event(
            [f"N{size}-{n:03d}" for n in range(size)],
            [{"name": "Main", "format": "swiss", "match_length": 1, "swiss_rounds": 1}],
            name=f"Field of {size}",
        )
        actor, main = built.director.actor, built.flights["Main"]
        with transaction(engine) as session:
            cm.set_flight_money(
                session,
                actor=actor,
                flight_id=main,
                fields=cm.MoneyFields(
                    entry_fee=1000,
                    payout_table="60/40",
                    side_pools=(cm.SidePoolFields("Pool", 500, "100"),),
                ),
            )
            for entry in list(built.entries.values())[::2]:
                cm.take_fee(
                    session,
                    actor=actor,
                    flight_id=main,
                    entry_id=entry,
                    kind="entry",
                    method="cash",
                )
                cm.take_fee(
                    session,
                    actor=actor,
                    flight_id=main,
                    entry_id=entry,
                    kind="pool",
                    pool="Pool",
                    method="cash",
                )
        return (
            _statements(engine, lambda s: cm.ledger(s, actor, built.event_id)),
            _statements(engine, lambda s: cm.payout_sheet(s, built.event_id)),
        )

    assert statements(6) == statements(60)


def test_a_side_pool_with_players_in_it_cannot_be_removed(
    engine: Engine, club_event: BuiltEvent
) -> None:
    with pytest.raises(StoreUserError) as raised, transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=club_event.director.actor,
            flight_id=club_event.flights["Main"],
            fields=cm.MoneyFields(entry_fee=2000, payout_table="100"),
        )

    assert (raised.value.field, raised.value.message) == (
        "side_pools",
        "Players have bought into side pool 'Pool': it stays (its fee and payout table may "
        "change).",
    )


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    players=st.integers(2, 9),
    fee=st.integers(1, 5000),
    retention_percent=st.integers(0, 100),
    sponsor=st.integers(0, 10_000),
    pool_fee=st.integers(1, 2000),
    seed=st.integers(0, 10**6),
)
def test_store_pays_out_exactly_what_each_flight_took(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    players: int,
    fee: int,
    retention_percent: int,
    sponsor: int,
    pool_fee: int,
    seed: int,
) -> None:
    # Some players withdraw before the draw and are refunded; some buy into the pool;
    # the knockout is played out with random winners.
    rng = random.Random(seed)
    names = [f"S{seed}-{n}" for n in range(players + 2)]
    built = build_event(
        names,
        [{"name": "Main", "format": "knockout", "match_length": 1}],
        name=f"Random {seed} {players}",
    )
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=main,
            fields=cm.MoneyFields(
                entry_fee=fee,
                retention_percent=retention_percent,
                sponsor=sponsor,
                payout_table="1+: 100; 3+: 60/40; 6+: 50/30/20",
                side_pools=(cm.SidePoolFields("Pool", pool_fee, "70/30"),),
            ),
        )
        for name in names:
            cm.take_fee(
                session,
                actor=actor,
                flight_id=main,
                entry_id=built.entries[name],
                kind="entry",
                method="cash",
            )
            if rng.random() < 0.5:
                cm.take_fee(
                    session,
                    actor=actor,
                    flight_id=main,
                    entry_id=built.entries[name],
                    kind="pool",
                    pool="Pool",
                    method="transfer",
                )
        for name in names[-2:]:
            roster.withdraw(session, actor=actor, entry_id=built.entries[name])
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=main)
    while True:
        with Session(engine) as session:
            board = flight_board(session, actor, main)
        ready = [
            m
            for r in board.rounds
            for m in r.matches
            if m.status == "ready" and m.a is not None and m.b is not None
        ]
        if not ready:
            break
        for match in ready:
            a_wins = rng.random() < 0.5
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=match.id,
                    score_a=1 if a_wins else 0,
                    score_b=0 if a_wins else 1,
                )

    with Session(engine) as session:
        sheet = cm.payout_sheet(session, built.event_id)
        items = session.exec(select(MoneyItem).where(MoneyItem.event_id == built.event_id)).all()

    paid = sum(i.paid for i in items)
    refunded = sum(i.refunded for i in items)
    funds = sheet.flights[0].funds
    paid_out = sum(p.amount_minor for f in funds for p in f.payouts)
    retained = sum(f.retained_minor for f in funds)
    assert sheet.flights[0].finished is True
    assert paid_out + retained + refunded == paid + sponsor
    assert refunded == sum(
        i.paid for i in items if i.entry_id in {built.entries[n] for n in names[-2:]}
    )


def test_the_audit_log_says_who_paid_and_was_refunded(
    engine: Engine, club_event: BuiltEvent
) -> None:
    with Session(engine) as session:
        money = audit_page(session, club_event.event_id, kind="money", page=1)
        oldest = audit_page(session, club_event.event_id, kind="money", page=money.pages)
        p38 = audit_page(session, club_event.event_id, entry_id=club_event.entries["P38"])

    sentences = [line.sentence.removeprefix(f"{line.actor} ") for line in p38.lines]
    assert sentences == [
        "refunded P38 a fee",
        "refunded P38 a fee",
        "withdrew P38",
        "took a fee from P38",
        "took a fee from P38",
        "entered P38",
    ]
    assert money.total == 2 + 38 + 12 + 2
    assert [line.sentence.removeprefix(f"{line.actor} ") for line in oldest.lines[-2:]] == [
        "set the fees and prizes of Last chance",
        "set the fees and prizes of Main",
    ]
