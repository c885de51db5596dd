"""A club's season from its events' results, worked by hand.

Event A, a knockout of four seeded Ann 1, Ben 2, Cid 3, Dee 4: Ann beats Dee, Ben beats
Cid, Ann beats Ben in the final. Places: Ann 1, Ben 2, Cid and Dee =3 (places 3 and 4).
Event B: Cid beats Dee. With the points table 10, 6, 4, 2:

* Event A: Ann 10, Ben 6, Cid and Dee (4 + 2) / 2 = 3 each. Event B: Cid 10, Dee 6.
* Totals: Cid 13, Ann 10, Dee 9, Ben 6. Best one event: Ann and Cid 10 (=1), Ben and Dee
  6 (=3).
* A point per match won instead: Ann 2, Ben 1, Cid 1, Dee 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from knockout_play import play_round
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import draws, events, roster, seasons
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import Entry

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _season_setup(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> tuple[Actor, int, list[int]]:
    main = [{"name": "Main", "format": "knockout", "match_length": 5}]
    first = build_event(["Ann", "Ben", "Cid", "Dee"], main)
    actor = first.director.actor
    club_id = into_club(first)
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=first.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=first.flights["Main"])
    play_round(engine, actor, first.flights["Main"], {"Ann", "Ben"})
    play_round(engine, actor, first.flights["Main"], {"Ann"})
    with transaction(engine) as session:
        second = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Event B", club_id=club_id)
        )
        flight = (
            events.add_flight(
                session,
                actor=actor,
                event_id=second.id,
                fields=events.FlightFields(name="Main", format="knockout", match_length=5),
            ).id
            or 0
        )
        for seed, name in ((1, "Cid"), (2, "Dee")):
            player = session.exec(
                select(Entry.player_id).where(Entry.id == first.entries[name])
            ).one()
            roster.enter_player(
                session, actor=actor, event_id=second.id, player_id=player, seed=seed
            )
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=flight)
    play_round(engine, actor, flight, {"Cid"})
    return actor, club_id, [first.event_id, second.id or 0]


def _table(engine: Engine, season_id: int) -> list[tuple[str, str, float]]:
    with Session(engine) as session:
        view = seasons.season_view(session, season_id)
    return [(line.display_rank, line.name, line.total) for line in view.lines]


def test_a_season_adds_points_by_place_and_by_matches_won(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> None:
    actor, club_id, event_ids = _season_setup(engine, build_event, into_club)

    def make(**extra: object) -> int:
        fields = seasons.SeasonFields(
            name=str(extra.pop("name")),
            event_ids=tuple(event_ids),
            **extra,  # type: ignore[arg-type]
        )
        with transaction(engine) as session:
            return (
                seasons.create_season(session, actor=actor, club_id=club_id, fields=fields).id or 0
            )

    by_place = make(name="Spring", scoring="place", points_table=(10, 6, 4, 2))
    best_one = make(name="Spring, best one", scoring="place", points_table=(10, 6, 4, 2), best=1)
    by_wins = make(name="Spring wins", scoring="wins")

    assert _table(engine, by_place) == [
        ("1", "Cid", 13.0),
        ("2", "Ann", 10.0),
        ("3", "Dee", 9.0),
        ("4", "Ben", 6.0),
    ]
    assert [(rank, total) for rank, _, total in _table(engine, best_one)] == [
        ("=1", 10.0),
        ("=1", 10.0),
        ("=3", 6.0),
        ("=3", 6.0),
    ]
    assert {name: total for _, name, total in _table(engine, by_wins)} == {
        "Ann": 2.0,
        "Ben": 1.0,
        "Cid": 1.0,
        "Dee": 0.0,
    }


def test_a_season_holds_only_its_clubs_events(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Ben"], [])
    actor = built.director.actor
    with transaction(engine) as session:
        club_id = events.create_club(session, actor=actor, name="Other BG").id or 0
    fields = seasons.SeasonFields("Autumn", (built.event_id,), "wins")
    with transaction(engine) as session, pytest.raises(StoreUserError, match="its own club"):
        seasons.create_season(session, actor=actor, club_id=club_id, fields=fields)
