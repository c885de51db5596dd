"""Concurrent result entry: gunicorn (4 workers), 16 writers, loopback only, bounded in time.

Builds 24 knockout flights of 128 players (3-point matches, 1,536 first-round matches) on a
fresh database, serves the app with gunicorn, and lets 16 writer threads enter results
through the JSON API with an API token for ``--seconds`` (default 60): each writer owns
its own matches and enters them, in turn, game by game, as a final score, or as a
``.mat`` record upload. A 503 with ``Retry-After`` (the database was busy; nothing was
saved) is retried after the pause it asks for; any other 5xx is a server error.

Afterwards it compares the writes the server acknowledged with what the database holds
and prints a table. Exits non-zero on a server error or a lost write.

    python -P bench/load.py [--seconds 60] [--database-url postgresql+psycopg://...]

Without ``--database-url`` it runs on a fresh SQLite file in a temporary folder; a
PostgreSQL database given must be empty (create one for the run and drop it after).
"""

from __future__ import annotations

import argparse
import http.client
import json
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlmodel import col, func, select  # noqa: E402

from bench.http import serve  # noqa: E402
from tourney.store import access, accounts, draws, events, roster, schema  # noqa: E402
from tourney.store.audit import Actor  # noqa: E402
from tourney.store.db import make_engine, read_session, transaction  # noqa: E402
from tourney.store.passwords import make_hasher  # noqa: E402
from tourney.store.progress import DONE, flight_matches  # noqa: E402
from tourney.store.tables import Game, Match, MatchStatus, UploadedRecord  # noqa: E402

WRITERS = 16
FLIGHTS = 24
PLAYERS = 128
LENGTH = 3
RECORD = ROOT / "tests/data/records/gnubg/gnubg_L03_s1187.mat"
RECORD_PLAYERS = ("GnubgA", "GnubgB")
MAX_RETRY_PAUSE_S = 2.0
MODES = ("games", "score", "record")


@dataclass(frozen=True)
class Assignment:
    """A match a writer enters, and how."""

    match_id: int
    mode: str


@dataclass
class Tally:
    """What the writers saw, added up under a lock."""

    acknowledged: Counter[str] = field(default_factory=Counter)
    games_by_match: Counter[int] = field(default_factory=Counter)
    busy_retries: int = 0
    server_errors: Counter[int] = field(default_factory=Counter)
    refused: Counter[int] = field(default_factory=Counter)
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def build(url: str) -> tuple[str, list[Assignment]]:
    """A director with an API token and the flights; returns the token and the matches."""
    engine = make_engine(url)
    schema.upgrade(engine)
    cli = Actor.cli()
    with transaction(engine) as session:
        director = accounts.create_user(
            session,
            actor=cli,
            email="director@load.example",
            name="Director",
            password="load test password",
            role="director",
            hasher=make_hasher("fast"),
        )
    actor = director.actor
    with transaction(engine) as session:
        _, token = access.create_api_token(session, actor=actor, name="load")
        players = [
            roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=f"Player{n:03d}")
            ).id
            for n in range(1, PLAYERS + 1)
        ]
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Load", is_public=True)
        )
        flights = []
        for number in range(1, FLIGHTS + 1):
            flight = events.add_flight(
                session,
                actor=actor,
                event_id=event.id,
                fields=events.FlightFields(
                    name=f"Flight {number}", format="knockout", match_length=LENGTH
                ),
            )
            flights.append(flight.id)
    with transaction(engine) as session:
        for pid in players:
            roster.enter_player(session, actor=actor, event_id=event.id, player_id=pid)
    with transaction(engine) as session:
        for flight_id in flights:
            draws.make_draw(session, actor=actor, flight_id=flight_id, method="random")
            draws.publish_draw(session, actor=actor, flight_id=flight_id)
    assignments = []
    with read_session(engine) as session:
        for flight_id in flights:
            for match in flight_matches(session, flight_id):
                if match.status == MatchStatus.READY.value:
                    mode = MODES[len(assignments) % len(MODES)]
                    assignments.append(Assignment(match.id or 0, mode))
    engine.dispose()
    return token, assignments


def _send(
    connection: http.client.HTTPConnection, token: str, path: str, body: object, tally: Tally
) -> dict[str, object] | None:
    """POST ``body`` until it is not answered 503; the answer's JSON when it was 2xx."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    while True:
        connection.request("POST", path, body=json.dumps(body), headers=headers)
        response = connection.getresponse()
        payload = response.read()
        with tally.lock:
            tally.requests += 1
        retry_after = response.getheader("Retry-After")
        if response.status == 503 and retry_after is not None:
            with tally.lock:
                tally.busy_retries += 1
            time.sleep(min(float(retry_after), MAX_RETRY_PAUSE_S))
            continue
        if response.status >= 500:
            with tally.lock:
                tally.server_errors[response.status] += 1
            return None
        if response.status >= 300:
            with tally.lock:
                tally.refused[response.status] += 1
            return None
        answer: dict[str, object] = json.loads(payload)
        return answer


def _enter(
    connection: http.client.HTTPConnection, token: str, match: Assignment, tally: Tally
) -> None:
    """Enter one match's result in its mode, counting the acknowledged writes."""
    base = f"/api/v1/matches/{match.match_id}"
    if match.mode == "score":
        if _send(connection, token, f"{base}/score", {"score_a": LENGTH, "score_b": 1}, tally):
            with tally.lock:
                tally.acknowledged["score"] += 1
        return
    if match.mode == "record":
        connection.request("GET", base)
        detail = json.loads(connection.getresponse().read())["match"]
        names = (detail["a"]["name"], detail["b"]["name"])
        text = RECORD.read_text(encoding="utf-8")
        for ours, theirs in zip(RECORD_PLAYERS, names, strict=True):
            text = text.replace(ours, theirs)
        answer = _send(connection, token, f"{base}/record", {"content": text}, tally)
        if answer is not None and answer.get("ok"):
            with tally.lock:
                tally.acknowledged["record"] += 1
        return
    version = None
    for _ in range(LENGTH):
        game = {"winner": "a", "end": "played", "cube": 1, "expected_version": version}
        answer = _send(connection, token, f"{base}/games", game, tally)
        if answer is None:
            return
        with tally.lock:
            tally.acknowledged["game"] += 1
            tally.games_by_match[match.match_id] += 1
        detail = answer["match"]
        assert isinstance(detail, dict)
        version = detail["version"]


def drive(port: int, token: str, assignments: list[Assignment], seconds: float) -> Tally:
    """Run the writers until the time is up or their matches are all entered."""
    tally = Tally()
    deadline = time.monotonic() + seconds

    def writer(mine: list[Assignment]) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for match in mine:
            if time.monotonic() >= deadline:
                break
            _enter(connection, token, match, tally)
        connection.close()

    threads = [
        threading.Thread(target=writer, args=(assignments[n::WRITERS],)) for n in range(WRITERS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def stored(url: str, tally: Tally, assignments: list[Assignment]) -> dict[str, int]:
    """What the database holds of each kind of write the writers made."""
    by_mode = {mode: [a.match_id for a in assignments if a.mode == mode] for mode in MODES}
    engine = make_engine(url)
    with read_session(engine) as session:
        games = session.exec(
            select(func.count()).select_from(Game).where(col(Game.match_id).in_(by_mode["games"]))
        ).one()
        finished = 0
        for match_id in by_mode["score"]:
            match = session.get(Match, match_id)
            finished += match is not None and match.status in DONE
        records = session.exec(
            select(func.count())
            .select_from(UploadedRecord)
            .where(col(UploadedRecord.is_valid).is_(True))
        ).one()
    engine.dispose()
    return {"game": int(games), "score": finished, "record": int(records)}


def run(label: str, url: str, seconds: float) -> bool:
    """Build, serve, drive and check one database; True when nothing was lost or failed."""
    started = time.perf_counter()
    token, assignments = build(url)
    print(f"\n{label}: built {len(assignments)} matches in {time.perf_counter() - started:.0f} s")
    with tempfile.TemporaryDirectory() as folder:
        process, port = serve(url, Path(folder))
        try:
            started = time.perf_counter()
            tally = drive(port, token, assignments, seconds)
            elapsed = time.perf_counter() - started
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    held = stored(url, tally, assignments)
    print(f"{WRITERS} writers for {elapsed:.0f} s: {tally.requests} requests "
          f"({tally.requests / elapsed:.0f}/s), {tally.busy_retries} busy 503s retried")
    print(f"{'write':<8} {'acknowledged':>12} {'stored':>8}")
    lost = False
    for kind in ("game", "score", "record"):
        acknowledged = tally.acknowledged[kind]
        lost |= acknowledged != held[kind]
        print(f"{kind:<8} {acknowledged:12d} {held[kind]:8d}")
    errors = sum(tally.server_errors.values())
    print(f"server errors: {errors} {dict(tally.server_errors) or ''}".rstrip())
    if tally.refused:
        print(f"refused (4xx): {dict(tally.refused)}")
    return errors == 0 and not lost and not tally.refused


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default SQLite)")
    args = parser.parse_args()
    if args.database_url:
        ok = run("PostgreSQL", args.database_url, args.seconds)
    else:
        with tempfile.TemporaryDirectory() as folder:
            ok = run("SQLite", f"sqlite:///{folder}/load.db", args.seconds)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
