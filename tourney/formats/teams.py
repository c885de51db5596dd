"""Team events: a fixture's result from its board matches, and team standings.

Terminology:
    team      an entrant made of 2-7 players in a board order (board 1 first).
    board     one ordinary match of a fixture, between the two teams' players on that
              board (or a *pair*: two players consulting on one side of a board).
    fixture   two teams meeting in a round: N board matches (3 by default).
    board points
              the points a team won across a fixture's boards, each board's points
              capped at its match length (as net game points cap a match, so an
              overshooting last game counts no extra).

A fixture is won by the team that wins the majority of its boards. With an even N the
board count can be level; then the team with more board points wins, and when those are
level too the winner of the top board decides (so every fixture has a winner, and a team
event pairs, eliminates and counts lives exactly as a single-player event does).

Team standings count fixture wins first, then board wins, then the event's tiebreak
chain, where net game points are the team's net board points.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tourney.formats.errors import FormatUserError
from tourney.formats.model import EntrantId, MatchOutcome, Standing
from tourney.formats.standings import compute_standings
from tourney.formats.tiebreaks import Record, Tiebreak
from tourney.rules.messages import N_, Message, PluralMessage

MIN_TEAM_SIZE: Final = 2
MAX_TEAM_SIZE: Final = 7
DEFAULT_BOARDS: Final = 3
MAX_BOARDS: Final = MAX_TEAM_SIZE
TEAM_FLIGHT_FORMATS: Final = ("knockout", "swiss", "roundrobin")
"""The flight formats teams play (no double elimination, no fed flights)."""


class BoardOrder(StrEnum):
    """How a team event sets who plays which board."""

    FIXED = "fixed"
    """Each team's board order, fixed when it is entered."""
    PER_FIXTURE = "per_fixture"
    """The director names each team's line-up for each fixture."""

    @property
    def label(self) -> str:
        """As a form offers it."""
        return _ORDER_LABELS[self]


_ORDER_LABELS: Final = {
    BoardOrder.FIXED: N_("Fixed board order"),
    BoardOrder.PER_FIXTURE: N_("Line-up named for each fixture"),
}


def find_board_order(key: str) -> BoardOrder:
    """The board order stored as ``key``.

    Raises:
        FormatUserError: no board order has that key.
    """
    try:
        return BoardOrder(key)
    except ValueError:
        known = ", ".join(order.value for order in BoardOrder)
        raise FormatUserError(Message(
            "Unknown board order %(key)s: use one of %(known)s.", key=repr(key), known=known
        )) from None


class DecidedBy(StrEnum):
    """What settled a fixture."""

    BOARDS = "boards"
    """One team won the majority of the boards."""
    BOARD_POINTS = "board_points"
    """The board count was level (an even N): more board points."""
    TOP_BOARD = "top_board"
    """Boards and board points level: the winner of board 1."""

    @property
    def label(self) -> str:
        """As a fixture page says it."""
        return _DECIDED_LABELS[self]


_DECIDED_LABELS: Final = {
    DecidedBy.BOARDS: "on boards",
    DecidedBy.BOARD_POINTS: "on board points",
    DecidedBy.TOP_BOARD: "on the top board",
}


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A finished board match of a fixture, seen from the fixture's sides."""

    board: int
    """1 = the top board."""
    a_won: bool
    score: tuple[int, int]
    """Points of team a's and team b's player (may overshoot ``length``)."""
    length: int
    """The board's match length."""


@dataclass(frozen=True, slots=True)
class FixtureResult:
    """How a fixture ended."""

    boards: tuple[int, int]
    """Boards won by team a and team b."""
    points: tuple[int, int]
    """Board points of team a and team b."""
    a_won: bool
    decided_by: DecidedBy

    @property
    def score_label(self) -> str:
        """``2–1`` (boards), with board points when those decided: ``2–2 (14–11)``."""
        text = f"{self.boards[0]}–{self.boards[1]}"
        if self.decided_by is not DecidedBy.BOARDS:
            text += f" ({self.points[0]}–{self.points[1]})"
        return text


def check_boards(boards: int) -> None:
    """Refuse a fixture size a team cannot field.

    Raises:
        FormatUserError: fewer than 1 or more than 7 boards.
    """
    if not 1 <= boards <= MAX_BOARDS:
        raise FormatUserError(Message(
            "A fixture has 1 to %(most)s boards (a team has at most %(team)s players); "
            "%(boards)s asked.",
            most=MAX_BOARDS, team=MAX_TEAM_SIZE, boards=boards,
        ))


def check_team_size(name: str, size: int, boards: int = MIN_TEAM_SIZE) -> None:
    """Refuse a team of the wrong size.

    Raises:
        FormatUserError: fewer than 2 (or than ``boards``) or more than 7 players.
    """
    least = max(MIN_TEAM_SIZE, boards)
    if not least <= size <= MAX_TEAM_SIZE:
        # English says "player(s)" for any number; other languages choose their form.
        raise FormatUserError(PluralMessage(
            "Team %(name)s has %(count)s player(s); a team needs %(least)s to %(most)s.",
            "Team %(name)s has %(count)s player(s); a team needs %(least)s to %(most)s.",
            size, name=repr(name), least=least, most=MAX_TEAM_SIZE,
        ))


def decide_fixture(results: Sequence[BoardResult], boards: int) -> FixtureResult:
    """The result of a fixture of ``boards`` boards from its finished board matches.

    >>> decide_fixture([BoardResult(1, True, (5, 3), 5), BoardResult(2, False, (2, 5), 5),
    ...                 BoardResult(3, True, (7, 4), 5)], 3).boards
    (2, 1)

    Raises:
        FormatUserError: not exactly one result for each board 1..N.
    """
    numbers = sorted(result.board for result in results)
    if numbers != list(range(1, boards + 1)):
        raise FormatUserError(Message(
            "A fixture of %(boards)s boards needs one result for each board; "
            "boards %(numbers)s have one.",
            boards=boards, numbers=str(numbers),
        ))
    won_a = sum(1 for result in results if result.a_won)
    won_b = boards - won_a
    points_a = sum(min(r.score[0], r.length) for r in results)
    points_b = sum(min(r.score[1], r.length) for r in results)
    if won_a != won_b:
        return FixtureResult((won_a, won_b), (points_a, points_b), won_a > won_b, DecidedBy.BOARDS)
    if points_a != points_b:
        return FixtureResult(
            (won_a, won_b), (points_a, points_b), points_a > points_b, DecidedBy.BOARD_POINTS
        )
    top = next(result for result in results if result.board == 1)
    return FixtureResult((won_a, won_b), (points_a, points_b), top.a_won, DecidedBy.TOP_BOARD)


def majority(boards: int) -> int:
    """Boards a team must win to be sure of the fixture (3 boards: 2; 4 boards: 3)."""
    return boards // 2 + 1


def is_decided(won: tuple[int, int], boards: int) -> bool:
    """Whether a fixture's winner is known from the boards finished so far."""
    return max(won) >= majority(boards)


@dataclass(frozen=True, slots=True)
class FixtureOutcome:
    """A finished fixture (or a bye) as team standings see it."""

    round: int
    a: EntrantId
    b: EntrantId | None
    """``None`` for a bye."""
    result: FixtureResult | None
    """``None`` for a bye."""

    @property
    def winner(self) -> EntrantId:
        """The team that won (the bye's team for a bye)."""
        if self.b is None or self.result is None:
            return self.a
        return self.a if self.result.a_won else self.b

    def as_match(self) -> MatchOutcome:
        """The fixture as a match outcome whose score is the board points (no cap)."""
        if self.b is None or self.result is None:
            return MatchOutcome(self.round, self.a, None, self.a)
        return MatchOutcome(self.round, self.a, self.b, self.winner, self.result.points, 0)


def board_wins(outcomes: Iterable[FixtureOutcome]) -> dict[EntrantId, int]:
    """Boards won by each team over ``outcomes`` (a bye wins no board)."""
    won: dict[EntrantId, int] = {}
    for outcome in outcomes:
        won.setdefault(outcome.a, 0)
        if outcome.b is None or outcome.result is None:
            continue
        won.setdefault(outcome.b, 0)
        won[outcome.a] += outcome.result.boards[0]
        won[outcome.b] += outcome.result.boards[1]
    return won


def board_wins_tiebreak(won: Mapping[EntrantId, int]) -> Tiebreak:
    """The second key of team standings: boards won (not in the event's chain registry)."""

    def metric(
        entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
    ) -> dict[EntrantId, int]:
        return {entrant: won.get(entrant, 0) for entrant in entrants}

    return Tiebreak(
        key="board_wins",
        metric_key="board-wins",
        name="board wins",
        short_name="Boards",
        explanation="Boards won in all fixtures.",
        metric=metric,
    )


def team_standings(
    outcomes: Sequence[FixtureOutcome],
    chain: Sequence[Tiebreak] = (),
    *,
    entrants: Collection[EntrantId] = (),
    bye_is_win: bool = True,
) -> tuple[Standing, ...]:
    """Team standings: fixture wins (metric ``wins``), then ``board-wins``, then ``chain``.

    >>> r = FixtureResult((2, 1), (12, 9), True, DecidedBy.BOARDS)
    >>> [(s.entrant, s.metrics[:2]) for s in team_standings([FixtureOutcome(1, 1, 2, r)])]
    [(1, (('wins', 1), ('board-wins', 2))), (2, (('wins', 0), ('board-wins', 1)))]
    """
    won = board_wins(outcomes)
    for entrant in entrants:
        won.setdefault(entrant, 0)
    return compute_standings(
        [outcome.as_match() for outcome in outcomes],
        (board_wins_tiebreak(won), *chain),
        entrants=entrants,
        bye_is_win=bye_is_win,
    )


def fixed_lineup(members: Sequence[int], boards: int) -> tuple[int, ...]:
    """The players on boards 1..N of a team playing in its fixed board order.

    Raises:
        FormatUserError: the team has fewer players than boards.
    """
    if len(members) < boards:
        raise FormatUserError(Message(
            "A team of %(count)s players cannot field %(boards)s boards.",
            count=len(members), boards=boards,
        ))
    return tuple(members[:boards])


def check_lineup(members: Collection[int], lineup: Sequence[int], boards: int) -> None:
    """Refuse a per-fixture board order that is not ``boards`` distinct team members.

    Raises:
        FormatUserError: the wrong number of players, a player twice, or a non-member.
    """
    if len(lineup) != boards:
        raise FormatUserError(
            Message("Name one player for each of the %(boards)s boards.", boards=boards)
        )
    if len(set(lineup)) != len(lineup):
        raise FormatUserError(Message("A player can play only one board of a fixture."))
    if not set(lineup) <= set(members):
        raise FormatUserError(Message("Every board must be played by a member of the team."))
