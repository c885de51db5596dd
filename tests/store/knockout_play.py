"""Playing a knockout's ready matches in store tests, the better seed winning each."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import results
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.tournament_views import flight_board


def play_round(
    engine: Engine,
    actor: Actor,
    flight_id: int,
    winners: Collection[str] | None = None,
    rounds: int | None = None,
) -> int:
    """Play the matches of the flight's first ``rounds`` rounds (all when None) that are
    ready now, 5-0: side a wins when its player is among ``winners``, or, without
    ``winners``, when it is the better seed (the name that sorts first: P01 before P02).
    Returns how many were played."""
    with Session(engine) as session:
        board = flight_board(session, actor, flight_id)
    ready = [
        m
        for rnd in board.rounds[:rounds]
        for m in rnd.matches
        if m.status == "ready" and m.a is not None and m.b is not None
    ]
    for match in ready:
        assert match.a is not None and match.b is not None
        a_wins = match.a.name in winners if winners is not None else match.a.name < match.b.name
        with transaction(engine) as session:
            results.record_final_score(
                session,
                actor=actor,
                match_id=match.id,
                score_a=5 if a_wins else 0,
                score_b=0 if a_wins else 5,
            )
    return len(ready)


def play_ready(engine: Engine, actor: Actor, flight_id: int, rounds: int | None = None) -> None:
    """Play the flight's first ``rounds`` rounds (all when None) round after round, the
    better seed winning each match, until no match is ready."""
    while play_round(engine, actor, flight_id, rounds=rounds):
        pass
