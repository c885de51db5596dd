"""Playing a knockout's ready matches in store tests, the better seed winning each."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import results
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.tournament_views import flight_board


def play_ready(engine: Engine, actor: Actor, flight_id: int, rounds: int | None = None) -> None:
    """Play every ready match of the flight's first ``rounds`` rounds (all when None), the
    better seed (the name that sorts first: P01 before P02) winning 5-0, until none is left."""
    while True:
        with Session(engine) as session:
            board = flight_board(session, actor, flight_id)
        ready = [
            m
            for rnd in board.rounds[:rounds]
            for m in rnd.matches
            if m.status == "ready" and m.a is not None and m.b is not None
        ]
        if not ready:
            return
        for match in ready:
            assert match.a is not None and match.b is not None
            a_wins = match.a.name < match.b.name
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=match.id,
                    score_a=5 if a_wins else 0,
                    score_b=0 if a_wins else 5,
                )
