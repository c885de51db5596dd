"""The worked examples of VARIANTS.md section 18 for Misère (backgammon to lose): the first
side to bear off every checker loses, every win scores single times the cube, and the
moves are backgammon's."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner
from tables_builders import position, side

from tourney.cli import cli
from tourney.match import GameEntry, MatchRules, score_match
from tourney.rules import GameEnd, Level, Roll, Side, legal_positions
from tourney.rules.board import Position
from tourney.rules.records import record_from_json, replay
from tourney.rules.tables import Outcome, TablesPosition, tables_outcome
from tourney.rules.variants import MISERE, STANDARD

START = {24: 2, 13: 5, 8: 3, 6: 5}


def outcome(at: object) -> Outcome:
    engine = MISERE.engine.engine  # type: ignore[attr-defined]
    assert isinstance(at, TablesPosition)
    return tables_outcome(engine, at)


def test_a_forced_bear_off_of_the_last_checker_loses() -> None:
    # E-MIS-1: X {1:1}, 14 off; Y all 15 on the board. 2-1: the only play bears the last
    # checker off (either die from the 1 point), so X is first off and loses.
    at = position(MISERE, side({1: 1}), side({6: 5, 5: 5, 4: 5}))

    found = MISERE.legal_positions(at, Roll(2, 1))

    assert len(found) == 1
    after = next(iter(found))
    assert MISERE.position_layout(after).mover.off == 15
    assert outcome(after) is Outcome.OPPONENT_WON
    assert MISERE.winning_level(after) is None
    # Seen from Y (next on roll) the game is Y's, single.
    assert MISERE.winning_level(after.turned()) == Level.SINGLE
    assert MISERE.level_points(Level.SINGLE) == 1


def test_a_win_against_a_checker_on_the_bar_scores_only_the_cube() -> None:
    # E-MIS-2: cube 4; X bears off its 15th while Y has borne off none and has a checker on
    # the bar: Y wins 4 (no gammon or backgammon in misère).
    finished = position(MISERE, side({}), side({6: 14}, bar=1))

    level = MISERE.winning_level(finished.turned())
    score = score_match(MatchRules(7, variant=MISERE),
                        [GameEntry(Side.O, GameEnd.PLAYED, cube=4, level=level)])

    assert level == Level.SINGLE
    assert MISERE.levels() == (Level.SINGLE,)
    assert (MISERE.level_points(Level.GAMMON), MISERE.level_points(Level.BACKGAMMON)) == (1, 1)
    assert tuple(score.score) == (0, 4)
    assert (MISERE.uses_cube(), MISERE.can_open_with_doublet) == (True, False)


def test_misere_moves_are_backgammons_moves() -> None:
    # The same position and roll give the same results as standard backgammon (whose
    # generator is checked against gnubg), compared as layouts.
    rng = random.Random(5)
    at = Position.from_points(START, START)
    differences = []
    for _ in range(300):
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        ours = MISERE.position_from_layout(STANDARD.position_layout(at))
        expected = {json.dumps(STANDARD.position_layout(p).mover.points, sort_keys=True)
                    + str(STANDARD.position_layout(p).opponent.bar)
                    for p in legal_positions(at, roll)}
        found = {json.dumps(MISERE.position_layout(p).mover.points, sort_keys=True)
                 + str(MISERE.position_layout(p).opponent.bar)
                 for p in MISERE.legal_positions(ours, roll)}
        if found != expected:
            differences.append((at, roll))
        after = rng.choice(sorted(legal_positions(at, roll), key=lambda p: p.to_id()))
        at = Position.from_points(START, START) if STANDARD.winning_level(after) else \
            after.turned()

    assert differences == []


def _random_game(seed: int) -> tuple[list[dict[str, object]], Side]:
    """A whole misère game of random legal plays as JSON record actions, and the side
    that bore off first."""
    rng = random.Random(seed)
    at = MISERE.initial()
    actions: list[dict[str, object]] = []
    side_on_roll = Side.X
    while True:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        if not actions and roll.is_doublet:
            continue  # backgammon's opening roll is never a doublet
        plays = sorted(MISERE.legal_play_map(at, roll).items(), key=lambda item: item[0].to_id())
        after, play = rng.choice(plays)
        moves = [[move.origin, move.destination, False] for move in play.moves]
        actions.append({"line": len(actions) + 2, "kind": "roll", "side": side_on_roll.name,
                        "dice": [roll.first, roll.second],
                        "form": "moved" if moves else "dance", "play": moves})
        if after.borne_off()[0] == 15:
            return actions, side_on_roll
        at, side_on_roll = after.turned(), side_on_roll.opposite


def test_a_record_replay_gives_the_game_to_the_side_that_did_not_finish_first() -> None:
    actions, first_off = _random_game(3)
    record = record_from_json({
        "schema": "tourney.match-record", "version": 1, "match_length": 1,
        "players": ["Ann", "Bob"], "variant": "misere",
        "games": [{"number": 1, "line": 1, "actions": actions}]})

    report = replay(record)

    assert report.errors == ()
    assert [(g.winner, g.points, g.level) for g in report.games] == [
        (first_off.opposite, 1, Level.SINGLE)]


def test_rules_legal_from_the_misere_start_is_backgammons() -> None:
    # 3-1 from the start: 8/5 6/5, 24/21 24/23 or 24/20, 13/10 13/12, ... the same 16
    # results as backgammon; the output IDs equal standard's.
    misere = CliRunner().invoke(cli, ["rules", "legal", "--variant", "misere", "start", "31"])
    standard = CliRunner().invoke(cli, ["rules", "legal", "--variant", "standard",
                                        "4HPwATDgc/ABMA", "31"])

    assert (misere.exit_code, standard.exit_code) == (0, 0)
    assert len(misere.stdout.splitlines()) == len(standard.stdout.splitlines()) == 16


def test_rules_show_and_json_for_misere() -> None:
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "misere", "start"])
    legal = CliRunner().invoke(cli, ["rules", "legal", "--variant", "misere", "--json",
                                     "start", "21"])

    assert shown.exit_code == 0
    assert "Position ID" in shown.stdout
    assert legal.exit_code == 0
    boards = [json.loads(line) for line in legal.stdout.splitlines()]
    assert {board["on_roll"] for board in boards} == {"o"}
