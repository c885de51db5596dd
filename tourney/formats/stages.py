"""Stages: a qualifying flight (round-robin pools or a Swiss) whose top finishers make
up a knockout's field, and where those qualifiers are placed in its bracket.

Terminology:
    stage link   a knockout takes its field from a *qualifying stage*: the top K of each
                 pool of a round robin, or the top K of a Swiss (:class:`StageLink`).
    pool         one round robin of a flight split in several; pools are named A, B, C …
    qualifier    an entrant through to the knockout, known by where it finished
                 (:class:`Qualifier`): its pool and place (``A1``, ``B2``), or its place
                 in the Swiss (``Swiss 3rd``). A qualifier is an entrant, whatever the
                 entrant is (a player, later a team).
    cut          the line under the K-th place. A *tie at the cut* is a shared rank
                 that straddles it: the stage's tiebreaks could not say who goes through.
                 It is resolved by table order (:attr:`CutTies.TIEBREAKS`) or by the
                 director naming who goes through (:attr:`CutTies.DIRECTOR`).
    cross-over   pool winners meet runners-up of other pools in the first round
                 (A1-B2, B1-A2, C1-D2, D1-C2 for four pools of two qualifiers); no first
                 round match is between players of the same pool.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatUserError
from tourney.formats.model import EntrantId, Standing
from tourney.rules.messages import N_, Message, PluralMessage


class CutTies(Enum):
    """How a tie at the cut is resolved."""

    TIEBREAKS = "tiebreaks"
    """By the stage's tiebreaks; a tie they leave is taken in table order."""
    DIRECTOR = "director"
    """The director names who goes through (after a playoff, a draw of lots …)."""

    @property
    def label(self) -> str:
        """How a form offers the choice."""
        return _CUT_LABELS[self]


_CUT_LABELS = {
    CutTies.TIEBREAKS: N_("By the stage's tiebreaks"),
    CutTies.DIRECTOR: N_("The director decides (a playoff)"),
}


class PoolSeeding(Enum):
    """How a round robin's players are split into pools."""

    SNAKE = "snake"
    """By entry seed, snake-wise: 1 to A, 2 to B … then back from the last pool."""
    RANDOM = "random"
    """Shuffled from the draw seed, then dealt snake-wise (pool sizes as even)."""

    @property
    def label(self) -> str:
        """How a form offers the choice."""
        return _SEEDING_LABELS[self][0]

    @property
    def summary(self) -> str:
        """How a flight's summary says it: ``snake-seeded``, ``at random``."""
        return _SEEDING_LABELS[self][1]

    @property
    def shuffles(self) -> bool:
        """The split is random, from the draw seed."""
        return self is PoolSeeding.RANDOM


_SEEDING_LABELS = {
    PoolSeeding.SNAKE: (N_("Snake-seeded by entry seed"), N_("snake-seeded")),
    PoolSeeding.RANDOM: (N_("At random (from the draw seed)"), N_("at random")),
}


def find_pool_seeding(key: str) -> PoolSeeding:
    """The way of making pools stored as ``key``.

    Raises:
        FormatUserError: no such way.
    """
    try:
        return PoolSeeding(key)
    except ValueError:
        raise FormatUserError(
            Message("Unknown way of making pools: %(key)s.", key=repr(key))
        ) from None


def find_cut_ties(key: str) -> CutTies:
    """The way of resolving ties at the cut stored as ``key``.

    Raises:
        FormatUserError: no such way.
    """
    try:
        return CutTies(key)
    except ValueError:
        raise FormatUserError(Message(
            "Unknown way of resolving ties at the cut: %(key)s.",
            key=repr(key),
        )) from None


def pool_name(index: int) -> str:
    """The pool at ``index`` as pages and messages name it, in the reader's language.

    >>> pool_name(1)
    Message('Pool %(letter)s', letter='B')
    """
    return Message("Pool %(letter)s", letter=pool_label(index))


def pool_label(index: int) -> str:
    """The name of the pool at ``index`` (from 0): A … Z, then AA, AB …

    >>> [pool_label(i) for i in (0, 1, 25, 26, 27)]
    ['A', 'B', 'Z', 'AA', 'AB']
    """
    letters = ""
    n = index + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th`` …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True, slots=True)
class Qualifier:
    """An entrant through to the knockout, with where it finished."""

    entrant: EntrantId
    place: int
    """Its place in its pool or in the Swiss, from 1."""
    pool: int | None = None
    """Its pool (from 0), or ``None`` for a Swiss."""

    @property
    def origin(self) -> str:
        """Where it qualified from: ``A1``, ``B2`` or ``Swiss 3rd``."""
        if self.pool is None:
            return f"Swiss {ordinal(self.place)}"
        return f"{pool_label(self.pool)}{self.place}"


@dataclass(frozen=True)
class StageLink:
    """A knockout's field from a qualifying stage, as stored on the knockout."""

    pools: int
    """The stage's pools (1 for a Swiss or a round robin of one table)."""
    per_pool: int
    """K: how many qualify from each pool (from the Swiss)."""
    ties: CutTies = CutTies.TIEBREAKS

    @property
    def qualifiers(self) -> int:
        """How many players the knockout gets."""
        return self.pools * self.per_pool


def check_stage_link(link: StageLink) -> None:
    """Refuse a link that could never give a knockout to draw.

    Raises:
        FormatUserError: K below 1, no pools, or fewer than two qualifiers in all.
    """
    if link.per_pool < 1:
        raise FormatUserError(Message("At least one player must qualify from each pool."))
    if link.pools < 1:
        raise FormatUserError(Message("A round robin has at least one pool."))
    if link.qualifiers < 2:
        raise FormatUserError(
            Message(
                "%(qualifiers)s qualifier cannot make a knockout: at least 2 must qualify.",
                qualifiers=link.qualifiers,
            )
        )


def check_pool_sizes(sizes: Sequence[int], per_pool: int) -> None:
    """Refuse pools too small for ``per_pool`` to qualify from each.

    Raises:
        FormatUserError: a pool has fewer players than qualify from it, naming it.
    """
    for index, size in enumerate(sizes):
        if size < per_pool:
            raise FormatUserError(
                Message(
                    "Pool %(pool_label)s has %(players)s; %(per_pool)s cannot qualify from it.",
                    pool_label=pool_label(index), players=_players(size), per_pool=per_pool,
                )
            )


def _players(count: int) -> Message:
    return PluralMessage("%(count)s player", "%(count)s players", count)


@dataclass(frozen=True)
class TieAtCut:
    """Players sharing the rank that straddles the cut, of whom ``places`` go through."""

    pool: int | None
    tied: tuple[EntrantId, ...]
    places: int

    @property
    def where(self) -> str:
        """``Pool B`` or ``the Swiss`` (for messages)."""
        return N_("the Swiss") if self.pool is None else pool_name(self.pool)


@dataclass(frozen=True)
class Cut:
    """Who goes through from one table, best first, and an undecided tie at the cut."""

    qualifiers: tuple[Qualifier, ...]
    tie: TieAtCut | None = None
    """Set when the director decides and has not (yet) named enough of the tied players;
    ``qualifiers`` then holds only those placed above the tie."""


def cut_table(
    table: Sequence[Standing],
    per_pool: int,
    *,
    ties: CutTies = CutTies.TIEBREAKS,
    picks: Collection[EntrantId] = (),
    pool: int | None = None,
) -> Cut:
    """The top ``per_pool`` of a table (best first), with the tie at the cut resolved.

    With :attr:`CutTies.TIEBREAKS` a rank the tiebreaks left shared is taken in table
    order. With :attr:`CutTies.DIRECTOR` the players of ``picks`` among those tied at
    the cut go through; until exactly as many as there are places are picked the tie is
    returned undecided. Places are counted 1, 2, 3 … in the order players go through.

    Raises:
        FormatUserError: the table has fewer rows than places.
    """
    if len(table) < per_pool:
        where = N_("The Swiss") if pool is None else pool_name(pool)
        raise FormatUserError(
            Message(
                "%(where)s has %(players)s; %(per_pool)s cannot qualify from it.",
                where=where, players=_players(len(table)), per_pool=per_pool,
            )
        )
    if per_pool < 1:
        return Cut(())
    chosen = list(table[:per_pool])
    boundary = table[per_pool - 1]
    straddles = per_pool < len(table) and table[per_pool].rank == boundary.rank
    if straddles and ties is CutTies.DIRECTOR:
        above = [row for row in table if row.rank < boundary.rank]
        tied = [row for row in table if row.rank == boundary.rank]
        places = per_pool - len(above)
        picked = [row for row in tied if row.entrant in picks]
        if len(picked) != places:
            return Cut(
                _places(above, pool),
                TieAtCut(pool, tuple(row.entrant for row in tied), places),
            )
        chosen = above + picked
    return Cut(_places(chosen, pool))


def _places(rows: Sequence[Standing], pool: int | None) -> tuple[Qualifier, ...]:
    return tuple(
        Qualifier(row.entrant, place, pool) for place, row in enumerate(rows, start=1)
    )


def swiss_positions(qualifiers: Sequence[Qualifier]) -> tuple[EntrantId | None, ...]:
    """Swiss qualifiers seeded by finishing place into the standard bracket order."""
    ordered = sorted(qualifiers, key=lambda q: q.place)
    return ko.seeded_positions([q.entrant for q in ordered])


def pool_seeds(pools: Sequence[Sequence[Qualifier]]) -> tuple[Qualifier, ...]:
    """Pool qualifiers as knockout seeds 1, 2, 3 …, so that the standard seeded bracket
    never pairs two players of one pool in its first round (when that can be avoided).

    Every pool winner is seeded ahead of every runner-up, and so on down the places:
    the winners are spread apart as the top seeds are, and where the field fills the
    bracket the winners meet the lowest place that qualifies. Within a place the pools
    are ordered so that each player's first opponent comes from another pool, the
    partner pool first (A with B, C with D; the last of an odd number with the first):
    for K=2 that is the standard cross-over A1-B2, B1-A2.

    Raises:
        FormatUserError: the pools do not all give the same number of qualifiers.
    """
    if not pools:
        return ()
    per_pool = len(pools[0])
    if any(len(pool) != per_pool for pool in pools):
        raise FormatUserError(Message("Every pool must give the same number of qualifiers."))
    count = len(pools) * per_pool
    if count < 2:
        return tuple(q for pool in pools for q in pool)
    size = ko.bracket_size(count)
    order = ko.seeding_order(size)
    # The seed each seed meets in the first round (``None``: a bye).
    opponent: dict[int, int | None] = {}
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        opponent[a] = b if b <= count else None
        opponent[b] = a if a <= count else None
    npools = len(pools)
    pool_of_seed: dict[int, int] = {}
    for place in range(per_pool):
        slots = list(range(place * npools + 1, (place + 1) * npools + 1))
        assignment = _assign_tier(slots, npools, opponent, pool_of_seed)
        pool_of_seed.update(assignment)
    return tuple(
        pools[pool_of_seed[seed]][(seed - 1) // npools] for seed in range(1, count + 1)
    )


def _partner(pool: int, npools: int) -> int:
    """The pool a pool is crossed with: A with B, C with D …; an odd last one with A."""
    partner = pool ^ 1
    return partner if partner < npools else 0


def _assign_tier(
    slots: Sequence[int],
    npools: int,
    opponent: dict[int, int | None],
    pool_of_seed: dict[int, int],
) -> dict[int, int]:
    """Give each seed of one place a different pool, avoiding the pool of a first-round
    opponent placed already (a better seed): greedily from the partner pool, then by one
    swap where the greedy choice left a seed only its opponent's pool."""
    forbidden: dict[int, int | None] = {}
    for slot in slots:
        other = opponent.get(slot)
        forbidden[slot] = pool_of_seed.get(other) if other is not None else None
    free = set(range(npools))
    assignment: dict[int, int] = {}
    stuck: list[int] = []
    for slot in slots:
        banned = forbidden[slot]
        start = _partner(banned, npools) if banned is not None else len(assignment) % npools
        choice = next(
            (
                (start + step) % npools
                for step in range(npools)
                if (start + step) % npools in free and (start + step) % npools != banned
            ),
            None,
        )
        if choice is None:
            stuck.append(slot)
            continue
        assignment[slot] = choice
        free.discard(choice)
    for slot in stuck:
        left = free.pop()
        for other, pool in assignment.items():
            if pool != forbidden[slot] and left != forbidden[other]:
                assignment[slot], assignment[other] = pool, left
                break
        else:
            # Every pool left meets its own pool (a single pool): nothing better exists.
            assignment[slot] = left
    return assignment


def pool_positions(pools: Sequence[Sequence[Qualifier]]) -> tuple[EntrantId | None, ...]:
    """Pool qualifiers placed in a knockout's draw positions (``None`` a bye): the
    seeds of :func:`pool_seeds` in the standard seeding order, byes to the top seeds."""
    return ko.seeded_positions([q.entrant for q in pool_seeds(pools)])
