"""Services: each use case checks the actor, changes rows and writes one audit entry."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, select

from tourney.store import accounts, events, queries, roster
from tourney.store.accounts import LoginLimits
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import AccessDeniedError, NotFoundError, StoreUserError
from tourney.store.events import EventFields, FlightFields
from tourney.store.passwords import make_hasher
from tourney.store.queries import UserView
from tourney.store.roster import PlayerFields
from tourney.store.tables import (
    AuditEntry,
    Entry,
    Event,
    Flight,
    FlightEntry,
    LoginAttempt,
    Match,
    Player,
    Round,
)

HASHER = make_hasher("fast")
PASSWORD = "correct horse battery staple"


def audit_actions(engine: Engine) -> list[str]:
    with Session(engine) as session:
        return [a.action for a in session.exec(select(AuditEntry).order_by(AuditEntry.id))]


def new_event(engine: Engine, actor: Actor, **kwargs: object) -> queries.EventDetail:
    fields = EventFields(name=str(kwargs.pop("name", "Club Night")), **kwargs)  # type: ignore[arg-type]
    with transaction(engine) as session:
        return events.create_event(session, actor=actor, fields=fields)


def new_player(engine: Engine, actor: Actor, name: str) -> queries.PlayerView:
    with transaction(engine) as session:
        return roster.register_player(session, actor=actor, fields=PlayerFields(name=name))


# --- accounts ------------------------------------------------------------------------


def test_first_admin_is_created_once(engine: Engine) -> None:
    with transaction(engine) as session:
        admin = accounts.create_first_admin(
            session, email="Boss@Example.org", name="Boss", password=PASSWORD, hasher=HASHER
        )

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        accounts.create_first_admin(
            session, email="two@example.org", name="Two", password=PASSWORD, hasher=HASHER
        )
    assert (admin.email, admin.role) == ("boss@example.org", "admin")
    assert audit_actions(engine) == ["user.create"]


def test_create_user_needs_an_admin(make_user: Callable[..., UserView], engine: Engine) -> None:
    director = make_user("director")

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        accounts.create_user(
            session,
            actor=director.actor,
            email="x@example.org",
            name="X",
            password=PASSWORD,
            role="director",
            hasher=HASHER,
        )


@pytest.mark.parametrize(
    ("email", "password", "field"),
    [("not-an-address", PASSWORD, "email"), ("ok@example.org", "short", "password")],
)
def test_create_user_refuses_bad_input(
    engine: Engine, email: str, password: str, field: str
) -> None:
    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        accounts.create_user(
            session,
            actor=Actor.cli(),
            email=email,
            name="Someone",
            password=password,
            role="director",
            hasher=HASHER,
        )

    assert caught.value.field == field


def test_create_user_refuses_taken_address(make_user: Callable[..., UserView]) -> None:
    make_user("director", email="same@example.org")

    with pytest.raises(StoreUserError, match="exists"):
        make_user("scorer", email="SAME@example.org")


def login(
    engine: Engine,
    email: str,
    password: str,
    limits: LoginLimits | None = None,
    remote: str = "10.0.0.1",
) -> accounts.LoginResult:
    with transaction(engine) as session:
        return accounts.authenticate(
            session,
            email=email,
            password=password,
            remote_addr=remote,
            hasher=HASHER,
            limits=limits or LoginLimits(),
        )


def test_authenticate_right_and_wrong_password(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("director")

    good = login(engine, user.email.upper(), PASSWORD)
    bad = login(engine, user.email, "wrong password!")
    unknown = login(engine, "nobody@example.org", PASSWORD)

    assert good.user == user
    assert (bad.user, bad.throttled, bad.message) == (
        None,
        False,
        "Wrong e-mail address or password.",
    )
    assert unknown.message == bad.message


def test_authenticate_locks_account_after_failures_even_with_right_password(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("director")
    limits = LoginLimits(max_failures=3, max_failures_per_address=100, window_seconds=600)
    for _ in range(3):
        login(engine, user.email, "wrong password!", limits)

    locked = login(engine, user.email, PASSWORD, limits)

    assert (locked.user, locked.throttled) == (None, True)
    assert "Too many failed logins" in locked.message


def test_authenticate_limits_one_address_across_accounts(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("director")
    limits = LoginLimits(max_failures=100, max_failures_per_address=4, window_seconds=600)
    for n in range(4):
        login(engine, f"guess{n}@example.org", "whatever", limits, remote="192.0.2.7")

    from_attacker = login(engine, user.email, PASSWORD, limits, remote="192.0.2.7")
    from_elsewhere = login(engine, user.email, PASSWORD, limits, remote="198.51.100.1")

    assert (from_attacker.throttled, from_elsewhere.user) == (True, user)


def test_successful_login_clears_the_account_failures(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("director")
    login(engine, user.email, "wrong password!")

    login(engine, user.email, PASSWORD)

    with Session(engine) as session:
        failures = session.exec(
            select(func.count())
            .select_from(LoginAttempt)
            .where(
                LoginAttempt.email == user.email,
                LoginAttempt.succeeded == False,  # noqa: E712
            )
        ).one()
    assert failures == 0


# --- events and flights --------------------------------------------------------------


def test_create_event_makes_slug_and_owner(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")

    first = new_event(engine, director.actor, name="Bjørn Ødegård Cup", starts_on=date(2025, 5, 1))
    second = new_event(engine, director.actor, name="Bjørn Ødegård Cup")

    assert (first.slug, second.slug) == ("bjorn-odegard-cup", "bjorn-odegard-cup-2")
    with Session(engine) as session:
        owner = session.get(Event, first.id)
        assert owner is not None and owner.owner_id == director.id
    assert audit_actions(engine) == ["user.create", "event.create", "event.create"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"crawford": False, "holland": True}, "holland"),
        ({"beavers": True}, "money_play"),
        ({"cube_limit_exponent": 13}, "cube_limit"),
        ({"starts_on": date(2025, 5, 2), "ends_on": date(2025, 5, 1)}, "ends_on"),
        ({"name": "   "}, "name"),
    ],
)
def test_create_event_refuses_impossible_rules(
    make_user: Callable[..., UserView], engine: Engine, fields: dict[str, object], field: str
) -> None:
    director = make_user("director")

    with pytest.raises(StoreUserError) as caught:
        new_event(engine, director.actor, **fields)

    assert caught.value.field == field


def test_scorer_cannot_create_event(make_user: Callable[..., UserView], engine: Engine) -> None:
    scorer = make_user("scorer")

    with pytest.raises(AccessDeniedError):
        new_event(engine, scorer.actor)


def test_update_event_records_before_and_after(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    event = new_event(engine, director.actor, name="Spring Open")

    with transaction(engine) as session:
        updated = events.update_event(
            session,
            actor=director.actor,
            event_id=event.id,
            fields=EventFields(name="Spring Open 2025", slug=event.slug, holland=True),
        )

    with Session(engine) as session:
        last = session.exec(select(AuditEntry).order_by(AuditEntry.id.desc())).first()  # type: ignore[union-attr]
    assert last is not None
    assert (last.action, last.before["name"], last.after["name"]) == (  # type: ignore[index]
        "event.update",
        "Spring Open",
        "Spring Open 2025",
    )
    assert (updated.holland, updated.data_version) == (True, 2)


def test_director_cannot_change_another_directors_event(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    owner, other = make_user("director"), make_user("director")
    event = new_event(engine, owner.actor)

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        events.update_event(
            session, actor=other.actor, event_id=event.id, fields=EventFields(name="Mine now")
        )


def test_admin_and_co_director_can_change_the_event(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    owner, helper, admin = make_user("director"), make_user("director"), make_user("admin")
    event = new_event(engine, owner.actor)
    with transaction(engine) as session:
        events.add_event_staff(
            session, actor=owner.actor, event_id=event.id, user_id=helper.id, role="director"
        )

    for actor in (helper.actor, admin.actor):
        with transaction(engine) as session:
            events.update_event(
                session, actor=actor, event_id=event.id, fields=EventFields(name=actor.label)
            )

    with Session(engine) as session:
        assert [e.name for e in queries.list_events_for(session, helper.actor)] == [admin.email]


def test_add_flight_with_consolation_fed_by_round_one(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    event = new_event(engine, director.actor)
    with transaction(engine) as session:
        main = events.add_flight(
            session,
            actor=director.actor,
            event_id=event.id,
            fields=FlightFields(
                name="Main", format="knockout", match_length=7, round_lengths={"final": 11}
            ),
        )
        consolation = events.add_flight(
            session,
            actor=director.actor,
            event_id=event.id,
            fields=FlightFields(
                name="Consolation",
                format="knockout",
                match_length=5,
                feeds_from_id=main.id,
                feed_rounds=(1, 2),
                progressive=True,
            ),
        )

    assert (main.round_lengths_text, main.position) == ("final: 11", 0)
    assert (consolation.feeds_from_name, consolation.feed_rounds, consolation.position) == (
        "Main",
        (1, 2),
        1,
    )


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"format": "swiss", "swiss_rounds": 5, "swiss_lives": 3}, "swiss_lives"),
        ({"format": "knockout", "swiss_rounds": 5}, "swiss_rounds"),
        ({"format": "knockout", "match_length": 0}, "match_length"),
        ({"format": "knockout", "round_lengths": {"last": 9}}, "round_lengths"),
        ({"format": "knockout", "reset_match": True}, "reset_match"),
        ({"format": "swiss", "tiebreaks": ("buchholz", "buchholz")}, "tiebreaks"),
        ({"format": "swiss", "tiebreaks": ("coin_toss",)}, "tiebreaks"),
        ({"format": "knockout", "feed_rounds": (1,)}, "feeds_from_id"),
        ({"format": "chess"}, "format"),
    ],
)
def test_add_flight_refuses_settings_that_do_not_fit(
    make_user: Callable[..., UserView], engine: Engine, fields: dict[str, object], field: str
) -> None:
    director = make_user("director")
    event = new_event(engine, director.actor)
    values: dict[str, object] = {"name": "F", "match_length": 5, **fields}

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        events.add_flight(
            session,
            actor=director.actor,
            event_id=event.id,
            fields=FlightFields(**values),  # type: ignore[arg-type]
        )

    assert caught.value.field == field


def test_flight_cannot_be_fed_from_another_event_or_itself(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    one, two = new_event(engine, director.actor), new_event(engine, director.actor)
    with transaction(engine) as session:
        main = events.add_flight(
            session,
            actor=director.actor,
            event_id=one.id,
            fields=FlightFields(name="Main", format="knockout", match_length=5),
        )

    with pytest.raises(StoreUserError, match="in this event"), transaction(engine) as session:
        events.add_flight(
            session,
            actor=director.actor,
            event_id=two.id,
            fields=FlightFields(name="C", format="knockout", match_length=3, feeds_from_id=main.id),
        )
    with pytest.raises(StoreUserError, match="feed itself"), transaction(engine) as session:
        events.update_flight(
            session,
            actor=director.actor,
            flight_id=main.id,
            fields=FlightFields(
                name="Main", format="knockout", match_length=5, feeds_from_id=main.id
            ),
        )


# --- players and entries -------------------------------------------------------------


def test_register_player_normalises_and_validates(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    with transaction(engine) as session:
        player = roster.register_player(
            session,
            actor=director.actor,
            fields=PlayerFields(name="  Bjørn   Ødegård ", country="no", rating=1650.5),
        )

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        roster.register_player(
            session, actor=director.actor, fields=PlayerFields(name="X", country="Norway")
        )

    assert (player.name, player.country, player.rating) == ("Bjørn Ødegård", "NO", 1650.5)
    assert caught.value.field == "country"


def test_enter_check_in_withdraw_reinstate(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    event = new_event(engine, director.actor)
    player = new_player(engine, director.actor, "Ingrid Solheim")

    with transaction(engine) as session:
        entry = roster.enter_player(
            session, actor=director.actor, event_id=event.id, player_id=player.id, seed=1
        )
    with transaction(engine) as session:
        present = roster.check_in(session, actor=director.actor, entry_id=entry.id)
    with transaction(engine) as session:
        gone = roster.withdraw(session, actor=director.actor, entry_id=entry.id)
    with pytest.raises(StoreUserError, match="active"), transaction(engine) as session:
        roster.check_in(session, actor=director.actor, entry_id=entry.id)
    with transaction(engine) as session:
        back = roster.reinstate(session, actor=director.actor, entry_id=entry.id)

    assert (entry.seed, entry.checked_in, entry.status) == (1, False, "active")
    assert (present.checked_in, gone.status, back.status) == (True, "withdrawn", "active")
    assert audit_actions(engine)[-4:] == [
        "entry.create",
        "entry.check_in",
        "entry.withdraw",
        "entry.reinstate",
    ]


def test_enter_player_twice_or_with_taken_seed_is_refused(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    event = new_event(engine, director.actor)
    a, b = new_player(engine, director.actor, "A"), new_player(engine, director.actor, "B")
    with transaction(engine) as session:
        roster.enter_player(
            session, actor=director.actor, event_id=event.id, player_id=a.id, seed=1
        )

    with pytest.raises(StoreUserError, match="entered already"), transaction(engine) as session:
        roster.enter_player(session, actor=director.actor, event_id=event.id, player_id=a.id)
    with pytest.raises(StoreUserError, match="Seed 1 is taken"), transaction(engine) as session:
        roster.enter_player(
            session, actor=director.actor, event_id=event.id, player_id=b.id, seed=1
        )


def test_failed_service_leaves_no_trace(make_user: Callable[..., UserView], engine: Engine) -> None:
    director = make_user("director")
    before = audit_actions(engine)

    with pytest.raises(NotFoundError), transaction(engine) as session:
        roster.enter_player(session, actor=director.actor, event_id=999_999, player_id=1)

    assert audit_actions(engine) == before


def test_scorer_cannot_touch_roster_or_entries(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director, scorer = make_user("director"), make_user("scorer")
    event = new_event(engine, director.actor)
    player = new_player(engine, director.actor, "P")
    with transaction(engine) as session:
        events.add_event_staff(
            session, actor=director.actor, event_id=event.id, user_id=scorer.id, role="scorer"
        )

    with pytest.raises(AccessDeniedError):
        new_player(engine, scorer.actor, "Q")
    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        roster.enter_player(session, actor=scorer.actor, event_id=event.id, player_id=player.id)
    with Session(engine) as session:
        seen = queries.get_event_for(session, scorer.actor, event.id)
    assert (seen.id, seen.can_manage) == (event.id, False)


# --- tables ready for the draw and results -------------------------------------------


def _match_row(engine: Engine, director: UserView) -> int:
    event = new_event(engine, director.actor)
    a, b = new_player(engine, director.actor, "A"), new_player(engine, director.actor, "B")
    with transaction(engine) as session:
        flight = Flight(event_id=event.id, name="Main", format="knockout", match_length=5)
        session.add(flight)
        session.flush()
        entries = []
        for player in (a, b):
            entry = Entry(event_id=event.id, player_id=player.id)
            session.add(entry)
            session.flush()
            flight_entry = FlightEntry(flight_id=flight.id or 0, entry_id=entry.id or 0)
            session.add(flight_entry)
            session.flush()
            entries.append(flight_entry.id)
        round_ = Round(flight_id=flight.id or 0, number=1, match_length=5)
        session.add(round_)
        session.flush()
        match = Match(
            flight_id=flight.id or 0,
            round_id=round_.id or 0,
            position=0,
            entry_a_id=entries[0],
            entry_b_id=entries[1],
            match_length=5,
        )
        session.add(match)
        session.flush()
        return match.id or 0


def test_match_version_refuses_a_stale_write(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    match_id = _match_row(engine, make_user("director"))

    with pytest.raises(StaleDataError), transaction(engine) as session:
        mine = session.get(Match, match_id)
        assert mine is not None
        # Someone else saves the match between our read and our write.
        session.execute(
            update(Match).where(Match.id == match_id).values(score_b=5, version=Match.version + 1),
            execution_options={"synchronize_session": False},
        )
        mine.score_a = 3
        session.flush()

    with Session(engine) as session:
        saved = session.get(Match, match_id)
        assert saved is not None
        assert (saved.score_a, saved.score_b, saved.version) == (0, 0, 1)


def test_foreign_keys_are_enforced(engine: Engine) -> None:
    with pytest.raises(IntegrityError), transaction(engine) as session:
        session.add(Entry(event_id=424242, player_id=434343))


def test_roster_search_treats_wildcards_literally(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    for name in ("Ann_Lee", "Annelie", "100% Bob"):
        new_player(engine, director.actor, name)

    with Session(engine) as session:
        underscore = [p.name for p in queries.list_players(session, search="n_L")]
        percent = [p.name for p in queries.list_players(session, search="%")]
        every = session.exec(select(func.count()).select_from(Player)).one()

    assert (underscore, percent, every) == (["Ann_Lee"], ["100% Bob"], 3)
