"""Round-robin schedules (Berger tables) and pools that feed a knockout.

Terminology: in a *round robin* everyone plays everyone once. A *Berger table* is the
classic schedule made by the circle method: with n players (one dummy added when n is
odd, whose opponent has the bye) there are n - 1 rounds; the last player stays put and
the others rotate. *Pools* split a field into round robins played side by side, whose
top finishers may *qualify* for a knockout (``tourney.formats.stages`` places them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tourney.formats.errors import FormatUserError
from tourney.formats.model import Bye, EntrantId, Pairing
from tourney.rules.messages import Message


def berger_schedule(entrants: Sequence[EntrantId]) -> tuple[tuple[Pairing | Bye, ...], ...]:
    """Every round of a round robin, the Berger table for ``entrants`` in order.

    For four players the rounds are 1-4 2-3, 4-3 1-2, 2-4 3-1, as the published tables
    give them. With an odd number, whoever meets the missing last player has a bye.

    Raises:
        FormatUserError: fewer than two entrants, or an entrant listed twice.
    """
    if len(entrants) < 2:
        raise FormatUserError(Message(
            "A round robin needs at least 2 players; %(count)s entered.",
            count=len(entrants),
        ))
    if len(set(entrants)) != len(entrants):
        raise FormatUserError(Message("An entrant appears twice in the round robin."))
    players: list[EntrantId | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    circle = n - 1
    fixed = players[-1]
    rounds: list[tuple[Pairing | Bye, ...]] = []
    for r in range(circle):
        # The player at the centre of round r meets the fixed player; the centre moves
        # on by n/2 places each round, which reproduces the published Berger tables and
        # alternates the fixed player's side.
        centre = (r * n // 2) % circle
        pairs: list[tuple[EntrantId | None, EntrantId | None]] = [
            (players[centre], fixed) if r % 2 == 0 else (fixed, players[centre])
        ]
        for i in range(1, n // 2):
            pairs.append((players[(centre + i) % circle], players[(centre - i) % circle]))
        rounds.append(tuple(_pairing(a, b) for a, b in pairs))
    return tuple(rounds)


def _pairing(a: EntrantId | None, b: EntrantId | None) -> Pairing | Bye:
    if a is None:
        assert b is not None
        return Bye(b)
    if b is None:
        return Bye(a)
    return Pairing(a, b)


def snake_pools(entrants: Sequence[EntrantId], pools: int) -> tuple[tuple[EntrantId, ...], ...]:
    """Split a field (best first) into pools by snake seeding: 1..k, then k..1, and so on.

    Raises:
        FormatUserError: fewer than two players per pool.
    """
    if pools < 1 or len(entrants) < 2 * pools:
        raise FormatUserError(
            Message(
                "%(count)s players cannot make %(pools)s pools of at least 2 players.",
                count=len(entrants), pools=pools,
            )
        )
    out: list[list[EntrantId]] = [[] for _ in range(pools)]
    for i, entrant in enumerate(entrants):
        lap, offset = divmod(i, pools)
        out[offset if lap % 2 == 0 else pools - 1 - offset].append(entrant)
    return tuple(tuple(pool) for pool in out)


def split_pools(
    entrants: Sequence[EntrantId], pools: int, *, shuffle_seed: int | None = None
) -> tuple[tuple[EntrantId, ...], ...]:
    """Split a field (best seed first) into pools: snake-seeded, or shuffled from
    ``shuffle_seed`` first (a random split, the pool sizes as even as snake seeding's).

    Raises:
        FormatUserError: fewer than two players per pool.
    """
    order = list(entrants)
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(order)
    return snake_pools(order, pools)


def pools_schedule(
    pools: Sequence[Sequence[EntrantId]],
) -> tuple[tuple[Pairing | Bye, ...], ...]:
    """Every round of several round robins played side by side: round r holds round r of
    each pool's Berger table, pool by pool (a smaller pool has fewer rounds).

    Raises:
        FormatUserError: a pool of fewer than two players, or an entrant listed twice.
    """
    tables = [berger_schedule(pool) for pool in pools]
    rounds = max((len(table) for table in tables), default=0)
    return tuple(
        tuple(p for table in tables if r < len(table) for p in table[r]) for r in range(rounds)
    )
