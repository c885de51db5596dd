"""A club's rating list from the results of its events, worked by hand with the FIBS
formula of DESIGN §8 (start 1500, K = max(1, 5 - experience/100), a 7-point match):

* Event 1: Ann beats Ben. Equal ratings: P = 1/2; both new (K = 5): Ann gains and Ben
  loses 4 * 5 * sqrt(7) * 1/2 = 26.4575: Ann 1526.46, Ben 1473.54.
* Event 2: Ben, now the underdog by D = 52.915, beats Ann. D * sqrt(7) / 2000 = 0.0700,
  10^0.0700 = 1.17490, P_upset = 1 / 2.17490 = 0.459792, and the underdog's P = 1 -
  P_upset = 0.540208; K = 5 - 7/100 = 4.93 for both: Ben gains and Ann loses
  4 * 4.93 * sqrt(7) * 0.540208 = 28.1849. Ben 1501.73 (+28.18 over event 2), Ann
  1498.27 (-28.18).
* A walkover in event 2 (Cid over Dee) is not rated: neither appears.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import bulk_entry, draws, events, results, roster
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.rating_lists import club_rating_list, player_history
from tourney.store.tables import Entry, Event, Player
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _draw(engine: Engine, actor: Actor, flight_id: int) -> None:
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight_id, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=flight_id)


def _second_event(engine: Engine, first: BuiltEvent, club_id: int) -> int:
    """Club Night 2: Ann and Ben again (seeds 1 and 4: they meet), Cid and Dee new."""
    actor = first.director.actor
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Club Night 2", club_id=club_id)
        )
        main = events.add_flight(
            session, actor=actor, event_id=event.id,
            fields=events.FlightFields(name="Main", format="knockout", match_length=7),
        ).id
        known = {
            name: session.exec(select(Entry.player_id).where(Entry.id == entry)).one()
            for name, entry in first.entries.items()
        }
        for name in ("Cid", "Dee"):
            known[name] = roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=name)
            ).id
        for name, seed in (("Ann", 1), ("Cid", 2), ("Dee", 3), ("Ben", 4)):
            roster.enter_player(
                session, actor=actor, event_id=event.id, player_id=known[name], seed=seed
            )
    return main or 0


def _play(
    engine: Engine, actor: Actor, flight_id: int, winner: str, *, walkover: bool = False
) -> None:
    with Session(engine) as session:
        board = flight_board(session, actor, flight_id)
    for match in board.rounds[0].matches:
        if match.a is None or match.b is None:
            continue
        names = (match.a.name, match.b.name)
        if winner not in names:
            continue
        with transaction(engine) as session:
            if walkover:
                results.award_walkover(session, actor=actor, match_id=match.id,
                                       winner="a" if names[0] == winner else "b")
            else:
                score = (7, 0) if names[0] == winner else (0, 7)
                results.record_final_score(session, actor=actor,
                                           match_id=match.id, score_a=score[0], score_b=score[1])


def test_a_clubs_list_replays_its_events_and_shows_the_latest_events_change(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> None:
    first = build_event(["Ann", "Ben"], [{"name": "Main", "format": "knockout",
                                          "match_length": 7}])
    club_id = into_club(first)
    actor = first.director.actor
    _draw(engine, actor, first.flights["Main"])
    _play(engine, actor, first.flights["Main"], "Ann")
    second = _second_event(engine, first, club_id)
    _draw(engine, actor, second)
    _play(engine, actor, second, "Ben")
    _play(engine, actor, second, "Cid", walkover=True)

    with Session(engine) as session:
        ratings = club_rating_list(session, club_id)

    assert [(r.rank, r.name, r.experience, r.matches) for r in ratings.rows] == [
        (1, "Ben", 14, 2),
        (2, "Ann", 14, 2),
    ]
    assert [round(r.rating, 2) for r in ratings.rows] == [1501.73, 1498.27]
    assert [round(r.change or 0, 2) for r in ratings.rows] == [28.18, -28.18]
    assert ratings.matches == 2 and ratings.latest_event == "Club Night 2"

    ben = ratings.rows[0].player_id
    with Session(engine) as session:
        history = player_history(session, club_id, ben)
    # Newest first: the win over Ann at Club Night 2 (+28.18), the loss at Club Night
    # (-26.46); Ann is the only opponent, one win and one loss: his nemesis.
    assert [(h.event_name, h.opponent, h.won, h.score_text) for h in history.lines] == [
        ("Club Night 2", "Ann", True, "7-0"),
        ("Club Night", "Ann", False, "0-7"),
    ]
    assert [round(h.change, 2) for h in history.lines] == [28.18, -26.46]
    assert round(history.rating, 6) == round(ratings.rows[0].rating, 6)
    assert history.nemesis is not None and history.nemesis.opponent == "Ann"
    assert (history.nemesis.wins, history.nemesis.losses) == (1, 1)

    # Club Night 2 marked a friendly (unrated): only Ann's win over Ben counts.
    with transaction(engine) as session:
        for event in session.exec(select(Event).where(Event.name == "Club Night 2")):
            event.unrated = True
    with Session(engine) as session:
        friendly = club_rating_list(session, club_id)
    assert [(r.name, round(r.rating, 2), r.matches) for r in friendly.rows] == [
        ("Ann", 1526.46, 1),
        ("Ben", 1473.54, 1),
    ]
    assert friendly.latest_event == "Club Night"


def test_no_such_club_is_refused(engine: Engine) -> None:
    with Session(engine) as session, pytest.raises(NotFoundError):
        club_rating_list(session, 999)


def test_an_events_players_are_seeded_by_the_clubs_list(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> None:
    first = build_event(["Ann", "Ben", "Cid"], [{"name": "Main", "format": "knockout",
                                                 "match_length": 7}])
    actor = first.director.actor
    club_id = into_club(first)
    # Three players in a bracket of four: Ann (seed 1) has the bye, Ben (2) plays Cid (3)
    # and Cid wins. The list has Cid above Ben; Ann, with no rated match, is not seeded.
    _draw(engine, actor, first.flights["Main"])
    _play(engine, actor, first.flights["Main"], "Cid")
    with transaction(engine) as session:
        # A new event of the club with the same three players.
        second = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Next", club_id=club_id)
        )
        for name in ("Ann", "Ben", "Cid"):
            player = session.exec(
                select(Entry.player_id).where(Entry.id == first.entries[name])
            ).one()
            roster.enter_player(session, actor=actor, event_id=second.id, player_id=player)
    with transaction(engine) as session:
        seeded = bulk_entry.seed_by_rating(session, actor=actor, event_id=second.id, seeds=8)
    with Session(engine) as session:
        seeds = {
            name: seed
            for name, seed in session.exec(
                select(Player.name, Entry.seed)
                .join(Entry, col(Entry.player_id) == Player.id)
                .where(Entry.event_id == second.id)
            )
        }

    assert seeded == 2
    assert seeds == {"Cid": 1, "Ben": 2, "Ann": None}


def test_seeding_by_rating_needs_a_club(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Ben"], [])
    with transaction(engine) as session, pytest.raises(StoreUserError, match="no club"):
        bulk_entry.seed_by_rating(
            session, actor=built.director.actor, event_id=built.event_id, seeds=4
        )


def test_a_roster_rating_carried_in_is_the_players_starting_rating(
    engine: Engine, build_event: Callable[..., BuiltEvent], into_club: Callable[..., int]
) -> None:
    # Ann comes in with the club's old list's 1600; Ben starts at 1500. Ann, the favourite
    # by D = 100, beats Ben in a 7-point match, both newcomers here (K = 5):
    # P = P_upset = 1 / (10^(100 * sqrt(7) / 2000) + 1) = 1 / 2.356087 = 0.424433, worth
    # 4 * 5 * sqrt(7) * 0.424433 = 22.4589: Ann 1622.46, Ben 1477.54.
    built = build_event(["Ann", "Ben"], [{"name": "Main", "format": "knockout",
                                          "match_length": 7}])
    actor = built.director.actor
    club_id = into_club(built)
    with transaction(engine) as session:
        ann = session.exec(select(Entry.player_id).where(Entry.id == built.entries["Ann"])).one()
        player = session.get(Player, ann)
        assert player is not None
        player.rating = 1600.0
    _draw(engine, actor, built.flights["Main"])
    _play(engine, actor, built.flights["Main"], "Ann")

    with Session(engine) as session:
        ratings = club_rating_list(session, club_id)
        history = player_history(session, club_id, ann)

    assert [(r.name, round(r.rating, 2), round(r.change or 0, 2)) for r in ratings.rows] == [
        ("Ann", 1622.46, 22.46),
        ("Ben", 1477.54, -22.46),
    ]
    assert history.start == 1600.0 and round(history.rating, 2) == 1622.46
