"""The worked examples of VARIANTS.md section 18 for the seed's American game: both sides
run the same way round from starts a quarter apart (White's point p is Black's p + 6),
White enters nine checkers from its pool, nothing is hit, and White's win scores 3 to
Black's 1."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner
from tables_builders import side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.layout import BoardLayout
from tourney.rules.records import validate_record
from tourney.rules.variant_protocol import VariantOptions, VariantPosition
from tourney.rules.variants import AMERICAN

WHITE_START = {24: 2, 23: 2, 22: 2}
BLACK_START = {22: 2, 21: 5, 20: 3, 19: 5}


def white_after(at: VariantPosition, dice: str, options: VariantOptions | None = None
                ) -> list[tuple[dict[int, int], int]]:
    """(White's points, pool) after each legal turn of ``dice``, sorted."""
    found = AMERICAN.legal_positions(at, Roll.parse(dice), options or VariantOptions())
    read = [(dict(layout.mover.points), layout.mover.pool)
            for layout in (AMERICAN.position_layout(after) for after in found)]
    return sorted(read, key=lambda item: (sorted(item[0].items()), item[1]))


def moved(start: dict[int, int], pool: int, *moves: tuple[int, int]) -> tuple[dict[int, int], int]:
    """White's (points, pool) after single moves worked by hand; 25 is the pool."""
    points = dict(start)
    for origin, target in moves:
        if origin == 25:
            pool -= 1
        else:
            points[origin] -= 1
            if not points[origin]:
                del points[origin]
        points[target] = points.get(target, 0) + 1
    return points, pool


def sorted_layouts(items: list[tuple[dict[int, int], int]]) -> list[tuple[dict[int, int], int]]:
    unique = {(tuple(sorted(points.items())), pool): (points, pool) for points, pool in items}
    return sorted(unique.values(), key=lambda item: (sorted(item[0].items()), item[1]))


def test_the_start_puts_white_on_roll_a_quarter_behind_black() -> None:
    start = AMERICAN.position_layout(AMERICAN.initial())

    assert (dict(start.mover.points), start.mover.pool) == (WHITE_START, 9)
    assert (dict(start.opponent.points), start.opponent.pool) == (BLACK_START, 0)
    # Black's 22-19 are White's 16-13 (holes 9-12 of the seed's near row).
    assert "O5    O3    O5    O2" in AMERICAN.format_board(AMERICAN.initial())


def test_whites_first_six_two_has_twelve_plays() -> None:
    # E-AM-1: 6s enter/19 (Black's 1, empty), 24/18, 23/17 (22/16 is Black's 22); 2s
    # enter/23, 24/22, 23/21, 22/20. Every one-checker 8 from the board lands on W16-W14.
    sixes = [(25, 19), (24, 18), (23, 17)]
    twos = [(25, 23), (24, 22), (23, 21), (22, 20)]
    expected = sorted_layouts([moved(WHITE_START, 9, six, two) for six in sixes for two in twos])

    assert len(expected) == 12
    assert white_after(AMERICAN.initial(), "62") == expected
    for illegal in ("22/16 24/22", "24/16", "24/18"):
        with pytest.raises(IllegalPlayError):
            AMERICAN.check_play(AMERICAN.initial(), Roll(6, 2), parse_play(illegal))


def test_a_six_that_cannot_enter_is_played_on_the_board() -> None:
    # E-AM-2: Black has a checker on its 1 point (White's 19) and fourteen on its 22
    # (White's 16). White's 6 cannot enter; it must be played on the board: 24/18 or
    # 23/17, with the 1 anywhere, or the 1 and the 6 by one checker (22/21/15).
    at = AMERICAN.position_from_layout(BoardLayout(
        side(WHITE_START, pool=9), side({1: 1, 22: 14})))
    ones = [(25, 24), (24, 23), (23, 22), (22, 21)]
    expected = sorted_layouts(
        [moved(WHITE_START, 9, six, one) for six in ((24, 18), (23, 17)) for one in ones]
        + [moved(WHITE_START, 9, (24, 18), (18, 17)), moved(WHITE_START, 9, (22, 21), (21, 15))])

    assert white_after(at, "61") == expected
    with pytest.raises(IllegalPlayError):
        AMERICAN.check_play(at, Roll(6, 1), parse_play("bar/19 24/23"))


def test_black_moves_by_its_own_numbering_white_minus_six() -> None:
    # Black on roll (a turn behind White) with a checker on its 10 and fourteen on its
    # 24 (White's 4 and 18); White holds its 22 and 23, which are Black's 4 and 5. Black
    # 6-5: 10/4 and 10/5 are closed, so only the 24s move: 24/18 24/19, or one 24/13.
    at = AMERICAN.position_from_layout(BoardLayout(
        side({10: 1, 24: 14}), side({22: 2, 23: 2}), turns_played=(3, 4)))
    found = AMERICAN.legal_positions(at, Roll(6, 5))

    assert sorted(sorted(AMERICAN.position_layout(p).mover.points.items()) for p in found) == [
        [(10, 1), (13, 1), (24, 13)], [(10, 1), (18, 1), (19, 1), (24, 12)]]
    with pytest.raises(IllegalPlayError):
        AMERICAN.check_play(at, Roll(6, 5), parse_play("10/4 24/19"))


def test_white_enters_every_checker_first_where_the_event_says_so() -> None:
    enter_first = VariantOptions(american_enter_all_first=True)

    assert white_after(AMERICAN.initial(), "62", enter_first) == [
        moved(WHITE_START, 9, (25, 19), (25, 23))]


def test_whites_win_scores_three_and_blacks_one() -> None:
    # E-AM-3: once White (who moved first) has played its winning turn it has played one
    # turn more than Black; once Black has, as many.
    white_won = AMERICAN.position_from_layout(BoardLayout(
        side({}), side({7: 15}), turns_played=(20, 19)))
    black_won = AMERICAN.position_from_layout(BoardLayout(
        side({}), side({7: 15}), turns_played=(20, 20)))

    assert AMERICAN.winning_level(white_won) == Level.GAMMON
    assert AMERICAN.winning_level(black_won) == Level.SINGLE
    assert [AMERICAN.level_points(level) for level in AMERICAN.levels()] == [1, 3]
    assert AMERICAN.level_names[Level.GAMMON] == "win as White"
    assert not AMERICAN.uses_cube()


def test_rules_legal_and_show_from_the_american_start() -> None:
    # 3-1 entering both: White's 22 and 24 gain one each.
    legal = CliRunner().invoke(cli, ["rules", "legal", "--variant", "american", "--json",
                                     "start", "31"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "american", "start"])

    assert (legal.exit_code, shown.exit_code) == (0, 0)
    results = [json.loads(line)["x"] for line in legal.stdout.splitlines()]
    assert {"bar": 0, "off": 0, "points": {"22": 3, "23": 2, "24": 3}, "pool": 7} in results
    assert all(not set(r["points"]) & {"13", "14", "15", "16"} for r in results)
    assert "pool 9" in shown.stdout


def _random_game(opener: str, seed: int) -> tuple[list[dict[str, Any]], str, bool]:
    """A game of random legal plays from the start: its actions, the winner's side, and
    whether the winner is White (the opener)."""
    rng = random.Random(seed)
    at, mover, actions, line = AMERICAN.initial(), opener, [], 2
    while True:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        plays = AMERICAN.legal_play_map(at, roll)
        after, play = sorted(plays.items(), key=lambda item: item[0].to_id())[
            rng.randrange(len(plays))]
        text = " ".join(str(m) for m in play.moves)
        actions.append({"line": line, "kind": "roll", "side": mover,
                        "text": f"{roll.first}{roll.second}: {text}",
                        "dice": [roll.first, roll.second],
                        "form": "moved" if play.moves else "dance",
                        "play": [[m.origin, m.destination, False] for m in play.moves]})
        line += 1
        if AMERICAN.winning_level(after) is not None:
            return actions, mover, mover == opener
        at, mover = after.turned(), "O" if mover == "X" else "X"


@pytest.mark.parametrize("opener", ["X", "O"])
def test_a_record_scores_each_game_by_the_winners_colour(opener: str) -> None:
    actions, winner, white_won = _random_game(opener, seed=5 if opener == "X" else 8)
    stake = 3 if white_won else 1
    actions.append({"line": len(actions) + 2, "kind": "win", "side": winner,
                    "text": f"Wins {stake} point{'s' if stake > 1 else ''}", "value": stake})
    record = {"schema": "tourney.match-record", "version": 1, "match_length": 0,
              "players": ["Ann", "Bob"], "variant": "american",
              "games": [{"number": 1, "line": 1, "score": None, "actions": actions}]}

    report = validate_record("american.json", json.dumps(record).encode())

    assert [e.message for e in report.errors] == []
    assert report.final_score == ((stake, 0) if winner == "X" else (0, stake))
