"""Event JSON carries club money: a flight's fees, side pools and payout table, and the
ledger of fees paid and refunded; export, import elsewhere, export again is identical,
and the imported event pays out the same."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
from event_json_builders import exported
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.exports.event_json import parse_event_json
from tourney.store import club_money as cm
from tourney.store import roster, schema
from tourney.store.db import make_engine, transaction
from tourney.store.errors import EventImportError
from tourney.store.event_json import import_event
from tourney.store.tables import Event

if TYPE_CHECKING:
    from conftest import BuiltEvent


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    """A second, migrated and empty database of the same backend."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def test_event_json_round_trip_keeps_money_settings_and_ledger(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Ben", "Cid"], [{"name": "Main", "format": "knockout", "match_length": 3}]
    )
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=main,
            fields=cm.MoneyFields(
                currency="NOK",
                entry_fee=20000,
                retention_percent=5,
                sponsor=10000,
                payout_table="1+: 100\n3+: 70/30",
                side_pools=(cm.SidePoolFields("Pool", 5000, "100"),),
                hide_amounts=True,
                points_factor=100,
                points_table="60/40",
            ),
        )
        for name in ("Ann", "Ben", "Cid"):
            cm.take_fee(
                session,
                actor=actor,
                flight_id=main,
                entry_id=built.entries[name],
                kind="entry",
                method="transfer",
            )
        cm.take_fee(
            session,
            actor=actor,
            flight_id=main,
            entry_id=built.entries["Ann"],
            kind="pool",
            pool="Pool",
            method="cash",
        )
        # Refunded as they withdraw (the flight's default policy before the draw).
        roster.withdraw(session, actor=actor, entry_id=built.entries["Cid"])
    first = exported(engine, built.event_id)

    with transaction(target) as session:
        new_id = import_event(session, parse_event_json(first)).event_id

    assert exported(target, "club-night") == first
    tables = json.loads(first)["tables"]
    assert [(m["currency"], m["entry_fee"], m["hide_amounts"]) for m in tables["flight_money"]] == [
        ("NOK", 20000, True)
    ]
    assert sorted((i["kind"], i["paid"], i["refunded"]) for i in tables["money_items"]) == [
        ("entry", 20000, 0),
        ("entry", 20000, 0),
        ("entry", 20000, 20000),
        ("pool", 5000, 0),
    ]
    with Session(engine) as session:
        before = cm.payout_sheet(session, built.event_id).flights[0].funds[0]
    with Session(target) as session:
        after = cm.payout_sheet(session, new_id).flights[0].funds[0]
        assert session.exec(select(Event.slug)).all() == ["club-night"]
    # 2 × 200.00 kr taken, 5% house = 20.00 kr, plus 100.00 kr sponsor: 480.00 kr.
    assert (before.fund, after.fund) == ("480.00 kr", "480.00 kr")


@pytest.mark.parametrize(
    ("table", "change", "message"),
    [
        ("flight_money", {"payout_table": [[1, [60, 30]]]}, "add up to 90, not 100"),
        ("flight_money", {"currency": "XXX"}, "Unknown currency"),
        ("flight_money", {"retention_percent": 300}, "retention_percent must be from 0 to 100"),
        ("money_items", {"refunded": 99999}, "cannot be refunded more than was paid"),
        ("money_items", {"kind": "bribe"}, "unknown kind of fee"),
    ],
)
def test_event_json_bad_money_rows_are_refused_by_name(
    engine: Engine,
    target: Engine,
    build_event: Callable[..., BuiltEvent],
    table: str,
    change: dict[str, object],
    message: str,
) -> None:
    built = build_event(["Ann", "Ben"], [{"name": "Main", "format": "knockout", "match_length": 3}])
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        cm.set_flight_money(
            session,
            actor=actor,
            flight_id=main,
            fields=cm.MoneyFields(entry_fee=1000, payout_table="100"),
        )
        cm.take_fee(
            session,
            actor=actor,
            flight_id=main,
            entry_id=built.entries["Ann"],
            kind="entry",
            method="cash",
        )
    document = json.loads(exported(engine, built.event_id))
    document["tables"][table][0].update(change)

    with pytest.raises(EventImportError) as raised, transaction(target) as session:
        import_event(session, parse_event_json(json.dumps(document).encode()))

    assert f"tables.{table}[0].row" in str(raised.value)
    assert message in str(raised.value)
