"""What a change of rules or match lengths does to the results already entered.

A director may change an event's rules (Crawford on or off, the cube limit, Jacoby, the
variant and its options) or a drawn flight's match lengths while results exist. Nothing
recorded changes silently: the change is worked out match by match first.

- A recorded game the new rules make impossible (a cube once the cube is off, a gammon
  once gammons do not count, a game after the match is now decided) refuses the change,
  naming each such match and the reason.
- Anything else that would change (which game is the Crawford game, the points a game
  scores, a match's length, whether a match is over) is listed for the director, who
  confirms it; only the confirmed list is applied.

A new match length can end or re-open a match, and the flight follows as it does after a
correction:

- an unfinished match whose score now reaches the length is finished, and its winner
  (and loser) move on as after any result;
- a finished match whose score no longer reaches the length is re-opened, still being
  played at its score; the places its winner and loser had reached are emptied again.
  When a later match already started or was decided on that result (the next knockout
  round, a later Swiss round), the change is refused naming that match: a director
  lengthening the matches does not mean to cancel results played since, and can clear
  those first when that is what they want.

Terminology:
    affected match   a match with games or a result entered whose record reads
                     differently under the new rules or length.
    digest           a short fingerprint of the list of changes the director saw; a
                     confirmation counts only for that very list.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from tourney.formats import swiss
from tourney.formats.flight_formats import flight_format
from tourney.match import MatchEntryError, MatchState, check_final_score
from tourney.match import rescore as engine_rescore
from tourney.rules import Side
from tourney.store import draws, progress, results
from tourney.store.errors import StoreUserError
from tourney.store.tables import Event, Flight, Game, Match, MatchStatus, Round

_RESULTS = ("games", "record", "score")
"""Result sources the rules decide; walkovers and byes do not depend on them."""


class RulesChangeNeedsConfirmation(StoreUserError):
    """The change alters results already entered: ``changes`` lists them, one a match;
    confirm with ``digest`` to apply exactly those."""

    status_code = 409

    def __init__(self, changes: tuple[str, ...], digest: str) -> None:
        super().__init__(
            "This change alters results already entered. Check what would change, then "
            "confirm the change, or keep the rules as they were."
        )
        self.changes = changes
        self.digest = digest


@dataclass
class _Outcome:
    """One match under the new rules: what changes, what it becomes, or why it cannot."""

    match: Match
    length: int
    names: tuple[str, str]
    changes: list[str] = field(default_factory=list)
    problem: str | None = None
    state: MatchState | None = None
    """The rescored match (games entered); none for a final score only."""
    moves_on: bool = False
    """Whether who won (or whether anyone has) changes: the flight must follow."""


def digest(changes: tuple[str, ...]) -> str:
    """The fingerprint of a list of changes, which a confirmation names."""
    return hashlib.sha256("\n".join(changes).encode()).hexdigest()[:16]


def apply_rules_change(
    session: Session,
    event: Event,
    *,
    lengths: Mapping[int, int] | None = None,
    confirmed: str | None = None,
) -> tuple[str, ...]:
    """Bring every result of ``event`` in line with its rules as they now stand (already
    set on ``event``) and with ``lengths`` (match id -> new length; others keep theirs).

    Called by the event and flight update use cases inside their transaction (they write
    the audit entry, with the changes this returns).

    Raises:
        StoreUserError: a recorded game becomes impossible, or a re-opened match has later
            results built on it; the message names every such match.
        RulesChangeNeedsConfirmation: results would change and ``confirmed`` is not the
            digest of that list of changes.
    """
    lengths = lengths or {}
    outcomes = _outcomes(session, event, lengths)
    problems = [f"{_label(session, o.match)}: {o.problem}" for o in outcomes if o.problem]
    if problems:
        raise StoreUserError(
            "These rules do not fit the results already entered, so nothing was changed. "
            + " ".join(problems)
            + " Correct or delete those games first, or keep the rules as they were."
        )
    changes = tuple(
        f"{_label(session, o.match)}: {'; '.join(o.changes)}." for o in outcomes if o.changes
    )
    if changes and confirmed != digest(changes):
        raise RulesChangeNeedsConfirmation(changes, digest(changes))
    for outcome in outcomes:
        _write(session, outcome)
    for match_id, length in lengths.items():
        row = session.get(Match, match_id)
        if row is not None:
            row.match_length = length
    session.flush()
    for outcome in outcomes:
        if outcome.moves_on:
            progress.sync_after_result(session, outcome.match)
    session.flush()
    return changes


def _outcomes(session: Session, event: Event, lengths: Mapping[int, int]) -> list[_Outcome]:
    flights = select(Flight.id).where(Flight.event_id == event.id)
    rounds = {
        r.id: r.number for r in session.exec(select(Round).where(col(Round.flight_id).in_(flights)))
    }
    matches = session.exec(
        select(Match)
        .where(col(Match.flight_id).in_(flights), col(Match.result_source).in_(_RESULTS))
        .order_by(col(Match.flight_id), col(Match.round_id), col(Match.position))
    ).all()
    outcomes = []
    for match in sorted(matches, key=lambda m: (m.flight_id, rounds[m.round_id], m.position)):
        length = lengths.get(match.id or 0, match.match_length)
        outcome = _Outcome(match, length, results.side_names(session, match))
        games = progress.games_of(session, match.id or 0)
        if games:
            _rescore(event, outcome, games)
        else:
            _check_score(event, outcome)
        if outcome.problem is None and outcome.moves_on and _was_decided(match):
            _check_nothing_built_on(session, outcome)
        outcomes.append(outcome)
    return outcomes


def _was_decided(match: Match) -> bool:
    return match.status == MatchStatus.FINISHED.value


def _score(score: tuple[int, int]) -> str:
    return f"{score[0]}–{score[1]}"


def _rescore(event: Event, outcome: _Outcome, games: list[Game]) -> None:
    match = outcome.match
    rules = progress.match_rules(event, outcome.length)
    result = engine_rescore(rules, [progress.game_entry(g) for g in games],
                            start=progress.match_start(match))
    if result.rejected:
        # The engine's reason names the game ("in game 3 the cube must stay at 1").
        outcome.problem = result.rejected[0].message
        return
    state = outcome.state = result.state
    for row, scored in zip(games, state.games, strict=True):
        crawford = scored.kind.value == "crawford"
        if crawford and not row.is_crawford:
            outcome.changes.append(f"game {row.number} becomes the Crawford game")
        elif row.is_crawford and not crawford:
            outcome.changes.append(f"game {row.number} is no longer the Crawford game")
        if scored.points != row.points:
            outcome.changes.append(
                f"game {row.number} scores {scored.points} instead of {row.points}"
            )
    old = (match.score_a, match.score_b)
    was_over = _was_decided(match)
    winner = None
    if state.is_over:
        winner = match.entry_a_id if state.winner is Side.X else match.entry_b_id
    outcome.moves_on = state.is_over != was_over or (was_over and winner != match.winner_entry_id)
    _describe_result(outcome, old, state.score, was_over, state.is_over, state.winner)


def _describe_result(
    outcome: _Outcome,
    old: tuple[int, int],
    new: tuple[int, int],
    was_over: bool,
    is_over: bool,
    winner: Side | None,
) -> None:
    """The sentence about the match as a whole: its length, score and whether it is over."""
    length, previous = outcome.length, outcome.match.match_length
    if was_over and not is_over:
        outcome.changes.append(
            f"its score of {_score(old)} would become a match to {length} still playing"
        )
    elif is_over and not was_over:
        name = outcome.names[0 if winner is Side.X else 1]
        outcome.changes.append(
            f"its score of {_score(new)} would finish the match to {length}, won by {name}"
        )
    elif new != old:
        outcome.changes.append(f"its score of {_score(old)} would become {_score(new)}")
    elif length != previous:
        standing = "stands" if is_over else "stays as it is, still playing"
        outcome.changes.append(
            f"it becomes a match to {length} (was {previous}); its score of {_score(old)} "
            f"{standing}"
        )


def _check_score(event: Event, outcome: _Outcome) -> None:
    """A match entered as a final score only: the score must still finish it legally."""
    match = outcome.match
    rules = progress.match_rules(event, outcome.length)
    old = (match.score_a, match.score_b)
    try:
        winner = check_final_score(rules, old, start=progress.match_start(match))
    except MatchEntryError as error:
        outcome.problem = (
            f"it was entered as a final score of {_score(old)}, which no longer fits: "
            f"{error.message}"
        )
        return
    if (match.entry_a_id if winner is Side.X else match.entry_b_id) != match.winner_entry_id:
        outcome.problem = f"its final score of {_score(old)} would change who won"
        return
    if outcome.length != match.match_length:
        outcome.changes.append(
            f"it becomes a match to {outcome.length} (was {match.match_length}); its final "
            f"score of {_score(old)} stands"
        )


def _check_nothing_built_on(session: Session, outcome: _Outcome) -> None:
    """A decided match re-opened (or won by the other player) must have nothing built on it."""
    match = outcome.match
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    assert flight is not None and rnd is not None
    later = results.dependent_results(session, match, flight, rnd)
    if later:
        named = "; ".join(results.describe_match(session, m) for m in later)
        outcome.problem = (
            f"its result of {_score((match.score_a, match.score_b))} would no longer stand, "
            f"and later results depend on it: {named}"
        )


def _write(session: Session, outcome: _Outcome) -> None:
    """Store the match as the new rules score it (only when something changed)."""
    if not outcome.changes or outcome.state is None:
        return
    state = outcome.state
    games = progress.games_of(session, outcome.match.id or 0)
    for row, scored in zip(games, state.games, strict=True):
        row.points = scored.points
        row.is_crawford = scored.kind.value == "crawford"
    results.set_match_state(outcome.match, state, source=outcome.match.result_source)


def _label(session: Session, match: Match) -> str:
    """A match as the director finds it on the flight page: "Main round 1 match 2 (Ann – Bob)"."""
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    a, b = results.side_names(session, match)
    where = f"{flight.name} round" if flight else "Round"
    return f"{where} {rnd.number if rnd else '?'} match {match.position} ({a} – {b})"


def flight_lengths(session: Session, flight: Flight) -> tuple[dict[int, int], dict[int, int]]:
    """The match length every drawn round and match of ``flight`` has under its settings
    as they now stand: (round id -> length, match id -> length).

    A knockout's rounds take the lengths the bracket planner gives ("final: 7" is the
    last round of the flight); a Swiss or round robin's, the lengths its draw gives.
    """
    rounds = progress.flight_rounds(session, flight.id or 0)
    if progress.is_knockout(flight):
        by_round = _knockout_round_lengths(session, flight, rounds)
    else:
        total: int | None = len(rounds)
        if flight_is_swiss(flight):
            players = len(progress.swiss_field(session, flight).records)
            total = swiss.round_limit(
                rounds=flight.swiss_rounds, lives=flight.swiss_lives, players=players
            )
        by_round = {r.id or 0: draws.length_for(flight, r.number, total) for r in rounds}
    by_match = {
        m.id or 0: by_round.get(m.round_id, m.match_length)
        for m in progress.flight_matches(session, flight.id or 0)
    }
    return by_round, by_match


def flight_is_swiss(flight: Flight) -> bool:
    """Whether the flight pairs round by round (a Swiss)."""
    return flight_format(flight.format).pairs_round_by_round


def _knockout_round_lengths(
    session: Session, flight: Flight, rounds: list[Round]
) -> dict[int, int]:
    """Lengths of a knockout flight's rounds, counted within each bracket it holds."""
    root = progress.plan_root(session, flight)
    lengths = draws.round_lengths(flight)
    if root is None or root.bracket_plan is None:
        return {r.id or 0: lengths.for_round(r.number, len(rounds)) for r in rounds}
    plan = progress.stored_plan(session, root)
    sizes = {f.name: f.rounds for f in plan.flights}
    by_number = {
        r.number: lengths.for_round(r.round, sizes[r.bracket_flight])
        for r in plan.rounds
        if r.flight_id == flight.id
    }
    return {r.id or 0: by_number.get(r.number, r.match_length) for r in rounds}
