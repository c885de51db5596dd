"""A 10,000-player event: entering the players, drawing, pairing and every page, timed.

Builds the event through the store's use cases as the app does: 10,000 roster players
registered, then entered in the event (``bulk_entry.enter_players``, one transaction,
as the entries page's "Enter selected" does; ``--one-by-one`` enters them one
transaction each with ``roster.enter_player``), the top 32 seeded after entry, a
knockout with a consolation flight drawn and published, and a Swiss flight whose first
round is paired. Then it opens each director page and each public page through the
Flask test client and prints, for every step, its seconds, its target and "OK" or
"over".

    python -P bench/scale.py [--players 10000] [--pg postgresql+psycopg://...]
                             [--backends sqlite,postgresql] [--one-by-one]

SQLite runs on a fresh file in a temporary folder. PostgreSQL runs when ``--pg`` or
``TOURNEY_TEST_DATABASE_URL`` names a database, in a throwaway schema dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import Engine, make_url  # noqa: E402
from sqlmodel import select  # noqa: E402

from tourney.store import accounts, bulk_entry, draws, events, roster, schema  # noqa: E402
from tourney.store.audit import Actor  # noqa: E402
from tourney.store.db import make_engine, transaction  # noqa: E402
from tourney.store.passwords import make_hasher  # noqa: E402
from tourney.store.tables import Entry  # noqa: E402
from tourney.web import create_app  # noqa: E402

PASSWORD = "scale bench password"
FIRST = ["Anna", "Bjørn", "Chloé", "Dmitri", "Eva", "Finn", "Grete", "Hiro", "Ines", "Jonas"]
LAST = ["Ødegård", "O'Brien", "Müller", "Rossi", "Nakamura", "Silva", "Larsen", "Novak"]


@dataclass(frozen=True)
class Target:
    """A step of the bench and the seconds it must stay under."""

    label: str
    seconds: float


@dataclass
class Timings:
    """What the run measured, in order."""

    rows: list[tuple[Target, float]]

    @contextmanager
    def time(self, label: str, seconds: float) -> Iterator[None]:
        """Time the block as the step ``label`` with its target."""
        start = time.perf_counter()
        yield
        took = time.perf_counter() - start
        self.rows.append((Target(label, seconds), took))
        print(f"  {label}: {took:.3f} s", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Built:
    """The event the bench built."""

    event_id: int
    slug: str
    knockout_id: int
    consolation_id: int
    swiss_id: int
    director_email: str


def _names(count: int) -> list[str]:
    rng = random.Random(count)
    return [f"{rng.choice(FIRST)} {rng.choice(LAST)} {n:05d}" for n in range(1, count + 1)]


def build(engine: Engine, players: int, one_by_one: bool, timings: Timings) -> Built:
    """The director, the roster, the event and its flights; entering, draw and pairing timed."""
    schema.upgrade(engine)
    with transaction(engine) as session:
        director = accounts.create_user(
            session,
            actor=Actor.cli(),
            email="director@scale.example",
            name="Director",
            password=PASSWORD,
            role="director",
            hasher=make_hasher("fast"),
        )
    actor = director.actor
    rng = random.Random(7)
    with transaction(engine) as session:
        ids = [
            roster.register_player(
                session,
                actor=actor,
                fields=roster.PlayerFields(name=name, rating=round(rng.gauss(1500, 200), 1)),
            ).id
            for name in _names(players)
        ]
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Scale Open", is_public=True)
        )

        def flight(name: str, fmt: str, **extra: object) -> int:
            fields = events.FlightFields(name=name, format=fmt, match_length=5, **extra)  # type: ignore[arg-type]
            return events.add_flight(session, actor=actor, event_id=event.id, fields=fields).id

        knockout = flight("Main", "knockout")
        consolation = flight("Consolation", "knockout", feeds_from_id=knockout)
        swiss = flight("Swiss", "swiss", swiss_rounds=14)
    seeded = {player_id: n for n, player_id in enumerate(ids[:32], start=1)}
    with timings.time(f"enter {players} players", 30.0):
        if one_by_one:
            for player_id in ids:
                with transaction(engine) as session:
                    roster.enter_player(
                        session,
                        actor=actor,
                        event_id=event.id,
                        player_id=player_id,
                        seed=seeded.get(player_id),
                    )
        else:
            with transaction(engine) as session:
                bulk_entry.enter_players(session, actor=actor, event_id=event.id, player_ids=ids)
            with transaction(engine) as session:
                entry_of = {
                    player_id: entry_id
                    for player_id, entry_id in session.exec(
                        select(Entry.player_id, Entry.id).where(Entry.event_id == event.id)
                    )
                }
            for player_id, seed in seeded.items():
                with transaction(engine) as session:
                    bulk_entry.set_seed(
                        session, actor=actor, entry_id=entry_of[player_id] or 0, seed=seed
                    )
    with timings.time("knockout draw + consolation", 5.0), transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=knockout, method="seeded", seed=1)
    with timings.time("knockout publish", 5.0), transaction(engine) as session:
        draws.publish_flight(session, actor=actor, flight_id=knockout)
    with timings.time("Swiss first round pairing", 5.0), transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=swiss, seed=1)
    with transaction(engine) as session:
        draws.publish_flight(session, actor=actor, flight_id=swiss)
    return Built(event.id, event.slug, knockout, consolation, swiss, director.email)


def pages(app: Flask, built: Built, timings: Timings) -> None:
    """Open every page once, cold (the first request also warms the templates)."""
    client = app.test_client()
    answer = client.post("/login", data={"email": built.director_email, "password": PASSWORD})
    assert answer.status_code == 302, answer.status_code
    client.get("/healthz")
    first_match = _first_match(app, built.knockout_id)
    director: list[tuple[str, str]] = [
        ("director: event page", f"/director/events/{built.event_id}"),
        ("director: entries page", f"/director/events/{built.event_id}/entries"),
        ("director: entries search", f"/director/events/{built.event_id}/entries?q=rossi"),
        ("director: knockout flight page", f"/director/flights/{built.knockout_id}"),
        ("director: Swiss flight page", f"/director/flights/{built.swiss_id}"),
        (
            "director: match list (round 1, page 3)",
            f"/director/flights/{built.knockout_id}?round=1&page=3",
        ),
        ("director: a match", f"/director/matches/{first_match}"),
    ]
    slug = built.slug
    public: list[tuple[str, str]] = [
        ("public: event home", f"/events/{slug}"),
        ("public: find a player", f"/events/{slug}/players?q=obrien"),
        ("public: knockout bracket", f"/events/{slug}/flights/{built.knockout_id}"),
        (
            "public: bracket round 1, part 5",
            f"/events/{slug}/flights/{built.knockout_id}/rounds/1?part=5",
        ),
        ("public: consolation bracket", f"/events/{slug}/flights/{built.consolation_id}"),
        ("public: Swiss pairings", f"/events/{slug}/flights/{built.swiss_id}"),
        ("public: Swiss standings", f"/events/{slug}/flights/{built.swiss_id}/standings"),
        ("public: knockout standings", f"/events/{slug}/flights/{built.knockout_id}/standings"),
    ]
    for label, path in director + public:
        with timings.time(label, 1.0):
            answer = client.get(path)
        if answer.status_code != 200:
            raise SystemExit(f"{path} answered {answer.status_code}")
    home = f"/events/{slug}"
    with timings.time("public: event home again (cached)", 0.1):
        client.get(home)
    version = _data_version(app, built.event_id)
    with timings.time("public: poll, nothing changed (204)", 0.05):
        answer = client.get(f"{home}?since={version}")
    assert answer.status_code == 204, answer.status_code


def _first_match(app: Flask, flight_id: int) -> int:
    from tourney.store.progress import flight_matches
    from tourney.web.deps import reading

    with app.app_context(), reading() as session:
        return next(
            m.id or 0 for m in flight_matches(session, flight_id) if m.entry_b_id is not None
        )


def _data_version(app: Flask, event_id: int) -> int:
    from tourney.store.tables import Event
    from tourney.web.deps import reading

    with app.app_context(), reading() as session:
        found = session.get(Event, event_id)
        assert found is not None
        return found.data_version


def run(label: str, url: str, players: int, one_by_one: bool) -> bool:
    """Build and time on one database; print the table; whether every step was in time."""
    timings = Timings([])
    engine = make_engine(url)
    try:
        built = build(engine, players, one_by_one, timings)
        with tempfile.TemporaryDirectory() as instance:
            app = create_app(
                {
                    "DATABASE_URL": url,
                    "SECRET_KEY": "scale-bench",
                    "CSRF_ENABLED": False,
                    "PASSWORD_HASH_PROFILE": "fast",
                    "INSTANCE_PATH": instance,
                },
                engine=engine,
            )
            pages(app, built, timings)
    finally:
        engine.dispose()
    return report(label, players, timings)


def report(label: str, players: int, timings: Timings) -> bool:
    """Print the table of one database; whether every step met its target."""
    print(f"\n{label}: {players} players")
    print(f"{'step':<42} {'seconds':>9} {'target':>8}  verdict")
    ok = True
    for target, seconds in timings.rows:
        verdict = "OK" if seconds < target.seconds else "over"
        ok = ok and verdict == "OK"
        print(f"{target.label:<42} {seconds:>9.3f} {target.seconds:>8.2f}  {verdict}")
    return ok


@contextmanager
def scratch_schema(base: str) -> Iterator[str]:
    """A throwaway PostgreSQL schema of ``base``; yields the URL that uses it."""
    name = f"scale_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{name}"'))
    try:
        url = make_url(base).update_query_dict({"options": f"-csearch_path={name}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--pg", default=os.environ.get("TOURNEY_TEST_DATABASE_URL", ""))
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--one-by-one", action="store_true")
    args = parser.parse_args()
    ok = True
    backends = args.backends.split(",")
    if "sqlite" in backends:
        with tempfile.TemporaryDirectory() as folder:
            ok = run("SQLite", f"sqlite:///{folder}/scale.db", args.players, args.one_by_one) and ok
    if "postgresql" in backends:
        if not args.pg:
            print("\nPostgreSQL: skipped (give --pg URL or TOURNEY_TEST_DATABASE_URL)")
        else:
            with scratch_schema(args.pg) as url:
                ok = run("PostgreSQL", url, args.players, args.one_by_one) and ok
    print("\nall within target" if ok else "\nsome steps over target")


if __name__ == "__main__":
    main()
