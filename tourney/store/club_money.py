"""Club money of an event: each flight's fees, side pools and payout table, the ledger of
what each entry paid and was refunded, and the payouts from the flights' final places
(DESIGN §8; the arithmetic is :mod:`tourney.formats.prizes`).

Terminology:
    item        one fee of one entry (:class:`~tourney.store.tables.MoneyItem`): the entry
                fee of a flight, a side pool, a buy-back. An entry fee is due from every
                active entry of the event for each flight that is not fed from another;
                its row is made when it is first paid or refunded.
    owed        what an item still asks for: its amount, less what was paid, unless the
                player withdrew (then nothing more is due).
    taken       what was paid into a fund less what was refunded from it; a flight's fund
                holds its entry fees and buy-backs, each side pool is a fund of its own.
    field       the players a payout table looks at: those who paid into the fund.
    reversed    a payment marked by mistake and taken back: the fee is owed again, and
                the item keeps the amount and when (the ledger never deletes).
    refund policy  what a withdrawal gives back of a flight's fees by itself
                (``REFUND_POLICIES``): all that was paid while the flight is not drawn,
                or nothing; after the draw only the director refunds, by hand.

Payouts are shared out only from money taken: an unpaid fee is still owed, and the
payout page says how much is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session, col, select

from tourney.formats import prizes
from tourney.formats.errors import FormatUserError
from tourney.rules.messages import N_, Message, message_of
from tourney.store import draws
from tourney.store import tournament_views as tv
from tourney.store.audit import Actor, record, snapshot
from tourney.store.documents import SettlementDocument, SheetTable
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.events import slugify
from tourney.store.paging import Page, page_of
from tourney.store.permissions import require_event
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Flight,
    FlightMoney,
    FlightStatus,
    MoneyItem,
    Player,
)
from tourney.store.types import utcnow

KINDS = {"entry": N_("Entry fee"), "pool": N_("Side pool"), "buyback": N_("Buy-back")}
"""Each kind of item, with how the ledger names it."""
METHODS = {"cash": N_("Cash"), "transfer": N_("Bank transfer"), "other": N_("Other")}
"""How a payment or refund is made, with how the ledger names it."""
REFUND_POLICIES = {
    "before_draw": N_("Full refund when a player withdraws before the draw"),
    "none": N_("No refund by itself (the director may refund by hand)"),
}
"""What a withdrawal refunds of a flight's fees, with how the settings name it."""
MAX_POOLS = 8
MAX_FACTOR = 1000


def fee_label(kind: str, pool: str = "") -> str:
    """How the ledger names a fee (``kind`` one of ``KINDS``): "Entry fee", "Buy-back",
    or a side pool with its name, "Side pool Pool A"."""
    if kind == "pool" and pool:
        return Message("Side pool %(pool)s", pool=pool)
    return KINDS[kind]


def fee_taken_text(kind: str, *, paid: bool) -> str:
    """What the ledger says once a fee is marked paid or charged (``kind`` one of
    ``KINDS``); a buy-back also seats the player in the flight's draw. One sentence a
    case: each language words the fees its own way."""
    if kind == "entry":
        return Message("Entry fee paid.") if paid else Message("Entry fee charged.")
    if kind == "pool":
        return Message("Side pool paid.") if paid else Message("Side pool charged.")
    if paid:
        return Message("Buy-back paid. The player is in its draw.")
    return Message("Buy-back charged. The player is in its draw.")


@dataclass(frozen=True)
class SidePoolFields:
    """One side pool as a director sets it."""

    name: str
    fee: int
    payout_table: str


@dataclass(frozen=True)
class MoneyFields:
    """A flight's money settings as a director sets them (amounts in minor units)."""

    currency: str = "EUR"
    entry_fee: int = 0
    buyback_fee: int = 0
    retention_percent: int = 0
    sponsor: int = 0
    payout_table: str = "100"
    side_pools: tuple[SidePoolFields, ...] = ()
    hide_amounts: bool = False
    points_factor: int | None = None
    points_table: str = ""
    refund_policy: str = "before_draw"


def _flight(session: Session, actor: Actor, flight_id: int, *, manage: bool) -> Flight:
    flight = session.get(Flight, flight_id)
    if flight is None:
        raise NotFoundError(Message("No such flight."))
    require_event(session, actor, flight.event_id, manage=manage)
    return flight


def _user_error(error: FormatUserError, field: str | None = None) -> StoreUserError:
    return StoreUserError(message_of(error), field=field)


def set_flight_money(
    session: Session, *, actor: Actor, flight_id: int, fields: MoneyFields
) -> FlightMoney:
    """Set a flight's fees, side pools, retention, sponsor, payout and points tables.

    Raises:
        NotFoundError, AccessDeniedError: no such flight, or not the actor's event.
        StoreUserError: a setting that cannot be; the message and ``field`` say which.
    """
    flight = _flight(session, actor, flight_id, manage=True)
    try:
        currency = prizes.find_currency(fields.currency).code
    except FormatUserError as error:
        raise _user_error(error, "currency") from None
    for name in ("entry_fee", "buyback_fee", "sponsor"):
        value = getattr(fields, name)
        if not 0 <= value <= prizes.MAX_AMOUNT:
            raise StoreUserError(Message("Amounts cannot be negative or too large."), field=name)
    if fields.refund_policy not in REFUND_POLICIES:
        raise StoreUserError(
            Message("Choose a refund policy: %(policies)s.", policies=", ".join(REFUND_POLICIES)),
            field="refund_policy",
        )
    if not 0 <= fields.retention_percent <= 100:
        raise StoreUserError(
            Message("House retention is a percentage from 0 to 100."), field="retention_percent"
        )
    if flight.feeds_from_id is not None and fields.entry_fee:
        raise StoreUserError(
            Message(
                "Players enter a consolation or last chance from another flight: give it a "
                "buy-back fee instead of an entry fee."
            ),
            field="entry_fee",
        )
    try:
        table = prizes.parse_payout_table(fields.payout_table)
    except FormatUserError as error:
        raise _user_error(error, "payout_table") from None
    pools: list[dict[str, Any]] = []
    if len(fields.side_pools) > MAX_POOLS:
        raise StoreUserError(
            Message("A flight has at most %(most)s side pools.", most=MAX_POOLS),
            field="side_pools",
        )
    for pool in fields.side_pools:
        name = pool.name.strip()
        if not name or len(name) > 60:
            raise StoreUserError(
                Message("Every side pool needs a name of 1 to 60 characters."),
                field="side_pools",
            )
        if any(p["name"].casefold() == name.casefold() for p in pools):
            raise StoreUserError(
                Message("There are two side pools called %(pool)s.", pool=repr(name)),
                field="side_pools",
            )
        if not 0 < pool.fee <= prizes.MAX_AMOUNT:
            raise StoreUserError(
                Message("Side pool %(pool)s needs a fee above 0.", pool=repr(name)),
                field="side_pools",
            )
        try:
            pool_table = prizes.parse_payout_table(pool.payout_table)
        except FormatUserError as error:
            raise StoreUserError(
                Message(
                    "Side pool %(pool)s: %(problem)s", pool=repr(name), problem=message_of(error)
                ),
                field="side_pools",
            ) from None
        pools.append({"name": name, "fee": pool.fee, "payout_table": pool_table.to_json()})
    points_table: list[int] = []
    if fields.points_factor is not None:
        if not 0 < fields.points_factor <= MAX_FACTOR:
            raise StoreUserError(
                Message("The points factor is a percentage from 1 to %(most)s.", most=MAX_FACTOR),
                field="points_factor",
            )
        try:
            points_table = list(prizes.parse_payout_table(fields.points_table).rows[0].percents)
        except FormatUserError as error:
            raise StoreUserError(
                Message("Points table: %(problem)s", problem=message_of(error)),
                field="points_table",
            ) from None
    bought = set(
        session.exec(
            select(MoneyItem.pool).where(MoneyItem.flight_id == flight_id, MoneyItem.kind == "pool")
        ).all()
    )
    if gone := sorted(bought - {p["name"] for p in pools}):
        raise StoreUserError(
            Message(
                "Players have bought into side pool %(pool)s: it stays (its fee and "
                "payout table may change).",
                pool=repr(gone[0]),
            ),
            field="side_pools",
        )
    row = session.exec(select(FlightMoney).where(FlightMoney.flight_id == flight_id)).first()
    before = snapshot(row)
    if row is None:
        row = FlightMoney(flight_id=flight_id)
    row.currency = currency
    row.entry_fee = fields.entry_fee
    row.buyback_fee = fields.buyback_fee
    row.retention_percent = fields.retention_percent
    row.sponsor = fields.sponsor
    row.payout_table = table.to_json()
    row.side_pools = pools
    row.hide_amounts = fields.hide_amounts
    row.points_factor = fields.points_factor
    row.points_table = points_table
    row.refund_policy = fields.refund_policy
    session.add(row)
    session.flush()
    record(
        session,
        actor=actor,
        action="money.settings",
        entity_type="flight",
        entity_id=flight_id,
        event_id=flight.event_id,
        before=before,
        after=snapshot(row),
    )
    return row


def money_fields(session: Session, actor: Actor, flight_id: int) -> MoneyFields:
    """A flight's money settings as its form shows them (defaults when none are set)."""
    _flight(session, actor, flight_id, manage=True)
    row = session.exec(select(FlightMoney).where(FlightMoney.flight_id == flight_id)).first()
    return _fields_of(row) if row is not None else MoneyFields()


def _fields_of(row: FlightMoney) -> MoneyFields:
    return MoneyFields(
        currency=row.currency,
        entry_fee=row.entry_fee,
        buyback_fee=row.buyback_fee,
        retention_percent=row.retention_percent,
        sponsor=row.sponsor,
        payout_table=prizes.PayoutTable.from_json(row.payout_table).format(),
        side_pools=tuple(
            SidePoolFields(
                p["name"], p["fee"], prizes.PayoutTable.from_json(p["payout_table"]).format()
            )
            for p in row.side_pools
        ),
        hide_amounts=row.hide_amounts,
        points_factor=row.points_factor,
        points_table="/".join(map(str, row.points_table)),
        refund_policy=row.refund_policy,
    )


def _entry(session: Session, entry_id: int, event_id: int) -> Entry:
    entry = session.get(Entry, entry_id)
    if entry is None or entry.event_id != event_id:
        raise NotFoundError(Message("No such entry in this event."))
    return entry


def _settings(session: Session, flight: Flight) -> FlightMoney:
    row = session.exec(select(FlightMoney).where(FlightMoney.flight_id == flight.id)).first()
    if row is None:
        raise StoreUserError(Message("%(flight)s has no fees set.", flight=flight.name))
    return row


def _fee(settings: FlightMoney, flight: Flight, kind: str, pool: str) -> int:
    if kind == "entry":
        if flight.feeds_from_id is not None or not settings.entry_fee:
            raise StoreUserError(Message("%(flight)s has no entry fee.", flight=flight.name))
        return settings.entry_fee
    if kind == "buyback":
        if not settings.buyback_fee:
            raise StoreUserError(Message("%(flight)s takes no buy-backs.", flight=flight.name))
        return settings.buyback_fee
    if kind == "pool":
        for p in settings.side_pools:
            if p["name"] == pool:
                return int(p["fee"])
        raise StoreUserError(Message(
            "%(flight)s has no side pool called %(pool)s.", flight=flight.name, pool=repr(pool)
        ))
    raise StoreUserError(Message("Unknown kind of fee %(kind)s.", kind=repr(kind)))


def _method(method: str) -> str:
    if method not in METHODS:
        raise StoreUserError(
            Message("Say how it was paid: %(methods)s.", methods=", ".join(METHODS)),
            field="method",
        )
    return method


def _already_taken(kind: str, flight: str) -> Message:
    """The refusal of a fee taken twice, one sentence a kind (``kind`` is one of
    ``KINDS``): each language words "the entry fee" and "the side pool" its own way."""
    if kind == "entry":
        return Message("Entry fee of %(flight)s is already taken.", flight=flight)
    if kind == "pool":
        return Message("Side pool of %(flight)s is already taken.", flight=flight)
    return Message("Buy-back of %(flight)s is already taken.", flight=flight)


def take_fee(
    session: Session,
    *,
    actor: Actor,
    flight_id: int,
    entry_id: int,
    kind: str,
    pool: str = "",
    method: str | None = None,
    event_id: int | None = None,
) -> MoneyItem:
    """Charge an entry a side pool or a buy-back (``kind``), or mark a fee paid in full:
    ``method`` (cash, transfer, other) marks it paid now, none leaves it owed; ``event_id``,
    when given, is the event the flight must belong to (the page it was taken on).

    A buy-back first seats the player in the flight's draw (``draws.enter_buyback``);
    where it cannot, nothing is charged.

    Raises:
        NotFoundError, AccessDeniedError: no such flight or entry, or not the actor's event.
        StoreUserError: the flight has no such fee, the fee is paid already, the entry
            withdrew, the method is unknown, or the buy-back finds no place (the message
            says why).
    """
    flight = _flight(session, actor, flight_id, manage=True)
    if event_id is not None and flight.event_id != event_id:
        raise NotFoundError(Message("No such flight in this event."))
    entry = _entry(session, entry_id, flight.event_id)
    settings = _settings(session, flight)
    amount = _fee(settings, flight, kind, pool if kind == "pool" else "")
    if method is not None:
        _method(method)
    if entry.status == EntryStatus.WITHDRAWN.value:
        raise StoreUserError(Message("The player has withdrawn: nothing more is due."))
    row = session.exec(
        select(MoneyItem).where(
            MoneyItem.flight_id == flight_id,
            MoneyItem.entry_id == entry_id,
            MoneyItem.kind == kind,
            MoneyItem.pool == (pool if kind == "pool" else ""),
        )
    ).first()
    before = snapshot(row)
    placed = ""
    if row is None:
        if kind == "buyback":
            # The buy-back buys a place: without one, no fee is taken.
            placed = draws.enter_buyback(
                session, actor=actor, flight_id=flight_id, entry_id=entry_id
            )
        row = MoneyItem(
            event_id=flight.event_id,
            flight_id=flight_id,
            entry_id=entry_id,
            kind=kind,
            pool=pool if kind == "pool" else "",
            amount=amount,
        )
    elif row.cancelled or row.refunded:
        raise StoreUserError(Message("That fee was refunded; it cannot be taken again."))
    elif method is None or row.paid >= row.amount:
        raise StoreUserError(_already_taken(kind, flight.name))
    if method is not None:
        row.paid, row.paid_at, row.method = row.amount, utcnow(), method
    session.add(row)
    session.flush()
    record(
        session,
        actor=actor,
        action="money.pay" if method is not None else "money.charge",
        entity_type="money_item",
        entity_id=row.id,
        event_id=flight.event_id,
        before=before,
        after={**(snapshot(row) or {}), **({"placed": placed} if placed else {})},
    )
    return row


def undo_payment(
    session: Session, *, actor: Actor, item_id: int, event_id: int | None = None
) -> MoneyItem:
    """Take back a payment marked by mistake: the fee is owed again, and the ledger keeps
    the reversed amount and when it was reversed (nothing is deleted).

    Raises:
        NotFoundError, AccessDeniedError: no such item, or not the actor's event.
        StoreUserError: nothing is paid on it, or it was refunded (the money went back).
    """
    item = session.get(MoneyItem, item_id)
    if item is None or (event_id is not None and item.event_id != event_id):
        raise NotFoundError(Message("No such fee in this event."))
    require_event(session, actor, item.event_id, manage=True)
    if item.refunded or item.cancelled:
        raise StoreUserError(
            Message("That fee was refunded: its payment cannot be taken back.")
        )
    if not item.paid:
        raise StoreUserError(
            Message("Nothing is paid on that fee: there is no payment to take back.")
        )
    before = snapshot(item)
    item.reversed += item.paid
    item.reversed_at = utcnow()
    item.paid, item.paid_at, item.method = 0, None, ""
    session.add(item)
    session.flush()
    record(
        session,
        actor=actor,
        action="money.unpay",
        entity_type="money_item",
        entity_id=item.id,
        event_id=item.event_id,
        before=before,
        after=snapshot(item),
    )
    return item


def refund_entry(
    session: Session,
    *,
    actor: Actor,
    entry_id: int,
    method: str,
    event_id: int | None = None,
    include_drawn: bool = False,
) -> tuple[MoneyItem, ...]:
    """Refund a withdrawn entry everything it paid into flights not drawn yet, and cancel
    what it still owed there; money paid into a drawn flight stays in its fund unless
    ``include_drawn`` (the director's choice: the prize fund shrinks by it).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: the player has not withdrawn, or there is nothing to refund.
    """
    entry = session.get(Entry, entry_id)
    if entry is None or (event_id is not None and entry.event_id != event_id):
        raise NotFoundError(Message("No such entry."))
    require_event(session, actor, entry.event_id, manage=True)
    _method(method)
    if entry.status != EntryStatus.WITHDRAWN.value:
        raise StoreUserError(Message("Only a player who has withdrawn is refunded."))
    changed = _refund_undrawn(
        session, actor, entry, method=method, automatic=False, include_drawn=include_drawn
    )
    if not changed:
        raise StoreUserError(
            Message("Nothing to refund: every fee is in a flight already drawn.")
        )
    return changed


def refund_on_withdrawal(session: Session, *, actor: Actor, entry: Entry) -> tuple[MoneyItem, ...]:
    """Refund what a player who has just withdrawn paid into each flight not drawn yet
    whose refund policy says so, each by the way it was paid, and cancel what they still
    owed there. Called by the withdrawal use case in its transaction; a flight already
    drawn keeps its money (the director can still refund by hand)."""
    return _refund_undrawn(session, actor, entry, method=None, automatic=True, include_drawn=False)


def _refund_undrawn(
    session: Session,
    actor: Actor,
    entry: Entry,
    *,
    method: str | None,
    automatic: bool,
    include_drawn: bool,
) -> tuple[MoneyItem, ...]:
    """Refund and cancel the entry's fees of flights not drawn yet (``automatic``: only
    flights whose policy refunds on withdrawal; ``include_drawn``: what it paid into drawn
    flights too); ``method`` none refunds each payment the way it was made."""
    entry_id = entry.id or 0
    flights = {
        f.id: f for f in session.exec(select(Flight).where(Flight.event_id == entry.event_id))
    }
    settings = {
        m.flight_id: m
        for m in session.exec(
            select(FlightMoney).where(col(FlightMoney.flight_id).in_(list(flights)))
        )
    }
    items = {
        (i.flight_id, i.kind, i.pool): i
        for i in session.exec(select(MoneyItem).where(MoneyItem.entry_id == entry_id))
    }
    # The entry fees no row holds yet are due too: they are cancelled with a row.
    for flight_id, money in settings.items():
        flight = flights[flight_id]
        if (
            money.entry_fee
            and flight.feeds_from_id is None
            and ((flight_id, "entry", "") not in items)
        ):
            items[(flight_id, "entry", "")] = MoneyItem(
                event_id=entry.event_id,
                flight_id=flight_id,
                entry_id=entry_id,
                kind="entry",
                amount=money.entry_fee,
            )
    now = utcnow()
    changed: list[MoneyItem] = []
    for item in items.values():
        drawn = flights[item.flight_id].status != FlightStatus.SETUP.value
        if item.cancelled or (drawn and not (include_drawn and item.paid)):
            continue
        policy = settings.get(item.flight_id)
        if automatic and (policy is None or policy.refund_policy != "before_draw"):
            continue
        before = snapshot(item)
        item.cancelled = True
        if item.paid:
            item.refunded, item.refunded_at = item.paid, now
            item.method = method or item.method
        session.add(item)
        session.flush()
        record(
            session,
            actor=actor,
            action="money.refund",
            entity_type="money_item",
            entity_id=item.id,
            event_id=entry.event_id,
            before=before,
            after={**(snapshot(item) or {}), "on_withdrawal": automatic},
        )
        changed.append(item)
    return tuple(changed)


def fees_due_again(session: Session, *, actor: Actor, entry: Entry) -> tuple[MoneyItem, ...]:
    """A reinstated player owes again the fees that their withdrawal cancelled in flights
    not drawn yet: each such row starts afresh (nothing paid, nothing refunded), so the
    director can take the fee again. The refund stays in the audit log, as the row was
    before this change; the money taken is unchanged (it was paid and refunded)."""
    flights = {
        f.id: f for f in session.exec(select(Flight).where(Flight.event_id == entry.event_id))
    }
    reopened: list[MoneyItem] = []
    for item in session.exec(select(MoneyItem).where(MoneyItem.entry_id == (entry.id or 0))):
        flight = flights.get(item.flight_id)
        if not item.cancelled or flight is None or flight.status != FlightStatus.SETUP.value:
            continue
        before = snapshot(item)
        item.cancelled = False
        item.paid, item.paid_at, item.refunded, item.refunded_at = 0, None, 0, None
        item.reversed, item.reversed_at, item.method = 0, None, ""
        session.add(item)
        session.flush()
        record(
            session,
            actor=actor,
            action="money.due_again",
            entity_type="money_item",
            entity_id=item.id,
            event_id=entry.event_id,
            before=before,
            after={**(snapshot(item) or {}), "on_reinstatement": True},
        )
        reopened.append(item)
    return tuple(reopened)


def withdrawal_refunds(session: Session, entry_id: int) -> tuple[str, ...]:
    """What withdrawing the (active) entry now would do with the fees it paid, one
    sentence per flight it paid into, for the confirmation page."""
    entry = session.get(Entry, entry_id)
    if entry is None or entry.status != EntryStatus.ACTIVE.value:
        return ()
    flights, settings = _money_rows(session, entry.event_id)
    taken: dict[int, int] = {}
    for item in session.exec(select(MoneyItem).where(MoneyItem.entry_id == entry_id)):
        if not item.cancelled:
            taken[item.flight_id] = taken.get(item.flight_id, 0) + item.paid - item.refunded
    lines: list[str] = []
    for flight in flights:
        money = settings[flight.id or 0]
        if not taken.get(flight.id or 0):
            continue
        amount = prizes.format_money(taken[flight.id or 0], money.currency)
        if flight.status != FlightStatus.SETUP.value:
            lines.append(Message(
                "%(flight)s is drawn: the %(amount)s paid stays in its prize fund (the "
                "ledger can still refund it by hand).",
                flight=flight.name,
                amount=amount,
            ))
        elif money.refund_policy == "before_draw":
            lines.append(Message(
                "%(flight)s: the %(amount)s paid goes back to the player, the way it was paid.",
                flight=flight.name,
                amount=amount,
            ))
        else:
            lines.append(Message(
                "%(flight)s: the %(amount)s paid stays (this flight refunds nothing by itself; "
                "the ledger can refund it).",
                flight=flight.name,
                amount=amount,
            ))
    return tuple(lines)


# --- Read models -------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerItem:
    """One fee of a player in the ledger, ready to show."""

    flight_id: int
    flight: str
    kind: str
    pool: str
    label: str
    amount: str
    paid: str
    paid_at: str
    method: str
    refunded: str
    owed: str
    owed_minor: int
    can_pay: bool
    item_id: int = 0
    """The ledger row (0 while an entry fee has none)."""
    reversed: str = ""
    """Payments taken back as marked by mistake, with when: "€20.00 (2026-11-24 21:05 UTC)"."""
    can_undo: bool = False
    """A payment stands that may be taken back."""


@dataclass(frozen=True)
class LedgerLine:
    """A player's line in the ledger."""

    entry_id: int
    name: str
    withdrawn: bool
    items: tuple[LedgerItem, ...]
    owed: str
    owed_minor: int
    can_refund: bool
    can_refund_drawn: bool = False
    """Withdrawn, with money paid into a flight already drawn (a refund by hand only)."""


@dataclass(frozen=True)
class FlightTotals:
    """A flight's money in and out, every amount formatted."""

    flight_id: int
    flight: str
    currency: str
    due: str
    paid: str
    refunded: str
    owed: str


@dataclass(frozen=True)
class Ledger:
    """The event's ledger: a line per entry and totals per flight."""

    event_id: int
    event_name: str
    lines: tuple[LedgerLine, ...]
    totals: tuple[FlightTotals, ...]
    pools: tuple[tuple[int, str, str, str], ...]
    """(flight id, flight name, pool name, fee) for each side pool, to buy into."""
    buybacks: tuple[tuple[int, str, str], ...]
    """(flight id, flight name, fee) for each flight taking buy-backs."""


def _money_rows(session: Session, event_id: int) -> tuple[list[Flight], dict[int, FlightMoney]]:
    flights = list(
        session.exec(
            select(Flight)
            .where(Flight.event_id == event_id)
            .order_by(col(Flight.position), col(Flight.id))
        )
    )
    settings = {
        m.flight_id: m
        for m in session.exec(
            select(FlightMoney).where(col(FlightMoney.flight_id).in_([f.id for f in flights]))
        )
    }
    return [f for f in flights if f.id in settings], settings


def ledger(session: Session, actor: Actor, event_id: int) -> Ledger:
    """Who paid what and when, what was refunded and what is still owed, by entry.

    Three reads whatever the size of the event: its flights and their settings, its
    entries with their players, its items.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    event = require_event(session, actor, event_id, manage=True)
    flights, settings = _money_rows(session, event_id)
    entries = session.exec(
        select(Entry, Player)
        .join(Player, col(Player.id) == Entry.player_id)
        .where(Entry.event_id == event_id)
    ).all()
    by_entry: dict[int, dict[tuple[int, str, str], MoneyItem]] = {}
    for item in session.exec(select(MoneyItem).where(MoneyItem.event_id == event_id)):
        by_entry.setdefault(item.entry_id, {})[(item.flight_id, item.kind, item.pool)] = item
    totals = {f.id or 0: [0, 0, 0, 0] for f in flights}
    undrawn = {f.id for f in flights if f.status == FlightStatus.SETUP.value}
    flight_names = {f.id: f.name for f in flights}
    order = {f.id: n for n, f in enumerate(flights)}
    lines: list[LedgerLine] = []
    for entry, player in sorted(entries, key=lambda r: (r[1].name.casefold(), r[0].id or 0)):
        withdrawn = entry.status == EntryStatus.WITHDRAWN.value
        held = dict(by_entry.get(entry.id or 0, {}))
        for flight in flights:
            money = settings[flight.id or 0]
            key = (flight.id or 0, "entry", "")
            if money.entry_fee and flight.feeds_from_id is None and key not in held:
                held[key] = MoneyItem(
                    event_id=event_id,
                    flight_id=flight.id or 0,
                    entry_id=entry.id or 0,
                    kind="entry",
                    amount=money.entry_fee,
                    cancelled=withdrawn,
                )
        items: list[LedgerItem] = []
        owed_total = 0
        for item in sorted(
            held.values(),
            key=lambda i: (order.get(i.flight_id, 99), list(KINDS).index(i.kind), i.pool),
        ):
            flight_name = flight_names.get(item.flight_id, "?")
            cur = settings[item.flight_id].currency if item.flight_id in settings else "EUR"
            # A player who withdrew owes nothing more (what they paid waits for a refund).
            owed = 0 if item.cancelled or withdrawn else item.amount - item.paid
            owed_total += owed
            sums = totals.setdefault(item.flight_id, [0, 0, 0, 0])
            sums[0] += 0 if item.cancelled else item.amount
            sums[1] += item.paid
            sums[2] += item.refunded
            sums[3] += owed
            items.append(
                LedgerItem(
                    item.flight_id,
                    flight_name,
                    item.kind,
                    item.pool,
                    fee_label(item.kind, item.pool),
                    prizes.format_money(item.amount, cur),
                    prizes.format_money(item.paid, cur) if item.paid else "",
                    item.paid_at.strftime("%Y-%m-%d %H:%M UTC") if item.paid_at else "",
                    METHODS.get(item.method, item.method),
                    prizes.format_money(item.refunded, cur) if item.refunded else "",
                    prizes.format_money(owed, cur) if owed else "",
                    owed,
                    owed > 0 and not withdrawn,
                    item.id or 0,
                    (
                        f"{prizes.format_money(item.reversed, cur)} "
                        f"({item.reversed_at.strftime('%Y-%m-%d %H:%M UTC')})"
                        if item.reversed and item.reversed_at
                        else ""
                    ),
                    bool(item.id and item.paid and not item.refunded and not item.cancelled),
                )
            )
        currency = settings[flights[0].id or 0].currency if flights else "EUR"
        lines.append(
            LedgerLine(
                entry.id or 0,
                player.name,
                withdrawn,
                tuple(items),
                prizes.format_money(owed_total, currency) if owed_total else "",
                owed_total,
                withdrawn
                and any(not i.cancelled and i.flight_id in undrawn for i in held.values()),
                withdrawn
                and any(
                    not i.cancelled and i.paid and i.flight_id not in undrawn
                    for i in held.values()
                ),
            )
        )
    return Ledger(
        event_id,
        event.name,
        tuple(lines),
        tuple(
            FlightTotals(
                f.id or 0,
                f.name,
                settings[f.id or 0].currency,
                *(
                    prizes.format_money(v, settings[f.id or 0].currency)
                    for v in totals.get(f.id or 0, [0, 0, 0, 0])
                ),
            )
            for f in flights
        ),
        tuple(
            (
                f.id or 0,
                f.name,
                p["name"],
                prizes.format_money(p["fee"], settings[f.id or 0].currency),
            )
            for f in flights
            for p in settings[f.id or 0].side_pools
        ),
        tuple(
            (
                f.id or 0,
                f.name,
                prizes.format_money(settings[f.id or 0].buyback_fee, settings[f.id or 0].currency),
            )
            for f in flights
            if settings[f.id or 0].buyback_fee
        ),
    )


@dataclass(frozen=True)
class PayoutLine:
    """One prize on the payout sheet."""

    place: str
    """``1``, ``=3``."""
    name: str
    amount: str
    amount_minor: int
    points: int | None


@dataclass(frozen=True)
class FundView:
    """A fund (a flight's prizes or a side pool) with its arithmetic and payouts."""

    title: str
    structure: str
    """The percentages by place, as the table gives them for this field."""
    taken: str
    retained: str
    sponsor: str
    fund: str
    taken_minor: int
    retained_minor: int
    fund_minor: int
    prizes: tuple[str, ...]
    """The prize of each place, formatted."""
    payouts: tuple[PayoutLine, ...]


@dataclass(frozen=True)
class FlightPayouts:
    """A flight's prize structure and payouts."""

    flight_id: int
    flight: str
    currency: str
    finished: bool
    hide_amounts: bool
    entry_fee: str
    buyback_fee: str
    retention_percent: int
    table: str
    owed: str
    """Fees still owed into this flight's funds (the payouts count only money taken)."""
    refunded_minor: int
    funds: tuple[FundView, ...]


@dataclass(frozen=True)
class PayoutSheet:
    """An event's payouts: every flight with money, for the prize-giving."""

    event_id: int
    event_name: str
    event_finished: bool
    remainder_rule: str
    flights: tuple[FlightPayouts, ...]


def _places(
    session: Session, event_id: int, flight_id: int
) -> tuple[list[tuple[int, int]], dict[int, str], dict[int, str]]:
    """(entry, place) in standings order, each entry's name, and each entry's shown place."""
    board = tv.published_flight_board(session, event_id, flight_id)
    standings = [(row.player.entry_id, row.rank) for row in board.standings]
    names = {row.player.entry_id: row.player.name for row in board.standings}
    shown = {row.player.entry_id: row.display_rank for row in board.standings}
    return standings, names, shown


def payout_sheet(session: Session, event_id: int) -> PayoutSheet:
    """Each flight's prize fund and payouts from its current standings (final once the
    flight is finished), with side pools paid by their members' places.

    Raises:
        NotFoundError: no such event.
    """
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    flights, settings = _money_rows(session, event_id)
    items = list(session.exec(select(MoneyItem).where(MoneyItem.event_id == event_id)))
    withdrawn = set(
        session.exec(
            select(Entry.id).where(
                Entry.event_id == event_id, Entry.status == EntryStatus.WITHDRAWN.value
            )
        )
    )
    active_entries = len(
        session.exec(
            select(Entry.id).where(
                Entry.event_id == event_id, Entry.status != EntryStatus.WITHDRAWN.value
            )
        ).all()
    )
    result: list[FlightPayouts] = []
    for flight in flights:
        money = settings[flight.id or 0]
        cur = money.currency

        def fmt(value: int, cur: str = cur) -> str:
            return prizes.format_money(value, cur)

        mine = [i for i in items if i.flight_id == flight.id]
        standings, names, shown = _places(session, event_id, flight.id or 0)
        funds: list[FundView] = []
        main = [i for i in mine if i.kind in ("entry", "buyback")]
        paid_entries = {i.entry_id for i in main if i.paid - i.refunded > 0}
        table = prizes.PayoutTable.from_json(money.payout_table)
        taken = sum(i.paid - i.refunded for i in main)
        fund = prizes.pay_fund(
            taken=taken,
            retention_percent=money.retention_percent,
            sponsor=money.sponsor,
            table=table,
            field=len(paid_entries),
            standings=standings,
        )
        points: dict[int, int] = {}
        if money.points_factor is not None and money.points_table:
            points = prizes.abt_points(
                unique_players=len(standings),
                factor_percent=money.points_factor,
                table=money.points_table,
                standings=standings,
            )
        funds.append(
            _fund_view(
                Message("%(flight)s prizes", flight=flight.name), fund, fmt, names, shown, points
            )
        )
        for pool in money.side_pools:
            bought = [i for i in mine if i.kind == "pool" and i.pool == pool["name"]]
            members = {i.entry_id for i in bought if i.paid - i.refunded > 0}
            pool_fund = prizes.pay_fund(
                taken=sum(i.paid - i.refunded for i in bought),
                retention_percent=0,
                sponsor=0,
                table=prizes.PayoutTable.from_json(pool["payout_table"]),
                field=len(members),
                standings=prizes.pool_places(standings, members),
            )
            pool_shown = {
                p.player: ("=" if p.tied else "") + str(p.place) for p in pool_fund.payouts
            }
            funds.append(
                _fund_view(
                    Message(
                        "%(flight)s side pool %(pool)s", flight=flight.name, pool=pool["name"]
                    ),
                    pool_fund,
                    fmt,
                    names,
                    pool_shown,
                    {},
                )
            )
        owed = sum(
            i.amount - i.paid for i in mine if not i.cancelled and i.entry_id not in withdrawn
        )
        if money.entry_fee and flight.feeds_from_id is None:
            with_row = {i.entry_id for i in mine if i.kind == "entry"}
            owed += money.entry_fee * (
                active_entries - len({e for e in with_row if e not in withdrawn})
            )
        result.append(
            FlightPayouts(
                flight.id or 0,
                flight.name,
                cur,
                flight.status == FlightStatus.FINISHED.value,
                money.hide_amounts,
                fmt(money.entry_fee) if money.entry_fee else "",
                fmt(money.buyback_fee) if money.buyback_fee else "",
                money.retention_percent,
                table.format(),
                fmt(owed) if owed else "",
                sum(i.refunded for i in mine),
                tuple(funds),
            )
        )
    return PayoutSheet(
        event_id,
        event.name,
        event.status in (EventStatus.FINISHED.value, EventStatus.ARCHIVED.value),
        prizes.REMAINDER_RULE,
        tuple(result),
    )


def _fund_view(
    title: str,
    fund: prizes.FundResult,
    fmt: Callable[[int], str],
    names: dict[int, str],
    shown: dict[int, str],
    points: dict[int, int],
) -> FundView:
    return FundView(
        title,
        "/".join(f"{p}%" for p in fund.percents),
        fmt(fund.taken),
        fmt(fund.retained),
        fmt(fund.sponsor) if fund.sponsor else "",
        fmt(fund.fund),
        fund.taken,
        fund.retained,
        fund.fund,
        tuple(fmt(p) for p in fund.prizes),
        _lines(fund, fmt, names, shown, points),
    )


def _lines(
    fund: prizes.FundResult,
    fmt: Callable[[int], str],
    names: dict[int, str],
    shown: dict[int, str],
    points: dict[int, int],
) -> tuple[PayoutLine, ...]:
    """The prize winners, then those who only score points, each once, by place."""
    lines = [
        PayoutLine(
            shown.get(p.player, str(p.place)),
            names.get(p.player, "?"),
            fmt(p.amount),
            p.amount,
            points.get(p.player),
        )
        for p in fund.payouts
    ]
    paid = {p.player for p in fund.payouts}
    lines.extend(
        PayoutLine(shown.get(player, ""), names.get(player, "?"), "", 0, won)
        for player, won in points.items()
        if player not in paid and won > 0
    )
    return tuple(lines)


def flights_with_money(session: Session, event_id: int) -> Sequence[Flight]:
    """The event's flights that have money settings, in display order."""
    return _money_rows(session, event_id)[0]


def manage_payout_sheet(session: Session, actor: Actor, event_id: int) -> PayoutSheet:
    """The payout sheet for the event's staff (current standings, amounts always shown).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    require_event(session, actor, event_id, manage=True)
    return payout_sheet(session, event_id)


def public_prizes(session: Session, event_id: int) -> PayoutSheet:
    """The prize structure as the public sees it: payouts only once the event is
    finished, and no amounts in a flight whose director hides them."""
    sheet = payout_sheet(session, event_id)
    flights: list[FlightPayouts] = []
    for flight in sheet.flights:
        funds = flight.funds
        if flight.hide_amounts:
            funds = tuple(
                replace(
                    f,
                    taken="",
                    retained="",
                    sponsor="",
                    fund="",
                    taken_minor=0,
                    retained_minor=0,
                    fund_minor=0,
                    prizes=(),
                    payouts=tuple(replace(p, amount="", amount_minor=0) for p in f.payouts),
                )
                for f in funds
            )
        if not sheet.event_finished:
            funds = tuple(replace(f, payouts=()) for f in funds)
        hidden = flight.hide_amounts
        flights.append(
            replace(
                flight,
                funds=funds,
                owed="",
                entry_fee="" if hidden else flight.entry_fee,
                buyback_fee="" if hidden else flight.buyback_fee,
            )
        )
    return PayoutSheet(
        sheet.event_id, sheet.event_name, sheet.event_finished, sheet.remainder_rule, tuple(flights)
    )


def payout_document(session: Session, actor: Actor, event_id: int) -> SettlementDocument:
    """The payout sheet for the prize-giving: each fund's arithmetic and its prizes.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    sheet = manage_payout_sheet(session, actor, event_id)
    lines: list[str] = []
    tables: list[SheetTable] = []
    for flight in sheet.flights:
        lines.append(
            Message("%(flight)s (final).", flight=flight.flight)
            if flight.finished
            else Message(
                "%(flight)s (provisional: the flight is not finished).", flight=flight.flight
            )
        )
        for fund in flight.funds:
            lines.append(_fund_line(fund))
            tables.append(
                SheetTable(
                    fund.title,
                    (
                        N_("Place"),
                        N_("Player"),
                        N_("Prize"),
                        *((N_("Points"),) if _has_points(fund) else ()),
                    ),
                    tuple(
                        (
                            p.place,
                            p.name,
                            p.amount,
                            *(
                                (p.points if p.points is not None else "",)
                                if _has_points(fund)
                                else ()
                            ),
                        )
                        for p in fund.payouts
                    ),
                )
            )
        if flight.owed:
            lines.append(Message(
                "Still owed into %(flight)s: %(owed)s (not in the funds).",
                flight=flight.flight,
                owed=flight.owed,
            ))
    lines.append(sheet.remainder_rule)
    return SettlementDocument(
        f"{_stem(sheet.event_name)}-payouts",
        Message("Payouts · %(event)s", event=sheet.event_name),
        tuple(lines),
        tuple(tables),
    )


def _fund_line(fund: FundView) -> str:
    """A fund's arithmetic in one line of the payout sheet."""
    if fund.sponsor:
        return Message(
            "%(fund)s: taken %(taken)s, house %(house)s, sponsor %(sponsor)s, "
            "prize fund %(prize_fund)s, paid %(structure)s.",
            fund=fund.title,
            taken=fund.taken,
            house=fund.retained,
            sponsor=fund.sponsor,
            prize_fund=fund.fund,
            structure=fund.structure,
        )
    return Message(
        "%(fund)s: taken %(taken)s, house %(house)s, prize fund %(prize_fund)s, "
        "paid %(structure)s.",
        fund=fund.title,
        taken=fund.taken,
        house=fund.retained,
        prize_fund=fund.fund,
        structure=fund.structure,
    )


def _has_points(fund: FundView) -> bool:
    return any(p.points is not None for p in fund.payouts)


def ledger_document(session: Session, actor: Actor, event_id: int) -> SettlementDocument:
    """The ledger as a workbook: every fee of every player, and totals per flight.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    book = ledger(session, actor, event_id)
    fees = SheetTable(
        N_("Fees"),
        (
            N_("Player"),
            N_("Withdrawn"),
            N_("Flight"),
            N_("Fee"),
            N_("Amount"),
            N_("Paid"),
            N_("Paid at"),
            N_("How"),
            N_("Refunded"),
            N_("Reversed"),
            N_("Owed"),
        ),
        tuple(
            (
                line.name,
                N_("yes") if line.withdrawn else "",
                item.flight,
                item.label,
                item.amount,
                item.paid,
                item.paid_at,
                item.method if item.paid else "",
                item.refunded,
                item.reversed,
                item.owed,
            )
            for line in book.lines
            for item in line.items
        ),
    )
    totals = SheetTable(
        N_("Totals"),
        (N_("Flight"), N_("Due"), N_("Paid"), N_("Refunded"), N_("Owed")),
        tuple((t.flight, t.due, t.paid, t.refunded, t.owed) for t in book.totals),
    )
    return SettlementDocument(
        f"{_stem(book.event_name)}-ledger",
        Message("Ledger · %(event)s", event=book.event_name),
        (Message("Amounts as paid, refunded and still owed, by player."),),
        (fees, totals),
    )


def _stem(name: str) -> str:
    return slugify(name) or "event"


def event_flights(session: Session, actor: Actor, event_id: int) -> Sequence[Flight]:
    """Every flight of the event in display order, for the money settings links.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    require_event(session, actor, event_id, manage=True)
    return session.exec(
        select(Flight)
        .where(Flight.event_id == event_id)
        .order_by(col(Flight.position), col(Flight.id))
    ).all()


def _amount_problem(key: str) -> Message:
    """A stored amount out of range; ``key`` is the file's column name, kept as it is."""
    return Message(
        "%(key)s must be an amount from 0 to %(most)s", key=key, most=prizes.MAX_AMOUNT
    )


def stored_settings_problem(row: Mapping[str, Any]) -> str | None:
    """What is wrong with a flight's money settings as stored (an event file's
    ``flight_money`` row), or none: pages read them without checking again."""
    try:
        prizes.find_currency(str(row.get("currency", "")))
        prizes.PayoutTable.from_json(row.get("payout_table"))
        pools = row.get("side_pools") or []
        if not isinstance(pools, list) or len(pools) > MAX_POOLS:
            return Message("side pools must be a list of at most %(most)s", most=MAX_POOLS)
        for pool in pools:
            if not isinstance(pool, dict) or not isinstance(pool.get("name"), str):
                return Message("a side pool needs a name")
            fee = pool.get("fee")
            if not isinstance(fee, int) or not 0 < fee <= prizes.MAX_AMOUNT:
                return Message("side pool %(pool)s needs a fee above 0", pool=repr(pool["name"]))
            prizes.PayoutTable.from_json(pool.get("payout_table"))
        for key in ("entry_fee", "buyback_fee", "sponsor"):
            value = row.get(key)
            if not isinstance(value, int) or not 0 <= value <= prizes.MAX_AMOUNT:
                return _amount_problem(key)
        retention = row.get("retention_percent")
        if not isinstance(retention, int) or not 0 <= retention <= 100:
            return Message("retention_percent must be from 0 to 100")
        points = row.get("points_table") or []
        if not isinstance(points, list) or not all(isinstance(p, int) and p >= 0 for p in points):
            return Message("points_table must be a list of whole percentages")
    except FormatUserError as error:
        return message_of(error)
    return None


def stored_item_problem(row: Mapping[str, Any]) -> str | None:
    """What is wrong with a ledger row as stored (an event file's ``money_items`` row)."""
    if row.get("kind") not in KINDS:
        return Message("unknown kind of fee %(kind)s", kind=repr(row.get("kind")))
    for key in ("amount", "paid", "refunded"):
        value = row.get(key)
        if not isinstance(value, int) or not 0 <= value <= prizes.MAX_AMOUNT:
            return _amount_problem(key)
    if row["refunded"] > row["paid"] or row["paid"] > row["amount"]:
        return Message("a fee cannot be refunded more than was paid, nor paid more than it is")
    return None


def event_points(session: Session, event_id: int) -> dict[int, float]:
    """Each player's points per place (ABT style) in the event, by player id: from the
    first flight, in display order, whose money settings give a points table; every
    player ranked there scores, 0 past the table. Empty when no flight gives points."""
    flights, settings = _money_rows(session, event_id)
    for flight in flights:
        money = settings[flight.id or 0]
        if money.points_factor is None or not money.points_table:
            continue
        standings, _, _ = _places(session, event_id, flight.id or 0)
        won = prizes.abt_points(
            unique_players=len(standings),
            factor_percent=money.points_factor,
            table=money.points_table,
            standings=standings,
        )
        player_of = dict(
            session.exec(select(Entry.id, Entry.player_id).where(Entry.event_id == event_id)).all()
        )
        return {
            player_of[entry]: float(won.get(entry, 0))
            for entry, _ in standings
            if entry in player_of
        }
    return {}


def ledger_page(
    session: Session, actor: Actor, event_id: int, *, number: int = 1, search: str = ""
) -> tuple[Ledger, Page[LedgerLine]]:
    """The ledger and one page of its players (those whose name holds ``search``), so a
    field of thousands is shown a hundred at a time.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's.
    """
    book = ledger(session, actor, event_id)
    needle = search.strip().casefold()
    lines = [line for line in book.lines if needle in line.name.casefold()]
    return book, page_of(lines, number, search.strip())
