"""Move generation speed: our rules core against OpenSpiel's, on the same work.

For a fixed random sample of (position, roll) pairs reached by random play, both engines
produce the set of distinct positions the legal plays reach; the script prints plays per
second for each and the ratio. It also times ``check_play`` on a legal play that uses
every die against a full generation for the same position and roll.

    .venv/bin/python bench/movegen.py [--positions 1500] [--rolls 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "variants"))

from openspiel_oracle import random_samples, rolls_from
from tables_builders import NAIVE_RULES, SPARSE_ONLY

from tourney.rules import Position, Roll, check_play, legal_plays, legal_positions
from tourney.rules.moves import max_dice_playable


def openspiel_results(rolled: object) -> int:
    """Distinct results OpenSpiel reaches from a rolled state (both halves of a doublet)."""
    mover = rolled.current_player()  # type: ignore[attr-defined]
    seen: set[str] = set()
    for action in rolled.legal_actions():  # type: ignore[attr-defined]
        half = rolled.clone()  # type: ignore[attr-defined]
        half.apply_action(action)
        if not half.is_terminal() and not half.is_chance_node() and half.current_player() == mover:
            for second in half.legal_actions():
                full = half.clone()
                full.apply_action(second)
                seen.add(str(full))
        else:
            seen.add(str(half))
    return len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--rolls", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with-gioul", action="store_true",
                        help="also time Gioul (on sparse positions; can take many minutes)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    work: list[tuple[Position, Roll, object]] = []
    for sample in random_samples(args.seed, args.positions):
        for roll, rolled in rolls_from(sample, rng, args.rolls):
            work.append((sample.position, roll, rolled))

    started = time.perf_counter()
    ours_total = sum(len(legal_positions(position, roll)) for position, roll, _ in work)
    ours_seconds = time.perf_counter() - started

    started = time.perf_counter()
    theirs_total = sum(openspiel_results(rolled) for _, _, rolled in work)
    theirs_seconds = time.perf_counter() - started

    print(f"(position, roll) pairs: {len(work)}; distinct results: ours {ours_total}, "
          f"OpenSpiel {theirs_total}")
    ours_rate, theirs_rate = ours_total / ours_seconds, theirs_total / theirs_seconds
    print(f"ours      {ours_seconds:8.3f} s  {ours_rate:12,.0f} plays/s")
    print(f"OpenSpiel {theirs_seconds:8.3f} s  {theirs_rate:12,.0f} plays/s")
    print(f"ratio ours/OpenSpiel: {ours_rate / theirs_rate:.2f}")

    full_plays = []
    for position, roll, _ in work:
        if max_dice_playable(position, roll) == len(roll.moves):
            full_plays.append((position, roll, rng.choice(legal_plays(position, roll))))
    started = time.perf_counter()
    for position, roll, play in full_plays:
        check_play(position, roll, play)
    check_seconds = time.perf_counter() - started
    started = time.perf_counter()
    for position, roll, _ in full_plays:
        legal_positions(position, roll)
    generate_seconds = time.perf_counter() - started
    print(f"check_play on {len(full_plays)} full legal plays: {check_seconds:.3f} s; "
          f"full generation for the same: {generate_seconds:.3f} s; "
          f"ratio check/generate: {check_seconds / generate_seconds:.3f}")
    nardy_line(rng, len(work), ours_rate)
    for name in (*VARIANT_LINES, *(("gioul",) if args.with_gioul else ())):
        variant_line(name, rng, len(work), ours_rate)


def nardy_line(rng: random.Random, count: int, standard_rate: float) -> None:
    """Long-nardy plays per second on positions from random games, and the ratio to
    standard backgammon's rate measured above."""
    from tourney.rules.nardy import NardyPosition, legal_nardy_positions

    work: list[tuple[NardyPosition, Roll]] = []
    position = NardyPosition.initial()
    while len(work) < count:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        work.append((position, roll))
        results = sorted(legal_nardy_positions(position, roll), key=lambda p: p.mover)
        position = rng.choice(results)
        position = position.turned() if any(position.mover[1:]) else NardyPosition.initial()
    started = time.perf_counter()
    total = sum(len(legal_nardy_positions(p, roll)) for p, roll in work)
    seconds = time.perf_counter() - started
    rate = total / seconds
    print(f"long nardy {seconds:7.3f} s  {rate:12,.0f} plays/s on {len(work)} positions; "
          f"ratio to standard: {rate / standard_rate:.2f}")


def _is_over(variant: object, position: object) -> bool:
    """Whether a game is over: won, or (Plakoto) drawn by two pinned mothers."""
    from tourney.rules.tables import Outcome, TablesPosition, tables_outcome

    engine = getattr(getattr(variant, "engine", None), "engine", None)
    if engine is not None and isinstance(position, TablesPosition):
        return tables_outcome(engine, position) is not Outcome.PLAYING
    return variant.winning_level(position) is not None  # type: ignore[attr-defined]


VARIANT_LINES = ("portes", "plakoto", "fevga", "russian", "tapa", "gul-bara", "acey-deucey",
                 "acey-deucey-european", "asodio", "icelandic", "chase", "ad-elta-stelpur",
                 "misere", "moultezim", "jacquet", "matador", "dutch", "snake", "american")
"""Variants timed through the registry, each on positions from its own random games.
Gioul is not timed by default (``--with-gioul``): even on sparse positions a cascade that
fails early hands up to 23 values to the opponent, whose search takes minutes."""


def variant_line(name: str, rng: random.Random, count: int, standard_rate: float) -> None:
    """Plays per second of one registered variant on positions from random games, and
    its cost per play against standard backgammon's (1.00: the same; 2.00: twice).
    Games whose doublets cascade from the first turn are timed on sparse random
    positions (at most six checkers a side on the board) instead: a random game from the
    start meets turns of hundreds of thousands of results."""
    from tables_builders import random_sparse_positions

    from tourney.rules.variants import variant_named

    variant = variant_named(name)
    work = []
    if name in SPARSE_ONLY:
        work = list(random_sparse_positions(variant, NAIVE_RULES[name], count, seed=1,
                                            most=SPARSE_ONLY[name]))
    position = variant.initial()
    while len(work) < count:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        work.append((position, roll))
        results = sorted(variant.legal_positions(position, roll), key=lambda p: p.to_id())
        chosen = rng.choice(results)
        position = variant.initial() if _is_over(variant, chosen) else chosen.turned()
    started = time.perf_counter()
    total = sum(len(variant.legal_positions(p, roll)) for p, roll in work)
    seconds = time.perf_counter() - started
    rate = total / seconds
    sample = "sparse positions" if name in SPARSE_ONLY else "positions"
    print(f"{name:<20} {seconds:7.3f} s  {rate:12,.0f} plays/s on {len(work)} {sample}; "
          f"cost per play against standard: {standard_rate / rate:.2f}")


if __name__ == "__main__":
    main()
