"""Whole events played out with random game results, for demonstrations and fuzzing.

Every match goes through the real match scoring (:mod:`tourney.match`) game by game, and
every draw, pairing and standings table through the real format code: a simulation
takes no shortcut the live event would not. Random results respect the rules: the cube
stays at 1 and nobody drops a double in the Crawford game or in a 1-point match.

The event's *variant* (standard, nackgammon, hypergammon or long nardy) sets the match
scoring: results come only from the levels the variant scores (long nardy: oin and mars),
and without a cube (long nardy by default) every game is played out at 1.

The output is the plain-data document of the ``tourney simulate --json`` contract
(DESIGN §5). The same options and seed always give the same document.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatUserError
from tourney.formats.model import Bye, EntrantId, MatchId, MatchOutcome, Pairing, Standing
from tourney.formats.roundrobin import berger_schedule, pools_schedule, split_pools
from tourney.formats.stages import (
    Qualifier,
    StageLink,
    check_pool_sizes,
    check_stage_link,
    cut_table,
    pool_label,
    pool_positions,
)
from tourney.formats.standings import compute_standings
from tourney.formats.swiss import SwissEntrant, default_round_count, pair_round
from tourney.formats.tiebreaks import (
    BUCHHOLZ,
    HEAD_TO_HEAD,
    MEDIAN_BUCHHOLZ,
    NET_GAME_POINTS,
    SONNEBORN_BERGER,
)
from tourney.match import (
    GameEntry,
    MatchRules,
    MatchState,
    add_game,
    doubling_restriction,
    score_match,
)
from tourney.rules import GameEnd, NotationError, Side
from tourney.rules.match_forms import (
    SINGLE,
    MatchForm,
    match_form_named,
    registered_match_forms,
)
from tourney.rules.messages import Message
from tourney.rules.variants import STANDARD, registered_variants, variant_named
from tourney.rules.variants import GameVariant as AnyVariant

FORMATS = ("knockout", "swiss", "roundrobin")

SWISS_CHAIN = (BUCHHOLZ, MEDIAN_BUCHHOLZ, NET_GAME_POINTS)
ROUND_ROBIN_CHAIN = (HEAD_TO_HEAD, SONNEBORN_BERGER, NET_GAME_POINTS)

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SimulationOptions:
    """What ``tourney simulate`` asks for."""

    format: str
    players: int
    rounds: int | None = None
    """Swiss: fixed number of rounds (default ceil(log2 n)); round robin: ignored."""
    lives: int | None = None
    """Swiss: a player is out after this many losses."""
    consolation: bool = False
    last_chance: bool = False
    double_elimination: bool = False
    match_length: int = 5
    seed: int = 0
    variant: str = "standard"
    """The variant's name (``standard``, ``nackgammon``, ``hypergammon``, ``long``/
    ``long-nardy``); its default event options set the scoring."""
    match_form: str = SINGLE.name
    """The match form's name (``tavli``: each game in its turn's variant)."""
    pools: int | None = None
    """Round robin: played in this many pools (snake-seeded by player id)."""
    qualifiers: int | None = None
    """The top K of each pool (of the Swiss) then play a knockout."""


def match_rules(
    length: int, variant: AnyVariant = STANDARD, form: MatchForm = SINGLE
) -> MatchRules:
    """The rules of one simulated match: the variant (or the match form's variants in
    turn) with its default event options."""
    return MatchRules(length, variant=variant, form=form)


# --- one match -----------------------------------------------------------------------

_LEVEL_WEIGHTS = (70, 25, 5)
"""Relative chances of a single, a gammon and a backgammon (of the levels a variant has)."""
_CUBE_WEIGHTS = (45, 35, 15, 5)


def random_game(state: MatchState, rng: random.Random) -> GameEntry:
    """A random game that the rules allow as the next game of ``state``."""
    winner = Side(rng.randrange(2))
    # Only the levels the variant scores (long nardy: oin and mars; hypergammon: single).
    game_rules = state.rules.for_game(state.next_number)
    levels = game_rules.variant.levels(game_rules.options)
    weights = _LEVEL_WEIGHTS[: len(levels)]
    if doubling_restriction(state) is not None:
        # No cube in a 1-point match, the Crawford game or a variant played without it:
        # played out or resigned at 1.
        end = rng.choice((GameEnd.PLAYED, GameEnd.RESIGNED))
        return GameEntry(winner, end, 1, rng.choices(levels, weights)[0])
    exponent = rng.choices(range(len(_CUBE_WEIGHTS)), _CUBE_WEIGHTS)[0]
    cube = 1 << exponent
    limit = state.rules.cube_limit
    if limit is not None:
        cube = min(cube, limit)
    # A drop refuses a further double, impossible with the cube already at the limit.
    if rng.random() < 0.3 and (limit is None or cube < limit):
        return GameEntry.dropped(winner, cube)
    end = GameEnd.PLAYED if rng.random() < 0.8 else GameEnd.RESIGNED
    return GameEntry(winner, end, cube, rng.choices(levels, weights)[0])


def simulate_match(rules: MatchRules, rng: random.Random) -> MatchState:
    """A whole match of random games, each entered through ``add_game``."""
    state = score_match(rules, [])
    while not state.is_over:
        state = add_game(state, random_game(state, rng))
    return state


def _game_json(state: MatchState) -> list[Json]:
    return [
        {
            "winner": "a" if game.winner is Side.X else "b",
            "end": game.entry.end.value,
            "cube": game.entry.cube,
            "level": None if game.entry.level is None else game.entry.level.name.lower(),
            "kind": game.kind.value,
            "points": game.points,
            "score": list(game.score_after),
        }
        for game in state.games
    ]


def _played(
    a: EntrantId,
    b: EntrantId,
    length: int,
    rng: random.Random,
    variant: AnyVariant,
    form: MatchForm = SINGLE,
) -> tuple[EntrantId, MatchState]:
    state = simulate_match(match_rules(length, variant, form), rng)
    return (a if state.winner is Side.X else b), state


def _match_json(
    a: EntrantId, b: EntrantId | None, winner: EntrantId, length: int, state: MatchState | None
) -> Json:
    return {
        "a": a,
        "b": b,
        "winner": winner,
        "length": length,
        "score": list(state.score) if state else [0, 0],
        "games": _game_json(state) if state else [],
    }


def _standings_json(rows: Sequence[Standing]) -> list[Json]:
    out: list[Json] = []
    for row in rows:
        item: Json = {"player": row.entrant, "rank": row.rank, "tied": row.tied}
        item.update(dict(row.metrics))
        if row.reason is not None:
            item["reason"] = row.reason
        out.append(item)
    return out


# --- events --------------------------------------------------------------------------


def simulate(options: SimulationOptions) -> Json:
    """Play a whole event and return the ``simulate --json`` document.

    Raises:
        FormatUserError: options that do not make an event (too few players, options
            of another format, a match length below 1).
    """
    variant = _check(options)
    form = _form(options)
    rng = random.Random(options.seed)
    if options.format == "knockout":
        flights = _simulate_knockout(options, rng, variant, form)
    elif options.format == "swiss":
        flights = [_simulate_swiss(options, rng, variant, form)]
    elif options.pools is not None:
        flights = [_simulate_pools(options, rng, variant, form)]
    else:
        flights = [_simulate_round_robin(options, rng, variant, form)]
    if options.qualifiers is not None:
        flights.append(_simulate_stage_knockout(options, flights[0], rng, variant, form))
    document: Json = {"seed": options.seed, "variant": variant.name, "flights": flights}
    if not form.is_single:
        document["match_form"] = form.name
    return document


def _form(options: SimulationOptions) -> MatchForm:
    """The match form ``options`` names.

    Raises:
        FormatUserError: no match form has that name.
    """
    try:
        return match_form_named(options.match_form)
    except NotationError:
        known = ", ".join(form.name for form in registered_match_forms())
        raise FormatUserError(Message(
            "Unknown match form %(name)s; choose one of %(known)s.",
            name=repr(options.match_form), known=known,
        )) from None


def simulation_variant(options: SimulationOptions) -> AnyVariant:
    """The variant ``options`` names.

    Raises:
        FormatUserError: no variant has that name.
    """
    try:
        return variant_named(options.variant)
    except NotationError:
        known = ", ".join(variant.name for variant in registered_variants())
        raise FormatUserError(Message(
            "Unknown variant %(name)s; choose one of %(known)s.",
            name=repr(options.variant), known=known,
        )) from None


def _check(options: SimulationOptions) -> AnyVariant:
    variant = simulation_variant(options)
    if options.format not in FORMATS:
        raise FormatUserError(Message(
            "Unknown format %(name)s; use one of %(known)s.",
            name=repr(options.format), known=str(FORMATS),
        ))
    if options.players < 2:
        raise FormatUserError(Message(
            "An event needs at least 2 players; %(count)s asked.", count=options.players
        ))
    check_match_length(options.match_length)
    knockout_only = options.consolation or options.last_chance or options.double_elimination
    if knockout_only and options.format != "knockout":
        raise FormatUserError(Message(
            "--consolation, --last-chance and --double-elimination need --format knockout."
        ))
    if options.double_elimination and (options.consolation or options.last_chance):
        raise FormatUserError(
            Message("A double elimination has no consolation or last chance flight.")
        )
    check_rounds_or_lives(options.format, options.rounds, options.lives)
    if options.pools is not None and options.format != "roundrobin":
        raise FormatUserError(Message("--pools needs --format roundrobin."))
    if options.qualifiers is not None:
        if options.format == "knockout":
            raise FormatUserError(
                Message("--qualifiers needs a round robin or a Swiss to qualify from.")
            )
        pools = options.pools or 1
        check_stage_link(StageLink(pools, options.qualifiers))
        if options.players < pools * 2:
            raise FormatUserError(Message(
                "%(count)s players cannot make %(pools)s pools of at least 2 players.",
                count=options.players, pools=pools,
            ))
        check_pool_sizes([options.players // pools], options.qualifiers)
    return variant


def check_match_length(length: int) -> None:
    """Refuse a simulated match length below 1 point.

    Raises:
        FormatUserError: the length is below 1.
    """
    if length < 1:
        raise FormatUserError(
            Message("A match is played to at least 1 point, not %(length)s.", length=length)
        )


def check_rounds_or_lives(event_format: str, rounds: int | None, lives: int | None) -> None:
    """Refuse ``--rounds``/``--lives`` outside a Swiss, both at once, or below 1.

    Raises:
        FormatUserError: one sentence naming the problem.
    """
    if (rounds is not None or lives is not None) and event_format != "swiss":
        raise FormatUserError(Message("--rounds and --lives need --format swiss."))
    if rounds is not None and lives is not None:
        raise FormatUserError(Message("Give --rounds or --lives, not both."))
    if rounds is not None and rounds < 1:
        raise FormatUserError(
            Message("A Swiss needs at least one round, not %(rounds)s.", rounds=rounds)
        )
    if lives is not None and lives < 1:
        raise FormatUserError(
            Message("A lives Swiss needs at least one life, not %(lives)s.", lives=lives)
        )


def knockout_plan(options: SimulationOptions) -> ko.Bracket:
    """The bracket a knockout simulation plays: a random draw from the seed.

    The main draw plays to the match length; a consolation (main round-1 losers and
    first-match losers after a bye) two points shorter; a last chance four points shorter,
    a fresh draw of the consolation's round-1 and round-2 losers (or, without a
    consolation, of the main draw's). Lengths never go below 1.
    """
    length = options.match_length
    players = [EntrantId(i) for i in range(1, options.players + 1)]
    positions = ko.random_positions(players, seed=options.seed)
    if options.double_elimination:
        return ko.plan_double_elimination(
            positions, seed=options.seed, lengths=ko.RoundLengths(length)
        )
    fed: list[ko.FlightSpec] = []
    if options.consolation:
        fed.append(
            ko.FlightSpec(
                "consolation",
                ko.RoundLengths(max(length - 2, 1)),
                ko.Feed("main", (1,), first_match_losers=True),
            )
        )
    if options.last_chance:
        source = "consolation" if options.consolation else "main"
        fed.append(
            ko.FlightSpec(
                "last-chance",
                ko.RoundLengths(max(length - 4, 1)),
                ko.FreshDraw(((source, (1, 2)),)),
            )
        )
    return ko.plan_knockout(positions, seed=options.seed, lengths=ko.RoundLengths(length), fed=fed)


def play_bracket(
    bracket: ko.Bracket,
    rng: random.Random,
    *,
    variant: AnyVariant = STANDARD,
    form: MatchForm = SINGLE,
) -> tuple[ko.Bracket, dict[MatchId, MatchState]]:
    """Play every match of a bracket as it becomes ready, in flight, round, index order,
    under ``variant``'s scoring (each game's own variant in a match ``form``)."""
    states: dict[MatchId, MatchState] = {}
    while True:
        ready = ko.ready_matches(bracket)
        if not ready:
            return bracket, states
        for match in ready:
            shown = ko.view(bracket, match)
            assert shown.a is not None and shown.b is not None
            winner, state = _played(shown.a, shown.b, match.length, rng, variant, form)
            states[match.id] = state
            bracket = ko.record_result(bracket, match.id, winner, state.score)


def _simulate_knockout(
    options: SimulationOptions, rng: random.Random, variant: AnyVariant, form: MatchForm
) -> list[Json]:
    bracket, states = play_bracket(knockout_plan(options), rng, variant=variant, form=form)
    flights: list[Json] = []
    for flight in bracket.flights:
        rounds: dict[int, list[Json]] = {}
        for match in bracket.flight_matches(flight.name):
            shown = ko.view(bracket, match)
            if shown.status is ko.MatchStatus.VOID:
                continue
            assert shown.a is not None and shown.winner is not None
            rounds.setdefault(match.round, []).append(
                _match_json(shown.a, shown.b, shown.winner, match.length, states.get(match.id))
            )
        flights.append(
            {
                "name": flight.name,
                "format": flight.format,
                "rounds": [rounds[r] for r in sorted(rounds)],
                "standings": _standings_json(ko.knockout_standings(bracket, flight.name)),
                "eliminated_to": ko.eliminated_to(bracket, flight.name),
            }
        )
    return flights


def _simulate_swiss(
    options: SimulationOptions, rng: random.Random, variant: AnyVariant, form: MatchForm
) -> Json:
    players = [EntrantId(i) for i in range(1, options.players + 1)]
    lives = options.lives
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    had_bye = dict.fromkeys(players, False)
    played: set[frozenset[int]] = set()
    outcomes: list[MatchOutcome] = []
    rounds: list[list[Json]] = []
    fixed = options.rounds or default_round_count(options.players)
    # A lives Swiss ends when at most one player has lives left; each round costs at
    # least one life in all, so it cannot run longer than everyone's lives together.
    limit = options.players * lives if lives else fixed
    for number in range(1, limit + 1):
        active = [p for p in players if lives is None or losses[p] < lives]
        if len(active) < 2:
            break
        table = compute_standings(outcomes, SWISS_CHAIN, entrants=players)
        place = {row.entrant: i for i, row in enumerate(table)}
        active.sort(key=lambda p: place[p])
        field = [SwissEntrant(p, wins[p], losses[p], had_bye=had_bye[p]) for p in active]
        paired = pair_round(
            field,
            played,
            seed=rng.randrange(2**32),
            record="losses" if lives else "wins",
        )
        this_round: list[Json] = []
        for a_id, b_id in paired.pairings:
            a, b = EntrantId(a_id), EntrantId(b_id)
            length = options.match_length
            winner, state = _played(a, b, length, rng, variant, form)
            loser = b if winner == a else a
            wins[winner] += 1
            losses[loser] += 1
            played.add(frozenset((a, b)))
            outcomes.append(MatchOutcome(number, a, b, winner, state.score, length))
            this_round.append(_match_json(a, b, winner, length, state))
        if paired.bye is not None:
            # A bye counts as a match win in the standings (DESIGN §4, the default).
            holder = EntrantId(paired.bye)
            wins[holder] += 1
            had_bye[holder] = True
            outcomes.append(
                MatchOutcome(number, holder, None, holder, (0, 0), options.match_length)
            )
            this_round.append(_match_json(holder, None, holder, options.match_length, None))
        rounds.append(this_round)
    eliminated: dict[EntrantId, str | None] = {}
    if lives:
        eliminated = {p: None for p in players if losses[p] >= lives}
    return {
        "name": "swiss",
        "format": "swiss",
        "rounds": rounds,
        "standings": _standings_json(compute_standings(outcomes, SWISS_CHAIN, entrants=players)),
        "eliminated_to": eliminated,
    }


def _simulate_pools(
    options: SimulationOptions, rng: random.Random, variant: AnyVariant, form: MatchForm
) -> Json:
    """Round robins played side by side in snake-seeded pools (player 1 the top seed)."""
    players = [EntrantId(i) for i in range(1, options.players + 1)]
    pools = split_pools(players, options.pools or 1)
    pool_of = {entrant: index for index, pool in enumerate(pools) for entrant in pool}
    outcomes: list[list[MatchOutcome]] = [[] for _ in pools]
    rounds: list[list[Json]] = []
    length = options.match_length
    for number, schedule in enumerate(pools_schedule(pools), start=1):
        this_round: list[Json] = []
        for item in schedule:
            if isinstance(item, Bye):
                this_round.append(_match_json(item.entrant, None, item.entrant, length, None))
                continue
            winner, state = _played(item.a, item.b, length, rng, variant, form)
            outcomes[pool_of[item.a]].append(
                MatchOutcome(number, item.a, item.b, winner, state.score, length)
            )
            this_round.append(_match_json(item.a, item.b, winner, length, state))
        rounds.append(this_round)
    tables = [
        compute_standings(outcomes[i], ROUND_ROBIN_CHAIN, entrants=pool)
        for i, pool in enumerate(pools)
    ]
    return {
        "name": "pools",
        "format": "roundrobin",
        "rounds": rounds,
        "standings": [
            {**row, "pool": pool_label(i)}
            for i, table in enumerate(tables)
            for row in _standings_json(table)
        ],
        "pools": [
            {"name": pool_label(i), "players": list(pool), "standings": _standings_json(tables[i])}
            for i, pool in enumerate(pools)
        ],
        "eliminated_to": {},
    }


def _simulate_stage_knockout(
    options: SimulationOptions,
    stage: Json,
    rng: random.Random,
    variant: AnyVariant,
    form: MatchForm,
) -> Json:
    """The knockout of the stage's top K (of each pool), placed as a live event places
    them: pool winners against other pools' runners-up, Swiss qualifiers by place."""
    k = options.qualifiers or 0
    if "pools" in stage:
        cuts = [
            cut_table(_rows(pool["standings"]), k, pool=index).qualifiers
            for index, pool in enumerate(stage["pools"])
        ]
        positions = pool_positions(cuts)
        qualified = [q for cut in cuts for q in cut]
    else:
        qualified = list(cut_table(_rows(stage["standings"]), k).qualifiers)
        if stage["format"] == "roundrobin":
            qualified = [Qualifier(q.entrant, q.place, 0) for q in qualified]
        positions = ko.seeded_positions([q.entrant for q in qualified])
    bracket = ko.plan_knockout(
        positions, seed=options.seed, lengths=ko.RoundLengths(options.match_length), name="knockout"
    )
    bracket, states = play_bracket(bracket, rng, variant=variant, form=form)
    rounds: dict[int, list[Json]] = {}
    for match in bracket.flight_matches("knockout"):
        shown = ko.view(bracket, match)
        if shown.status is ko.MatchStatus.VOID:
            continue
        assert shown.a is not None and shown.winner is not None
        rounds.setdefault(match.round, []).append(
            _match_json(shown.a, shown.b, shown.winner, match.length, states.get(match.id))
        )
    return {
        "name": "knockout",
        "format": "knockout",
        "qualifiers": [{"player": q.entrant, "origin": q.origin} for q in qualified],
        "rounds": [rounds[r] for r in sorted(rounds)],
        "standings": _standings_json(ko.knockout_standings(bracket, "knockout")),
        "eliminated_to": ko.eliminated_to(bracket, "knockout"),
    }


def _rows(standings: Sequence[Json]) -> list[Standing]:
    """Standings rows back from their JSON (rank, tie flag and order are all a cut needs)."""
    return [
        Standing(EntrantId(row["player"]), row["rank"], row["tied"], (("wins", row["wins"]),))
        for row in standings
    ]


def _simulate_round_robin(
    options: SimulationOptions, rng: random.Random, variant: AnyVariant, form: MatchForm
) -> Json:
    players = [EntrantId(i) for i in range(1, options.players + 1)]
    outcomes: list[MatchOutcome] = []
    rounds: list[list[Json]] = []
    length = options.match_length
    for number, schedule in enumerate(berger_schedule(players), start=1):
        this_round: list[Json] = []
        for item in schedule:
            if isinstance(item, Bye):
                # In a round robin the bye is just the round off: it scores nothing.
                this_round.append(_match_json(item.entrant, None, item.entrant, length, None))
                continue
            assert isinstance(item, Pairing)
            winner, state = _played(item.a, item.b, length, rng, variant, form)
            outcomes.append(MatchOutcome(number, item.a, item.b, winner, state.score, length))
            this_round.append(_match_json(item.a, item.b, winner, length, state))
        rounds.append(this_round)
    table = compute_standings(outcomes, ROUND_ROBIN_CHAIN, entrants=players)
    return {
        "name": "roundrobin",
        "format": "roundrobin",
        "rounds": rounds,
        "standings": _standings_json(table),
        "eliminated_to": {},
    }
