"""Hand-written hypergammon .mat files, with the header gnubg writes for them.

Hypergammon: three checkers a side, on the 24, 23 and 22 points. The game below was
worked out by hand from that start (A is the left column, B the right; each side's
points in its own numbering, A's point p being B's 25 - p):

1. A 21: 24/22 23/22 -> A 22,22,22.  B 66: 24/18 23/17 22/16 18/12 -> B 17,16,12
   (B's 18, 17, 16, 12 are A's 7, 8, 9, 13: empty).
2. A 21: 22/20 22/21 -> A 22,21,20 (B's 3, 4, 5).  B 55: 17/12 16/11 12/7 11/6
   -> B 12,7,6 (no landing on A's blots at B's 3-5).
3. A 21: 21/20 22/20 -> A 20,20,20.  B 66: 12/6 7/1 6/off 6/off -> B 1 (all home
   after the first two sixes, so the last two bear off).
4. A 21: 20/18 20/19 -> A 20,19,18.  B 21: 1/off: B's last checker is off.

A has borne off nothing and has checkers on its 19 and 20 points, in B's home board:
a backgammon, 3 points when gammons count (gnubg), 1 point under the seed rules.
"""

from __future__ import annotations

from tourney.rules.records import MatchRules, validate_mat
from tourney.rules.variants import VariantOptions


def _line(number: int, left: str, right: str) -> str:
    return f"{number:3d}) {left:<27} {right}\n"


MOVES = (
    _line(1, "21: 24/22 23/22", "66: 24/18 23/17 22/16 18/12")
    + _line(2, "21: 22/20 22/21", "55: 17/12 16/11 12/7 11/6")
    + _line(3, "21: 21/20 22/20", "66: 12/6 7/1 6/0 6/0")
    + _line(4, "21: 20/18 20/19", "21: 1/0")
)


def _match(header: str, wins: int) -> str:
    return (f"{header}\n 3 point match\n\n Game 1\n A : 0                          B : 0\n"
            f"{MOVES}{'':33}Wins {wins} points\n")


HYPER = '; [Variation "HyperGammon (3)"]\n'


def test_hypergammon_backgammon_scores_three_under_gnubg_scoring() -> None:
    report = validate_mat(_match(HYPER, 3))

    assert [str(e) for e in report.errors] == []
    assert [(int(g.winner or 0), g.points) for g in report.games] == [(1, 3)]


def test_hypergammon_without_gammons_scores_one() -> None:
    seeds = MatchRules(options=VariantOptions(gammons=False))

    report = validate_mat(_match(HYPER, 3), rules=seeds)

    assert [str(e) for e in report.errors] == [
        "game 1, line 11: Wins 3 points, but the replay gives 1 point "
        "(single by bearing off, cube 1)"
    ]


def test_same_game_without_the_header_is_illegal() -> None:
    # As standard backgammon, A has 2 checkers on its 24 point but none on its 23.
    report = validate_mat(_match("; plain header\n", 3))

    assert len(report.errors) == 1
    assert report.errors[0].message.startswith("24/22 23/22 with 2-1: there is no checker "
                                               "on the 23 point")


def test_unsupported_variation_is_a_header_error() -> None:
    report = validate_mat(_match('; [Variation "HyperGammon (1)"]\n', 3))

    assert [str(e) for e in report.errors] == [
        "variation 'HyperGammon (1)' is not supported (backgammon, NackGammon, "
        "HyperGammon (3)); no game is checked"
    ]
