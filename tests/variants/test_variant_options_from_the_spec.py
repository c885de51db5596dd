"""The event options VARIANTS.md names that change how checkers move, what a game scores or
how a record is read: crazy narde's head and six-block rules in Gul bara (4.2), Persian
nard after Himly on the long-nardy board (15.1), the chase games' re-roll only for the
lone checker (6.3), Jacquet's 1840 hitting (7.2), extra rolls on the last roll of the
"with draw" option (16.5) and no double before a player's first roll (16.6).

Each case is worked by hand from the option's rule, with the variant's default beside it;
the docstrings and comments show the working.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from click.testing import CliRunner
from nardy_games import roll_action, win
from tables_builders import chase_side, side

from tourney.cli import cli
from tourney.rules import GameEnd, IllegalPlayError, Level, Roll, Side, parse_play
from tourney.rules.layout import BoardLayout
from tourney.rules.moves import Play
from tourney.rules.records import (
    Action,
    GameRecord,
    MatchRecord,
    MatchRules,
    replay,
    validate_record,
)
from tourney.rules.records.model import ErrorKind
from tourney.rules.variant_protocol import DEFAULT_OPTIONS, VariantOptions, VariantPosition
from tourney.rules.variants import (
    CHASE,
    GUL_BARA,
    JACQUET,
    LONG_NARDY,
    MATADOR,
    RUSSIAN,
    Variant,
)

Points = dict[int, int]


def results(variant: Variant, at: VariantPosition, dice: str,
            options: VariantOptions = DEFAULT_OPTIONS) -> list[tuple[Points, Points, int]]:
    """(mover's points, opponent's points, opponent's bar) after each legal turn, sorted."""
    found = []
    for after in variant.legal_positions(at, Roll.parse(dice), options):
        layout = variant.position_layout(after, options)
        found.append((dict(layout.mover.points), dict(layout.opponent.points),
                      layout.opponent.bar))
    return sorted(found, key=lambda item: (sorted(item[0].items()), sorted(item[1].items()),
                                           item[2]))


# --- Gul bara: crazy narde's head and six-block rules (VARIANTS.md 4.2) ------------------

CRAZY = VariantOptions(crazy_narde_head_rule=True)


def test_crazy_narde_takes_one_checker_from_the_head_on_a_plain_roll() -> None:
    """Gul bara's start (each side 15 on its 24; the other side's 24 is X's 12). 3-1:
    24/21, 24/23 and 24/20 land on the other side's 9, 11 and 8, all empty. By default one
    checker may play both dice (24/20) or two may leave (24/21 24/23); under the head
    rule only one leaves, so only 24/20."""
    start = GUL_BARA.initial()
    one_checker = ({24: 14, 20: 1}, {24: 15}, 0)
    two_checkers = ({24: 13, 23: 1, 21: 1}, {24: 15}, 0)

    assert results(GUL_BARA, start, "31") == [one_checker, two_checkers]
    assert results(GUL_BARA, start, "31", CRAZY) == [one_checker]


def test_crazy_narde_takes_two_from_the_head_on_a_doublet_and_one_for_passed_values() -> None:
    """A first turn, so 6-6 is four 6s with no climb. 24/18 lands on the other side's 6
    (empty); 18/12 is its head. By default four checkers go 24/18. Under the head rule a
    doublet takes two from the head: 24/18 24/18, and the other two 6s cannot be played,
    so they pass to the opponent, who takes one checker from his own head with them
    (his 24/18, X's 6, empty; his 18/12 is X's head): X 24:13 18:2, Y 24:14 18:1."""
    start = GUL_BARA.initial()

    assert results(GUL_BARA, start, "66") == [({24: 11, 18: 4}, {24: 15}, 0)]
    assert results(GUL_BARA, start, "66", CRAZY) == [({24: 13, 18: 2}, {24: 14, 18: 1}, 0)]


def test_crazy_narde_forbids_a_six_block_no_opposing_checker_has_passed() -> None:
    """VARIANTS.md's E-LN-4 in Gul bara. X: 24:4 8:1 7:2 6:2 5:2 4:2 3:2; Y: 24:10 (X's 12)
    and 21:5 (X's 9); X's 8 to 1 are Y's 20 to 13, and no Y checker is below them. 6-1
    under the option: a play may not end holding six points in a row there, and takes
    one checker from the head. 8/2 24/23 holds 7-2 (illegal), 7/1 24/23 holds 8-3
    (illegal), 24/18 24/23 takes two from the head; the legal plays are 8/2/1 (the same
    as 8/7/1), 7/1 7/6 and 24/18 8/7. By default all 21 distinct plays stand, 8/2 24/23
    among them."""
    at = GUL_BARA.position_from_layout(BoardLayout(
        side({24: 4, 8: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2}), side({24: 10, 21: 5})))
    block = {24: 3, 23: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2, 2: 1}

    default = [mine for mine, _, _ in results(GUL_BARA, at, "61")]
    assert len(default) == 21 and block in default
    assert [mine for mine, _, _ in results(GUL_BARA, at, "61", CRAZY)] == [
        {24: 4, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2, 1: 1},
        {24: 4, 8: 1, 6: 3, 5: 2, 4: 2, 3: 2, 1: 1},
        {24: 3, 18: 1, 7: 3, 6: 2, 5: 2, 4: 2, 3: 2},
    ]
    with pytest.raises(IllegalPlayError):
        GUL_BARA.check_play(at, Roll(6, 1), parse_play("8/2 24/23"), CRAZY)


# --- long nardy's nard_himly: Persian nard after Himly (VARIANTS.md 15.1) ----------------

HIMLY = VariantOptions(nard_himly=True)


def test_persian_nard_starts_from_backgammons_start_and_plays_a_doublet_once() -> None:
    """Under nard_himly the start is 24:2 13:5 8:3 6:5 each, the sides in opposite ways
    (the other side on X's 1, 12, 17 and 19). 3-3 gives two 3s: 24/21, 13/10, 8/5 and
    6/3 are open; two of them (4 on one origin twice + 6 pairs) or one checker twice
    (24/18, 13/7, 8/2; 6/3/off is not allowed) make 13 plays, each moving 6 pips, not
    12. Without the option long nardy starts with all 15 on the head."""
    start = LONG_NARDY.initial(HIMLY)
    after = LONG_NARDY.legal_positions(start, Roll(3, 3), HIMLY)

    def pips_moved(position: VariantPosition) -> int:
        mover = LONG_NARDY.position_layout(position, HIMLY).mover
        return 167 - sum(point * count for point, count in mover.points.items())

    assert dict(LONG_NARDY.position_layout(start, HIMLY).mover.points) == {
        24: 2, 13: 5, 8: 3, 6: 5}
    assert dict(LONG_NARDY.position_layout(LONG_NARDY.initial()).mover.points) == {24: 15}
    assert len(after) == 13
    assert {pips_moved(position) for position in after} == {6}


def test_persian_nard_hits_a_single_checker() -> None:
    """X: 10:1 6:14; Y has a single checker on X's 7 (its 18) and 14 on X's 24. 3-1:
    10/7* hits it to the bar, the 1 then played 7/6 or 6/5; 10/9/6, 10/9 6/3, 6/3/2 and
    6/3 6/5 hit nothing. Six plays, two of them hits (10/7*/6 and 10/9/6 reach the same
    points, Y's checker on the bar or not)."""
    at = LONG_NARDY.position_from_layout(
        BoardLayout(side({10: 1, 6: 14}), side({18: 1, 1: 14})), HIMLY)

    bars = [bar for _, _, bar in results(LONG_NARDY, at, "31", HIMLY)]
    assert sorted(bars) == [0, 0, 0, 0, 1, 1]


def test_persian_nard_scores_a_mars_by_the_losers_checkers_in_its_starting_table() -> None:
    """X has borne off every checker. Y has borne off five but still has a checker on its
    20 (its starting table, 19-24): Himly's nard scores 2 (mars). Y has borne off none but
    has all fifteen home: 1 (oin), where long nardy's own rule scores a mars (2)."""
    behind = BoardLayout(side({}), side({20: 1, 3: 9}))
    home = BoardLayout(side({}), side({6: 5, 5: 5, 4: 5}))

    behind_level = LONG_NARDY.winning_level(
        LONG_NARDY.position_from_layout(behind, HIMLY), HIMLY)
    assert behind_level is Level.GAMMON
    assert LONG_NARDY.level_points(Level.GAMMON, HIMLY) == 2
    assert LONG_NARDY.winning_level(LONG_NARDY.position_from_layout(home, HIMLY),
                                    HIMLY) is Level.SINGLE
    assert LONG_NARDY.winning_level(LONG_NARDY.position_from_layout(home)) is Level.GAMMON


def test_persian_nard_plays_the_second_players_last_roll_under_the_draw_option() -> None:
    """X has borne off every checker; Y (on roll) has two on its 1 point. With the
    last-roll draw Y still plays 2-1: both come off (the draw the replay then scores);
    without it the game is over and nothing moves."""
    last = VariantOptions(nard_himly=True, last_roll_draw=True)
    at = LONG_NARDY.position_from_layout(BoardLayout(side({1: 2}), side({})), last)

    assert [LONG_NARDY.position_layout(after, last).mover.off
            for after in LONG_NARDY.legal_positions(at, Roll(2, 1), last)] == [15]
    assert [LONG_NARDY.position_layout(after, HIMLY).mover.off
            for after in LONG_NARDY.legal_positions(at, Roll(2, 1), HIMLY)] == [13]


def test_rules_legal_plays_persian_nard_from_its_own_start() -> None:
    runner = CliRunner()
    himly = runner.invoke(cli, ["rules", "legal", "--variant", "long-nardy", "--option",
                                "nard_himly", "start", "31"])
    standard = runner.invoke(cli, ["rules", "legal", "--variant", "standard", "start", "31"])
    shown = runner.invoke(cli, ["rules", "show", "--variant", "long-nardy", "--option",
                                "nard_himly", "start"])

    assert himly.exit_code == 0
    # 3-1 from backgammon's start, as two single moves: backgammon's 16 plays.
    assert himly.stdout == standard.stdout
    assert len(himly.stdout.splitlines()) == 16
    # Backgammon's start drawn by absolute points: X's 24 (A24) holds 2, its 13 (A13) 5.
    assert shown.exit_code == 0
    assert shown.stdout.splitlines()[2].split()[1] == "X5"
    assert shown.stdout.splitlines()[2].split()[-1] == "X2"


# --- the chase games: chase_reroll_after_double=false (VARIANTS.md 6.3) -------------------

LONE_ONLY = VariantOptions(chase_reroll_after_double=False)


def rolls_again(at: VariantPosition, dice: str, options: VariantOptions) -> set[bool]:
    roll = Roll.parse(dice)
    return {CHASE.grants_extra_roll(at, roll, after, options)
            for after in CHASE.legal_positions(at, roll, options)}


def test_chase_rerolls_after_a_doublet_only_for_the_lone_checker_by_option() -> None:
    """The seed's rule (default): every doublet rolls again, so 4-4 from the start (two
    moves of 4) does. BKGM-CTG: only the cornerrattler rolls again, and only after a
    double other than 1-1 and 6-6, which move it: from the start 4-4 does not; a lone
    checker on the corner A12 rolling 3-3 stays and rolls again either way; rolling 1-1
    it hops A12-A7-A6 and rolls again only by the seed's rule."""
    start = CHASE.initial()
    lone = CHASE.position_from_layout(BoardLayout(chase_side(12), chase_side(19, 20)))

    assert rolls_again(start, "44", DEFAULT_OPTIONS) == {True}
    assert rolls_again(start, "44", LONE_ONLY) == {False}
    assert rolls_again(lone, "33", DEFAULT_OPTIONS) == rolls_again(lone, "33", LONE_ONLY) \
        == {True}
    assert [sorted(CHASE.position_layout(after).mover.points)
            for after in CHASE.legal_positions(lone, Roll(1, 1))] == [[6]]
    assert rolls_again(lone, "11", DEFAULT_OPTIONS) == {True}
    assert rolls_again(lone, "11", LONE_ONLY) == {False}


def test_the_reroll_option_is_on_by_default_and_turned_off_by_name_false() -> None:
    runner = CliRunner()
    off = runner.invoke(cli, ["rules", "legal", "--variant", "chase", "--option",
                              "chase_reroll_after_double=false", "start", "31"])
    on = runner.invoke(cli, ["rules", "legal", "--variant", "chase", "start", "31"])
    bad = runner.invoke(cli, ["rules", "legal", "--variant", "chase", "--option",
                              "chase_reroll_after_double=maybe", "start", "31"])

    assert CHASE.option_value("chase_reroll_after_double", DEFAULT_OPTIONS) is True
    assert CHASE.option_phrases(LONE_ONLY) == ("re-roll only for the lone checker",)
    assert (off.exit_code, off.stdout) == (0, on.stdout)
    assert bad.exit_code == 2
    assert "chase_reroll_after_double=false" in bad.stderr


# --- Jacquet and Matador: jacquet_1840_hitting (VARIANTS.md 7.2) -------------------------

HITTING = VariantOptions(jacquet_1840_hitting=True)


@pytest.mark.parametrize("variant", [JACQUET, MATADOR])
def test_jacquet_hits_a_single_checker_only_by_the_1840_option(variant: Variant) -> None:
    """X's courier is home (on its 5), so the talon may move; X also has a checker on 10.
    Y has 14 on its talon (X's 12) and one on its 19 (X's 7). 3-1: 10/7 lands on Y's
    single checker: closed by default, a hit by the option (10/7* then 24/23, 5/4 or 7/6).
    The hit checker enters in Y's first quarter: with 6-2, bar/19 (X's 7, empty after
    10/7*/6) then 19/17; its talon stays shut until a checker of Y is home."""
    at = variant.position_from_layout(
        BoardLayout(side({24: 13, 10: 1, 5: 1}), side({24: 14, 19: 1})), HITTING)

    assert {bar for _, _, bar in results(variant, at, "31")} == {0}
    assert sorted(bar for _, _, bar in results(variant, at, "31", HITTING)).count(1) == 3
    with pytest.raises(IllegalPlayError):
        variant.check_play(at, Roll(3, 1), parse_play("10/7 5/4"))
    hit = variant.check_play(at, Roll(3, 1), parse_play("10/7*/6"), HITTING).turned()
    assert [str(play) for play in variant.legal_play_map(hit, Roll(6, 2), HITTING).values()
            ] == ["25/19 19/17"]


# --- the last-roll draw's compensation_includes_extra_rolls (VARIANTS.md 16.5) -----------

LAST_ROLL = VariantOptions(last_roll_draw=True)
WITH_EXTRA_ROLLS = VariantOptions(last_roll_draw=True, compensation_includes_extra_rolls=True)


def _pips(position: VariantPosition) -> int:
    mover = RUSSIAN.position_layout(position).mover
    return 25 * (mover.pool + mover.bar) + sum(p * n for p, n in mover.points.items())


def _racer(choices: Mapping[VariantPosition, Play]) -> VariantPosition:
    """Bear off as much as possible, then the fewest pips left."""
    return min(choices, key=lambda after: (-after.borne_off()[0], _pips(after), after.to_id()))


@pytest.fixture(scope="module")
def russian_race() -> tuple[list[Action], VariantPosition]:
    """A Russian game where X rolls 6-5 and O 6-4 every turn, each bearing off all it can
    and otherwise keeping the fewest pips: no doublet, so no extra roll. X opens and
    bears off its fifteenth checker first; O is then on roll with 14 on its 1 point and
    one on its 5, none borne off. Returns the actions and O's position."""
    board = RUSSIAN.initial()
    actions: list[Action] = []
    mover = Side.X
    for _ in range(200):
        roll = Roll(6, 5) if mover is Side.X else Roll(6, 4)
        choices = RUSSIAN.legal_play_map(board, roll, LAST_ROLL)
        after = _racer(choices)
        actions.append(roll_action(len(actions) + 2, mover, roll, choices[after]))
        if RUSSIAN.winning_level(after, LAST_ROLL) is not None:
            break
        board, mover = after.turned(), mover.opposite
    second = after.turned()
    assert mover is Side.X
    assert dict(RUSSIAN.position_layout(second).mover.points) == {1: 14, 5: 1}
    return actions, second


def _record(actions: list[Action]) -> MatchRecord:
    return MatchRecord(5, ("X", "O"), (GameRecord(1, 1, (0, 0), 1, None, tuple(actions)),),
                       variant="russian")


def _o_roll(line: int, at: VariantPosition, dice: str) -> tuple[Action, VariantPosition]:
    """O's roll ``dice`` from ``at`` as its one legal play, and the position it reaches."""
    roll = Roll.parse(dice)
    plays = RUSSIAN.legal_play_map(at, roll, WITH_EXTRA_ROLLS)
    assert len(plays) == 1
    after, play = next(iter(plays.items()))
    return roll_action(line, Side.O, roll, play), after


def test_the_last_roll_earns_its_extra_roll_only_by_option(
        russian_race: tuple[list[Action], VariantPosition]) -> None:
    """O's last roll 5-5: four 5s bear off the 5 and three from the 1 point, then the
    complement, four 2s, bears four more off the 1 (no checker higher): every value played,
    8 off, 7 left on the 1. Russian backgammon grants an extra roll; 6-6 then bears the
    seven off (four 6s and three of the 1s) and O has finished.
    Default: the one roll only, so X wins after 5-5, an oin (O has borne off 8), and O's
    6-6 comes after the game ended. With the option: O rolls again, and finishing with
    it draws the game."""
    actions, second = russian_race
    line = len(actions) + 2
    five_five, after = _o_roll(line, second, "55")
    six_six, _ = _o_roll(line + 1, after, "66")
    full = [*actions, five_five, six_six]

    default = replay(_record(full), MatchRules(variant="russian", options=LAST_ROLL))
    extra = replay(_record(full), MatchRules(variant="russian", options=WITH_EXTRA_ROLLS))
    won = replay(_record([*actions, five_five, win(line + 1, Side.X, 1)]),
                 MatchRules(variant="russian", options=LAST_ROLL))

    assert dict(RUSSIAN.position_layout(after).mover.points) == {1: 7}
    assert [(e.line, e.kind) for e in default.errors] == [(line + 1, ErrorKind.TURN_ORDER)]
    assert "comes after the game ended" in default.errors[0].message
    assert extra.errors == ()
    assert (extra.games[0].winner, extra.games[0].end) == (None, GameEnd.DRAWN)
    assert won.errors == ()
    assert (won.games[0].winner, won.games[0].level, won.games[0].points) == (
        Side.X, Level.SINGLE, 1)


def test_a_record_may_leave_out_the_last_roll_only_where_nothing_could_draw(
        russian_race: tuple[list[Action], VariantPosition]) -> None:
    """O has 15 checkers left: one roll bears off at most 8, so by default the last roll
    may be left out and X's win stands as a gammon (2, none borne off). With the extra
    rolls a doublet played in full rolls again, so the draw is still open and a Wins line
    without O's last roll is an error; so is one after 5-5 that leaves O on roll again."""
    actions, second = russian_race
    line = len(actions) + 2
    five_five, _ = _o_roll(line, second, "55")
    no_last_roll = _record([*actions, win(line, Side.X, 2)])
    after_one = _record([*actions, five_five, win(line + 1, Side.X, 1)])

    default = replay(no_last_roll, MatchRules(variant="russian", options=LAST_ROLL))
    extra = replay(no_last_roll, MatchRules(variant="russian", options=WITH_EXTRA_ROLLS))
    extra_after_one = replay(after_one,
                             MatchRules(variant="russian", options=WITH_EXTRA_ROLLS))

    assert default.errors == ()
    assert (default.games[0].level, default.games[0].points) == (Level.GAMMON, 2)
    for report in (extra, extra_after_one):
        assert [e.kind for e in report.errors] == [ErrorKind.RESULT]
        assert "before O's last roll" in report.errors[0].message


def test_extra_rolls_on_the_last_roll_need_the_last_roll_draw() -> None:
    alone = VariantOptions(compensation_includes_extra_rolls=True)

    assert [key for key, _ in RUSSIAN.option_problems(alone)] == [
        "compensation_includes_extra_rolls"]
    assert RUSSIAN.option_problems(WITH_EXTRA_ROLLS) == ()


# --- no_double_on_first_turn (VARIANTS.md 16.6) -----------------------------------------


def _money_game(*actions: dict[str, object]) -> bytes:
    lines = [{"line": number + 2, **action} for number, action in enumerate(actions)]
    return json.dumps({"schema": "tourney.match-record", "version": 1, "match_length": 0,
                       "players": ["Anna", "Boris"],
                       "games": [{"number": 1, "line": 1, "score": None,
                                  "actions": lines}]}).encode()


OPEN_31: dict[str, object] = {"kind": "roll", "text": "31: 8/5 6/5", "dice": [3, 1],
                              "form": "moved", "play": [[8, 5, False], [6, 5, False]]}
NEXT_42: dict[str, object] = {"kind": "roll", "text": "42: 8/4 6/4", "dice": [4, 2],
                              "form": "moved", "play": [[8, 4, False], [6, 4, False]]}


def _with(side_name: str, action: dict[str, object]) -> dict[str, object]:
    return {**action, "side": side_name}


def _double(side_name: str, value: int) -> dict[str, object]:
    return {"kind": "double", "side": side_name, "text": f"Doubles => {value}", "value": value}


def _take(side_name: str) -> dict[str, object]:
    return {"kind": "take", "side": side_name, "text": "Takes"}


def _wins(side_name: str, points: int) -> dict[str, object]:
    return {"kind": "win", "side": side_name, "text": f"Wins {points} points",
            "value": points}


def _resigns(side_name: str) -> dict[str, object]:
    return {"kind": "resign", "side": side_name, "text": "Resigns"}


NO_FIRST_TURN_DOUBLE = MatchRules(options=VariantOptions(no_double_on_first_turn=True))


def test_no_double_before_a_players_own_first_roll_by_option() -> None:
    """Anna opens 3-1; Boris doubles before his first roll (line 3), Anna takes, Boris
    plays 3-1, Anna resigns a single at 2. By default the double is fine; under the
    option it is an illegal double. Boris doubling on his second turn (after his 3-1 and
    Anna's 4-2) is fine either way."""
    early = _money_game(_with("X", OPEN_31), _double("O", 2), _take("X"), _with("O", OPEN_31),
                        _resigns("X"), _wins("O", 2))
    later = _money_game(_with("X", OPEN_31), _with("O", OPEN_31), _with("X", NEXT_42),
                        _double("O", 2), _take("X"), _with("O", NEXT_42), _resigns("X"),
                        _wins("O", 2))

    assert validate_record("early.json", early).errors == ()
    refused = validate_record("early.json", early, rules=NO_FIRST_TURN_DOUBLE)
    assert [(e.line, e.kind) for e in refused.errors] == [(3, ErrorKind.ILLEGAL_DOUBLE)]
    assert "first roll" in refused.errors[0].message
    assert validate_record("later.json", later, rules=NO_FIRST_TURN_DOUBLE).errors == ()


# --- every new option from the registry ----------------------------------------------------

@pytest.mark.parametrize(("name", "key"), [
    ("gul-bara", "crazy_narde_head_rule"), ("long-nardy", "nard_himly"),
    ("jacquet", "jacquet_1840_hitting"), ("matador", "jacquet_1840_hitting"),
    ("russian", "compensation_includes_extra_rolls"), ("acey-deucey", "last_roll_draw"),
    ("acey-deucey-european", "last_roll_draw"), ("asodio", "last_roll_draw"),
    ("standard", "no_double_on_first_turn"), ("misere", "no_double_on_first_turn"),
    ("hypergammon", "no_double_on_first_turn"), ("dutch", "no_double_on_first_turn")])
def test_rules_legal_takes_each_new_option(name: str, key: str) -> None:
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", name, "--option", key,
                                      "start", "31"])

    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip()
