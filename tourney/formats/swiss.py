"""Swiss pairing: one round at a time, for fixed-round and "lives" Swiss events.

Terminology
-----------
record
    What groups players for pairing. In a fixed-round Swiss it is the number of match
    wins (``record="wins"``). In a lives Swiss (MoreSwiss, the ABT's "triple
    elimination": out after L losses) it is the number of losses, i.e. the lives left
    (``record="losses"``): that is what decides who is eliminated, and it stays right when
    byes do not count as wins or a late entrant starts with a director-set record. When
    every continuing player has played every round and byes count as wins, the two
    groupings are the same.
score
    The record as one integer where higher is better: ``wins``, or ``-losses``.
score group
    All players with the same score. Two score groups are *adjacent* when no group
    scores between them. The *record distance* of a pairing is the difference of the two
    scores (0 inside a group).
out-of-group player (floater)
    A player paired with someone from another score group.
rematch
    A pairing of two players who already met in this event (``played``).
bye
    A round off for one player of an odd field.
field
    Everyone entered in a drawn flight with their record so far: wins, losses, whether
    they had a bye, whether they are still active (:class:`SwissField`).

The pairing rule (DESIGN §4) is a lexicographic objective; :func:`pair_round` returns a
pairing that minimises, in this order:

1. the number of rematches;
2. whether the bye goes to a player who already had one;
3. the score of the bye player (the bye goes to the lowest score group possible);
4. the sum over all pairings of the squared record distance;
5. the number of out-of-group players;
6. the sum of record distances over all pairings;
7. the bye player's place from the bottom (the lowest-placed eligible player gets it).

Squaring the distance makes players float only to the adjacent group wherever rematches
allow: a lone 3-0 leader meets a 2-1 player, and when that leaves a 2-1 player over, that
one meets a 1-2 player (two floats of distance 1: squares 1 + 1), rather than the leader
meeting a 1-2 player (one float of distance 2: square 4), although that moves fewer
players.

So the bye never forces an avoidable rematch, and among equally good pairings the choice
is random from ``seed`` (``order="random"``) or follows ratings (``order="rating"``):
inside a group the top half by rating meets the bottom half (1 v m/2+1, 2 v m/2+2, as in
the Dutch system), moved as little as rematches require; a player floating down is the
lowest-rated of their group and meets the highest-rated of the group below. Missing
ratings sort last; equal ratings keep the caller's standings order.

How it is computed
------------------
Ignoring rematches, the optimum of criteria 4-6 is known in closed form
(:meth:`_Field.lower_bound` derives it): one pairing crosses each boundary between
adjacent score groups with an odd number of players above it, always between those two
groups, and no pairing crosses any other boundary. The pairing is built to meet that
bound: each group sends one member down across such a boundary below it and receives
one across such a boundary above it (a group that does both passes a different member
down), and every group is matched internally without rematches by a randomised greedy
pass with augmenting swaps. This is near-linear work, and when it meets the bound (with
the best-placed bye candidate) the result is *proved* optimal, since no pairing can do
better than the bound. Otherwise fields of at most :data:`EXACT_LIMIT` players are
solved exactly by a maximum-weight perfect matching (networkx, blossom algorithm) on the
complete graph whose weights encode the whole objective; larger fields re-solve exactly
only the windows of score groups around the trouble (small groups whole, large groups
by a sample), and :attr:`SwissRound.optimal` says whether the bound was met.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import networkx as nx

from tourney.formats.errors import FormatInvariantError, FormatUserError
from tourney.formats.model import EntrantId, MatchOutcome
from tourney.rules.messages import Message

ORDERS: Final = ("random", "rating")
"""Values accepted for ``order``."""

RECORDS: Final = ("wins", "losses")
"""Values accepted for ``record``: fixed-round Swiss and lives Swiss."""

EXACT_LIMIT: Final = 64
"""Largest field solved on the complete graph when the fast pairing is not proved optimal."""

_UNMATCHED: Final = -1
_BYE: Final = -2
_SMALL_GROUP: Final = 16
_SAMPLE: Final = 10
_WINDOW_CAP: Final = 100
_ATTEMPTS: Final = 4


@dataclass(frozen=True)
class SwissEntrant:
    """One active player as the pairing sees them."""

    id: int
    wins: int
    losses: int
    rating: float | None = None
    had_bye: bool = False
    """Whether the player already had a bye in this event."""


@dataclass(frozen=True, order=True)
class PairingCost:
    """The pairing objective; instances compare in the order the rule ranks them."""

    rematches: int
    repeat_bye: int
    """1 when the bye goes to a player who already had one."""
    bye_score: int
    """The bye player's score above the lowest score in the field (0 without a bye)."""
    squared_distance: int
    """Sum over pairings of the squared score difference."""
    floaters: int
    """Players paired outside their score group."""
    record_distance: int
    """Sum over pairings of the score difference."""
    bye_place: int
    """The bye player's place counted from the bottom (0 = lowest-placed)."""


@dataclass(frozen=True)
class SwissRound:
    """The pairings of one round and how good they are."""

    pairings: tuple[tuple[int, int], ...]
    """Each pairing names the better-placed player first; boards in standings order."""
    bye: int | None
    rematches: int
    squared_distance: int
    """Sum over pairings of the squared score difference."""
    floaters: int
    """Players paired outside their score group."""
    record_distance: int
    """Sum over pairings of the score difference."""
    optimal: bool
    """Whether the pairing is proved to minimise the objective (always for small fields)."""
    method: str
    """``"bound"`` (meets the lower bound), ``"exact"`` (complete-graph matching) or
    ``"window"`` (exact on the trouble windows of a large field)."""
    cost: PairingCost


def default_round_count(n: int) -> int:
    """The default number of rounds of a fixed-round Swiss: ceil(log2 n).

    Raises:
        FormatUserError: fewer than two players.
    """
    if n < 2:
        raise FormatUserError(Message("A Swiss needs at least two players; %(n)s entered.", n=n))
    return math.ceil(math.log2(n))


def is_alive(entrant: SwissEntrant, lives: int) -> bool:
    """Whether a player in a lives Swiss still has a life (fewer than ``lives`` losses)."""
    return entrant.losses < lives


def alive_entrants(entrants: Iterable[SwissEntrant], lives: int) -> list[SwissEntrant]:
    """The players of a lives Swiss who are still in, in the order given.

    Raises:
        FormatUserError: ``lives`` is below 1.
    """
    _check_lives(lives)
    return [e for e in entrants if is_alive(e, lives)]


def is_round_due(entrants: Iterable[SwissEntrant], lives: int) -> bool:
    """Whether a lives Swiss plays another round: more than one player has lives left.

    Raises:
        FormatUserError: ``lives`` is below 1.
    """
    return len(alive_entrants(entrants, lives)) > 1


def _check_lives(lives: int) -> None:
    if lives < 1:
        raise FormatUserError(Message(
            "A lives Swiss needs at least one life per player, not %(lives)s.",
            lives=lives,
        ))


def score_of(entrant: SwissEntrant, record: str = "wins") -> int:
    """The entrant's score for grouping: wins, or minus the losses in a lives Swiss."""
    return entrant.wins if record == "wins" else -entrant.losses


# --- the field of a drawn flight ------------------------------------------------------


@dataclass(frozen=True)
class FieldEntry:
    """A player entered in a drawn flight, with the record they start from."""

    entrant: EntrantId
    wins: int = 0
    """Match wins a late entrant starts with (set by the director)."""
    losses: int = 0
    active: bool = True
    """``False`` once the player has withdrawn."""


@dataclass(frozen=True)
class RoundMatch:
    """A match of a drawn round as recorded; ``b`` is ``None`` for a bye."""

    round: int
    a: EntrantId
    b: EntrantId | None
    winner: EntrantId | None = None
    """The winner once decided; for a bye, its player."""
    score: tuple[int, int] = (0, 0)
    length: int = 0
    half_score: tuple[int, int] | None = None
    """The score in half points where ½-½ draws gave halves; ``None``: twice ``score``."""


@dataclass(frozen=True)
class SwissRecord:
    """One player's record in a drawn flight."""

    entrant: EntrantId
    wins: int
    losses: int
    had_bye: bool
    active: bool


@dataclass(frozen=True)
class SwissField:
    """Where a drawn flight stands: records, pairs that have met, and outcomes.

    ``outcomes`` are what the standings take: decided matches, byes where they count as
    wins, and each starting win of a late entrant as a bye of round 0.
    """

    records: tuple[SwissRecord, ...]
    played: frozenset[frozenset[EntrantId]]
    outcomes: tuple[MatchOutcome, ...]


def swiss_field(
    entries: Iterable[FieldEntry],
    matches: Iterable[RoundMatch],
    *,
    bye_is_win: bool,
    byes_recorded: bool = True,
) -> SwissField:
    """The field after the recorded matches, from the entries' starting records.

    A bye marks its player as having had one, and with ``bye_is_win`` counts as a match
    win once every match of its round has a winner: a published, unplayed round changes
    nobody's record. A round robin's schedule gives its byes to nobody's record
    (``byes_recorded=False``). Matches without a winner yet change no record, but a pair
    that has been drawn counts as met.
    """
    entries = list(entries)
    matches = list(matches)
    unplayed_rounds = {m.round for m in matches if m.b is not None and m.winner is None}
    wins = {e.entrant: e.wins for e in entries}
    losses = {e.entrant: e.losses for e in entries}
    had_bye = dict.fromkeys(wins, False)
    played: set[frozenset[EntrantId]] = set()
    outcomes = [MatchOutcome(0, e.entrant, None, e.entrant) for e in entries for _ in range(e.wins)]
    for match in matches:
        if match.b is None:
            if byes_recorded and match.winner is not None:
                had_bye[match.a] = True
                if bye_is_win and match.round not in unplayed_rounds:
                    wins[match.a] += 1
                    outcomes.append(
                        MatchOutcome(match.round, match.a, None, match.a, (0, 0), match.length)
                    )
            continue
        played.add(frozenset((match.a, match.b)))
        if match.winner is not None:
            wins[match.winner] += 1
            losses[match.b if match.winner == match.a else match.a] += 1
            outcomes.append(
                MatchOutcome(
                    match.round, match.a, match.b, match.winner, match.score, match.length,
                    match.half_score,
                )
            )
    records = tuple(
        SwissRecord(e.entrant, wins[e.entrant], losses[e.entrant], had_bye[e.entrant], e.active)
        for e in entries
    )
    return SwissField(records, frozenset(played), tuple(outcomes))


def swiss_entrants(records: Iterable[SwissRecord], lives: int | None) -> list[SwissEntrant]:
    """The players still in (active, with a life left in a lives Swiss) as pairing sees them."""
    return [
        SwissEntrant(r.entrant, r.wins, r.losses, had_bye=r.had_bye)
        for r in records
        if r.active and (lives is None or r.losses < lives)
    ]


def round_limit(*, rounds: int | None, lives: int | None, players: int) -> int | None:
    """How many rounds a Swiss plays: the number set, else ceil(log2 players); none on lives."""
    if lives is not None:
        return None
    if rounds is not None:
        return rounds
    return default_round_count(max(players, 2))


def pair_field(
    field: SwissField,
    *,
    ranking: Sequence[EntrantId],
    ratings: Mapping[EntrantId, float | None],
    seed: int,
    by_rating: bool,
    lives: int | None,
) -> SwissRound:
    """Pair the next round of a drawn Swiss from its field.

    The players still in are placed as in ``ranking`` (the standings, best first); a lives
    Swiss groups them by losses. ``by_rating`` pairs by ``ratings`` inside a group rather
    than at random from ``seed``.

    Raises:
        FormatUserError: fewer than two players are still in.
    """
    still_in = swiss_entrants(field.records, lives)
    if len(still_in) < 2:
        raise FormatUserError(
            Message(
                "A Swiss round needs two players still in; there are %(count)s.",
                count=len(still_in),
            )
        )
    place = {entrant: i for i, entrant in enumerate(ranking)}
    entrants = [
        SwissEntrant(e.id, e.wins, e.losses, ratings.get(EntrantId(e.id)), e.had_bye)
        for e in sorted(still_in, key=lambda e: place.get(EntrantId(e.id), 0))
    ]
    return pair_round(
        entrants,
        field.played,
        seed=seed,
        order="rating" if by_rating else "random",
        record="wins" if lives is None else "losses",
    )


def is_next_round_due(
    field: SwissField, *, rounds_drawn: int, rounds: int | None, lives: int | None
) -> bool:
    """Whether a Swiss pairs another round: two players are still in and, unless it runs
    on lives, fewer than its number of rounds have been drawn."""
    if len(swiss_entrants(field.records, lives)) < 2:
        return False
    limit = round_limit(rounds=rounds, lives=lives, players=len(field.records))
    return limit is None or rounds_drawn < limit


class _Field:
    """The players of one round, indexed 0..n-1 in standings order."""

    def __init__(
        self,
        entrants: Sequence[SwissEntrant],
        played: Collection[frozenset[int]],
        record: str,
    ) -> None:
        n = len(entrants)
        self.n = n
        self.ids = [e.id for e in entrants]
        index = {pid: i for i, pid in enumerate(self.ids)}
        if len(index) != n:
            raise FormatInvariantError("pair_round: an entrant id appears twice")
        self.score = [score_of(e, record) for e in entrants]
        self.had_bye = [e.had_bye for e in entrants]
        self.smin = min(self.score)
        self.span = max(self.score) - self.smin
        distinct = sorted(set(self.score), reverse=True)
        rank = {s: g for g, s in enumerate(distinct)}
        self.group = [rank[s] for s in self.score]
        self.groups: list[list[int]] = [[] for _ in distinct]
        for i, g in enumerate(self.group):
            self.groups[g].append(i)
        self.adj: list[set[int]] = [set() for _ in range(n)]
        for pair in played:
            if len(pair) != 2:
                continue
            a, b = sorted(pair)
            ia, ib = index.get(a), index.get(b)
            if ia is not None and ib is not None:
                self.adj[ia].add(ib)
                self.adj[ib].add(ia)
        # Rating order inside each group: higher rating first, missing ratings last,
        # equal ratings in standings order.
        self.rating_pos = [0] * n
        self.rating_sorted: list[list[int]] = []
        for members in self.groups:
            ranked = sorted(
                members,
                key=lambda i: (entrants[i].rating is None, -(entrants[i].rating or 0.0), i),
            )
            self.rating_sorted.append(ranked)
            for pos, i in enumerate(ranked):
                self.rating_pos[i] = pos
        # Bye candidates best first: no bye yet, lowest score, lowest placed.
        self.bye_order = sorted(range(n), key=lambda i: (self.had_bye[i], self.score[i], -i))

    def bye_terms(self, b: int | None) -> tuple[int, int, int]:
        if b is None:
            return (0, 0, 0)
        return (int(self.had_bye[b]), self.score[b] - self.smin, self.n - 1 - b)

    def cost(self, pairs: Iterable[tuple[int, int]], bye: int | None) -> PairingCost:
        rematches = squares = floaters = distance = 0
        for u, v in pairs:
            rematches += v in self.adj[u]
            if self.group[u] != self.group[v]:
                gap = abs(self.score[u] - self.score[v])
                squares += gap * gap
                floaters += 2
                distance += gap
        had, bs, place = self.bye_terms(bye)
        return PairingCost(rematches, had, bs, squares, floaters, distance, place)

    def crossed_boundaries(self, bye: int | None) -> list[tuple[int, int]]:
        """The adjacent groups ``(upper, lower)`` an optimal pairing floats one player
        between, ignoring rematches: those with an odd number of players above them.

        Groups left empty by the bye do not count: the groups around them are adjacent.
        """
        crossed: list[tuple[int, int]] = []
        above = 0
        upper: int | None = None
        for g, members in enumerate(self.groups):
            size = len(members) - (bye is not None and self.group[bye] == g)
            if not size:
                continue
            if upper is not None and above % 2:
                crossed.append((upper, g))
            above += size
            upper = g
        return crossed

    def lower_bound(self, bye: int | None) -> PairingCost:
        """The best objective any pairing with this bye could reach (ignoring rematches).

        Number the boundaries between adjacent non-empty groups (the bye left out) from
        the top; boundary k has width w_k, the score difference of its two groups, and
        c_k pairings cross it. A pairing of distance d crosses the boundaries between its
        two groups, and d is the sum of their widths, so d^2 >= the sum of their squared
        widths, with equality only when it crosses one boundary: between adjacent groups.
        Summed over all pairings, sum d^2 >= sum_k c_k w_k^2. The players above boundary
        k meet each other except for one in each of the c_k pairings across it, so c_k
        has the parity p_k (0 or 1) of the number of players above it, and c_k >= p_k.
        Hence sum d^2 >= sum_k p_k w_k^2 (with unit widths: sum d^2 >= sum d = sum_k c_k
        >= sum_k p_k). Equality needs every c_k = p_k with adjacent pairings only, which
        also fixes the floaters (2 per crossing) and the distance (sum_k p_k w_k). It is
        reached without rematches in mind: a group sends one member down when p_k = 1
        below it and receives one when p_k = 1 above it; its size has the parity of the
        two, so the rest pair inside, and a group that does both has an even size, so at
        least two members: a different one goes down.
        """
        gaps = [
            self.score[self.groups[upper][0]] - self.score[self.groups[lower][0]]
            for upper, lower in self.crossed_boundaries(bye)
        ]
        had, bs, place = self.bye_terms(bye)
        return PairingCost(
            0, had, bs, sum(gap * gap for gap in gaps), 2 * len(gaps), sum(gaps), place
        )


def pairing_cost(
    entrants: Sequence[SwissEntrant],
    played: Collection[frozenset[int]],
    pairings: Iterable[tuple[int, int]],
    bye: int | None,
    *,
    record: str = "wins",
) -> PairingCost:
    """The objective value of a given round (for checking a hand-made or imported pairing).

    Raises:
        FormatUserError: ``record`` is not one of :data:`RECORDS`.
    """
    _check_choice("record", record, RECORDS)
    field = _Field(entrants, played, record)
    index = {pid: i for i, pid in enumerate(field.ids)}
    return field.cost(
        ((index[a], index[b]) for a, b in pairings), None if bye is None else index[bye]
    )


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise FormatUserError(
            Message(
                "Unknown Swiss %(name)s %(value)s; choose one of %(allowed)s.",
                name=name, value=repr(value), allowed=', '.join(allowed),
            )
        )


def pair_round(
    entrants: Sequence[SwissEntrant],
    played: Collection[frozenset[int]],
    *,
    seed: int,
    order: str = "random",
    record: str = "wins",
    allow_rematches: bool = True,
) -> SwissRound:
    """Pair one Swiss round (see the module docstring for the rule and its order).

    ``entrants`` are the active players, best-placed first; ``played`` holds every pair
    that has already met (pairs naming absent players are ignored). The same arguments
    always give the same round.

    Raises:
        FormatUserError: fewer than two players, an unknown ``order`` or ``record``, a
            negative record, or ``allow_rematches=False`` when every pairing repeats a match.
    """
    _check_choice("order", order, ORDERS)
    _check_choice("record", record, RECORDS)
    if len(entrants) < 2:
        raise FormatUserError(
            Message(
                "A Swiss round needs at least two active players; there are %(count)s.",
                count=len(entrants),
            )
        )
    for e in entrants:
        if e.wins < 0 or e.losses < 0:
            raise FormatUserError(Message(
                "Player %(id)s has a negative record (%(wins)s-%(losses)s).",
                id=e.id, wins=e.wins, losses=e.losses,
            ))
    field = _Field(entrants, played, record)
    rng = random.Random(seed)
    bye = field.bye_order[0] if field.n % 2 else None
    bound = field.lower_bound(bye)
    for _ in range(_ATTEMPTS):
        mate = _construct(field, bye, order, rng)
        if _UNMATCHED not in mate:
            break
    method = "bound"
    if _UNMATCHED in mate:
        if field.n <= EXACT_LIMIT:
            pairs, bye = _solve_exact(field, list(range(field.n)), bye is not None, order, rng)
            mate = _mates(field.n, pairs, bye)
            method = "exact"
        else:
            mate, bye = _repair_windows(field, mate, bye, order, rng, bound)
            method = "window"
    pairs = _pairs_of(mate)
    cost = field.cost(pairs, bye)
    optimal = method == "exact" or cost == bound
    if cost.rematches and not allow_rematches:
        raise FormatUserError(
            Message(
                "Every possible pairing repeats an earlier match (%(rematches)s rematch(es) at "
                "best); allow rematches or end the Swiss.",
                rematches=cost.rematches,
            )
        )
    return _round(field, pairs, bye, optimal=optimal, method=method)


def pair_round_exact(
    entrants: Sequence[SwissEntrant],
    played: Collection[frozenset[int]],
    *,
    seed: int,
    order: str = "random",
    record: str = "wins",
) -> SwissRound:
    """Pair a round by one maximum-weight matching on the complete graph (the reference).

    Always optimal but cubic in the field size: a yardstick for :func:`pair_round` in
    tests and benchmarks, not for large events.

    Raises:
        FormatUserError: as :func:`pair_round`.
    """
    _check_choice("order", order, ORDERS)
    _check_choice("record", record, RECORDS)
    if len(entrants) < 2:
        raise FormatUserError(
            Message(
                "A Swiss round needs at least two active players; there are %(count)s.",
                count=len(entrants),
            )
        )
    field = _Field(entrants, played, record)
    rng = random.Random(seed)
    pairs, bye = _solve_exact(field, list(range(field.n)), field.n % 2 == 1, order, rng)
    return _round(field, pairs, bye, optimal=True, method="exact")


def _round(
    field: _Field, pairs: list[tuple[int, int]], bye: int | None, *, optimal: bool, method: str
) -> SwissRound:
    cost = field.cost(pairs, bye)
    ordered = sorted((min(u, v), max(u, v)) for u, v in pairs)
    return SwissRound(
        pairings=tuple((field.ids[u], field.ids[v]) for u, v in ordered),
        bye=None if bye is None else field.ids[bye],
        rematches=cost.rematches,
        squared_distance=cost.squared_distance,
        floaters=cost.floaters,
        record_distance=cost.record_distance,
        optimal=optimal,
        method=method,
        cost=cost,
    )


def _mates(n: int, pairs: Iterable[tuple[int, int]], bye: int | None) -> list[int]:
    mate = [_UNMATCHED] * n
    for u, v in pairs:
        mate[u], mate[v] = v, u
    if bye is not None:
        mate[bye] = _BYE
    return mate


def _pairs_of(mate: list[int]) -> list[tuple[int, int]]:
    pairs = [(u, v) for u, v in enumerate(mate) if v > u]
    if any(v == _UNMATCHED for v in mate):
        raise FormatInvariantError("pair_round left a player unpaired")
    return pairs


# --- the fast construction ------------------------------------------------------------


def _construct(field: _Field, bye: int | None, order: str, rng: random.Random) -> list[int]:
    """Pair to meet the lower bound; players it cannot place stay ``_UNMATCHED``."""
    mate = [_UNMATCHED] * field.n
    if bye is not None:
        mate[bye] = _BYE
    adj = field.adj
    members: list[list[int]] = []
    for g in range(len(field.groups)):
        if order == "rating":
            lst = [i for i in field.rating_sorted[g] if i != bye]
        else:
            lst = [i for i in field.groups[g] if i != bye]
            rng.shuffle(lst)
        members.append(lst)
    crossed = field.crossed_boundaries(bye)
    # Across each crossed boundary the upper group's last member floats down (rating
    # order: the lowest-rated) and meets the lower group's first (the highest-rated).
    # Senders are taken before receivers, so a group that does both passes a different
    # member down; it has at least two (see _Field.lower_bound).
    senders = [members[upper].pop() for upper, _lower in crossed]
    receivers = [
        members[lower].pop(0) if order == "rating" else members[lower].pop()
        for _upper, lower in crossed
    ]
    group_pairs: dict[int, list[tuple[int, int]]] = {}
    for g, lst in enumerate(members):
        pairs, _left = _match_group(lst, adj, order)
        group_pairs[g] = pairs
        for u, v in pairs:
            mate[u], mate[v] = v, u
    for (upper, lower), x, y in zip(crossed, senders, receivers, strict=True):
        if y not in adj[x]:
            mate[x], mate[y] = y, x
            continue
        # Let another member of either group receive or float instead of the chosen one.
        if not _swap_floater(group_pairs[lower], y, x, adj, mate):
            _swap_floater(group_pairs[upper], x, y, adj, mate)
    return mate


def _swap_floater(
    pairs: list[tuple[int, int]], stay: int, other: int, adj: list[set[int]], mate: list[int]
) -> bool:
    """Replace pair (a, b) by (stay, b) and (other, a) when neither is a rematch."""
    for k, (a0, b0) in enumerate(pairs):
        for a, b in ((a0, b0), (b0, a0)):
            if b not in adj[stay] and a not in adj[other]:
                pairs[k] = (stay, b)
                mate[stay], mate[b] = b, stay
                mate[other], mate[a] = a, other
                return True
    return False


def _match_group(
    seq: list[int], adj: list[set[int]], order: str
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair players of one group without rematches; returns the pairs and the leftovers."""
    pairs: list[tuple[int, int]] = []
    pending: list[int] = []
    if order == "rating":
        # Top half against bottom half, each top player taking the free bottom player
        # nearest its slide partner.
        h = len(seq) // 2
        top, bottom = seq[:h], seq[h:]
        free = [True] * len(bottom)
        for i, t in enumerate(top):
            chosen = -1
            for d in range(len(bottom)):
                for j in (i + d, i - d) if d else (i,):
                    if 0 <= j < len(bottom) and free[j] and bottom[j] not in adj[t]:
                        chosen = j
                        break
                if chosen >= 0:
                    break
            if chosen < 0:
                pending.append(t)
            else:
                free[chosen] = False
                pairs.append((t, bottom[chosen]))
        rest = pending + [b for j, b in enumerate(bottom) if free[j]]
        pending = []
    else:
        rest = seq
    # Greedy: each player meets the first waiting player they have not played.
    for x in rest:
        for k, y in enumerate(pending):
            if y not in adj[x]:
                pairs.append((y, x))
                del pending[k]
                break
        else:
            pending.append(x)
    _augment(pairs, pending, adj)
    return pairs, pending


def _augment(pairs: list[tuple[int, int]], left: list[int], adj: list[set[int]]) -> None:
    """Place leftovers u, v by breaking one pair (a, b) into (u, a) and (v, b)."""
    progress = True
    while len(left) >= 2 and progress:
        progress = False
        for iu, u in enumerate(left):
            for iv, v in enumerate(left):
                if iv == iu:
                    continue
                for k, (a0, b0) in enumerate(pairs):
                    for a, b in ((a0, b0), (b0, a0)):
                        if a not in adj[u] and b not in adj[v]:
                            pairs[k] = (u, a)
                            pairs.append((v, b))
                            for x in sorted((iu, iv), reverse=True):
                                del left[x]
                            progress = True
                            break
                    if progress:
                        break
                if progress:
                    break
            if progress:
                break


# --- exact solving ----------------------------------------------------------------------


def _solve_exact(
    field: _Field, nodes: list[int], with_bye: bool, order: str, rng: random.Random
) -> tuple[list[tuple[int, int]], int | None]:
    """Minimum-objective perfect matching of ``nodes`` (plus a bye vertex if asked)."""
    k = len(nodes) + with_bye
    if k % 2:
        raise FormatInvariantError("exact Swiss subproblem with an odd number of players")
    n, span = field.n, field.span
    npairs = k // 2
    tie = 2 * n + 1 if order == "rating" else 64
    w_place = tie * npairs + 1
    w_dist = w_place * n
    w_float = w_dist * (npairs * span + 1)
    w_square = w_float * (2 * npairs + 1)
    w_bye_score = w_square * (npairs * span * span + 1)
    w_bye_had = w_bye_score * (span + 1)
    w_rematch = w_bye_had * 2
    big = w_rematch * 2
    graph = nx.Graph()
    score, group, adj = field.score, field.group, field.adj
    for a in range(len(nodes)):
        u = nodes[a]
        for b in range(a + 1, len(nodes)):
            v = nodes[b]
            cost = w_rematch * (v in adj[u])
            if group[u] != group[v]:
                gap = abs(score[u] - score[v])
                cost += w_square * gap * gap + 2 * w_float + w_dist * gap
            cost += _tiebreak(field, u, v, order, rng)
            graph.add_edge(u, v, weight=big - cost)
    if with_bye:
        for u in nodes:
            had, bs, place = field.bye_terms(u)
            cost = w_bye_had * had + w_bye_score * bs + w_place * place
            graph.add_edge(u, _BYE, weight=big - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) != npairs:
        raise FormatInvariantError("exact Swiss matching is not perfect")
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for u, v in matching:
        if u == _BYE or v == _BYE:
            bye = v if u == _BYE else u
        else:
            pairs.append((u, v))
    return pairs, bye


def _tiebreak(field: _Field, u: int, v: int, order: str, rng: random.Random) -> int:
    if order != "rating":
        return rng.randrange(64)
    pu, pv = field.rating_pos[u], field.rating_pos[v]
    gu, gv = field.group[u], field.group[v]
    if gu == gv:
        return abs(abs(pu - pv) - len(field.groups[gu]) // 2)
    if gu > gv:
        pu, pv, gu = pv, pu, gv
    # Across groups: the upper group's lowest-rated meets the lower group's highest-rated.
    return (len(field.groups[gu]) - 1 - pu) + pv


def _repair_windows(
    field: _Field,
    mate: list[int],
    bye: int | None,
    order: str,
    rng: random.Random,
    bound: PairingCost,
) -> tuple[list[int], int | None]:
    """Re-solve exactly growing windows of score groups around the unplaced players.

    Each window holds its small groups whole and a sample of each large group, closed
    under the current pairs, so every solve keeps the rest of the round and can only
    improve the objective. Growth stops at the lower bound, when the window covers
    every group, or at the window size cap.
    """
    trouble = {field.group[u] for u, m in enumerate(mate) if m == _UNMATCHED}
    last = len(field.groups) - 1
    radius = 1
    while True:
        touched = {h for g in trouble for h in range(max(0, g - radius), min(last, g + radius) + 1)}
        window: set[int] = set()
        for g in sorted(touched):
            members = field.groups[g]
            if len(members) <= _SMALL_GROUP:
                window.update(members)
            else:
                window.update(u for u in members if mate[u] == _UNMATCHED)
                window.update(rng.sample(members, _SAMPLE))
        if bye is not None and field.group[bye] in touched:
            window.add(bye)
        for u in list(window):
            if mate[u] >= 0:
                window.add(mate[u])
        with_bye = bye is not None and bye in window
        nodes = sorted(window) if with_bye else sorted(u for u in window if mate[u] != _BYE)
        pairs, new_bye = _solve_exact(field, nodes, with_bye, order, rng)
        for u, v in pairs:
            mate[u], mate[v] = v, u
        if with_bye:
            bye = new_bye
            if bye is None:
                raise FormatInvariantError("exact Swiss window lost the bye")
            mate[bye] = _BYE
        cost = field.cost(_pairs_of(mate), bye)
        done = len(touched) == last + 1 or len(nodes) >= _WINDOW_CAP
        if done or cost == bound:
            return mate, bye
        radius *= 2
