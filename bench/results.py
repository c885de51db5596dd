"""Time a game entry (record the game, rescore the match, move the bracket on) at 128 players.

A 128-player knockout with a consolation (first-round losers and first-match losers after
a bye) is drawn and published on a fresh SQLite file database, then matches are played
game by game through the director's page (``POST /director/matches/<id>/games``), so each
timing covers the request, the form, the transaction, the match engine, the bracket sync
when a match ends, the audit entry and the redirect. The reference is a trivial request
(``GET /healthz``, one ``SELECT 1``) on the same app in the same run; the table prints
milliseconds and the ratio to it. Entries that finish a match are shown apart: only they
move the bracket on (the matches built on that result are worked out again).

Run: ``.venv/bin/python bench/results.py [--players 128] [--matches 40] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from tourney.formats.simulation import random_game
from tourney.rules import Side
from tourney.store import accounts, draws, events, progress, roster, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.passwords import make_hasher
from tourney.store.tables import Event, Flight, Match, MatchStatus
from tourney.web import create_app

PASSWORD = "bench-password-123"


def build(engine: object, players: int, seed: int) -> tuple[str, int]:
    """An event with ``players`` entries, Main + Consolation drawn and published."""
    admin = Actor.cli()
    with transaction(engine) as session:  # type: ignore[arg-type]
        user = accounts.create_user(
            session,
            actor=admin,
            email="bench@example.org",
            name="Bench",
            password=PASSWORD,
            role="director",
            hasher=make_hasher("fast"),
        )
        actor = user.actor
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Bench")
        )
        main = events.add_flight(
            session,
            actor=actor,
            event_id=event.id,
            fields=events.FlightFields(name="Main", format="knockout", match_length=5),
        )
        events.add_flight(
            session,
            actor=actor,
            event_id=event.id,
            fields=events.FlightFields(
                name="Consolation",
                format="knockout",
                match_length=3,
                feeds_from_id=main.id,
                feed_rounds=(1,),
                feed_bye_losers=True,
            ),
        )
        for n in range(players):
            p = roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=f"Player {n + 1}")
            )
            roster.enter_player(session, actor=actor, event_id=event.id, player_id=p.id)
        draws.make_draw(session, actor=actor, flight_id=main.id, method="random", seed=seed)
        draws.publish_draw(session, actor=actor, flight_id=main.id)
    return user.email, event.id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--matches", type=int, default=40, help="matches to play game by game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        engine = make_engine(url)
        schema.upgrade(engine)
        email, event_id = build(engine, args.players, args.seed)
        app = create_app(
            {
                "TESTING": True,
                "DATABASE_URL": url,
                "SECRET_KEY": "bench",
                "CSRF_ENABLED": False,
                "PASSWORD_HASH_PROFILE": "fast",
                "INSTANCE_PATH": tmp,
            },
            engine=engine,
        )
        client = app.test_client()
        client.post("/login", data={"email": email, "password": PASSWORD})
        rng = random.Random(args.seed)

        trivial: list[float] = []
        for _ in range(200):
            start = time.perf_counter()
            client.get("/healthz")
            trivial.append(time.perf_counter() - start)

        plain: list[float] = []
        finishing: list[float] = []
        played = 0
        while played < args.matches:
            with transaction(engine) as session:
                from sqlmodel import col, select

                match = session.exec(
                    select(Match)
                    .join(Flight, col(Flight.id) == Match.flight_id)
                    .where(Flight.event_id == event_id, Match.status == MatchStatus.READY.value)
                    .order_by(col(Match.id))
                ).first()
                if match is None:
                    break
                event = session.get(Event, event_id)
            assert match is not None and event is not None
            while True:
                with transaction(engine) as session:
                    row = session.get(Match, match.id)
                    assert row is not None
                    if row.status not in (MatchStatus.READY.value, MatchStatus.PLAYING.value):
                        break
                    state = progress.match_state(
                        event, row, progress.games_of(session, row.id or 0)
                    )
                    version = row.version
                entry = random_game(state, rng)
                data = {
                    "version": str(version),
                    "winner": "a" if entry.winner is Side.X else "b",
                    "end": entry.end.value,
                    "cube": str(entry.cube),
                    "level": "" if entry.level is None else entry.level.name.lower(),
                }
                start = time.perf_counter()
                response = client.post(f"/director/matches/{match.id}/games", data=data)
                elapsed = time.perf_counter() - start
                assert response.status_code == 302, response.get_data(as_text=True)[:500]
                after = add_game_finishes(state, entry)
                (finishing if after else plain).append(elapsed)
            played += 1
        engine.dispose()

    ref = statistics.median(trivial)
    every = plain + finishing
    print(
        f"128-player knockout with consolation: {args.players} players, {played} matches, "
        f"{len(every)} game entries on SQLite"
    )
    print(f"{'request':<34}{'median ms':>10}{'p95 ms':>10}{'× trivial':>11}")
    for label, times in (
        ("GET /healthz (reference)", trivial),
        ("game entry, match goes on", plain),
        ("game entry that ends the match", finishing),
        ("every game entry", every),
    ):
        med = statistics.median(times)
        p95 = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
        print(f"{label:<34}{med * 1000:>10.1f}{p95 * 1000:>10.1f}{med / ref:>11.1f}")
    print(f"target: under 50 ms per game entry; median {statistics.median(every) * 1000:.1f} ms")


def add_game_finishes(state: object, entry: object) -> bool:
    """Whether this entry ends the match (so the bracket moves on)."""
    from tourney.match import add_game

    return add_game(state, entry).is_over  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
