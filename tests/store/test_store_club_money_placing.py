"""Club money that changes who plays and what is owed: a buy-back that seats the player
in the consolation, a payment taken back, and refunds as a player withdraws. Every amount
is worked by hand.

The event: seven players A1 … A7 seeded in name order, the better seed always wins.
Main is a seeded knockout of 8 places: A1 has the bye, round 1 is A4-A5, A2-A7, A3-A6.
The consolation takes the three round-1 losers (A5, A6, A7) in a draw of 4 places, so one
first-round place is empty. Entry €20.00 in Main; a buy-back into the consolation costs
€10.00, of which 10% is kept; a sponsor adds €20.00 to its prizes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from knockout_play import play_ready
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import club_money as cm
from tourney.store import draws, roster
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import AuditEntry, MoneyItem
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

NAMES = [f"A{n}" for n in range(1, 8)]


def _consolation_players(engine: Engine, actor: Actor, flight_id: int) -> list[str]:
    with Session(engine) as session:
        board = flight_board(session, actor, flight_id)
    return sorted(
        side.name for m in board.rounds[0].matches for side in (m.a, m.b) if side is not None
    )


def _items(engine: Engine, entry_id: int) -> list[tuple[str, int, int, int]]:
    with Session(engine) as session:
        rows = session.exec(select(MoneyItem).where(MoneyItem.entry_id == entry_id)).all()
        return sorted((r.kind, r.paid, r.refunded, r.reversed) for r in rows)


@pytest.fixture
def seven(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(
        NAMES,
        [
            {"name": "Main", "format": "knockout", "match_length": 5},
            {
                "name": "Consolation",
                "format": "knockout",
                "match_length": 3,
                "feeds_from": "Main",
                "feed_rounds": (1,),
            },
        ],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Main"],
            fields=cm.MoneyFields(entry_fee=2000, payout_table="70/30"),
        )
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=built.flights["Consolation"],
            fields=cm.MoneyFields(
                buyback_fee=1000, retention_percent=10, sponsor=2000, payout_table="100"
            ),
        )
    return built


def _draw(engine: Engine, built: BuiltEvent) -> None:
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])


def _buy_back(engine: Engine, built: BuiltEvent, name: str) -> None:
    with transaction(engine) as session:
        cm.take_fee(
            session,
            actor=built.director.actor,
            flight_id=built.flights["Consolation"],
            entry_id=built.entries[name],
            kind="buyback",
            method="cash",
        )


def test_a_semifinal_loser_buys_back_into_the_empty_consolation_place(
    engine: Engine, seven: BuiltEvent
) -> None:
    actor = seven.director.actor
    _draw(engine, seven)
    play_ready(engine, actor, seven.flights["Main"], rounds=2)  # round 1 and semifinals
    with Session(engine) as session:
        before = cm.payout_sheet(session, seven.event_id).flights[1].funds[0]

    _buy_back(engine, seven, "A4")

    assert _consolation_players(engine, actor, seven.flights["Consolation"]) == [
        "A4",
        "A5",
        "A6",
        "A7",
    ]
    play_ready(engine, actor, seven.flights["Consolation"])
    with Session(engine) as session:
        after = cm.payout_sheet(session, seven.event_id).flights[1].funds[0]
        audit = session.exec(
            select(AuditEntry.action).where(AuditEntry.event_id == seven.event_id)
        ).all()
    # Before: nothing taken, the sponsor's €20.00 alone. After: €10.00 taken, €1.00 kept,
    # €9.00 + €20.00 = €29.00, all to the consolation's winner A4 (the best seed in it).
    assert (before.taken_minor, before.fund_minor) == (0, 2000)
    assert (after.taken_minor, after.retained_minor, after.fund_minor) == (1000, 100, 2900)
    assert [(p.place, p.name, p.amount_minor) for p in after.payouts] == [("1", "A4", 2900)]
    assert (audit.count("flight.buyback_entry"), audit.count("money.pay")) == (1, 1)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("A5", "in “Consolation” already"),
        ("A1", "still playing in “Main”"),
    ],
)
def test_a_buy_back_that_cannot_be_placed_records_no_fee(
    engine: Engine, seven: BuiltEvent, name: str, message: str
) -> None:
    _draw(engine, seven)
    play_ready(engine, seven.director.actor, seven.flights["Main"], rounds=1)

    with pytest.raises(StoreUserError) as raised:
        _buy_back(engine, seven, name)

    assert message in raised.value.message
    assert _items(engine, seven.entries[name]) == []


def test_a_second_buy_back_finds_the_consolation_full(engine: Engine, seven: BuiltEvent) -> None:
    _draw(engine, seven)
    play_ready(engine, seven.director.actor, seven.flights["Main"], rounds=2)
    _buy_back(engine, seven, "A4")

    with pytest.raises(StoreUserError) as raised:
        _buy_back(engine, seven, "A3")

    assert "no free place" in raised.value.message
    assert _items(engine, seven.entries["A3"]) == []
    assert _items(engine, seven.entries["A4"]) == [("buyback", 1000, 0, 0)]


def test_no_buy_back_before_the_main_draw(engine: Engine, seven: BuiltEvent) -> None:
    with pytest.raises(StoreUserError) as raised:
        _buy_back(engine, seven, "A4")

    assert "not drawn yet" in raised.value.message
    assert _items(engine, seven.entries["A4"]) == []


def _pay_entry(engine: Engine, built: BuiltEvent, name: str, method: str = "cash") -> MoneyItem:
    with transaction(engine) as session:
        return cm.take_fee(
            session,
            actor=built.director.actor,
            flight_id=built.flights["Main"],
            entry_id=built.entries[name],
            kind="entry",
            method=method,
        )


def test_a_payment_marked_by_mistake_is_taken_back_and_owed_again(
    engine: Engine, seven: BuiltEvent
) -> None:
    actor = seven.director.actor
    for name in ("A1", "A2"):
        _pay_entry(engine, seven, name)
    with Session(engine) as session:
        a2 = session.exec(select(MoneyItem).where(MoneyItem.entry_id == seven.entries["A2"])).one()

    with transaction(engine) as session:
        cm.undo_payment(session, actor=actor, item_id=a2.id or 0, event_id=seven.event_id)

    with Session(engine) as session:
        book = cm.ledger(session, actor, seven.event_id)
        sheet = cm.payout_sheet(session, seven.event_id)
        audit = session.exec(
            select(AuditEntry.action).where(AuditEntry.event_id == seven.event_id)
        ).all()
    line = next(x for x in book.lines if x.name == "A2")
    (item,) = line.items
    # One €20.00 entry left in the fund; 6 of 7 players owe €20.00 = €120.00.
    assert (item.paid, item.owed, item.reversed[:7], item.can_undo) == (
        "",
        "€20.00",
        "€20.00 ",
        False,
    )
    assert (sheet.flights[0].funds[0].taken_minor, sheet.flights[0].owed) == (2000, "€120.00")
    assert audit.count("money.unpay") == 1
    assert _items(engine, seven.entries["A2"]) == [("entry", 0, 0, 2000)]
    with (
        pytest.raises(StoreUserError, match="no payment to take back"),
        transaction(engine) as session,
    ):
        cm.undo_payment(session, actor=actor, item_id=a2.id or 0)

    _pay_entry(engine, seven, "A2", "transfer")

    assert _items(engine, seven.entries["A2"]) == [("entry", 2000, 0, 2000)]


def test_withdrawing_before_the_draw_refunds_by_the_flight_policy(
    engine: Engine, seven: BuiltEvent
) -> None:
    actor = seven.director.actor
    _pay_entry(engine, seven, "A6", "transfer")
    _pay_entry(engine, seven, "A7")
    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=seven.entries["A6"])
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=seven.flights["Main"],
            fields=cm.MoneyFields(entry_fee=2000, payout_table="70/30", refund_policy="none"),
        )
        roster.withdraw(session, actor=actor, entry_id=seven.entries["A7"])

    with Session(engine) as session:
        a6 = session.exec(select(MoneyItem).where(MoneyItem.entry_id == seven.entries["A6"])).one()
        sheet = cm.payout_sheet(session, seven.event_id)
    # A6 had €20.00 back the way it was paid; A7's €20.00 stays in the fund.
    assert (a6.refunded, a6.method, a6.cancelled) == (2000, "transfer", True)
    assert _items(engine, seven.entries["A7"]) == [("entry", 2000, 0, 0)]
    assert sheet.flights[0].funds[0].taken_minor == 2000


def test_a_player_reinstated_after_a_refund_owes_the_fee_again_and_can_pay_it(
    engine: Engine, seven: BuiltEvent
) -> None:
    actor, a6 = seven.director.actor, seven.entries["A6"]
    _pay_entry(engine, seven, "A6", "transfer")
    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=a6)
    assert _items(engine, a6) == [("entry", 2000, 2000, 0)]

    with transaction(engine) as session:
        roster.reinstate(session, actor=actor, entry_id=a6)
    # Owed again from nothing: €20.00 due, nothing paid; the fund took nothing from A6.
    with Session(engine) as session:
        row = session.exec(select(MoneyItem).where(MoneyItem.entry_id == a6)).one()
        kept = session.exec(
            select(AuditEntry).where(AuditEntry.action == "money.due_again")
        ).one()
        taken = cm.payout_sheet(session, seven.event_id).flights[0].funds[0].taken_minor
    assert (row.amount, row.paid, row.refunded, row.cancelled) == (2000, 0, 0, False)
    assert taken == 0
    assert kept.before is not None and '"refunded": 2000' in str(kept.before).replace("'", '"')

    _pay_entry(engine, seven, "A6", "cash")
    with Session(engine) as session:
        taken = cm.payout_sheet(session, seven.event_id).flights[0].funds[0].taken_minor
    assert _items(engine, a6) == [("entry", 2000, 0, 0)]
    assert taken == 2000


def test_withdrawing_after_the_draw_refunds_nothing_by_itself(
    engine: Engine, seven: BuiltEvent
) -> None:
    _pay_entry(engine, seven, "A6")
    _draw(engine, seven)

    actor, a6 = seven.director.actor, seven.entries["A6"]
    with transaction(engine) as session:
        roster.withdraw(session, actor=actor, entry_id=a6)

    assert _items(engine, a6) == [("entry", 2000, 0, 0)]
    with pytest.raises(StoreUserError, match="Nothing to refund"), transaction(engine) as session:
        cm.refund_entry(session, actor=actor, entry_id=a6, method="cash")
    # By hand, drawn flights too: the €20.00 goes back and leaves Main's fund.
    with transaction(engine) as session:
        cm.refund_entry(session, actor=actor, entry_id=a6, method="cash", include_drawn=True)
        taken = cm.payout_sheet(session, seven.event_id).flights[0].funds[0].taken_minor
    assert (_items(engine, a6), taken) == ([("entry", 2000, 2000, 0)], 0)


def test_an_unknown_refund_policy_is_refused(engine: Engine, seven: BuiltEvent) -> None:
    with pytest.raises(StoreUserError) as raised, transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=seven.director.actor,
            flight_id=seven.flights["Main"],
            fields=cm.MoneyFields(entry_fee=2000, refund_policy="half"),
        )

    assert raised.value.field == "refund_policy"
