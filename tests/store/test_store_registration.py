"""Online registration: confirmation by mail, capacity and the waiting list in order,
promotion when a registered player withdraws, approval, and the closing time."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import registration, roster, selfservice
from tourney.store.db import transaction
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.selfservice import LinkMaker
from tourney.store.selfservice_tables import OutboxMail
from tourney.store.tables import Entry, Event, Player
from tourney.store.types import utcnow

if TYPE_CHECKING:
    from conftest import BuiltEvent

LINKS = LinkMaker("test-secret", "http://club.example/")


def open_event(
    engine: Engine, build_event: Callable[..., BuiltEvent], *, capacity: int | None = None,
    approval: bool = False, closes_in: timedelta | None = None, name: str = "Open Cup",
) -> tuple[BuiltEvent, str]:
    built = build_event([], [], name=name)
    with transaction(engine) as session:
        registration.set_registration(
            session, actor=built.director.actor, event_id=built.event_id, is_open=True,
            capacity=capacity, needs_approval=approval,
            closes_at=None if closes_in is None else utcnow() + closes_in,
        )
        event = session.get(Event, built.event_id)
        assert event is not None
        return built, event.slug


def sign_up(engine: Engine, slug: str, name: str) -> str:
    """Register ``name`` and follow the mailed confirmation link; returns the status."""
    email = name.lower() + "@example.org"
    with transaction(engine) as session:
        registration.register(session, slug=slug, name=name, club="Fjordside BG",
                              email=email, rating_id="", links=LINKS)
    with Session(engine) as session:
        body = session.exec(
            select(OutboxMail.body).where(OutboxMail.recipient == email,
                                          OutboxMail.kind == "registration_confirm")
        ).one()
    token = re.search(r"/register/confirm/(\S+)", body).group(1)  # type: ignore[union-attr]
    with transaction(engine) as session:
        return registration.confirm_registration(session, slug=slug, token=token, links=LINKS)


def statuses(engine: Engine, built: BuiltEvent) -> list[tuple[str, str, int | None]]:
    with Session(engine) as session:
        return [(r.name, r.status, r.position) for r in registration.registrations(
            session, built.director.actor, built.event_id)]


def entered(engine: Engine, event_id: int) -> list[str]:
    with Session(engine) as session:
        return sorted(session.exec(
            select(Player.name).join(Entry, col(Entry.player_id) == Player.id).where(
                Entry.event_id == event_id, Entry.status == "active")
        ).all())


def test_a_full_event_puts_the_next_on_the_waiting_list_in_order(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, slug = open_event(engine, build_event, capacity=2)

    said = [sign_up(engine, slug, name) for name in ("Ann", "Bob", "Cat", "Dan")]

    assert said == ["registered", "registered", "waiting", "waiting"]
    assert statuses(engine, built) == [
        ("Ann", "registered", None), ("Bob", "registered", None),
        ("Cat", "waiting", 1), ("Dan", "waiting", 2),
    ]
    assert entered(engine, built.event_id) == ["Ann", "Bob"]


def test_a_withdrawal_moves_the_first_waiting_up_and_mails_their_link(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, slug = open_event(engine, build_event, capacity=2)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        sign_up(engine, slug, name)
    with Session(engine) as session:
        ann_entry = session.exec(
            select(Entry.id).join(Player, col(Player.id) == Entry.player_id).where(
                Player.name == "Ann")
        ).one()
        url = selfservice.link_for_entry(session, LINKS, ann_entry)
        grant = selfservice.open_link(session, LINKS, slug=slug, token=url.rsplit("/", 1)[1])

    with transaction(engine) as session:
        registration.withdraw(session, grant=grant, links=LINKS)

    with Session(engine) as session:
        to_cat = session.exec(
            select(OutboxMail.subject, OutboxMail.body).where(
                OutboxMail.recipient == "cat@example.org",
                OutboxMail.kind == "registration_confirmed")
        ).one()
    assert statuses(engine, built) == [
        ("Ann", "withdrawn", None), ("Bob", "registered", None),
        ("Cat", "registered", None), ("Dan", "waiting", 1),
    ]
    assert entered(engine, built.event_id) == ["Bob", "Cat"]
    assert to_cat[0] == "Open Cup: your registration is confirmed"
    assert "http://club.example/p/" in to_cat[1]


def test_a_director_withdrawing_a_registered_player_moves_the_first_waiting_up(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, slug = open_event(engine, build_event, capacity=2)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        sign_up(engine, slug, name)
    with Session(engine) as session:
        bob_entry = session.exec(
            select(Entry.id).join(Player, col(Player.id) == Entry.player_id).where(
                Player.name == "Bob")
        ).one()

    with transaction(engine) as session:
        roster.withdraw(session, actor=built.director.actor, entry_id=bob_entry)
        registration.after_director_withdrawal(
            session, actor=built.director.actor, entry_id=bob_entry, links=LINKS
        )

    assert statuses(engine, built) == [
        ("Ann", "registered", None), ("Bob", "withdrawn", None),
        ("Cat", "registered", None), ("Dan", "waiting", 1),
    ]
    assert entered(engine, built.event_id) == ["Ann", "Cat"]


def test_approval_places_only_once_the_director_approves(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, slug = open_event(engine, build_event, approval=True)
    assert sign_up(engine, slug, "Ann") == "awaiting_approval"
    assert entered(engine, built.event_id) == []
    with Session(engine) as session:
        (row,) = registration.registrations(session, built.director.actor, built.event_id)
    with transaction(engine) as session:
        status = registration.decide_registration(
            session, actor=built.director.actor, registration_id=row.id, approve=True,
            links=LINKS,
        )
    assert (status, entered(engine, built.event_id)) == ("registered", ["Ann"])


def test_registration_closes_at_its_time(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, slug = open_event(engine, build_event, closes_in=timedelta(hours=-1))
    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        registration.register(session, slug=slug, name="Ann", club="", email="a@example.org",
                              rating_id="", links=LINKS)
    assert refused.value.message.startswith("Registration closed at ")


def test_a_confirmation_link_of_one_event_confirms_nothing_in_another(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, first = open_event(engine, build_event, name="First Cup")
    _, second = open_event(engine, build_event, name="Second Cup")
    with transaction(engine) as session:
        registration_id = registration.register(
            session, slug=first, name="Ann", club="", email="a@example.org", rating_id="",
            links=LINKS,
        )
    token = LINKS.registration_token(registration_id)
    with transaction(engine) as session, pytest.raises(NotFoundError):
        registration.confirm_registration(session, slug=second, token=token, links=LINKS)


def test_the_same_address_cannot_register_twice(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, slug = open_event(engine, build_event)
    sign_up(engine, slug, "Ann")
    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        registration.register(session, slug=slug, name="Ann again", club="",
                              email="ANN@example.org", rating_id="", links=LINKS)
    assert refused.value.field == "email"
