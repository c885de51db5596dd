"""Roles: what each account role and each part in an event may do, and the refusals
that follow from it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import services
from tourney.store.db import transaction
from tourney.store.errors import AccessDeniedError, StoreInvariantError, StoreUserError
from tourney.store.queries import UserView, can_manage_event, require_event
from tourney.store.roles import (
    ACCOUNT_MANAGERS,
    ACCOUNT_ROLES,
    EVENT_DIRECTORS,
    EVENT_ROLES,
    account_role,
    event_role,
)
from tourney.store.tables import Event, Role, StaffRole


def test_account_roles_say_what_each_may_do() -> None:
    facts = [
        (
            r.role.value,
            r.label,
            r.description,
            r.can_direct_events,
            r.directs_every_event,
            r.can_manage_accounts,
        )
        for r in ACCOUNT_ROLES
    ]

    assert facts == [
        ("director", "Director", "runs their own events", True, False, False),
        ("scorer", "Scorer", "enters results", False, False, False),
        ("admin", "Admin", "everything", True, True, True),
    ]
    assert (EVENT_DIRECTORS, ACCOUNT_MANAGERS) == ((Role.DIRECTOR, Role.ADMIN), (Role.ADMIN,))


def test_event_roles_say_who_manages_and_who_enters_results() -> None:
    facts = [(r.role, r.label, r.can_manage_event, r.can_enter_results) for r in EVENT_ROLES]

    assert facts == [
        (StaffRole.DIRECTOR, "Director", True, True),
        (StaffRole.SCORER, "Scorer", False, True),
    ]


def test_unknown_roles_are_invariant_errors() -> None:
    with pytest.raises(StoreInvariantError) as account:
        account_role("referee")
    with pytest.raises(StoreInvariantError) as event:
        event_role("referee")

    assert (str(account.value), str(event.value)) == (
        "Unknown account role 'referee'.",
        "Unknown event role 'referee'.",
    )


def _event(engine: Engine, director: UserView) -> int:
    with transaction(engine) as session:
        return services.create_event(
            session, actor=director.actor, fields=services.EventFields(name="Club Night")
        ).id


def _event_with_staff(engine: Engine, director: UserView, member: UserView, role: str) -> int:
    """An event of ``director`` with ``member`` on its staff as ``role``."""
    event_id = _event(engine, director)
    with transaction(engine) as session:
        services.add_event_staff(
            session, actor=director.actor, event_id=event_id, user_id=member.id, role=role
        )
    return event_id


def test_a_scorer_on_the_staff_enters_results_but_does_not_manage(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director, scorer = make_user("director"), make_user("scorer")
    event_id = _event_with_staff(engine, director, scorer, "scorer")

    with Session(engine) as session:
        event = session.get(Event, event_id)
        assert event is not None
        sees = require_event(session, scorer.actor, event_id, manage=False).id
        manages = can_manage_event(session, scorer.actor, event)
        with pytest.raises(AccessDeniedError):
            require_event(session, scorer.actor, event_id, manage=True)

    assert (sees, manages) == (event_id, False)


def test_a_scorer_account_cannot_be_made_a_director_of_an_event(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director, scorer = make_user("director"), make_user("scorer")
    event_id = _event(engine, director)

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        services.add_event_staff(
            session, actor=director.actor, event_id=event_id, user_id=scorer.id, role="director"
        )

    assert (caught.value.field, caught.value.message) == (
        "role",
        "A scorer account cannot direct an event.",
    )


def test_a_co_director_manages_the_event_and_an_admin_manages_every_event(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    owner, co_director, admin = make_user("director"), make_user("director"), make_user("admin")
    event_id = _event_with_staff(engine, owner, co_director, "director")

    with Session(engine) as session:
        event = session.get(Event, event_id)
        assert event is not None
        managers = [can_manage_event(session, u.actor, event) for u in (co_director, admin)]

    assert managers == [True, True]


def test_only_accounts_that_direct_events_may_create_them(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    scorer = make_user("scorer")

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        services.create_event(
            session, actor=scorer.actor, fields=services.EventFields(name="Scorer's Cup")
        )
