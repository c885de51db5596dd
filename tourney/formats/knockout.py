"""Knockout draws: main draw, consolation, last chance and double elimination.

Terminology:

* A *flight* is one bracket of an event (the main draw, its consolation, its last chance,
  the losers' bracket of a double elimination). Flights are named; match ids are
  ``"<flight>/<round>/<index>"``, rounds and indexes counting from 1.
* A *slot* is one side of a match. What fills it is a *source*: a :class:`Seat` (an
  entrant placed by the draw), :class:`Empty` (nobody: the other side has a *bye*), the
  :class:`WinnerOf` an earlier match, or the :class:`LoserOf` a match, possibly in another
  flight. Losers feeding another flight is how consolation, last chance and losers'
  brackets are wired, so the whole event is one graph of matches fixed at the draw.
* A *feeding rule* (:class:`Feed`, :class:`FreshDraw`) is event data that says which
  losers of which rounds of which flight enter a flight, and where.
* A *bye* is a match with exactly one entrant: that entrant goes through without a match
  won. A *void* match has no entrant at all (possible only in fed flights, when a slot
  that might have been filled stays empty); it is skipped.
* A *first-match loser* is an entrant who lost the first match they actually played in a
  flight, after going through earlier rounds by byes.

The state is a :class:`Bracket`: the planned matches plus the results recorded so far.
It is immutable; :func:`record_result` returns a new bracket, so the web app can store
the plan and the results and rebuild the same bracket at any time. A bracket resolves
lazily: showing a few matches (:func:`view`) works out only the matches they are built
on, so a store can rebuild it from its results and rewrite just the matches a result
changes (:func:`dependents`). A *late entrant* takes the empty side of a first-round bye
of the main draw (:func:`place_late_entrant`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypeVar

from tourney.formats.errors import FormatInvariantError, FormatUserError
from tourney.formats.model import EntrantId, MatchId, Standing
from tourney.rules.messages import Message

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

# --- sources -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """An entrant placed in a slot by the draw."""

    entrant: EntrantId


@dataclass(frozen=True, slots=True)
class Empty:
    """Nobody: the entrant on the other side of the match has a bye."""


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """Whoever goes through from an earlier match (by a win or a bye)."""

    match: MatchId


@dataclass(frozen=True, slots=True)
class LoserOf:
    """The loser of a match, usually in another flight.

    ``first_match`` narrows it: ``True`` only if that match was the first the loser
    actually played in its flight (they came through byes), ``False`` only if it was not,
    ``None`` always. The slot stays empty when the condition fails or the match was a bye.
    """

    match: MatchId
    first_match: bool | None = None


Source = Seat | Empty | WinnerOf | LoserOf


# --- plan ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundLengths:
    """Match lengths per round of a flight: a default and overrides.

    A negative round counts from the end: ``RoundLengths(7, ((-1, 11),))`` plays every
    round to 7 points and the final to 11.
    """

    default: int
    by_round: tuple[tuple[int, int], ...] = ()

    def for_round(self, round_number: int, rounds: int) -> int:
        """The match length of ``round_number`` in a flight of ``rounds`` rounds."""
        for key, length in self.by_round:
            if key == round_number or (key < 0 and rounds + 1 + key == round_number):
                return length
        return self.default


@dataclass(frozen=True, slots=True)
class Feed:
    """Losers of some rounds of another flight enter this one, each in a fixed slot.

    ``first_match_losers`` also takes entrants who had byes into a later round and lost
    the first match they played there. In a ``progressive`` flight an entrant who lost in
    source round r enters r - (first fed round) rounds later, through byes, so later
    losers join while the flight is already under way; otherwise everyone enters in
    round 1.
    """

    source: str
    rounds: tuple[int, ...] = (1,)
    first_match_losers: bool = False
    progressive: bool = False


@dataclass(frozen=True, slots=True)
class FreshDraw:
    """A new random draw of everyone eliminated in the given rounds of the given flights.

    "Eliminated" means that losing there sends the loser to no other flight. The draw is
    made once all those matches are decided, from the bracket's seed and the flight name.
    """

    sources: tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class FlightSpec:
    """How an event director sets up one fed flight."""

    name: str
    lengths: RoundLengths
    feed: Feed | FreshDraw


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One planned match: where both sides come from and how long it is."""

    id: MatchId
    flight: str
    round: int
    index: int
    a: Source
    b: Source
    length: int
    reset_of: MatchId | None = None
    """For a grand-final reset: played only if side ``b`` won that match."""


@dataclass(frozen=True, slots=True)
class Flight:
    """A flight of a bracket: its matches, or the pool it will be drawn from."""

    name: str
    format: str
    """``"knockout"`` or ``"double-elimination"``."""
    rounds: int
    lengths: RoundLengths
    pool: tuple[LoserOf, ...] = ()
    """For a fresh draw, the losers it is drawn from (empty once drawn or if not one)."""
    drawn: bool = True


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A recorded result: the winner, and the match score in the order ``a``, ``b``."""

    winner: EntrantId
    score: tuple[int, int] | None = None


class MatchStatus(Enum):
    """Where a planned match stands."""

    PENDING = "pending"
    """An entrant is not known yet."""
    VOID = "void"
    """Nobody to play: both sides empty (or a reset that is not needed)."""
    BYE = "bye"
    """One entrant, who goes through without a match won."""
    READY = "ready"
    """Both entrants known, no result yet."""
    DECIDED = "decided"


class _Pending:
    """Marker for a source whose entrant is not known yet."""

    def __repr__(self) -> str:
        return "PENDING"


PENDING = _Pending()
Resolved = EntrantId | None | _Pending


@dataclass(frozen=True)
class MatchView:
    """A match as pages and exports show it."""

    id: MatchId
    flight: str
    round: int
    index: int
    length: int
    status: MatchStatus
    a: EntrantId | None
    """``None`` while unknown or empty; for a bye, the entrant is always ``a``."""
    b: EntrantId | None
    winner: EntrantId | None
    score: tuple[int, int] | None


@dataclass(frozen=True)
class Bracket:
    """The planned matches of an event's knockout flights and the results so far."""

    seed: int
    flights: tuple[Flight, ...]
    matches: tuple[BracketMatch, ...]
    results: Mapping[MatchId, MatchResult] = field(default_factory=dict)
    _index: dict[MatchId, BracketMatch] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _memo: dict[Source, Resolved] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _statuses: dict[MatchId, MatchStatus] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _match_sides: dict[MatchId, tuple[Resolved, Resolved]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        for match in self.matches:
            self._index[match.id] = match

    def match(self, match_id: MatchId) -> BracketMatch:
        """The planned match with this id.

        Raises:
            FormatUserError: no match has that id.
        """
        try:
            return self._index[match_id]
        except KeyError:
            raise FormatUserError(Message(
                "There is no match %(match_id)s in this draw.",
                match_id=repr(match_id),
            )) from None

    def flight(self, name: str) -> Flight:
        """The flight with this name.

        Raises:
            FormatUserError: no flight has that name.
        """
        for flight in self.flights:
            if flight.name == name:
                return flight
        raise FormatUserError(Message(
            "There is no flight %(name)s in this event.",
            name=repr(name),
        ))

    def flight_matches(self, name: str) -> tuple[BracketMatch, ...]:
        """The planned matches of one flight, by round then index."""
        return tuple(m for m in self.matches if m.flight == name)


# --- draws ---------------------------------------------------------------------------


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds ``entrants`` (at least 2).

    Raises:
        FormatUserError: fewer than two entrants.
    """
    if entrants < 2:
        raise FormatUserError(Message(
            "A knockout needs at least 2 players; %(entrants)s entered.",
            entrants=entrants,
        ))
    return 1 << (entrants - 1).bit_length()


def seeding_order(size: int) -> tuple[int, ...]:
    """Seed numbers by draw position in the standard order (byes fall to the top seeds).

    Each doubling replaces seed s by the pair (s, 2·size + 1 - s), so seeds 1 and 2 can
    meet only in the final and the top four only from the semifinals.

    Raises:
        FormatUserError: ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise FormatUserError(Message(
            "A bracket size must be a power of two, not %(size)s.",
            size=size,
        ))
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [n for seed in order for n in (seed, doubled + 1 - seed)]
    return tuple(order)


def seeded_positions(entrants: Sequence[EntrantId]) -> tuple[EntrantId | None, ...]:
    """Entrants (best seed first) placed in the standard seeding order; ``None`` is a bye."""
    size = bracket_size(len(entrants))
    return tuple(
        entrants[seed - 1] if seed <= len(entrants) else None for seed in seeding_order(size)
    )


def _random_layout(items: Sequence[T], size: int, rng: random.Random) -> list[T | None]:
    """Place items at random in ``size`` positions, never two empties in one pair.

    Byes are spread one per pair as long as there are items to pair them with; the
    pairs themselves are then shuffled so bye placement is random too.
    """
    shuffled = list(items)
    rng.shuffle(shuffled)
    empties = size - len(shuffled)
    pairs: list[tuple[T | None, T | None]] = []
    while empties > 0 and shuffled:
        pairs.append((shuffled.pop(), None))
        empties -= 1
    while empties >= 2:
        pairs.append((None, None))
        empties -= 2
    while len(shuffled) >= 2:
        pairs.append((shuffled.pop(), shuffled.pop()))
    if empties or shuffled:
        raise FormatInvariantError(f"{len(items)} items do not fit a bracket of {size}")
    rng.shuffle(pairs)
    return [side for pair in pairs for side in pair]


def random_positions(entrants: Sequence[EntrantId], *, seed: int) -> tuple[EntrantId | None, ...]:
    """A random draw from ``seed``: random places and random byes, never bye against bye."""
    size = bracket_size(len(entrants))
    if len(set(entrants)) != len(entrants):
        raise FormatUserError(Message("An entrant appears twice in the draw."))
    return tuple(_random_layout(sorted(entrants), size, random.Random(seed)))


def _mid(flight: str, round_number: int, index: int) -> MatchId:
    return MatchId(f"{flight}/{round_number}/{index}")


def _rounds_for(size: int) -> int:
    return size.bit_length() - 1


def _single_elimination(
    name: str, first_round: Sequence[Source], lengths: RoundLengths
) -> tuple[Flight, list[BracketMatch]]:
    """A flight whose first round pairs ``first_round`` two by two, winners advancing."""
    rounds = _rounds_for(len(first_round))
    matches: list[BracketMatch] = []
    sides: list[Source] = list(first_round)
    for round_number in range(1, rounds + 1):
        length = lengths.for_round(round_number, rounds)
        next_sides: list[Source] = []
        for i in range(len(sides) // 2):
            mid = _mid(name, round_number, i + 1)
            matches.append(
                BracketMatch(mid, name, round_number, i + 1, sides[2 * i], sides[2 * i + 1], length)
            )
            next_sides.append(WinnerOf(mid))
        sides = next_sides
    return Flight(name, "knockout", rounds, lengths), matches


def _as_sources(positions: Sequence[EntrantId | None]) -> list[Source]:
    return [Empty() if p is None else Seat(p) for p in positions]


def plan_knockout(
    positions: Sequence[EntrantId | None],
    *,
    seed: int,
    lengths: RoundLengths,
    fed: Sequence[FlightSpec] = (),
    name: str = "main",
) -> Bracket:
    """Plan a main draw from its draw positions, with the flights its losers feed.

    ``positions`` comes from :func:`random_positions` or :func:`seeded_positions`.
    ``fed`` flights are wired in order; each may feed from the main draw or an earlier
    fed flight (a fresh draw cannot feed another flight, as its matches do not exist yet).

    Raises:
        FormatUserError: a feeding rule names an unknown flight or round, or flight names
            repeat.
    """
    size = len(positions)
    if size < 2 or size & (size - 1):
        raise FormatUserError(Message(
            "A draw needs a power-of-two number of positions, not %(size)s.",
            size=size,
        ))
    if len({p for p in positions if p is not None}) != sum(p is not None for p in positions):
        raise FormatUserError(Message("An entrant appears twice in the draw."))
    main, matches = _single_elimination(name, _as_sources(positions), lengths)
    flights = [main]
    rng = random.Random(f"{seed}:feeds")
    for spec in fed:
        if any(f.name == spec.name for f in flights):
            raise FormatUserError(Message(
                "Two flights are named %(name)s.",
                name=repr(spec.name),
            ))
        if isinstance(spec.feed, Feed):
            flight, new = _fed_flight(spec, flights, matches, rng)
            if flight is not None:
                flights.append(flight)
                matches.extend(new)
        else:
            flights.append(_fresh_flight(spec, flights, matches))
    return Bracket(seed, tuple(flights), tuple(matches))


def _source_flight(name: str, flights: Sequence[Flight]) -> Flight:
    for flight in flights:
        if flight.name == name:
            if not flight.drawn:
                raise FormatUserError(
                    Message(
                        "Flight %(name)s is a fresh draw, so no flight can be fed from it.",
                        name=repr(name),
                    )
                )
            return flight
    raise FormatUserError(Message(
        "A feeding rule names flight %(name)s, which comes later or not at all.",
        name=repr(name),
    ))


def _may_be_empty(source: Source, index: Mapping[MatchId, BracketMatch]) -> bool:
    """Whether a source could turn out to hold nobody."""
    if isinstance(source, Seat):
        return False
    if isinstance(source, WinnerOf):
        match = index[source.match]
        return _may_be_empty(match.a, index) and _may_be_empty(match.b, index)
    return True


def _may_arrive_unplayed(source: Source, index: Mapping[MatchId, BracketMatch]) -> bool:
    """Whether the entrant from a source could have played no match yet in its flight."""
    if isinstance(source, Seat | LoserOf):
        return True
    if isinstance(source, Empty):
        return False
    match = index[source.match]
    return (_may_be_empty(match.a, index) and _may_arrive_unplayed(match.b, index)) or (
        _may_be_empty(match.b, index) and _may_arrive_unplayed(match.a, index)
    )


def _fed_flight(
    spec: FlightSpec,
    flights: Sequence[Flight],
    matches: Sequence[BracketMatch],
    rng: random.Random,
) -> tuple[Flight | None, list[BracketMatch]]:
    """Wire a flight fed slot by slot from another flight's losers."""
    assert isinstance(spec.feed, Feed)
    feed = spec.feed
    source = _source_flight(feed.source, flights)
    if not feed.rounds:
        raise FormatUserError(Message(
            "Flight %(name)s is fed from no round.",
            name=repr(spec.name),
        ))
    bad = [r for r in feed.rounds if not 1 <= r <= source.rounds]
    if bad:
        raise FormatUserError(
            Message(
                "Flight %(name)s is fed from round %(bad)s of %(source)s, which has %(rounds)s "
                "rounds.",
                name=repr(spec.name), bad=bad[0], source=repr(feed.source), rounds=source.rounds,
            )
        )
    index = {m.id: m for m in matches}
    first = min(feed.rounds)
    # (entry round, source) for every slot; a structural bye never produces a loser.
    slots: list[tuple[int, LoserOf]] = []
    for match in matches:
        if match.flight != feed.source or match.reset_of is not None:
            continue
        if isinstance(match.a, Empty) or isinstance(match.b, Empty):
            continue  # a bye by the draw itself: nobody can lose it
        entry = match.round - first + 1 if feed.progressive else 1
        if match.round in feed.rounds:
            slots.append((entry, LoserOf(match.id)))
        elif (
            feed.first_match_losers
            and match.round > first
            and (_may_arrive_unplayed(match.a, index) or _may_arrive_unplayed(match.b, index))
        ):
            slots.append((entry, LoserOf(match.id, first_match=True)))
    if not slots:
        return None, []
    layout = _entry_layout(slots, rng)
    flight, new = _single_elimination(spec.name, layout, spec.lengths)
    return flight, new


def _entry_layout(slots: Sequence[tuple[int, LoserOf]], rng: random.Random) -> list[Source]:
    """First-round sources for slots entering at various rounds.

    A slot entering in round e occupies a block of 2^(e-1) positions whose other
    positions are empty, so its entrant reaches round e through byes. Round-1 slots are
    laid out like a random draw; blocks are shuffled with the pairs and packed largest
    first, which keeps every block aligned to its size.
    """
    singles = [s for e, s in slots if e == 1]
    blocks: list[list[Source]] = [
        [s, *([Empty()] * ((1 << (e - 1)) - 1))] for e, s in slots if e > 1
    ]
    used = len(singles) + sum(len(b) for b in blocks)
    size = 1 << max(used - 1, 1).bit_length()
    region = size - sum(len(b) for b in blocks)
    pairs = _random_layout(singles, region, rng)
    units: list[list[Source]] = [
        [Empty() if x is None else x for x in pairs[i : i + 2]] for i in range(0, region, 2)
    ]
    units.extend(blocks)
    rng.shuffle(units)
    units.sort(key=len, reverse=True)
    return [source for unit in units for source in unit]


def _fresh_flight(
    spec: FlightSpec, flights: Sequence[Flight], matches: Sequence[BracketMatch]
) -> Flight:
    """A flight drawn later from every loser the given rounds send nowhere else."""
    assert isinstance(spec.feed, FreshDraw)
    claimed: dict[MatchId, set[bool | None]] = {}
    for match in matches:
        for side in (match.a, match.b):
            if isinstance(side, LoserOf):
                claimed.setdefault(side.match, set()).add(side.first_match)
    pool: list[LoserOf] = []
    for flight_name, rounds in spec.feed.sources:
        _source_flight(flight_name, flights)
        for match in matches:
            if match.flight != flight_name or match.round not in rounds:
                continue
            if isinstance(match.a, Empty) or isinstance(match.b, Empty):
                continue
            taken = claimed.get(match.id, set())
            if None in taken or {True, False} <= taken:
                continue
            if True in taken:
                pool.append(LoserOf(match.id, first_match=False))
            elif False in taken:
                pool.append(LoserOf(match.id, first_match=True))
            else:
                pool.append(LoserOf(match.id))
    return Flight(spec.name, "knockout", 0, spec.lengths, tuple(pool), drawn=False)


def _two_by_two(sources: Sequence[Source]) -> list[tuple[Source, Source]]:
    return [(sources[2 * i], sources[2 * i + 1]) for i in range(len(sources) // 2)]


def plan_double_elimination(
    positions: Sequence[EntrantId | None],
    *,
    seed: int,
    lengths: RoundLengths,
    losers_lengths: RoundLengths | None = None,
    final_length: int | None = None,
    reset: bool = True,
) -> Bracket:
    """Plan a double elimination: flights ``main``, ``losers`` and ``final``.

    The losers' bracket takes the main draw's losers by the round they first lost in:
    round-1 losers play each other, then each later main round's losers meet the
    survivors (in reversed order every other round, to put off rematches). The final sets
    the two bracket winners against each other; with ``reset``, if the losers' bracket
    winner wins it, a second match decides, since the main-draw winner has then lost only
    once.
    """
    bracket = plan_knockout(positions, seed=seed, lengths=lengths)
    main = bracket.flights[0]
    by_round: dict[int, list[BracketMatch]] = {}
    for match in bracket.matches:
        by_round.setdefault(match.round, []).append(match)
    lb_lengths = losers_lengths or lengths
    lb: list[tuple[int, Source, Source]] = []
    survivors: list[Source] = [LoserOf(m.id) for m in by_round[1]]
    lb_round = 0

    def play(pairs: list[tuple[Source, Source]]) -> list[Source]:
        nonlocal lb_round
        lb_round += 1
        out: list[Source] = []
        for i, (a, b) in enumerate(pairs, start=1):
            lb.append((lb_round, a, b))
            out.append(WinnerOf(_mid("losers", lb_round, i)))
        return out

    if len(survivors) >= 2:
        survivors = play(_two_by_two(survivors))
    for main_round in range(2, main.rounds + 1):
        drop_ins: list[Source] = [LoserOf(m.id) for m in by_round[main_round]]
        if main_round % 2 == 0:
            drop_ins.reverse()
        survivors = play(list(zip(survivors, drop_ins, strict=True)))
        if len(survivors) >= 2:
            survivors = play(_two_by_two(survivors))
    lb_rounds = lb_round
    matches = list(bracket.matches)
    counters: dict[int, int] = {}
    for round_number, a, b in lb:
        counters[round_number] = counters.get(round_number, 0) + 1
        index = counters[round_number]
        matches.append(
            BracketMatch(
                _mid("losers", round_number, index),
                "losers",
                round_number,
                index,
                a,
                b,
                lb_lengths.for_round(round_number, lb_rounds),
            )
        )
    flights = [Flight(main.name, "double-elimination", main.rounds, lengths)]
    if lb_rounds:
        flights.append(Flight("losers", "double-elimination", lb_rounds, lb_lengths))
    final_len = final_length or lengths.for_round(main.rounds, main.rounds)
    top: Source = WinnerOf(_mid(main.name, main.rounds, 1))
    (other,) = survivors
    gf = _mid("final", 1, 1)
    matches.append(BracketMatch(gf, "final", 1, 1, top, other, final_len))
    if reset:
        matches.append(
            BracketMatch(_mid("final", 2, 1), "final", 2, 1, top, other, final_len, reset_of=gf)
        )
    final_lengths = RoundLengths(final_len)
    flights.append(Flight("final", "double-elimination", 2 if reset else 1, final_lengths))
    return Bracket(seed, tuple(flights), tuple(matches))


# --- resolving and recording ---------------------------------------------------------


def resolve(bracket: Bracket, source: Source) -> Resolved:
    """The entrant a source stands for: an id, ``None`` (nobody) or :data:`PENDING`."""
    memo = bracket._memo
    if source in memo:
        return memo[source]
    value: Resolved
    if isinstance(source, Seat):
        value = source.entrant
    elif isinstance(source, Empty):
        value = None
    elif isinstance(source, WinnerOf):
        value = _winner(bracket, bracket.match(source.match))
    else:
        value = _loser(bracket, bracket.match(source.match), source.first_match)
    memo[source] = value
    return value


def _sides(bracket: Bracket, match: BracketMatch) -> tuple[Resolved, Resolved]:
    known = bracket._match_sides.get(match.id)
    if known is None:
        known = bracket._match_sides[match.id] = (
            resolve(bracket, match.a),
            resolve(bracket, match.b),
        )
    return known


def status(bracket: Bracket, match: BracketMatch) -> MatchStatus:
    """Where a planned match stands."""
    # A bracket's results never change, so neither does a status once worked out; a big
    # bracket's standings ask for each one several times.
    known = bracket._statuses.get(match.id)
    if known is None:
        known = bracket._statuses[match.id] = _status(bracket, match)
    return known


def _status(bracket: Bracket, match: BracketMatch) -> MatchStatus:
    if match.reset_of is not None:
        first = bracket.match(match.reset_of)
        first_status = status(bracket, first)
        if first_status is MatchStatus.VOID:
            return MatchStatus.VOID
        if first_status is not MatchStatus.DECIDED:
            return MatchStatus.PENDING
        if bracket.results[first.id].winner == resolve(bracket, first.a):
            return MatchStatus.VOID
    a, b = _sides(bracket, match)
    if a is None and b is None:
        return MatchStatus.VOID
    if isinstance(a, _Pending) or isinstance(b, _Pending):
        return MatchStatus.PENDING
    if a is None or b is None:
        return MatchStatus.BYE
    return MatchStatus.DECIDED if match.id in bracket.results else MatchStatus.READY


def _winner(bracket: Bracket, match: BracketMatch) -> Resolved:
    state = status(bracket, match)
    if state is MatchStatus.VOID:
        return None
    if state is MatchStatus.BYE:
        a, b = _sides(bracket, match)
        return a if a is not None else b
    if state is MatchStatus.DECIDED:
        return bracket.results[match.id].winner
    return PENDING


def _loser(bracket: Bracket, match: BracketMatch, first_match: bool | None) -> Resolved:
    state = status(bracket, match)
    a, b = _sides(bracket, match)
    # A match with a side already known to be empty can only become a bye or void: it
    # never has a loser, so whoever waits for one is told "nobody" now, not later.
    if state in (MatchStatus.VOID, MatchStatus.BYE) or a is None or b is None:
        return None
    if state is not MatchStatus.DECIDED:
        return PENDING
    winner = bracket.results[match.id].winner
    loser = b if winner == a else a
    assert isinstance(loser, int)
    if first_match is not None and first_match == _played_before(bracket, match, loser):
        return None
    return loser


def _played_before(bracket: Bracket, match: BracketMatch, entrant: EntrantId) -> bool:
    """Whether ``entrant`` played a real match in this flight before ``match``."""
    side = match.a if resolve(bracket, match.a) == entrant else match.b
    while isinstance(side, WinnerOf):
        earlier = bracket.match(side.match)
        if status(bracket, earlier) is MatchStatus.DECIDED:
            return True
        side = earlier.a if resolve(bracket, earlier.a) == entrant else earlier.b
    return False


def view(bracket: Bracket, match: BracketMatch) -> MatchView:
    """A match as pages show it: entrants, status, winner, score."""
    state = status(bracket, match)
    a, b = _sides(bracket, match)
    shown_a = a if isinstance(a, int) else None
    shown_b = b if isinstance(b, int) else None
    winner: EntrantId | None = None
    score = None
    if state is MatchStatus.BYE:
        shown_a, shown_b = shown_a or shown_b, None
        winner = shown_a
    elif state is MatchStatus.DECIDED:
        result = bracket.results[match.id]
        winner, score = result.winner, result.score
    return MatchView(
        match.id,
        match.flight,
        match.round,
        match.index,
        match.length,
        state,
        shown_a,
        shown_b,
        winner,
        score,
    )


def ready_matches(bracket: Bracket) -> tuple[BracketMatch, ...]:
    """Matches whose two entrants are known and that have no result yet."""
    return tuple(m for m in bracket.matches if status(bracket, m) is MatchStatus.READY)


def record_result(
    bracket: Bracket,
    match_id: MatchId,
    winner: EntrantId,
    score: tuple[int, int] | None = None,
) -> Bracket:
    """The bracket after a match result; fresh draws whose pool is complete are drawn.

    Raises:
        FormatUserError: no such match, the match is not ready to play (an entrant still
            unknown, a bye, already decided), or ``winner`` is not one of its players.
    """
    match = bracket.match(match_id)
    state = status(bracket, match)
    if state is not MatchStatus.READY:
        raise FormatUserError(Message(
            "Match %(match_id)s cannot take a result: it is %(value)s.",
            match_id=match_id, value=state.value,
        ))
    a, b = _sides(bracket, match)
    if winner not in (a, b):
        raise FormatUserError(Message(
            "Player %(winner)s is not in match %(match_id)s (%(a)s against %(b)s).",
            winner=winner, match_id=match_id, a=a, b=b,
        ))
    results = dict(bracket.results)
    results[match_id] = MatchResult(winner, score)
    updated = Bracket(bracket.seed, bracket.flights, bracket.matches, results)
    return _draw_complete_pools(updated)


def _draw_complete_pools(bracket: Bracket) -> Bracket:
    for flight in bracket.flights:
        if flight.drawn:
            continue
        members = [resolve(bracket, source) for source in flight.pool]
        if any(isinstance(m, _Pending) for m in members):
            continue
        entrants = sorted(m for m in members if isinstance(m, int))
        if len(entrants) < 2:
            # Nobody or one player to draw: the flight is not played.
            drawn = Flight(flight.name, flight.format, 0, flight.lengths)
            new_matches: list[BracketMatch] = []
        else:
            size = bracket_size(len(entrants))
            rng = random.Random(f"{bracket.seed}:{flight.name}")
            layout = _as_sources(_random_layout(entrants, size, rng))
            drawn, new_matches = _single_elimination(flight.name, layout, flight.lengths)
        # The pool stays on the flight: it records where each loser was sent.
        drawn = replace(drawn, pool=flight.pool)
        flights = tuple(drawn if f.name == flight.name else f for f in bracket.flights)
        return _draw_complete_pools(
            Bracket(bracket.seed, flights, (*bracket.matches, *new_matches), bracket.results)
        )
    return bracket


# --- reading a bracket ---------------------------------------------------------------


def champion(bracket: Bracket, flight: str) -> EntrantId | None:
    """The winner of a flight, once decided."""
    last = [m for m in bracket.flight_matches(flight) if status(bracket, m) is not MatchStatus.VOID]
    if not last or any(
        status(bracket, m) in (MatchStatus.PENDING, MatchStatus.READY)
        for m in bracket.flight_matches(flight)
    ):
        return None
    final = max(last, key=lambda m: (m.round, m.index))
    result = _winner(bracket, final)
    return result if isinstance(result, int) else None


def entrants(bracket: Bracket, flight: str) -> tuple[EntrantId, ...]:
    """Everyone known to be in a flight so far, in order of first appearance."""
    seen: dict[EntrantId, None] = {}
    for match in bracket.flight_matches(flight):
        for side in _sides(bracket, match):
            if isinstance(side, int):
                seen.setdefault(side)
    return tuple(seen)


def eliminations(bracket: Bracket, flight: str) -> dict[EntrantId, BracketMatch]:
    """For each entrant knocked out of a flight, the match they went out in."""
    out: dict[EntrantId, BracketMatch] = {}
    still_playing: set[EntrantId] = set()
    for match in bracket.flight_matches(flight):
        state = status(bracket, match)
        a, b = _sides(bracket, match)
        if state is MatchStatus.READY:
            still_playing.update(x for x in (a, b) if isinstance(x, int))
        elif state is MatchStatus.DECIDED:
            winner = bracket.results[match.id].winner
            loser = b if winner == a else a
            assert isinstance(loser, int)
            out[loser] = match
            out.pop(winner, None)
    for entrant in still_playing:
        out.pop(entrant, None)
    return out


def _loser_slots(bracket: Bracket) -> Iterator[tuple[LoserOf, str]]:
    """Every place a loser is sent to, with its flight: match sides in plan order."""
    for match in bracket.matches:
        for side in (match.a, match.b):
            if isinstance(side, LoserOf):
                yield side, match.flight


def _feeds(bracket: Bracket) -> dict[MatchId, list[tuple[bool | None, str]]]:
    """For each match whose loser goes on, the condition and the flight it leads to."""
    feeds: dict[MatchId, list[tuple[bool | None, str]]] = {}
    for slot, flight_name in _loser_slots(bracket):
        feeds.setdefault(slot.match, []).append((slot.first_match, flight_name))
    for flight in bracket.flights:
        for source in flight.pool:
            feeds.setdefault(source.match, []).append((source.first_match, flight.name))
    return feeds


def loser_destinations(bracket: Bracket) -> dict[MatchId, tuple[str, bool | None]]:
    """For each match whose loser has a place in a planned match: that place's flight, and
    the first-match condition (``True``: only if it was the loser's first match)."""
    out: dict[MatchId, tuple[str, bool | None]] = {}
    for slot, flight_name in _loser_slots(bracket):
        out.setdefault(slot.match, (flight_name, slot.first_match))
    return out


def next_flight(bracket: Bracket, match_id: MatchId) -> str | None:
    """Where the loser of a decided match goes next, by the feeding rules, or ``None``.

    For a fresh draw not drawn yet this is the flight the loser is in the pool for.
    """
    return _next_flight(bracket, match_id, _feeds(bracket))


def _next_flight(
    bracket: Bracket, match_id: MatchId, feeds: Mapping[MatchId, list[tuple[bool | None, str]]]
) -> str | None:
    match = bracket.match(match_id)
    if status(bracket, match) is not MatchStatus.DECIDED:
        raise FormatUserError(Message(
            "Match %(match_id)s has no result yet.",
            match_id=match_id,
        ))
    a, b = _sides(bracket, match)
    winner = bracket.results[match_id].winner
    loser = b if winner == a else a
    assert isinstance(loser, int)
    for condition, flight in feeds.get(match_id, []):
        if condition is None or condition != _played_before(bracket, match, loser):
            target = bracket.flight(flight)
            if target.pool and target.drawn and loser not in entrants(bracket, flight):
                # A fresh draw of a single player is not played: that player is out.
                return None
            return flight
    return None


def eliminated_to(bracket: Bracket, flight: str) -> dict[EntrantId, str | None]:
    """Everyone knocked out of a flight so far, with the flight they go to (or ``None``)."""
    return {
        entrant: next_flight(bracket, match.id)
        for entrant, match in sorted(eliminations(bracket, flight).items())
    }


def knockout_standings(bracket: Bracket, flight: str) -> tuple[Standing, ...]:
    """A flight's table: the champion, then by the round each entrant went out in.

    Entrants who went out in the same round share a rank (two "=3" semifinal losers).
    Entrants still in the flight share the top rank until it is decided. Metrics:
    ``wins`` (byes are not wins) and ``round`` (the round reached).
    """
    out = eliminations(bracket, flight)
    wins: dict[EntrantId, int] = {}
    reached: dict[EntrantId, int] = {}
    for match in bracket.flight_matches(flight):
        state = status(bracket, match)
        for side in _sides(bracket, match):
            if isinstance(side, int) and state is not MatchStatus.VOID:
                reached[side] = max(reached.get(side, 0), match.round)
                wins.setdefault(side, 0)
        if state is MatchStatus.DECIDED:
            wins[bracket.results[match.id].winner] += 1
    alive = {e for e in reached if e not in out}
    top = max(reached.values(), default=0) + 1

    def depth(entrant: EntrantId) -> int:
        # Alive players rank above everyone out; the reset of a grand final is a round
        # later than the first match, so losing it ranks behind the winner only.
        return top if entrant in alive else out[entrant].round

    return _rank_by(list(reached), depth, lambda e: (("wins", wins[e]), ("round", reached[e])))


def double_elimination_standings(bracket: Bracket) -> tuple[Standing, ...]:
    """A double elimination's table as one: the final's players, then the losers' bracket's,
    then the winners' bracket's; each player ranks by the last bracket they reached.

    Ranks within a bracket come from :func:`knockout_standings` of that bracket, moved down
    by the number of players ranked ahead in later brackets.
    """
    table: list[Standing] = []
    placed: set[EntrantId] = set()
    # The final is planned last and the winners' bracket first: walk them backwards.
    for flight in reversed(bracket.flights):
        offset = len(table)
        part = [s for s in knockout_standings(bracket, flight.name) if s.entrant not in placed]
        table.extend(Standing(s.entrant, s.rank + offset, s.tied, s.metrics) for s in part)
        placed.update(s.entrant for s in part)
    return tuple(table)


def _rank_by(
    items: Iterable[EntrantId],
    key: Callable[[EntrantId], int],
    metrics: Callable[[EntrantId], tuple[tuple[str, int], ...]],
) -> tuple[Standing, ...]:
    keys = {entrant: key(entrant) for entrant in items}
    ordered = sorted(keys, key=lambda e: (-keys[e], e))
    sharing = Counter(keys.values())
    rows: list[Standing] = []
    rank = 0
    for i, entrant in enumerate(ordered):
        # Best first: an entrant's rank is one more than the number ranked strictly ahead.
        if i == 0 or keys[ordered[i - 1]] != keys[entrant]:
            rank = i + 1
        rows.append(Standing(entrant, rank, sharing[keys[entrant]] > 1, metrics(entrant)))
    return tuple(rows)


# --- moving a drawn bracket on -------------------------------------------------------


def has_fixed_shape(bracket: Bracket) -> bool:
    """Whether every match of the bracket is planned already.

    A fresh draw adds its matches once its pool is decided, so a bracket with one changes
    shape with results and has to be worked out whole.
    """
    return all(flight.drawn and not flight.pool for flight in bracket.flights)


def dependents(bracket: Bracket, match_id: MatchId) -> tuple[MatchId, ...]:
    """Every planned match whose players depend on ``match_id``'s result, in plan order.

    That is the matches its winner or loser goes on to (or the reset it decides), and the
    matches built on those in turn. A result can change nothing else in the bracket.
    """
    built_on: dict[MatchId, list[MatchId]] = {}
    for match in bracket.matches:
        for side in (match.a, match.b):
            if isinstance(side, WinnerOf | LoserOf):
                built_on.setdefault(side.match, []).append(match.id)
        if match.reset_of is not None:
            built_on.setdefault(match.reset_of, []).append(match.id)
    seen: set[MatchId] = set()
    stack = list(built_on.get(match_id, ()))
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack.extend(built_on.get(current, ()))
    return tuple(m.id for m in bracket.matches if m.id in seen)


def walk_over_withdrawn(
    bracket: Bracket,
    withdrawn: Collection[EntrantId],
    *,
    in_play: Collection[MatchId] = (),
    among: Collection[MatchId] | None = None,
) -> tuple[Bracket, tuple[MatchId, ...]]:
    """The bracket after each ready match with a withdrawn player goes to the other player.

    When both players withdrew, side ``a`` goes through. A match in play (games on its
    sheet) is left to the director. ``among`` limits the walkovers to those matches. A
    walkover can make a later match ready, so this repeats until nothing changes; the
    walked-over matches are returned in the order they were given.
    """
    walked: list[MatchId] = []
    candidates = [
        m for m in bracket.matches if m.id not in in_play and (among is None or m.id in among)
    ]
    changed = bool(withdrawn)
    while changed:
        changed = False
        for match in candidates:
            if status(bracket, match) is not MatchStatus.READY:
                continue
            a, b = _sides(bracket, match)
            if a not in withdrawn and b not in withdrawn:
                continue
            winner = b if a in withdrawn and b not in withdrawn else a
            assert isinstance(winner, int)
            bracket = record_result(bracket, match.id, winner)
            walked.append(match.id)
            changed = True
    return bracket, tuple(walked)


def knocked_out(bracket: Bracket, groups: Mapping[str, K]) -> dict[K, set[EntrantId]]:
    """Everyone out of each group of flights so far.

    ``groups`` names the group each flight counts in (flights it leaves out are skipped).
    A player knocked out of a flight stays in its group when their loss sends them to
    another flight of the same group: a double elimination shows its winners' and losers'
    brackets as one, so only the second loss puts a player out.
    """
    feeds = _feeds(bracket)
    sizes = Counter(groups.values())
    out: dict[K, set[EntrantId]] = {}
    for flight in bracket.flights:
        group = groups.get(flight.name)
        if group is None:
            continue
        for entrant, match in eliminations(bracket, flight.name).items():
            # Only a group of several flights can keep a loser: elsewhere the costlier
            # question of where the loser goes need not be asked.
            if sizes[group] > 1:
                goes = _next_flight(bracket, match.id, feeds)
                if goes is not None and groups.get(goes) == group:
                    continue
            out.setdefault(group, set()).add(entrant)
    return out


# --- late entries --------------------------------------------------------------------


@dataclass(frozen=True)
class LateEntry:
    """A late entrant placed in a bye of the main draw's first round."""

    bracket: Bracket
    """The bracket with the entrant placed, and the same results."""
    consolation_slot: MatchId | None
    """The consolation match that now takes the loser of the filled bye, if any."""


def place_late_entrant(bracket: Bracket, match_id: MatchId, entrant: EntrantId) -> LateEntry:
    """Put a late entrant in the empty side of a first-round bye of the main draw.

    The bye's player then plays the late entrant. Where a consolation takes the main
    draw's first-round losers, the loser of this match needs a place there: the place
    kept for the bye's player losing their first match later (their next match's
    first-match loser slot) when only that player could have used it, else a bye of the
    consolation's first round held by a first-round loser.

    Raises:
        FormatUserError: the match is not in the first round of the main draw, it is not
            a bye, or the consolation has no free place.
    """
    main = bracket.flights[0].name
    match = bracket._index.get(match_id)
    if match is None or match.flight != main or match.round != 1 or match.reset_of is not None:
        raise FormatUserError(Message("Late entrants take a bye of the first round only."))
    if not (isinstance(match.a, Empty) or isinstance(match.b, Empty)):
        raise FormatUserError(Message("This match is not a bye: it has two players already."))
    changed = {match.id: _with_side(match, Empty(), Seat(entrant))}
    slot = _consolation_slot(bracket, match)
    if slot is not None:
        target, old = slot
        changed[target.id] = _with_side(target, old, LoserOf(match.id))
    matches = tuple(changed.get(m.id, m) for m in bracket.matches)
    placed = Bracket(bracket.seed, bracket.flights, matches, bracket.results)
    return LateEntry(placed, None if slot is None else slot[0].id)


def players_changed(
    before: Bracket, after: Bracket, among: Collection[MatchId]
) -> tuple[MatchId, ...]:
    """The matches of ``among`` whose two sides differ between two plans of a bracket.

    Both brackets must plan the same matches; the ids come in plan order.
    """
    return tuple(
        match.id
        for match in after.matches
        if match.id in among
        and _shown_sides(before, before.match(match.id)) != _shown_sides(after, match)
    )


def _shown_sides(
    bracket: Bracket, match: BracketMatch
) -> tuple[EntrantId | None, EntrantId | None]:
    shown = view(bracket, match)
    return shown.a, shown.b


def _with_side(match: BracketMatch, old: Source, new: Source) -> BracketMatch:
    """The match with side ``old`` (``a`` when both are) replaced by ``new``."""
    return replace(match, a=new) if match.a == old else replace(match, b=new)


def _consolation_slot(bracket: Bracket, bye: BracketMatch) -> tuple[BracketMatch, Source] | None:
    """The consolation match and side that take the loser of a filled bye, if any."""
    if LoserOf(bye.id) in _loser_slot_set(bracket):
        return None  # its loser has a place already (a double elimination's losers' bracket)
    first_round = {m.id for m in bracket.flight_matches(bye.flight) if m.round == bye.round}
    consolation = _first_round_consolation(bracket, first_round)
    if consolation is None:
        return None
    kept = _kept_first_match_slot(bracket, bye, consolation)
    if kept is not None:
        return kept
    for match in bracket.flight_matches(consolation):
        if match.round == 1 and _is_bye_of_loser(match, first_round):
            return match, Empty()
    raise FormatUserError(
        Message(
            "“%(consolation)s” takes first-round losers but has no free place for the loser of "
            "this match.",
            consolation=consolation,
        )
    )


def _loser_slot_set(bracket: Bracket) -> set[LoserOf]:
    return {slot for slot, _ in _loser_slots(bracket)}


def _first_round_consolation(bracket: Bracket, first_round: Collection[MatchId]) -> str | None:
    """The first flight fed with the losers of these first-round matches."""
    for slot, flight_name in _loser_slots(bracket):
        if slot.first_match is None and slot.match in first_round:
            return flight_name
    return None


def _kept_first_match_slot(
    bracket: Bracket, bye: BracketMatch, consolation: str
) -> tuple[BracketMatch, Source] | None:
    """The consolation slot kept for the bye's player losing their next match, when they
    alone could have used it (the other side of that match did not come through a bye)."""
    winner = WinnerOf(bye.id)
    following = next((m for m in bracket.matches if winner in (m.a, m.b)), None)
    if following is None:
        return None
    other = following.b if following.a == winner else following.a
    if isinstance(other, WinnerOf) and _is_bye(bracket.match(other.match)):
        return None
    kept = LoserOf(following.id, first_match=True)
    for match in bracket.flight_matches(consolation):
        if kept in (match.a, match.b):
            return match, kept
    return None


def _is_bye(match: BracketMatch) -> bool:
    """Whether the draw itself gave this match a bye (an empty side)."""
    return isinstance(match.a, Empty) or isinstance(match.b, Empty)


def _is_bye_of_loser(match: BracketMatch, losers_of: Collection[MatchId]) -> bool:
    """Whether the draw gave this match a bye held by the loser of one of ``losers_of``."""
    held = match.b if isinstance(match.a, Empty) else match.a
    return _is_bye(match) and isinstance(held, LoserOf) and held.match in losers_of


# --- buy-backs -----------------------------------------------------------------------


@dataclass(frozen=True)
class BuyBack:
    """A player who bought back into a fed flight, placed in a free first-round slot."""

    bracket: Bracket
    """The bracket with the player seated, and the same results."""
    match: MatchId
    """The first-round match of the fed flight the player now plays (or has a bye in)."""


def place_buyback(
    bracket: Bracket, flight: str, entrant: EntrantId, under_way: Collection[MatchId] = ()
) -> BuyBack:
    """Seat a player knocked out of the bracket, whose loss fed them nowhere, in an empty
    first-round side of the fed flight ``flight`` (a consolation or last chance).

    A slot whose match already has an opponent waiting is preferred to one that would
    only give a bye; a slot is never taken where that changes the players of a match in
    ``under_way`` (the bye's player has already begun their next match).

    Raises:
        FormatUserError: the flight is the main draw or not drawn yet, the player is still
            playing or already in the flight, or no first-round place is free.
    """
    target = bracket.flight(flight)
    if target.name == bracket.flights[0].name:
        raise FormatUserError(Message(
            "A buy-back enters a consolation or last chance, not “%(flight)s”.", flight=flight
        ))
    if not target.drawn:
        raise FormatUserError(Message(
            "“%(flight)s” is drawn from the losers once they are all known; it takes no "
            "buy-back before then.",
            flight=flight,
        ))
    lost = False
    for match in bracket.matches:
        shown = view(bracket, match)
        if entrant not in (shown.a, shown.b):
            continue
        if match.flight == flight:
            raise FormatUserError(
                Message("The player is in “%(flight)s” already.", flight=flight)
            )
        if shown.status is MatchStatus.DECIDED and shown.winner != entrant:
            lost = True
        elif shown.status in (MatchStatus.READY, MatchStatus.PENDING):
            raise FormatUserError(Message(
                "The player is still playing in “%(flight)s”.", flight=match.flight
            ))
    if not lost:
        raise FormatUserError(Message("Only a player knocked out of the draw can buy back in."))
    candidates = [
        m
        for m in bracket.flight_matches(flight)
        if m.round == 1 and m.reset_of is None and _is_bye(m) and m.id not in bracket.results
    ]
    # An opponent on the other side first: a buy-back is bought to play.
    candidates.sort(key=lambda m: status(bracket, m) is MatchStatus.VOID)
    for match in candidates:
        seated = _with_side(match, Empty(), Seat(entrant))
        placed = Bracket(
            bracket.seed,
            bracket.flights,
            tuple(seated if m.id == match.id else m for m in bracket.matches),
            bracket.results,
        )
        if not players_changed(bracket, placed, under_way):
            return BuyBack(placed, match.id)
    raise FormatUserError(Message(
        "“%(flight)s” has no free place left in its first round: the buy-back cannot be taken.",
        flight=flight,
    ))
