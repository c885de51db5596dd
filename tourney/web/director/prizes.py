"""Club money of an event: each flight's fees, side pools and payout table, the ledger
of who paid what (payments, buy-ins, buy-backs, refunds), and the payout sheet for the
prize-giving as a page, a PDF and the ledger as a spreadsheet."""

from __future__ import annotations

from flask import abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.exports.settlement import render_settlement_pdf, render_settlement_xlsx
from tourney.formats import prizes
from tourney.i18n import translate
from tourney.store import club_money
from tourney.store.club_money import MoneyFields, SidePoolFields
from tourney.store.tables import Flight
from tourney.web.auth import DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp
from tourney.web.downloads import send_rendered
from tourney.web.forms import FlightMoneyForm, MoneyRefundForm, MoneyTakeForm, MoneyUndoForm
from tourney.web.i18n import current_language
from tourney.web.submit import Done, submit_form


def _form_of(fields: MoneyFields) -> FlightMoneyForm:
    cur = fields.currency
    return FlightMoneyForm(
        formdata=None,
        currency=cur,
        entry_fee=_major(fields.entry_fee, cur),
        buyback_fee=_major(fields.buyback_fee, cur),
        retention_percent=fields.retention_percent,
        sponsor=_major(fields.sponsor, cur),
        payout_table=fields.payout_table.replace("; ", "\n"),
        side_pools="\n".join(
            f"{p.name}, {_major(p.fee, cur)}, {p.payout_table}" for p in fields.side_pools
        ),
        hide_amounts=fields.hide_amounts,
        points_factor=fields.points_factor,
        points_table=fields.points_table,
        refund_policy=fields.refund_policy,
    )


def _major(amount: int, currency: str) -> str:
    return prizes.format_money(amount, prizes.Currency(currency, "")).replace(",", "")


@bp.route("/flights/<int:flight_id>/money", methods=["GET", "POST"])
@requires(*DIRECTORS)
def flight_money(flight_id: int) -> ResponseReturnValue:
    """A flight's fees, side pools, retention, sponsor, payout and points tables."""
    with reading() as session:
        fields = club_money.money_fields(session, actor(), flight_id)
        flight = session.get(Flight, flight_id)
        assert flight is not None
        name, event_id = flight.name, flight.event_id
    form = FlightMoneyForm()
    if not form.is_submitted():
        form = _form_of(fields)

    def change(session: Session) -> Done:
        club_money.set_flight_money(
            session,
            actor=actor(),
            flight_id=flight_id,
            fields=MoneyFields(
                currency=form.currency.data or "EUR",
                entry_fee=prizes.parse_money(form.entry_fee.data or "0"),
                buyback_fee=prizes.parse_money(form.buyback_fee.data or "0"),
                retention_percent=form.retention_percent.data or 0,
                sponsor=prizes.parse_money(form.sponsor.data or "0"),
                payout_table=form.payout_table.data or "",
                side_pools=tuple(
                    SidePoolFields(*pool) for pool in form.pool_fields(form.side_pools.data or "")
                ),
                hide_amounts=bool(form.hide_amounts.data),
                points_factor=form.points_factor.data,
                points_table=form.points_table.data or "",
                refund_policy=form.refund_policy.data or "before_draw",
            ),
        )
        return Done(
            gettext("Money of %(name)s saved.", name=name),
            url_for(".event_ledger", event_id=event_id),
        )

    def page() -> str:
        return render_template(
            "director/flight_money.html", form=form, flight_name=name, event_id=event_id
        )

    return submit_form(form, change, page)


def _ledger_page(
    take: MoneyTakeForm | None = None,
    refund: MoneyRefundForm | None = None,
    undo: MoneyUndoForm | None = None,
    *,
    event_id: int,
) -> str:
    number = request.args.get("page", "1")
    search = request.args.get("q", "")[:120]
    with reading() as session:
        book, rows = club_money.ledger_page(
            session,
            actor(),
            event_id,
            number=int(number) if number.isdigit() and len(number) < 7 else 1,
            search=search,
        )
        every = [(f.id, f.name) for f in club_money.event_flights(session, actor(), event_id)]
    return render_template(
        "director/ledger.html",
        book=book,
        rows=rows,
        page_link=lambda page: url_for(
            ".event_ledger", event_id=event_id, page=page, q=rows.search or None
        ),
        every_flight=every,
        take=take or MoneyTakeForm(formdata=None),
        refund=refund or MoneyRefundForm(formdata=None),
        undo=undo or MoneyUndoForm(formdata=None),
    )


@bp.get("/events/<int:event_id>/ledger")
@requires(*DIRECTORS)
def event_ledger(event_id: int) -> ResponseReturnValue:
    """The ledger: every player's fees, what they paid and when, refunds, what is owed."""
    return _ledger_page(event_id=event_id)


@bp.post("/events/<int:event_id>/ledger/take")
@requires(*DIRECTORS)
def ledger_take(event_id: int) -> ResponseReturnValue:
    """Mark a fee paid, or charge a side pool or a buy-back."""
    form = MoneyTakeForm()

    def change(session: Session) -> Done:
        flight_id, kind, pool = form.fee()
        item = club_money.take_fee(
            session,
            actor=actor(),
            flight_id=flight_id,
            entry_id=form.entry_id.data or 0,
            kind=kind,
            pool=pool,
            method=form.method.data or None,
            event_id=event_id,
        )
        said = club_money.fee_taken_text(item.kind, paid=bool(item.paid))
        return Done(
            translate(said, current_language()), url_for(".event_ledger", event_id=event_id)
        )

    return submit_form(form, change, lambda: _ledger_page(take=form, event_id=event_id))


@bp.post("/events/<int:event_id>/ledger/undo")
@requires(*DIRECTORS)
def ledger_undo(event_id: int) -> ResponseReturnValue:
    """Take back a payment marked by mistake (the ledger keeps it as reversed)."""
    form = MoneyUndoForm()

    def change(session: Session) -> Done:
        club_money.undo_payment(
            session, actor=actor(), item_id=form.item_id.data or 0, event_id=event_id
        )
        return Done(
            gettext("Payment taken back: the fee is owed again."),
            url_for(".event_ledger", event_id=event_id),
        )

    return submit_form(form, change, lambda: _ledger_page(undo=form, event_id=event_id))


@bp.post("/events/<int:event_id>/ledger/refund")
@requires(*DIRECTORS)
def ledger_refund(event_id: int) -> ResponseReturnValue:
    """Refund a withdrawn player what they paid into flights not drawn yet."""
    form = MoneyRefundForm()

    def change(session: Session) -> Done:
        items = club_money.refund_entry(
            session,
            actor=actor(),
            entry_id=form.entry_id.data or 0,
            method=form.method.data or "",
            event_id=event_id,
            include_drawn=bool(form.include_drawn.data),
        )
        return Done(
            gettext("%(count)s fees refunded or cancelled.", count=len(items)),
            url_for(".event_ledger", event_id=event_id),
        )

    return submit_form(form, change, lambda: _ledger_page(refund=form, event_id=event_id))


@bp.get("/events/<int:event_id>/payouts")
@requires(*DIRECTORS)
def event_payouts(event_id: int) -> ResponseReturnValue:
    """The payout sheet: each fund's arithmetic and prizes from the current standings."""
    with reading() as session:
        sheet = club_money.manage_payout_sheet(session, actor(), event_id)
    return render_template("director/payouts.html", sheet=sheet)


@bp.get("/events/<int:event_id>/payouts.pdf")
@requires(*DIRECTORS)
def event_payouts_pdf(event_id: int) -> ResponseReturnValue:
    """The payout sheet, printed for the prize-giving."""
    with reading() as session:
        document = club_money.payout_document(session, actor(), event_id)
    return send_rendered(render_settlement_pdf(document, language=current_language()))


@bp.get("/events/<int:event_id>/ledger.<extension>")
@requires(*DIRECTORS)
def event_ledger_file(event_id: int, extension: str) -> ResponseReturnValue:
    """The ledger as a spreadsheet (values only, never formulas)."""
    if extension != "xlsx":
        abort(404)
    with reading() as session:
        document = club_money.ledger_document(session, actor(), event_id)
    return send_rendered(render_settlement_xlsx(document, language=current_language()))
