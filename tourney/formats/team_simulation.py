"""Whole team events played out with random board results (``tourney simulate --teams``).

Teams are numbered 1..N (1 the top seed where seeding applies); team t's players are
named ``"t.1"``, ``"t.2"`` ... in board order, and every fixture fields them on boards
1..K in that order. Each board is an ordinary match played game by game through
:mod:`tourney.match` (as :mod:`tourney.formats.simulation` plays one), each fixture is
decided by :func:`tourney.formats.teams.decide_fixture`, and the Swiss pairing, the
knockout bracket and the round-robin tables are the single-player ones with teams as
entrants. The same options and seed always give the same document.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatUserError
from tourney.formats.model import Bye, EntrantId, Standing
from tourney.formats.roundrobin import berger_schedule
from tourney.formats.simulation import (
    ROUND_ROBIN_CHAIN,
    SWISS_CHAIN,
    _game_json,
    check_match_length,
    check_rounds_or_lives,
    match_rules,
    simulate_match,
)
from tourney.formats.swiss import SwissEntrant, default_round_count, pair_round
from tourney.formats.teams import (
    DEFAULT_BOARDS,
    BoardResult,
    FixtureOutcome,
    FixtureResult,
    check_boards,
    decide_fixture,
    team_standings,
)
from tourney.rules import Side
from tourney.rules.messages import Message

Json = dict[str, Any]

TEAM_FORMATS = ("knockout", "swiss", "roundrobin")


@dataclass(frozen=True, slots=True)
class TeamSimulationOptions:
    """What ``tourney simulate --teams`` asks for."""

    format: str
    teams: int
    boards: int = DEFAULT_BOARDS
    rounds: int | None = None
    lives: int | None = None
    """Swiss: a team is out after this many lost fixtures."""
    match_length: int = 5
    seed: int = 0


def _check(options: TeamSimulationOptions) -> None:
    if options.format not in TEAM_FORMATS:
        raise FormatUserError(Message(
            "Unknown format %(name)s; use one of %(known)s.",
            name=repr(options.format), known=str(TEAM_FORMATS),
        ))
    if options.teams < 2:
        raise FormatUserError(Message(
            "A team event needs at least 2 teams; %(count)s asked.", count=options.teams
        ))
    check_boards(options.boards)
    check_match_length(options.match_length)
    check_rounds_or_lives(options.format, options.rounds, options.lives)


def simulate_teams(options: TeamSimulationOptions) -> Json:
    """Play a whole team event and return its JSON document.

    Raises:
        FormatUserError: options that do not make an event.
    """
    _check(options)
    rng = random.Random(options.seed)
    if options.format == "knockout":
        flight = _knockout(options, rng)
    elif options.format == "swiss":
        flight = _swiss(options, rng)
    else:
        flight = _round_robin(options, rng)
    return {
        "seed": options.seed,
        "teams": [
            {"team": t, "players": [f"{t}.{board}" for board in range(1, options.boards + 1)]}
            for t in range(1, options.teams + 1)
        ],
        "boards": options.boards,
        "flights": [flight],
    }


def _fixture(
    a: EntrantId, b: EntrantId, options: TeamSimulationOptions, rng: random.Random
) -> tuple[FixtureResult, Json]:
    """Play one fixture board by board."""
    results: list[BoardResult] = []
    boards: list[Json] = []
    for board in range(1, options.boards + 1):
        state = simulate_match(match_rules(options.match_length), rng)
        a_won = state.winner is Side.X
        results.append(BoardResult(board, a_won, state.score, options.match_length))
        boards.append(
            {
                "board": board,
                "a": f"{a}.{board}",
                "b": f"{b}.{board}",
                "winner": "a" if a_won else "b",
                "score": list(state.score),
                "length": options.match_length,
                "games": _game_json(state),
            }
        )
    result = decide_fixture(results, options.boards)
    winner = a if result.a_won else b
    return result, {
        "a": a,
        "b": b,
        "winner": winner,
        "score": list(result.boards),
        "board_points": list(result.points),
        "decided_by": result.decided_by.value,
        "boards": boards,
    }


def _bye_json(team: EntrantId) -> Json:
    return {"a": team, "b": None, "winner": team, "score": [0, 0], "boards": []}


def _standings_json(rows: Sequence[Standing]) -> list[Json]:
    out: list[Json] = []
    for row in rows:
        item: Json = {"team": row.entrant, "rank": row.rank, "tied": row.tied}
        item.update(dict(row.metrics))
        out.append(item)
    return out


def _swiss(options: TeamSimulationOptions, rng: random.Random) -> Json:
    teams = [EntrantId(i) for i in range(1, options.teams + 1)]
    lives = options.lives
    wins = dict.fromkeys(teams, 0)
    losses = dict.fromkeys(teams, 0)
    had_bye = dict.fromkeys(teams, False)
    played: set[frozenset[int]] = set()
    outcomes: list[FixtureOutcome] = []
    rounds: list[list[Json]] = []
    fixed = options.rounds or default_round_count(options.teams)
    # Each lives round costs at least one life in all, so it ends within teams * lives.
    limit = options.teams * lives if lives else fixed
    for number in range(1, limit + 1):
        active = [t for t in teams if lives is None or losses[t] < lives]
        if len(active) < 2:
            break
        place = {
            row.entrant: i
            for i, row in enumerate(team_standings(outcomes, SWISS_CHAIN, entrants=teams))
        }
        active.sort(key=lambda t: place[t])
        field = [SwissEntrant(t, wins[t], losses[t], had_bye=had_bye[t]) for t in active]
        paired = pair_round(
            field, played, seed=rng.randrange(2**32), record="losses" if lives else "wins"
        )
        this_round: list[Json] = []
        for a_id, b_id in paired.pairings:
            a, b = EntrantId(a_id), EntrantId(b_id)
            result, shown = _fixture(a, b, options, rng)
            outcome = FixtureOutcome(number, a, b, result)
            wins[outcome.winner] += 1
            losses[b if result.a_won else a] += 1
            played.add(frozenset((a, b)))
            outcomes.append(outcome)
            this_round.append(shown)
        if paired.bye is not None:
            # A bye counts as a fixture win (DESIGN §4's default) and wins no board.
            holder = EntrantId(paired.bye)
            wins[holder] += 1
            had_bye[holder] = True
            outcomes.append(FixtureOutcome(number, holder, None, None))
            this_round.append(_bye_json(holder))
        rounds.append(this_round)
    eliminated: dict[EntrantId, str | None] = {}
    if lives:
        eliminated = {t: None for t in teams if losses[t] >= lives}
    return {
        "name": "swiss",
        "format": "swiss",
        "rounds": rounds,
        "standings": _standings_json(team_standings(outcomes, SWISS_CHAIN, entrants=teams)),
        "eliminated_to": eliminated,
    }


def _round_robin(options: TeamSimulationOptions, rng: random.Random) -> Json:
    teams = [EntrantId(i) for i in range(1, options.teams + 1)]
    outcomes: list[FixtureOutcome] = []
    rounds: list[list[Json]] = []
    for number, schedule in enumerate(berger_schedule(teams), start=1):
        this_round: list[Json] = []
        for item in schedule:
            if isinstance(item, Bye):
                # In a round robin the bye is the round off: it scores nothing.
                this_round.append(_bye_json(item.entrant))
                continue
            result, shown = _fixture(item.a, item.b, options, rng)
            outcomes.append(FixtureOutcome(number, item.a, item.b, result))
            this_round.append(shown)
        rounds.append(this_round)
    table = team_standings(outcomes, ROUND_ROBIN_CHAIN, entrants=teams)
    return {
        "name": "roundrobin",
        "format": "roundrobin",
        "rounds": rounds,
        "standings": _standings_json(table),
        "eliminated_to": {},
    }


def _knockout(options: TeamSimulationOptions, rng: random.Random) -> Json:
    teams = [EntrantId(i) for i in range(1, options.teams + 1)]
    positions = ko.random_positions(teams, seed=options.seed)
    bracket = ko.plan_knockout(
        positions, seed=options.seed, lengths=ko.RoundLengths(options.match_length)
    )
    shown_fixtures: dict[str, Json] = {}
    while ready := ko.ready_matches(bracket):
        for match in ready:
            shown = ko.view(bracket, match)
            assert shown.a is not None and shown.b is not None
            result, fixture = _fixture(shown.a, shown.b, options, rng)
            shown_fixtures[match.id] = fixture
            winner = shown.a if result.a_won else shown.b
            bracket = ko.record_result(bracket, match.id, winner, result.boards)
    flight = bracket.flights[0].name
    rounds: dict[int, list[Json]] = {}
    for match in bracket.flight_matches(flight):
        shown = ko.view(bracket, match)
        if shown.status is ko.MatchStatus.VOID:
            continue
        assert shown.a is not None and shown.winner is not None
        rounds.setdefault(match.round, []).append(shown_fixtures.get(match.id, _bye_json(shown.a)))
    return {
        "name": flight,
        "format": "knockout",
        "rounds": [rounds[r] for r in sorted(rounds)],
        "standings": _standings_json(ko.knockout_standings(bracket, flight)),
        "eliminated_to": ko.eliminated_to(bracket, flight),
    }
