"""Time one Swiss round for fields of 64 to 10,000 players with realistic histories.

Each field first plays some rounds paired by ``pair_round`` itself, with results drawn
from an Elo-style win probability (byes count as wins), so the score groups, byes and
rematch constraints look like a real event; then the next round is paired and timed.
Histories: ``fixed`` = ceil(log2 n) - 1 rounds (the last round of a standard Swiss);
``long`` = 2 ceil(log2 n) rounds (small, much-played groups at the top and bottom, where
rematches bite); ``lives 3`` = 5 rounds of a three-lives Swiss, paired by losses, with
the players out of lives gone. At 256 players the same round is also paired by one networkx
``max_weight_matching`` on the complete graph with weights encoding the same objective
(``pair_round_exact``), and the table compares time, rematches, squared record distances
and out-of-group players.

Run: ``.venv/bin/python bench/swiss.py [--sizes 64,256,1000,10000] [--seed 1]``
"""

from __future__ import annotations

import argparse
import math
import random
import time

from tourney.formats.swiss import SwissEntrant, SwissRound, pair_round, pair_round_exact


def history(
    n: int, rounds: int, seed: int, lives: int | None = None
) -> tuple[list[SwissEntrant], set[frozenset[int]]]:
    """Play ``rounds`` Swiss rounds of ``n`` players; return the standings and met pairs.

    With ``lives``, players out of lives drop out and rounds are paired by losses.
    """
    rng = random.Random(seed)
    record = "wins" if lives is None else "losses"
    rating = {i: rng.gauss(1500.0, 200.0) for i in range(1, n + 1)}
    wins = dict.fromkeys(rating, 0)
    losses = dict.fromkeys(rating, 0)
    had_bye = dict.fromkeys(rating, False)
    played: set[frozenset[int]] = set()
    for r in range(rounds):
        field = standings(rating, wins, losses, had_bye, lives)
        result = pair_round(field, played, seed=seed * 1000 + r, record=record)
        if result.bye is not None:
            had_bye[result.bye] = True
            wins[result.bye] += 1
        for a, b in result.pairings:
            played.add(frozenset((a, b)))
            p_a = 1.0 / (1.0 + 10 ** ((rating[b] - rating[a]) / 400.0))
            winner, loser = (a, b) if rng.random() < p_a else (b, a)
            wins[winner] += 1
            losses[loser] += 1
    return standings(rating, wins, losses, had_bye, lives), played


def standings(
    rating: dict[int, float],
    wins: dict[int, int],
    losses: dict[int, int],
    had_bye: dict[int, bool],
    lives: int | None = None,
) -> list[SwissEntrant]:
    """Active entrants best first: fewest losses (lives), most wins, then rating."""
    active = [i for i in rating if lives is None or losses[i] < lives]
    order = sorted(active, key=lambda i: (losses[i], -wins[i], -rating[i]))
    return [SwissEntrant(i, wins[i], losses[i], rating[i], had_bye[i]) for i in order]


def timed(fn: object, *args: object, **kwargs: object) -> tuple[SwissRound, float]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)  # type: ignore[operator]
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,256,1000,10000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-at", type=int, default=256)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    header = (
        f"{'history':>7} {'players':>8} {'played':>6} {'groups':>6} {'time/round':>11} "
        f"{'method':>7} {'optimal':>7} {'rematch':>7} {'squares':>7} {'floaters':>8} "
        f"{'distance':>8}"
    )
    print(header)
    print("-" * len(header))
    reference: list[str] = []
    for kind in ("fixed", "long", "lives 3"):
        for n in sizes:
            log = math.ceil(math.log2(n))
            lives = 3 if kind == "lives 3" else None
            record = "wins" if lives is None else "losses"
            rounds = {"fixed": log - 1, "long": 2 * log, "lives 3": 5}[kind]
            field, played = history(n, rounds, args.seed, lives)
            groups = len({(e.wins if lives is None else e.losses) for e in field})
            result, seconds = timed(pair_round, field, played, seed=args.seed, record=record)
            print(
                f"{kind:>7} {len(field):>8} {rounds:>6} {groups:>6} {seconds * 1000:>9.1f}ms "
                f"{result.method:>7} {result.optimal!s:>7} {result.rematches:>7} "
                f"{result.squared_distance:>7} {result.floaters:>8} {result.record_distance:>8}"
            )
            if n == args.reference_at:
                exact, ref_seconds = timed(
                    pair_round_exact, field, played, seed=args.seed, record=record
                )
                reference.append(
                    f"{kind} at {len(field)} players: networkx complete graph {ref_seconds:.2f}s, "
                    f"pair_round {seconds * 1000:.1f}ms, ratio {ref_seconds / seconds:.0f}x; "
                    "(networkx vs pair_round) "
                    f"rematches {exact.rematches} vs {result.rematches}, squared distance "
                    f"{exact.squared_distance} vs {result.squared_distance}, out-of-group players "
                    f"{exact.floaters} vs {result.floaters}, record distance "
                    f"{exact.record_distance} vs {result.record_distance}; "
                    f"same objective: {exact.cost == result.cost}"
                )
    for line in reference:
        print(line)


if __name__ == "__main__":
    main()
