"""Recompute a club's FIBS rating list from 100,000 random matches; target: under 5 s.

Three timings, each the fastest of three runs: the replay alone (``compute_ratings`` on
``RatedMatch`` values), reading the same matches as a results list (CSV) and replaying
them, and the whole command (``python -m tourney ratings compute FILE --json``, start-up
included). Each is printed with its ratio to the 5 s target. The reference measured in
the same run is the formula applied match by match through ``rating_change`` over the
same sorted list: the replay's inlined loop should be no slower than it.

Run: ``.venv/bin/python -P bench/ratings.py [--matches 100000] [--players 2000] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tourney.formats.ratings import RatedMatch, compute_ratings, rating_change
from tourney.store.rating_sources import HEADER, read_results_list

TARGET_SECONDS = 5.0
RUNS = 3


def random_matches(count: int, players: int, seed: int) -> list[RatedMatch]:
    """``count`` matches among ``players`` over about four years, in random file order."""
    rng = random.Random(seed)
    names = [f"Player {n:05}" for n in range(players)]
    start = datetime(2021, 1, 1, tzinfo=UTC)
    out = []
    for _ in range(count):
        a, b = rng.sample(names, 2)
        when = start + timedelta(minutes=rng.randrange(4 * 365 * 24 * 60))
        out.append(RatedMatch(when, a, b, rng.choice([1, 3, 5, 7, 9, 11, 13]), rng.choice([a, b])))
    return out


def results_list(matches: list[RatedMatch]) -> bytes:
    lines = [",".join(HEADER)]
    lines.extend(
        f"{m.finished_at.isoformat()},{m.player_a},{m.player_b},{m.length},{m.winner}"
        for m in matches
    )
    return ("\n".join(lines) + "\n").encode("utf-8")


def by_rating_change(matches: list[RatedMatch]) -> dict[str, float]:
    """The reference: one ``rating_change`` call per match, in finishing order."""
    rating: dict[str, float] = {}
    experience: dict[str, int] = {}
    for m in sorted(matches, key=lambda m: m.finished_at):
        loser = m.loser
        gain, loss = rating_change(
            rating.get(m.winner, 1500.0), rating.get(loser, 1500.0), m.length,
            winner_experience=experience.get(m.winner, 0),
            loser_experience=experience.get(loser, 0),
        )
        rating[m.winner] = rating.get(m.winner, 1500.0) + gain
        rating[loser] = rating.get(loser, 1500.0) - loss
        experience[m.winner] = experience.get(m.winner, 0) + m.length
        experience[loser] = experience.get(loser, 0) + m.length
    return rating


def fastest(fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        began = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    matches = random_matches(args.matches, args.players, args.seed)
    data = results_list(matches)
    ours = {r.player: r.rating for r in compute_ratings(matches)}
    reference = by_rating_change(matches)
    agree = max(abs(ours[p] - reference[p]) for p in reference) < 1e-9
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        path.write_bytes(data)
        command = [sys.executable, "-m", "tourney", "ratings", "compute", str(path), "--json"]
        timings = [
            ("replay (compute_ratings)", fastest(lambda: compute_ratings(matches))),
            ("read CSV + replay", fastest(
                lambda: compute_ratings(read_results_list(str(path), path.read_bytes()))
            )),
            ("tourney ratings compute", fastest(
                lambda: subprocess.run(command, check=True, capture_output=True)
            )),
        ]
        ref_seconds = fastest(lambda: by_rating_change(matches))
    print(f"{args.matches:,} matches among {args.players:,} players, results list "
          f"{len(data) / 1e6:.1f} MB; fastest of {RUNS} runs")
    for label, seconds in timings:
        print(f"{label:>26}: {seconds:6.3f} s = {seconds / TARGET_SECONDS:.3f} of the "
              f"{TARGET_SECONDS:.0f} s target ({TARGET_SECONDS / seconds:.1f}x under it)")
    replay = timings[0][1]
    print(f"{'reference (rating_change)':>26}: {ref_seconds:6.3f} s; replay is "
          f"{ref_seconds / replay:.2f}x its speed; same ratings to 1e-9: {agree}")
    return 0 if all(seconds < TARGET_SECONDS for _, seconds in timings) else 1


if __name__ == "__main__":
    sys.exit(main())
