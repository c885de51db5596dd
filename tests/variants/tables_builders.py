"""Builders for tables-variant tests: positions from the JSON form's layouts, the same
positions as the naive enumerator's physical boards, and positions from random games."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from naive_tables import Board, NaiveRules, O, X, absolute, game_over

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
    # Misère moves as backgammon; only who wins when a side is all off differs.
    "misere": NaiveRules("contrary", "block2"),
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
        if game_over(naive_board(variant, rules, chosen), rules, X):
            at = variant.initial()
        else:
            at = chosen.turned()
