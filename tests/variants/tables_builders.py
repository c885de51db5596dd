"""Builders for tables-variant tests: positions from the JSON form's layouts, the same
positions as the naive enumerator's physical boards, and positions from random games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from click.testing import CliRunner
from naive_tables import Board, NaiveRules, O, X, absolute, game_over

from tourney.cli import cli
from tourney.rules.dice import Roll
from tourney.rules.layout import BoardLayout, SideLayout
from tourney.rules.variant_protocol import GameVariant, VariantPosition

NAIVE_RULES = {
    "portes": NaiveRules("contrary", "block2"),
    "plakoto": NaiveRules("contrary", "pin", mother_rule=True),
    "fevga": NaiveRules("parallel", "block1", first_checker_must_pass=True,
                        no_full_start_table=True, prime_release=True),
    "russian": NaiveRules("shared", "block2", complement_doubles=True),
    "tapa": NaiveRules("contrary", "pin", mother_rule=True),
    "gul-bara": NaiveRules("parallel", "block1", cascade_from_turn=4, transfer=True),
    "acey-deucey": NaiveRules("contrary", "block2", pool_enter_all_first=False,
                              named_doublet_after_one_two=True),
    "acey-deucey-european": NaiveRules("contrary", "block2", pool_enter_all_first=False,
                                       named_doublet_after_one_two=True,
                                       complement_doubles=True, complement_always=True,
                                       exact_bear_off=True),
    "icelandic": NaiveRules("circular", "capture", checkers=6),
    "chase": NaiveRules("circular", "capture", checkers=6),
    "ad-elta-stelpur": NaiveRules("circular", "capture", checkers=6),
    "asodio": NaiveRules("contrary", "block2", asodio_entry=True,
                         named_doublet_after_one_two=True, exact_bear_off=True),
    # Misère moves as backgammon; only who wins when a side is all off differs.
    "misere": NaiveRules("contrary", "block2"),
    "gioul": NaiveRules("contrary", "block1", cascade_from_turn=1, transfer=True),
    "moultezim": NaiveRules("parallel", "block1", first_checker_must_pass=True,
                            most_points_in_opponent_start=4),
    "jacquet": NaiveRules("parallel", "block1", first_checker_must_pass=True,
                          first_checker_until=6),
    "matador": NaiveRules("parallel", "block1", first_checker_must_pass=True,
                          first_checker_until=6, matador=True),
    "dutch": NaiveRules("contrary", "block2", hit_needs_home=True),
    # Snake differs from backgammon only by White's start and pool (entered first).
    "snake": NaiveRules("contrary", "block2"),
    "american": NaiveRules("quarter", "block1", pool_enter_all_first=False),
}
"""Each variant's rules as VARIANTS.md words them, for the naive enumerator."""


def side(points: Mapping[int, int], *, bar: int = 0, pool: int = 0, pins: tuple[int, ...] = (),
         checkers: int = 15) -> SideLayout:
    """A side with ``points``; every checker not placed, on the bar or in the pool is off."""
    return SideLayout(dict(points), bar, pool, checkers - sum(points.values()) - bar - pool,
                      pins)


def position(variant: GameVariant, mover: SideLayout, opponent: SideLayout) -> VariantPosition:
    """The variant's position of two side layouts, the first on roll."""
    return variant.position_from_layout(BoardLayout(mover, opponent))


def mover_points(variant: GameVariant, after: VariantPosition) -> dict[int, int]:
    """The points of the side that moved, in its own numbering, after a play."""
    return dict(variant.position_layout(after).mover.points)


def layouts(variant: GameVariant, at: object, dice: str) -> list[tuple[dict[int, int], int, int]]:
    """(points, pool, off) of the mover after each legal turn, sorted."""
    found = variant.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    read = [(dict(layout.mover.points), layout.mover.pool, layout.mover.off)
            for layout in (variant.position_layout(after) for after in found)]
    return sorted(read, key=lambda item: (sorted(item[0].items()), item[1], item[2]))


def pips_moved(variant: GameVariant, after: object) -> int:
    """Pips the mover has travelled since the start, a checker in the pool 25 from off."""
    mover = variant.position_layout(after).mover  # type: ignore[arg-type]
    return 15 * 25 - 25 * mover.pool - sum(p * n for p, n in mover.points.items())


def chase_side(*points: int) -> SideLayout:
    """A chase side with one checker on each A-point named; the rest captured."""
    return side(dict.fromkeys(points, 1), checkers=6)


def chase_results(variant: GameVariant, at: object, dice: str) -> list[tuple[list[int], list[int]]]:
    """(mover's A-points, opponent's A-points) after each legal turn, sorted."""
    found = variant.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    read = [(sorted(layout.mover.points), sorted(layout.opponent.points))
            for layout in (variant.position_layout(after) for after in found)]
    return sorted(read)


def rules_cli_from_start(name: str, dice: str) -> tuple[list[dict[str, Any]], str, list[str]]:
    """``rules legal --json``, ``rules show`` and ``rules legal`` from the start of the
    variant ``name``: the JSON positions after ``dice``, the diagram, and the position IDs
    after ``dice``. Each command must succeed."""
    runner = CliRunner()
    legal = runner.invoke(cli, ["rules", "legal", "--variant", name, "--json", "start", dice])
    shown = runner.invoke(cli, ["rules", "show", "--variant", name, "start"])
    plain = runner.invoke(cli, ["rules", "legal", "--variant", name, "start", dice])
    assert (legal.exit_code, shown.exit_code, plain.exit_code) == (0, 0, 0)
    return ([json.loads(line) for line in legal.stdout.splitlines()], shown.stdout,
            plain.stdout.splitlines())


def naive_board(variant: GameVariant, rules: NaiveRules, at: VariantPosition) -> Board:
    """The physical board of a position, the side on roll as X."""
    layout = variant.position_layout(at)
    board = Board([[] for _ in range(25)])
    for name, own in ((X, layout.mover), (O, layout.opponent)):
        board.bar[name], board.pool[name], board.off[name] = own.bar, own.pool, own.off
    # Pinned checkers go to the bottom of their stacks first.
    for name, own in ((X, layout.mover), (O, layout.opponent)):
        for point in own.pins:
            board.stacks[absolute(rules, name, point)].append(name)
    for name, own in ((X, layout.mover), (O, layout.opponent)):
        for point, count in own.points.items():
            pinned = 1 if point in own.pins else 0
            board.stacks[absolute(rules, name, point)].extend([name] * (count - pinned))
    return board


def rules_at(rules: NaiveRules, variant: GameVariant, at: VariantPosition) -> NaiveRules:
    """``rules`` for the side on roll in ``at`` and the results of its turn: in the
    American game, X is White when it has played as many turns as the other side."""
    if rules.geometry != "quarter":
        return rules
    played = variant.position_layout(at).turns_played
    return replace(rules, x_is_white=played[0] == played[1])


def random_turns(variant: GameVariant, rules: NaiveRules, count: int, seed: int
                 ) -> Iterator[tuple[VariantPosition, Roll]]:
    """``count`` (position, roll) pairs met in random games, a new game after each end."""
    rng = random.Random(seed)
    at = variant.initial()
    for _ in range(count):
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        yield at, roll
        results = sorted(variant.legal_positions(at, roll), key=lambda p: p.to_id())
        chosen = rng.choice(results)
        if game_over(naive_board(variant, rules_at(rules, variant, at), chosen), rules, X):
            at = variant.initial()
        else:
            at = chosen.turned()


def random_sparse_positions(variant: GameVariant, rules: NaiveRules, count: int, seed: int,
                            *, most: int = 6, turns: tuple[int, int] = (0, 0)
                            ) -> Iterator[tuple[VariantPosition, Roll]]:
    """``count`` (position, roll) pairs with at most ``most`` checkers a side on the board
    (the rest borne off), never both sides on one point: for games whose doublets
    cascade, where a full board gives a turn hundreds of thousands of results."""
    rng = random.Random(seed)
    for _ in range(count):
        free = list(range(1, 25))
        rng.shuffle(free)
        layouts = []
        for name in (X, O):
            points: dict[int, int] = {}
            for _ in range(rng.randint(1, most)):
                spot = rng.choice(free[:6])
                own = next(p for p in range(1, 25) if absolute(rules, name, p) == spot)
                points[own] = points.get(own, 0) + 1
            for own in points:
                free.remove(absolute(rules, name, own))
            layouts.append(side(points))
        at = variant.position_from_layout(BoardLayout(layouts[0], layouts[1], turns))
        yield at, Roll(rng.randint(1, 6), rng.randint(1, 6))


SPARSE_ONLY = {"gioul": 6}
"""Games whose doublets cascade from the first turn, with the most checkers a side their
sampled positions hold: from a full board one doublet has hundreds of thousands of
results (Gioul's opening 2-2: over 600,000), too many for a random game."""


def sample_turns(name: str, count: int, seed: int) -> Iterator[tuple[VariantPosition, Roll]]:
    """(position, roll) pairs for comparing and checking the variant ``name``: from
    random games, or sparse random positions for the games of :data:`SPARSE_ONLY`."""
    from tourney.rules.variants import variant_named

    variant, rules = variant_named(name), NAIVE_RULES[name]
    if name in SPARSE_ONLY:
        return random_sparse_positions(variant, rules, count, seed, most=SPARSE_ONLY[name])
    return random_turns(variant, rules, count, seed)
