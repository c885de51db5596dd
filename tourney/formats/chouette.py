"""Chouettes: one player, the box, against a team, for money.

The captain rolls and moves for the team; every team member has a cube of their own and
takes or drops alone, so each member's game against the box is scored on its own (a
session may instead play with one team cube, :func:`team_cube_results`). After each game
the captain's result decides who moves where (DESIGN section 7).

Terminology:
    box       the player alone against the team.
    captain   the team member who rolls and moves for the team this game.
    line      the other team members, in the order they will become captain.
    members   the captain, then the line: everyone playing against the box.
    units     stakes won (positive) or lost (negative) in a game, as in
              :mod:`tourney.formats.money`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tourney.formats.errors import FormatUserError
from tourney.formats.money import (
    CubeOptions,
    MoneyEnd,
    MoneyGame,
    StakeMode,
    check_game,
    game_units,
)
from tourney.rules.messages import Message, message_of

MIN_PLAYERS = 3
MAX_PLAYERS = 8

BOX_WINS = 0
""":attr:`MoneyGame.winner` when the box won against a member."""
MEMBER_WINS = 1
""":attr:`MoneyGame.winner` when the member won against the box."""


@dataclass(frozen=True)
class ChouetteState:
    """Who is box, captain and in the line before a game; player ids throughout."""

    box: int
    captain: int
    line: tuple[int, ...]
    """The other team members, in the order they will be captain."""

    @property
    def members(self) -> tuple[int, ...]:
        """The team: the captain first, then the line."""
        return (self.captain, *self.line)

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone at the table: the box, then the team."""
        return (self.box, *self.members)


def start(players: Sequence[int]) -> ChouetteState:
    """The first game's places: ``players[0]`` the box, ``players[1]`` the captain, the
    rest the line in their order.

    Raises:
        FormatUserError: fewer than 3 or more than 8 players, or a player named twice.
    """
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise FormatUserError(Message(
            "A chouette needs %(least)s to %(most)s players, not %(count)s.",
            least=MIN_PLAYERS, most=MAX_PLAYERS, count=len(players),
        ))
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if list(players).count(p) > 1})
        raise FormatUserError(Message(
            "Each player sits once in a chouette; named twice: %(players)s.",
            players=", ".join(map(str, twice)),
        ))
    return ChouetteState(box=players[0], captain=players[1], line=tuple(players[2:]))


@dataclass(frozen=True)
class MemberResult:
    """One team member's game against the box."""

    member: int
    game: MoneyGame
    """Winner 0: the box won against this member; 1: the member won."""


@dataclass(frozen=True)
class ChouetteOutcome:
    """What one game did: the places for the next game and everyone's units."""

    after: ChouetteState
    units: dict[int, int]
    """Each player's units this game, the box first; they sum to 0."""


def play_game(
    state: ChouetteState,
    results: Sequence[MemberResult],
    mode: StakeMode,
    options: CubeOptions,
) -> ChouetteOutcome:
    """Score one game of a chouette and move the players on.

    Each member settles with the box alone; the box's units are minus the members' sum.
    The captain's result decides the rotation: when the box beats the captain, the captain
    goes to the end of the line; when the captain beats the box, the captain becomes the
    box and the old box goes to the end of the line. Either way the first of the line
    becomes captain.

    Members who played the game out all saw the same finish, so they must share its
    winner, level and checkers left; a member who dropped or had a resignation accepted
    ended their own game earlier and may differ.

    Raises:
        FormatUserError: not exactly one result for each team member, a result for
            someone else, an impossible game (:func:`~tourney.formats.money.check_game`),
            or played-out results that disagree.
    """
    by_member: dict[int, MemberResult] = {}
    for result in results:
        if result.member not in state.members:
            raise FormatUserError(Message(
                "Player %(player)s is not on the team this game.", player=result.member
            ))
        if result.member in by_member:
            raise FormatUserError(Message(
                "Player %(player)s has more than one result.", player=result.member
            ))
        by_member[result.member] = result
    missing = [m for m in state.members if m not in by_member]
    if missing:
        raise FormatUserError(Message(
            "Every team member needs a result; missing: %(players)s.",
            players=", ".join(map(str, missing)),
        ))
    for member in state.members:
        try:
            check_game(by_member[member].game, options)
        except FormatUserError as error:
            raise FormatUserError(Message(
                "Player %(player)s: %(error)s", player=member, error=message_of(error)
            )) from None
    _check_same_finish([by_member[m] for m in state.members])

    member_units: dict[int, int] = {}
    for member in state.members:
        game = by_member[member].game
        won = game_units(game, mode, options)
        member_units[member] = won if game.winner == MEMBER_WINS else -won
    units = {state.box: -sum(member_units.values()), **member_units}

    captain_won = by_member[state.captain].game.winner == MEMBER_WINS
    if captain_won:
        queue = (*state.line, state.box)
        after = ChouetteState(box=state.captain, captain=queue[0], line=queue[1:])
    else:
        queue = (*state.line, state.captain)
        after = ChouetteState(box=state.box, captain=queue[0], line=queue[1:])
    return ChouetteOutcome(after=after, units=units)


def _check_same_finish(results: Sequence[MemberResult]) -> None:
    played = [r for r in results if r.game.end is MoneyEnd.PLAYED]
    if not played:
        return
    first = played[0].game
    for result in played[1:]:
        game = result.game
        if (game.winner, game.level, game.checkers_left) != (
            first.winner,
            first.level,
            first.checkers_left,
        ):
            raise FormatUserError(Message(
                "Players %(first)s and %(second)s both played the game out, "
                "so they share its winner, level and checkers left.",
                first=played[0].member, second=result.member,
            ))


def team_cube_results(state: ChouetteState, game: MoneyGame) -> tuple[MemberResult, ...]:
    """The results under one team cube: every member shares the captain's cube and game."""
    return tuple(MemberResult(member=member, game=game) for member in state.members)


def running_chouette_totals(
    players: Sequence[int], outcomes: Sequence[ChouetteOutcome]
) -> tuple[dict[int, int], ...]:
    """Every player's total units after each game, in the order ``players`` names them.

    Raises:
        FormatUserError: a game gives units to someone not in ``players``.
    """
    totals = dict.fromkeys(players, 0)
    after_each: list[dict[int, int]] = []
    for number, outcome in enumerate(outcomes, start=1):
        for player, units in outcome.units.items():
            if player not in totals:
                raise FormatUserError(Message(
                    "Game %(number)s: player %(player)s is not in the chouette.",
                    number=number, player=player,
                ))
            totals[player] += units
        after_each.append(dict(totals))
    return tuple(after_each)
