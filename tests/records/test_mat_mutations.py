"""Valid corpus files changed on purpose to break exactly one rule each.

Each case says which rule it breaks and the errors that rule must produce, worked out
from the rule (line numbers are those of the changed file). Where one change forces a
second finding (a double changes what the game is worth), the case says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from records_data import GNUBG

from tourney.rules import Position, Roll, check_play, parse_play
from tourney.rules.records import ErrorKind, MatchRules, validate_mat


@dataclass(frozen=True)
class Mutation:
    name: str
    file: str
    replace: dict[int, tuple[str, str]] = field(default_factory=dict)
    """line -> (old text, new text) within that line (original numbering)."""
    insert_after: dict[int, list[str]] = field(default_factory=dict)
    delete: tuple[int, int] | None = None
    """An inclusive range of original lines to remove."""
    expected: list[tuple[int | None, int | None, ErrorKind]] = field(default_factory=list)
    rules: MatchRules | None = None

    def apply(self) -> str:
        lines = (GNUBG / self.file).read_text().split("\n")
        out: list[str] = []
        for number, line in enumerate(lines, start=1):
            if self.delete and self.delete[0] <= number <= self.delete[1]:
                continue
            if number in self.replace:
                old, new = self.replace[number]
                assert old in line, f"{self.name}: {old!r} not on line {number}: {line!r}"
                line = line.replace(old, new, 1)
            out.append(line)
            out.extend(self.insert_after.get(number, []))
        return "\n".join(out)


K = ErrorKind
MUTATIONS = [
    # Maximum use: X plays only the 2 of 4-2 although the 4 can be played too.
    Mutation("unused-die-left", "gnubg_L03_s1001.mat",
             replace={10: ("42: 6/4* 8/4", "42: 6/4*    ")},
             expected=[(1, 10, K.ILLEGAL_PLAY)]),
    # O's 8/4 is four pips, but only the 3 of 3-1 is left after 6/5.
    Mutation("die-mismatch-right", "gnubg_L03_s1001.mat",
             replace={11: ("31: 6/5 8/5", "31: 6/5 8/4")},
             expected=[(1, 11, K.ILLEGAL_PLAY)]),
    # O was just hit (X's 6/4*), so O must enter from the bar before moving 24/22.
    Mutation("bar-first-right", "gnubg_L03_s1001.mat",
             replace={10: ("22: 25/23 13/11", "22: 24/22 13/11")},
             expected=[(1, 10, K.ILLEGAL_PLAY)]),
    # X writes a dance with 4-2 in a position where 4-2 plays.
    Mutation("false-dance-left", "gnubg_L03_s1001.mat",
             replace={13: ("42: 8/6 6/2*", "42:         ")},
             expected=[(1, 13, K.FALSE_DANCE)]),
    # O is on the bar after X's 24/21*, and 5-2 enters: the dance is false.
    Mutation("false-dance-right-game-2", "gnubg_L03_s1013.mat",
             replace={22: ("52: 25/20 6/4*", "52:           ")},
             expected=[(2, 22, K.FALSE_DANCE)]),
    # Game 2 of this 3-point match is the Crawford game (score 0-2). A double there is
    # illegal; it also makes the bear-off worth 2, so the Wins 1 and the next score line
    # disagree with the replay.
    Mutation("crawford-double", "gnubg_L03_s1007.mat",
             insert_after={86: [" 35)  Doubles => 2                Takes"]},
             expected=[(2, 87, K.ILLEGAL_DOUBLE), (2, 89, K.RESULT), (3, 92, K.SCORE_LINE)]),
    # No cube in a 1-point match; the taken cube doubles O's single win to 2.
    Mutation("one-point-match-double", "gnubg_L01_s1042.mat",
             insert_after={10: ["  3)  Doubles => 2                Takes"]},
             expected=[(1, 11, K.ILLEGAL_DOUBLE), (1, 41, K.RESULT)]),
    # O owns the cube at 2 (took on line 15); X may not double it. O drops: X wins 2.
    Mutation("double-by-non-owner-left", "gnubg_L03_s1001.mat",
             insert_after={16: ["  9)  Doubles => 4                Drops", "      Wins 2 points"]},
             delete=(17, 41),
             expected=[(1, 17, K.ILLEGAL_DOUBLE)]),
    # X owns the cube at 4 (took O's redouble on line 20); O may not double it.
    Mutation("double-by-non-owner-right", "gnubg_L03_s1001.mat",
             replace={22: ("31: 8/5 5/4 ", " Doubles => 8")},
             insert_after={22: [" 15)  Drops                       Wins 4 points "]},
             delete=(23, 41),
             expected=[(1, 22, K.ILLEGAL_DOUBLE)]),
    # Take and drop with no double offered, in both columns; X's Wins 1 then reads as
    # O's resignation of a single game, which is legal.
    Mutation("answers-without-double", "gnubg_L03_s1013.mat",
             replace={15: ("Doubles => 2                Drops",
                           "Takes                       Drops")},
             expected=[(1, 15, K.CUBE_RESPONSE), (1, 15, K.CUBE_RESPONSE)]),
    # Game 1 went to X for 1, so game 2 starts 1-0, not 0-1.
    Mutation("score-line", "gnubg_L03_s1013.mat",
             replace={19: ("GnubgA : 1                     GnubgB : 0",
                           "GnubgA : 0                     GnubgB : 1")},
             expected=[(2, 19, K.SCORE_LINE)]),
    # A dropped double at cube 1 scores 1, not 2.
    Mutation("drop-points", "gnubg_L03_s1013.mat",
             replace={16: ("Wins 1 point", "Wins 2 points")},
             expected=[(1, 16, K.RESULT)]),
    # The game is a gammon with the cube at 2: 4 points, not 2.
    Mutation("played-out-points", "gnubg_L03_s1001.mat",
             replace={41: ("Wins 4 points", "Wins 2 points")},
             expected=[(1, 41, K.RESULT)]),
    # O bore off the last checker, so the Wins line may not credit X.
    Mutation("played-out-winner", "gnubg_L01_s1042.mat",
             replace={40: ("                                  Wins", "      Wins")},
             expected=[(1, 40, K.RESULT)]),
    # A resignation with the cube at 1 is worth at most 3 (a backgammon).
    Mutation("resignation-too-large", "gnubg_L01_s1000.mat",
             replace={33: ("Wins 2 points", "Wins 4 points")},
             expected=[(1, 33, K.RESIGNATION)]),
    # The 1-point match was won in game 1; a second game may not follow.
    Mutation("game-after-match", "gnubg_L01_s1042.mat",
             insert_after={41: [" Game 2", " GnubgA : 0                     GnubgB : 1",
                                "  1) 31: 8/5 6/5", "      Wins 1 point", ""]},
             expected=[(2, 42, K.GAME_AFTER_MATCH)]),
    # 4-4 is a doublet, which no game opens with; 6/4 is also two pips, not four.
    Mutation("opening-doublet", "gnubg_L03_s1013.mat",
             replace={9: ("42: 8/4 6/4", "44: 8/4 6/4")},
             expected=[(1, 9, K.OPENING_DOUBLET), (1, 9, K.ILLEGAL_PLAY)]),
    # Illegal plays in games 1 and 3: each game stops at its own error, nothing cascades.
    Mutation("two-games-each-stop", "gnubg_L03_s1007.mat",
             replace={10: ("51: 13/8 6/5", "51: 13/8 6/4"),
                      94: ("53: 24/21 13/8", "53: 24/21 13/9")},
             expected=[(1, 10, K.ILLEGAL_PLAY), (3, 94, K.ILLEGAL_PLAY)]),
    # Holland: in the post-Crawford game 3, X doubles before either side rolled twice.
    Mutation("holland", "gnubg_L03_s1007.mat",
             rules=MatchRules(holland=True),
             expected=[(3, 93, K.ILLEGAL_DOUBLE)]),
    # The cube goes from 1 to 2, not to 4.
    Mutation("cube-value", "gnubg_L03_s1013.mat",
             replace={15: ("Doubles => 2", "Doubles => 4")},
             expected=[(1, 15, K.CUBE_VALUE)]),
    # The match stops after game 2 at 1-2: unfinished is an error only when asked for.
    Mutation("unfinished-expected", "gnubg_L03_s1007.mat",
             delete=(90, 200), rules=MatchRules(expect_finished=True),
             expected=[(None, None, K.UNFINISHED)]),
    # O rolls twice in a row: the second roll is out of turn.
    Mutation("turn-order", "gnubg_L03_s1001.mat",
             insert_after={9: ["  1)                             32: 24/21 13/11 "]},
             expected=[(1, 10, K.TURN_ORDER)]),
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.name)
def test_mutation_is_rejected_at_the_right_place(mutation: Mutation) -> None:
    text = mutation.apply()

    report = validate_mat(text, rules=mutation.rules)

    assert [(e.game, e.line, e.kind) for e in report.errors] == mutation.expected


def test_unfinished_match_is_only_a_warning_by_default() -> None:
    text = "\n".join((GNUBG / "gnubg_L03_s1007.mat").read_text().split("\n")[:89])

    report = validate_mat(text)

    assert report.errors == ()
    assert [w.message for w in report.warnings] == [
        "the match is unfinished: 1-2 in a 3-point match, nobody reached the length"
    ]


def test_illegal_play_message_names_play_rule_and_position() -> None:
    text = Mutation("m", "gnubg_L03_s1001.mat",
                    replace={11: ("31: 6/5 8/5", "31: 6/5 8/4")}).apply()
    # The position before O's 3-1: the opening 3-2, X's 4-2 hit, O's 2-2 entry, X's 3-3.
    position = Position.initial().turned()
    for dice, play in (("32", "24/21 13/11"), ("42", "6/4* 8/4"),
                       ("22", "25/23 13/11 6/4 6/4"), ("33", "8/5 8/5 6/3 6/3")):
        position = check_play(position.turned(), Roll.parse(dice), parse_play(play))
    before = position.turned()

    error = validate_mat(text).errors[0]

    assert str(error) == (
        "game 1, line 11: 6/5 8/4 with 3-1: 8/4 moves 4 pips, which the dice left (3) cannot "
        f"make (GnubgB on roll, position {before.to_id()}); the rest of game 1 is not checked"
    )


def test_corrupted_play_is_reported_by_its_distance_not_by_a_blocked_point() -> None:
    # O's opening 3-2 turned into 6-2 24/17 13/11: seven pips, which no 6-2 moves one
    # checker; the 17 point being the opponent's 8 point is not the fault. O is on roll in
    # the starting position, gnubg's 4HPwATDgc/ABMA.
    text = Mutation("m", "gnubg_L03_s1001.mat",
                    replace={9: ("32: 24/21 13/11", "62: 24/17 13/11")}).apply()

    error = validate_mat(text).errors[0]

    assert str(error) == (
        "game 1, line 9: 24/17 13/11 with 6-2: 24/17 moves 7 pips; a 6-2 moves a checker "
        "6, 2 or 8 (GnubgB on roll, position 4HPwATDgc/ABMA); the rest of game 1 is not "
        "checked"
    )


def test_mutation_suite_covers_both_columns_several_files_and_games() -> None:
    files = {m.file for m in MUTATIONS}
    games = {game for m in MUTATIONS for game, _, _ in m.expected if game is not None}

    assert len(files) >= 4
    assert games >= {1, 2, 3}
