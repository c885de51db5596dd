"""Money play: what a game is worth in stakes, running totals, settlement.

A money session is a series of games played for a stake, not a match to N points
(DESIGN section 7). The functions here are pure: they take the games as entered and the
session's stake mode and cube options, and return units and payments.

Terminology:
    stake        the amount agreed before the session; every result is a whole number of
                 stakes, called *units* here.
    stake mode   how a game turns into units (:data:`STAKE_MODES`): per point (the cube
                 times the level), per game (one unit for every win), per checker ("Tiflis":
                 one unit for each checker the loser has not borne off).
    centred      the cube never taken: still in the middle, at 1 or at the value automatic
                 doubles turned it to. The Jacoby rule looks at this.
    seat         the two sides of a head-to-head session, 0 and 1.
    settlement   the payments that clear every player's net balance at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tourney.formats.errors import FormatUserError
from tourney.rules.errors import NotationError
from tourney.rules.game import Level
from tourney.rules.messages import N_, Message, message_of
from tourney.rules.registry import Registry
from tourney.rules.variants import BACKGAMMON_LEVELS

CHECKERS = 15
"""Checkers a side: the most a loser can have left on the board."""

EXACT_SETTLEMENT_LIMIT = 14
"""Up to this many open balances, :func:`settlement` searches for the fewest payments;
beyond it, it settles greedily (at most one payment fewer than the number of balances)."""


@dataclass(frozen=True)
class StakeMode:
    """One way of turning a money game into stakes."""

    key: str
    """Stored with a session: ``"per-point"``, ``"per-game"``, ``"per-checker"``."""
    label: str
    description: str


STAKE_MODES = Registry[StakeMode]("stake mode", key=lambda item: item.key)
"""Every stake mode, in the order forms offer them."""

PER_POINT = STAKE_MODES.register(
    StakeMode(
        "per-point",
        N_("Per point"),
        N_("One stake per point: a gammon pays 2, a backgammon 3, times the cube."),
    )
)
PER_GAME = STAKE_MODES.register(
    StakeMode(
        "per-game",
        N_("Per game"),
        N_("One stake for every game won, whatever the cube, gammon or backgammon."),
    )
)
PER_CHECKER = STAKE_MODES.register(
    StakeMode(
        "per-checker",
        N_("Per checker (Tiflis)"),
        N_("One stake for each checker the loser has not borne off."),
    )
)


def stake_mode(key: str) -> StakeMode:
    """The stake mode stored as ``key``.

    Raises:
        FormatUserError: no mode has that key; the message lists those that do.
    """
    try:
        return STAKE_MODES.named(key)
    except NotationError:
        known = ", ".join(mode.key for mode in STAKE_MODES.all())
        raise FormatUserError(Message(
            "Unknown stake mode %(key)s; choose one of %(known)s.", key=repr(key), known=known
        )) from None


def stake_mode_choices() -> tuple[tuple[str, str], ...]:
    """``(key, label)`` of every stake mode, for a form's choices."""
    return tuple((mode.key, mode.label) for mode in STAKE_MODES.all())


@dataclass(frozen=True)
class CubeOptions:
    """The cube options a money session is played with (DESIGN section 7)."""

    jacoby: bool = False
    """Gammons and backgammons count single unless the cube has been turned by a double."""
    beavers: bool = False
    """The doubled player may redouble at once and keep the cube."""
    raccoons: bool = False
    """The beavered player may redouble again at once; only meaningful with beavers."""
    automatic_doubles: int = 0
    """At most this many automatic doubles a game on equal opening dice (0: off); they turn
    the cube but leave it in the middle."""
    cube_limit: int | None = None
    """The highest cube value allowed (None: no limit)."""
    tiflis_times_level: bool = False
    """Per-checker stakes: multiply the checkers left by the level (gammon 2, backgammon 3).
    Off by default: the seed's Tiflis rule counts checkers alone (VARIANTS section 16.4)."""
    tiflis_times_cube: bool = False
    """Per-checker stakes: multiply the checkers left by the cube. Off by default."""


class MoneyEnd(StrEnum):
    """How a money game ended."""

    PLAYED = "played"
    DROPPED = "dropped"
    RESIGNED = "resigned"


@dataclass(frozen=True)
class MoneyGame:
    """One money game as entered."""

    winner: int
    """The side that won, 0 or 1. Head to head: the player's seat; in a chouette, 0 is the
    box and 1 the team member."""
    end: MoneyEnd
    level: Level
    """Single, gammon or backgammon (resigned: the level accepted); a drop is single."""
    cube: int
    """The value the game is scored at; for a drop, the value before the refused double."""
    centred: bool
    """The cube was never taken (automatic doubles keep it in the middle)."""
    checkers_left: int = 0
    """The loser's checkers not yet borne off, counting the bar (per-checker stakes);
    0 when not recorded."""


_LEVEL_WORDS = {scoring.level: scoring.word for scoring in BACKGAMMON_LEVELS}
"""Single, gammon, backgammon: the core labels messages name a level by."""


def _level_word(level: Level) -> Message:
    """The level as a word inside a sentence, translated where the sentence is."""
    return Message(_LEVEL_WORDS[level])


def _is_power_of_two(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0


def check_options(options: CubeOptions) -> None:
    """Refuse cube options that contradict each other.

    Raises:
        FormatUserError: one sentence naming the problem.
    """
    if options.raccoons and not options.beavers:
        raise FormatUserError(Message("Raccoons need beavers: a raccoon answers a beaver."))
    if options.automatic_doubles < 0:
        raise FormatUserError(Message(
            "The number of automatic doubles cannot be negative (%(doubles)s).",
            doubles=options.automatic_doubles,
        ))
    limit = options.cube_limit
    if limit is not None and not _is_power_of_two(limit):
        raise FormatUserError(Message(
            "The cube limit must be a power of two (1, 2, 4, ...), not %(limit)s.", limit=limit
        ))


def check_game(game: MoneyGame, options: CubeOptions) -> None:
    """Refuse a game that cannot have happened under ``options``.

    A cube left in the middle can only have been turned by automatic doubles, so it stands
    at most at 2 to the number of automatic doubles; a cube that was taken stands at 2 or
    more. When the checkers left are recorded they must agree with the level of a
    played-out game: a gammon or backgammon leaves all 15, a single at most 14 (the loser
    has borne off at least one). A gammon or backgammon accepted by resignation likewise
    needs all 15 on the board, since a side that has borne off cannot be gammoned.

    Raises:
        FormatUserError: one sentence naming the problem.
    """
    check_options(options)
    if game.winner not in (0, 1):
        raise FormatUserError(Message(
            "The winner must be side 0 or side 1, not %(winner)s.", winner=game.winner
        ))
    if not _is_power_of_two(game.cube):
        raise FormatUserError(Message(
            "The cube must be a power of two (1, 2, 4, ...), not %(cube)s.", cube=game.cube
        ))
    if options.cube_limit is not None and game.cube > options.cube_limit:
        raise FormatUserError(Message(
            "The cube at %(cube)s is above the session's cube limit of %(limit)s.",
            cube=game.cube, limit=options.cube_limit,
        ))
    if game.centred and game.cube > 2**options.automatic_doubles:
        if options.automatic_doubles == 0:
            raise FormatUserError(Message(
                "A cube still in the middle stands at 1 without automatic doubles, "
                "not at %(cube)s.",
                cube=game.cube,
            ))
        raise FormatUserError(Message(
            "A cube still in the middle at %(cube)s needs more automatic doubles than the "
            "%(doubles)s allowed (at most %(most)s).",
            cube=game.cube, doubles=options.automatic_doubles,
            most=2**options.automatic_doubles,
        ))
    if not game.centred and game.cube < 2:
        raise FormatUserError(Message("A cube that was taken stands at 2 or more, not at 1."))
    if game.end is MoneyEnd.DROPPED and game.level is not Level.SINGLE:
        raise FormatUserError(Message(
            "A dropped double scores single; it cannot be a %(level)s.",
            level=_level_word(game.level),
        ))
    if not 0 <= game.checkers_left <= CHECKERS:
        raise FormatUserError(Message(
            "The loser has 0 to %(checkers)s checkers left, not %(left)s.",
            checkers=CHECKERS, left=game.checkers_left,
        ))
    if game.checkers_left and game.end is not MoneyEnd.DROPPED:
        if game.level is not Level.SINGLE and game.checkers_left != CHECKERS:
            raise FormatUserError(Message(
                "A %(level)s leaves the loser all %(checkers)s checkers, not %(left)s.",
                level=_level_word(game.level), checkers=CHECKERS, left=game.checkers_left,
            ))
        if (
            game.end is MoneyEnd.PLAYED
            and game.level is Level.SINGLE
            and game.checkers_left == CHECKERS
        ):
            raise FormatUserError(Message(
                "A single game played out leaves the loser at most %(most)s checkers "
                "(with %(checkers)s it is a gammon).",
                most=CHECKERS - 1, checkers=CHECKERS,
            ))


def _level_multiplier(game: MoneyGame, options: CubeOptions) -> int:
    # The Jacoby rule: gammons and backgammons count single until a double has been taken;
    # automatic doubles keep the cube centred, so they do not switch gammons on.
    if game.end is MoneyEnd.DROPPED or (options.jacoby and game.centred):
        return 1
    return int(game.level)


def _per_point_units(game: MoneyGame, options: CubeOptions) -> int:
    return game.cube * _level_multiplier(game, options)


def _per_game_units(game: MoneyGame, options: CubeOptions) -> int:
    return 1


def _per_checker_units(game: MoneyGame, options: CubeOptions) -> int:
    if game.checkers_left == 0:
        raise FormatUserError(Message(
            "A per-checker game needs the loser's checkers left (1 to %(checkers)s).",
            checkers=CHECKERS,
        ))
    units = game.checkers_left
    if options.tiflis_times_level:
        units *= _level_multiplier(game, options)
    if options.tiflis_times_cube:
        units *= game.cube
    return units


_UNITS: dict[str, Callable[[MoneyGame, CubeOptions], int]] = {
    PER_POINT.key: _per_point_units,
    PER_GAME.key: _per_game_units,
    PER_CHECKER.key: _per_checker_units,
}


def game_units(game: MoneyGame, mode: StakeMode, options: CubeOptions) -> int:
    """The stakes the loser of ``game`` pays the winner; always more than 0.

    Per point: the cube times the level (gammon 2, backgammon 3); a drop scores the cube
    before the refused double; under the Jacoby rule a gammon or backgammon on a centred
    cube counts single.

    Per game: 1 for every win.

    Per checker ("Tiflis"): one stake for each checker the loser has not borne off when the
    game ends. The seed (S000) names the checker count as the stake and says the game is
    rarely played because the stake "can be multiplied by 15 or more when win points and
    even a doubling cube are taken into account": counting the level and the cube is an
    agreement on top of the rule, so both are off unless the session sets
    ``tiflis_times_level`` / ``tiflis_times_cube`` (VARIANTS section 16.4, E-TIFLIS-1). The
    level multiplier follows the Jacoby rule when it is on. A dropped or resigned game pays
    for the checkers the loser has on the board when it ends, as if the winner had just
    finished: the club's way of valuing a game that was not played out.

    Raises:
        FormatUserError: the game is impossible under ``options`` (:func:`check_game`), a
            per-checker game without its checkers left, or a mode that is not registered.
    """
    check_game(game, options)
    try:
        units = _UNITS[mode.key]
    except KeyError:
        raise FormatUserError(
            Message("Unknown stake mode %(key)s.", key=repr(mode.key))
        ) from None
    return units(game, options)


def running_totals(
    games: Sequence[MoneyGame], mode: StakeMode, options: CubeOptions
) -> tuple[tuple[int, int], ...]:
    """The units of seat 0 and seat 1 after each game; the two always sum to 0.

    Raises:
        FormatUserError: a game is impossible; the message names it by its number.
    """
    totals: list[tuple[int, int]] = []
    seat0 = 0
    for number, game in enumerate(games, start=1):
        try:
            units = game_units(game, mode, options)
        except FormatUserError as error:
            raise FormatUserError(
                Message("Game %(number)s: %(error)s", number=number, error=message_of(error))
            ) from None
        seat0 += units if game.winner == 0 else -units
        totals.append((seat0, -seat0))
    return tuple(totals)


def session_over(units: tuple[int, int], *, difference: int | None) -> bool:
    """Whether a session played "to a difference" has reached it.

    Raises:
        FormatUserError: a difference of 0 or less.
    """
    if difference is None:
        return False
    if difference <= 0:
        raise FormatUserError(Message(
            "A session's difference must be at least 1, not %(difference)s.",
            difference=difference,
        ))
    return abs(units[0]) >= difference


@dataclass(frozen=True)
class Payment:
    """One payment of a settlement, in minor units of the session's currency."""

    payer: int
    payee: int
    amount: int


def settlement(balances: Mapping[int, int]) -> tuple[Payment, ...]:
    """The fewest payments that clear every balance (player id -> net minor units).

    The players are first split into as many groups as possible whose balances sum to 0
    (each group needs one payment fewer than it has members, so more groups means fewer
    payments); within a group the largest debtor pays the largest creditor, ties going to
    the lower id, until the group is clear. Groups come in the order of their largest
    debtor. With more than :data:`EXACT_SETTLEMENT_LIMIT` open balances the whole field is
    settled as one group after pairing off equal debts and credits.

    Raises:
        FormatUserError: the balances do not sum to 0.
    """
    total = sum(balances.values())
    if total != 0:
        raise FormatUserError(Message("The balances must sum to 0, not %(total)s.", total=total))
    open_ = sorted((player, amount) for player, amount in balances.items() if amount)
    exact = len(open_) <= EXACT_SETTLEMENT_LIMIT
    groups = _zero_sum_groups(open_) if exact else _paired_off(open_)
    groups.sort(key=lambda group: min((amount, player) for player, amount in group))
    return tuple(payment for group in groups for payment in _greedy(group))


def _zero_sum_groups(open_: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """A split of ``open_`` into the most groups that each sum to 0."""
    n = len(open_)
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + open_[low][1]
    # best[mask]: the most zero-sum groups the players in mask split into, taking them off
    # one at a time; a group closes whenever the players taken so far sum to 0.
    best = [0] * (1 << n)
    last = [0] * (1 << n)
    for mask in range(1, 1 << n):
        choice, value = -1, -1
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] > value:
                choice, value = i, best[mask ^ (1 << i)]
        best[mask] = value + (1 if sums[mask] == 0 else 0)
        last[mask] = choice
    order: list[int] = []
    mask = (1 << n) - 1
    while mask:
        order.append(last[mask])
        mask ^= 1 << last[mask]
    order.reverse()
    groups: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    running = 0
    for i in order:
        current.append(open_[i])
        running += open_[i][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _paired_off(open_: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Pairs of a debt and an equal credit, then everyone else as one group."""
    creditors = {entry for entry in open_ if entry[1] > 0}
    groups: list[list[tuple[int, int]]] = []
    rest: list[tuple[int, int]] = []
    for debtor in (entry for entry in open_ if entry[1] < 0):
        match = min((c for c in creditors if c[1] == -debtor[1]), default=None)
        if match is None:
            rest.append(debtor)
        else:
            creditors.remove(match)
            groups.append([debtor, match])
    rest.extend(sorted(creditors))
    if rest:
        groups.append(rest)
    return groups


def _greedy(group: list[tuple[int, int]]) -> list[Payment]:
    """Largest debtor pays largest creditor (lower id first on ties) until all are clear."""
    owed = dict(group)
    payments: list[Payment] = []
    while any(owed.values()):
        payer = min((amount, player) for player, amount in owed.items() if amount < 0)[1]
        payee = min((-amount, player) for player, amount in owed.items() if amount > 0)[1]
        amount = min(-owed[payer], owed[payee])
        payments.append(Payment(payer, payee, amount))
        owed[payer] += amount
        owed[payee] -= amount
    return payments
