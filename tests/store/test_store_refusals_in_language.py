"""Refusals of teams, money sessions, seeds and logins as a reader of another language
gets them, and the counts in their English words.

The German sentences are a small stand-in catalogue written here by hand: what is tested
is that a refusal keeps its sentence and values apart until it is shown, so that the
reader's catalogue words the whole sentence (a round's name inside it too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from gettext import NullTranslations
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select
from test_store_teams import SQUADS, draw_round, team_event

from tourney import i18n
from tourney.i18n import translate
from tourney.rules.messages import Message
from tourney.store import bulk_entry, teams
from tourney.store import money_sessions as ms
from tourney.store.accounts import LoginLimits, authenticate
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.passwords import make_hasher
from tourney.store.tables import Entry

if TYPE_CHECKING:
    from conftest import BuiltEvent

Build = Callable[..., "BuiltEvent"]

GERMAN = {
    "%(round)s is still being played: finish its fixtures first.":
        "%(round)s läuft noch: erst alle Begegnungen zu Ende spielen.",
    "Semifinal": "Halbfinale",
    "The event has a team called %(name)s.": "Das Turnier hat schon ein Team %(name)s.",
    "%(name)s was not given seed %(seed)s: seed %(seed)s is %(holder)s’s. "
    "Change or clear that seed first.":
        "%(name)s bekommt Setzplatz %(seed)s nicht: er gehört %(holder)s. "
        "Diesen Setzplatz erst ändern oder löschen.",
}


class _German(NullTranslations):
    """The stand-in catalogue: the sentences above, English for anything else."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = i18n.core_catalogue
    monkeypatch.setattr(
        i18n, "core_catalogue", lambda code: _German() if code == "de" else real(code)
    )
    yield


def test_a_knockout_round_still_playing_is_named_in_the_readers_language(
    build_event: Build, engine: Engine, german: None
) -> None:
    """Four teams play a two-round knockout, so round 1 is the Semifinal; drawing the
    Final before it is played is refused, the round named in German too."""
    built = team_event(build_event, engine, SQUADS, event_format="knockout")
    draw_round(engine, built)

    with pytest.raises(StoreUserError) as refused:
        draw_round(engine, built)

    assert refused.value.message == "Semifinal is still being played: finish its fixtures first."
    assert translate(refused.value.message, "de") == (
        "Halbfinale läuft noch: erst alle Begegnungen zu Ende spielen."
    )


def test_a_taken_team_name_is_refused_with_the_name_kept_as_typed(
    build_event: Build, engine: Engine, german: None
) -> None:
    built = team_event(build_event, engine, {"Alpha": SQUADS["Alpha"]})

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        teams.add_team(
            session, actor=built.director.actor, event_id=built.event_id, name="Alpha",
            members=[("Zed",), ("Zoe",)],
        )

    assert refused.value.field == "name"
    assert refused.value.message == "The event has a team called 'Alpha'."
    assert translate(refused.value.message, "de") == "Das Turnier hat schon ein Team 'Alpha'."


def test_a_taken_seed_names_both_players_in_the_readers_language(
    build_event: Build, engine: Engine, german: None
) -> None:
    built = build_event(["Ann", "Bob"], [])
    with transaction(engine) as session:
        bulk_entry.set_seed(
            session, actor=built.director.actor, entry_id=built.entries["Ann"], seed=1
        )

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        bulk_entry.set_seed(
            session, actor=built.director.actor, entry_id=built.entries["Bob"], seed=1
        )

    assert refused.value.message == (
        "Bob was not given seed 1: seed 1 is Ann’s. Change or clear that seed first."
    )
    assert translate(refused.value.message, "de") == (
        "Bob bekommt Setzplatz 1 nicht: er gehört Ann. Diesen Setzplatz erst ändern oder löschen."
    )


def test_one_team_is_written_in_the_singular(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, {"Alpha": SQUADS["Alpha"]})

    with pytest.raises(StoreUserError) as refused:
        draw_round(engine, built)

    assert refused.value.message == "A team flight needs at least two teams; there is 1."


def test_one_player_chosen_for_a_money_session_is_written_in_the_singular(
    build_event: Build, engine: Engine
) -> None:
    """Two players make a money session and three to eight a chouette; one alone is
    refused, counted as one."""
    built = build_event(["Anna", "Boris"], [])
    with Session(engine) as session:
        anna = session.exec(
            select(Entry.player_id).where(Entry.id == built.entries["Anna"])
        ).one()
    fields = ms.SessionFields(
        name="Thursday money", player_ids=(anna,), stake_mode="per-point", stake_minor=50,
        currency="eur",
    )

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        ms.start_session(session, actor=built.director.actor, event_id=built.event_id,
                         fields=fields)

    assert refused.value.message == (
        "A money session has 2 players, a chouette 3 to 8; 1 was chosen."
    )


def test_a_lockout_of_one_minute_says_minute(engine: Engine) -> None:
    """A window of 60 seconds after one failure allowed: the second attempt waits 1
    minute (60 // 60)."""
    limits = LoginLimits(max_failures=1, window_seconds=60)
    hasher = make_hasher("fast")
    attempts = []
    for _ in range(2):
        with transaction(engine) as session:
            attempts.append(authenticate(
                session, email="nobody@example.org", password="not the password",
                remote_addr="192.0.2.7", hasher=hasher, limits=limits,
            ))

    assert [a.message for a in attempts] == [
        "Wrong e-mail address or password.",
        "Too many failed logins. Wait 1 minute and try again.",
    ]
    assert all(isinstance(a.message, Message) for a in attempts)
    assert attempts[1].throttled
