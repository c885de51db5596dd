"""Club money pages: the flight's money form refuses bad input on its field (never a
500) and saves nothing; fees are taken from the ledger; the payouts show on the
director's page, on the PDF sheet and, once the event is finished, publicly."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from openpyxl import load_workbook
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import draws, event_lifecycle, results
from tourney.store.db import transaction
from tourney.store.tables import FlightMoney, MoneyItem
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
GOOD = {
    "currency": "EUR",
    "entry_fee": "20",
    "buyback_fee": "0",
    "retention_percent": "10",
    "sponsor": "0",
    "payout_table": "70/30",
    "side_pools": "",
}


def _play_out(engine: Engine, built: BuiltEvent) -> None:
    """Draw the knockout seeded and play it out, the better seed always winning."""
    actor, flight_id = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight_id, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=flight_id)
    while True:
        with Session(engine) as session:
            board = flight_board(session, actor, flight_id)
        ready = [
            m
            for r in board.rounds
            for m in r.matches
            if m.status == "ready" and m.a is not None and m.b is not None
        ]
        if not ready:
            return
        for m in ready:
            assert m.a is not None and m.b is not None
            a_wins = built.entries[m.a.name] < built.entries[m.b.name]
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id,
                    score_a=3 if a_wins else 0,
                    score_b=0 if a_wins else 3,
                )


@pytest.fixture
def event_with_director(client: FlaskClient, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(
        ["Ann", "Ben", "Cid"],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
        is_public=True,
    )
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    return built


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"payout_table": "60/30"}, "Payout table: the percentages add up to 90, not 100."),
        ({"entry_fee": "twenty"}, "is not an amount"),
        ({"entry_fee": "-5"}, "is not an amount"),
        ({"retention_percent": "150"}, "Number must be between 0 and 100."),
        ({"side_pools": "Pool A; 5"}, "Line 1: write a side pool as name, fee, payout table"),
        (
            {"side_pools": "Pool A, 5, 50/60"},
            "Side pool &#39;Pool A&#39;: Payout table: the percentages add up to 110",
        ),
        ({"currency": "XYZ"}, "Not a valid choice"),
    ],
)
def test_flight_money_form_refuses_bad_input_with_a_message(
    client: FlaskClient,
    engine: Engine,
    event_with_director: BuiltEvent,
    change: dict[str, str],
    message: str,
) -> None:
    url = f"/director/flights/{event_with_director.flights['Main']}/money"

    response = client.post(url, data={**GOOD, **change})

    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with Session(engine) as session:
        assert session.exec(select(FlightMoney)).all() == []


def test_fees_taken_then_payouts_shown_printed_and_public_once_finished(
    client: FlaskClient, engine: Engine, event_with_director: BuiltEvent
) -> None:
    built = event_with_director
    main = built.flights["Main"]
    saved = client.post(f"/director/flights/{main}/money", data=GOOD)
    for name in ("Ann", "Ben", "Cid"):
        taken = client.post(
            f"/director/events/{built.event_id}/ledger/take",
            data={"entry_id": built.entries[name], "what": f"{main}|entry|", "method": "cash"},
        )
        assert taken.status_code == 302
    again = client.post(
        f"/director/events/{built.event_id}/ledger/take",
        data={"entry_id": built.entries["Ann"], "what": f"{main}|entry|", "method": "cash"},
    )

    payouts = client.get(f"/director/events/{built.event_id}/payouts").get_data(as_text=True)
    pdf = client.get(f"/director/events/{built.event_id}/payouts.pdf")
    xlsx = client.get(f"/director/events/{built.event_id}/ledger.xlsx")
    _play_out(engine, built)
    public_before = client.get("/events/club-night/prizes").get_data(as_text=True)
    with transaction(engine) as session:
        event_lifecycle.close_event(
            session, actor=built.director.actor, event_id=built.event_id, archive=False
        )
    public_after = client.get("/events/club-night/prizes").get_data(as_text=True)

    assert saved.status_code == 302
    assert again.status_code == 400
    assert "Entry fee of Main is already taken." in again.get_data(as_text=True)
    # 3 × €20.00 = €60.00; 10% house = €6.00; fund €54.00 on 70/30: €37.80 and €16.20.
    assert "prize fund <strong>€54.00</strong>" in payouts
    assert "€37.80" in payouts and "€16.20" in payouts
    assert (pdf.status_code, pdf.mimetype, pdf.data[:5]) == (200, "application/pdf", b"%PDF-")
    sheet = load_workbook(io.BytesIO(xlsx.data))["Fees"]
    assert [c.value for c in sheet[2]][:6] == ["Ann", None, "Main", "Entry fee", "€20.00", "€20.00"]
    assert "Payouts are shown here once the event is finished." in public_before
    assert "<td>Ann</td>" not in public_before
    # Seeded, the better seed winning: Ann 1st, Ben 2nd.
    assert '<td>1</td><td>Ann</td><td class="num">€37.80</td>' in public_after
    assert '<td>2</td><td>Ben</td><td class="num">€16.20</td>' in public_after


def test_hidden_amounts_never_reach_the_public_page(
    client: FlaskClient, engine: Engine, event_with_director: BuiltEvent
) -> None:
    built = event_with_director
    main = built.flights["Main"]
    client.post(f"/director/flights/{main}/money", data={**GOOD, "hide_amounts": "y"})
    client.post(
        f"/director/events/{built.event_id}/ledger/take",
        data={"entry_id": built.entries["Ann"], "what": f"{main}|entry|", "method": "cash"},
    )
    with transaction(engine) as session:
        event_lifecycle.close_event(
            session, actor=built.director.actor, event_id=built.event_id, archive=False
        )

    page = client.get("/events/club-night/prizes").get_data(as_text=True)

    assert "Paid 70%/30%" in page
    assert "€" not in page


def test_the_ledger_shows_a_hundred_players_a_page_and_finds_by_name(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        [f"Player {n:03d}" for n in range(1, 151)],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
    )
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    client.post(f"/director/flights/{built.flights['Main']}/money", data=GOOD)
    url = f"/director/events/{built.event_id}/ledger"

    first = client.get(url).get_data(as_text=True)
    second = client.get(f"{url}?page=2").get_data(as_text=True)
    found = client.get(f"{url}?q=player 14").get_data(as_text=True)
    junk = client.get(f"{url}?page=x&q=" + "z" * 500)

    assert "Players 1–100 of 150." in first and "Player 101" not in first
    assert "Players 101–150 of 150." in second and "Player 100<" not in second
    assert "Players 1–10 of 10." in found  # Player 140 … Player 149
    assert junk.status_code == 200


@pytest.mark.parametrize(
    "data",
    [
        {"entry_id": str(10**30), "what": "1|entry|", "method": "cash"},
        {"entry_id": "1", "what": "1|bribe|", "method": "cash"},
        {"entry_id": "1", "what": "1|entry|", "method": "cheque"},
        {"entry_id": "x", "what": "", "method": ""},
    ],
)
def test_ledger_refuses_forged_fees_with_a_400(
    client: FlaskClient, event_with_director: BuiltEvent, data: dict[str, str]
) -> None:
    response = client.post(
        f"/director/events/{event_with_director.event_id}/ledger/take", data=data
    )

    assert response.status_code == 400


def test_a_payment_taken_back_from_the_ledger_is_owed_again(
    client: FlaskClient, engine: Engine, event_with_director: BuiltEvent
) -> None:
    built = event_with_director
    main = built.flights["Main"]
    client.post(f"/director/flights/{main}/money", data={**GOOD, "refund_policy": "none"})
    client.post(
        f"/director/events/{built.event_id}/ledger/take",
        data={"entry_id": built.entries["Ben"], "what": f"{main}|entry|", "method": "cash"},
    )
    with Session(engine) as session:
        (item,) = session.exec(select(MoneyItem)).all()
        policy = session.exec(select(FlightMoney.refund_policy)).one()
    before = client.get(f"/director/events/{built.event_id}/ledger").get_data(as_text=True)

    undone = client.post(
        f"/director/events/{built.event_id}/ledger/undo",
        data={"item_id": item.id},
        follow_redirects=True,
    )

    page = undone.get_data(as_text=True)
    assert policy == "none"
    assert "Ben: undo the payment of Entry fee" in before
    assert "Payment taken back: the fee is owed again." in page
    assert "Ben: undo the payment of Entry fee" not in page
    # Ann, Ben and Cid each owe €20.00 again: €60.00 outstanding on the payout sheet.
    payouts = client.get(f"/director/events/{built.event_id}/payouts").get_data(as_text=True)
    assert "€60.00" in payouts
    book = load_workbook(
        io.BytesIO(client.get(f"/director/events/{built.event_id}/ledger.xlsx").data)
    )
    fees = book["Fees"]
    header = [c.value for c in fees[1]]
    ben = next(
        dict(zip(header, (c.value for c in row), strict=True))
        for row in fees.iter_rows(min_row=2)
        if row[0].value == "Ben"
    )
    assert (ben["Paid"], ben["Reversed"][:7], ben["Owed"]) == (None, "€20.00 ", "€20.00")
    again = client.post(
        f"/director/events/{built.event_id}/ledger/undo", data={"item_id": item.id}
    )
    assert again.status_code == 400
    assert "no payment to take back" in again.get_data(as_text=True)


def test_a_buy_back_the_consolation_cannot_take_is_refused_and_not_charged(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Ben", "Cid"],
        [
            {"name": "Main", "format": "knockout", "match_length": 3},
            {"name": "Consolation", "format": "knockout", "match_length": 1, "feeds_from": "Main"},
        ],
    )
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    consolation = built.flights["Consolation"]
    client.post(
        f"/director/flights/{consolation}/money",
        data={**GOOD, "entry_fee": "0", "buyback_fee": "10", "payout_table": "100"},
    )

    refused = client.post(
        f"/director/events/{built.event_id}/ledger/take",
        data={
            "entry_id": built.entries["Cid"],
            "what": f"{consolation}|buyback|",
            "method": "cash",
        },
    )

    assert refused.status_code == 400
    assert "nobody is knocked out to buy back" in refused.get_data(as_text=True)
    with Session(engine) as session:
        assert session.exec(select(MoneyItem)).all() == []
        assert session.exec(select(FlightMoney.buyback_fee)).one() == 1000


def test_withdrawal_page_says_the_fee_goes_back_and_the_withdrawal_refunds_it(
    client: FlaskClient, engine: Engine, event_with_director: BuiltEvent
) -> None:
    built = event_with_director
    main, ben = built.flights["Main"], built.entries["Ben"]
    client.post(f"/director/flights/{main}/money", data=GOOD)
    client.post(
        f"/director/events/{built.event_id}/ledger/take",
        data={"entry_id": ben, "what": f"{main}|entry|", "method": "transfer"},
    )

    confirm = client.get(f"/director/entries/{ben}/withdraw").get_data(as_text=True)
    client.post(f"/director/entries/{ben}/withdraw")

    assert "Main: the €20.00 paid goes back to the player, the way it was paid." in confirm
    with Session(engine) as session:
        item = session.exec(select(MoneyItem)).one()
    assert (item.paid, item.refunded, item.method, item.cancelled) == (2000, 2000, "transfer", True)


def test_after_the_draw_the_ledger_refunds_a_withdrawn_player_by_hand(
    client: FlaskClient, engine: Engine, event_with_director: BuiltEvent
) -> None:
    built = event_with_director
    main, ben = built.flights["Main"], built.entries["Ben"]
    client.post(f"/director/flights/{main}/money", data=GOOD)
    client.post(
        f"/director/events/{built.event_id}/ledger/take",
        data={"entry_id": ben, "what": f"{main}|entry|", "method": "cash"},
    )
    with transaction(engine) as session:
        draws.make_draw(session, actor=built.director.actor, flight_id=main, method="seeded")
    client.post(f"/director/entries/{ben}/withdraw")
    ledger = client.get(f"/director/events/{built.event_id}/ledger").get_data(as_text=True)

    refunded = client.post(
        f"/director/events/{built.event_id}/ledger/refund",
        data={"entry_id": ben, "method": "cash", "include_drawn": "y"},
        follow_redirects=True,
    )

    assert "Refund Ben in cash, drawn flights too" in ledger
    assert "1 fees refunded or cancelled." in refunded.get_data(as_text=True)
    with Session(engine) as session:
        item = session.exec(select(MoneyItem)).one()
    assert (item.paid, item.refunded) == (2000, 2000)
