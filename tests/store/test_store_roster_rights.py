"""Roster rights: a player is changed (and their e-mail address seen) by the director who
added them, by an admin, and by the directors of an event the player is entered in; every
change shows in the audit log of each event the player is entered in."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import events, queries, roster
from tourney.store.audit_views import audit_page
from tourney.store.db import transaction
from tourney.store.errors import AccessDeniedError
from tourney.store.queries import UserView
from tourney.store.roster import PlayerFields

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 3}


def add_player(engine: Engine, who: UserView, name: str, email: str | None = None) -> int:
    with transaction(engine) as session:
        fields = PlayerFields(name=name, country="NO", email=email)
        return roster.register_player(session, actor=who.actor, fields=fields).id


def rename(engine: Engine, who: UserView, player_id: int, name: str) -> None:
    with transaction(engine) as session:
        roster.update_player(
            session, actor=who.actor, player_id=player_id, fields=PlayerFields(name=name)
        )


def test_a_director_may_not_rename_another_directors_player(
    engine: Engine, make_user: Callable[..., UserView]
) -> None:
    anna, ben = make_user("director"), make_user("director")
    player = add_player(engine, anna, "Carl Dahl", "carl@example.org")

    with pytest.raises(AccessDeniedError):
        rename(engine, ben, player, "Carl Renamed")

    with Session(engine) as session:
        assert queries.get_player(session, player).name == "Carl Dahl"


def test_the_adding_director_and_an_admin_may_rename_the_player(
    engine: Engine, make_user: Callable[..., UserView]
) -> None:
    anna, admin = make_user("director"), make_user("admin")
    player = add_player(engine, anna, "Carl Dahl")

    rename(engine, anna, player, "Carl Dahl-Ek")
    rename(engine, admin, player, "Carl Ek")

    with Session(engine) as session:
        assert queries.get_player(session, player).name == "Carl Ek"


def test_a_director_may_rename_a_player_entered_in_an_event_they_staff(
    engine: Engine, make_user: Callable[..., UserView]
) -> None:
    anna, ben = make_user("director"), make_user("director")
    player = add_player(engine, anna, "Carl Dahl")
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=anna.actor, fields=events.EventFields(name="Club Night")
        )
        roster.enter_player(session, actor=anna.actor, event_id=event.id, player_id=player)
        events.add_event_staff(
            session, actor=anna.actor, event_id=event.id, user_id=ben.id, role="director"
        )

    rename(engine, ben, player, "Carl Ek")

    with Session(engine) as session:
        assert queries.get_player(session, player).name == "Carl Ek"


def test_a_scorer_of_the_players_event_may_not_rename_them(
    engine: Engine, make_user: Callable[..., UserView]
) -> None:
    anna, ben = make_user("director"), make_user("director")
    player = add_player(engine, anna, "Carl Dahl", "carl@example.org")
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=anna.actor, fields=events.EventFields(name="Club Night")
        )
        roster.enter_player(session, actor=anna.actor, event_id=event.id, player_id=player)
        events.add_event_staff(
            session, actor=anna.actor, event_id=event.id, user_id=ben.id, role="scorer"
        )

    with pytest.raises(AccessDeniedError):
        rename(engine, ben, player, "Carl Renamed")


def test_the_roster_hides_emails_of_players_the_reader_may_not_change(
    engine: Engine, make_user: Callable[..., UserView]
) -> None:
    anna, ben, admin = make_user("director"), make_user("director"), make_user("admin")
    add_player(engine, anna, "Carl Dahl", "carl@example.org")

    with Session(engine) as session:
        seen_by = {
            who.email: [
                (p.name, p.email, p.can_edit) for p in queries.roster_for(session, who.actor)
            ]
            for who in (anna, ben, admin)
        }

    assert seen_by == {
        anna.email: [("Carl Dahl", "carl@example.org", True)],
        ben.email: [("Carl Dahl", None, False)],
        admin.email: [("Carl Dahl", "carl@example.org", True)],
    }


def test_a_rename_shows_in_the_audit_log_of_every_event_the_player_is_entered_in(
    engine: Engine, build_event: Callable[..., BuiltEvent], make_user: Callable[..., UserView]
) -> None:
    monday = build_event(["Carl Dahl", "Dora Eng"], [MAIN], name="Monday")
    tuesday = build_event(["Erik Fos"], [MAIN], name="Tuesday")
    player = add_player(engine, make_user("director"), "Unrelated")
    with Session(engine) as session:
        carl = next(p.id for p in queries.list_players(session) if p.name == "Carl Dahl")
    with transaction(engine) as session:
        roster.enter_player(
            session, actor=tuesday.director.actor, event_id=tuesday.event_id, player_id=carl
        )

    rename(engine, monday.director, carl, "Carl Ek")

    with Session(engine) as session:
        logs = {
            built.event_id: [line.sentence for line in audit_page(session, built.event_id).lines]
            for built in (monday, tuesday)
        }
    said = f"{monday.director.name} changed the player Carl Dahl (now Carl Ek)"
    assert logs[monday.event_id][0] == said
    assert logs[tuesday.event_id][0] == said
    assert player != carl
