"""Public pages under load: gunicorn (4 workers) on SQLite and PostgreSQL, loopback only.

Builds a 512-player Swiss after 6 rounds (results entered through the result service)
and a 512-player knockout with its first round played, starts gunicorn on the database,
and drives the Swiss pairings and standings pages and the knockout bracket page with a
bounded load generator (a fixed number of requests from 16 concurrent keep-alive
clients), next to the trivial ``/healthz`` endpoint of the same app in the same run.
Prints requests/s, p95 latency and the ratio to the trivial endpoint for each page.

    python bench/http.py [--requests 800] [--backends sqlite,postgresql]

PostgreSQL runs in a throwaway schema of ``TOURNEY_BENCH_PG`` (default the local test
database) that is dropped at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named like the standard library's ``http``: drop its folder from the path
# so that ``import http.client`` finds the standard module.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import http.client  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from tourney.store import draws, events, results, roster, schema  # noqa: E402
from tourney.store.audit import Actor  # noqa: E402
from tourney.store.db import make_engine, read_session, transaction  # noqa: E402
from tourney.store.progress import flight_matches  # noqa: E402
from tourney.store.tables import MatchStatus  # noqa: E402

PLAYERS = 512
SWISS_ROUNDS = 6
CLIENTS = 16
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
ROOT = Path(__file__).resolve().parent.parent


def build(url: str) -> dict[str, str]:
    """Create the two events; returns the page paths to drive."""
    engine = make_engine(url)
    schema.upgrade(engine)
    actor = Actor.cli()
    rng = random.Random(512)
    with transaction(engine) as session:
        players = [
            roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=f"Player {n:03d}")
            ).id
            for n in range(1, PLAYERS + 1)
        ]
        ids = {}
        for name, fmt in (("Big Swiss", "swiss"), ("Big Knockout", "knockout")):
            event = events.create_event(
                session, actor=actor, fields=events.EventFields(name=name, is_public=True)
            )
            flight = events.add_flight(
                session,
                actor=actor,
                event_id=event.id,
                fields=events.FlightFields(
                    name="Main",
                    format=fmt,
                    match_length=5,
                    swiss_rounds=SWISS_ROUNDS if fmt == "swiss" else None,
                    tiebreaks=["buchholz", "net_game_points"] if fmt == "swiss" else [],
                ),
            )
            for pid in players:
                roster.enter_player(session, actor=actor, event_id=event.id, player_id=pid)
            ids[fmt] = (event.id, event.slug, flight.id)
    _, swiss_slug, swiss_flight = ids["swiss"]
    _, ko_slug, ko_flight = ids["knockout"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=swiss_flight, method="random")
        draws.publish_draw(session, actor=actor, flight_id=swiss_flight)
        draws.make_draw(session, actor=actor, flight_id=ko_flight, method="random")
        draws.publish_draw(session, actor=actor, flight_id=ko_flight)
    for number in range(1, SWISS_ROUNDS + 1):
        _play_ready(engine, actor, swiss_flight, rng)
        if number < SWISS_ROUNDS:
            with transaction(engine) as session:
                draws.pair_next_round(session, actor=actor, flight_id=swiss_flight)
                board = draws.publish_draw(session, actor=actor, flight_id=swiss_flight)
    # Round 7 is paired and published but not played: the pairings page shows it.
    with transaction(engine) as session:
        try:
            draws.pair_next_round(session, actor=actor, flight_id=swiss_flight)
            board = draws.publish_draw(session, actor=actor, flight_id=swiss_flight)
        except Exception:  # the flight may be complete after its planned rounds
            board = None
    del board
    _play_ready(engine, actor, ko_flight, rng, only_round=1)
    engine.dispose()
    return {
        "pairings": f"/events/{swiss_slug}/flights/{swiss_flight}",
        "standings": f"/events/{swiss_slug}/flights/{swiss_flight}/standings",
        "bracket": f"/events/{ko_slug}/flights/{ko_flight}",
    }


def _play_ready(
    engine: object, actor: Actor, flight_id: int, rng: random.Random, only_round: int | None = None
) -> None:
    with read_session(engine) as session:  # type: ignore[arg-type]
        ready = [
            m.id for m in flight_matches(session, flight_id) if m.status == MatchStatus.READY.value
        ]
    for match_id in ready:
        score = (5, rng.randint(0, 4)) if rng.random() < 0.5 else (rng.randint(0, 4), 5)
        with transaction(engine) as session:  # type: ignore[arg-type]
            results.record_final_score(
                session, actor=actor, match_id=match_id or 0, score_a=score[0], score_b=score[1]
            )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(url: str, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn with 4 workers on the database, on a free loopback port."""
    port = _free_port()
    env = dict(os.environ)
    env.update(
        TOURNEY_DATABASE_URL=url,
        TOURNEY_SECRET_KEY="bench",
        TOURNEY_INSTANCE_PATH=str(folder),
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            "4",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "tourney.web:create_app()",
        ],
        env=env,
        cwd=ROOT,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return process, port
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("gunicorn did not start")


def drive(port: int, path: str, total: int) -> tuple[float, float]:
    """``total`` GETs of ``path`` from CLIENTS keep-alive clients: (requests/s, p95 ms)."""
    latencies: list[float] = []
    lock = threading.Lock()
    per_client = total // CLIENTS
    errors: list[str] = []

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        for _ in range(per_client):
            start = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            mine.append(time.perf_counter() - start)
            if response.status != 200:
                errors.append(f"{path}: {response.status}")
        conn.close()
        with lock:
            latencies.extend(mine)

    # Warm up: every worker renders the page once for this data version.
    for _ in range(2 * CLIENTS):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        c.request("GET", path)
        c.getresponse().read()
        c.close()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError(f"{len(errors)} failed requests, e.g. {errors[0]}")
    p95 = statistics.quantiles(latencies, n=20)[18] * 1000
    return len(latencies) / elapsed, p95


def run(backend: str, url: str, total: int) -> None:
    started = time.perf_counter()
    pages = build(url)
    print(
        f"\n{backend}: built 512-player Swiss (6 rounds) and knockout in "
        f"{time.perf_counter() - started:.0f} s"
    )
    with tempfile.TemporaryDirectory() as folder:
        process, port = serve(url, Path(folder))
        try:
            trivial_rps, trivial_p95 = drive(port, "/healthz", total)
            print(f"{'page':<10} {'req/s':>8} {'p95 ms':>8} {'ratio':>7}")
            print(f"{'trivial':<10} {trivial_rps:8.0f} {trivial_p95:8.1f} {1:7.2f}")
            for name, path in pages.items():
                rps, p95 = drive(port, path, total)
                flag = "" if rps >= 0.3 * trivial_rps and p95 < 100 else "  (below target)"
                print(f"{name:<10} {rps:8.0f} {p95:8.1f} {rps / trivial_rps:7.2f}{flag}")
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=800)
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    for backend in args.backends.split(","):
        if backend == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                run("SQLite", f"sqlite:///{folder}/bench.db", args.requests)
        elif backend == "postgresql":
            base = os.environ.get("TOURNEY_BENCH_PG", PG_DEFAULT)
            name = f"bench_{uuid.uuid4().hex[:10]}"
            admin = create_engine(base, isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.execute(text(f'CREATE SCHEMA "{name}"'))
            url = make_url(base).update_query_dict({"options": f"-csearch_path={name}"})
            try:
                run("PostgreSQL", url.render_as_string(hide_password=False), args.requests)
            finally:
                with admin.connect() as connection:
                    connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
                admin.dispose()


if __name__ == "__main__":
    main()
