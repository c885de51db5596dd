"""Builders for the event JSON tests: events driven through the store's real services.

``play_event`` draws and publishes a flight and plays every ready match game by game with
random legal results from a seed (``tourney.formats.simulation.random_game``), as a
director entering score sheets would; fed flights (a consolation) are played too.
"""

from __future__ import annotations

import random

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.exports.event_json import dump_event
from tourney.formats.simulation import random_game
from tourney.rules import Side
from tourney.store import draws, progress, results
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.event_json import export_event
from tourney.store.results import GameFields
from tourney.store.tables import Event, Flight, Match, MatchStatus, Round

MAIN = {"name": "Main", "format": "knockout", "match_length": 3, "round_lengths": {"final": 5}}
CONSOLATION = {
    "name": "Consolation",
    "format": "knockout",
    "match_length": 1,
    "feeds_from": "Main",
    "feed_rounds": (1,),
    "feed_bye_losers": True,
}


def ready_matches(session: Session, event_id: int) -> list[Match]:
    """The event's matches waiting for games, in flight, round and bracket order."""
    query = (
        select(Match)
        .join(Flight, col(Flight.id) == Match.flight_id)
        .join(Round, col(Round.id) == Match.round_id)
        .where(Flight.event_id == event_id, Match.status == MatchStatus.READY.value)
        .order_by(col(Flight.position), col(Round.number), col(Match.position))
    )
    return list(session.exec(query))


def play_match(session: Session, actor: Actor, match: Match, rng: random.Random) -> None:
    """Enter random legal games until the match is decided."""
    flight = session.get(Flight, match.flight_id)
    assert flight is not None
    event = session.get(Event, flight.event_id)
    assert event is not None
    while match.status in (MatchStatus.READY.value, MatchStatus.PLAYING.value):
        state = progress.match_state(event, match, progress.games_of(session, match.id or 0))
        entry = random_game(state, rng)
        results.record_game(
            session,
            actor=actor,
            match_id=match.id or 0,
            game=GameFields(
                winner="a" if entry.winner is Side.X else "b",
                end=entry.end.value,
                cube=entry.cube,
                level=None if entry.level is None else entry.level.name.lower(),
            ),
        )


def play_event(
    engine: Engine, actor: Actor, event_id: int, flight_id: int, *, seed: int, method: str
) -> None:
    """Draw, publish and play a knockout flight (and the flights it feeds) to the end."""
    rng = random.Random(seed)
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight_id, method=method, seed=seed)
        draws.publish_draw(session, actor=actor, flight_id=flight_id)
    while True:
        with transaction(engine) as session:
            ready = ready_matches(session, event_id)
            for match in ready:
                play_match(session, actor, match, rng)
        if not ready:
            return


def exported(engine: Engine, ref: str | int) -> bytes:
    """The event JSON of an event, as bytes."""
    with Session(engine) as session:
        return dump_event(export_event(session, ref))
